"""News the owner tells in passing, read by broker.offline before its fact rules (docs/brain.md,
"The audit pass: the phone's leftovers"):

- worry about someone ("my dad is in hospital since monday", "my grandad had a fall", "my best
  friend has been really ill"): heard warmly, nothing kept (how someone is now is history's);
- someone's news ("my neighbour bought a boat", "my cousin just had a baby"): a word about it,
  nothing kept (it is theirs, not the owner's);
- a birthday or an age in the family said as an event ("my daughter lily turns 10 on saturday",
  "its my husbands 60th next week"): kept as the owner said it (people/<relation> age), and
  celebrated, never wished luck as a plan;
- a lasting habit of someone named or just mentioned ("my wife works nights", "my bf plays the
  cello"; broker.offline_referent has put the person in place of "she"): kept in people/;
- a small complaint about the day ("bus didnt show up 😤", "ugh its raining again ☔"): sympathy,
  nothing kept;
- the owner's own birthday said as today's or tomorrow's ("it's my birthday today", "I turn 30
  tomorrow"): celebrated, and the day kept as a date (facts/birthday), read from the prompt's
  local time (`own_birthday`).

`heard` gives a `Told` (broker.offline_life's: the reply and at most one proposed entry) or
None, read before the fact rules; `news` the pet's words for someone's news or a complaint, or
None, read when no rule took the line. The brain only proposes: core's gate decides what is written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from shelldon.broker.offline_life import Told
from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import ANIMALS, HE, KIN, OTHERS, SHE, alternation, without_emoji
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

# Words that follow a relation and are no name: "my mum has been …", "my sis just got …".
_NOT_NAME = frozenset(
    (
        "just", "has", "have", "had", "is", "was", "got", "'s", "been", "finally", "recently",
        "also", "still", "and", "bought", "won", "passed", "started", "found", "adopted", "booked",
        "landed", "finished", "graduated", "retired", "quit", "opened", "lost", "fell", "broke",
        "turns", "turned", "will", "'ll", "works", "plays", "drives", "teaches", "speaks", "runs",
        "owns", "studies", "cooks", "sings", "rides", "paints", "writes", "knits", "swims", "does",
        "lives", "loves", "likes",
    )
)  # fmt: skip
_WHO = (
    rf"(?:it'?s )?(?:my|our) ((?:best |older |younger |little |big |elder |twin )?"
    rf"(?:{alternation(*OTHERS, *KIN)}))(?:['’]?s)?(?: ([a-zà-ÿ][\w'’-]*))?"
)
_WHO_RE = lazy(rf"^{_WHO}\s+(.+)$", re.IGNORECASE)

_UNWELL = lazy(
    r"^(?:(?:has been|has|is|'s|was|had|got|been|is still|was taken)\s+)*"
    r"(?:(?:really|very|so|quite|a bit|pretty|badly|seriously)\s+)*"
    r"(?:ill|sick|unwell|poorly|in (?:the )?hospital|in a&e|in intensive care|in surgery|"
    r"a fall|fell|fell over|a stroke|a heart attack|an operation|surgery|covid|cancer|"
    r"(?:the )?flu|not (?:been )?(?:well|good|great)|not doing (?:so |too )?well|"
    r"(?:a )?(?:high )?(?:fever|temperature|temp)|(?:a )?(?:chest |ear )?infection|"
    r"(?:a )?broken \w+|(?:a )?bad cough|"
    r"isn't well|isn't doing well|hurt|injured|in pain)\b",
    re.IGNORECASE,
)
_NEWS = lazy(
    r"^(?:(?:just|finally|recently|has|have|has just|also)\s+)*"
    r"(got|had|bought|won|passed|started|found|adopted|booked|landed|finished|graduated|"
    r"retired|quit|opened|lost|failed|(?!(?:used|seemed|looked|sounded|seemed)\b)[a-z]{3,}ed)\b"
    r"\s*(.*)$",
    re.IGNORECASE,
)
_HAPPY = lazy(
    r"\b(?:engaged|married|baby|promot\w*|new job|job|house|flat|won|passed|graduated|retired|"
    rf"boat|car|{alternation(*ANIMALS)})\b",
    re.IGNORECASE,
)
_SAD = lazy(r"^(?:lost|failed)\b|\b(?:fired|sacked|dumped|divorced|laid off)\b", re.IGNORECASE)
_TURNS = lazy(
    r"^(?:turns|is turning|will be|'ll be|is going to be|is gonna be) (\d{1,3})\b(.*)$"
    r"|^(\d{1,3})(?:st|nd|rd|th)\b(?: birthday)?(.*)$",
    re.IGNORECASE,
)
_HABIT = lazy(
    r"^(?:(?:also|still|usually|always)\s+)?(works(?! (?:as|at|for|in)\b)|plays|drives|"
    r"teaches|speaks|runs|owns|studies|cooks|sings|rides|paints|writes|knits|swims|volunteers|coaches|trains|does)\b\s+(.+)$",
    re.IGNORECASE,
)
_ANNOYED = lazy(r"[😤🙄😩😒😑😠😡🤬☔🌧😫🤦]")
_UGH = lazy(r"^(?:ugh+|urgh+|argh+|ffs|typical|great,|sigh)\b", re.IGNORECASE)
_SNAG = lazy(
    r"\b(?:late|delayed|cancell?ed|down|broke|broken|raining|pouring|stuck|traffic|queue|"
    r"didn'?t (?:show|come|turn up|work|arrive)|won'?t (?:work|start|load)|not working|"
    r"missed|forgot|spilled|spilt)\b.*\bagain\b",
    re.IGNORECASE,
)

_WORRIED = (
    "Oh no, I'm sorry about your {rel}. That's a real worry. How are you holding up?",
    "Oh, poor {who}. I'm sorry, that must be hard on you too. I hope {they}'s on the mend soon.",
)
_GLAD = (
    "Oh, how lovely! Congratulations to your {rel}: {what}! 🎉",
    "Aw, that's great news from your {rel}! How exciting: {what}.",
)
_OTHER_NEWS = (
    "Ooh, your {rel} {verb} {what}! How exciting. How do you feel about it?",
    "Wow, your {rel} {verb} {what}? That's news! Tell me more.",
)
_SORRY_NEWS = ("Oh no, poor {who}. I'm sorry to hear that.",)
_BIRTHDAY = (
    "Ooh, {age}! Happy early birthday to {who}! 🎂 Any plans for the day?",
    "{age} already? Aw, a big one for {who}! 🎂 I'll remember.",
)
_HABIT_REPLY = (
    "Oh, {who} {said}? I'll remember that.",
    "Good to know: {who} {said}. I'll remember.",
)
_COMPLAINT = (
    "Ugh, that's so annoying! I'm sorry. I hope the rest of the day goes smoother.",
    "Oh no, not again! Sorry, that's rotten luck. Hang in there.",
    "Argh, how annoying, I'm sorry. Sending you a little patience. 🐚",
)
_SPELT = {"sis": "sister", "bro": "brother", "gf": "girlfriend", "bf": "boyfriend",
          "hubby": "husband", "wifey": "wife", "mom": "mum"}  # fmt: skip


def _person(found: re.Match[str]) -> tuple[str, str, str, str]:
    """(relation as said, name or "", the rest of the line, how to call them)."""
    rel, name, rest = found.group(1).casefold(), found.group(2) or "", found.group(3)
    said_on = f"{name} {rest}"
    verb_first = name.islower() and any(
        rule.match(said_on) for rule in (_UNWELL, _NEWS, _HABIT, _TURNS)
    )  # "my neighbour painted the fence": no one called "painted"
    if name.casefold() in _NOT_NAME or name.casefold().endswith("'s") or verb_first:
        rest, name = f"{name} {rest}", ""
    name = name[:1].upper() + name[1:] if name else ""
    return rel, name, rest.strip(), name or f"your {rel}"


def _they(rel: str) -> str:
    rel = rel.split()[-1]
    return "she" if rel in SHE else "he" if rel in HE else "they"


def heard(sentence: str, seed: int, avoid: Sequence[str] = ()) -> Told | None:
    """The pet's word about news the owner tells (see the module), or None."""
    text = without_emoji(sentence).strip().rstrip("!.").strip() or sentence.strip()
    text = re.sub(r"\s+(?:lol|lmao|haha|tbh|btw)$", "", text, flags=re.IGNORECASE)
    if (found := _WHO_RE.match(text)) is not None:
        return _about(found, seed, avoid)
    return None


