"""What the owner told the pet, told back, read by broker.offline (docs/brain.md, "Tenth pass: a
pet, not a form-filler").

    what did I say about my sister?        -> every statement about her: "You told me your sister
                                              is called Lucia, she's a dentist."
    what have I told you about Ken?        -> "my brother Ken just got engaged" too, not his
                                              name alone
    what did I just tell you?              -> the owner's last statement in the window
    did I tell you about my cat?           -> "Yes! …" with what was said, or "I'm not sure
                                              you've told me about your cat. Tell me?"

Before the tenth pass the question went to the best single statement (the name alone: "I
remember that your sister is called Lucia.", never the dentist), or "I don't know that yet"
for "what did I just tell you?" a line after it was said. Only what the prompt holds is said
back (memory, about, the recent window, recall, with what the owner asked to forget already
taken out by offline_view): nothing is invented, and with nothing held the pet says so. A
question proposes no op.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_cased import said_back
from shelldon.broker.offline_chat import plain
from shelldon.broker.offline_milestones import number
from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_view import Known, PromptView
from shelldon.broker.offline_words import content_words, lower_first, to_second_person
from shelldon.broker.patterns import lazy

_TOLD = r"(?:tell|told|say|said|mention|mentioned|write|wrote|share|shared)"
_ABOUT = r"(?:about|of|regarding|re)"
_END = r"(?:[\s,]+(?:again|before|earlier|yesterday|so far|then|lol|shelldon))*[\s?!.]*$"
_ASKED = lazy(
    r"^(?:(?:so|and|um|hmm|ok|okay|wait|remind me)[\s,]+)*(?:what|which things?) "
    rf"(?:did|have|had|do) i (?:just |already |ever )?{_TOLD}(?: to)?(?: you)?"
    rf"(?: {_ABOUT} (?P<what>[^?!.]+?))?" + _END,
    re.IGNORECASE,
)
_DID_I = lazy(
    rf"^(?:(?:so|and|um|hmm|wait)[\s,]+)*(?:did|have) i (?:ever |already )?{_TOLD}(?: to)?"
    rf"(?: you)? {_ABOUT} (?P<what>[^?!.]+?)" + _END,
    re.IGNORECASE,
)
# "what do you know about Ingrid?", "what do you remember about my wife?": all of them, not the
# name alone (the seventeenth pass: "Your wife is called Ingrid." with her likings kept).
_KNOW = lazy(
    r"^(?:(?:so|and|um|hmm|ok|okay)[\s,]+)*(?:what (?:else )?do you (?:know|remember)|"
    r"tell me (?:what|everything) you know) (?:about|of) (?P<what>(?:my|our) [a-z]+|"
    r"(?-i:[A-Z][\w'’-]+))" + _END,
    re.IGNORECASE,
)
_JUST = lazy(r"\bjust\b", re.IGNORECASE)
_MY = lazy(r"^(?:my|our|the)\s+", re.IGNORECASE)
_MINE = lazy(r"^(?:my|our)\s+", re.IGNORECASE)
# "what did you say?", "come again?": the pet's own last words, said again
_YOU_SAID = lazy(
    r"^(?:(?:sorry|wait|huh|um)[\s,]+)*(?:what did you (?:just )?say|what was that|come again|"
    r"say (?:that|it) again|pardon)[\s?!.]*$",
    re.IGNORECASE,
)
_OPENINGS = ("You told me {x}.", "You said {x}.", "Here's what you told me: {x}.")
# Only the prompt's rows and memory are read: an older line may be out of sight, so never "you
# didn't tell me".
_NOTHING = (
    "I don't have anything about {what} in mind. What should I know?",
    "I'm not sure you've told me about {what}. Tell me?",
)
_MOST = 3  # statements said back at most: a recount, not a reading of the whole memory
# The owner as a whole: what was told about them is everything the pet keeps.
_SELF = frozenset({"me", "myself", "my life", "me and my life"})


def recount(view: PromptView, sentence: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The owner's own statements about what they ask of, said back; None for any other line."""
    text = sentence.strip()
    if (known := _KNOW.match(text)) is not None:
        return _all_of(view, known["what"], seed, avoid)
    asked = _ASKED.match(text)
    did = _DID_I.match(text) if asked is None else None
    if asked is None and did is None:
        return None
    what = ((asked or did).group("what") or "").strip()  # type: ignore[union-attr]
    if what.casefold() in _SELF:
        return None  # "what have I told you about myself?": everything (asks_all)
    if not what:
        if asked is None or not _JUST.search(text):
            return None  # "what did I tell you?": the list of what it keeps (asks_all)
        last = [k for k in view.known if k.source == "recent"]
        if not last:
            return "I don't have anything you just told me in mind. What's on your mind?"
        newest = max(k.order for k in last)
        return _said(
            [k for k in last if k.order == newest], seed, avoid, opening="You just told me {x}."
        )
    words = [w for w in content_words(_MY.sub("", what)) if w not in ("anything", "thing")]
    found = [k for k in view.known if words and set(words) <= set(content_words(k.text))]
    whose = to_second_person(_MINE.sub("my ", what)).rstrip(".") if _MINE.match(what) else what
    if not found:
        return pick(_NOTHING, seed, avoid).format(what=whose)
    said = _said(found, seed, avoid)
    return f"Yes! {said}" if did is not None else said


