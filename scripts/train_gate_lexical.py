#!/usr/bin/env python3
"""Train the gate's learned lexical model from ../shared/data/gate (the training part only).

Writes python/shelldon/core/gate/gate_rules/lexical.bin (the weights Rust scores with,
rust/src/lexical.rs) and lexical.toml (its threshold and how it was made). Reproducible: the
split (scripts/gate_split.py), the seed, the order and the arithmetic are fixed, so the same data
gives the same bytes; the sha256 in lexical.toml says which weights a figure was measured with.

The model: logistic regression over the hashed n-gram buckets `shelldon._native.lexical_features`
gives (the same function the gate scores with), fitted with AdaGrad and an L2 penalty, the two
classes weighted to count equally. Text is first normalised as the instruction rules see it
(`normalise_for_rules`: case folded, look-alikes mapped, disguises undone into extra views).

Positives: injection.jsonl label 1 (of BIPIA's text attacks, those that address the reply), and the
project's own agent orders (scripts/gate_training_examples.toml). Negatives:
injection.jsonl label 0, LoCoMo's training conversation (observations, dialog turns,
summaries), the project's own owner rules and coding facts (gate_training_examples.toml),
a seeded sample of MSRP sentences, and the credential rows (code and config lines
are not instructions; the credential rules catch those). Both: the instruction rules' own
positive and negative examples (the project's own text, not a dataset's).
The threshold is the lowest that keeps the training negatives at or under TARGET_FP refused.

Usage: train_gate_lexical.py [--data DIR] [--check] (--check: train, compare with the stored
weights' sha256, write nothing; exit 1 when they differ)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import struct
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gate_split  # noqa: E402

from shelldon._native import lexical_features  # noqa: E402
from shelldon.core.gate import (  # noqa: E402
    instruction_rules,
    instruction_rules_hit,
    instruction_verdict,
    read_rules,
)
from shelldon.core.gate.normalise import normalise_for_rules, word_count  # noqa: E402

# The fifteenth pass (the classes in six languages; docs/gate-design.md): not learned. Its test
# (tests/core/gate/test_gate_screen_class_battery.py) checks none fires on an owner's line.
FIFTEENTH_PASS_RULES: tuple[str, ...] = (
    "persona-switch-opinion-question",
    "praise-then-new-task",
    "your-rules-void-languages",
    "override-rules-languages",
    "exfil-data-italian-portuguese",
    "delimiter-then-role-line",
    "unrestricted-ai-persona-languages",
    "hypothetical-no-rules-languages",
    "portuguese-dev-mode-and-prompt",
    "ai-reader-address-languages",
    "documents-set-aside-or-shell-pipe",
    "override-above-then-order-languages",
    "initial-instructions-asked-languages",
    "answer-unfiltered-portuguese",
    "forged-turn-handover",
    "exfil-people-records",
    "instructions-shown-or-transformed",
)
# The sixteenth pass (round 4: indirect orders in documents, short orders in six languages,
# persona and policy shapes; docs/gate-design.md): not learned either; tests/core/gate/
# test_gate_round4.py checks the same.
SIXTEENTH_PASS_RULES: tuple[str, ...] = (
    "ai-reader-vocative-order",
    "ai-reader-note-order",
    "answer-only-with-languages",
    "persona-then-new-task-languages",
    "dutch-override-and-prompt",
    "persona-without-rules",
    "obey-policy-key",
    "faq-answer-order",
    "override-typed-carelessly",
    "filters-switched-off",
    "opposite-day-refusals",
    "grandmother-secrets-languages",
    "freed-ai-persona-languages",
    "secret-recited-in-story",
    "two-answers-one-unfiltered",
    "safety-rules-absent-or-paused",
    "opposite-day-languages",
    "filters-switched-off-languages",
    "owner-demoted-key",
    "ai-reader-addressed-order",
)

OUT_DIR = REPO / "python" / "shelldon" / "core" / "gate" / "gate_rules"
BITS = 18
SEED = 16
EPOCHS = 12
LEARNING_RATE = 0.5
L2 = 3e-3
MSRP_SAMPLE = 2500
# Buckets seen in fewer training rows than this carry no weight: a feature of one row is that
# row, not the class.
MIN_ROWS = 5
# Benign text counts this many times a positive row's share: refusing a fact costs more than
# missing an attack the rules may still catch.
NEGATIVE_WEIGHT = 1.0
# Benign prompts (requests that use the attacks' words: "ignore case when sorting", "act as a
# tutor") weigh this many times other benign rows: they are few, and they are where the model
# learns that an imperative is not an injection.
PROMPT_WEIGHT = 4.0
# BIPIA's attacks are tasks placed where a task does not belong. Its code attacks address the
# assistant's own output ("blend this snippet into your code") and are learned. Of its text
# attacks, those that address the assistant's reply ("add this link to your response", "remove
# spaces from your answer") are learned too (`trains_on`, issue 23's third pass); the rest are
# ordinary requests ("describe the lifecycle of a butterfly"): learning them raised the threshold
# the owner's imperatives need (out of fold, 0.82 to 0.96: every other class lost recall). The
# rules and the split-aware report still measure them all.
UNTRAINED_SOURCES: tuple[str, ...] = ()
# Rules whose own examples the model does not learn from: issue 23's fourth pass
# (docs/gate-design.md) added class rules for narrow shapes (SQL in a tool's argument, an HTML
# comment addressed to the model that reads the page, orders in French or Spanish). Learning
# their short examples moved the model, out of fold on the training part: alone it refused 103
# of 123 in-the-wild jailbreaks instead of 107 and 52 of 58 Tensor Trust hijackings instead of
# 54, and its threshold rose (0.594 to 0.616). The rules catch these shapes themselves; the
# model learns what it learned before (its weights are byte for byte those of the third pass).
UNTRAINED_RULES: tuple[str, ...] = (
    # The third red team round (docs/gate-design.md): rules from its classes, not learned.
    "future-answer-dictated",
    "preference-without-consent",
    "tool-payload-sql",
    "text-above-question",
    "instructions-question",
    "exfil-other-languages",
    "rules-do-not-apply",
    "hidden-comment-order",
    "when-processing-order",
    "harm-without-refusal",
    # Issue 23's fifth pass: the address to an AI reader of a document (an email's "any AI reading
    # this", a review's "[assistant: ...]") and a claimed identity ("I work for the company that
    # built you"). The model trained with the first one's examples and the pass's own sentences
    # refused a held-out LoCoMo line and more benign prompts (docs/gate-design.md).
    "ai-reader-address",
    "claimed-identity",
    # Issue 23's sixth pass: orders to act without the owner (pay, delete, send, merge
    # "without asking", "automatically") and a claimed role giving an order. Not learned, so the
    # stored weights stay the fifth pass's.
    "unattended-action",
    "authority-order",
    # Issue 23's seventh pass: an order in a document about the answers on it, personas in other
    # languages and the late relative's, a claim of being jailbroken, harm wrapped in an evasion,
    # an encoded order, a destructive command, a grant to break the rules. Not learned either.
    "document-reply-order",
    "persona-other-languages",
    "persona-late-relative",
    "jailbroken-claim",
    "evasion-harm-request",
    "encoded-order",
    "destructive-command",
    "permission-to-break-rules",
    "harmful-how-to",
    "sweeping-action-order",
    "safety-rules-off-other-languages",
    "sensitive-file-request",
    "override-user-request",
    "filter-evasion",
    "claimed-capability-order",
    # Issue 23's eighth pass: topic hijacks and forced answers (a dictated answer, a named persona
    # asked for its view, forgetting what came before, the text above, a next task after praise,
    # a world without limits, disinformation ordered, access whatever the password, two garak
    # framings, the articles put aside, staying in role, the contests' "pwned"). Not learned: the
    # weights stay the same.
    "forced-answer",
    "named-persona-question",
    "forget-what-came-before",
    "text-above-extraction",
    "next-task-pivot",
    "hypothetical-no-limits",
    "disinformation-order",
    "access-regardless",
    "inverted-tone-claim",
    "context-override",
    "stay-in-role-german",
    "dictated-pwned",
    # Issue 23's eighth pass: orders about the reply's form and content (a cipher, a link, a claim
    # for the reader), phishing through the assistant, encoded orders, actions without the owner
    # in German, answers as if there were no policy, tool arguments that carry an injection and
    # tools spent for someone else. Not learned, so the stored weights stay the seventh pass's.
    "reply-format-order",
    "reply-advert-order",
    "reader-claim-order",
    "user-phishing-order",
    "encoded-payload-order",
    "unattended-action-german",
    "policy-absent-answer",
    "tool-argument-payload",
    "tool-action-order",
    # Issue 23's ninth pass: the reply's spelling disguised, a second task slipped in while a
    # document is handled, a slanted summary, readers lured to a link or their money, the prompt
    # asked for and the restrictions declared gone in French, Spanish, Italian and German, insults
    # ordered, capabilities pretended, the password games' extraction, answers without refusals.
    # Not learned: the weights stay the eighth pass's.
    "reply-spelling-transform",
    "second-task-slipped",
    "slanted-summary",
    "reader-lure-order",
    "prompt-reveal-other-languages",
    "restrictions-gone-other-languages",
    "insult-order",
    "pretend-capability",
    "password-game-extraction",
    "no-refusal-order",
    # Issue 23's tenth pass (instructions and authority): the model set over the owner, the
    # owner's rules declared void, secrets ordered out to the model, a coding agent's checks
    # skipped, the model made the owner, refusals hidden from her, consent removed as her wish,
    # the vault opened by a claimed permission. Not learned: the weights stay the ninth pass's.
    "obey-over-owner",
    "owner-rules-void",
    "reveal-to-model",
    "checks-skipped-order",
    "model-as-owner",
    "conceal-from-owner",
    "consent-removed-preference",
    "secret-access-grant",
    # Issue 23's eleventh pass (indirect injections): a translation ordered of whatever the prompt
    # holds, a forged context-and-question frame, a style order spliced into a German question,
    # the text above asked for in German, evil personas in German, false news ordered by a
    # relative clause, a dictated output and a yes-only answer, an answer in a hateful persona's
    # voice (and stay-in-role-german reads "fallen nie aus der Rolle"). Not learned: the weights
    # stay the tenth pass's.
    "translate-hijack",
    "forged-context-question",
    "spliced-style-order",
    "text-above-german",
    "persona-malicious-german",
    "false-news-order",
    "dictated-output-order",
    "hateful-persona-answer",
    # Issue 23's twelfth pass (agency, evasion and smuggling, from the classes): a scheme's
    # hidden message to be acted on, the owner's money, accounts, contacts and database ordered
    # about, a request wrapped in a lawless world, a copied relative, rules declared not to apply
    # to the speaker or an answer without filters. Not learned: the weights stay the eleventh's.
    "smuggled-scheme-order",
    "owner-assets-order",
    "evasion-wrapper-request",
    # Issue 23's thirteenth pass: a forged system notice in another language that orders something
    # about every answer, and the system prompt asked for translated, explained or paraphrased.
    # Not learned: the weights stay the twelfth pass's.
    "system-notice-every-answer",
    "prompt-transform-extraction",
    # and an injection's conditional answer about its own page, and the forged success asked for
    # as the opposite of "access denied".
    "document-conditional-answer",
    "access-denied-inverted",
    "freed-ai-persona",
    "sponsored-answer-claim",
    "task-redefined-after-pivot",
    "persona-switch-writing-order",
    # The fourteenth pass (owners' words): orders to drop what the owner or the user said, and new
    # instructions for the assistant in German. Not learned: the weights stay the twelfth pass's.
    "owner-words-overridden",
    "new-instructions-for-assistant-german",
    "owner-words-then-leak",
    *FIFTEENTH_PASS_RULES,
    # The second red team's rules (policy keys that turn off asking the owner, orders from
    # someone other than the owner, disclosure to anyone, destroying the owner's rules): not
    # learned either (they were left off this list when they landed, and the model trained
    # afterwards no longer matched the stored weights).
    "policy-key-consent-off",
    "orders-from-other-than-owner",
    "owner-not-asked",
    "disclosure-to-anyone",
    "destroy-owner-rules",
    *SIXTEENTH_PASS_RULES,
    # The indirect pass's structural reading (gate.indirect: an order to the machine that reads a
    # text, read from its addressee, a reading condition and a directive). It has no examples in
    # the rules file; not learned, so the stored weights stay as they are.
    "indirect-reader-directive",
    # The lead's jailbreak families (docs/gate-design.md, "Jailbreak families, the lead's round"),
    # written from the classes: not learned, so the stored weights stay as they are.
    "persona-never-refuses",
    "fiction-frame-real-procedure",
    "as-late-relative-order",
    "answer-without-censorship",
    # The leftovers pass (docs/gate-design.md): the mailbox sent to an outside address. Not
    # learned: the weights stay as they are.
    "exfil-mailbox",
    "override-all-then-order",
    "exfil-records-possessive-dutch",
    "freed-declarative-fr-pt",
    "praise-then-new-task-dutch",
    # The carried-task pass (gate.carried: a one-off task inside content it is no part of). No
    # examples, not learned: the stored weights stay as they are.
    "carried-task",
    # Its deepset half: a persona given with a trailing "now" then asked its view, and a style order
    # spliced into an English question. Not learned either.
    "persona-now-opinion-question",
    "spliced-style-order-english",
    # The fourth red team round (docs/gate-design.md, "Fourth red team round"): the owner's rules
    # set aside and her secrets sent out in more languages (a policy written as configuration
    # widened `policy-key-consent-off`, above). Not learned: the stored weights stay as they are.
    "owner-rules-override-more-languages",
    "exfil-secrets-more-languages",
    # Its held-apart set: a standing grant forged in the owner's voice, the pet acting unasked.
    "owner-voice-standing-grant",
    "pet-acts-unasked",
    # The open classes pass (docs/gate-design.md, "Open classes"): a grant forged in the owner's
    # name, a note in code addressed to the assistant, and gate.foreign_orders's structural rule.
    "forged-owner-grant",
    "code-note-to-assistant",
    "other-language-order",
    # The second open classes pass (docs/gate-design.md, "Open classes, second pass"): a note in
    # code addressed to the assistant in another language, a grant in the owner's voice without
    # "you". Orders of more shapes and scripts are gate.foreign_orders's (other-language-order).
    "code-note-to-assistant-languages",
    "owner-fine-with-grant",
    # The third indirect round (docs/gate-design.md, "Orders in forwarded content, short orders
    # and jailbreak frames"): harm requests, mode switches, pivots to secrets, grandparents and
    # roles, "new task:" headings, replies turned on the reader. Not learned: the stored weights
    # stay as they are. Its foreign shapes are gate.foreign_orders's (other-language-order).
    "harm-code-or-gas-request",
    "unrestricted-mode-switch",
    "pivot-then-reveal-secrets",
    "grandparent-vocative-recital",
    "persona-now-role-languages",
    "new-task-heading-secrets-languages",
    "reply-turned-on-reader",
    "summary-portrays-falsely",
    "user-lowers-defences",
    "new-instructions-line-head",
    "act-as-role-german",
    "role-handed-over-german",
    "task-dropped-instead",
    "next-task-declared",
    "taken-from-owner",
    # The seventh hostile round (docs/gate-design.md, "Seventh hostile round"): orders dressed as
    # the pet's past habit, a change already made, a conditional for later, a glossary. Not
    # learned: the stored weights stay as they are.
    "past-habit-order",
    "consent-removed-as-change",
    "conditional-disclosure",
    "owner-redefined",
    # The held-apart families (docs/gate-design.md, "Families held apart"): a request cut into
    # pieces the reader is told to join and act on, a relative's role given with the trade that
    # knows the answer, the reply's first words dictated as a quoted yes, a harmful thing's
    # precursors or quantities asked for, a persona with no regard for the law, the assistant's
    # refusal phrases banned, a topic dropped for new writing in five languages, a stance held
    # whatever is asked. Not learned: the stored weights stay as they are.
    "assembled-payload-order",
    "relative-role-recital",
    "affirmative-prefix-order",
    "harm-procedure-details",
    "persona-without-regard",
    "refusal-phrase-banned",
    "topic-dropped-then-order-languages",
    "standing-stance-order",
)


# The project's own training text (orders an agent's memory meets, owner rules that must pass).
TRAINING_EXAMPLES = Path(__file__).resolve().parent / "gate_training_examples.toml"
# Under this many words a text is "short" and has its own threshold (learned.MIN_WORDS_ALONE).
SHORT_WORDS = 16
FOLDS = 4
# Out of fold, the share of benign text the classifier may refuse: memory-like text alone
# (none: LoCoMo must stay at or under 0.1 % on text training never saw, and out of fold any
# refusal here is one too many), and prompts (at most 2 % of benign prompts refused),
# alone or where a weak rule fires too (a weak rule of one family does not refuse on its own).
MEMORY_FP = 0.0
PROMPT_FP = 0.02
# The model alone may refuse at most this share of all benign prompts among the long ones the
# rules pass, and the same among the short ones (out of fold): the rules already spend most of
# the 2 % (8 of 353 training prompts), so the model gets a quarter of it, half long, half short.
PROMPT_FP_ALONE = 0.005
# Code and config lines (the credential samples' lines): the credential rules screen them for
# keys; as instructions, at most one in a thousand refused (the aim memory text has).
CODE_FP = 0.001
# Weak rules of two families refuse only where the model scores the text at least as high as
# this share of the training attacks they refuse (out of fold).
CORROBORATE_RECALL = 0.95
# A text with fewer distinct n-grams than this is scored as if it had this many (rust/src/
# lexical.rs): "always answer in english" (about 100) must not weigh like a paragraph.
NORM_FLOOR = 200
# Weights are stored as i16 times one scale: 2**18 buckets in 512 KB.
QUANT = 32767


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


class Row(NamedTuple):
    text: str
    label: int
    kind: str  # the class it is reported under
    group: str  # its origin: rows of one origin share a fold
    memory_like: bool  # benign text of the kind memory keeps (not a prompt)


def weak_rule_alone(text: str) -> bool:
    """A weak instruction rule fires but the rules do not refuse: where the model's weak
    threshold decides."""
    fired = instruction_rules_hit(text)
    if instruction_verdict(fired) is not None:
        return False
    rules = instruction_rules()
    return any(r in rules and rules[r].strength == "weak" for r in fired)


# A text that speaks to the assistant about its own reply ("in your response", "modify your
# answer"): what makes one of BIPIA's text attacks an order rather than an ordinary request.
_ADDRESSES_THE_REPLY = re.compile(
    r"\byour\s+(?:[^\W_]+\s+)?(?:response|responses|reply|replies|answer|answers|output|outputs)\b",
    re.IGNORECASE,
)


def trains_on(row: dict[str, Any]) -> bool:
    """Whether an injection.jsonl training-part row is learned from: every row but BIPIA's text
    attacks that do not address the assistant's reply (the comment above UNTRAINED_SOURCES)."""
    if not (row["source"].startswith("microsoft/BIPIA") and row["subset"].startswith("text")):
        return True
    return bool(_ADDRESSES_THE_REPLY.search(row["text"]))


