"""Where the owner lives and what they do, said together, read by broker.offline's statements
(docs/brain.md, "Thirteenth pass"): two facts, each kept in its own entry.

    I just moved to Leeds for a new job at the hospital  -> moved to Leeds | work at the hospital
    we moved to Cardiff in january                       -> I live in Cardiff (the month dropped)
    just started as a site manager                       -> I work as a site manager
    I'm a radiographer (beside "a new job")              -> work, not a passing trait

`parts` splits a clause that says a move and the job it was for; `started` reads a job begun
("just started at the council as a planner") as the work it is; `is_work` says whether "a …" after
"I'm" names a job the occupation list lacks: a word made as jobs are ("radiographer",
"cellist", "physician"), or any "-er"/"-or" word when the message speaks of work or a shift, or
"part-time", "trainee" and the like before it. "I'm a big eater", "I'm a night owl", "I'm an
optimist" stay who the owner is (a learning, not a job). Before the thirteenth pass the home
was kept as "lives in Leeds for a new job at the hospital" and the radiographer was answered
"good to know" but not kept where "what do you know about me?" finds it.
"""

from __future__ import annotations

import re
from typing import Any

from shelldon.broker.offline_words import KIN
from shelldon.broker.patterns import lazy

_FOR_A_JOB = lazy(
    r"^(?P<move>(?:i|we)(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)"
    r"\s+(?:to|into)\s+.+?)\s+(?:for|to start)\s+(?:a |my |the )?(?:new )?"
    r"(?:job|work|role|position|post)(?:\s+(?P<prep>at|with|in|for)\s+(?P<where>.+))?$",
    re.IGNORECASE,
)
_WE_LIVE = lazy(r"^[Ww]e (?=(?:just |recently |now )?(?:live|moved) (?:in|to)\b)")
_STARTED = lazy(
    r"^(?:i(?:'ve| have)?\s+)?(?:just\s+|recently\s+)?(?:started|began)"
    r"(?:\s+(?:a new job|a job|work|working|my new job))?\s+(?P<rest>(?:as|at|with)\s+.+)$",
    re.IGNORECASE,
)
_JOB_MADE = lazy(
    r"(?:grapher|ologist|ician|apist|ist|ian|eer|smith|wright|monger|keeper|worker|"
    r"assistant|attendant|technician|officer|operator|inspector|surveyor|advisor|adviser)$",
    re.IGNORECASE,
)
_ER = lazy(r"(?:er|or)$", re.IGNORECASE)
_AT_WORK = lazy(
    r"\b(?:job|work|works|working|shift|shifts|hospital|office|clinic|career|trained|"
    r"qualified|employer|company|firm|ward)\b",
    re.IGNORECASE,
)
_WORK_MODIFIER = lazy(
    r"^(?:part[- ]time|full[- ]time|trainee|junior|senior|head|chief|lead|freelance|"
    r"self-employed|qualified|student|apprentice|assistant|locum|staff|newly qualified)\b",
    re.IGNORECASE,
)
# Who the owner is, never a job: "an optimist", "a vegetarian", "a big eater".
_NOT_A_JOB = frozenset(
    re.findall(
        r"\S+",
        "optimist pessimist realist idealist perfectionist minimalist introvert extrovert "
        "vegetarian vegan pescatarian christian atheist humanist libertarian guardian "
        "eater sleeper talker worrier overthinker lover believer fan person owl member "
        "beginner leo scorpio",
    )
)


def parts(clause: str) -> list[str]:
    """The clause as the statements it makes: a move and the job it was for are two ("we live
    in Luton now" after a comma is the owner's home, as at the start of a line)."""
    clause = _WE_LIVE.sub("I ", clause.strip())
    found = _FOR_A_JOB.match(clause.rstrip(".!"))
    if found is None:
        return [clause]
    said = [found["move"]]
    if found["where"]:
        said.append(f"I work {found['prep'].casefold()} {found['where']}")
    return said


def joined_to_where(ops: list[dict[str, Any]], what: str) -> bool:
    """ "The owner works as a radiographer." said in the line that already proposed "The owner
    works at the hospital.": one entry ("works as a radiographer at the hospital"), the op
    before revised in place; False when there is none to join."""
    for op in ops:
        content = str(op.get("content", ""))
        where = re.match(r"^The owner works ((?:at|in|for|with) .+)\.$", content)
        if op.get("op") == "remember" and op.get("collection") == "facts" and where:
            op["content"] = f"{what.rstrip('.')} {where[1]}."
            return True
    return False


def started(clause: str) -> str | None:
    """ "just started as a site manager" -> "I work as a site manager"; None for any other."""
    found = _STARTED.match(clause.strip().rstrip(".!"))
    return None if found is None else f"I work {found['rest']}"


def is_work(what: str, message: str) -> bool:
    """Whether "a …" after "I'm" names a job (see the module)."""
    words = re.findall(r"[\w-]+", what.casefold())
    if not words or len(words) > 4:
        return False
    if any(w in _NOT_A_JOB or w in KIN for w in words):  # "a big eater", "a mother of two"
        return False
    modified = bool(_WORK_MODIFIER.match(what.strip()))
    noun = words[-1]  # the head of "bus inspector", "part-time cleaner"
    if _JOB_MADE.search(noun) and len(noun) > 4:
        return True
    return bool(_ER.search(noun)) and len(noun) > 4 and (modified or bool(_AT_WORK.search(message)))
