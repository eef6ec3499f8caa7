"""A provider's key cut into parts inside one text, with words between, or turned (written
backwards or in ROT13; `turned_hits`), issue 23's tenth pass.

"Part A: ghp_R7kQ2mX9vL4pT8wZ3n. Part B: B6yH1cJ5dF0gS2aE7u." holds no key in any view: the
joined view rejoins chunks only where nothing but spaces parts them. Here the text's key-like
runs (`fragments`: 6+ characters with a digit or mixed case) are glued in order, two, three and
four neighbours at a time, and the credential rules read the glued string. Only a key with a
provider's prefix counts (`PREFIXED_RULES`: "ghp_", "sk-ant-", "AKIA", "xoxb-" ...), and only
when it starts at the front of a run and crosses into the next: gluing the runs of ordinary
text (commit hashes, versions, ids) makes long random strings that only the generic entropy
rule would call a key, and that rule is not asked. `gate.pieces` uses the same runs to glue
parts of a key across the fields of an op and across writes.
"""

from __future__ import annotations

import re
from functools import cache

from shelldon._native import RuleSpec, Scanner
from shelldon.core.gate.rules import kept_scanner, load_rules, secret_scanner

_FRAGMENT = re.compile(r"[A-Za-z0-9_\-+/]{6,}=*")
_DIGIT = re.compile(r"[0-9]")
MAX_FRAGMENTS = 6
MAX_GLUED = 4  # runs glued into one candidate

# Rules for keys that start with a provider's prefix: what a glued candidate may be.
PREFIXED_RULES = frozenset(
    {
        "openai-api-key", "anthropic-api-key", "sk-prefixed-key", "github-token",
        "gitlab-token", "aws-access-key-id", "slack-token", "stripe-key", "google-api-key",
        "google-oauth", "huggingface-token", "npm-token", "pypi-token", "jwt",
        "adafruit-io-key", "age-secret-key", "atlassian-token", "databricks-token",
        "doppler-token", "dynatrace-token", "docker-token", "newrelic-key",
        "package-registry-token", "saas-api-token", "twitch-stream-key", "twilio-api-key",
    }
)  # fmt: skip


# Literals that begin ordinary words ("pattern", "keyring"): a run that holds only these is not
# tried (an Airtable token cut in parts is left to the rules whole).
_COMMON = frozenset({"pat", "key"})
# A prefix lies within a key's first characters ("sk_live_", "do_v1_", "1//0").
_PREFIX_WITHIN = 16


def _literals() -> set[str]:
    """The prefixed rules' literals ("ghp_", "AKIA", "xoxb-" ...), less the common ones."""
    return {
        literal
        for rule in load_rules("secrets").rules
        if rule.id in PREFIXED_RULES
        for literal in rule.prefilter
        if literal not in _COMMON
    }


def _alternation(literals: set[str]) -> str:
    return "|".join(re.escape(lit) for lit in sorted(literals, key=len, reverse=True))


@cache
def _literal_finder() -> Scanner:
    """Where the literals are in a text, as typed ("prefix") and turned ("turned": reversed,
    ROT13, both): one Rust pass over the text, not a Python search per run."""
    literals = _literals()
    turned = {turn(lit) for lit in literals for turn in (_reversed, _rot13, _both)}
    rules = [
        RuleSpec(id=kind, pattern=_alternation(found), prefilter=[], min_entropy=0.0,
                 skip_placeholders=False)
        for kind, found in (("prefix", literals), ("turned", turned))
    ]  # fmt: skip
    return kept_scanner(rules)


def _marked(spans: list[tuple[int, int, str]], at: list[int], within: int | None) -> list[int]:
    """Indexes of the runs holding a literal found at one of `at` (within their first
    `within` characters, or anywhere)."""
    out = []
    for index, (start, end, _) in enumerate(spans):
        limit = end if within is None else min(end, start + within)
        if any(start <= a < limit for a in at):
            out.append(index)
    return out


def fragments(text: str, limit: int = MAX_FRAGMENTS) -> list[str]:
    """Key-like runs of `text` (letters with digits, or mixed case, 6+ characters), the first
    `limit`: the parts of a key a sentence carries ("the first part is sk-proj-A1b2C3")."""
    return [run for _, _, run in fragment_spans(text)[:limit]]


def fragment_spans(text: str) -> list[tuple[int, int, str]]:
    out = []
    for match in _FRAGMENT.finditer(text):
        run = match.group(0)
        # A digit, or both cases (str methods: this runs on every text the gate screens).
        has_digit = not run.isalpha() and _DIGIT.search(run) is not None
        mixed = not run.islower() and not run.isupper() and run.lower() != run
        if has_digit or mixed:
            out.append((match.start(), match.end(), run))
    return out