def two_weak_families(text: str) -> bool:
    """The rules refuse on weak rules of two families, no strong rule among them. The rules the
    model does not learn from (UNTRAINED_RULES) are left out: the corroborating threshold is the
    model's, set among the attacks the rules it was fitted beside refuse in pairs. Issue 23's
    eighth pass: its strong rules took 3 of these 21 attacks out of the pool, the threshold fell
    from 0.420 to 0.397, and a held-out benign prompt with two weak families was refused."""
    fired = [r for r in instruction_rules_hit(text) if r not in UNTRAINED_RULES]
    verdict = instruction_verdict(fired)
    rules = instruction_rules()
    return bool(verdict) and not any(rules[r].strength == "strong" for r in verdict or ())


def training_rows(data: Path) -> list[Row]:
    """Every training-part row the model learns from."""
    rows: list[Row] = []
    for row in read_jsonl(data / "injection.jsonl"):
        if gate_split.injection_part(row) == gate_split.TRAIN:
            if row["source"].startswith(UNTRAINED_SOURCES) or not trains_on(row):
                continue
            label = int(row["label"])
            kind = gate_split.injection_group(row) if label else gate_split.benign_group(row)
            group = gate_split.injection_group_key(row)
            rows.append(Row(row["text"], label, kind, group, False))
    # The instruction rules' own examples (the project's, in gate_rules/instructions.toml): hard
    # negatives that use the attacks' words ("forget about it", "pretend to be the owner of a
    # bakery for the kids' game"), and the positives they were written against.
    for rule in read_rules("instructions").rules:
        if rule.id in UNTRAINED_RULES:
            continue
        for text in rule.positives:
            rows.append(Row(text, 1, "rule examples", f"rules|{rule.id}", False))
        for text in rule.negatives:
            rows.append(Row(text, 0, "rule examples", f"rules|{rule.id}", False))
    own = tomllib.loads(TRAINING_EXAMPLES.read_text(encoding="utf-8"))
    for index, text in enumerate(own["orders"]):
        rows.append(Row(text, 1, "own orders", f"own|order|{index}", False))
    for index, text in enumerate(own["keep"]):
        rows.append(Row(text, 0, "own keep", f"own|keep|{index}", True))
    for name in ("observations", "dialog_turns", "session_summaries"):
        for row in read_jsonl(data / f"benign_locomo_{name}.jsonl"):
            if gate_split.locomo_part(row) == gate_split.TRAIN:
                rows.append(Row(row["text"], 0, "LoCoMo", f"locomo|{row['session']}", True))
    for row in read_jsonl(data / "secrets.jsonl"):
        if gate_split.secret_part(row) == gate_split.TRAIN:
            rows.append(Row(row["text"], 0, "credential lines", row["source"], True))
    sentences: list[tuple[str, str]] = []
    with (data / "neardup_msr_paraphrase_train.txt").open(encoding="utf-8-sig") as handle:
        next(handle)
        for line in handle:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 5 and gate_split.paraphrase_part(parts[1]) == gate_split.TRAIN:
                sentences += [(parts[3], parts[1]), (parts[4], parts[1])]
    rng = random.Random(SEED)
    unique = sorted(dict(sentences).items())
    for sentence, pair in rng.sample(unique, min(MSRP_SAMPLE, len(unique))):
        rows.append(Row(sentence, 0, "MSRP sentences", f"msrp|{pair}", True))
    return rows


