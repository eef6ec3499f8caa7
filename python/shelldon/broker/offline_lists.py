"""A list said with a heading of the owner's own, and an item added to a list later, read by
broker.offline (docs/brain.md, "Seventeenth pass: owners who dictate, list and mix"):

    I need: milk, eggs, bread                       -> shopping list: milk, eggs, bread
    I need to buy milk, eggs and bread              -> shopping list: milk, eggs and bread
    we're out of butter and sugar                   -> shopping list: butter and sugar
    things to pack for the trip: passport, charger  -> packing list: passport, charger
    handla: mjölk, ost                              -> shopping list: mjölk, ost
    my favourite foods are: sushi, and dal          -> my favourite foods are sushi, and dal
    add to my list: call the bank                   -> the list kept, with "call the bank"
    and also coffee   (after the shopping list)     -> the shopping list kept, with "coffee"

`heading` says a list again as the label broker.offline_notes keeps ("The owner's shopping list
is: milk, eggs, bread."); `added` is an item for a list memory shows in full, kept as the list's
words with the new item after them (the same entry, nothing of it lost), or, when memory shows
the list by title only, kept on its own beside it (never the old list's words replaced by the
new item alone). Before the seventeenth pass "I need: milk, eggs, bread" and "add to my list:
call the bank" were "Mm-hm, I'm listening." and "Okay!" with nothing kept, and "what's on my
list?" said the owner's command back ("You said add to your list: call the bank.").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from shelldon.broker.offline_view import Shown
from shelldon.broker.patterns import lazy

_ITEMS = r"\s*:\s*(?P<items>[^:?]{2,200}?)[\s.!]*$"
_HEADINGS = (
    (lazy(r"^(?:(?:i|we) (?:still )?need(?: to (?:buy|get))?|(?:things )?to (?:buy|get)|"
          r"need to (?:buy|get)|shopping|groceries|handla|handle|købe|köpa|indkøb|inköp)"
          + _ITEMS, re.I), "shopping list"),
    (lazy(r"^(?:(?:things|stuff) (?:i need )?to pack|(?:i need )?to pack|(?:i )?need to pack|"
          r"pack)(?: for (?:the|my|our) [\w' -]{2,30}?)?" + _ITEMS, re.I), "packing list"),
    (lazy(r"^(?:(?:things|stuff) (?:i need )?to do|(?:i )?need to do|jobs|chores|tasks)"
          r"(?: today| this week| tomorrow)?" + _ITEMS, re.I), "to-do list"),
)  # fmt: skip
# A shopping need said without a colon (the nineteenth pass: "I need to buy milk, eggs and bread"
# was "Tell me more!"): things to buy, to pick up or run out of, two or more of them ("and", a
# comma), or anything after "out of" ("we're out of milk"); "I need to get a new job" is no list.
_NEEDS = lazy(
    r"^(?:(?:oh|ugh|argh|so|and|also)[\s,]+)*(?:(?:i|we)(?:'ll| will)? (?:still )?(?:need|have|"
    r"gotta|got) to|(?:i|we) need|(?:i|we) must|(?:i'm|i am|we're|we are) (?:going|off) to|"
    r"(?:must|need to|gotta|have to))\s+(?:(?:go|pop out|nip out|run out) (?:and |to )?)?"
    r"(?P<verb>buy|get|grab|pick up|order|stock up on)\s+(?:some\s+)?"
    r"(?P<items>[\w' -]{2,40}?(?:,\s*[\w' -]{2,40}?)*(?:,?\s+and\s+[\w' -]{2,40}?))"
    r"(?: (?:later|today|tonight|tomorrow|on the way home|after work|from the shop))?[\s.!]*$"
    r"|^(?:(?:oh|ugh|argh|so|and|also)[\s,]+)*(?:i'm|i am|we're|we are|we've|we have|i've|"
    r"i have|i|we) (?:run |ran |running )?(?:out of|low on)\s+"
    r"(?P<out>[\w' -]{2,60}?(?:,\s*[\w' -]{2,40}?)*)"
    r"(?: again)?[\s.!]*$",
    re.IGNORECASE,
)
_NOT_GROCERIES = lazy(
    r"\b(?:job|jobs|time|sleep|rest|help|home|up|out|over|better|ready|done|married|engaged|"
    r"ideas?|money|cash|patience|energy|steam|breath|luck|way|chance|life|work|the|my|our|"
    r"it|this|that|here|there|office|town|country|hospital|bed|shape|control|hand|touch|date|"
    r"practice|options|space|battery|data|storage)\b",
    re.IGNORECASE,
)
# "my favourite foods are: …": the colon only stands between the words and their values.
_ARE_COLON = lazy(r"^((?:my|our) [\w' -]{2,40}? (?:are|is|include))\s*:\s*(?=\S)", re.I)
_ADD_TO = lazy(
    r"^(?:(?:please|pls|oh|ok|okay|and)[\s,]+)*(?:add|put)"
    r"(?: (?P<item1>[^:]{2,80}?) (?:to|on) (?:my|the|our) (?P<label1>(?:[\w'-]+ )?list)"
    r"| (?:to|on) (?:my|the|our) (?P<label2>(?:[\w'-]+ )?list)\s*:?\s*(?P<item2>.{2,120}?))"
    r"[\s.!]*$",
    re.IGNORECASE,
)
# "and also coffee", "also kaffe", "oh and bananas too", "plus oat milk": one item, no verb.
_MORE = lazy(
    r"^(?:(?:oh|and|also|plus|oops|wait)[\s,]+)+(?:also[\s,]+)?(?P<item>(?:[\w'’-]+ ?){1,3}?)"
    r"(?:,? (?:too|as well))?[\s.!]*$",
    re.IGNORECASE,
)
_ALSO_HEADED = lazy(r"^(?:(?:oh|and|also|plus)[\s,]+)+(?=[^:]{2,40}:)", re.IGNORECASE)
_VERBISH = lazy(
    r"\b(?:i|i'm|im|you|he|she|we|they|it|is|are|was|were|am|have|has|do|does|did|the|my|your|"
    r"that|this|then|so|yes|no|yeah|not|thanks|ok|okay|lol)\b",
    re.IGNORECASE,
)
_A_LIST = lazy(r"^The owner's (?P<label>(?:[\w'-]+ )?list) (?:is|are): ", re.IGNORECASE)


class Added(NamedTuple):
    """What is kept (collection, name, content) and the pet's reply."""

    keep: tuple[str, str, str]
    reply: str


