"""What the offline brain and its dream both need to tell of the owner's sentences: is it a
question? (A question is never a fact: the dream must not summarise "where does my sister live?"
as something the owner told it.) Is it a request to forget, and of what (broker.offline_forget
acts on it; broker.offline_view hides what was forgotten)?"""

from __future__ import annotations

import re

from shelldon.broker.patterns import lazy

_QUESTION_START = re.compile(
    r"^(?:what|what's|whats|who|who's|whom|whose|where|where's|when|which|why|how|do you|did you|"
    r"can you|could you|would you|will you|have you|are you|is|are|does|did i|do i|have i|am i|"
    r"tell me|remind me)\b",
    re.IGNORECASE,
)


def is_question(sentence: str) -> bool:
    """A sentence that asks: it ends with "?" or opens like one ("where does my sister live")."""
    return sentence.rstrip().endswith("?") or bool(_QUESTION_START.match(sentence.strip()))


_FORGET = lazy(
    r"^(?:(?:ok|okay|oh|and|also|hey|pls|please|actually|so|now|no|nah)[,\s]+)*"
    r"(?:(?:can|could|would|will) you\s+(?:please\s+)?|you can\s+|i want you to\s+|"
    r"i'd like you to\s+)?"
    r"(?:forget|unlearn|(?:delete|erase|remove|scratch)(?=\s+(?:that|what|everything|the note|"
    r"your note|the entry)\b))\s+"
    r"(?:(?:about|all about)\s+)?"
    r"(?:(?:what|everything|anything|all|the things?)\s+(?:that\s+)?"
    r"(?:i\s+(?:said|told you|mentioned|wrote)|you know)\s+(?:about|regarding|of|on)\s+|"
    r"(?:the fact )?that\s+|(?:your |the )?(?:note|entry) (?:about|on)\s+)?"
    r"(.*?)(?:\s+from (?:your )?memory)?[\s.!,]*(?:please|thanks|thank you)?[\s.!]*$",
    re.IGNORECASE,
)
_STOP_KEEPING = lazy(
    r"^(?:please\s+)?(?:don't|do not|stop|no need to)\s+(?:remember|remembering|keep|keeping)"
    r"\s+(?:that\s+|about\s+|(?:the fact )?that\s+)?(.*?)[\s.!]*$",
    re.IGNORECASE,
)
# Memory may be taught to forget only what the owner's words name; these name nothing.
_NOT_A_SUBJECT = lazy(r"^(?:you|yourself|me|him|her|them|where|who|what|how|why|when)\b")
_WHAT_I_SAID = lazy(
    r"^(?:what i (?:just )?(?:said|told you|wrote)|the last thing|my last message)$"
)


def forget_request(sentence: str) -> str | None:
    """What the owner asks the pet to forget ("my car", "that" for the last statement), or
    None when the sentence is no forget request ("don't forget …" is a remember)."""
    text = sentence.strip()
    found = _FORGET.match(text) or _STOP_KEEPING.match(text)
    if found is None:
        return None
    subject = found.group(1).strip(" .!,")
    if _WHAT_I_SAID.match(subject.casefold()):
        return "that"
    if _NOT_A_SUBJECT.match(subject.casefold()):
        return None
    return subject


# A verb the subject two clauses share stops before ("your sister Rana", not "your sister Rana
# lives in").
_VERB = lazy(
    r"^(?:is|are|was|has|had|lives|loves|likes|works|plays|hates|turns|does|did|goes|"
    r"studies|teaches|runs|owns|drives|speaks|used)$",
    re.IGNORECASE,
)


def after_subject(first: str, second: str) -> str:
    """The second clause said without the subject the first one gave ("your wife Ingrid loves
    orchids", "your wife Ingrid is into italian food" -> "is into italian food"); the second
    whole, its first letter small, when they share no subject of two words or more ("you" is
    one)."""
    a, b = first.split(), second.split()
    same = 0
    while (
        same < min(len(a), len(b)) - 1
        and a[same].casefold() == b[same].casefold()
        and not _VERB.match(b[same])
    ):
        same += 1
    shared = same >= 2 or (same == 1 and a[0].casefold() == "you")  # "you live …, you work …"
    return " ".join(b[same:]) if shared else second[:1].lower() + second[1:]


def merge_notes(replies: list[str]) -> list[str]:
    """ "Noted: a." "Noted: b." → "Noted: a, and b." (one sentence's clauses, said once), and
    a subject the two share said once: "Noted: your brother Yaw lives in Accra and is a tailor."
    (the eighteenth pass: "…, and your brother Yaw is a tailor"). The mark is the rules' own:
    the owner reads it worded by offline_talk.noted."""
    out: list[str] = []
    for reply in replies:
        if out and reply.startswith("Noted: ") and out[-1].startswith("Noted: "):
            first, second = out[-1][len("Noted: ") :].rstrip("."), reply[len("Noted: ") :]
            rest = after_subject(first, second)
            joint = " and " if rest != second[:1].lower() + second[1:] else ", and "
            out[-1] = f"Noted: {first}{joint}{rest}"
        else:
            out.append(reply)
    return out


_PROMISES = (" I'll remember that.", " I'll remember.")


def promise_once(replies: list[str]) -> list[str]:
    """Two replies in a row that each promise to remember ("Nice, your sister is called Lucia.
    I'll remember that." "Oh, your sister Lucia is a dentist. I'll remember.") promise it once,
    at the end."""
    out: list[str] = []
    for reply in replies:
        promised = next((p for p in _PROMISES if out and out[-1].endswith(p)), None)
        if promised and any(reply.endswith(p) for p in _PROMISES):
            out[-1] = out[-1][: -len(promised)]
        out.append(reply)
    return out


_OPENER = lazy(r"^([^\W\d_]+)[!,]\s+(?=\S)")


def openers_once(replies: list[str]) -> list[str]:
    """A reply that opens with the word an earlier one in the same turn opened with ("Nice to
    meet you, Dana!" "Nice! I'll remember that.") is said without it: "Nice to meet you, Dana!
    I'll remember that." (the fifteenth pass: "Nice! … Nice!" read as a stammer)."""
    out: list[str] = []
    for reply in replies:
        found = _OPENER.match(reply)
        first = found.group(1).casefold() if found else ""
        if first and any(r.split(maxsplit=1)[0].strip("!,.").casefold() == first for r in out):
            reply = reply[found.end() :] if found else reply
            reply = reply[:1].upper() + reply[1:]
        out.append(reply)
    return out
