"""How the owner states a rule ("always …", "never …", "prefer …", "call me …"), read from one
sentence with no model: one home for core, which captures the rules (core.learning.rules), and the
offline brain, which says it heard one (broker.offline).

When is a new rule a restatement of an old one? Rules are compared as their words with the
polarity taken off ("always answer in French" → answer, in, french):
- "call me X" restates any earlier "call me Y";
- always/never with the same words and the other polarity restates it ("never use emoji" after
  "always use emoji");
- the same polarity (or both "prefer"), the same number of words (two or more), and exactly one
  word different restates it ("answer in English" after "answer in French", "prefer long
  replies" after "prefer short replies").
Anything else is a new rule beside the old ones. The last case can over-match ("always use tabs"
after "always use emoji"); the old rule stays on disk, marked, and `shelldon memory undo` brings
it back.

A phrase is a rule only when it directs something: "always"/"never" must be followed by what the
pet should (not) do ("never call me Bob", "always answer in French"), so the everyday phrases
that merely start with those words ("never mind", "never again", "always happy to help", "never
been better", "Never tried it, but it's on my list", "never give up!") are talk, not rules. The
words after the marker must start with something the pet does (answer, call, remind, use, be,
…: `_PET_VERBS`), address the owner or the pet (me, my, you, us), or be a verb with its object
("always squash the commits"); an adjective, a participle, an adverb, an interjection, a verb of
feeling or a saying said to a friend never starts an instruction.
Measured on LoCoMo's long conversations in docs/memory.md ("Owner rules").

Sentences end at ". ! ? ;" followed by a space or the end, so "always run check_tests.py" and
"always use Python 3.11" are kept whole. A line break ends a sentence only where the line does
(`_as_written`): a line left open (ending in ",", ":", a dash or a word such as "don't", "to",
"that", "told me") goes on into the next, so "Please don't\nalways run the full suite" is one
sentence and no rule; the lines under a line ending in ":" read after it, so "Bob told me:\n
always push to main" and a pasted plan under "Your plan was:" are reported words, not the
owner's (under "From now on:" they are the owner's, as on one line); a fenced code block holds
no sentence of the owner's. On one line, what "Bob told me:" introduces runs on across ";"
("Bob told me: always push; never test" states no rule of the owner's), not past a full stop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from shelldon.contracts import relayed
from shelldon.core.words import ARTICLES

RuleKind = Literal["always", "never", "prefer", "call_me"]
RULE_TAG = "owner-rule"
MAX_RULE_WORDS = 40

# A sentence ends at . ! ? ; followed by a space or the end: "check_tests.py" and "3.11" stay whole.
_SENTENCES = re.compile(r"(?:[^.!?;\n]|[.!?;](?=[^\s.!?;]))+[.!?;]*")
# Openers that do not change what the rule says.
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|also|oh|hey|hi|well|btw|actually|no|one more thing|from now on|"
    r"going forward|in future|in the future|remember(?: that)?|please|pls|you should|"
    r"you must|you need to)[\s,:-]+)+",
    re.IGNORECASE,
)
_ALWAYS_NEVER = re.compile(r"^(always|never)\b[\s,:-]*(.+)$", re.IGNORECASE)
_PREFER = re.compile(
    r"^(?:i(?:\s+would|'d|’d)?\s+)?(?:really\s+)?prefers?\b[\s,:-]*(.+)$", re.IGNORECASE
)
_CALL_ME = re.compile(r"^call\s+me\s+(.+)$", re.IGNORECASE)
# First words after "always"/"never" that make the phrase talk, not an instruction ("never mind",
# "always happy to help", "never been better", "never again", "never ever", "always the same").
_NOT_DIRECTIVE = frozenset(
    re.findall(
        r"\S+",
        "mind again ever happy glad pleased keen nice good great fine lovely fun funny welcome "
        "here there been was were had did is am are will would could should can so too such "
        "more less "
        "the a an this that it it's its late ready sure okay ok right true easy hard mine yours "
        "thought knew said heard seen saw guessed expected imagined better worse best worst "
        "enough once yet before now done over",
    )
)
_WORD = re.compile(r"[\w'’-]+")
# What a standing instruction to the pet starts with, after "always"/"never": what the pet does
# when it talks, reminds or keeps things ("always answer briefly", "never call me before 9"),
# and what a coding agent does ("never push to main directly").
_PET_VERBS = frozenset(
    re.findall(
        r"\S+",
        "answer reply respond call message text ping phone ring wake remind tell ask say mention "
        "talk speak write send use greet address include add start end begin finish sign keep "
        "show suggest recommend offer list quote swear curse share store remember forget save "
        "check notify interrupt disturb bother summarize summarise translate correct explain "
        "spell capitalize capitalise format shorten sound joke be put bring mix schedule book "
        "confirm wait read repeat give let make do "
        # what a coding agent is told (the agent face shares these rules: agent.memory)
        "push commit merge rebase run execute edit delete remove deploy modify change install "
        "upgrade update rename refactor test build release lint skip disable enable open close "
        "create touch leave stop break hardcode ignore log print obey follow "
        "squash amend revert tag bump pin vendor document annotate review rerun regenerate "
        "rebuild compile migrate publish upload fetch pull clone stage sign verify validate "
        "sanitize sanitise escape encrypt force-push indent wrap truncate catch raise handle "
        "return pass prefix mock avoid prefer respect backup archive reset restart prune",
    )
)
# Words that may start an instruction's object: after a verb not in the list, "always squash
# the commits", "never mock any network call" still read as orders (an adverb, a participle or
# a word of _NOT_DIRECTIVE first is still talk: "always sort of liked it" is not an order).
_OBJECT_STARTS = frozenset(
    re.findall(
        r"\S+",
        "the a an any all every each this that these those its their them it his her our new old",
    )
)
# Verbs of feeling and thinking: "always love the sunsets", "never liked the beach" are about
# the speaker, whatever follows them.
_FEELINGS = frozenset(
    re.findall(
        r"\S+",
        "love like hate enjoy miss adore feel want need wish hope think believe remember know "
        "find get got have take sort kind",
    )
)
# Or it names the owner or the pet: "never give me long lists", "always run tests for me".
_ADDRESSED = frozenset({"me", "my", "myself", "you", "your", "us", "our"})
_PREPOSITIONS = frozenset(re.findall(r"\S+", "in on at since with without during until by"))
# Said to someone, not to the pet: encouragement and sayings ("never give up", "never say
# never"), whatever words they share with instructions.
_SAYINGS = re.compile(
    r"^(?:give up|stop (?:believing|trying|dreaming|learning)|say never|look back|"
    r"let (?:go|anyone|anybody|them|it)|forget (?:where|who|what) you|be afraid)\b",
    re.IGNORECASE,
)
# How a line ends when its sentence goes on into the next line.
_OPEN_END = re.compile(
    r"(?:[,:(\u2013\u2014-]|\b(?:don'?t|don\u2019t|do not|doesn'?t|didn'?t|not|to|that|if|unless|"
    r"when|and|or|but|the|a|an|should|would|must|say|says|said|told me|tell me|wrote|writes)"
    r"|\b(?:if|when|that|unless|whether|wish|want|hope)\s+(?:you|we|i|they|he|she|people))\s*$",
    re.IGNORECASE,
)
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_INDENTED_CODE = re.compile(r"^(?: {4}|\t)")
_TRAILING_PLEASE = re.compile(r"[\s,]+(?:please|pls|thanks|thank you)[.!]*$", re.IGNORECASE)
# Words that do not tell one rule from another: its markers, politeness, the address to the pet,
# the articles. Not the stop words (core.words): rules are compared word by word, so "call me
# before 9" and "call me after 9" keep "before" and "after".
_NOISE = frozenset({"always", "never", "prefer", "please", "to", "you", "your"}) | ARTICLES


@dataclass(frozen=True)
class OwnerRule:
    kind: RuleKind
    text: str  # as the owner said it, one sentence, tidied
    words: tuple[str, ...]  # the rule without its polarity, case-folded

    @property
    def name(self) -> str:
        """The entry name in preferences/ (the filename stem is taken by the write path)."""
        prefix = "call-me" if self.kind == "call_me" else self.kind
        return "-".join([prefix, *self.words[:8]])

    @property
    def title(self) -> str:
        return self.text.rstrip(".!;").strip()

    @property
    def tags(self) -> tuple[str, ...]:
        return (RULE_TAG, self.kind)


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in (m.casefold().strip("'’-") for m in _WORD.findall(text)) if w)


def _tidy(sentence: str) -> str:
    text = " ".join(sentence.split()).rstrip(" ,;")
    text = text[0].upper() + text[1:] if text else text
    return text if text.endswith((".", "!")) else text + "."


def _directs_the_pet(body: str, said_words: tuple[str, ...]) -> bool:
    """After "always"/"never": a verb the pet could do, or words that address the owner or the
    pet; never a participle ("never tried it"), an adjective or a saying ("never give up")."""
    if not said_words or said_words[0] in _NOT_DIRECTIVE or _SAYINGS.match(body.strip()):
        return False
    first = said_words[0]
    if first in _PREPOSITIONS or (first.endswith("ed") and first not in _PET_VERBS):
        return False  # "never tried it", "never in my life": the owner's past, not an order
    clause = _words(body.split(",", 1)[0])  # "never eat before a run, it's my rule": not to me
    if first in _PET_VERBS or any(w in _ADDRESSED for w in clause):
        return True
    # A verb the list lacks, followed by its object: "always squash the commits before merging".
    return (
        len(said_words) > 2
        and said_words[1] in _OBJECT_STARTS
        and first not in _FEELINGS
        and not first.endswith(("ly", "ing", "s"))
        and first.isalpha()
    )


def parse_rule(sentence: str) -> OwnerRule | None:
    """One sentence → the rule it states, or None."""
    text = " ".join(sentence.split()).strip()
    if not text or text.endswith("?"):
        return None
    text = _TRAILING_PLEASE.sub("", _FILLER.sub("", text).strip())
    kind: RuleKind
    if m := _ALWAYS_NEVER.match(text):
        kind = "always" if m.group(1).lower() == "always" else "never"
        body = m.group(2)
    elif m := _PREFER.match(text):
        kind, body = "prefer", m.group(1)
    elif m := _CALL_ME.match(text):
        kind, body = "call_me", m.group(1)
    else:
        return None
    said_words = _words(body)
    if kind in ("always", "never") and not _directs_the_pet(body, said_words):
        return None  # "never mind", "Never tried it, but …": said, not directed
    words = tuple(w for w in said_words if w not in _NOISE)
    if not words or len(words) > MAX_RULE_WORDS:
        return None
    said = f"Call me {body.strip().rstrip('.!;')}" if kind == "call_me" else text
    return OwnerRule(kind, _tidy(said), words)


def _as_written(message: str) -> str:
    """The message with its line breaks read as the owner wrote them (the module docstring):
    one line per sentence run, a line left open joined to the next, the lines under an
    introducing line (ending in ":") each read after it, code blocks (fenced, or indented after
    a blank line) dropped."""
    if "\n" not in message:
        return message
    lines: list[str] = []
    intro, pending = "", ""
    in_fence = in_indented = intro_used = False
    after_blank = True
    for raw in message.split("\n"):
        line = raw.strip()
        if _FENCE.match(raw):
            in_fence, intro = not in_fence, ""
            continue
        in_indented = (
            bool(line) and (in_indented or after_blank) and bool(_INDENTED_CODE.match(raw))
        )
        after_blank = not line
        if in_fence or in_indented:
            intro_used = intro_used or bool(intro)  # the code was what the introducer introduced
            continue
        if not line:  # a blank line ends an open line, and an introducer's block once begun
            lines.append(pending)
            pending = ""
            if intro_used:
                intro, intro_used = "", False
            continue
        line = f"{pending} {line}" if pending else line
        pending = ""
        if intro:
            line, intro_used = f"{intro} {line}", True
        if line.endswith(":"):
            intro, intro_used = line, False
        elif _OPEN_END.search(line):
            pending = line
        else:
            lines.append(line)
    lines.append(pending)
    return "\n".join(lines)


def extract_rules(message: str) -> list[OwnerRule]:
    """Every rule the owner's message states, in order, each at most once; none in words the
    owner passed on from someone else, forwarded or pasted (contracts.relayed)."""
    if relayed.passed_on(message):
        return []
    rules: list[OwnerRule] = []
    intro = ""  # "Bob told me:" governs what follows a ";" as it governs what follows a line
    written = _as_written(message)
    for match in _SENTENCES.finditer(written):
        sentence = match.group(0)
        rule = parse_rule(f"{intro} {sentence.strip()}" if intro else sentence)
        if rule is not None and rule not in rules:
            rules.append(rule)
        head, colon, _ = sentence.partition(": ")
        if not sentence.rstrip().endswith(";") or written[match.end() : match.end() + 1] == "\n":
            intro = ""
        elif not intro and colon:
            intro = head.strip() + ":"
    return rules


def restates(new: OwnerRule, old: OwnerRule) -> bool:
    """True when `new` is the owner changing `old` (see the module docstring)."""
    if new.kind == "call_me" or old.kind == "call_me":
        return new.kind == old.kind and new.words != old.words
    polar = {"always", "never"}
    if new.kind in polar and old.kind in polar and new.kind != old.kind:
        return new.words == old.words
    if new.kind != old.kind:
        return False
    if len(new.words) != len(old.words) or len(new.words) < 2:
        return False
    return sum(a != b for a, b in zip(new.words, old.words, strict=True)) == 1


def rule_of_entry(tags: Sequence[str], body: str) -> OwnerRule | None:
    """The rule an owner-rule entry holds (None for any other entry)."""
    if RULE_TAG not in tags:
        return None
    return parse_rule(body.strip().splitlines()[0] if body.strip() else "")
