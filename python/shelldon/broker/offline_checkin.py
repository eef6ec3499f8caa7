"""The offline brain's check-ins (purpose "checkin"): one deterministic message from what the
prompt's memory holds: a person first, then a liking, then any fact, else a plain hello."""

from __future__ import annotations

import re

from shelldon.broker.patterns import lazy
from shelldon.contracts.brain import CompletionRequest

_ENTRY_HEAD = lazy(r"^## (?P<title>.*) \[(?P<collection>[a-z]+)(?:,[^\]]*)?\]$")
_PERSON = lazy(r"owner's (?P<rel>[\w ]+?) is called (?P<name>[\w'’-]+)", re.IGNORECASE)
_LIKES = lazy(r"^the owner (?:likes|loves|enjoys|prefers|adores) (?P<what>.+?)\.?$", re.I)


def _memory_entries(request: CompletionRequest) -> list[tuple[str, str]]:
    """(collection, first body line) for each entry the prompt's memory section shows in full."""
    entries: list[tuple[str, str]] = []
    for section in request.sections:
        if section.kind != "memory":
            continue
        collection = ""
        for line in section.text.splitlines():
            head = _ENTRY_HEAD.match(line.strip())
            if head is not None:
                collection = head.group("collection")
                continue
            text = line.strip()
            if collection and text and not text.startswith(("#", "(", "- ", "Also in memory")):
                entries.append((collection, text))
                collection = ""
    return entries


_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}


def _about_you(fact: str) -> str:
    """ "The owner lives in Porto" -> "you live in Porto"; "The owner's …" -> "your …"."""
    if re.match(r"^the owner's\b", fact, re.IGNORECASE):
        return "your" + fact[len("the owner's") :]
    found = re.match(r"^the owner (\w+)\b", fact, re.IGNORECASE)
    if found is None:
        return fact[:1].lower() + fact[1:]
    verb = found.group(1).lower()
    if verb in _IRREGULAR:
        verb = _IRREGULAR[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    return f"you {verb}{fact[found.end() :]}"


def checkin_text(request: CompletionRequest) -> str:
    """A short opener from what memory holds; the same prompt gives the same text."""
    entries = _memory_entries(request)
    for collection, text in entries:
        person = _PERSON.search(text) if collection == "people" else None
        if person is not None:
            rel = person.group("rel").strip().lower()
            return f"Hi! It's been a little while. How is {person.group('name')}, your {rel}?"
    for collection, text in entries:
        likes = _LIKES.match(text) if collection == "preferences" else None
        if likes is not None:
            return (
                f"Hi! It's been a little while. Have you had time for {likes.group('what')} lately?"
            )
    for collection, text in entries:
        if collection == "facts":
            fact = _about_you(text.rstrip("."))
            return (
                "Hi! It's been a little while. I was thinking of what you told me: "
                f"{fact}. How are things?"
            )
    return "Hi! It's been a little while. How are you doing?"
