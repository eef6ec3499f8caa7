"""Questions about the owner that shared words answer badly, answered from what the prompt holds:

- the owner's work ("what's my job?", "what do I do for a living?": "living" is not "live"), age
  ("how old am I?"), where they are from ("where am I from?": every word of it is a stop
  word), pets ("what pets do I have?": "pet" is the pet's own word) and family ("who's in my
  family?"): every statement that names one, newest kept first;
- "what should I eat / watch / read / listen to / drink / do tonight?": a suggestion from a
  stored preference ("How about sushi? Your favourite food is sushi."), never a dislike; with none
  known, the pet asks for one (what it is told next is remembered).

`answer` is None for any other question: broker.offline's shared-word matching answers those.
Small word lists only (the broker's memory budget): a preference counts for "eat" when it names
food in words ("favourite food", "Thai food", "I love eating …") or one of a few dishes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from shelldon.broker import offline_meals, offline_visits
from shelldon.broker.offline_kin import of_family, passing, several, several_asked
from shelldon.broker.offline_past import PAST, PAST_QUESTION
from shelldon.broker.offline_revise import superseded
from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_whose import someone_elses
from shelldon.broker.offline_words import (
    ANIMALS,
    KIN,
    KIN_GROUPS,
    WEEKDAYS,
    alternation,
    lower_first,
    plurals,
    to_second_person,
)
from shelldon.broker.patterns import lazy
from shelldon.contracts.kinds import KIND_INSTANCES, KIND_NAMES

if TYPE_CHECKING:
    from shelldon.broker.offline_view import Known, PromptView

_KEPT = ("memory", "about", "summary", "directive")
# Topics only a statement about the owner answers (a partner's job, a son's age are theirs).
_THE_OWNERS_OWN = frozenset(("work", "age", "plans"))
_ANIMALS = alternation(*plurals(*ANIMALS))
_FAMILY = alternation(*plurals(*KIN), *KIN_GROUPS)
_TOPIC_QUESTIONS = (
    (
        "work",
        lazy(
            r"\b(?:my (?:job|work|occupation|profession|career)|do i do for (?:work|a living)|"
            r"where do i work|what(?:'s| is) my line of work)\b|^what do i do\s*\??$",
            re.IGNORECASE,
        ),
    ),
    ("age", lazy(r"\b(?:how old am i|my age|what age am i)\b", re.IGNORECASE)),
    (
        "baby",
        lazy(
            r"\b(?:baby|babies|twins)\b.*\b(?:due|coming|born|arriving|expected)\b|"
            r"\bdue date\b|\bwhen am i due\b|\bam i expecting\b",
            re.IGNORECASE,
        ),
    ),
    (
        "hobbies",
        lazy(
            r"\b(?:my (?:hobbies|hobby|interests|pastimes)|what do i (?:like|love|enjoy) doing|"
            r"what do i do for fun|what am i into)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "plans",  # not kept (a plan is the owner's to be reminded of): the window and recall
        lazy(
            r"\b(?:my plans?|do i have (?:any )?plans|where am i (?:going|off to|headed)|"
            r"what am i (?:doing|up to)(?: (?:today|tonight|tomorrow|later|this weekend|"
            r"next \w+|on \w+))?\s*\??$)"
            # "what's on thursday?", "anything on friday?", "what's happening on saturday?"
            rf"|^(?:what(?:'s| is)|anything|is there anything|what have i got|what do i have)"
            rf"(?: happening| planned| on)? (?:on |for )?(?:{'|'.join(WEEKDAYS)})\s*\??$",
            re.IGNORECASE,
        ),
    ),
    (
        "origin",
        lazy(
            r"\b(?:where am i (?:originally )?from|where do i (?:come|hail) from|where was i born|"
            r"where did i grow up|my hometown|my home town)\b",
            re.IGNORECASE,
        ),
    ),
    ("pets", lazy(r"\b(?:pets?|animals?)\b", re.IGNORECASE)),
    (
        "family",
        lazy(r"\b(?:family|siblings?|relatives|my folks|family members)\b", re.IGNORECASE),
    ),
)
_STATES = {
    "work": lazy(
        r"\b(?:work|works|working|worked|job|occupation|profession|career|employed|retired|"
        r"unemployed|self-employed|student|teach|teaches|taught|for a living|runs an?|owns an?|"
        r"manages an?)\b"
        # a trade by its verb (offline_intro's "I test software for a bank")
        r"|\b(?:tests|writes|builds|codes|develops|designs|fixes|repairs|drives|delivers|cleans|"
        r"programs|translates|audits|inspects|installs|sells|plasters|tiles|wires|plumbs) "
        r"(?:[\w-]+ ){1,3}(?:for|at) "
        r"(?:a|an|the)\b",
        re.IGNORECASE,
    ),
    "age": lazy(r"\b\d{1,3} years old\b|\bage is\b|\bturned \d{1,3}\b", re.IGNORECASE),
    # Only the owner's own: "my sister is from Spain" does not say where the owner is from.
    "origin": lazy(
        r"^(?:the owner|i)(?:'m|’m| is| am) (?:originally )?from\b|"
        r"^(?:the owner|i) (?:was born|grew up) in\b|^(?:the owner's|my) home ?town is\b",
        re.IGNORECASE,
    ),
    "baby": lazy(r"\b(?:expecting|pregnant|due)\b", re.IGNORECASE),
    # A liking of something done: "I love hiking and photography", "the owner enjoys chess".
    "hobbies": lazy(
        r"^(?:the owner|i)(?: really)? (?:loves?|likes?|enjoys?|adores?|is into|am into|'m into)\b"
        r"(?!.*\bthe owner's\b).*\b(?:\w{3,}ing|photography|music|art|football|tennis|chess|yoga|"
        r"pilates|golf|rugby|cricket|basketball|crafts?|gardening|books|films|movies|anime|"
        r"video games|games|puzzles|sport|sports)\b",
        re.IGNORECASE,
    ),
    "plans": lazy(
        r"^(?:i|we)(?:'m|’m| am|'re|’re| are)? (?:going|off|heading|flying|driving|travell?ing|"
        r"visiting|seeing|meeting|starting|moving|having|getting)\b.*\b(?:today|tonight|"
        r"tomorrow|later|soon|weekend|next \w+|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
        r"in (?:a|two|three|\d+) (?:days?|weeks?|months?))\b",
        re.IGNORECASE,
    ),
    "pets": lazy(rf"\b(?:{_ANIMALS})\b", re.IGNORECASE),
    "family": lazy(rf"\b(?:{_FAMILY})\b", re.IGNORECASE),
}
_NOTHING_YET = {
    "work": "I don't know what you do for work yet. What's your job?",
    "age": "You haven't told me your age yet. How old are you?",
    "plans": "You haven't told me about any plans yet. What's coming up?",
    "hobbies": "You haven't told me what you do for fun yet. What do you love doing?",
    "baby": "You haven't told me about a baby on the way. Is there news?",
    "origin": "You haven't told me where you're from yet. Where's home for you?",
    "pets": "You haven't told me about any pets yet. Do you have one?",
    "family": "You haven't told me about your family yet. Who's in it?",
}
_SUGGEST = lazy(
    r"^(?:so\s+|hmm+\s+|any ideas?,?\s+)?(?:what|which \w+|what kind of \w+)\s+"
    r"(?:should|could|shall|can|do you think|would you suggest)\s+(?:i|we)\s+"
    r"(eat|cook|bake|have for (?:dinner|lunch|breakfast)|make for (?:dinner|lunch)|order|watch|"
    r"read|listen to|play|drink|do)\b"
    r"|^(?:any ideas|ideas) (?:for|about) (dinner|lunch|breakfast|tonight|the weekend)\b"
    r"|^(?:(?:can|could|would|will) you (?:please )?)?(?:suggest|recommend)(?: me)? "
    r"(?:something|anything|a \w+|some \w+)(?: \w+)? to (eat|cook|watch|read|drink|do)\b"
    r"|^what (?:do|would) you (?:recommend|suggest) (?:for|to) "
    r"(dinner|lunch|breakfast|eat|watch|read|drink|do)\b"
    r"|^what (?:to|should i) (eat|watch|read|do)\b"
    # "any dinner ideas?", "can you suggest dinner?", "suggest something for lunch"
    r"|^(?:any |got any )?(dinner|lunch|breakfast|food|meal) (?:ideas|suggestions|inspo)\b"
    r"|^(?:(?:can|could|would|will) you (?:please )?)?(?:suggest|recommend)(?: me)? "
    r"(?:a |some |something for )?(dinner|lunch|breakfast|food|a meal)\b"
    # "whats for dinner tonight": asked of the pet, a suggestion (it was "no internet")
    r"|^(?:so\s+)?(?:what's|whats|what is|what’s) for (dinner|lunch|breakfast|tea)\b",
    re.IGNORECASE,
)
_KINDS = {
    "have": "food",  # "have for dinner"
    "make": "food",  # "make for lunch"
    "food": "food",
    "meal": "food",
    "eat": "food",
    "cook": "food",
    "bake": "food",
    "order": "food",
    "dinner": "food",
    "lunch": "food",
    "breakfast": "food",
    "watch": "watch",
    "read": "read",
    "listen": "listen",
    "play": "do",
    "drink": "drink",
    "do": "do",
    "tonight": "do",
    "the weekend": "do",
}
_KIND_WORDS = {
    kind: "|".join(re.escape(w) for w in (*KIND_NAMES[kind], *KIND_INSTANCES[kind]))
    for kind in KIND_NAMES
} | {"do": r"hobby|hobbies|sports?|games?|activit(?:y|ies)|\w+ing"}
_KIND_PATTERNS = {kind: lazy(rf"\b(?:{w})\b", re.IGNORECASE) for kind, w in _KIND_WORDS.items()}
# The words that ask for a kind, each to its kind ("drink" -> drink, "band" -> listen).
_KIND_ASKED = {word: kind for kind, words in KIND_NAMES.items() for word in words}


def kind_asked(question: str) -> str | None:
    """The kind a question about the owner's likings asks for ("what do I like to drink?":
    drink), or None."""
    for word in re.findall(r"[a-z]+", question.casefold()):
        if word in _KIND_ASKED:
            return _KIND_ASKED[word]
    return None


def names_kind(text: str, kind: str) -> bool:
    """Does `text` name the kind or one of its words ("loves jasmine tea": drink)?"""
    return bool(_KIND_PATTERNS[kind].search(text))


_VERB_OF = {
    "food": ("eat", "food"),
    "watch": ("watch", "film or show"),
    "read": ("read", "book"),
    "listen": ("listen to", "music"),
    "drink": ("drink", "drink"),
    "do": ("do", "thing to do"),
}
_PREFERENCE = lazy(
    r"\b(?:like|likes|love|loves|enjoy|enjoys|adore|adores|prefer|prefers|favou?rite|fave|"
    r"into|fan of)\b",
    re.IGNORECASE,
)
_DISLIKE = lazy(
    r"\b(?:not|never|no longer|hate|hates|dislike|dislikes|can't stand|cannot stand)\b|n't\b",
    re.IGNORECASE,
)
_FAVOURITE_IS = lazy(r"\bfavou?rite ([\w -]+?) is (.+?)\.?$", re.IGNORECASE)
_LIKES_WHAT = lazy(
    r"\b(?:likes?|loves?|enjoys?|adores?|prefers?|is into|(?:is )?a fan of)\s+(?:eating\s+|"
    r"watching\s+|reading\s+|listening to\s+|drinking\s+|playing\s+)?(.+?)\.?$",
    re.IGNORECASE,
)
_COMPARED = lazy(r"\s+(?:over|rather than|instead of|more than)\s+(?=\S)", re.IGNORECASE)
_SUGGESTIONS = (
    "How about {item}? {Said}",
    "Maybe {item} tonight? {Said}",
    "What about {item}? {Said}",
)


def answer(view: PromptView, question: str, seed: int) -> str | None:
    """The answer to a topic question or a "what should I …?", or None for any other question."""
    q = question.strip()
    found = _SUGGEST.search(q)
    if found:
        verb = next(g for g in found.groups() if g).casefold().split()[0]
        if verb == "bake":  # "what should I bake?": from the owner's diet, or their likings
            baked = offline_meals.idea([k.text for k in view.known], seed, baking=True)
            return baked or _suggest(view, "food", seed)
        return _suggest(view, _KINDS.get(verb, "do"), seed)
    rel = several_asked(q)  # "what do you know about my brothers?": Olu and Tunde both
    if rel is not None:
        return _several(view, rel)
    for topic, pattern in _TOPIC_QUESTIONS:
        if pattern.search(q):
            said = [k.text for k in _newest_first(view)] if topic == "plans" else []
            if said and (on_day := offline_visits.on_day(q, said)) is not None:
                return on_day  # "what am I doing on Thursday?": what was said of Thursday
            return _about(view, topic, now_asked=not PAST_QUESTION.search(q))
    return None


def _several(view: PromptView, rel: str) -> str | None:
    """Every statement that names one of the owner's `rel`, oldest first, an older one put right
    since left out; None when none does (the question is answered as any other)."""
    said: list[str] = []
    for text in reversed(several(rel, [k.text for k in _newest_first(view)])):
        line = to_second_person(text)
        line = line[:1].upper() + line[1:]
        named = " is called " in text  # "… is called Anna", "… is called Beth": two sisters
        if (named or not superseded(text, said)) and line.casefold() not in map(str.casefold, said):
            said.append(line)
    return " ".join(reversed(said)) or None


def _newest_first(view: PromptView) -> list[Known]:
    """Kept statements (memory, about) before the window's, newest first within each."""
    return sorted(view.known, key=lambda k: (k.source in _KEPT, k.order), reverse=True)


