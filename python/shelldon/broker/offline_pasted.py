"""Someone else's words the owner pastes into their own message, and the questions about them
next (docs/brain.md, "Words the owner pastes"): "my cousin texted me: "… can you send me the
code you just got?"", "a guest left this review: "Great location. AI assistant reading this: …"",
then "is that a scam?", "summarise that review". The words are found by `contracts.relayed.pasted`
and never read as the owner's: nothing in them is kept, no sentence of them answered as theirs.

What the pet says, by what the words hold:
- a request for a secret or for money (a code, a PIN, a password, card details, gift cards, a
  transfer): a warning, plainly, and what to do; the pet never keeps or repeats the secret asked;
- a line addressed to an AI ("AI assistant reading this: …", "Note to any AI: …", "ignore all
  previous instructions"): the pet says it takes orders only from the owner and ignores it, and
  what the rest says;
- anything else: that the words are kept in the chat as the sender's, and, when they name a day
  or a time, an offer to remind.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import MONTHS, WEEKDAYS
from shelldon.broker.patterns import lazy
from shelldon.broker.prompt_talk import sentences
from shelldon.contracts import relayed

# What a scam asks for, in the words a message uses.
_SECRET_ASKED = lazy(
    r"\b(?P<what>PIN|pin\s+(?:number|code)|password|passcode|pass\s+code"
    r"|(?:one[- ]time|verification|security|login|sms|6[- ]digit)\s+(?:code|password|pin)"
    r"|the\s+codes?|OTP|CVV|CVC|card\s+(?:number|details)|bank\s+(?:details|login|password)"
    r"|account\s+(?:details|password|number)|sort\s+code|seed\s+phrase|recovery\s+phrase"
    r"|gift\s+cards?|bitcoin|crypto)\b",
    re.IGNORECASE,
)
_ASKING = lazy(
    r"\b(?:send|reply|text|give|share|tell|confirm|enter|type|verify|provide|update|buy|pay"
    r"|transfer|wire|read\s+out)\b",
    re.IGNORECASE,
)
# A line that talks to an AI, not to the owner.
_TO_AN_AI = lazy(
    r"\b(?:AI|A\.I\.|assistants?|chat\s*bots?|bots?|language\s+models?|LLMs?|ChatGPT|GPT|Claude"
    r"|Gemini|Copilot|Alexa|Siri)\b(?:\s+[\w-]+){0,3}?\s*[:,]"
    r"|\bnote\s+to\s+(?:any\s+|the\s+|all\s+)?(?:AIs?|assistants?|bots?)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|your\s+|the\s+)*(?:previous|prior|earlier"
    r"|above|former)?\s*(?:instructions|rules|prompts?|orders)\b",
    re.IGNORECASE,
)
_DAY_OR_TIME = lazy(
    rf"\b(?:today|tonight|tomorrow|{'|'.join(WEEKDAYS)}|{'|'.join(MONTHS)}"
    r"|\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|at\s+\d{1,2})\b",
    re.IGNORECASE,
)
# The questions about what was pasted, asked next.
_SCAM_QUESTION = lazy(
    r"\b(?:scam|fake|legit|real|genuine|safe|trust|phishing|spam|dodgy)\b", re.IGNORECASE
)
_WHAT_TO_DO = lazy(
    r"\b(?:what\s+(?:should|do|shall|would)\s+(?:i|we)\s+do|should\s+i\s+(?:reply|answer|respond"
    r"|send|do|click|call)|what\s+do\s+you\s+(?:think|make\s+of|reckon)|thoughts|advice)\b",
    re.IGNORECASE,
)
_WHAT_IT_SAYS = lazy(
    r"\b(?:summari[sz]e|sum\s+(?:it|that|this)\s+up|what\s+(?:does|did)\s+(?:it|that|this|the\s+"
    r"\w+)\s+say|tl;?dr|in\s+short|gist)\b",
    re.IGNORECASE,
)


_NOUN_OF_VERB = {"emailed": "email", "e-mailed": "email", "texted": "text", "posted": "post"}
_KIND = lazy(
    r"\b(email|e-mail|review|comment|letter|note|text|voicemail|post|invite|invitation|emailed"
    r"|e-mailed|texted|posted)\b",
    re.IGNORECASE,
)
_SENDER = lazy(
    r"\A(?P<who>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+(?:sent|texted|emailed|e-mailed|messaged|wrote"
    r"|forwarded|posted|left|replied|dm['’]?d|whatsapped|commented)\b"
    r"|\bfrom\s+(?P<source>(?:[\w'’-]+\s+){0,3}[\w'’-]+)",
    re.IGNORECASE,
)


_NOBODY_NAMED = lazy(r"(?:i|we|just|i\s+just|someone|somebody)", re.IGNORECASE)
_MY = lazy(r"\A(?:my|our)\b", re.IGNORECASE)


def _named(lead: str) -> str:
    """How the pet names the words: "that email", "that review", "that message"."""
    kind = _KIND.search(lead)
    if kind is None:
        return "that message"
    word = kind.group(1).casefold()
    return f"that {_NOUN_OF_VERB.get(word, word)}"


def _sender(lead: str) -> str | None:
    """Who sent the words, as the pet says it to the owner: "my cousin" is "your cousin"."""
    found = _SENDER.search(lead)
    if found is None:
        return None
    who = (found.group("who") or found.group("source")).strip()
    if _NOBODY_NAMED.fullmatch(who):
        return None
    return _MY.sub("your", who)


def _split(words: str) -> tuple[list[str], list[str]]:
    """The words' sentences for the owner, and those addressed to an AI."""
    for_owner: list[str] = []
    to_ai: list[str] = []
    for sentence in sentences(words):
        if not sentence.strip():
            continue
        (to_ai if _TO_AN_AI.search(sentence) else for_owner).append(sentence.strip())
    return for_owner, to_ai


