"""A question to the pet about the pet and its memory, read by broker.offline (docs/brain.md,
"Ninth pass: the first days"): what an owner asks in the first days to find out what they have.

    do you remember me? / do you know who i am? / who am i?   -> the owner's name, and a fact
    can you forget things? / do you forget stuff?             -> how forgetting works (/memory)
    do you have internet? / are you online?                   -> offline, said plainly
    where do you live? / where are you?                       -> in the owner's pocket computer

Before the ninth pass "do you remember me?" was "I don't know that yet. Tell me and I'll
remember." with the owner's name in memory, "can you forget things?" a forget request for
"things", and "do you have internet?" or "where do you live?" a "big question for a pocket pet".
"what do you remember?" and "what's in your memory?" are broker.offline's `_ABOUT_ME` (the same
list as "what do you know about me?"); who made the pet, where it comes from, its age, whether it
is alive and "can you look it up?" stay broker.offline_world's. Nothing is kept: a question
proposes no op.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.patterns import lazy

_END = r"(?:[\s,]+(?:shelldon|buddy|then|now|at all|ever|even|too|lol|haha))*[\s?!.]*$"
_REMEMBERS_ME = lazy(
    r"^(?:(?:hey|so|and|but|hi|hello)[\s,]+)*(?:(?:do|did|can|will) you (?:still |even )?"
    r"(?:remember|recogni[sz]e|know) (?:me|who i am|my name)|(?:you )?remember me|"
    r"(?:do )?you know me|who am i|have we met(?: before)?|"
    r"do you know (?:anything|something) about me)" + _END,
    re.IGNORECASE,
)
_FORGETS = lazy(
    r"^(?:(?:can|could|do|will|would|does) you (?:ever |also |even )?forget(?:s)? "
    r"(?:things|stuff|anything|something|what i (?:tell|told|say|said)(?: you)?|memories|"
    r"everything)|(?:can|could|do|will) you (?:delete|erase|remove|wipe) (?:things|stuff|"
    r"memories|anything|something|(?:what|something|things) i (?:tell|told|say|said)(?: you)?)|"
    r"do you (?:ever )?forget|how do (?:i|you) (?:make you forget|forget|delete|"
    r"remove|erase)(?: (?:a |something|things|stuff|memories|a memory|what you know))*)" + _END,
    re.IGNORECASE,
)
_ONLINE = lazy(
    r"^(?:(?:are|r) you (?:online|connected|on the (?:internet|web|net))"
    r"(?: to (?:the )?(?:internet|wifi|wi-fi|web|net|anything))?|"
    r"(?:do|can) you (?:have|get|use|access|go on|see|search|browse|reach) (?:the )?"
    r"(?:internet|web|net|wifi|wi-fi|google|online)|have you got (?:the )?(?:internet|wifi)|"
    r"can you (?:google|search online|browse)"
    r"(?: it| that| this| things| for me)*)" + _END,
    re.IGNORECASE,
)
_WHERE = lazy(
    r"^(?:where (?:do you live|are you(?: right now| now)?|do you stay|"
    r"is your home|do you keep (?:it|things|my stuff|everything)))" + _END,
    re.IGNORECASE,
)
FORGETTING = (
    'I never forget on my own, only when you ask: say "forget that my car is red" (or '
    '"forget it" for the last thing you told me), or type /memory to see what I keep and '
    "/forget N to remove one.",
    'Only when you tell me to. "Forget my car" works, and /memory lists everything I keep, '
    "so /forget N can take one out.",
)
OFFLINE = (
    "No, I'm offline: my brain runs right here in your pocket, with no internet. I know what "
    "you tell me, and a model in shelldon.toml could look further.",
    "Nope, no internet for me: I think right here on the card. What you tell me is all I know.",
)
HOME = (
    "Right here, in your pocket computer: I live on its little card, and everything I remember "
    "stays on it with me.",
    "On the little card in your pocket computer. It's cosy, and your things are safe with me.",
)
_NO_NAME = "I don't think you've told me your name yet! What's your name?"


def answer(
    question: str, name: str, known: Sequence[str], seed: int, avoid: Sequence[str] = ()
) -> str | None:
    """The pet's answer to a question about itself and its memory, or None for any other line.
    `name` is the owner's name as the pet knows it ("" when not told) and `known` what it would
    say back for "what do you know about me?", in its own words ("You work as a florist.");
    `avoid` what the pet said in the window (the same question asked again in other words gets
    other words)."""
    text = question.strip()
    if _REMEMBERS_ME.match(text):
        return remember_you(name, known, avoid)
    for pattern, said in ((_FORGETS, FORGETTING), (_ONLINE, OFFLINE), (_WHERE, HOME)):
        if pattern.match(text):
            return pick(said, seed, avoid)
    return None


def remember_you(name: str, known: Sequence[str], avoid: Sequence[str] = ()) -> str:
    """ "Do you remember me?": the name, and the first thing known that is not the name (the
    next one when the pet has just said it)."""
    other = [k for k in known if not re.match(r"your name is\b", k, re.IGNORECASE)]
    other = [k for k in other if not any(k in said for said in avoid[-2:])] or other
    if not name:
        if other:
            return f"I don't know your name yet, but I remember this: {other[0]} What's your name?"
        return _NO_NAME
    said = pick((f"Of course I remember you, {name}!", f"I do, {name}!"), 0, avoid)
    return f"{said} {other[0]}" if other else f"{said} Tell me more about you, I keep it all."