def _about(view: PromptView, topic: str, *, now_asked: bool = False) -> str:
    """What the owner said of the topic; asked about now ("what's my job?"), the past ("I
    previously worked at a bank") is said only as the past, when nothing else is known."""
    said: list[str] = []
    earlier: list[str] = []
    for known in _newest_first(view):
        if not _STATES[topic].search(known.text) or (topic == "work" and _noun_use(known.text)):
            continue
        if topic in _THE_OWNERS_OWN and someone_elses(known.text):
            continue  # "where do I work?" is not "my partner Tom … works late"
        if topic == "family" and (not of_family(known.text) or passing(known.text)):
            continue  # a teacher's "the kids were loud today" is no one of hers
        if superseded(known.text, said):
            continue  # "my partner Jules is 34" after "… is 35" was kept: put right since
        if now_asked and PAST.search(known.text):
            earlier.append(to_second_person(known.text))
            continue
        line = to_second_person(known.text)
        line = line[:1].upper() + line[1:]
        if line.casefold() not in (s.casefold() for s in said):
            said.append(line)
        if topic in ("work", "age", "origin") or len(said) == 3:
            break
    if not said and earlier:
        return f"I don't know about now. What I know is from before: {lower_first(earlier[0])}"
    if not said:
        titles = [e.title for e in view.entries if _STATES[topic].search(e.title)]
        if titles and topic in ("pets", "family"):
            named = " and ".join(f"your {t}" for t in titles[:3])
            return f"I know about {named}, but not much more yet. Tell me about them?"
        return _NOTHING_YET[topic]
    return " ".join(said)