def featurise(text: str) -> list[int]:
    return lexical_features(normalise_for_rules(text), BITS)


def fit(
    samples: list[tuple[list[int], int]], weights_of: list[float] | None = None
) -> tuple[list[float], float]:
    """Logistic regression with AdaGrad; each class weighted to half the total (negatives times
    NEGATIVE_WEIGHT), on the buckets seen in at least MIN_ROWS rows."""
    size = 1 << BITS
    seen = [0] * size
    for buckets, _ in samples:
        for b in buckets:
            seen[b] += 1
    samples = [([b for b in buckets if seen[b] >= MIN_ROWS], label) for buckets, label in samples]
    weights = [0.0] * size
    squares = [1e-8] * size
    bias, bias_square = 0.0, 1e-8
    positives = sum(label for _, label in samples)
    negatives = len(samples) - positives
    class_weight = {
        1: len(samples) / (2 * positives),
        0: NEGATIVE_WEIGHT * len(samples) / (2 * negatives),
    }
    row_weight = weights_of or [1.0] * len(samples)
    order = list(range(len(samples)))
    rng = random.Random(SEED)
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for index in order:
            buckets, label = samples[index]
            if not buckets:
                continue
            inv = 1.0 / math.sqrt(max(len(buckets), NORM_FLOOR))
            margin = bias + sum(weights[b] for b in buckets) * inv
            probability = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, margin))))
            gradient = (probability - label) * class_weight[label] * row_weight[index]
            for b in buckets:
                g = gradient * inv + L2 * weights[b]
                squares[b] += g * g
                weights[b] -= LEARNING_RATE * g / math.sqrt(squares[b])
            bias_square += gradient * gradient
            bias -= LEARNING_RATE * gradient / math.sqrt(bias_square)
    return weights, bias


