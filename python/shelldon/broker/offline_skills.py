"""What someone of the owner's makes or does well, read by broker.offline (docs/brain.md,
"Nineteenth pass: a pet that keeps the day"):

    my mum makes the best dal                    -> people/mum skill: "The owner's mum makes
                                                    the best dal."
    my granddaughter Lily is really good at drawing
                                                 -> people/granddaughter lily skill, and Lily
                                                    kept as the granddaughter, as before
    my uncle is brilliant at fixing cars         -> people/uncle skill

It is met warmly, with the thing said back ("Your mum's dal! That sounds delicious."), and kept
about that person beside what else is kept of them, so "what does my mum make?" and "what's Lily
good at?" find it. Before the nineteenth pass "my mum makes the best dal" was "Mm-hm, I'm
listening." with nothing kept, and "my granddaughter Lily is really good at drawing" kept only
her name.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import KIN, OTHERS, alternation, to_second_person
from shelldon.broker.patterns import lazy

_WHO = (
    rf"^(?:(?:oh|and|also|btw|honestly)[\s,]+)*(?:my|our) (?:(?:older|younger|little|big|elder|"
    rf"twin|best) )?(?P<rel>{alternation(*KIN, *OTHERS)})"
    r"(?:,? (?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]+))?"
)
_GOOD = (
    r"the best|the most amazing|amazing|great|brilliant|incredible|a mean|an amazing|a great|"
    r"lovely|delicious|gorgeous|killer|epic|fantastic|awesome|wonderful|perfect|the nicest|"
    r"unbelievable|insane|proper|really good|really nice|the tastiest"
)
_MAKES = lazy(
    rf"{_WHO} (?:(?:still|always|really) )?(?P<verb>makes|cooks|bakes|brews|grows|knits|sews)"
    rf" (?P<good>{_GOOD}) (?P<thing>[\w' -]{{2,40}}?)(?: (?:ever|in the world|around|in town))?"
    r"[\s.!]*$",
    re.IGNORECASE,
)
_GOOD_AT = lazy(
    rf"{_WHO} (?:is|'s|’s) (?:(?:really|so|very|super|seriously|incredibly|amazingly|pretty|"
    r"actually|such) )?(?P<good>good|great|brilliant|amazing|talented|gifted|excellent|fantastic|"
    r"skilled|handy|a whizz|a wizard|a genius|an expert|a natural) (?:at|with) "
    r"(?P<thing>[\w' -]{2,40}?)[\s.!]*$",
    re.IGNORECASE,
)
_FOOD_VERBS = ("cooks", "bakes", "brews")
# What "makes" is food when it names ("the best dal", "amazing lasagne"): furniture, quilts or
# music are not to be tasted (the lead's run: "he makes the best furniture", "I'd love a taste").
_FOOD = lazy(
    r"\b(?:cakes?|bread|pies?|soups?|curry|curries|dal|daal|dhal|pasta|pizzas?|cookies|biscuits|"
    r"jam|coffee|tea|lasagne|lasagna|stews?|roasts?|pancakes|dumplings|noodles|sauces?|chil[il]i|"
    r"tacos|burgers?|sandwich(?:es)?|brownies|muffins|scones|tarts?|risotto|paella|salads?|"
    r"chocolates?|fudge|ice cream|lemonade|wine|beer|cocktails|smoothies|omelett?es?|gravy|food|"
    r"dinners?|lunch(?:es)?|breakfasts?|meals?|dishes|sushi|ramen|pho|kimchi|hummus|falafel|"
    r"bagels|croissants|pierogi|empanadas|samosas|biryani|tamales|bbq|barbecue|cheesecake|"
    r"crumble|trifle|flapjacks|porridge|granola|kombucha|cider|marmalade|pickles|chutney)\b",
    re.IGNORECASE,
)
_MADE = (
    "Ooh, {whose} {thing}! That sounds delicious. 😋 I'll remember that.",
    "Mm, {whose} {thing}, lovely! I'd love a taste. I'll remember that.",
)
_SKILLED = (
    "That's lovely, {who} sounds really talented at {thing}! I'll remember that.",
    "How great, {who} is good at {thing}! You must be proud. I'll remember that.",
)


class Skill(NamedTuple):
    """What is kept (each (collection, name, content)) and the pet's reply."""

    keep: tuple[tuple[str, str, str], ...]
    reply: str


def said(sentence: str, seed: int) -> Skill | None:
    """What someone of the owner's makes or does well (see the module), or None."""
    text = " ".join(sentence.split())
    made = _MAKES.match(text)
    good_at = _GOOD_AT.match(text) if made is None else None
    found = made or good_at
    if found is None:
        return None
    rel = found["rel"].casefold()
    name = found["name"] or ""
    who = f"{rel} {name}".rstrip()
    thing = found["thing"].strip()
    if made is not None:
        content = f"The owner's {who} {made['verb'].casefold()} {made['good']} {thing}."
        whose = f"{name}'s" if name else f"your {rel}'s"
        verb = made["verb"].casefold()
        grown = verb not in _FOOD_VERBS and not (verb == "makes" and _FOOD.search(thing))
        reply = (
            f"Ooh, {whose} {thing}! How lovely. I'll remember that."
            if grown
            else pick(_MADE, seed).format(whose=whose, thing=thing)
        )
    else:
        content = f"The owner's {who} is {good_at['good'].casefold()} at {thing}."  # type: ignore[index]
        reply = pick(_SKILLED, seed).format(who=name or f"your {rel}", thing=thing)
    keep = [("people", f"{who} skill".casefold(), re.sub(r"\s+", " ", content))]
    if name:
        keep.append(("people", who.casefold(), f"The owner's {rel} is called {name}."))
    return Skill(tuple(keep), reply[:1].upper() + reply[1:])


_ASKED = lazy(
    r"^(?:so\s+|and\s+)?what(?:'s| is| are) (?P<who>[\w' ]{2,40}?) (?:really |so )?(?:good|great|"
    r"brilliant|best|talented) (?:at|with)\s*\??$",
    re.IGNORECASE,
)
_SKILL_KEPT = lazy(
    r"\bis (?:good|great|brilliant|amazing|talented|gifted|excellent|fantastic|"
    r"skilled|handy|a whizz|a wizard|a genius|an expert|a natural) (?:at|with)\b"
)


def asked(question: str, known: list[str]) -> str | None:
    """ "what is Mia good at?": what is kept or said of that person's skill, in the pet's words
    (the general answer matched "Mia" alone and said her name, "great" not being "good"); None
    for any other question, or when nothing holds it."""
    found = _ASKED.match(" ".join(question.split()))
    if found is None:
        return None
    who = re.sub(r"^(?:my|our) ", "", found["who"].strip(), flags=re.IGNORECASE)
    for text in reversed(known):
        if re.search(rf"\b{re.escape(who)}\b", text, re.IGNORECASE) and _SKILL_KEPT.search(text):
            line = to_second_person(text).rstrip(". ")
            return f"{line[:1].upper()}{line[1:]}."
    return None
