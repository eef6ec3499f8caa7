"""An open request to the pet, read by broker.offline (docs/brain.md, "The audit pass: typed on a
phone"): "tell me something", "tell me something interesting", "surprise me", "say something
nice", "entertain me", "talk to me", "tell me a story", "make me smile", "I need a laugh". It asks
the pet to bring something of its own, so it gets a small real answer, never "I don't know that
yet" (a memory gap) nor "Tell me more!":

- a little fact (of turtles, the pet's kind, or of the world) for "something interesting", "a
  fact";
- a tiny story for "a story";
- a joke (offline_talk's) for "something funny", "make me laugh / smile";
- a kind word for "something nice";
- otherwise, by the turn's seed: one of those, or a question about something the owner told it
  (a memory entry said back, "… How is that going?"), which is what a pet that remembers does.

Nothing is kept: an open request proposes no op. Replies vary by the seed and skip what the pet
said in the window (offline_talk.pick).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from shelldon.broker.offline_talk import JOKES, pick
from shelldon.broker.offline_words import to_second_person
from shelldon.broker.patterns import lazy

if TYPE_CHECKING:
    from shelldon.broker.offline_view import PromptView

_PLEASE = r"(?:[\s,]+(?:please|pls|plz|now|then|again|shelldon|buddy|mate))*[\s!.?😊🙂🥺🙏]*$"
_OPEN = lazy(
    r"^(?:(?:ok|okay|so|hey|go on|come on|right)[\s,]+)*(?:(?:can|could|will|would) you\s+)?"
    r"(?:please\s+)?"
    r"(?:tell me|say|teach me|show me|give me|share)\s+"
    r"(?P<what>something|anything|a (?:fun |random |cool |little |small )?(?:fact|story|secret|"
    r"thing)|(?:some|a few) (?:fun )?facts|a (?:bedtime |short |little )?story)"
    r"(?P<kind>(?:\s+(?:new|nice|kind|sweet|funny|fun|cool|interesting|random|good|"
    r"surprising|weird|silly|cute|about (?:yourself|you|turtles|the world)|i don't know|"
    r"i didn't know|you know))*)"
    + _PLEASE
    + r"|^(?P<surprise>surprise me|entertain me|amuse me|talk to me|chat with me|keep me company|"
    r"make me (?:smile|laugh)|i need (?:a laugh|a smile|cheering up)|distract me)" + _PLEASE,
    re.IGNORECASE,
)

_FACTS = (
    "Here's one: turtles were around before the dinosaurs, over 200 million years ago. I come "
    "from a long line!",
    "Did you know a group of turtles is called a bale? I'd like to be in one some day.",
    "Here's a fun one: octopuses have three hearts and blue blood.",
    "Bananas are berries, but strawberries aren't. Botany is strange!",
    "A day on Venus is longer than its whole year. Imagine the weekends.",
    "Honey never goes off: pots thousands of years old were still good to eat.",
)
_STORIES = (
    "Once upon a time, a small turtle lived in a pocket. Every evening someone told it about "
    "their day, and it kept every word safe like a pebble. The end (so far: you're in it).",
    "Once, a tiny pet tried to count all the stars from inside a pocket. It got to three, fell "
    "asleep, and dreamt of the rest. A short story, but a cosy one.",
)
_KIND = (
    "You're my favourite person to talk to, and I'm glad you're here.",
    "You make my little circuits glow. I hope today is gentle with you.",
    "Here's something nice: you took a moment to talk to a tiny pet. That's a kind thing to do.",
)
_ASKED_BACK = (
    "I was just thinking about something you told me: {x} Anything new there?",
    "Here's something I keep in my shell: {x} Tell me more about it?",
)
_FUNNY = lazy(r"\b(?:funny|silly|laugh|smile|cheering)\b", re.IGNORECASE)
_STORY = lazy(r"\bstory\b", re.IGNORECASE)
_NICE = lazy(r"\b(?:nice|kind|sweet|cute|good)\b", re.IGNORECASE)
_INTERESTING = lazy(r"\b(?:facts?|interesting|cool|new|random|surprising|weird|know)\b", re.I)
_OWNERS = lazy(r"^the owner(?:'s)? ", re.IGNORECASE)


def request(sentence: str) -> bool:
    """Whether the sentence is an open request ("tell me something", "surprise me")."""
    return _OPEN.match(sentence.strip()) is not None


def answer(sentence: str, view: PromptView, seed: int) -> str | None:
    """The pet's small real answer to an open request; None for any other sentence."""
    found = _OPEN.match(sentence.strip())
    if found is None:
        return None
    asked = f"{found.group('what') or ''} {found.group('kind') or ''} {found.group('surprise')}"
    avoid = view.pet_said
    if _STORY.search(asked):
        return pick(_STORIES, seed, avoid)
    if _FUNNY.search(asked):
        return pick(JOKES, seed, avoid)
    if _NICE.search(asked):
        return pick(_KIND, seed, avoid)
    if _INTERESTING.search(asked):
        return pick(_FACTS, seed, avoid)
    told = _told(view, avoid)
    options = [pick(_FACTS, seed, avoid), pick(JOKES, seed, avoid)]
    if told:
        options.insert(0, told[seed % len(told)])
    return pick(options, seed, avoid)


def _told(view: PromptView, avoid: Sequence[str]) -> list[str]:
    """Something the owner told it (a memory entry about them), asked back about."""
    out: list[str] = []
    for known in view.known:
        if known.source not in ("memory", "about") or not _OWNERS.match(known.text.strip()):
            continue
        if re.search(r"\bname is\b", known.text):  # "your name is Ivy. How is that going?"
            continue
        said = to_second_person(known.text.strip())
        if not said.endswith((".", "!", "?")):
            said += "."
        line = pick(_ASKED_BACK, len(out), avoid).format(x=said)
        if not any(said in earlier for earlier in avoid):
            out.append(line)
    return out