def _about(found: re.Match[str], seed: int, avoid: Sequence[str]) -> Told | None:
    rel, name, rest, who = _person(found)
    base = rel.split()[-1]
    spelt = rel.replace(base, _SPELT.get(base, base))
    if _UNWELL.match(rest):
        return Told(
            pick(_WORRIED, seed, avoid)
            .format(rel=rel, who=who, they=_they(rel))
            .replace("poor your ", "your poor ")
        )
    if (turns := _TURNS.match(rest)) is not None:
        age = turns.group(1) or turns.group(3)
        when = (turns.group(2) or turns.group(4) or "").strip(" ,!.")
        who_kept = f"The owner's {spelt}" + (f" {name}" if name else "")
        content = f"{who_kept} turns {age}" + (f" {when}" if when else "") + "."
        said = pick(_BIRTHDAY, seed, avoid).format(age=age, who=name or f"your {rel}")
        return Told(said, ("people", f"{spelt} age", content))
    if (habit := _HABIT.match(rest)) is not None:
        said = f"{habit.group(1).casefold()} {habit.group(2).strip(' ,!.')}"
        who_kept = f"The owner's {spelt}" + (f" {name}" if name else "")
        reply = pick(_HABIT_REPLY, seed, avoid).format(who=who, said=said)
        return Told(
            reply, ("people", f"{spelt} {habit.group(1).casefold()}", f"{who_kept} {said}.")
        )
    return None


