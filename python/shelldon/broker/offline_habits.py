"""A change of habit, and the question it answers, read by broker.offline (docs/brain.md,
"Eighteenth pass: a pet that listens"):

    I don't like coffee anymore, I switched to green tea   -> drinks green tea now, not coffee
    I gave up sugar in my tea, I use honey now             -> uses honey now, not sugar in tea
    I stopped watching the news, I listen to podcasts now  -> listens to podcasts now
    I used to cycle to work but now I take the bus         -> takes the bus now
    what do I drink?  what do I put in my tea?  how do I get to work?

Before, the old half alone was kept ("you don't like coffee anymore") and the new thing was lost,
so "what do I drink?" was "I don't know that yet." The change is kept as one entry, the new
habit first in the owner's own verb (the old half's verb when the new half has none: "switched
to green tea" after "drink coffee" drinks it), the old thing after "not"; a later change of the
same verb revises it (facts/"habit drink"). `asked` answers a question about what the owner
drinks, eats, uses, listens to or how they get somewhere from such an entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shelldon.broker.offline_topics import kind_asked, names_kind
from shelldon.broker.offline_words import third_person_verb, to_second_person
from shelldon.broker.patterns import lazy

_I = r"(?:i|i've|i have|i’ve)"
# The old half: what the owner no longer does.
_OLD = lazy(
    r"^(?:(?:so|well|oh|btw|actually)[\s,]+)*"
    r"(?:i (?:don't|do not|dont|never) (?P<verb>\w+)(?: (?P<obj>.+?))? (?:any ?more|these days)"
    rf"|{_I} (?:gave up|given up|quit|stopped|cut out|ditched|dropped) "
    r"(?:(?P<ing>\w+ing) )?(?P<obj2>.+?)"
    r"|i (?:used to|would) (?P<verb3>\w+) (?P<obj3>.+?)"
    r"|i no longer (?P<verb4>\w+) (?P<obj4>.+?))$",
    re.IGNORECASE,
)
# The new half: what the owner does now.
_NEW = lazy(
    r"^(?:(?:but|and|so|now)[\s,]+)*(?:now[\s,]+)?(?:"
    rf"(?:{_I} )?(?:switched|swapped|moved|changed|gone over|went over) (?:over )?to (?P<to>.+?)"
    r"|i(?:'m| am) (?:on|into) (?P<on>.+?)(?= now| these days| instead|$)"
    r"|i (?:only |mostly |just |always )?(?P<verb>(?!don't|do not|dont|used|never)\w+)"
    r"(?:(?P<prep> to| with)? (?P<obj>(?!(?:now|instead|these days|nowadays)\b).+?))?)"
    r"(?: now| these days| instead| nowadays)*[\s.!]*$",
    re.IGNORECASE,
)
_SWITCHED = lazy(
    r"^(?:(?:so|oh|btw|well)[\s,]+)*(?:i(?:'ve| have)? )?(?:now |just |recently )?(?:"
    r"(?:switched|swapped|moved|changed|gone over) (?:over )?to (?P<to>.+?)"
    r"|(?P<verb>(?!(?:am|was|used|now|just|recently|also)\b)\w+)"
    r"(?P<prep> to| with)? (?P<obj>.+?)(?= instead of))"
    r"(?: instead of (?P<old>.+?))?(?: now| these days| nowadays)*[\s.!]*$",
    re.IGNORECASE,
)
_PAST = frozenset(
    ("went", "had", "did", "made", "took", "got", "ate", "drank", "saw", "bought", "came", "ran",
     "swam", "rode", "wore", "left", "met", "read", "sent", "spent", "chose", "picked", "gave")
)  # fmt: skip
_SPLIT = lazy(r"\s*(?:[,;]|\band\b|\bbut\b|\bso\b)\s*(?=(?:now\s+)?(?:i\b|i'|now\b|but\b))", re.I)
_NOW = lazy(r"\b(?:now|instead|these days|nowadays|switched|swapped)\b", re.IGNORECASE)
_GERUND = {"watching": "watch", "drinking": "drink", "eating": "eat", "using": "use",
           "taking": "take", "smoking": "smoke", "playing": "play", "reading": "read",
           "listening": "listen", "cycling": "cycle", "driving": "drive",
           "running": "run"}  # fmt: skip
# What a verb is asked by: "what do I drink?" finds "drinks"; "get to work" finds a way there.
_ASKED = lazy(
    r"^(?:so |and )?(?:what|which \w+) (?:do|did) i (?:usually |normally |even )?"
    r"(?P<verb>\w+)(?P<prep> to| with| in| on)?(?P<rest>[^?]*?)"
    r"(?: these days| now| nowadays| again)?\s*\??$"
    r"|^how do i (?P<how>get to \w+|commute|travel)\b"
    r"|^what (?P<kind>sports?|exercise|activity|hobby) (?:do|did) i (?:do|play)\b",
    re.IGNORECASE,
)
_PRONOUN = lazy(r"^(?:it|them|that|those|this|these|him|her)\b", re.IGNORECASE)
# A present with rules of its own (a home, a liking, a job), or no habit at all ("I feel better
# now", "I get up at 6 now", "I eat whatever now").
_OWN_RULES = frozenset(
    ("live", "love", "like", "hate", "work", "am", "be", "enjoy", "prefer", "feel", "get", "got",
     "have", "can", "sleep", "think", "know", "want", "need", "miss")
)  # fmt: skip
_NO_THING = lazy(r"\b(?:whatever|anything|everything|nothing|something|better|worse)\b", re.I)
_SPORTS = ("swim", "run", "cycle", "climb", "row", "dance", "walk", "hike", "play", "do", "box",
           "lift", "skate", "surf", "ski")  # fmt: skip
_WAYS = ("take", "cycle", "drive", "walk", "ride", "catch", "get")


def _ing(verb: str) -> str:
    """ "cycling" for "cycle", "running" for "run", "taking" for "take"."""
    low = verb.casefold()
    if low.endswith("ie"):
        return low[:-2] + "ying"
    if low.endswith("e") and not low.endswith("ee"):
        return low[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", low):
        return low + low[-1] + "ing"
    return low + "ing"


_A_SPORT = lazy(
    r"\b(?:football|soccer|tennis|golf|rugby|cricket|squash|badminton|padel|netball|hockey|"
    r"basketball|volleyball|table tennis|pickleball|yoga|pilates|boxing|judo|karate)\b",
    re.IGNORECASE,
)


def _name(verb: str, thing: str = "") -> str:
    """The entry's name: a sport is a "habit sport" (so "what sport do I do?" finds it in memory
    by its words), a way to work "habit commute", else the verb ("habit drink")."""
    if (verb in _SPORTS and verb not in ("walk", "do", "play")) or _A_SPORT.search(thing):
        return f"habit sport {verb}"
    if verb in _WAYS:
        return f"habit commute {verb}"
    return f"habit {verb}"


@dataclass(frozen=True)
class Habit:
    reply: str
    keep: tuple[str, str, str]  # collection, name, content


def _my(text: str) -> str:
    return re.sub(r"\bmy\b", "your", text.strip(" .!"), flags=re.IGNORECASE)


def _one_clause(text: str) -> Habit | None:
    """ "I switched to oat milk", "I now cycle to work instead of driving": the change in one
    clause, the old thing after "instead of" if said."""
    found = _SWITCHED.match(text)
    if found is None:
        return None
    thing = (found["to"] or found["obj"] or "").strip(" .!")
    if not thing or len(thing.split()) > 6 or _PRONOUN.match(thing) or _NO_THING.search(thing):
        return None
    verb = (found["verb"] or "").casefold()
    if verb and not re.match(r"^(?:(?:so|oh|btw|well)[\s,]+)*i\b", text, re.IGNORECASE):
        return None  # "we went to Rome instead of Paris": the owner's own habit only
    if verb in _OWN_RULES or verb.endswith("ed") or verb in _PAST:
        return None  # "I went to the park instead of the gym": once, no habit
    old = f", instead of {_my(found['old'])}" if found["old"] else ""
    said_verb = f"{third_person_verb(verb)}{found['prep'] or ''}" if verb else "has switched to"
    content = re.sub(r"\byour\b", "the owner's", f"The owner {said_verb} {_my(thing)} now{old}.")
    now = f"you {verb}{found['prep'] or ''} {_my(thing)}" if verb else f"it's {_my(thing)}"
    reply = f"Oh, so {now} now{old}! Good to know, I'll remember."
    return Habit(
        reply, ("facts", _name(verb, thing) if verb else f"habit {_my(thing).split()[-1]}", content)
    )


def change(sentence: str) -> Habit | None:
    """A change of habit said in one line (see the module); None for any other line."""
    text = sentence.strip()
    if not _NOW.search(text):
        return None
    parts = _SPLIT.split(text, maxsplit=1)
    if len(parts) != 2:
        return _one_clause(text)
    old, new = _OLD.match(parts[0].strip()), _NEW.match(parts[1].strip())
    if old is None or new is None:
        return None
    old_verb = (
        old["verb"]
        or old["verb3"]
        or old["verb4"]
        or _GERUND.get((old["ing"] or "").casefold(), "")
    )
    old_obj = (old["obj"] or old["obj2"] or old["obj3"] or old["obj4"] or "").strip()
    old_obj = re.sub(r"^on ", "", old_obj)  # "gave up on the diet"
    if old["ing"] and old["ing"].casefold() not in _GERUND:  # "stopped going to the gym"
        old_obj = f"{old['ing'].casefold()} {old_obj}"
    if old["verb"] and old["verb"].casefold() in ("like", "love", "want", "need"):
        old_verb = "drink" if new["to"] or new["on"] else old_verb  # "don't like coffee anymore"
    thing = (new["to"] or new["on"] or new["obj"] or "").strip(" .!")
    if not thing and new["verb"]:  # "now I swim instead": the activity itself
        thing = _ing(new["verb"])
    if not thing or len(thing.split()) > 6 or _PRONOUN.match(thing) or _NO_THING.search(thing):
        return None  # "I used to hate olives, now I love them": the past and the present apart
    if (new["verb"] or "").casefold() in _OWN_RULES:
        return None  # "… now I live in York": a home, a liking or a job has rules of its own
    verb = (new["verb"] or "").casefold()
    prep = new["prep"] or ""
    if not verb:
        verb = (
            old_verb.casefold() if old_verb and old_verb.casefold() not in ("like", "love") else ""
        )
    said_verb = f"{third_person_verb(verb)}{prep}" if verb else "has switched to"
    if not new["obj"] and new["verb"]:
        said_verb, thing = third_person_verb(verb), ""
    was = f", not {_my(old_obj)}" if old_obj and (old["obj2"] or old["obj"]) else ""
    if old["verb3"] or old["verb4"]:
        was = f", instead of {_ing(old_verb)} {_my(old_obj)}"
    content = " ".join(f"The owner {said_verb} {_my(thing)}".split()) + f" now{was}."
    content = re.sub(r"\byour\b", "the owner's", content)
    instead = f", not {_my(old_obj)}" if was.startswith(", not") else ""
    doing = _my(thing) or _ing(verb)
    reply = f"Oh, so it's {doing} now{instead}! Good to know, I'll remember."
    return Habit(reply, ("facts", _name(verb, thing) if verb else "habit switch", content))


def asked(question: str, known: list[str]) -> str | None:
    """What a kept change of habit says to "what do I drink?", "what do I put in my tea?", "how
    do I get to work?"; None when no kept habit answers it."""
    found = _ASKED.match(question.strip())
    if found is None:
        return None
    habits = [k for k in known if re.search(r"\bnow\b", k) and k.startswith("The owner ")]
    if found["kind"]:  # "what sport do I do?": an activity kept as a habit
        verbs: tuple[str, ...] = _SPORTS
        topic = ""
    elif found["how"]:
        verbs = _WAYS
        topic = found["how"].split()[-1].casefold()
    else:
        verbs = (found["verb"].casefold(),)
        topic = (found["rest"] or "").casefold()
    kind = kind_asked(question)
    answers: list[str] = []
    for text in reversed(habits):
        low = text.casefold()
        switched = low.startswith("the owner has switched to") and names_kind(text, kind or "do")
        by_verb = any(re.search(rf"^the owner {third_person_verb(v)}\b", low) for v in verbs)
        last = topic.split()[-1] if topic.split() else ""
        by_topic = bool(last and found["verb"] and re.search(rf"\b{re.escape(last)}\b", low))
        if (kind and switched) or by_verb or by_topic:
            answers.append(to_second_person(text).rstrip("."))
        if answers and not found["kind"]:
            break  # one habit answers "what do I drink?"; every sport "what sport do I do?"
    if not answers:
        return None
    said = answers[0] if len(answers) == 1 else ", and ".join(answers)
    return said[:1].upper() + said[1:] + "."


_PLAIN_ASKED = lazy(
    r"^(?P<head>what (?:do|did) i (?:usually |normally )?)(?P<verb>drink|eat|listen to|read|watch)"
    r"(?: these days| now| nowadays| usually)?\s*\??$",
    re.IGNORECASE,
)


def as_liking(question: str, known: list[str]) -> str:
    """ "what do I drink?" with no change of habit kept, asked as "what do I like to drink?", so
    a liking kept ("I love green tea") answers it; any other line as it is."""
    found = _PLAIN_ASKED.match(question.strip())
    if found is None or asked(question, known) is not None:
        return question
    return f"what do I like to {found['verb'].casefold()}?"
