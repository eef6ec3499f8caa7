"""The memory gate: one pure function decides every durable write.

`decide(candidate, existing, limits)` returns a `Decision` (create, update, skip or reject), the
entry it targets, a reason code, a reason a person understands, what it supersedes, and flags.
It reads nothing and writes nothing: the caller (core.memory) applies the decision and audits it.

Checks run in a fixed order and the first that settles the candidate wins:

1. safety      credential-shaped text, instruction-shaped text, too short / too long  -> reject
2. provenance  owner > observed > inferred. A lower provenance never replaces or revises a higher
               one (an inference revising an owner entry is rejected; one revising an observed
               entry is skipped). The owner restating a rule with a new value supersedes the old
               rule (kept, marked superseded by the caller).
3. exact       the same text after normalisation already exists                     -> skip
4. near        token-set similarity (Rust) over the threshold and no veto: a better
               candidate updates the entry, one that is no better is skipped. A swapped negation,
               number or proper noun vetoes "duplicate": those are two facts.
5. caps        a full collection skips with the `collection_full` flag (the dream consolidates);
               a full index (MEMORY.md lines/bytes) skips with `index_full`. A merge that does
               not grow the collection is admitted.

`screen_text(text)` is the safety screen alone (secrets and instruction-shaped text);
`blank_secrets(text)` replaces credentials in text kept as a record (episodes, learnings, history).
Reasons never echo a secret: they name the rule and show a preview with the value blanked.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

import msgspec

from shelldon._native import Scanner, similarity_batch

Provenance = Literal["owner", "observed", "inferred"]
Action = Literal["create", "update", "skip", "reject"]
Status = Literal["active", "superseded"]

PROVENANCE_RANK: dict[str, int] = {"owner": 3, "observed": 2, "inferred": 1}

# Reason codes, one per branch. The audit log and tests key on these; the prose is for people.
SECRET = "secret"
INSTRUCTION = "instruction"
TOO_SHORT = "too_short"
TOO_LONG = "too_long"
BAD_MERGE = "bad_merge"
OWNER_PROTECTED = "owner_protected"
LOWER_PROVENANCE = "lower_provenance"
DUPLICATE = "duplicate"
NEAR_DUPLICATE = "near_duplicate"
COLLECTION_FULL = "collection_full"
INDEX_FULL = "index_full"
CREATED = "created"
MERGED = "merged"
OWNER_RESTATED = "owner_restated"
REVISED = "revised"
IMPROVED = "improved"
CONFIRMED = "confirmed"

# Flags (Decision.flags): hints for the caller beyond the action.
FLAG_COLLECTION_FULL = "collection_full"
FLAG_INDEX_FULL = "index_full"


class Candidate(msgspec.Struct, frozen=True, kw_only=True):
    """A proposed write.

    `stem` names an existing entry when the writer addresses one (a Remember op's name, a CLI
    edit); None lets the gate find the entry it repeats, if any. `merges` says "this consolidates
    entries X, Y" (stems in the same collection): they are superseded by the new entry, and a merge
    that does not grow the collection passes the cap.
    """

    collection: str
    title: str
    body: str
    provenance: Provenance = "inferred"
    stem: str | None = None
    merges: tuple[str, ...] = ()
    confidence: float | None = None


class ExistingEntry(msgspec.Struct, frozen=True, kw_only=True):
    """The gate's view of a stored entry (core.memory builds it from shelldon.core.entry)."""

    stem: str
    collection: str
    title: str
    body: str
    provenance: Provenance = "inferred"
    status: Status = "active"
    confidence: float | None = None


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """The gate's thresholds. The defaults are the project's; tests and the dream narrow them."""

    min_words: int = 3
    # Four entries share 3,000 characters in the prompt: one entry may take at most half of that.
    max_body_chars: int = 1500
    max_title_chars: int = 120
    collection_cap: int = 40
    # Dice similarity of content tokens at or above which two texts state the same fact.
    near_duplicate: float = 0.75
    # Two texts whose only difference is a swapped value (a veto fired, at most
    # `contradiction_swaps` content words differ each way) from this similarity up state the
    # same subject with different values: "always reply in English" / "... in French".
    contradiction: float = 0.5
    contradiction_swaps: int = 2
    # Collections where owner rules live: there a restated rule with a new value supersedes.
    rule_collections: tuple[str, ...] = ("preferences",)
    index_max_lines: int = 200
    index_max_bytes: int = 25_000
    # MEMORY.md (core.index): a 4-line header, a "… N more" line when cut, and per entry
    # "- [title](collection/stem.md) — provenance, YYYY-MM-DD": about 40 bytes around the names.
    index_reserved_lines: int = 6
    index_reserved_bytes: int = 300
    index_line_overhead: int = 40


