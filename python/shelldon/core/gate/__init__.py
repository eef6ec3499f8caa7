"""The memory gate: one pure function decides every durable write.

- `decide(candidate, existing, limits)` returns a `Decision` (create, update, skip or reject) with a
  reason code and a reason a person understands; its stages are listed in `gate.decide`.
- `screen_text(text)` is the safety screen alone (secrets and instruction-shaped text);
  `blank_secrets(text)` replaces credentials in text kept as a record (episodes, learnings,
  history). Reasons never echo a secret.

Modules: `model` (Candidate, ExistingEntry, Limits, Decision, reason codes), `rules` (the rules
files in `gate_rules/` and their compiled scanners), `views` (the text with a disguise undone:
fullwidth, look-alikes, spaced out, split, hex, base64, each mapped back to the original),
`normalise` (text as the checks see it), `learned` (the n-gram model), `screen` (the safety
screen), `decide` (the stages), `identifiers` (two facts or one: an identifier or a value differs),
`authority` (text claiming a role it does not have), `pieces` (every field of an op, and pieces
split across ops and writes), `records` (text kept as a record, secrets blanked).
The gate is the one package whose face publishes names: `shelldon.core.gate` is its function.
"""

from shelldon.core.gate.decide import decide, document_names_unheard
from shelldon.core.gate.learned import LEXICAL_RULE_ID, LexicalScore, lexical_score
from shelldon.core.gate.model import (
    BAD_MERGE,
    COLLECTION_FULL,
    CONFIRMED,
    CREATED,
    DEFAULT_LIMITS,
    DUPLICATE,
    FLAG_COLLECTION_FULL,
    FLAG_INDEX_FULL,
    IMPROVED,
    INDEX_FULL,
    INSTRUCTION,
    LOWER_PROVENANCE,
    MERGED,
    NEAR_DUPLICATE,
    OWNER_PROTECTED,
    OWNER_RESTATED,
    REVISED,
    SECRET,
    TOO_LONG,
    TOO_SHORT,
    VALUE_UPDATED,
    Action,
    Candidate,
    Decision,
    ExistingEntry,
    Limits,
    Status,
)
from shelldon.core.gate.normalise import (
    normalise_for_compare,
    normalise_for_rules,
    strip_invisible,
    word_count,
)
from shelldon.core.gate.rules import (
    RULE_FILES,
    Rule,
    RuleSet,
    instruction_rules,
    instruction_scanner,
    load_rules,
    parse_rules,
    read_rules,
    secret_scanner,
)
from shelldon.core.gate.screen import (
    InstructionFinding,
    Refusal,
    SecretHit,
    blank_secrets,
    find_secrets,
    instruction_finding,
    instruction_rules_hit,
    instruction_verdict,
    is_instruction_shaped,
    screen_owners_task,
    screen_text,
)

__all__ = [
    "BAD_MERGE",
    "COLLECTION_FULL",
    "CONFIRMED",
    "CREATED",
    "DEFAULT_LIMITS",
    "DUPLICATE",
    "FLAG_COLLECTION_FULL",
    "FLAG_INDEX_FULL",
    "IMPROVED",
    "INDEX_FULL",
    "INSTRUCTION",
    "LEXICAL_RULE_ID",
    "LOWER_PROVENANCE",
    "MERGED",
    "NEAR_DUPLICATE",
    "OWNER_PROTECTED",
    "OWNER_RESTATED",
    "REVISED",
    "RULE_FILES",
    "SECRET",
    "TOO_LONG",
    "TOO_SHORT",
    "VALUE_UPDATED",
    "Action",
    "Candidate",
    "Decision",
    "ExistingEntry",
    "InstructionFinding",
    "LexicalScore",
    "Limits",
    "Refusal",
    "Rule",
    "RuleSet",
    "SecretHit",
    "Status",
    "blank_secrets",
    "decide",
    "document_names_unheard",
    "find_secrets",
    "instruction_finding",
    "instruction_rules",
    "instruction_rules_hit",
    "instruction_scanner",
    "instruction_verdict",
    "is_instruction_shaped",
    "lexical_score",
    "load_rules",
    "normalise_for_compare",
    "normalise_for_rules",
    "parse_rules",
    "read_rules",
    "screen_owners_task",
    "screen_text",
    "secret_scanner",
    "strip_invisible",
    "word_count",
]