def quantise(weights: list[float]) -> tuple[list[int], float]:
    largest = max(abs(w) for w in weights) or 1.0
    scale = largest / QUANT
    return [round(w / scale) for w in weights], scale


def encode(quantised: list[int], bias: float, scale: float) -> bytes:
    header = b"SHLXLIN2" + struct.pack("<IIff", BITS, NORM_FLOOR, bias, scale)
    return header + struct.pack(f"<{len(quantised)}h", *quantised)


def margin_of(weights: list[float], bias: float, buckets: list[int]) -> float:
    if not buckets:
        return bias
    return bias + sum(weights[b] for b in buckets) / math.sqrt(max(len(buckets), NORM_FLOOR))


def out_of_fold(
    rows: list[Row], samples: list[tuple[list[int], int]], unlearned: list[Row] | None = None
) -> tuple[list[float], list[float]]:
    """Each training row's probability from a model fitted on the other folds (by origin); and
    each `unlearned` row's (training-part rows the model never learns from), by its fold's
    model the same way."""
    scores = [0.0] * len(rows)
    folds = [gate_split.fold_of(row.group, FOLDS) for row in rows]
    unlearned = unlearned or []
    extra = [featurise(row.text) for row in unlearned]
    extra_folds = [gate_split.fold_of(row.group, FOLDS) for row in unlearned]
    extra_scores = [0.0] * len(unlearned)
    weighted = row_weights(rows)
    for fold in range(FOLDS):
        keep = [i for i, f in enumerate(folds) if f != fold]
        weights, bias = fit([samples[i] for i in keep], [weighted[i] for i in keep])
        for index, f in enumerate(folds):
            if f == fold:
                scores[index] = logistic(margin_of(weights, bias, samples[index][0]))
        for index, f in enumerate(extra_folds):
            if f == fold:
                extra_scores[index] = logistic(margin_of(weights, bias, extra[index]))
    return scores, extra_scores