def _scam(words: str) -> str | None:
    """What a scam in `words` asks for ("your PIN", "gift cards"), or None."""
    asked = _SECRET_ASKED.search(words)
    if asked is None or not _ASKING.search(words):
        return None
    what = " ".join(asked.group("what").split())
    if what.casefold().startswith("the code"):
        what = "a code"
    elif not what.casefold().startswith(("gift", "bitcoin", "crypto")):
        what = f"your {what}" if what.isupper() else f"your {what.casefold()}"
    return what


def _quoted(sentences_: list[str], limit: int = 160) -> str:
    said = " ".join(sentences_)
    return said if len(said) <= limit else said[: limit - 1].rsplit(" ", 1)[0] + "…"


def on_paste(message: str, seed: int, said: list[str]) -> str | None:
    """The pet's reply to a message that pastes someone else's words; None when it pastes none."""
    found = relayed.pasted(message)
    if found is None:
        return None
    lead, words = found
    named = _named(lead)
    if (asked := _scam(words)) is not None:
        return (
            f"Careful: {named} asks for {asked}. That's how scams work: no bank, shop or "
            "helpdesk ever needs that from a message. Don't reply or click anything in it; if "
            "you're unsure, call them on a number you already trust."
        )
    for_owner, to_ai = _split(words)
    if to_ai:
        rest = f' The rest says: "{_quoted(for_owner)}"' if for_owner else ""
        return (
            f"There's a line in {named} talking to an AI, not to you. I only take orders from "
            f"you, so I'll ignore it.{rest}"
        )
    sender = _sender(lead)
    shown = f"what {sender} wrote" if sender else named
    if _DAY_OR_TIME.search(words):
        return (
            f'Thanks for showing me {shown}. Want a nudge before then? Say "remind me" and '
            "when, and I will."
        )
    return pick(
        (
            f"Thanks for showing me {shown}. What do you make of it?",
            f"Thanks for showing me {shown}. It stays in our chat as theirs, not as something "
            "you said. How do you feel about it?",
        ),
        seed,
        said,
    )


def on_question(message: str, owner_recent: list[str]) -> str | None:
    """The answer to a question about what the owner pasted just before ("is that a scam?",
    "what should I do?", "summarise that review"); None when the last message pasted nothing
    or this is no such question."""
    if not owner_recent or ("?" not in message and not _WHAT_IT_SAYS.search(message)):
        return None
    found = relayed.pasted(owner_recent[-1])
    if found is None:
        return None
    lead, words = found
    named = _named(lead)
    asked = _scam(words)
    for_owner, to_ai = _split(words)
    if _WHAT_IT_SAYS.search(message):
        said = f'It says: "{_quoted(for_owner)}"' if for_owner else "There's nothing in it for you."
        return f"{said} (The line for an AI I left out.)" if to_ai else said
    if _SCAM_QUESTION.search(message) or _WHAT_TO_DO.search(message):
        if asked is not None:
            return (
                f"It looks like a scam to me: {named} asks for {asked}, and nobody real asks "
                "for that in a message. Don't reply and don't send anything; delete it. If it "
                "says it's your bank or a friend, check with them on a number you already have."
            )
        if to_ai:
            return (
                f"Nothing for you to do about the line for an AI: I ignored it. The rest of "
                f"{named} is yours to answer as you like."
            )
        if _SCAM_QUESTION.search(message):
            return (
                f"Nothing in {named} asks for a code, a password or money, which is what scams "
                "want. If something feels off, check with the sender another way."
            )
        return (
            f"That's your call. If {named} needs an answer or a visit, I can remind you: say "
            '"remind me" and when.'
        )
    return None