def heading(line: str) -> str:
    """The line with its own heading said as a list's label (see the module); any other line
    as it was."""
    text = line.strip()
    for pattern, label in _HEADINGS:
        if (found := pattern.match(text)) is not None:
            return f"{label}: {found['items'].strip()}"
    needed = _needed(text)
    if needed is not None:
        return f"shopping list: {needed}"
    return _ARE_COLON.sub(r"\1 ", text)


def _needed(text: str) -> str | None:
    """The things a shopping need names ("milk, eggs and bread"), or None."""
    found = _NEEDS.match(text)
    if found is None or _NOT_GROCERIES.search(found["items"] or found["out"]):
        return None
    return str(found["items"] or found["out"]).strip()


def _listed(entries: Sequence[Shown]) -> Shown | None:
    """The newest list memory shows in full."""
    return next((e for e in reversed(entries) if e.body and _A_LIST.match(e.body.strip())), None)


def _join(body: str, item: str) -> str:
    return f"{body.rstrip().rstrip('.')}, {item}."


def added(line: str, entries: Sequence[Shown], last_said: str = "") -> Added | None:
    """An item added to a list (see the module), or None for any other line. `last_said` is the
    owner's line before: "and also coffee" adds only right after a list, or with one kept."""
    text = " ".join(line.split())
    needed = _needed(text)  # "we're out of butter too", a shopping list kept: added to it
    kept = _listed(entries) if needed is not None else None
    if needed is not None and kept is not None and kept.title.casefold() == "shopping list":
        return Added(
            (kept.collection, kept.title, _join(kept.body, needed)),
            f"Added {needed} to your {kept.title}.",
        )
    also = _ALSO_HEADED.match(text)  # "also to buy: rice, beans": more for the list kept
    if also is not None and ":" in (headed := heading(text[also.end() :])):
        label, items = (part.strip() for part in headed.split(":", 1))
        kept = _listed(entries)
        if kept is not None and kept.title.casefold() == label.casefold():
            return Added(
                (kept.collection, kept.title, _join(kept.body, items)),
                f"Added {items} to your {kept.title}.",
            )
        beside = f"{label} more {items.casefold()}"[:60]
        return Added(
            ("facts", beside, f"The owner's {label} also has: {items}."),
            f"Added {items} to your {label}.",
        )
    found = _ADD_TO.match(text)
    if found is not None:
        item = (found["item1"] or found["item2"] or "").strip().rstrip(".")
        label = (found["label1"] or found["label2"] or "list").casefold()
        label = "list" if label.startswith(("my ", "the ")) else label
    else:
        more = _MORE.match(text)
        after_list = bool(_A_LIST.match(f"The owner's {heading(last_said)}".replace(":", " is:")))
        if more is None or _VERBISH.search(more["item"]) or not after_list:
            return None
        item, label = more["item"].strip(), ""
    kept = _listed(entries)
    if kept is not None and (not label or label == "list" or kept.title.casefold() == label):
        return Added(
            (kept.collection, kept.title, _join(kept.body, item)),
            f"Added {item} to your {kept.title}.",
        )
    said_before = not label  # "and also coffee": the list was the owner's line before
    label = label or heading(last_said).split(":", 1)[0].casefold() or "list"
    if said_before or any(e.title.casefold() == label for e in entries):
        # memory shows the list by title only, or not yet: its words are not here to add to,
        # so the item is kept beside it, never in place of it
        return Added(
            (
                "facts",
                f"{label} more {item.casefold()}"[:60],
                f"The owner's {label} also has: {item}.",
            ),
            f"Added {item} to your {label}.",
        )
    return Added(
        ("facts", label, f"The owner's {label} is: {item}."),
        f"Got it, your {label}: {item}. I'll remember.",
    )