def unlearned_rows(data: Path) -> list[Row]:
    """Training-part attacks the model does not learn from (BIPIA's text attacks that are
    ordinary requests, see `trains_on`): scored out of fold all the same, so the training
    part's figure for their class covers every row the report counts."""
    rows: list[Row] = []
    for row in read_jsonl(data / "injection.jsonl"):
        if gate_split.injection_part(row) == gate_split.TRAIN and not trains_on(row):
            group = gate_split.injection_group_key(row)
            rows.append(Row(row["text"], 1, gate_split.injection_group(row), group, False))
    return rows


def row_weights(rows: list[Row]) -> list[float]:
    return [PROMPT_WEIGHT if r.label == 0 and not r.memory_like else 1.0 for r in rows]


def logistic(margin: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, margin))))


def threshold_for(scores: list[float], share: float, out_of: int | None = None) -> float:
    """The lowest probability threshold (at least one half) refusing at most `share` of the
    negatives' `scores` (or of `out_of` rows, when `scores` are the ones it decides among more)."""
    ranked = sorted(scores, reverse=True)
    allowed = int((len(ranked) if out_of is None else out_of) * share)
    return max(0.5, ranked[allowed] + 1e-6) if allowed < len(ranked) else 0.5


class Thresholds(NamedTuple):
    alone: float  # refuses alone, text of SHORT_WORDS words or more
    short: float  # refuses alone, shorter text
    weak: float  # refuses beside a weak rule of one family
    corroborate: float  # weak rules of two families refuse only at or above this


