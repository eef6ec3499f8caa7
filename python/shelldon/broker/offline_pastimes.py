"""What the owner does with their time, said by its craft's verb, read by broker.offline after
offline_life (docs/brain.md, "Nineteenth pass"):

    I grow tomatoes in my greenhouse   -> kept: "The owner grows tomatoes in their greenhouse."
    I knit scarves for my grandkids    -> the same
    I keep bees / I volunteer at the food bank / I sing in a choir

offline_life keeps what the owner plays, goes to or does ("I play the guitar", "I do yoga on
Tuesdays"); the same life said with grow, knit, sew, collect, paint, bake, keep (bees, hens, an
allotment), volunteer or sing was "Okay!", "Tell me more!" or "I hear you." with nothing kept
(the lead's run of an older owner). A verb that reads as a pastime only with what follows is
taken only so: "I grow tired of it", "I draw the line", "I collect the kids at 3", "I keep
forgetting" are not pastimes.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_life import Told
from shelldon.broker.offline_words import lower_first, to_second_person, to_third_person
from shelldon.broker.patterns import lazy

_PASTIME = lazy(
    r"^(?:i|we) (?:(?:also|still|really|usually|often|sometimes|love to|like to) )?"
    r"(?P<verb>grow|knit|crochet|sew|quilt|collect|paint|draw|sketch|bake|brew|volunteer|sing|"
    r"carve|forage|embroider|keep)\s+(?P<what>[\w' -]{2,60}?)\s*[.!]*$",
    re.IGNORECASE,
)
# What after the verb makes it no pastime: a state, a saying, a chore, a habit of forgetting.
_NOT = lazy(
    r"^(?:grow (?:tired|old|bored|impatient|weary|up|out|fond|closer|apart)|draw (?:the line|"
    r"a blank|attention|conclusions)|collect (?:the kids|my|him|her|them|the post|the mail|it|"
    r"that|rubbish|dust)|keep (?!(?:bees|hens|chickens|goats|ducks|an allotment|a garden|koi|"
    r"pigeons|a diary|a journal)\b)|sing (?:along|to myself)|bake (?:in the sun)|"
    r"paint (?:myself into))",
    re.IGNORECASE,
)
_REPLIES = (
    "Ooh, {x}! How lovely. I'll remember.",
    "That's a lovely thing to do: {x}. I'll remember.",
)


def told(sentence: str, seed: int) -> Told | None:
    """A pastime said with its craft's verb (see the module), else None."""
    text = " ".join(sentence.split())
    found = _PASTIME.match(text)
    if found is None or _NOT.match(f"{found['verb']} {found['what']}".casefold()):
        return None
    third = to_third_person(re.sub(r"^we\b", "I", text.rstrip(".!"), flags=re.IGNORECASE))
    third = third[:1].upper() + third[1:].rstrip(".") + "."
    reply = _REPLIES[seed % len(_REPLIES)].format(x=lower_first(to_second_person(third))[:-1])
    what = found["what"].split(" for ")[0].split(" in ")[0].split(" at ")[0]
    name = " ".join(re.sub(r"[^\w ]+", " ", f"{found['verb']} {what}".lower()).split()[:5])
    return Told(reply, ("preferences", name, third))
