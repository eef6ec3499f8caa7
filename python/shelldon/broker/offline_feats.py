"""Something the owner did, with a figure, read by broker.offline (docs/brain.md, "Nineteenth
pass: a pet that keeps the day"):

    I ran 5k this morning in 28 minutes       -> facts/run 5k: "The owner ran 5k in 28 minutes
                                                 (told on Monday 7 December 2026)."
    I swam 40 lengths today                   -> facts/swim 40 lengths
    finished the half marathon in 2 hours 10  -> facts/finish the half marathon
    how fast did I run?                       -> "You ran 5k in 28 minutes (…)."

It is praised with its figure said back ("Well done, you ran 5k in 28 minutes! …"), never "Oh?
And how was it?", and kept with the day it was told on (a word like "this morning" would point at
another day tomorrow), under the thing done, so the next 5k revises the last. `asked` answers
"how fast / far / long / many lengths did I …?" from what memory or the window holds of that verb
(the question's "swim" is the statement's "swam"). Before the nineteenth pass "I ran 5k this
morning in 28 minutes" was "Oh? And how was it?" with nothing kept, and "how fast did I run?"
was "I don't know that yet."
"""

from __future__ import annotations

import re
from typing import NamedTuple

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import to_second_person
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

# Each verb's forms, the first the name it is kept by ("run 5k").
_FORMS = {
    "run": ("ran", "run", "running"),
    "swim": ("swam", "swum", "swimming"),
    "walk": ("walked", "walk", "walking"),
    "cycle": ("cycled", "cycle", "cycling", "biked", "rode"),
    "hike": ("hiked", "hike", "hiking"),
    "row": ("rowed", "row", "rowing"),
    "climb": ("climbed", "climb", "climbing"),
    "lift": ("lifted", "deadlifted", "benched", "squatted", "lift"),
    "do": ("did", "do", "done"),
    "finish": ("finished", "finish", "completed", "complete"),
    "read": ("read", "reading"),
    "score": ("scored", "score"),
    "bake": ("baked", "bake"),
}
_VERB_OF = {form: verb for verb, forms in _FORMS.items() for form in (verb, *forms)}
_PAST = (
    r"ran|swam|walked|cycled|biked|rode|hiked|rowed|climbed|lifted|deadlifted|benched|"
    r"squatted|did|finished|completed|read|scored|baked"
)
_NUMBER = (
    r"\d+(?:[.,]\d+)?\s*(?:k|km|kms|mi|m|kg|kgs|lbs?)?\b|\b(?:two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|a hundred)\b"
)
_WHEN = (
    r"\b(?:this (?:morning|afternoon|evening)|today|tonight|earlier(?: today)?|just now|"
    r"at (?:the )?(?:gym|pool|park)|yesterday)\b"
)
_SAID = lazy(
    rf"^(?:(?:guess what|so|omg|yay|wow)[\s,!]+)*(?:i|we)\s+(?:just\s+|finally\s+|actually\s+)?"
    rf"(?P<verb>{_PAST})\s+(?!into\b|out\b|over\b|late\b|away\b|off\b|up\b|around\b|it\b|"
    r"nothing\b|that\b|this\b)(?P<rest>.{2,80}?)[\s.!]*$",
    re.IGNORECASE,
)
_FIGURE = lazy(_NUMBER, re.IGNORECASE)
_WHEN_SAID = lazy(rf"\s*,?\s*{_WHEN}", re.IGNORECASE)
# The thing done, the name it is kept by: up to "in", "at", "with", or a day word.
_THING = lazy(r"^(?P<thing>.+?)(?=\s+(?:in|at|with|on|for|and|before|after)\b|$)", re.IGNORECASE)
_PRAISE = (
    "{Said}! Well done, that's brilliant. 🎉",
    "Wow, {said}! Well done you, that's a proper achievement.",
)
# "5k in 28 minutes": the time said first ("28 minutes for 5k"), the owner's line not echoed.
_IN_TIME = lazy(
    rf"^(?P<what>.+?) in (?P<time>(?:under |just under |about )?(?:{_NUMBER}).*)$", re.I
)
_ASKED = lazy(
    r"^(?:so\s+|and\s+)?(?:how (?:fast|far|long|quick(?:ly)?|many \w+|much \w*)|what(?:'s| was) "
    r"my (?:time|pace|distance|score)(?: for \w+)?|what time did i (?:get|do|finish))\b.*?"
    r"\b(?:did|do|have|had) (?:i|we) (?P<verb>\w+)\b.*$"
    r"|^what(?:'s| was) my (?P<thing>[\w ]{2,30}?) (?:time|pace|score)\s*\??$",
    re.IGNORECASE,
)


class Feat(NamedTuple):
    """What is kept (collection, name, content) and the pet's reply."""

    keep: tuple[str, str, str]
    reply: str


def said(sentence: str, now: LocalNow | None, seed: int) -> Feat | None:
    """Something done with a figure (see the module), or None."""
    text = " ".join(sentence.split())
    found = _SAID.match(text)
    if found is None or not _FIGURE.search(found["rest"]):
        return None
    verb = _VERB_OF[found["verb"].casefold()]
    rest = _WHEN_SAID.sub("", found["rest"]).strip(" ,")
    done = f"{found['verb'].casefold()} {rest}"
    thing = _THING.match(rest)
    name = f"{verb} {thing['thing'] if thing else rest}".casefold()[:50]
    day = f" (told on {now.local:%A} {now.local.day} {now.local:%B %Y})" if now else ""
    timed = _IN_TIME.match(rest)
    what = re.sub(r"\bmy\b", "your", timed["what"] if timed else rest, flags=re.I)
    praised = f"{timed['time']} for {what}" if timed else what
    reply = pick(_PRAISE, seed).format(said=praised, Said=praised[:1].upper() + praised[1:])
    done = re.sub(r"\bmy\b", "their", done, flags=re.I)  # "ran my first 10k": the owner's
    return Feat(("facts", name, f"The owner {done}{day}."), reply)


def asked(question: str, known: list[str]) -> str | None:
    """ "how fast did I run?": what was said of that verb, newest first, in the pet's words; None
    for any other question, or when nothing holds it (the question is answered as any other)."""
    found = _ASKED.match(" ".join(question.split()))
    if found is None:
        return None
    if found["verb"]:
        verb = _VERB_OF.get(found["verb"].casefold())
        if verb is None:
            return None
        words = rf"\b(?:{'|'.join((verb, *_FORMS[verb]))})\b"
    else:
        words = rf"\b{re.escape(found['thing'])}\b"
    for text in reversed(known):
        if text.rstrip().endswith("?") or not re.search(words, text, re.IGNORECASE):
            continue
        if not _FIGURE.search(text) or not re.match(r"^(?:the owner|i|we)\b", text, re.I):
            continue
        line = to_second_person(text).rstrip(". ")
        return f"{line[:1].upper()}{line[1:]}."
    return None