def _crossing(runs: list[str], hits: list[tuple[str, int, int]]) -> str | None:
    """Of the rules' `hits` in `runs` glued, one that finds a provider's key starting at the
    front of the first run and reaching into the last."""
    glued = "".join(runs)
    last = len(glued) - len(runs[-1])
    for rule_id, start, end in hits:
        if rule_id in PREFIXED_RULES and start == 0 and end > last:
            if rule_id == "saas-api-token" and glued[:3].lower() == "key":
                continue  # its bare "key" + 14 characters is any word that starts with "key"
            return rule_id
    return None


def prefixed_crossing(runs: list[str]) -> str | None:
    """The rule that finds a provider's key in `runs` glued (and not in the first run alone),
    starting at the front of the first run and reaching into the last; None when none does."""
    scanner = secret_scanner()
    if any(rule_id in PREFIXED_RULES for rule_id, _, _ in scanner.scan(runs[0])):
        return None
    return _crossing(runs, scanner.scan("".join(runs)))


def split_hits(text: str) -> list[tuple[str, int, int]]:
    """`glued_hits` and `turned_hits` of `text`, its key-like runs and the literals found once."""
    found = _literal_finder().scan(text)  # native and cheap: most texts name no provider
    if not found:
        return []
    spans = fragment_spans(text)
    if not spans:
        return []
    return glued_hits(text, spans, found) + turned_hits(text, spans, found)


Literals = list[tuple[str, int, int]]


def glued_hits(
    text: str, spans: list[tuple[int, int, str]] | None = None, found: Literals | None = None
) -> list[tuple[str, int, int]]:
    """A provider's key cut into runs of `text` with other words between: (rule, start of the
    first run, end of the last). One batch scan of every candidate."""
    spans = fragment_spans(text) if spans is None else spans
    if len(spans) < 2:
        return []
    found = _literal_finder().scan(text) if found is None else found
    at = [start for kind, start, _ in found if kind == "prefix"]
    heads = [i for i in _marked(spans, at, _PREFIX_WITHIN) if i < len(spans) - 1]
    if not heads:
        return []
    scanner = secret_scanner()
    alone = scanner.scan_batch([spans[i][2] for i in heads])
    starts = [
        i
        for i, own in zip(heads, alone, strict=True)
        if not any(rule_id in PREFIXED_RULES for rule_id, _, _ in own)
    ]
    chains = [
        spans[i : i + n] for i in starts for n in range(2, MAX_GLUED + 1) if i + n <= len(spans)
    ]
    scanned = scanner.scan_batch(["".join(run for _, _, run in chain) for chain in chains])
    hits: list[tuple[str, int, int]] = []
    for chain, chain_hits in zip(chains, scanned, strict=True):
        if hits and chain[0][0] < hits[-1][2]:
            continue  # inside a key found already
        rule_id = _crossing([run for _, _, run in chain], chain_hits)
        if rule_id is not None:
            hits.append((rule_id, chain[0][0], chain[-1][1]))
    return hits


_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)


_MIN_TURNED = 16  # the shortest prefixed key (a Twilio or AWS id is 20 or more)


def _reversed(run: str) -> str:
    return run[::-1]


def _rot13(run: str) -> str:
    return run.translate(_ROT13)


def _both(run: str) -> str:
    return run[::-1].translate(_ROT13)


def turned_hits(
    text: str, spans: list[tuple[int, int, str]] | None = None, found: Literals | None = None
) -> list[tuple[str, int, int]]:
    """A provider's key written backwards or in ROT13 (or both), as one key-like run of `text`:
    (rule, start, end). Only a run that, turned, holds a provider's prefix is scanned, and only
    a prefixed rule's whole-run hit counts (a bare AWS id reversed is too short for the entropy
    rule and reads as no word for the cipher check)."""
    spans = fragment_spans(text) if spans is None else spans
    found = _literal_finder().scan(text) if found is None else found
    at = [start for kind, start, _ in found if kind == "turned"]
    candidates: list[tuple[int, int, str]] = []
    for index in _marked(spans, at, None):
        start, end, run = spans[index]
        if len(run) >= _MIN_TURNED:
            candidates += [(start, end, turn(run)) for turn in (_reversed, _rot13, _both)]
    if not candidates:
        return []
    hits = []
    batch = secret_scanner().scan_batch([turned for _, _, turned in candidates])
    for (start, end, turned), scanned in zip(candidates, batch, strict=True):
        for rule_id, s, e in scanned:
            if rule_id in PREFIXED_RULES and s <= 2 and e - s >= len(turned) - 2:
                hits.append((rule_id, start, end))
                break
    return hits