def news(sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """A word about someone's news ("my neighbour bought a boat") or a small complaint ("bus
    didnt show up 😤"), read when no other rule took the line (broker.offline_life's
    about_someone and broker.offline_asides' event have their own words first)."""
    text = without_emoji(sentence).strip().rstrip("!.").strip() or sentence.strip()
    text = re.sub(r"\s+(?:lol|lmao|haha|tbh|btw)$", "", text, flags=re.IGNORECASE)
    if (found := _WHO_RE.match(text)) is None:
        complaint = _ANNOYED.search(sentence) or _UGH.match(text) or _SNAG.search(text)
        if complaint and not text.endswith("?") and len(text.split()) <= 10:
            return pick(_COMPLAINT, seed, avoid)  # "bus didnt show up 😤"
        return None
    rel, _, rest, who = _person(found)
    if (said := _NEWS.match(rest)) is None:
        return None
    verb, what = said.group(1).casefold(), said.group(2).strip(" ,!.") or "news"
    if _SAD.search(rest):
        return pick(_SORRY_NEWS, seed, avoid).format(who=who).replace("poor your ", "your poor ")
    options = _GLAD if _HAPPY.search(what) and verb not in ("lost", "failed") else _OTHER_NEWS
    return pick(options, seed, avoid).format(rel=rel, verb=verb, what=what)


_OWN_BIRTHDAY = lazy(
    r"^(?:(?:it'?s|its|it is|today(?:'s| is)|tomorrow(?:'s| is)) my "
    rf"(?:(?P<rel>{alternation(*KIN, *OTHERS)})(?:'s|’s|s) )?"
    r"(?:(?P<nth>\d{1,3})(?:st|nd|rd|th) )?(?:birthday|bday|b-day)(?: (?P<when>today|tomorrow))?"
    r"|i(?:'m| am) (?:turning )?(?P<age>\d{1,3}) (?P<when2>today|tomorrow)"
    r"|i turn(?:ed)? (?P<age2>\d{1,3}) (?P<when3>today|tomorrow))$",
    re.IGNORECASE,
)


def own_birthday(sentence: str, now: LocalNow | None, name: str) -> Told | None:
    """A birthday said as today's or tomorrow's, the owner's or someone's of theirs ("it's my
    mum's birthday today"): a happy birthday, and the day kept as the date it falls on (without
    the prompt's clock, the wish alone)."""
    text = without_emoji(sentence).strip().rstrip("!.🎂🎉").strip()
    found = _OWN_BIRTHDAY.match(text)
    if found is None:
        return None
    when = found["when"] or found["when2"] or found["when3"] or ""
    tomorrow = when.casefold() == "tomorrow" or text.casefold().startswith("tomorrow")
    age = found["nth"] or found["age"] or found["age2"]
    rel = (found["rel"] or "").casefold()
    rel = _SPELT.get(rel, rel)
    to = f" to your {rel}" if rel else f", {name}" if name else ""
    wish = f"Ooh, happy early birthday{to}! 🎂" if tomorrow else f"Happy birthday{to}! 🎂🎉"
    reply = wish + (f" {age}, what a number!" if age else "")
    if now is None:
        return Told(reply)
    day = now.local.date() + timedelta(days=1 if tomorrow else 0)
    whose = f"The owner's {rel}'s" if rel else "The owner's"
    where = ("people", f"{rel} birthday") if rel else ("facts", "birthday")
    content = f"{whose} birthday is on {day.day} {day:%B}."
    return Told(f"{reply} I'll remember the day.", (*where, content))