def _noun_use(text: str) -> bool:
    """ "after work", "walk to work": the word names a place or time, not the owner's work."""
    return bool(
        re.search(r"\b(?:after|before|from|to|at|off) (?:work|my job)\b", text, re.IGNORECASE)
    ) and not re.search(r"\bworks? (?:as|at|for|in)\b|\bjob is\b", text, re.IGNORECASE)


def _suggest(view: PromptView, kind: str, seed: int) -> str:
    words = _KIND_PATTERNS[kind]
    for known in _newest_first(view):
        text = known.text
        if not _PREFERENCE.search(text) or _DISLIKE.search(text):
            continue
        item = _item(text, kind)
        if item is None or not (words.search(text) or kind == "do"):
            continue
        favourite = _FAVOURITE_IS.search(text)
        if favourite:
            said = f"It's your favourite {favourite.group(1).strip().casefold()}."
        else:
            said = to_second_person(text)
        return pick(_SUGGESTIONS, seed).format(
            item=item, Item=item[:1].upper() + item[1:], Said=said[:1].upper() + said[1:]
        )
    dish = _dish(view) if kind == "food" else None
    if dish is not None:  # "i love lasagne": a thing loved, named as nothing else, may be food
        item, said = dish
        return f"How about {item}? {said[:1].upper() + said[1:]}"
    meal = offline_meals.idea([k.text for k in view.known], seed) if kind == "food" else None
    if meal is not None:  # "I'm a vegetarian": what fits it (the nineteenth pass)
        return meal
    verb, noun = _VERB_OF[kind]
    if kind == "do":
        return "I don't know what you enjoy doing yet. What do you like to do for fun?"
    return f"I don't know what you like to {verb} yet. What's your favourite {noun}?"


