"""What the offline brain reads in a prompt: the owner's message, the statements the prompt holds
(memory entries, about, summary, the owner's own words in the recent window and recall), the
entries memory shows (full or by title: what a `forget` may name) and the pet's last words.

A statement is read as the fact it states, never as the command around it: "remember that my
bike is green" is "my bike is green", "that's wrong, my car is blue" is "my car is blue". An
owner's "forget …" is no statement at all: it hides what it names from the rows before it, so a
forgotten fact is not said back from the recent window (core deleted the entry itself).
A title line ("- work [facts]") is an entry the pet knows of, not a statement: it says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from shelldon.broker.offline_orders import ordered
from shelldon.broker.offline_sentences import forget_request, is_question
from shelldon.broker.offline_words import (
    ANIMALS,
    KIN,
    OTHERS,
    alternation,
    content_words,
)
from shelldon.broker.patterns import lazy
from shelldon.contracts import relayed
from shelldon.contracts.brain import CompletionRequest

_BULLET = lazy(r"^(?:[-*•]\s+|\d+[.)]\s+)")
_ROW = lazy(r"^(owner|pet)(?: \([^)]*\))?: (.*)$")
_ENTRY_HEAD = lazy(r"^## (.*) \[([^\]]*)\]$")
_TITLE_LINE = lazy(r"^- (.*?) \[([^\]]*)\]$")
# What only frames a fact the owner asked the pet to keep ("remember that …", "note: …").
REMEMBER = lazy(
    r"^(?:(?:ok|okay|oh|and|also|hey|pls|please)[,\s]+)*"
    r"(?:remember|don't forget|do not forget|note|keep in mind|make a note|bear in mind)"
    r"(?:\s+that)?[:,]?\s+(.+)$",
    re.IGNORECASE,
)
# What only opens a correction ("that's wrong, my car is blue"): broker.offline_talk.correction
# reads the same openers when the owner says it.
_CORRECTED = lazy(
    r"^(?:(?:no+|nope|actually|sorry|oops|wait|correction|i mean|i meant|that's wrong|"
    r"that is wrong|that's not right|that's not true|not quite|wrong)[\s,:!.-]+)+",
    re.IGNORECASE,
)


def as_stated(sentence: str) -> str:
    """The fact a sentence states, without the command or correction around it."""
    text = sentence.strip()
    for _ in range(2):  # "remember: actually my …", "actually, remember that …"
        text = _CORRECTED.sub("", text).strip()
        found = REMEMBER.match(text)
        if found:
            text = found.group(1).strip()
    if (order := ordered(text)) is not None:  # "I hate coriander, never suggest it"
        text = order.fact  # the order was to the pet: the dislike is the owner's
    return text[:1].upper() + text[1:] if sentence[:1].isupper() else text


@dataclass(frozen=True)
class Known:
    """A statement the prompt holds, where it came from, and how recent it is (higher = newer)."""

    text: str
    source: str
    order: int


@dataclass(frozen=True)
class Shown:
    """A memory entry the prompt shows: in full (with its body) or by title only."""

    title: str
    collection: str
    provenance: str = ""
    body: str = ""


@dataclass
class PromptView:
    message: str = ""
    known: list[Known] = field(default_factory=list)
    owner_said: list[str] = field(default_factory=list)  # earlier owner rows, for repeats
    # The pet's last row and the owner's rows in the recent window, in order (did it just ask the
    # owner's name? who is "she"?); recall's rows, older and printed after the window, are not.
    pet_last: str = ""
    pet_recent: list[str] = field(default_factory=list)
    owner_recent: list[str] = field(default_factory=list)
    pet_said: list[str] = field(default_factory=list)  # its rows in the window: not said again
    history_rows: int = 0  # rows in the recent window and recall: 0 on the first turn ever
    entries: list[Shown] = field(default_factory=list)

    @classmethod
    def of(cls, request: CompletionRequest) -> PromptView:
        view = cls()
        order = 0
        forgotten: list[tuple[int, list[str]]] = []  # (order, words) of each "forget …" row
        for section in request.sections:
            body = section.text.split("\n", 1)[1] if "\n" in section.text else ""
            if section.kind == "message":
                view.message = body.strip()
            elif section.kind in ("recent", "recall"):
                for line in body.splitlines():
                    row = _ROW.match(line.strip())
                    if row and row.group(1) == "pet":
                        if section.kind == "recent":
                            view.pet_last = row.group(2)
                            view.pet_recent.append(row.group(2))
                        view.pet_said.append(row.group(2))
                        view.history_rows += 1
                    if row and row.group(1) == "owner":
                        view.history_rows += 1
                        if relayed.origin_of(row.group(2)) is not None:
                            continue  # someone else's words the owner passed on: not theirs
                        if relayed.pasted(row.group(2)) is not None:
                            if section.kind == "recent":  # asked about next ("is it a scam?")
                                view.owner_recent.append(row.group(2))
                            continue  # words pasted after "my cousin texted me:": not theirs
                        order += 1
                        view.owner_said.append(row.group(2))
                        if section.kind == "recent":
                            view.owner_recent.append(row.group(2))
                        for s in sentences(row.group(2)):
                            subject = forget_request(s)
                            if subject is not None:
                                forgotten.append((order, content_words(subject)))
                            elif not is_question(s) and (stated := as_stated(s)):
                                view.known.append(Known(stated, section.kind, order))
            elif section.kind == "memory":
                order = view._read_memory(body, order)
            elif section.kind in ("about", "summary", "directive"):
                for line in body.splitlines():
                    line = line.strip()
                    if not line or line.startswith(("#", "(", "Also in memory", "[")):
                        continue
                    line = re.sub(r"^- (.*?) \[[^\]]*\]$", r"\1", line)  # a title line
                    line = _BULLET.sub("", line)
                    if line.casefold().startswith("pet:"):
                        continue  # the pet's own words are not evidence
                    line = re.sub(r"^owner:\s*", "", line, flags=re.IGNORECASE)
                    if line.endswith(":"):
                        continue  # a heading ("Lately my owner told me:"), not a statement
                    order += 1
                    view._add(line, section.kind, order)
        for when, words in forgotten:
            view.known = [
                k
                for k in view.known
                if k.source not in ("recent", "recall")
                or (k.order > when and k.source == "recent")
                or not set(words) <= set(content_words(k.text))
            ]
        return view

    def _add(self, line: str, source: str, order: int) -> None:
        # A question is never evidence, even in a summary an older dream wrote.
        self.known.extend(
            Known(as_stated(s), source, order) for s in sentences(line) if not is_question(s)
        )

    def _read_memory(self, body: str, order: int) -> int:
        """Entries in full ("## title [collection, provenance]" and their body) and by title."""
        entry: Shown | None = None
        lines: list[str] = []

        def close() -> None:
            if entry is not None:
                self.entries.append(
                    Shown(entry.title, entry.collection, entry.provenance, " ".join(lines))
                )

        for line in body.splitlines():
            line = line.strip()
            head = _ENTRY_HEAD.match(line) or _TITLE_LINE.match(line)
            if head:
                close()
                flags = [f.strip() for f in head.group(2).split(",")]
                provenance = flags[1] if line.startswith("## ") and len(flags) > 1 else ""
                entry, lines = Shown(head.group(1), flags[0], provenance), []
                continue
            if not line or line.startswith(("#", "(", "Also in memory", "In memory", "[")):
                continue
            line = _BULLET.sub("", line)
            if line.casefold().startswith("pet:"):
                continue
            lines.append(line)
            order += 1
            self._add(line, "memory", order)
        close()
        return order


def sentences(text: str) -> Iterator[str]:
    for part in re.split(r"(?<=[.!?])\s+|\n+", text):
        part = part.strip()
        if part:
            yield part


_UPDATE_WORDS = frozenset(("used", "anymore", "now", "actually", "like", "love", "hate", "not"))


def told_before(view: PromptView, clause: str) -> bool:
    """Whether memory or the window says something of what an update names ("34" of "I'm 35 not
    34", "running" of "I don't like running anymore"): the brain says "updated" only then."""
    words = set(content_words(clause)) - _UPDATE_WORDS
    return any(words & set(content_words(k.text)) for k in view.known)


# A name as the owner or memory wrote it mid-sentence ("my daughter is called Sofia").
_MID_NAME = lazy(r"(?<=[\w,:] )[A-Z][a-z][\w'’-]*")


def known_names(view: PromptView) -> frozenset[str]:
    """The names the prompt holds for people the owner spoke of: a capitalised word that does
    not start its sentence, in memory or in the owner's own rows."""
    return frozenset(n for k in view.known for n in _MID_NAME.findall(k.text))


_NAMED = lazy(r"[A-Z][\w-]*")
# "The owner's husband is called Karim." and "The owner's brother Lars lives in Bergen.": a name
# kept beside who the person is to the owner.
_CALLED_BY_RELATION = lazy(
    rf"\bowner's ((?:[\w]+ )?(?:{alternation(*OTHERS, *KIN, *ANIMALS, 'pet')}))"
    r"(?: is called)? ([A-Z][\w-]*)"
)
# A word of a question typed in lower case ("what does karim do"), matched to a known name.
_WORD = lazy(r"[^\W\d_][\w-]*")


def names_a_known_person(view: PromptView, question: str) -> bool:
    """ "When is Jo's birthday?": a person the owner spoke of, so the answer is theirs to tell."""
    return bool(set(_NAMED.findall(question)) & known_names(view))


def relations(view: PromptView) -> dict[str, str]:
    """Each name the prompt keeps beside who the person is to the owner ("karim": "husband")."""
    return {
        m.group(2).casefold(): m.group(1)
        for k in view.known
        if (m := _CALLED_BY_RELATION.search(k.text))
    }


def by_relation(view: PromptView, question: str) -> str | None:
    """The question with a person's name said as who they are to the owner ("when is Jo's
    birthday?" -> "when is my wife's birthday?"), for a fact kept by relation; None when it
    names no one kept so."""
    known = relations(view)
    # "where does Olu live?" with two brothers kept: asked by the name, which tells them apart
    known = {w: rel for w, rel in known.items() if list(known.values()).count(rel) == 1}
    asked = _WORD.sub(
        lambda m: f"my {known[w]}" if (w := m.group(0).casefold()) in known else m.group(0),
        question,
    )
    return asked if asked != question else None
