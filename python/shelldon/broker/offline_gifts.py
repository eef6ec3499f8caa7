"""An idea asked for someone, read by broker.offline (docs/brain.md, "Thirteenth pass"):

    any idea what I should get him?          (him: Tom, the partner who is a chef)
    what could I get Cass for her birthday?  (Cass loves climbing)
    any gift ideas for my dad?               (nothing kept of him)
    what should I do for Femi's party?

Offline the pet cannot shop or look anything up, but it can think with the owner: from what it
keeps of the person ("You told me your partner Tom is a chef: …") with an idea that goes with it,
or, knowing nothing of them, by asking what they are into. Never "I don't know that yet. Tell me
and I'll remember." (before the thirteenth pass), and nothing is kept. "Him", "her", "them" are
the person last named (broker.offline_referent).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker import offline_gender
from shelldon.broker.offline_referent import Someone, last_fitting
from shelldon.broker.offline_sentences import after_subject
from shelldon.broker.offline_words import (
    KIN,
    OTHERS,
    alternation,
    content_words,
    to_second_person,
)
from shelldon.broker.patterns import lazy

_WHO = (
    rf"(?P<who>him|her|them|(?:my|our) (?:best |little |big |older |younger )?"
    rf"(?:{alternation(*KIN, *OTHERS)})|(?-i:[A-Z][\w-]*))"
)
_ASKED = lazy(
    r"^(?:(?:so|ok|okay|hmm+|also|and|btw)[\s,]+)*"
    r"(?:(?:got |have you got |do you have )?any (?:ideas?|suggestions?|thoughts)"
    r"(?: on| about| for)?"
    r"(?: what| how)? (?:i |to )?(?:should |could |can |might )?|"
    r"what (?:should|could|can|do|might) i |what to |ideas? (?:on )?what to )"
    r"(?P<verb>get|buy|give|send|make|cook|plan|do)\b(?: for)? " + _WHO + r"(?P<rest>.*?)\??$",
    re.IGNORECASE,
)
_GIFT_IDEAS = lazy(
    r"^(?:(?:so|ok|okay|hmm+|also|and|btw)[\s,]+)*(?:any |got any )?(?:gift|present|birthday)"
    r" (?:ideas?|suggestions?) for " + _WHO + r"(?P<rest>.*?)\??$",
    re.IGNORECASE,
)
_WORK = lazy(r"(?:\bis|['’]s) an? |\bworks? (?:as|at|in|for)\b|\bjob\b", re.IGNORECASE)
_NOT_ABOUT = lazy(r"\bbirthday\b|\bturns\b", re.IGNORECASE)
# A name given and nothing more: "The owner's brother is called Ash."
_ONLY_NAMED = lazy(r"^[^,;]*\b(?:is called|name is|is) [A-Z][\w-]*[.!]?$")
# What a kept line says the person is into, and a thought that goes with it.
_GOES_WITH = (
    (r"\b(?:chef|cook|cooking|baking|baker|food)\b",
     "something for the kitchen they'd never buy themselves, a good knife or a cookbook, or a "
     "meal cooked for them for once"),
    (r"\bclimb", "a new chalk bag, or a day at a wall they haven't tried"),
    (r"\bgarden", "a plant they've had their eye on, or really good gloves"),
    (r"\b(?:orchids?|flowers?|roses?|tulips?|plants?)\b",
     "a plant or a bunch of the flowers they love, a rare one if you can find it"),
    (r"\b(?:music|guitar|piano|cello|violin|drums|sing|band|gigs?|concerts?|jazz|opera|vinyl|"
     r"records?)\b",
     "tickets to a gig, or something for their instrument"),
    (r"\b(?:read|reading|books?|novels?)\b", "a book by someone they already love"),
    (r"\b(?:football|rugby|cricket|tennis|golf|cycling|running|swim\w*)\b",
     "tickets to a match, or kit for it"),
    (r"\b(?:coffee|tea|wine|beer|whisky|gin)\b", "a really good bag or bottle of their favourite"),
    (r"\b(?:dogs?|cats?|horses?)\b", "a treat for their animal as much as for them"),
    (r"\b(?:games?|gaming)\b", "a game they've been meaning to play"),
)  # fmt: skip


def _two_told(facts: Sequence[str]) -> list[str]:
    """Up to two things known of someone, in the second person, oldest first, one said once
    ("loves orchids and jazz", then "is into italian food": the seventeenth pass said the newest
    alone, and the orchids were not thought of)."""
    said: list[str] = []
    for known_fact in reversed(facts):
        told = to_second_person(known_fact).rstrip(".")
        words = set(content_words(told))
        if any(words <= set(content_words(other)) for other in said):
            continue
        said = [o for o in said if not set(content_words(o)) <= words]
        said.insert(0, told)
        if len(said) == 2:
            break
    return said


def idea(
    question: str, before: Sequence[str], known: Sequence[str], farther: Sequence[Someone] = ()
) -> str | None:
    """The pet's thought on a gift or a plan for someone (see the module); None for any other
    line."""
    found = _ASKED.match(question.strip()) or _GIFT_IDEAS.match(question.strip())
    if found is None:
        return None
    who_said = found["who"]
    rest = (found["rest"] or "").casefold()
    verb = found.groupdict().get("verb") or "get"
    pronoun = {"him": "he", "her": "she", "them": "they"}.get(who_said.casefold())
    name, rel = "", ""
    if pronoun is not None:
        someone = last_fitting(list(before), pronoun, farther)
        if someone is None:
            return None
        name, rel = someone.name, (someone.rel or "").casefold()
    elif re.match(r"^(?:my|our) ", who_said, re.IGNORECASE):
        rel = re.sub(r"^(?:my|our) ", "", who_said, flags=re.IGNORECASE).casefold()
    else:
        name = who_said
        named_before = any(re.search(rf"\b{re.escape(name)}\b", k) for k in known)
        if not named_before and not re.search(r"birthday|party|present|gift", rest):
            return None  # "what do I get for Christmas?": no one
    name = re.sub(r"['’]s$", "", name)
    facts = [
        k
        for k in known
        if not _NOT_ABOUT.search(k)
        and not k.rstrip().endswith("?")
        and not _ONLY_NAMED.match(k.strip())
        and (
            (name and re.search(rf"\b{re.escape(name)}\b", k, re.IGNORECASE))
            or (rel and re.search(rf"\b(?:owner's|my|our) {re.escape(rel)}\b", k, re.IGNORECASE))
        )
    ]
    call = name or f"your {rel}"
    if name and not rel:  # "Zoe": the relation a kept line gives her says she (the 18th pass)
        rel = offline_gender.relation(name, known)
    they = pronoun or offline_gender.pronoun(rel, rest)
    party = "party" in rest or verb.casefold() in ("plan", "do")
    if facts:
        said = _two_told(facts)
        fact = said[0] if len(said) == 1 else f"{said[0]}, and {after_subject(said[0], said[1])}"
        thought = next(
            (
                t
                for one in said  # the oldest thing known first: what they were known for
                for pattern, t in _GOES_WITH
                if re.search(pattern, one, re.IGNORECASE)
            ),
            "a proper treat that has nothing to do with work, for a day off"
            if _WORK.search(fact)
            else "something that goes with that, or time together doing it",
        )
        if party:
            return (
                f"You told me {fact[:1].lower() + fact[1:]}. A party built around that could be "
                f"fun. What is {call} most into right now?"
            )
        asked = offline_gender.said_of(f"Maybe {thought}? What else are they into?", they)
        return f"You told me {fact[:1].lower() + fact[1:]}. {asked}"
    if party:
        return (
            f"I can't look ideas up from here, but let's think: what is {call} into at the "
            "moment? A party built around that is half the fun."
        )
    return f"I can't shop from here, but I can help you think. What is {call} into lately? " + (
        offline_gender.said_of(
            "Something they'd never buy themselves, or a day out together, often lands well.", they
        )
    )