_ASKED = lazy(
    r"^(?:(?:so|ok|okay|and|remind me)[\s,]+)*(?:what (?:do|did) (?:i|we) (?:still )?need to "
    r"(?P<buy>buy|get|pick up)|what(?:'s| is| was) on (?:my|the|our) (?P<label>(?:[\w'-]+ )?list)|"
    r"what(?:'s| is) (?:my|the|our) (?P<label2>(?:[\w'-]+ )?list))[\s?!.]*$",
    re.IGNORECASE,
)


def asked(question: str, entries: Sequence[Shown]) -> str | None:
    """ "what do I need to buy?", "what's on my list?": the list memory shows in full, said back
    whole (an item added later included: the window's line alone missed it); None for any other
    line, or when memory shows no such list."""
    found = _ASKED.match(question.strip())
    if found is None:
        return None
    label = "shopping list" if found["buy"] else (found["label"] or found["label2"]).casefold()
    lists = [e for e in entries if e.body and _A_LIST.match(e.body.strip())]
    kept = next((e for e in reversed(lists) if e.title.casefold() == label), None)
    if kept is None and label == "list":
        kept = lists[-1] if lists else None
    if kept is None:
        return None
    items = _A_LIST.sub("", kept.body.strip()).rstrip(".")
    more = [
        re.sub(r"^The owner's [\w' -]+? also has: ", "", e.body.strip()).rstrip(".")
        for e in entries
        if e.body and e.title.casefold().startswith(f"{kept.title.casefold()} more")
    ]
    return f"On your {kept.title}: {', '.join([items, *more])}."
