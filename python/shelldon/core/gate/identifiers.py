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
  A numbered or lettered subject is an identifier too ("worker 2", "room 101", "service number
  0", "PR #118", "node B", "the second test", "the fourth stage"): the number names which thing,
  it is not its value; a number after any other word is a value ("port 8080", "Python 3.12",
  "after 1000 jobs", "the first Monday"). So is the kind of thing a coding verb acts on
  ("lint the module" / "lint the crate", unit / integration tests, staging / production,
  frontend / backend), read through its short forms ("repo", "db", "folder").
- `only_values_differ(a, b)`: every word one has and the other lacks is a value (digits,
  "3.12", "8080", a number word), and each side has one: the same subject with a new value, an
  update of the entry.
- `drops_only_naming(new, old)`: every word the old text has and the new one lacks only said
  that a name follows ("is called", "named"), and the new one adds another: "the brother is
  called Lars" / "the brother Lars is a pilot" adds a detail; "is named Lars" adds nothing.
"""

from __future__ import annotations

import re

from shelldon.core.words import FUNCTION_WORDS, NAMING_WORDS, NUMBER_WORDS, SIMILARITY_STOPWORDS

# Things counted by a number or a letter after their name: "worker 2", "room 101", "node B".
# Words that are also common verbs before a count ("run 4 workers", "process 10 files", "drive 3
# hours") are left out: there the number is a value.
_NUMBERED = frozenset(
    re.findall(
        r"\S+",
        """service worker node server machine instance vm container pod cluster shard replica
        partition queue topic channel bucket region zone rack disk volume core cpu gpu thread job
        task step stage phase test case scenario issue ticket bug pr mr story epic milestone sprint
        item chapter section page figure appendix rule line room floor flat apartment building
        unit desk locker seat gate terminal platform lane bus route tram flight level tier slot
        team group build""",
    )
)
# A number after a noun outside that list names which one too ("tenant 7", "pump 2", "sensor 8"):
# what comes before a label is a noun, what comes before a value is a verb, a preposition, the
# name of a setting or a unit. So a digit label is a subject unless the word before it is a
# function word, a verb (these base forms, or any word ending as a verb does: "pays 7", "waited
# 5", "using 4"), a setting or a product whose number is its value or version ("port 8080",
# "Python 3", "timeout 30"), or a unit or a count's noun follows ("wait 5 minutes").
_VALUE_NAMES = frozenset(
    re.findall(
        r"\S+",
        """port version release v python node java ruby perl php go rust gcc clang postgres
        postgresql mysql redis ubuntu debian fedora windows macos ios android chrome firefox
        timeout limit size max min maximum minimum count total threshold retries retry budget
        score rate ratio price cost age width height depth length weight speed temperature
        heap memory ram status top around roughly approximately about nearly almost exactly
        least most every only just over under than past since until till per each above below
        beyond within across through near between among against toward towards via plus minus
        another further additional extra another next previous january february march april may
        june july august september october november december""",
    )
)
_COUNT_VERBS = frozenset(
    re.findall(
        r"\S+",
        """run use keep wait retry spawn allow take need give add set start launch allocate
        reserve buy sell cost pay hold store spend make get send process handle open create skip
        cap limit raise bump scale increase reduce drop lower lose gain win hit reach exceed last
        sleep delay try repeat rotate split shard have be do cut grow shrink double triple sort
        pick choose print show list fetch pull push read write load save copy move fell rose
        grew ran took gave made got sold bought paid held kept spent lost won put went came saw
        said told had did sent left brought built began""",
    )
)
_UNITS = frozenset(
    re.findall(
        r"\S+",
        """ms s sec secs second seconds min mins minute minutes h hr hrs hour hours day days week
        weeks month months year years kb mb gb tb k m percent % times x euro euros dollar dollars
        pound pounds usd eur gbp px pt cm mm km kg g lb lbs am pm o'clock""",
    )
)
_ORDINAL = (
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th)"
)
# An ordinal before these is a date or a time, a value ("the first Monday", "second place").
_NOT_ORDERED = frozenset(
    re.findall(
        r"\S+",
        """monday tuesday wednesday thursday friday saturday sunday weekend day days week weeks
        month months year years quarter half time times hour hours minute minutes second seconds
        morning evening night place prize of""",
    )
)
_NUMBERED_SUBJECT = re.compile(
    r"\b([A-Za-z]+)\s+(?:(?:number|no\.?)\s*|#\s*)?(\d+[a-z]?|[A-Z])\b(?![.,:]\d)"
)
# An ordinal orders a thing after a determiner ("the second test", "the owner's first
# daughter"); elsewhere it says when ("first run the tests", "was first reported").
_ORDERED_SUBJECT = re.compile(
    rf"\b(?:the|its|his|her|their|our|my|your|this|that|each|every|\w+'s)\s+({_ORDINAL})"
    r"\s+([a-z]+)\b",
    re.IGNORECASE,
)
# What a coding verb acts on, and its tiers: two texts that name two of these are two facts.
# Short forms and plurals read as the word they stand for.
_KINDS = frozenset(
    re.findall(
        r"\S+",
        """module crate package library binary file directory test function method class struct
        trait enum interface script workspace project repository branch commit service server
        client container image database cache queue table schema migration fixture endpoint
        handler frontend backend build api cli docs readme changelog config unit integration e2e
        smoke staging production dev local debug release wheel lockfile template component
        plugin dependency notebook""",
    )
)
_KIND_FORMS = {
    "repo": "repository",
    "db": "database",
    "lib": "library",
    "dir": "directory",
    "folder": "directory",
    "doc": "docs",
    "documentation": "docs",
    "configuration": "config",
    "settings": "config",
    "prod": "production",
    "func": "function",
    "pkg": "package",
}

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
# A date's day ("due on the 1st" / "the 5th"): a value against another day, not against "1".
_DAY = re.compile(r"\d+(?:st|nd|rd|th)")
_WORD = re.compile(r"[A-Za-z0-9]+(?:[.,:'][A-Za-z0-9]+)*")


