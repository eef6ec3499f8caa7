"""A correction filed under the entry that holds the old value, read by broker.offline
(docs/brain.md, "Fifteenth pass: what the lead found talking to the real pet").

    my dog Pepper is 4 and very naughty       (kept as facts/dog pepper age)
    actually Pepper is 5, not 4               -> facts/dog pepper age:
                                                 "The owner's dog Pepper is 5 and very naughty."

The fact rules file a correction under the name its own words give ("dog age"), which is the
entry it corrects only when the owner said it the same way both times. Before the fifteenth pass
"actually Pepper is 5, not 4" made a new entry beside the old one, which still said 4, and the
pet said "Okay, updated": memory contradicted itself and the reply was untrue. Now the entry
memory shows with the old value ("not 4") and a word of the correction beside it (its subject,
"Pepper") is the one revised: its own words with the new value in the old one's place (or the
correction's words, when the new value cannot be placed). When an entry says the old value but
none can be told as the one meant, the brain files the correction as before and says no
"updated".
"""

from __future__ import annotations

import re
from typing import Any

from shelldon.broker.offline_view import PromptView, Shown
from shelldon.broker.offline_words import content_words
from shelldon.broker.patterns import lazy

# "…, not 4", "… not Lisbon", "…, not the shipyard": the old value a correction names.
_OLD = lazy(r"\bnot\s+(?:on\s+|in\s+|the\s+|at\s+)?([\w.'’-]+(?:\s+[\w.'’-]+){0,2}?)[\s.!]*$")
_NO_VALUE = frozenset(("sure", "much", "quit", "anymor", "yet", "exactly", "now", "quite"))
_TOKEN = lazy(r"[\w'’.-]*\w")
# "The owner's" and "your" say the same owner: not a difference between two statements.
_OWNER = lazy(r"\b(?:the owner's|your|my)\s+", re.IGNORECASE)
# Words a correction says around its new value ("my", "is", "actually"): never the value itself.
_AROUND = frozenset(
    ("my", "i", "i'm", "im", "is", "are", "was", "were", "actually", "really", "now", "the", "a")
)


def old_value(clause: str) -> str | None:
    """The old value a correction names after its "not" ("4" of "Pepper is 5, not 4")."""
    found = _OLD.search(clause.strip())
    if found is None:
        return None
    old = found.group(1)
    # a value: a number, a name or a word that means something ("not really", "not yet": none)
    if any(c.isdigit() for c in old) or old[:1].isupper():
        return old
    words = set(content_words(old)) - _NO_VALUE
    return old if words else None


def _says(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w'’]){re.escape(value)}(?![\w'’])", text, re.IGNORECASE) is not None


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def holding(view: PromptView, said: str, old: str) -> tuple[list[Shown], Shown | None]:
    """The entries memory shows that say the old value, and among them the one that says it
    beside a word of the correction (its subject: "Pepper" of "Pepper is 5"), newest first."""
    subject = set(content_words(said)) - set(content_words(old))
    saying = [e for e in reversed(view.entries) if e.body and _says(e.body, old)]
    named = next((e for e in saying if subject & set(content_words(f"{e.title} {e.body}"))), None)
    return saying, named


def _new_value(said: str, body: str) -> str | None:
    """The words of the correction the old entry lacks, when they run together ("5" of "Pepper
    is 5" against "The owner's dog Pepper is 4 and very naughty.")."""
    had = {t.casefold() for t in _TOKEN.findall(body)}
    tokens = _TOKEN.findall(said)
    at = [i for i, t in enumerate(tokens) if t.casefold() not in had | _AROUND]
    if not at or at != list(range(at[0], at[-1] + 1)):
        return None
    return " ".join(tokens[at[0] : at[-1] + 1])


def revised_content(entry: Shown, said: str, old: str) -> str | None:
    """The entry's own words with the new value in the old one's place, once."""
    new = _new_value(said, entry.body)
    if new is None or len(re.findall(rf"(?<![\w'’]){re.escape(old)}(?![\w'’])", entry.body)) != 1:
        return None
    return re.sub(
        rf"(?<![\w'’]){re.escape(old)}(?![\w'’])", lambda _: new, entry.body, count=1
    ).strip()


def file_under_old(
    view: PromptView, ops: list[dict[str, Any]], start: int, clause: str, said: str
) -> bool:
    """Each `remember` a correction proposed (ops from `start`) filed under the entry that holds
    the old value, revised in place; whether the correction may be said as an update."""
    old = old_value(clause)
    if old is None:
        return True
    saying, entry = holding(view, said, old)
    filed = {
        (op["collection"], _key(op["name"])) for op in ops[start:] if op.get("op") == "remember"
    }
    if filed & {(e.collection, _key(e.title)) for e in saying}:
        return True  # "I'm 35 not 34": filed under "age" as "34" was, revised by the gate
    if entry is None:
        return not saying  # an entry says 4, but none can be told as the one meant
    content = revised_content(entry, said, old)
    for i in range(start, len(ops)):
        op = ops[i]
        if op.get("op") == "remember":
            ops[i] = {
                **op,
                "collection": entry.collection,
                "name": entry.title,
                "content": content or op["content"],
            }
    return True


def superseded(line: str, said: list[str]) -> bool:
    """Whether a statement is one already said with a single value swapped ("my partner Jules is
    34 and a runner" beside "… is 35 and a runner", kept since; "my mum lives in Galway" beside
    "… in Cork"): the older, said newest first, is not said beside it. A value is a number, or a
    name or place that ends the line ("my sister Anna …" and "my sister Beth …" are two)."""
    words = _TOKEN.findall(_OWNER.sub("", line))
    for other in said:
        theirs = _TOKEN.findall(_OWNER.sub("", other))
        if len(theirs) != len(words):
            continue
        apart = [
            i
            for i, (a, b) in enumerate(zip(words, theirs, strict=True))
            if a.casefold() != b.casefold()
        ]
        if len(apart) != 1:
            continue
        a, b = words[apart[0]], theirs[apart[0]]
        numbers = any(c.isdigit() for c in a) and any(c.isdigit() for c in b)
        if numbers or (apart[0] == len(words) - 1 and a[:1].isupper() and b[:1].isupper()):
            return True
    return False
