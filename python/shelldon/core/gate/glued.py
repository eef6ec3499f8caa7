"""A provider's key cut into parts inside one text, with words between (issue 23, tenth pass).

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

from shelldon.core.gate.rules import load_rules, secret_scanner

_FRAGMENT = re.compile(r"[A-Za-z0-9_\-+/=]{6,}")
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


@cache
def _prefixes() -> re.Pattern[str]:
    """The prefixed rules' literals ("ghp_", "AKIA", "xoxb-" ...), as typed: a run that holds
    none cannot begin a key those rules find (prose's "Tuesday" is not tried)."""
    literals = {
        literal
        for rule in load_rules("secrets").rules
        if rule.id in PREFIXED_RULES
        for literal in rule.prefilter
    }
    return re.compile("|".join(re.escape(lit) for lit in sorted(literals, key=len, reverse=True)))


def fragments(text: str, limit: int = MAX_FRAGMENTS) -> list[str]:
    """Key-like runs of `text` (letters with digits, or mixed case, 6+ characters), the first
    `limit`: the parts of a key a sentence carries ("the first part is sk-proj-A1b2C3")."""
    return [run for _, _, run in fragment_spans(text)[:limit]]


def fragment_spans(text: str) -> list[tuple[int, int, str]]:
    out = []
    for match in _FRAGMENT.finditer(text):
        run = match.group(0)
        has_digit = any(c.isdigit() for c in run)
        mixed = any(c.isupper() for c in run) and any(c.islower() for c in run)
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


def glued_hits(text: str) -> list[tuple[str, int, int]]:
    """A provider's key cut into runs of `text` with other words between: (rule, start of the
    first run, end of the last). One batch scan of every candidate."""
    spans = fragment_spans(text)
    if len(spans) < 2:
        return []
    prefixes = _prefixes()
    heads = [i for i, (_, _, run) in enumerate(spans[:-1]) if prefixes.search(run)]
    if not heads:
        return []
    scanner = secret_scanner()
    alone = scanner.scan_batch([spans[i][2] for i in heads])
    starts = [
        i
        for i, found in zip(heads, alone, strict=True)
        if not any(rule_id in PREFIXED_RULES for rule_id, _, _ in found)
    ]
    chains = [
        spans[i : i + n] for i in starts for n in range(2, MAX_GLUED + 1) if i + n <= len(spans)
    ]
    found = scanner.scan_batch(["".join(run for _, _, run in chain) for chain in chains])
    hits: list[tuple[str, int, int]] = []
    for chain, chain_hits in zip(chains, found, strict=True):
        if hits and chain[0][0] < hits[-1][2]:
            continue  # inside a key found already
        rule_id = _crossing([run for _, _, run in chain], chain_hits)
        if rule_id is not None:
            hits.append((rule_id, chain[0][0], chain[-1][1]))
    return hits
