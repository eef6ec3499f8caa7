"""The offline brain's dream: deterministic, no network, no model.

It reads the directive core built (the `dream` section) and answers in the reply protocol:
- a learning seen at least twice is promoted: a `remember` into the collection its words point to
  (people, preferences, capabilities, else facts), then `resolve_learning(id, "promoted")`;
- every other learning is pruned;
- `rewrite_summary` gets an extractive summary of the recent conversation: the owner's most
  informative statements, in the order they were said (never a question: "where does my sister
  live?" is not something the owner told it);
- the reply is a one-line note for the owner.
Full collections are left to a real model: the offline brain proposes no merges (it never sees
entry bodies, only their titles).
"""

from __future__ import annotations

import json
import re
from typing import Any

from shelldon.broker.offline_sentences import is_question
from shelldon.broker.offline_words import KIN, OTHERS, alternation, plurals
from shelldon.contracts import relayed
from shelldon.contracts.brain import CompletionRequest
from shelldon.contracts.dream import (
    LEARNINGS_HEADER,
    RECENT_HEADER,
    OfferedLearning,
    parse_learning_line,
)
from shelldon.core.gate import screen_text
from shelldon.core.words import PET_WORDS, STOPWORDS, words

PROMOTE_AT = 2  # seen at least this many times
MAX_SUMMARY_SENTENCES = 5
MAX_SUMMARY_CHARS = 900

_PEOPLE = re.compile(rf"\b(?:{alternation(*plurals(*KIN, *OTHERS))})\b", re.IGNORECASE)
_PREFERENCES = re.compile(
    r"\b(?:prefers?|preferred|likes?|liked|loves?|loved|hates?|dislikes?|enjoys?|favou?rite|"
    r"wants?|rather|fond of|can'?t stand|allergic)\b",
    re.IGNORECASE,
)
_CAPABILITIES = re.compile(
    r"\b(?:can|able to|knows how|speaks|plays|good at|skilled|certified|fluent)\b", re.IGNORECASE
)


def parse_directive(directive: str) -> tuple[list[OfferedLearning], list[tuple[str, str]]]:
    """The learnings offered and the recent conversation [(role, text)] from a dream directive."""
    learnings: list[OfferedLearning] = []
    recent: list[tuple[str, str]] = []
    section = ""
    for line in directive.splitlines():
        if line.startswith("## "):
            section = line.strip()
            continue
        if section == LEARNINGS_HEADER:
            learning = parse_learning_line(line)
            if learning is not None:
                learnings.append(learning)
        elif section == RECENT_HEADER and ": " in line:
            role, _, text = line.partition(": ")
            recent.append((role.strip(), text.strip()))
    return learnings, recent


def collection_for(text: str) -> str:
    if _PEOPLE.search(text):
        return "people"
    if _PREFERENCES.search(text):
        return "preferences"
    if _CAPABILITIES.search(text):
        return "capabilities"
    return "facts"


_UNSAID = STOPWORDS | PET_WORDS


def _words(text: str) -> list[str]:
    """The words that name and summarise a learning: no stop words, none of the pet's nouns."""
    return [w for w in words(text) if w not in _UNSAID]


def _name_for(item: OfferedLearning) -> str:
    if item.key:
        return item.key
    return "-".join(_words(item.text)[:6]) or f"learning-{item.id}"


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def _screen(text: str) -> bool:
    """True when memory may keep the text (the gate's safety screen)."""
    return screen_text(text) is None


def extractive_summary(recent: list[tuple[str, str]]) -> str:
    """The owner's most informative sentences (most distinct content words; earlier wins ties),
    shown in the order they were said. "" when the owner said nothing worth keeping."""
    candidates: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    order = 0
    for role, text in recent:
        if role != "owner" or relayed.origin_of(text) is not None:
            continue  # the pet's words, or someone else's the owner passed on
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            sentence = sentence.strip()
            words = set(_words(sentence))
            norm = " ".join(sorted(words))
            if len(words) < 3 or norm in seen or is_question(sentence) or not _screen(sentence):
                continue
            seen.add(norm)
            candidates.append((len(words), order, sentence))
            order += 1
    best = sorted(candidates, key=lambda c: (-c[0], c[1]))[:MAX_SUMMARY_SENTENCES]
    lines: list[str] = []
    used = 0
    for _, _, sentence in sorted(best, key=lambda c: c[1]):
        line = f"- {_sentence(sentence)}"
        if used + len(line) > MAX_SUMMARY_CHARS:
            break
        used += len(line) + 1
        lines.append(line)
    if not lines:
        return ""
    return "Lately my owner told me:\n" + "\n".join(lines)


def dream_reply(directive: str) -> dict[str, Any]:
    """The reply object ({"reply", "ops"}) for one dream directive."""
    learnings, recent = parse_directive(directive)
    ops: list[dict[str, Any]] = []
    kept = dropped = 0
    for item in learnings:
        if item.seen >= PROMOTE_AT and len(_words(item.text)) >= 2:
            ops.append(
                {
                    "op": "remember",
                    "collection": collection_for(item.text),
                    "name": _name_for(item),
                    "content": _sentence(item.text),
                }
            )
            ops.append({"op": "resolve_learning", "id": item.id, "status": "promoted"})
            kept += 1
        else:
            ops.append({"op": "resolve_learning", "id": item.id, "status": "pruned"})
            dropped += 1
    summary = extractive_summary(recent)
    if summary:
        ops.append({"op": "rewrite_summary", "content": summary})
    note = f"💤 I tidied my thoughts: kept {kept}, let {dropped} go."
    return {"reply": note, "ops": ops}


def dream_request_text(request: CompletionRequest) -> str:
    dream_sections = [s.text for s in request.sections if s.kind == "dream"]
    return "\n\n".join(dream_sections) if dream_sections else request.rendered()


def complete(request: CompletionRequest) -> str:
    """What the offline brain answers for purpose == "dream": the reply protocol's JSON text."""
    return json.dumps(dream_reply(dream_request_text(request)), ensure_ascii=False)


def dream(request: CompletionRequest) -> str:
    """The entry point OfflineBrain calls for purpose == "dream" (same as `complete`)."""
    return complete(request)