def _item(text: str, kind: str) -> str | None:
    """What a preference names: "sushi" from "the owner's favourite food is sushi"."""
    found = _FAVOURITE_IS.search(text)
    if found:
        return lower_first(found.group(2).strip())
    found = _LIKES_WHAT.search(text)
    if found:
        item = re.sub(r"^(?:the|a|an)\s+", "", found.group(1).strip())
        item = _COMPARED.split(item, maxsplit=1)[0]  # "tea over coffee": tea is what is liked
        return lower_first(item) if item else None
    return None


# What a loved thing may not be, for a dinner: another kind's word, someone, a place, a doing.
_NOT_A_DISH = lazy(
    rf"\b(?:{'|'.join(w for k, w in _KIND_WORDS.items() if k != 'food')}|my|your|our|his|her|"
    r"their|you|him|them|it|this|that|when|how|being|to|owner)\b|\w's\b|[A-Z]|\d",
)


def _dish(view: PromptView) -> tuple[str, str] | None:
    """(item, what was said) for the newest "I love X" whose X is one or two plain words and no
    other kind's ("lasagne", not "my dog", "Taylor Swift", "reading"); None when there is none.
    The eleventh pass: "i love lasagne" was not a food for "what should I make for dinner?"."""
    for known in _newest_first(view):
        if not _PREFERENCE.search(known.text) or _DISLIKE.search(known.text):
            continue
        item = _item(known.text, "food")
        if item and len(item.split()) <= 2 and not _NOT_A_DISH.search(item):
            return item, to_second_person(known.text)
    return None