def _is_value(token: str) -> bool:
    return bool(_VALUE.fullmatch(token)) or token in NUMBER_WORDS


def _kind(word: str) -> str | None:
    """The kind of thing `word` names ("crates" -> "crate", "repo" -> "repository"), if any."""
    for form in (word, word.removesuffix("s"), word.removesuffix("es")):
        kind = _KIND_FORMS.get(form, form)
        if kind in _KINDS:
            return kind
    return None


def _is_numbered(match: re.Match[str]) -> bool:
    """A count's name: "worker 2", "room 101", "tenant 7"; a capital inside a sentence makes the
    word a proper name and the number its version ("requires Node 18")."""
    word = match.group(1)
    mid_sentence = match.start() > 0 and not re.search(r"[.!?]\s*$", match.string[: match.start()])
    if mid_sentence and word[0].isupper():
        return False
    return word.lower() in _NUMBERED or _labels_a_noun(match)


def _labels_a_noun(match: re.Match[str]) -> bool:
    """A digit after a word that reads as a noun (`_VALUE_NAMES` says why), with no unit after
    it: "tenant 7 pays", "the logs of pump 2"; not "takes 2 minutes", "port 8080", "run 4"."""
    word, label = match.group(1).lower(), match.group(2)
    if not label[0].isdigit() or len(word) < 3 or word in FUNCTION_WORDS:
        return False
    if word in _VALUE_NAMES or word in _COUNT_VERBS or word in NUMBER_WORDS:
        return False
    if (word.endswith("s") and not word.endswith(("ss", "us"))) or word.endswith(("ed", "ing")):
        return False  # a verb's ending: "pays 7", "waited 5", "using 4"
    after = re.match(r"\s*([A-Za-z%']+)", match.string[match.end() :])
    return after is None or after.group(1).lower() not in _UNITS


def subjects(text: str) -> frozenset[str]:
    """Which things `text` is about, read from their number, order or kind: "worker 2", "service
    0", "second test", "kind:crate"; lower-cased."""
    found = {
        f"{m.group(1).lower()} {m.group(2).lower()}"
        for m in _NUMBERED_SUBJECT.finditer(text)
        if _is_numbered(m)
    }
    found.update(
        f"{m.group(1).lower()} {m.group(2).lower()}"
        for m in _ORDERED_SUBJECT.finditer(text)
        if m.group(2).lower() not in _NOT_ORDERED | SIMILARITY_STOPWORDS
    )
    found.update(f"kind:{kind}" for word in _words(text) if (kind := _kind(word)) is not None)
    return frozenset(found)


def identifiers(text: str) -> frozenset[str]:
    """The identifiers `text` names (paths, dotted or joined names, backticked spans, commands,
    and its `subjects`), lower-cased; values ("3.12", "10:30") are not identifiers."""
    found = {m.group(1).strip().lower() for m in _BACKTICKED.finditer(text)}
    for match in _INNER.finditer(text):
        token = match.group(0).rstrip("/.").lower()
        if not _is_value(token):
            found.add(token)
    found.update(m.group(0).lower() for m in _CAMEL.finditer(text))
    found.update(" ".join(m.group(0).lower().split()) for m in _COMMAND.finditer(text))
    return frozenset(found) | subjects(text)


def _swapped(ia: frozenset[str], ib: frozenset[str]) -> bool:
    """Each side names one the other does not ("second-round" and "second round" are one)."""
    sa, sb = ({re.sub(r"[\s_-]+", "", name) for name in found} for found in (ia, ib))
    return bool(sa - sb) and bool(sb - sa)


def identifier_swapped(a: str, b: str) -> bool:
    """Each text names an identifier the other does not: two facts."""
    return _swapped(identifiers(a), identifiers(b))


def subject_swapped(a: str, b: str) -> bool:
    """Each text is about a thing the other is not ("service 0" / "service 1", the module / the
    crate): neither contradicts the other. A path or a name that differs may be the value that
    changed ("the runner called blue-7" / "red-9"): only `identifier_swapped` reads those."""
    return _swapped(subjects(a), subjects(b))


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def only_values_differ(a: str, b: str) -> bool:
    """Each side has a word the other lacks, and every such word is a value."""
    wa, wb = _words(a), _words(b)
    only_a, only_b = wa - wb, wb - wa
    if not only_a or not only_b:
        return False
    if all(_DAY.fullmatch(w) for w in only_a | only_b):
        return True
    return all(_is_value(w) for w in only_a | only_b)


def drops_only_naming(new: str, old: str) -> bool:
    """What `new` lacks of `old` is naming words only, and it adds a word that is not one."""
    wn, wo = _words(new) - SIMILARITY_STOPWORDS, _words(old) - SIMILARITY_STOPWORDS
    gone, came = wo - wn, wn - wo
    return bool(gone) and gone <= NAMING_WORDS and bool(came - NAMING_WORDS)
