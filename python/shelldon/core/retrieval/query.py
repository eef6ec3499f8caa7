"""The words a turn's entries are ranked by (core.retrieval.rank): the turn's own, stemmed, and
additions for questions that share no word with the entries that answer them (docs/memory.md,
"Retrieval for the prompt"): "owner" for a question about the owner as a whole, "owner" and
"name" for one about who the owner is, and a kind's everyday words for a question about what
the owner likes of that kind.
"""

from __future__ import annotations

import re

from shelldon.contracts.kinds import KIND_INSTANCES, KIND_NAMES, LIKING_WORDS
from shelldon.core.words import tokens

# "what do you know about me", "tell me about myself", and the questions that ask for everything
# kept ("what did I tell you?", "what do you remember?"): the owner, whom entries call "the owner".
_ABOUT_THE_OWNER = re.compile(
    r"\b(?:about|abt|bout|abour) (?:me|myself)\b"  # "wat do u know abt me": typed short
    r"|^\W*(?:so,? )?what (?:did|have) i (?:just )?(?:tell|told|say|said)(?: to)? you"
    r"(?: so far)?\W*$"
    r"|^\W*(?:so,? )?what do you (?:know|remember)(?: so far)?\W*$"
    r"|\bwhat(?:'s|’s| is) in your (?:memory|shell|head)\b",
    re.IGNORECASE,
)
# "who am I?", "do you remember me?", "do you know who I am?", "have we met?": who the owner is,
# which the entry that names them answers ("The owner's name is Priya.", titled "owner's name").
# No word of the question is in it, so past the recent window the name was listed by title only
# and the pet answered "you haven't told me your name" with the name kept.
_WHO_THE_OWNER_IS = re.compile(
    r"^\W*(?:(?:so|and|but|hey|hi|hello),?\s+)*(?:who am i|who i am"
    r"|(?:do|did|can|will) you (?:still |even )?(?:remember|recogni[sz]e|know) (?:me|who i am)"
    r"|(?:you )?remember me|(?:do )?you know me|have we (?:ever )?met(?: before)?)"
    r"(?:[\s,]+(?:then|now|at all|still|even|too|lol|haha|shelldon|buddy))*\W*$",
    re.IGNORECASE,
)


# "where did I used to work?", "what was my old job?": the work of before, kept under "former
# job" ("The owner is a retired welder."); past the recent window no word of the question but
# "work" was in it, and the owner's own line came back instead (the sixteenth pass).
_WORK_BEFORE = re.compile(
    r"\b(?:what|where) did i (?:use|used) to (?:do|work|be)\b"
    r"|\bmy (?:old|last|former|previous|first) (?:job|work|career|line of work)\b"
    r"|\bwhat (?:was i|did i do|did i work as) before\b|\bbefore i retired\b"
    r"|\bwhat did i retire from\b",
    re.IGNORECASE,
)

# "what do I need to buy?", "what's on my list?": the list kept ("shopping list", "list"); and
# "any idea what I could get her?": what people like ("wife ingrid likes"). No word of either
# question was in the entry, and the owner's own line came back instead (the seventeenth pass).
_LIST_ASKED = re.compile(
    r"\bwhat do (?:i|we) (?:still )?need to (?:buy|get|pick up)\b"
    r"|\bon (?:my|the|our) [\w ]{0,12}list\b|\bshopping\b",
    re.IGNORECASE,
)
# "what's for dinner?", "what should I bake?": the owner's diet and the dishes their people make
# (the nineteenth pass: "I'm a vegetarian" shares no word with "any ideas for dinner?").
_MEAL_ASKED = re.compile(
    r"\b(?:what(?:'s| is) for|ideas? for|(?:dinner|lunch|meal|food) ideas|what (?:should|could|"
    r"shall) (?:i|we) (?:eat|cook|bake|make|have))\b",
    re.IGNORECASE,
)
_GIFT_ASKED = re.compile(
    r"\b(?:what|ideas?) (?:\w+ ){0,3}(?:get|buy|give) (?:her|him|them|my \w+|(?-i:[A-Z])\w+)\b"
    r"|\b(?:gift|present)s?\b",
    re.IGNORECASE,
)


def query_tokens(query: str) -> list[str]:
    """The words a turn is ranked by ("owner" added when it asks about the owner as a whole, and
    a kind's words when it asks what the owner likes of that kind: `_kind_words`)."""
    words = tokens(query)
    if _ABOUT_THE_OWNER.search(query) and "owner" not in words:
        words.append("owner")
    if _WHO_THE_OWNER_IS.search(query):
        words.extend(w for w in ("owner", "name") if w not in words)
    if _WORK_BEFORE.search(query):
        words.extend(w for w in tokens("former job work") if w not in words)
    if _LIST_ASKED.search(query):
        words.extend(w for w in tokens("shopping list") if w not in words)
    if _MEAL_ASKED.search(query):
        words.extend(w for w in tokens("diet eat makes cooks bakes") if w not in words)
    if _GIFT_ASKED.search(query):
        words.extend(w for w in tokens("likes loves into") if w not in words)
    words.extend(w for w in _kind_words(words) if w not in words)
    return words


_KIND_TERMS: tuple[frozenset[str], dict[str, list[str]]] | None = None


def _kind_words(words: list[str]) -> list[str]:
    """For "what do I like to drink?", the drink words ("tea", "coffee", …: contracts.kinds): the
    owner's "loves jasmine tea" shares none of the question's, nor "favourite band" any of "what
    music do I like?". Only in a question about liking,
    so "I'm cooking dinner for Ana" is not ranked by every dish."""
    global _KIND_TERMS
    if _KIND_TERMS is None:  # stemmed once per process, on the first question that needs it
        liking = frozenset(w for word in LIKING_WORDS for w in tokens(word))
        named = {
            w: tokens(" ".join((*names, *KIND_INSTANCES[kind])))
            for kind, names in KIND_NAMES.items()
            for word in names
            for w in tokens(word)
        }
        _KIND_TERMS = (liking, named)
    liking, named = _KIND_TERMS
    if not liking.intersection(words):
        return []
    return [term for w in words for term in named.get(w, ())]
