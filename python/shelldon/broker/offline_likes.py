"""A liking said without "I like", or one that changed, read by broker.offline (docs/brain.md,
"The audit pass: chat as owners type it"):

- "not a fan of sushi", "I'm not into football", "not really keen on jazz": kept as the owner
  said it ("The owner is not a fan of sushi."), under the thing;
- "I used to love coffee": kept as said, under the thing;
- "I don't really like jazz anymore": `liked` names its entry by the thing ("jazz", not "jazz
  anymore"), so a changed liking is the same entry, which the gate revises, never a second one
  beside the old ("do I like jazz?" said "Yes" from the old one before);
- `LIKING`: what makes such a statement answer "do I like …?".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_view import Shown
from shelldon.broker.offline_words import content_words, to_third_person
from shelldon.broker.patterns import lazy

_NOT_FAN = lazy(
    r"^(?:i(?:'m|’m| am) )?(?:just |really )?(not (?:really |that |so |too |very |a )?"
    r"(?:a (?:big |huge )?fan of|(?:big |huge )?fan of|into|keen on|big on|fussed about) (.+))$",
    re.IGNORECASE,
)
_USED_TO = lazy(r"^i used to (?:really )?(?:like|love|enjoy|adore) (.+)$", re.IGNORECASE)
# What a liking says of when, not of what: "jazz anymore" is jazz.
_WHEN_LIKED = lazy(
    r"(?:\s+(?:anymore|any more|these days|nowadays|now|either|at all|(?:very |so )?much|"
    r"a lot|lately|any longer|no more))+$",
    re.IGNORECASE,
)
# A liking said in slang (the eleventh pass: "im obsessed w taylor swift rn" was "Ooh! How was
# it?"): read as "I love …", which the fact rules keep under the thing.
_SLANG_LOVE = lazy(
    r"^(?:i(?:'m|’m| am)|im) (?:(?:so|totally|literally|kinda|lowkey|really) )*(?:obsessed "
    r"(?:with|w/?)|(?:really |so )?into|(?:a )?(?:huge|big|massive) fan of|hooked on|"
    r"addicted to) (?!(?:it|this|that|them|him|her|you|u|me)\b)(?P<what>[^,.!?]{2,40})$|"
    r"^i stan (?P<stan>[^,.!?]{2,40})$",
    re.IGNORECASE,
)
# Said of a liking without "like": "is not a fan of sushi", "is not into football", "favourite
# band is Radiohead" (it answers "what music do I like?").
LIKING = lazy(
    r"\b(?:fan of|into|keen on|used to (?:like|love|enjoy|adore)|favou?rite|fave)\b", re.IGNORECASE
)


def _clean(text: str) -> str:
    return text.strip().rstrip(".!?,;").strip()


def liked(thing: str) -> str:
    """The thing a liking is about, which names its entry ("jazz anymore" -> "jazz")."""
    return _WHEN_LIKED.sub("", _clean(thing)) or thing


def liking(sentence: str) -> tuple[str, str] | None:
    """(the thing, the fact in the owner's words) for "not a fan of X" or "I used to love X";
    None for any other sentence."""
    s = _clean(sentence)
    found = _NOT_FAN.match(s)
    if found:
        return liked(found.group(2)), f"The owner is {_clean(found.group(1))}."
    found = _USED_TO.match(s)
    if found:
        return liked(found.group(1)), to_third_person(s)
    return None


def slang_love(sentence: str) -> str:
    """ "im obsessed w taylor swift" -> "I love taylor swift"; any other sentence as it was."""
    found = _SLANG_LOVE.match(_clean(sentence))
    return f"I love {found['what'] or found['stan']}" if found else sentence


_CHANGED = lazy(r"\b(?:not|n't|no longer|anymore|any more|hates|can't stand)\b", re.IGNORECASE)


def beside(collection: str, name: str, content: str, entries: Sequence[Shown]) -> tuple[str, str]:
    """Where a person's liking is kept when memory already keeps one under the same name ("wife
    ingrid likes": "loves orchids and jazz", then "she's into italian food"): the entry's words
    with the new ones after them when memory shows it in full, else an entry of its own named by
    the new thing, never the old liking replaced by the new (the seventeenth pass: the orchids
    were lost). The name and content to keep; as given when no such entry is shown."""
    shown = next(
        (e for e in entries if e.collection == collection and e.title.casefold() == name), None
    )
    if shown is None:
        return name, content
    if _CHANGED.search(content) and set(content_words(content)) & set(
        content_words(shown.body or shown.title)
    ):
        return name, content  # "she doesn't like jazz anymore": the same entry, revised
    if shown.body:
        old = shown.body.strip()
        if content.casefold().rstrip(".") in old.casefold():
            return name, old  # said again: nothing new, nothing lost
        if old.casefold().rstrip(".") in content.casefold():
            return name, content  # said again with more: the more
        return name, f"{old.rstrip('.')}. {content}"
    thing = " ".join(content_words(content)[-2:])
    return f"{name} {thing}".strip(), content
