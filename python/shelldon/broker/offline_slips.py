"""A line typed with a slip of English grammar, read as it was meant, by broker.offline
(docs/brain.md, "Eleventh pass: other owners"): owners who speak English as a second language,
and a question put as a clause.

    my mother she call Lucia            -> my mother is called Lucia
    I am work in a hotel like receptionist -> I work in a hotel as a receptionist
    where I am working?                 -> where am I working?
    do you remember where I am from?    -> where am I from?
    you like the coffee?                -> do you like the coffee?
    remind me what my sister is called  -> what is my sister called?
    tell me again where I work          -> where do I work?

"Remind me" or "tell me" before a question word asks what the pet keeps, never for a reminder
(the twelfth pass: it was "When should I remind you to what your sister is called?"); "remind
me when I get home to …" stays a reminder.

Each is a few words moved, never a word added that was not meant; the fact rules then read the
line as ever. Before the eleventh pass these were "I hear you." with nothing kept, "You told me
you're work in a hotel …", "I don't know that yet." (the owner had said where they were from)
and a gap in memory for a question to the pet.
"""

from __future__ import annotations

import re

from shelldon.broker.patterns import LazyPattern, lazy

_WHO = r"(?:my|our) [\w'’]+(?: [\w'’]+)?"
_WH = r"(?:where|what|when|who|which \w+|how old|how long|how many \w+)"
_SLIPS: tuple[tuple[LazyPattern, str], ...] = (
    # "remind me what my sister is called", "tell me again where I work": a question
    (
        lazy(
            r"^(?:(?:can|could|would) (?:you|u) )?(?:please )?(?:remind|tell) me(?: again)?,?\s+"
            r"(?!when (?:i|we)\b)((?:what|who|where|when|which|how)(?:'s|’s)?\b(?! to\b)[^?]*)"
            r"\??[\s.!]*$",
            re.IGNORECASE,
        ),
        r"\1?",
    ),
    # "where I work?": the question with its "do"
    (
        lazy(r"^(where|what|when|who) (i|we) (work|live|study|do)\b([^?]*\?)$", re.I),
        r"\1 do \2 \3\4",
    ),
    # "my mother she call Lucia", "my brother he is call Tom": the name said as "called"
    (
        lazy(
            rf"^({_WHO}) (?:she|he|they) (?:is |are )?(?:call|calls|called|named|name is)\s+"
            r"([\w'’-]+)[\s.!]*$",
            re.IGNORECASE,
        ),
        r"\1 is called \2",
    ),
    # "I am work in a hotel", "I am live in Dublin": the verb as meant
    (lazy(r"^I am (work|live|study|stay|come)\b", re.IGNORECASE), r"I \1"),
    # "… in a hotel like receptionist": the job "as" one
    (
        lazy(r"^(I work (?:in|at|for) [^,]+?) like (?:a |an )?([a-z]+)[\s.!]*$", re.IGNORECASE),
        r"\1 as a \2",
    ),
    # "do you remember where I am from?", "where I am working?": the question put plainly
    (
        lazy(
            rf"^(?:(?:do|can|did) (?:you|u) (?:remember|know|recall)\s+)?({_WH})\s+"
            rf"(i|we|he|she|they|{_WHO})\s+(am|is|are|was|were)\b(.*)$",
            re.IGNORECASE,
        ),
        r"\1 \3 \2\4",
    ),
    # "you like the coffee?", "u sleep?": a question to the pet without its "do"
    (
        lazy(
            r"^(you|u) (like|love|enjoy|have|know|want|eat|drink|sleep|dream|remember|play|"
            r"read|watch|listen to|get)\b([^?]*\?)$",
            re.IGNORECASE,
        ),
        r"do you \2\3",
    ),
)


def read(sentence: str) -> str:
    """The sentence as meant: each slip that fits, moved right, in order; else as it was."""
    text = sentence
    for pattern, meant in _SLIPS:
        found = pattern.match(text)
        if found:
            text = re.sub(r"\bi\b", "I", found.expand(meant)) + text[found.end() :]
    return text