def _code(row: Row) -> bool:
    return row.kind == "credential lines"


def _prompt(row: Row) -> bool:
    """A benign prompt (not memory text, not one of the rules' own examples)."""
    return row.label == 0 and not row.memory_like and row.kind != "rule examples"


def _rules_pass(row: Row) -> bool:
    """The instruction rules alone do not refuse the row."""
    return instruction_verdict(instruction_rules_hit(row.text)) is None


def _short(row: Row) -> bool:
    return word_count(row.text) < SHORT_WORDS


def thresholds(rows: list[Row], scores: list[float]) -> Thresholds:
    """Out of fold: memory-like negatives refused at most MEMORY_FP by the classifier alone and
    prompts at most PROMPT_FP; short text the same among short negatives, where the rules' own
    negative examples (owner-rule-like imperatives) count as memory text; beside a weak rule,
    the negatives a weak rule fires on at most PROMPT_FP."""
    scored = list(zip(rows, scores, strict=True))
    # The model alone decides text of SHORT_WORDS words or more at `alone` (shorter text at
    # `short`, never lower): each is chosen among the rows it decides.
    long = [(row, s) for row, s in scored if row.label == 0 and not _short(row)]
    memory = [s for row, s in long if row.memory_like and not _code(row)]
    code = [s for row, s in long if _code(row)]
    # Prompts the rules refuse anyway cost nothing more when the model refuses them too.
    prompts = [s for row, s in long if not row.memory_like and _rules_pass(row)]
    negatives = [row for row, _ in scored if row.label == 0]
    alone = max(
        threshold_for(memory, MEMORY_FP),
        threshold_for(code, CODE_FP, sum(1 for row in negatives if _code(row))),
        threshold_for(prompts, PROMPT_FP_ALONE, sum(1 for row in negatives if _prompt(row))),
    )
    short_memory = [
        s
        for row, s in scored
        if row.label == 0 and _short(row) and (row.memory_like or row.kind == "rule examples")
    ]
    short_prompts = [s for row, s in scored if _prompt(row) and _short(row) and _rules_pass(row)]
    short = max(
        alone,
        threshold_for(short_memory, MEMORY_FP),
        threshold_for(short_prompts, PROMPT_FP_ALONE, sum(1 for row in negatives if _prompt(row))),
    )
    # Beside a weak rule: the benign rows a weak rule fires on refused at most PROMPT_FP (never
    # above the short threshold, which refuses short text alone).
    weak = [s for row, s in scored if row.label == 0 and weak_rule_alone(row.text)]
    weak_threshold = min(short, threshold_for(weak, PROMPT_FP))
    # Weak rules of two families: the threshold that keeps CORROBORATE_RECALL of the training
    # attacks they refuse (out of fold); benign text under it passes.
    paired = sorted(s for row, s in scored if row.label == 1 and two_weak_families(row.text))
    corroborate = paired[int(len(paired) * (1 - CORROBORATE_RECALL))] - 1e-6 if paired else 0.0
    return Thresholds(alone, short, weak_threshold, max(0.0, min(weak_threshold, corroborate)))