def _all_of(view: PromptView, what: str, seed: int, avoid: Sequence[str]) -> str | None:
    """Every statement naming someone, when there is more than one (else None: the best single
    statement answers, as ever)."""
    words = content_words(_MY.sub("", what))
    found = [k for k in view.known if words and set(words) <= set(content_words(k.text))]
    return _said(found, seed, avoid) if len(found) > 1 else None


def _said(found: list[Known], seed: int, avoid: Sequence[str], opening: str = "") -> str:
    """The statements in the second person, oldest first, one said once: a statement whose words
    another one holds is left out ("your sister is called Lucia" beside "your sister is called
    Lucia, she's a dentist")."""
    texts = [
        lower_first(to_second_person(said_back(plain(k.text.strip())))).rstrip(".!")
        for k in sorted(found, key=lambda k: k.order)
    ]
    unique: list[str] = []
    for text in texts:
        words = _comparable(text)
        if any(words <= _comparable(other) for other in unique):
            continue
        unique = [u for u in unique if not _comparable(u) <= words]
        unique.append(text)
    parts = unique[-_MOST:]
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]
    return (opening or pick(_OPENINGS, seed, avoid)).format(x=joined)


# A day said relative to when it was said: the kept entry says it as a date (the eighteenth pass:
# "your daughter Zoe turns nine next month" beside "… turns 9 in January 2027" was said twice).
_RELATIVE = frozenset(("next", "this", "month", "week", "soon", "later", "year"))


def _comparable(text: str) -> set[str]:
    """A statement's content words, an age in figures ("nine" is "9"), no relative day words."""
    return {
        str(n) if (n := number(w)) is not None else w
        for w in (*content_words(text), *re.findall(r"\b\d{1,3}\b", text))
        if w not in _RELATIVE
    }


def asks_all(sentence: str) -> bool:
    """ "what did I tell you?", "what have I told you so far?", "did I tell you about myself?":
    everything, the same list as "what do you know about me?" (broker.offline's `_about_me`)."""
    text = sentence.strip()
    asked = _ASKED.match(text) or _DID_I.match(text)
    if asked is None:
        return False
    what = (asked.group("what") or "").strip().casefold()
    return what in _SELF or (not what and not _JUST.search(sentence))


def said_again(sentence: str, pet_last: str) -> str | None:
    """ "what did you say?": the pet's last words in the window, said again; None for any other
    line, or when the window holds none."""
    if not pet_last or _YOU_SAID.match(sentence.strip()) is None:
        return None
    return f"I said: {pet_last}"
