"""Near duplicates that read identifiers and values (issue 23).

The similarity check (Rust, `similarity.rs`) sees content words. Two coding facts that differ
only in a path ("the parser tests run with pytest tests/test_parser.py" / "... test_lexer.py")
share nearly every word and read as a rewording; two that differ only in a value ("the tests
take two minutes" / "five minutes", port 8080 / 3000, Python 3.11 / 3.12) carry a number veto
and used to become two contradicting copies. Here:

- `identifier_swapped(a, b)`: each text names an identifier the other does not: a word with a
  dot, slash, underscore, hyphen or colon inside ("test_parser.py", "src/app", "make-release",
  "db:migrate"), a CamelCase or snake_case name, a `backticked` span, or a build or package
  tool's subcommand or target ("make release" / "make debug", "npm run lint", "cargo bench").
  Two facts.
- `only_values_differ(a, b)`: every word one has and the other lacks is a value (digits,
  "3.12", "8080", a number word), and each side has one: the same subject with a new value, an
  update of the entry.
- `drops_only_naming(new, old)`: every word the old text has and the new one lacks only said
  that a name follows ("is called", "named"), and the new one adds another: "the brother is
  called Lars" / "the brother Lars is a pilot" adds a detail; "is named Lars" adds nothing.
"""

from __future__ import annotations

import re

from shelldon.core.words import NAMING_WORDS, NUMBER_WORDS, SIMILARITY_STOPWORDS

_BACKTICKED = re.compile(r"`([^`\n]{1,120})`")
# A word with inner punctuation: letters or digits on both sides of a . / _ - :
_INNER = re.compile(r"[A-Za-z0-9]+(?:[./_\-:][A-Za-z0-9]+)+/?")
_CAMEL = re.compile(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")
# A tool's first argument names what it runs: "make release" and "make debug" are two commands.
_COMMAND = re.compile(
    r"\b(?:make|just|cargo|npm(?:\s+run)?|yarn|pnpm|bun|git|docker|kubectl|rake|gradle|mvn|"
    r"tox|nox|invoke|poetry(?:\s+run)?|uv(?:\s+run)?|bazel|nx|turbo)\s+([a-z][\w.:-]*)",
    re.IGNORECASE,
)
_VALUE = re.compile(r"\d+(?:[.,:]\d+)*")
_WORD = re.compile(r"[A-Za-z0-9]+(?:[.,:'][A-Za-z0-9]+)*")


def _is_value(token: str) -> bool:
    return bool(_VALUE.fullmatch(token)) or token in NUMBER_WORDS


def identifiers(text: str) -> frozenset[str]:
    """The identifiers `text` names (paths, dotted or joined names, backticked spans),
    lower-cased; values ("3.12", "10:30") are not identifiers."""
    found = {m.group(1).strip().lower() for m in _BACKTICKED.finditer(text)}
    for match in _INNER.finditer(text):
        token = match.group(0).rstrip("/.").lower()
        if not _is_value(token):
            found.add(token)
    found.update(m.group(0).lower() for m in _CAMEL.finditer(text))
    found.update(" ".join(m.group(0).lower().split()) for m in _COMMAND.finditer(text))
    return frozenset(found)


def identifier_swapped(a: str, b: str) -> bool:
    """Each text names an identifier the other does not: two facts."""
    ia, ib = identifiers(a), identifiers(b)
    return bool(ia - ib) and bool(ib - ia)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def only_values_differ(a: str, b: str) -> bool:
    """Each side has a word the other lacks, and every such word is a value."""
    wa, wb = _words(a), _words(b)
    only_a, only_b = wa - wb, wb - wa
    if not only_a or not only_b:
        return False
    return all(_is_value(w) for w in only_a | only_b)


def drops_only_naming(new: str, old: str) -> bool:
    """What `new` lacks of `old` is naming words only, and it adds a word that is not one."""
    wn, wo = _words(new) - SIMILARITY_STOPWORDS, _words(old) - SIMILARITY_STOPWORDS
    gone, came = wo - wn, wn - wo
    return bool(gone) and gone <= NAMING_WORDS and bool(came - NAMING_WORDS)
