"""A meal or a bake to suggest from the owner's diet, or from a dish someone of theirs makes well,
read by broker.offline_topics when nothing the owner likes to eat is known (docs/brain.md,
"Nineteenth pass: a pet that keeps the day"):

    I'm a vegetarian  + what's for dinner tonight?   -> "Since you're a vegetarian, how about a
                                                        mushroom risotto, …?"
    I'm gluten free   + what should I bake?          -> "Since you're gluten free, how about …"
    my mum makes the best dal  + any dinner ideas?   -> "How about dal? Your mum makes the best
                                                        dal."

Before the nineteenth pass each of these was "I don't know what you like to eat yet.", the diet
said a line before and kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import to_second_person
from shelldon.broker.patterns import lazy

# Each diet, the words that say it, and what to cook and to bake for it.
_DIETS = (
    (
        "vegan",
        r"\bvegan\b|\b(?:don't|do not|doesn't|does not|never) eat (?:any )?animal products\b",
        ("a chickpea curry", "a lentil bolognese", "a tofu stir-fry"),
        ("vegan banana bread", "oat flapjacks", "a vegan chocolate cake"),
    ),
    (
        "vegetarian",
        r"\bvegetarian\b|\bveggie\b|\b(?:don't|do not|doesn't|does not|never|no longer) eat "
        r"(?:any )?meat\b|\bgave up meat\b|\bmeat[- ]free\b",
        ("a mushroom risotto", "a veggie chilli", "a spinach and paneer curry"),
        ("banana bread", "a lemon drizzle cake", "cheese scones"),
    ),
    (
        "pescatarian",
        r"\bpescatarian\b|\bpescetarian\b",
        ("baked salmon with greens", "a prawn stir-fry", "a veggie chilli"),
        ("banana bread", "a lemon drizzle cake", "oat cookies"),
    ),
    (
        "gluten",
        r"\bgluten[- ]free\b|\bcoeliac\b|\bceliac\b|\b(?:can't|cannot|don't|do not) (?:eat|have) "
        r"gluten\b",
        ("a gluten-free risotto", "a jacket potato with chilli", "a stir-fry with rice noodles"),
        ("gluten-free brownies", "a flourless chocolate cake", "coconut macaroons"),
    ),
    (
        "dairy",
        r"\bdairy[- ]free\b|\blactose intolerant\b|\b(?:can't|cannot|don't|do not) (?:eat|have) "
        r"dairy\b",
        ("a coconut curry", "a tomato and olive pasta", "a chicken and rice traybake"),
        ("dairy-free banana bread", "oat flapjacks made with oil", "a vegan chocolate cake"),
    ),
)
_DIET_PATTERNS = tuple(
    (name, lazy(rx, re.IGNORECASE), cook, bake) for name, rx, cook, bake in _DIETS
)
_OWNERS = lazy(r"^(?:the owner|i)\b", re.IGNORECASE)
_MADE = lazy(
    r"^The owner's (?P<who>[\w' -]+?) (?:makes|cooks|bakes) (?:the best|amazing|great|brilliant|"
    r"incredible|a mean|lovely|delicious|gorgeous|killer|epic|fantastic|awesome|wonderful|perfect)"
    r" (?P<dish>[\w' -]{2,40}?)\.?$",
    re.IGNORECASE,
)
_IDEAS = (
    "Since {said}, how about {a}, {b} or {c}?",
    "Hmm, {said}, so maybe {a}? Or {b}, or {c}.",
)


def idea(known: Sequence[str], seed: int, *, baking: bool = False) -> str | None:
    """Ideas fitting the owner's diet, or a dish someone of theirs makes well, newest first; None
    when nothing said fits (the pet asks what the owner likes)."""
    for text in reversed(known):
        if text.rstrip().endswith("?") or not _OWNERS.match(text):
            continue
        for _name, pattern, cook, bake in _DIET_PATTERNS:
            if pattern.search(text):
                a, b, c = bake if baking else cook
                said = to_second_person(text).rstrip(". ")
                said = said[:1].lower() + said[1:]
                return pick(_IDEAS, seed).format(said=said, a=a, b=b, c=c)
    if baking:
        return None
    for text in reversed(known):
        if (made := _MADE.match(text.strip())) is not None:
            said = to_second_person(text).rstrip(". ")
            return f"How about {made['dish']}? {said[:1].upper()}{said[1:]}!"
    return None