DEFAULT_LIMITS = Limits()


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """What to do with a candidate, and why.

    `target` is the stem the action applies to: the entry to update, the duplicate that made
    the candidate redundant, or the owner entry a refused write would have revised; None for a
    create (the caller names new entries and must not reuse a
    stem listed in `supersedes`). `supersedes` lists stems the caller marks superseded (kept).
    `rule_ids` names the safety rules that fired, for the audit log.
    """

    action: Action
    reason_code: str
    reason: str
    target: str | None = None
    supersedes: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()


class Refusal(msgspec.Struct, frozen=True, kw_only=True):
    """Why text may not be kept: `code` is "secret" or "instruction".

    `message` never holds a secret: it names the rules and shows the text with values blanked."""

    code: Literal["secret", "instruction"]
    rule_ids: tuple[str, ...]
    message: str


# ------------------------------------------------------------------------------------ rules


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule as the rules file states it (see gate_rules/*.toml)."""

    id: str
    pattern: str
    prefilter: tuple[str, ...]
    entropy: float
    placeholders: bool
    family: str
    strength: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...]

    def as_native(self) -> tuple[str, str, list[str], float, bool]:
        """The plain tuple `shelldon._native.Scanner` takes."""
        return (self.id, self.pattern, list(self.prefilter), self.entropy, self.placeholders)


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    rules: tuple[Rule, ...]
    placeholders: tuple[str, ...]

    def by_id(self) -> dict[str, Rule]:
        return {rule.id: rule for rule in self.rules}


RULE_FILES = ("secrets", "instructions")


def _as_str_tuple(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings")
    return tuple(value)


def parse_rules(name: str, data: dict[str, Any]) -> RuleSet:
    """Validate a parsed rules file. Raises ValueError naming the rule at fault."""
    rules = []
    for index, raw in enumerate(data.get("rule", [])):
        rule_id = raw.get("id")
        if not isinstance(rule_id, str) or not rule_id:
            raise ValueError(f"{name}: rule #{index} has no id")
        pattern = raw.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError(f"{name}: rule {rule_id} has no pattern")
        entropy = raw.get("entropy", 0.0)
        if not isinstance(entropy, int | float) or entropy < 0:
            raise ValueError(f"{name}: rule {rule_id}: entropy must be a number >= 0")
        strength = raw.get("strength", "strong")
        if strength not in ("strong", "weak"):
            raise ValueError(f"{name}: rule {rule_id}: strength must be strong or weak")
        rules.append(
            Rule(
                id=rule_id,
                pattern=pattern,
                prefilter=_as_str_tuple(raw.get("prefilter", []), f"{rule_id}.prefilter"),
                entropy=float(entropy),
                placeholders=bool(raw.get("placeholders", True)),
                family=str(raw.get("family", name)),
                strength=strength,
                positives=_as_str_tuple(raw.get("positives", []), f"{rule_id}.positives"),
                negatives=_as_str_tuple(raw.get("negatives", []), f"{rule_id}.negatives"),
            )
        )
    placeholders = _as_str_tuple(data.get("placeholders", []), f"{name}.placeholders")
    return RuleSet(name=name, rules=tuple(rules), placeholders=placeholders)


@cache
def load_rules(name: str) -> RuleSet:
    """The packaged rules file `gate_rules/<name>.toml`."""
    if name not in RULE_FILES:
        raise ValueError(f"unknown rules file {name!r}")
    source = resources.files("shelldon.core").joinpath("gate_rules", f"{name}.toml")
    return parse_rules(name, tomllib.loads(source.read_text(encoding="utf-8")))


@cache
def secret_scanner() -> Scanner:
    """The compiled credential rules (built once per process; the fork-server preloads it)."""
    rules = load_rules("secrets")
    return Scanner([r.as_native() for r in rules.rules], list(rules.placeholders))


@cache
def instruction_scanner() -> Scanner:
    """The compiled instruction-shaped-text rules; they run on `normalise_for_rules` output."""
    rules = load_rules("instructions")
    return Scanner([r.as_native() for r in rules.rules], list(rules.placeholders))


@cache
def _instruction_rules() -> dict[str, Rule]:
    return load_rules("instructions").by_id()


# ------------------------------------------------------------------------------ normalising

# Invisible characters used to split trigger words ("ig\u200bnore").
_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
        "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff",
    ),
    None,
)

# Letters from other scripts that look like Latin ones (after NFKC and case folding).
_HOMOGLYPHS = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
        "ԛ": "q", "ԝ": "w", "ɡ": "g", "ɑ": "a", "ο": "o", "α": "a", "ε": "e", "ι": "i", "κ": "k",
        "ν": "v", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ӏ": "l", "һ": "h", "ɩ": "i",
    }
)  # fmt: skip
_PUNCTUATION = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
    }
    # Unicode tag characters U+E0020..U+E007E spell ASCII invisibly ("ASCII smuggling").
    | {0xE0000 + c: chr(c) for c in range(0x20, 0x7F)}
)  # fmt: skip

# Runs of spaces or tabs become one space. Written to match only what changes (a lone space
# stays unmatched): substituting every single space cost 0.1 ms per 2 KB.
_HSPACE = re.compile(r"[^\S\n]{2,}|[^\S\n ]")


def strip_invisible(text: str) -> str:
    """Drop zero-width and direction-control characters."""
    return text if text.isascii() else text.translate(_INVISIBLE)


_HOMOGLYPH_CHARS = re.compile("[" + re.escape("".join(chr(c) for c in _HOMOGLYPHS)) + "]")
_MIXED_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


def _map_mixed_word(match: re.Match[str]) -> str:
    word = match.group(0)
    # Only a word that also has Latin letters is disguised; Cyrillic or Greek prose stays itself.
    if any("a" <= ch <= "z" for ch in word):
        return word.translate(_HOMOGLYPHS)
    return word


# Disguises undone in an extra view of the text (the rules see the original and the decoded):
# leetspeak inside words that mix letters and digits, %-escapes, literal \\uXXXX escapes.
_LEET_WORD = re.compile(r"\b(?=[a-z0-9@$]*[a-z])(?=[a-z0-9@$]*[0-9@$])[a-z0-9@$]{3,}\b")
_LEET = str.maketrans("0134578@$", "oieastbas")
# A digit-like character touching a letter. Written to start with a character class so `re`
# scans for it quickly (the plain alternation cost 0.16 ms per 2 KB).
_LETTER_DIGIT = re.compile(r"[0-9@$](?:(?<=[a-z][0-9@$])|(?=[a-z]))")
_PERCENT = re.compile(r"%[0-9a-f]{2}")
_U_ESCAPE = re.compile(r"\\u([0-9a-f]{4})")


def _decoded_views(folded: str) -> list[str]:
    views = []
    # Cheap checks first: these scans run on every text, the decoding almost never.
    if _LETTER_DIGIT.search(folded) and _LEET_WORD.search(folded):
        views.append(_LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), folded))
    if "%" in folded and _PERCENT.search(folded):
        # Byte by byte (ASCII is what an instruction hides in); core imports no URL library.
        views.append(_PERCENT.sub(lambda m: chr(int(m.group(0)[1:], 16)), folded))
    if "\\u" in folded:
        views.append(_U_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), folded).casefold())
    return views


def normalise_for_rules(text: str) -> str:
    """The text the instruction rules see: NFKC, case folded, invisible characters removed,
    look-alike letters inside Latin words mapped ("ignоre" with a Cyrillic о), Unicode tag
    characters read as the ASCII they hide, quotes and dashes unified, runs of spaces and tabs
    collapsed (newlines kept: delimiters are lines). When the text hides words in leetspeak,
    %-escapes or \\u escapes, the decoded text follows the original after a blank line."""
    if text.isascii():  # the common case: nothing to fold but case
        folded = text.lower()
    else:
        folded = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
        if _HOMOGLYPH_CHARS.search(folded):
            folded = _MIXED_WORD.sub(_map_mixed_word, folded)
        folded = folded.translate(_PUNCTUATION).casefold()
    views = _decoded_views(folded)
    if views:
        folded = "\n\n".join([folded, *views])
    if "  " in folded or not folded.isascii() or any(ch in folded for ch in "\t\r\x0b\x0c"):
        folded = _HSPACE.sub(" ", folded)  # substring checks first: the regex scan is slow
    return folded


_WORD = re.compile(r"\w+")
_NOT_WORD = re.compile(r"[^\w\s]")


def normalise_for_compare(text: str) -> str:
    """What exact-duplicate comparison sees: NFKC, case folded, no punctuation, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
    return " ".join(_NOT_WORD.sub("", folded.translate(_HOMOGLYPHS)).split())


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


# ---------------------------------------------------------------------------------- safety


@dataclass(frozen=True, slots=True)
class SecretHit:
    rule_id: str
    start: int
    end: int


_BLANK = re.compile(r"\[secret:[a-z0-9-]+\]")


def _scan_secrets(clean: str) -> list[tuple[str, int, int]]:
    hits = secret_scanner().scan(clean)
    if hits and "[secret:" in clean:
        # Our own blanks ("[secret:api-key]" reads like key: value) are not credentials.
        blanks = [m.span() for m in _BLANK.finditer(clean)]
        hits = [h for h in hits if not any(s <= h[1] < e for s, e in blanks)]
    return hits


def find_secrets(text: str) -> list[SecretHit]:
    """Credential spans in `strip_invisible(text)` (character offsets into that string)."""
    return [SecretHit(r, s, e) for r, s, e in _scan_secrets(strip_invisible(text))]


def blank_secrets(text: str) -> str:
    """`text` with invisible characters dropped and each credential replaced by `[secret:<rule>]`.

    For text kept as a record rather than knowledge: episodes, learnings, history rows.
    Blanking twice changes nothing.
    """
    clean = strip_invisible(text)
    hits = _scan_secrets(clean)
    if not hits:
        return clean
    out: list[str] = []
    cursor = 0
    # Overlapping findings become one blank named after the rule that starts first (the longest
    # there), so the result reads cleanly and blanking it again changes nothing.
    ordered = sorted(hits, key=lambda h: (h[1], -h[2], h[0]))
    for rule_id, start, end in ordered:
        if start < cursor:
            if end > cursor:
                cursor = end  # overlaps the blank just written: widen it
            continue
        out.append(clean[cursor:start])
        out.append(f"[secret:{rule_id}]")
        cursor = end
    out.append(clean[cursor:])
    return "".join(out)


def _preview(text: str, limit: int = 60) -> str:
    """A short, secret-free preview of `text` for reasons and logs."""
    one_line = " ".join(blank_secrets(text).split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def instruction_rules_hit(text: str) -> list[str]:
    """Ids of the instruction rules that fire on `text` (normalised first)."""
    return instruction_scanner().rules_hit(normalise_for_rules(text))


def instruction_verdict(rule_ids: Iterable[str]) -> tuple[str, ...] | None:
    """The rules that make text instruction-shaped: any strong rule alone, or weak rules from two
    or more families together. None when the text passes."""
    rules = _instruction_rules()
    fired = [rules[r] for r in rule_ids if r in rules]
    strong = tuple(r.id for r in fired if r.strength == "strong")
    if strong:
        return strong
    weak_families = {r.family for r in fired if r.strength == "weak"}
    if len(weak_families) >= 2:
        return tuple(r.id for r in fired)
    return None


def screen_text(text: str) -> Refusal | None:
    """None if memory may keep `text`; otherwise why not (secret or instruction-shaped)."""
    secret_rules = sorted({hit.rule_id for hit in find_secrets(text)})
    if secret_rules:
        return Refusal(
            code="secret",
            rule_ids=tuple(secret_rules),
            message=(
                f"looks like a credential (rule {', '.join(secret_rules)}); "
                f"memory never keeps secrets: {_preview(text)!r}"
            ),
        )
    verdict = instruction_verdict(instruction_rules_hit(text))
    if verdict:
        families = sorted({_instruction_rules()[r].family for r in verdict})
        return Refusal(
            code="instruction",
            rule_ids=verdict,
            message=(
                f"reads like instructions aimed at the assistant ({', '.join(families)}; "
                f"rule {', '.join(verdict)}), not something to remember"
            ),
        )
    return None


# -------------------------------------------------------------------------------- deciding


@dataclass(frozen=True, slots=True)
class _Match:
    entry: ExistingEntry
    score: float
    veto: str
    added: int
    dropped: int


def _rank(provenance: str) -> int:
    return PROVENANCE_RANK.get(provenance, 1)


def _label(entry: ExistingEntry) -> str:
    return f"{entry.collection}/{entry.stem}"


def _reject(
    code: str, reason: str, rule_ids: tuple[str, ...] = (), target: str | None = None
) -> Decision:
    return Decision(
        action="reject", reason_code=code, reason=reason, rule_ids=rule_ids, target=target
    )


def _index_cost(collection: str, stem: str, title: str, limits: Limits) -> int:
    return len(collection) + len(stem) + len(title.encode()) + limits.index_line_overhead


def _index_full(active: Sequence[ExistingEntry], candidate: Candidate, limits: Limits) -> bool:
    lines = limits.index_reserved_lines + len(active) + 1
    size = limits.index_reserved_bytes + sum(
        _index_cost(e.collection, e.stem, e.title, limits) for e in active
    )
    size += _index_cost(
        candidate.collection, candidate.stem or candidate.title, candidate.title, limits
    )
    return lines > limits.index_max_lines or size > limits.index_max_bytes


def _similar(candidate: Candidate, entries: Sequence[ExistingEntry]) -> list[_Match]:
    if not entries:
        return []
    scores = similarity_batch(candidate.body, [e.body for e in entries])
    return [
        _Match(entry, score, veto, added, dropped)
        for entry, (score, veto, added, dropped) in zip(entries, scores, strict=True)
    ]


def _safety(candidate: Candidate, limits: Limits) -> Decision | None:
    refusal = screen_text(f"{candidate.title}\n{candidate.body}")
    if refusal is not None:
        return _reject(refusal.code, refusal.message, refusal.rule_ids)
    words = word_count(candidate.body)
    if words < limits.min_words:
        return _reject(
            TOO_SHORT,
            f"too short to be worth remembering ({words} word{'s' if words != 1 else ''}; "
            f"at least {limits.min_words})",
        )
    if len(candidate.body) > limits.max_body_chars:
        return _reject(
            TOO_LONG,
            f"too long for one entry ({len(candidate.body)} characters; at most "
            f"{limits.max_body_chars}): split it or summarise it",
        )
    if len(candidate.title) > limits.max_title_chars:
        return _reject(
            TOO_LONG,
            f"title too long ({len(candidate.title)} characters; at most {limits.max_title_chars})",
        )
    return None


def _caps(
    candidate: Candidate,
    active: Sequence[ExistingEntry],
    limits: Limits,
    merged: int,
) -> Decision | None:
    in_collection = sum(1 for e in active if e.collection == candidate.collection)
    after = in_collection - merged + 1
    # A merge that does not grow the collection passes even when it is over the cap.
    if after > limits.collection_cap and after > in_collection:
        return Decision(
            action="skip",
            reason_code=COLLECTION_FULL,
            reason=(
                f"{candidate.collection} is full ({in_collection} of {limits.collection_cap} "
                "entries); kept for the dream to consolidate"
            ),
            flags=(FLAG_COLLECTION_FULL,),
        )
    if merged == 0 and _index_full(active, candidate, limits):
        return Decision(
            action="skip",
            reason_code=INDEX_FULL,
            reason=(
                f"the memory index would pass {limits.index_max_lines} lines or "
                f"{limits.index_max_bytes} bytes; kept for the dream to consolidate"
            ),
            flags=(FLAG_INDEX_FULL,),
        )
    return None


def _decide_merge(
    candidate: Candidate, active: Sequence[ExistingEntry], limits: Limits
) -> Decision:
    by_stem = {e.stem: e for e in active if e.collection == candidate.collection}
    merged: list[ExistingEntry] = []
    for stem in dict.fromkeys(candidate.merges):
        entry = by_stem.get(stem)
        if entry is None:
            return _reject(
                BAD_MERGE,
                f"the merge names {candidate.collection}/{stem}, which is not an active entry",
            )
        merged.append(entry)
    for entry in merged:
        if _rank(entry.provenance) > _rank(candidate.provenance) and entry.provenance == "owner":
            return _reject(
                OWNER_PROTECTED,
                f"a merge by {candidate.provenance} may not replace {_label(entry)}, "
                "which the owner stated",
            )
    merged_stems = {e.stem for e in merged}
    others = [
        e for e in active if not (e.collection == candidate.collection and e.stem in merged_stems)
    ]
    norm = normalise_for_compare(candidate.body)
    for entry in others:
        if normalise_for_compare(entry.body) == norm:
            return Decision(
                action="skip",
                reason_code=DUPLICATE,
                reason=f"the merged text already exists as {_label(entry)}",
                target=entry.stem,
            )
    capped = _caps(candidate, active, limits, merged=len(merged))
    if capped is not None:
        return capped
    stems = tuple(e.stem for e in merged)
    return Decision(
        action="create",
        reason_code=MERGED,
        reason=f"merges {len(stems)} entr{'y' if len(stems) == 1 else 'ies'} into one: "
        + ", ".join(f"{candidate.collection}/{s}" for s in stems),
        supersedes=stems,
    )


def decide(
    candidate: Candidate,
    existing: Sequence[ExistingEntry],
    limits: Limits = DEFAULT_LIMITS,
) -> Decision:
    """Decide one candidate write against the current entries. Pure: no I/O, no clock."""
    unsafe = _safety(candidate, limits)
    if unsafe is not None:
        return unsafe
    active = [e for e in existing if e.status == "active"]
    if candidate.merges:
        return _decide_merge(candidate, active, limits)

    rank = _rank(candidate.provenance)
    is_owner = candidate.provenance == "owner"
    norm = normalise_for_compare(candidate.body)
    named = None
    if candidate.stem is not None:
        named = next(
            (
                e
                for e in active
                if e.collection == candidate.collection and e.stem == candidate.stem
            ),
            None,
        )
    matches = _similar(candidate, active)
    order = lambda m: (-m.score, m.entry.collection, m.entry.stem)  # noqa: E731
    near = sorted((m for m in matches if m.score >= limits.near_duplicate), key=order)
    contradicts = sorted(
        (
            m
            for m in matches
            if m.veto
            and (
                m.score >= limits.near_duplicate
                or (
                    m.score >= limits.contradiction
                    and m.added <= limits.contradiction_swaps
                    and m.dropped <= limits.contradiction_swaps
                )
            )
        ),
        key=order,
    )

    # 2. provenance --------------------------------------------------------------------------
    if named is not None and normalise_for_compare(named.body) != norm:
        if _rank(named.provenance) > rank:
            if named.provenance == "owner":
                return _reject(
                    OWNER_PROTECTED,
                    f"{_label(named)} is what the owner stated; an {candidate.provenance} "
                    "write never replaces it",
                    target=named.stem,
                )
            return Decision(
                action="skip",
                reason_code=LOWER_PROVENANCE,
                reason=f"{_label(named)} is {named.provenance}; an {candidate.provenance} "
                "write does not revise it",
                target=named.stem,
            )
        if is_owner and named.provenance == "owner":
            return Decision(
                action="create",
                reason_code=OWNER_RESTATED,
                reason=f"the owner restated {_label(named)} with a new value; the old one is "
                "kept, marked superseded",
                supersedes=(named.stem,),
            )
    if not is_owner:
        for m in contradicts:
            if m.entry.provenance == "owner":
                return _reject(
                    OWNER_PROTECTED,
                    f"contradicts {_label(m.entry)}, which the owner stated "
                    f"({m.veto.replace('_', ' ')} differs); an {candidate.provenance} write never "
                    "revises it",
                    target=m.entry.stem,
                )
    else:
        for m in contradicts:
            if (
                m.entry.provenance == "owner"
                and m.entry.collection == candidate.collection
                and candidate.collection in limits.rule_collections
            ):
                return Decision(
                    action="create",
                    reason_code=OWNER_RESTATED,
                    reason=f"the owner restated {_label(m.entry)} with a new value; the old one "
                    "is kept, marked superseded",
                    supersedes=(m.entry.stem,),
                )

    # 3. exact duplicates --------------------------------------------------------------------
    exact = sorted(
        (e for e in active if normalise_for_compare(e.body) == norm),
        key=lambda e: (e.collection != candidate.collection, e.stem != candidate.stem, e.stem),
    )
    if exact:
        entry = exact[0]
        if rank > _rank(entry.provenance):
            return Decision(
                action="update",
                reason_code=CONFIRMED,
                reason=f"{_label(entry)} says the same; now confirmed by {candidate.provenance}",
                target=entry.stem,
            )
        return Decision(
            action="skip",
            reason_code=DUPLICATE,
            reason=f"already remembered as {_label(entry)}",
            target=entry.stem,
        )

    # 4. near duplicates and revisions of a named entry -------------------------------------
    if named is not None:
        return Decision(
            action="update",
            reason_code=REVISED,
            reason=f"revises {_label(named)}",
            target=named.stem,
        )
    same_fact = [m for m in near if not m.veto]
    if same_fact:
        best = same_fact[0]
        entry = best.entry
        higher = rank > _rank(entry.provenance)
        lower = rank < _rank(entry.provenance)
        adds_detail = best.added > 0 and best.dropped == 0
        if lower:
            if entry.provenance == "owner":
                reason = f"the owner already stated this as {_label(entry)}"
            else:
                reason = f"{_label(entry)} ({entry.provenance}) already says this"
            return Decision(
                action="skip",
                reason_code=LOWER_PROVENANCE if adds_detail else NEAR_DUPLICATE,
                reason=reason,
                target=entry.stem,
            )
        if higher or adds_detail:
            why = f"now from the {candidate.provenance}" if higher else "adds detail"
            return Decision(
                action="update",
                reason_code=IMPROVED,
                reason=f"a better version of {_label(entry)} ({why}, similarity {best.score:.2f})",
                target=entry.stem,
            )
        return Decision(
            action="skip",
            reason_code=NEAR_DUPLICATE,
            reason=f"a rewording of {_label(entry)} that adds nothing "
            f"(similarity {best.score:.2f})",
            target=entry.stem,
        )

    # 5. caps --------------------------------------------------------------------------------
    capped = _caps(candidate, active, limits, merged=0)
    if capped is not None:
        return capped
    return Decision(action="create", reason_code=CREATED, reason="a new entry")