def combined_refuses(row: Row, score: float, limits: Thresholds) -> bool:
    """What instruction_finding decides for `row` when the model scores it `score`."""
    rules = instruction_rules()
    fired = instruction_rules_hit(row.text)
    verdict = instruction_verdict(fired)
    if verdict:
        strong = any(rules[r].strength == "strong" for r in verdict)
        return strong or score >= limits.corroborate
    if score >= (limits.short if _short(row) else limits.alone):
        return True
    weak = any(r in rules and rules[r].strength == "weak" for r in fired)
    return weak and score >= limits.weak


def combined_counts(
    rows: list[Row], scores: list[float], limits: Thresholds
) -> dict[str, tuple[int, int]]:
    """Per 'label|class', how many rows the rules and the fold model together refuse, each row
    scored out of fold: the training part's prediction for origins it has not seen."""
    counts: dict[str, tuple[int, int]] = {}
    for row, score in zip(rows, scores, strict=True):
        hits, total = counts.get(f"{row.label}|{row.kind}", (0, 0))
        counts[f"{row.label}|{row.kind}"] = (hits + combined_refuses(row, score, limits), total + 1)
    return dict(sorted(counts.items()))


def combined_out_of_fold(rows: list[Row], scores: list[float], limits: Thresholds) -> list[str]:
    return [
        f"  {'recall' if k[0] == '1' else 'refused'} | {k[2:]}: {h / n:.3f} ({h}/{n})"
        for k, (h, n) in combined_counts(rows, scores, limits).items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="the gate data directory (default: ../shared/data/gate)")
    parser.add_argument("--check", action="store_true", help="train and compare; write nothing")
    args = parser.parse_args(argv)
    from gate_report import find_data

    data = find_data(args.data)
    if data is None or not data.is_dir():
        print(
            f"train-gate-lexical: no gate data at {data}: it lives outside the repository "
            "(../shared/data/gate beside the clone, or $SHELLDON_SHARED_DATA/gate)"
        )
        return 1
    rows = training_rows(data)
    samples = [(featurise(row.text), row.label) for row in rows]
    unlearned = unlearned_rows(data)
    oof, unlearned_oof = out_of_fold(rows, samples, unlearned)
    limits = thresholds(rows, oof)
    alone, short, weak, corroborate = limits
    weights, bias = fit(samples, row_weights(rows))
    quantised, scale = quantise(weights)
    blob = encode(quantised, bias, scale)
    digest = hashlib.sha256(blob).hexdigest()
    positives = sum(row.label for row in rows)
    print(
        f"trained on {len(rows)} rows ({positives} positive), {1 << BITS} buckets, "
        f"{sum(1 for q in quantised if q)} non-zero; thresholds {alone:.4f} alone, "
        f"{short:.4f} alone on short text, {weak:.4f} beside a weak rule, {corroborate:.4f} "
        f"beside two weak families; sha256 {digest}"
    )
    print("out of fold, rules and model together:")
    print("\n".join(combined_out_of_fold(rows + unlearned, oof + unlearned_oof, limits)))
    if args.check:
        path = OUT_DIR / "lexical.bin"
        stored = path.read_bytes() if path.exists() else b""
        same = hashlib.sha256(stored).hexdigest() == digest
        print("the stored weights are these" if same else "the stored weights differ")
        return 0 if same else 1
    (OUT_DIR / "lexical.bin").write_bytes(blob)
    # Out-of-fold scores per class, for the report's middle column (scripts/gate_report.py).
    by_kind: dict[str, list[float]] = {}
    for row, score in zip(rows, oof, strict=True):
        by_kind.setdefault(f"{row.label}|{row.kind}", []).append(score)
    lines = [
        "# Written by scripts/train_gate_lexical.py; do not edit (retrain instead).",
        f"threshold = {alone:.6f}",
        f"short_threshold = {short:.6f}",
        f"short_words = {SHORT_WORDS}",
        f"weak_threshold = {weak:.6f}",
        f"corroborate_threshold = {corroborate:.6f}",
        f"bits = {BITS}",
        f"norm_floor = {NORM_FLOOR}",
        f"seed = {SEED}",
        f"epochs = {EPOCHS}",
        f"l2 = {L2}",
        f"min_rows = {MIN_ROWS}",
        f"prompt_weight = {PROMPT_WEIGHT}",
        f"folds = {FOLDS}",
        f"training_rows = {len(rows)}",
        f"training_positives = {positives}",
        f'sha256 = "{digest}"',
        "",
        "# Each training row's probability from the fold model that did not see its origin,",
        "# as 'label|class' = [scores]; the report combines them with the rules.",
        "[out_of_fold]",
    ]
    lines += [
        f'"{key}" = [{", ".join(f"{s:.4f}" for s in scores)}]'
        for key, scores in sorted(by_kind.items())
    ]
    lines += [
        "",
        "# What the rules and the fold model together refuse, as 'label|class' = [refused, rows].",
        "[combined_out_of_fold]",
    ]
    everything = combined_counts(rows + unlearned, oof + unlearned_oof, limits)
    lines += [f'"{k}" = [{h}, {n}]' for k, (h, n) in everything.items()]
    (OUT_DIR / "lexical.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT_DIR / 'lexical.bin'} and lexical.toml", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
