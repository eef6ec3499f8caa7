"""The offline brain: a real, deterministic, rule-based Provider that needs no network.

It reads the prompt's sections (shelldon.broker.offline_view; see shelldon.worker.prompt), answers
from what they hold and proposes ops for clear statements, all in the reply protocol every brain
speaks: `{"reply": "...", "ops": [...]}`. The rules, in order, for each sentence of the
owner's message:

- a secret ("my wifi password is ...") is never proposed for memory (the owner is pointed to the
  vault);
- "forget that my car is red", "forget my car", "please forget what I said about X": a `forget`
  op for each entry that says it (shelldon.broker.offline_forget);
- a question is answered from the statements the prompt holds (memory entries, about, summary,
  the owner's own words in the recent window and recall), chosen by shared words; questions about
  the owner's pets, family, work and age, and "what should I eat/watch/read tonight?" from a
  stored preference, first (shelldon.broker.offline_topics); or it admits it does not know;
- "my sister is called Ana" -> remember in people/; "my name is ..." / "I live in ..." /
  "my car is red" / "remember that ..." -> facts/; "I like / love / prefer / hate ..." /
  "my favourite X is Y" -> preferences/;
- "I usually ...", "every morning I ...", "I'm a ..." and anything the owner says again ->
  capture_learning with a stable pattern_key (recurrence is what the dream promotes);
- greetings, thanks and goodbyes are answered; anything else is acknowledged.

Before those rules each sentence is read as plain words (text-speak, a filler at either end), and
a bare reaction ("lol", "?", "😢"), a goodbye however typed, a line in another language, a
question about the pet's own life, a sum, and what an offline brain cannot look up are answered
by shelldon.broker.offline_chat, never as a fact or a gap in memory. A mood as people type it
("tired af", "my head is killing me", "didn't sleep") is met by shelldon.broker.offline_moods,
an introduction in one line ("Oli here, I work as a barista") and work said by its verb or a
status by shelldon.broker.offline_intro, and a liking said without "like" or changed ("not a fan
of sushi", "I don't like jazz anymore": the same entry) by shelldon.broker.offline_likes. A
greeting by the time of day or in another language is shelldon.broker.offline_greet's, an open
request ("tell me something", "surprise me") shelldon.broker.offline_open's, and a line about
someone just mentioned, said with a pronoun ("she's a doctor"), is said again with the person in
place (shelldon.broker.offline_referent) before any rule reads it. Praise, love, rudeness and an
apology to the pet are shelldon.broker.offline_praise's, a question about the pet and its memory
("do you remember me?", "can you forget things?") shelldon.broker.offline_self's, and an answer
to what the pet just asked or small talk with no fact ("pretty good, went climbing", "just
watching telly") shelldon.broker.offline_answers'. "What did I say about my sister?" is told back
by shelldon.broker.offline_recount, a line that only makes sense with the one before it ("sorry
i meant brutus not bruno", "its 14 april" after its own "I don't know that yet") made whole by
shelldon.broker.offline_mend, a hard day followed over the next greeting and a relief met gladly
by shelldon.broker.offline_days, and small talk about the pet's own day ("what did you have for
dinner?") answered in kind by shelldon.broker.offline_kind. Lines typed as notes ("packing list:
…", "mia has swimming thurs 5pm", a trip and its dates) are shelldon.broker.offline_notes', slang
inside a line ("lowkey", "mid") is read by shelldon.broker.offline_slang, and a question nobody
could look up ("do dogs go to heaven?") is answered by shelldon.broker.offline_advice.

Each statement is read clause by clause, a correction ("actually …, not …", "that's wrong, …",
"I moved to …") is filed under the name of the entry it corrects (the gate revises it), names
("I'm X", "call me X", "X here", a bare "Sam" after the pet asked), feelings, the pet's own
repertoire and the wording of its acknowledgements (varied, seeded by the turn) come first:
shelldon.broker.offline_talk. Negations ("I don't eat meat", "I'm not a morning person") are kept
as negations, and a yes/no question is answered "No, you don't eat meat.". An unknown answer says
what is known nearby.

"remind me …" (in 20 minutes, tomorrow at 9, every Monday at 8, …) is read against the prompt's
local time and proposes one `remind` op (shelldon.broker.offline_proactive, which also writes the
check-in for purpose == "checkin"). For purpose == "dream" it delegates to
shelldon.broker.offline_dream. Rules, not a model: small, readable, and tested on many phrasings
(tests/broker/test_offline_brain.py, tests/broker/test_offline_memory_talk.py). See docs/turn.md
and docs/brain.md ("The offline brain listens").

Over 400 lines: each rule above is a few lines here, and all of them share the person shifting
(broker.offline_words) and the view of the prompt (broker.offline_view); the dream's, the
forgetting's and the topic questions' rules already live apart.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass, field
from typing import Any

from shelldon.broker import (
    offline_additions,
    offline_advice,
    offline_answers,
    offline_asides,
    offline_back,
    offline_banter,
    offline_birthdays,
    offline_cased,
    offline_chat,
    offline_checkin,
    offline_days,
    offline_dictated,
    offline_feats,
    offline_feelings,
    offline_forget,
    offline_former,
    offline_gifts,
    offline_greet,
    offline_habits,
    offline_ideas,
    offline_intro,
    offline_jobs,
    offline_journeys,
    offline_kin,
    offline_kind,
    offline_life,
    offline_likes,
    offline_lists,
    offline_lost,
    offline_mend,
    offline_milestones,
    offline_moods,
    offline_newborn,
    offline_news,
    offline_nods,
    offline_nordic,
    offline_notes,
    offline_occasions,
    offline_open,
    offline_orders,
    offline_past,
    offline_pasted,
    offline_pastimes,
    offline_praise,
    offline_proactive,
    offline_recount,
    offline_referent,
    offline_revise,
    offline_rules,
    offline_self,
    offline_setbacks,
    offline_skills,
    offline_slang,
    offline_slips,
    offline_sums,
    offline_talk,
    offline_topics,
    offline_visits,
    offline_whose,
    offline_world,
)
from shelldon.broker.offline_sentences import (
    forget_request,
    is_question,
    merge_notes,
    openers_once,
    promise_once,
)
from shelldon.broker.offline_view import (
    REMEMBER,
    Known,
    PromptView,
    as_stated,
    by_relation,
    known_names,
    names_a_known_person,
    relations,
    sentences,
    told_before,
)
from shelldon.broker.offline_words import (
    ANIMALS,
    BREEDS,
    HELLOS,
    KIN,
    OCCUPATIONS,
    OTHERS,
    TIMES_OF_DAY,
    UNSAID,
    WEEKDAYS,
    WORD,
    a_day,
    alternation,
    content_words,
    lower_first,
    norm,
    pattern_key,
    plurals,
    third_person_verb,
    to_second_person,
    to_third_person,
)
from shelldon.broker.patterns import lazy
from shelldon.broker.providers.base import RawCompletion, RetryPolicy
from shelldon.contracts import relayed
from shelldon.contracts.blanks import holds_blank
from shelldon.contracts.brain import CompletionRequest

__all__ = [
    "Known",
    "OfflineBrain",
    "PromptView",
    "as_stated",
    "pattern_key",
    "respond",
    "split_sentences",
    "to_second_person",
    "to_third_person",
]

MAX_OPS = 5
_SOURCE_RANK = {"memory": 5, "about": 4, "summary": 3, "directive": 3, "recall": 1, "recent": 2}

# What a question asks about ("what's my sister *called*"): the answer must share one of them.
_INTENT_WORDS = frozenset(
    norm(w) for w in ("name", "like", "live", "work", "favourite", "birthday", "allergic")
)
# Words that only say what kind of answer is wanted ("which *city*"): never required to match.
_ANSWER_KINDS = frozenset(
    norm(w)
    for w in re.findall(
        r"\S+",
        "city town country place where day date time year thing kind sort type drink food "
        "person one colour color number music band song film movie book sport hobby animal "
        "dish meal now currently nowadays days again still anymore today lately",
    )
)


_is_question = is_question
split_sentences = sentences  # the backstop (broker.answer) reads the owner's message the same way


# --- understanding the owner's sentences -------------------------------------------------------

_RELATIONS = alternation(*OTHERS, *KIN, *ANIMALS, "pet")
_NAME = r"([A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"
# A name and its further capitalised words ("Mary Ann"): case-blind patterns read this part
# case-aware, so "Rex and two cats" is Rex.
_LOOSE_NAME = r"([\w'’-]+(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]*)*)"
# "the dogs are called …", "the kids are named …": the household's, as "our dogs" is.
# A pet named by its breed: "a golden retriever called Biscuit" is a dog called Biscuit.
_BREED_NAMED = lazy(
    rf"\b(?P<breed>{alternation(*(b for kind in BREEDS.values() for b in kind))})\b"
    r"(?=(?:'s| is)? (?:called|named) |['’]s name is )",
    re.IGNORECASE,
)
_OWNERS_WORDS = lazy(r"\b(?:my|our)\b", re.IGNORECASE)
_BREED_KIND = {b: kind for kind, breeds in BREEDS.items() for b in breeds}
_THE_OURS = lazy(rf"^[Tt]he ({offline_cased.GROUP}) (?=(?:are|is) (?:called|named|[A-ZÀ-ÖØ-Þ]))")
# A line typed with its "I" dropped: "just moved to leeds!", "live in york", "work as a nurse".
_NO_SUBJECT = lazy(
    r"^(?=(?:just |recently |finally |now )?(?:moved|live|work|grew up) (?:to|in|as|at|for|up)\b"
    r"|(?:just |recently |finally )(?:got|started|bought|adopted) (?:a|an|my)\b)",
    re.IGNORECASE,
)
# "born in glasgow, living in bristol now", "originally from lima, based in madrid": clauses
# with their "I" and verb dropped, at the start of the line or after a comma.
_NO_SUBJECT_CLAUSE = lazy(
    r"(?:^|(?<=,)\s*(?:and\s+|but\s+)?|(?<=\bbut\s)|(?<=\band\s))"
    r"(?P<said>(?:now\s+)?(?:born|raised|living|based|originally from|living and working))"
    r"(?=\s+(?:in|from|and|out)\b|(?<=from)\s)",
    re.IGNORECASE,
)
_SUBJECT_FOR = {
    "born": "I was born",
    "raised": "I was raised",
    "living": "I live",
    "based": "I live",
    "originally from": "I'm originally from",
    "living and working": "I live and work",
}


def _with_subject(found: re.Match[str]) -> str:
    said = found.group("said")
    now = said.casefold().startswith("now ")
    said = said[4:] if now else said
    lead = found.group(0)[: found.start("said") - found.start()]
    return lead + _SUBJECT_FOR[said.casefold()] + (" now" if now else "")


_NOWADAYS = lazy(
    r"^(?:these days|nowadays|currently|at the moment|now),?\s+(?=(?:i|i'm|i’m|im|we)\b)",
    re.IGNORECASE,
)
# "I'm based in Madrid", "I'm living in Leeds now", "I stay in Glasgow": where the owner lives.
_LIVING = lazy(
    r"^I(?:'m|’m| am)(?: now| currently)? (?:based|living|settled)(?= in [A-Z])"
    r"|^I stay(?= in [A-Z])"
)
_WE_LIVE = lazy(r"^[Ww]e (?=(?:just |recently )?(?:live|moved) (?:in|to)\b)")
# The names after the first of a list: ", Ella and Sam", " and Mopsy".
_MORE_NAMES = lazy(r"(?:\s*,\s*[A-ZÀ-ÖØ-Þ][\w'’-]*)*\s*,?\s+(?:and|&)\s+[A-ZÀ-ÖØ-Þ][\w'’-]*")
_CAPITALISED = lazy(r"[A-ZÀ-ÖØ-Þ][\w'’-]*")
_REL = rf"(?:older |younger |little |big |elder |twin |new |old )?({_RELATIONS})"
_PEOPLE_PATTERNS = (
    lazy(rf"\b(?:my|our) {_REL}(?:'s| is| has)? (?:called|named) {_LOOSE_NAME}", re.IGNORECASE),
    lazy(rf"\b(?:my|our) {_REL}['’]s name is {_LOOSE_NAME}", re.IGNORECASE),
    lazy(rf"\b(?:[Mm]y|[Oo]ur) {_REL}(?: is|'s) {_NAME}(?=$|[\s.,!;])"),
    lazy(rf"\b{_NAME} is (?:my|our) {_REL}\b"),
)
# Everyday facts about someone: "my sister Ana lives in Lisbon", "my boss works at the bank",
# "my son's birthday is May 3", "my dad loves jazz". Filed in people/ under "<relation> <topic>",
# or "<relation> <name> <topic>" when named: two sisters are two people (the sixteenth pass).
_SOMEONE = rf"(?i:my|our) {_REL}(?:,? {_NAME},?)?"
_PERSON_FACTS = (
    (
        lazy(rf"^{_SOMEONE} (?i:lives|is living|has lived|moved) (?i:in|to|near) (.+)$"),
        "home",
    ),
    (
        lazy(rf"^{_SOMEONE} (?i:works|is working|has worked) (?i:as|at|for|in) (.+)$"),
        "work",
    ),
    (lazy(rf"^{_SOMEONE}['’]s (?i:birthday is|birthday's) (.+)$"), "birthday"),
    (lazy(rf"^{_SOMEONE} (?i:was born on|was born in) (.+)$"), "birthday"),
    (
        lazy(
            rf"^{_SOMEONE} (?i:really )?(?i:likes|loves|enjoys|adores|hates|dislikes|"
            rf"doesn't like|does not like|can't stand|is allergic to|"
            # "my grandson Tyler is into skateboarding" (the fourteenth pass: the name alone kept)
            rf"is (?:really |very |so |totally |well )?into|is (?:a )?(?:big |huge )?fan of|"
            rf"is (?:obsessed with|mad about|crazy about)) (.+)$"
        ),
        "likes",
    ),
)
_SECRET = lazy(
    r"\b(?:password|passwd|passcode|pass phrase|passphrase|pin(?: code)?|api key|secret|token|"
    r"private key|credit card|card number|social security|iban)\b",
    re.IGNORECASE,
)
_MY_NAME = lazy(
    rf"^(?:my name is|my name's|i'm called|i am called|call me) {_LOOSE_NAME}", re.IGNORECASE
)
_FACT_PATTERNS = (
    (
        lazy(
            r"^i (?:live|am living|'m living) in "
            # "I live in hope": an idiom, no home
            r"(?!(?:hope|fear|denial|peace|harmony|sin|luxury|style|dread|terror|the moment|"
            r"the past|a bubble|a dream|my head)\b)(.+)$",
            re.IGNORECASE,
        ),
        "home",
    ),
    (
        lazy(r"^i (?:work|am working|'m working) (?:as|at|for|in) (.+)$", re.IGNORECASE),
        "work",
    ),
    (lazy(r"^i(?: am|'m) (?:originally )?from (.+)$", re.IGNORECASE), "origin"),
    (lazy(r"^my birthday is (.+)$", re.IGNORECASE), "birthday"),
    (lazy(r"^i was born (?:on|in) (.+)$", re.IGNORECASE), "birthday"),
    (lazy(r"^i(?: am|'m) allergic to (.+)$", re.IGNORECASE), "allergy"),
)
# "I'm 34", "I am 34 years old": the owner's age, said as a memory entry says it.
_AGE = lazy(r"^i(?: am|'m|’m) (\d{1,3})(?:\s*(?:years?|yrs?) old|\s*y/?o)?$", re.IGNORECASE)
# "my car is red", "our flat's on the third floor", "my sister is a nurse": a plain fact about
# one of the owner's things or people, filed under what it is about (a later "my car is blue"
# revises "car colour"; "that's wrong, …" is the same statement, so the same entry).
_THING = lazy(
    r"^(?:my|our) ((?:[^\W\d_][\w'’-]*\s+){0,2}?[^\W\d_][\w'’-]*)"
    r"(?:\s+(?:is|are|was|were|has|have|looks|seems)\s+|['’]s\s+)(.+)$",
    re.IGNORECASE,
)
# What "my … is …" says without it being a fact worth keeping ("my day was long", "my bad").
_PASSING = frozenset(
    re.findall(
        r"\S+",
        "day week weekend morning evening night afternoon shift mood head back stomach tummy "
        "throat life time turn point plan plans guess question answer problem fault mistake "
        "pleasure bad god goodness gosh word heart brain mind battery phone-battery excuse "
        "name birthday favourite favorite fave password pin code wifi",
    )
)
_THING_ADJECTIVES = frozenset(("new", "old", "little", "big", "own", "first", "current"))
_COLOURS = frozenset(
    re.findall(
        r"\S+",
        "red blue green yellow orange purple pink brown black white grey gray silver gold "
        "beige navy teal turquoise maroon violet cream",
    )
)
# What a thing is, not how it is right now: "a Toyota", "in the garage", "34", "Biscuit".
_LASTING = lazy(
    r"^(?:(?:a|an|the|one|two|three|from|in|on|at|near|by|under|over|made of|called|named)\s+"
    r"|\d|[A-ZÀ-ÖØ-Þ])"
)
_STILL = frozenset(("amazing", "boring", "interesting", "annoying", "charming", "stunning"))
_WORK_WORDS = frozenset(("job", "work", "occupation", "profession", "career"))
_LIKE = lazy(
    r"^i (?:really |also |do |quite |absolutely )?(like|love|enjoy|prefer|adore|hate|dislike|"
    r"don't like|do not like|can't stand|cannot stand|loathe|detest) (.+)$",
    re.IGNORECASE,
)
# "we have a dog called Biscuit", "we've got a puppy named Mochi", "I have a sister called Ana".
# Also "we got a hamster, his name is Nibbles", "we have two cats, one is called Miso".
_WE_HAVE = lazy(
    rf"^(?:we|i)(?:'ve|’ve| have)?\s*(?:got|have|own|keep|adopted|got ourselves)\s+"
    rf"(?:a|an|one|two|three|the|new|little)?\s*(?:new |little |lovely )?{_REL}s?"
    r"(?:\s*,?\s+(?:called|named|whose name is)"
    r"|\s*,\s*(?:and\s+)?(?:one(?: of them)?|his name|her name|its name|he|she|it)"
    r"(?:'s|’s| is)(?:\s+(?:called|named))?)"
    rf"\s+{_LOOSE_NAME}",
    re.IGNORECASE,
)
# "I don't eat meat", "I never drink alcohol", "I can't swim": kept as the negation it is.
_NEGATION = lazy(
    r"^i (?:don't|do not|never|can't|cannot|won't|didn't|haven't|hardly ever)\s+"
    r"(?!like\b|really like\b|love\b|mind\b|know\b|think\b|care\b|remember\b)(\w+)(.*)$",
    re.IGNORECASE,
)
_NOT_SOMETHING = lazy(r"^i(?:'m|’m| am) not (?:a |an |really |very )*(.+)$", re.IGNORECASE)
# "my favourite foods are smørrebrød, herring and kanelbullar": several, kept as said (the
# seventeenth pass: "are" was not read, and nothing was kept)
_FAVOURITE = lazy(r"^my fav(?:ou?)?rite ([\w -]+?) (is|are) (.+)$", re.IGNORECASE)
_HABIT = lazy(
    r"^(?:i (?:usually|often|always|normally|generally|tend to|never|rarely|sometimes) .+|"
    rf"(?:every|each) (?:day|morning|evening|night|week|weekend|{alternation(*WEEKDAYS)})"
    r"[, ]+i .+)$",
    re.IGNORECASE,
)
_IDENTITY = lazy(r"^i(?: am|'m) (?:a|an) (.+)$", re.IGNORECASE)
_OCCUPATION = lazy(rf"^(?:[\w-]+ ){{0,2}}(?:{alternation(*OCCUPATIONS)})\b", re.IGNORECASE)
_GREETING = lazy(
    rf"^(?:{alternation(*HELLOS)}|good (?:{alternation(*TIMES_OF_DAY)}))\b"
    rf"|^(?:{alternation(*TIMES_OF_DAY)})(?:[\s,!]+[\w']+)?[\s!.]*$",  # "mornin" is "morning"
    re.IGNORECASE,
)
# "aw ty", "aww thanks": a thank-you with its "aw" first.
_THANKS = lazy(r"^(?:a+w+[\s,!]+)?(?:thanks|thank you|thx|ty|tysm|cheers)\b", re.IGNORECASE)
_HOW_ARE_YOU = lazy(r"^how are you|^how's it going|^how are things", re.IGNORECASE)
_ABOUT_ME = lazy(
    r"^(?:what do you (?:know|remember) about (?:me|myself)|what have you learn(?:ed|t) about me|"
    r"tell me (?:what you know )?about (?:me|myself)|what do you know of me)\b"
    # "tell me something about me", "what have I told you about myself?": the same list
    r"|^(?:tell me|say|share) (?:something|anything|a (?:few |couple of )?things?|one thing|"
    r"some things?)(?: (?:you know|you remember|you've learn(?:ed|t)))? about (?:me|myself)\b"
    r"|^what (?:have|did) i (?:told|tell|said|say)(?: to)? you about (?:me|myself)\b"
    # "what do you remember?", "what's in your memory": all it keeps is the owner's
    r"|^(?:so,? )?(?:what do you (?:know|remember|keep)|what have you (?:remembered|learn(?:ed|t)|"
    r"kept|saved|stored|got)|what(?:'s|’s| is|s) in your (?:memory|shell|head)|"
    r"what do you (?:have|keep) (?:on|about) me|what have you got on me|"
    r"do you (?:still )?remember (?:what i (?:told|said)|anything|everything|what you know))"
    r"(?: so far| about me| yet| to you| you| me)?[\s?!.]*$",
    re.IGNORECASE,
)
MAX_ABOUT_ME = 8
_ABOUT_OWNER = lazy(r"\b(?:owner|owner's|I|my|me)\b", re.IGNORECASE)
_WHO_ARE_YOU = lazy(r"^(?:who|what) are you\b", re.IGNORECASE)
# "what is your name?": the pet's own name, never the owner's (a memory search would find "the
# owner's name is Bob").
_YOUR_NAME = lazy(
    r"^(?:what(?:'s|’s| is)|whats|tell me) your name\b|^what (?:are you|should i call you|do i "
    r"call you) called\b|^(?:what should i|what do i|how should i) call you\b|"
    r"^do you have a name\b|^have you got a name\b",
    re.IGNORECASE,
)
# The pet's name, as the prompt's system instruction gives it ("You are shelldon, ...").
_PET_NAME = lazy(r"\bYou are ([\w'’-]+),")
DEFAULT_PET_NAME = "shelldon"


def _clean_clause(text: str) -> str:
    return text.strip().rstrip(".!?,;").strip()


def _title(text: str, words: int = 6) -> str:
    return " ".join(_clean_clause(text).split()[:words])


@dataclass
class _Turn:
    view: PromptView
    seed: int = 0
    replies: list[str] = field(default_factory=list)
    ops: list[dict[str, Any]] = field(default_factory=list)

    def propose(self, op: dict[str, Any]) -> None:
        if len(self.ops) < MAX_OPS and op not in self.ops:
            self.ops.append(op)

    def remember(self, collection: str, name: str, content: str) -> None:
        if collection == "people" and name.endswith(" likes"):  # a second liking: beside
            name, content = offline_likes.beside(collection, name, content, self.view.entries)
        self.propose({"op": "remember", "collection": collection, "name": name, "content": content})

    def learn(self, observation: str, key: str) -> None:
        self.propose({"op": "capture_learning", "observation": observation, "pattern_key": key})


_NEGATIVE_THIRD = {
    "don't like": "doesn't like",
    "do not like": "does not like",
    "can't stand": "can't stand",
    "cannot stand": "cannot stand",
}


def _name_said(turn: _Turn, name: str) -> None:
    """The owner's name (a new one replaces the old: the same entry, revised by the gate)."""
    before = _owner_name(turn.view)
    turn.remember("facts", "owner's name", f"The owner's name is {name}.")
    if before and before != name:
        turn.replies.append(f"Okay, {name} it is! That's what I'll call you.")
    else:
        turn.replies.append(f"Nice to meet you, {name}!")


_NAME_KEPT = " I'll remember that."
# A correction said back (varied: three in a chat read like a form otherwise).
_UPDATED = ("Got it, I've updated that: ", "Okay, updated: ")


def _statements(turn: _Turn, sentence: str) -> None:
    """Each clause of a statement on its own ("I love tea but I hate coffee": two); a correction
    ("actually …, not …") is filed under the name of what it corrects, so the entry is revised."""
    understood = False
    replies_before = len(turn.replies)
    said: list[str] = []
    for clause in (
        told  # "I moved to Leeds for a new job at the hospital": the home and the work apart
        for part in _with_pronoun_clauses(offline_talk.clauses(sentence))
        for told in offline_jobs.parts(offline_jobs.started(part) or part)
    ):
        # "my sister is called Lucia, she's a dentist": "she" is the clause before's sister
        referred = offline_referent.resolved(clause, said[-1:]) if said else None
        said.append(clause)
        clause = referred.sentence if referred is not None else clause
        text, corrected = offline_talk.correction(clause)
        if not text:
            continue
        replies, ops = len(turn.replies), len(turn.ops)
        if not _statement(turn, text):
            continue
        understood = True
        last = turn.replies[-1] if len(turn.replies) > replies else ""
        updated = offline_talk.pick(_UPDATED, turn.seed, turn.view.pet_said)
        corrected = corrected and told_before(turn.view, clause)  # else it is news, not an update
        # "actually Pepper is 5, not 4": the entry that says 4 is revised, or it is no update
        corrected = corrected and offline_revise.file_under_old(
            turn.view, turn.ops, ops, clause, text
        )
        if corrected and last.startswith("Noted: "):
            turn.replies[-1] = updated + last[len("Noted: ") :]
        elif corrected and last.startswith("Nice, ") and last.endswith(_NAME_KEPT):
            # "actually my sister is called Ana": an update, not news
            turn.replies[-1] = updated + last[6 : -len(_NAME_KEPT)]
    # "actually I just started a new job at the archive": the life it tells, put right
    plain_told = offline_talk.correction(sentence)[0] or sentence
    life = offline_life.told(plain_told, turn.seed) if not understood else None
    if not understood and life is None:
        life = offline_life.about_someone(sentence, turn.seed, known_names(turn.view))
    if not understood and life is None:
        life = offline_life.plan(sentence, turn.seed)  # "dentist thursday at 3"
    if not understood and life is None:
        life = offline_pastimes.told(plain_told, turn.seed)  # "I grow tomatoes in my greenhouse"
    if not understood and life is not None:
        understood = True  # a word about it and a question back, and kept when it lasts
        turn.replies.append(life.reply)
        if life.keep is not None:
            turn.remember(*life.keep)
    if not understood:  # "Leo is 7 and Mia is 4": each named person in a clause of their own
        _named_clauses(turn, sentence)
        understood = len(turn.replies) > replies_before
    if not understood and offline_kin.complaint(sentence):  # "the kids were loud today, ugh"
        understood = True
        turn.replies.append(offline_talk.feeling_reply("tired", turn.seed, turn.view.pet_said))
    if not understood and (felt := offline_talk.felt_within(sentence)) is not None:
        understood = True
        turn.replies.append(
            offline_talk.feeling_reply(felt, turn.seed, turn.view.pet_said, sentence)
        )
    if not understood and (mood := offline_moods.within(sentence)) is not None:
        understood = True  # "I just got home from work, it was okay I guess"
        turn.replies.append(offline_moods.reply(mood, turn.seed, turn.view.pet_said, sentence))
    if not understood:  # "we saw a film last night": how it went, else a plain acknowledgement
        happened = offline_asides.event(sentence, turn.seed, turn.view.pet_said, not turn.replies)
        happened = happened or offline_news.news(sentence, turn.seed, turn.view.pet_said)
        happened = happened or offline_answers.answer(
            sentence, turn.view.pet_last, turn.seed, turn.view.pet_said
        )
        turn.replies.append(happened or _acknowledge(sentence, turn.view.pet_said))
    _repeated(turn, sentence)


# "…, she's a dentist", "… and he is a chef": a clause about the one just named
_PRONOUN_CLAUSE = lazy(
    r"(?:\s*,\s*|\s+and\s+)(?=(?:she|he|they)(?:'s|’s|'re|’re| is| are| was| were| works| "
    r"lives| loves| likes| has| have|'ll| will)\b)",
    re.IGNORECASE,
)


def _with_pronoun_clauses(parts: list[str]) -> list[str]:
    """The clauses, a clause that opens with "she", "he" or "they" split off the one naming
    someone before it, so it is read with the person in place (offline_referent)."""
    out: list[str] = []
    for part in parts:
        split = _PRONOUN_CLAUSE.split(part, maxsplit=1)
        if (named := _WE_HAVE.match(part)) and offline_milestones.age_after(part[named.end() :]):
            out.append(part)  # "a cat called Biscuit, she's 4": the age is kept with the name
        elif len(split) == 2 and offline_referent.mentions(split[0]):
            out.extend(split)
        else:
            out.append(part)
    return out


_NAMED_CLAUSE = lazy(
    r"(?:\s*,\s*|\s+)(?:and\s+)?(?=[A-Z][\w'’-]+ (?:is|loves|likes|hates|plays)\b)"
)


def _named_clauses(turn: _Turn, sentence: str) -> None:
    """Each clause about a named person kept, and said back once ("Leo is 7 years old, and Mia
    is 4 years old. I'll remember that.")."""
    parts = _NAMED_CLAUSE.split(sentence)
    names = known_names(turn.view)
    told = [t for p in parts if (t := offline_life.about_someone(p, turn.seed, names))]
    kept = [t.keep for t in told if t.keep is not None]
    if len(parts) < 2 or not kept:
        return
    for keep in kept:
        turn.remember(*keep)
    said = ", and ".join(content.rstrip(".") for _, _, content in kept)
    turn.replies.append(told[0].reply if len(kept) == 1 else f"{said}. I'll remember that.")


def _statement(turn: _Turn, sentence: str) -> bool:
    """Propose ops for a clear statement and acknowledge it. False when nothing matched."""
    s = _clean_clause(sentence)
    remembered = REMEMBER.match(s)
    if remembered:
        inner = _clean_clause(remembered.group(1))
        if not _statement(turn, inner):  # a recognised shape files itself where it belongs
            content = to_third_person(inner)
            turn.remember(
                "facts", _title(" ".join(content_words(inner)), 5) or _title(inner), content
            )
            turn.replies.append(f"I'll remember that {lower_first(to_second_person(content))}")
        return True
    for pattern in _PEOPLE_PATTERNS:
        found = pattern.search(s)
        if found:
            groups = found.groups()
            # The name-first pattern captures (name, relation); the others (relation, name).
            rel, name = (groups[1], groups[0]) if pattern is _PEOPLE_PATTERNS[-1] else groups
            rel, name = rel.lower(), name[:1].upper() + name[1:]
            turn.remember(
                "people", _one_of_two(turn, rel, name), f"The owner's {rel} is called {name}."
            )
            turn.replies.append(f"Nice, your {rel} is called {name}.{_NAME_KEPT}")
            return True
    for pattern, topic in _PERSON_FACTS:
        found = pattern.match(s)
        if found:
            rel = found.group(1).lower()
            named = found.group(2)  # "my brother Olu …", "my brother Tunde …": two entries
            who = f"{rel} {named.casefold()}" if named and not a_day(named.split()[0]) else rel
            content = to_third_person(s)
            turn.remember("people", f"{who} {topic}", content)
            turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
            return True
    found = _WE_HAVE.match(s)
    if found:
        rel, name = found.group(1).lower(), found.group(2)
        name = name[:1].upper() + name[1:]
        more = _MORE_NAMES.match(s, found.end())
        if more:  # "two rabbits named Flopsy and Mopsy": every name, not the first alone
            listed = [name, *_CAPITALISED.findall(more.group(0))]
            names = ", ".join(listed[:-1]) + " and " + listed[-1]
            group = plurals(rel)[-1]
            turn.remember("people", group, f"The owner's {group} are called {names}.")
            turn.replies.append(f"{names}! What lovely names. I'll remember that.")
            return True
        age = offline_milestones.age_after(s[found.end() :])  # ", she's 4": kept with the name
        aged = f" and is {age}" if age else ""
        turn.remember("people", rel, f"The owner's {rel} is called {name}{aged}.")
        turn.replies.append(f"{name}! What a lovely name for a {rel}. I'll remember that.")
        return True
    name = offline_talk.said_name(s)
    if name is not None:
        _name_said(turn, name)
        return True
    found = _NEGATION.match(s)
    if found:
        content = to_third_person(s)
        verb, rest = found.group(1).lower(), _clean_clause(found.group(2))
        turn.remember("facts", _title(f"not {verb} {rest}", 5), content)
        turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
        return True
    liking = offline_likes.liking(s)
    if liking is not None:  # "not a fan of sushi", "I used to love coffee": kept by the thing
        thing, content = liking
        turn.remember("preferences", _title(thing, 5), content)
        turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
        return True
    found = _NOT_SOMETHING.match(s)
    if found and not offline_talk.feeling(f"I'm {found.group(1)}"):
        what = _clean_clause(found.group(1))
        content = f"The owner is not {_clean_clause(s.split(' not ', 1)[1])}."
        turn.remember("facts", _title(f"not {what}", 5), content)
        turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
        return True
    for pattern, topic in _FACT_PATTERNS:
        if pattern.match(s):
            content = to_third_person(s)
            turn.remember("facts", _work_name(turn.view) if topic == "work" else topic, content)
            turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
            return True
    found = _FAVOURITE.match(s)
    if found:
        what, value = found.group(1).strip().lower(), _clean_clause(found.group(3))
        be = found.group(2).casefold()
        turn.remember(
            "preferences", f"favourite {what}", f"The owner's favourite {what} {be} {value}."
        )
        if be == "are":  # several: said as several
            turn.replies.append(f"Ooh, {value}! I'll remember those are your favourite {what}.")
        else:
            turn.replies.append(offline_talk.favourite_reply(what, value, turn.seed))
        return True
    found = _LIKE.match(s)
    if found:
        verb, obj = found.group(1).lower(), _clean_clause(found.group(2))
        said = _NEGATIVE_THIRD.get(verb) or third_person_verb(verb)
        # "I love my dog": the owner's dog, not "my dog" (whose, read later by a model?)
        theirs = _OWNERS_WORDS.sub("the owner's", obj)
        content = f"The owner {said} {theirs}."
        # "I don't like jazz anymore" revises "jazz" (the gate updates it), never a second entry
        title = _OWNERS_WORDS.sub("", offline_likes.liked(obj)).strip() or obj
        turn.remember("preferences", _title(title, 5), content)
        turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
        return True
    found = _AGE.match(s)
    if found:
        content = f"The owner is {found.group(1)} years old."
        turn.remember("facts", "age", content)
        turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
        return True
    if _thing_fact(turn, s):
        return True
    if _HABIT.match(s):
        turn.learn(to_third_person(s), pattern_key("habit", s))
        turn.replies.append("Good to know how your days go.")
        return True
    work = offline_intro.work(s, turn.seed, turn.view.pet_said)
    if work is not None:  # "I'm retired", "I teach maths to 12 year olds"
        turn.remember("facts", _work_name(turn.view), work[0])
        turn.replies.append(work[1])
        return True
    found = _IDENTITY.match(s)
    if found and (  # "I'm a teacher", "I'm a radiographer": what "what's my job?" asks
        _OCCUPATION.search(found.group(1))
        or offline_jobs.is_work(found.group(1), turn.view.message)
    ):
        content = "The owner works as " + re.sub(r"^i(?: am|'m) ", "", s, flags=re.IGNORECASE)
        if not offline_jobs.joined_to_where(turn.ops, content + "."):  # "… at the hospital"
            turn.remember("facts", _work_name(turn.view), content + ".")
        turn.replies.append(f"Noted: {lower_first(to_second_person(content + '.'))}")
        return True
    diet = offline_life.told(s, turn.seed) if found else None  # "I'm a vegetarian": a diet
    if diet is not None and diet.keep is not None and diet.keep[1] == "diet":
        turn.remember(*diet.keep)
        turn.replies.append(diet.reply)
        return True
    if found:
        turn.learn(to_third_person(s), pattern_key("identity", s))
        turn.replies.append(f"A {_clean_clause(found.group(1))}, good to know.")
        return True
    alone = len(offline_talk.clauses(turn.view.message)) == 1  # else the present follows
    past = offline_life.used_to(s, turn.seed, alone)  # "I used to live in Berlin": the past
    if past is not None and past.keep is not None:
        turn.remember(*past.keep)
        turn.replies.append(past.reply)
    return past is not None


def _former(turn: _Turn, sentence: str) -> str | None:
    """A former job in the sentence's first clause, kept; the clauses after it read as ever
    ("ex-teacher, now I run a little bakery": the bakery is the work of now)."""
    if _is_question(sentence):
        return None
    first, *after = re.split(r"\s*[,;]\s*", sentence.strip(), maxsplit=1)
    rest = offline_talk.clauses(after[0]) if after else []
    if rest and re.match(r"^i (?:used to|was)\b", first, re.IGNORECASE):
        return None  # "I used to be a baker, but these days I'm a teacher": offline_life's
    was = offline_former.said(first, turn.seed, turn.view.message, turn.view.pet_said)
    if was is None:
        return None
    rest = [
        re.sub(r"^(?:but|and|so)\s+|\b(?:these days|nowadays)\s+", "", c, flags=re.I) for c in rest
    ]
    turn.remember("facts", "former job", was.content)
    replies = len(turn.replies)
    for clause in rest:
        _statements(turn, clause)
    said = [r for r in turn.replies[replies:] if r not in _ACKNOWLEDGEMENTS]
    del turn.replies[replies:]
    if not said:
        return was.reply
    head = re.split(r"(?<=[!.])\s|,", was.reply, maxsplit=1)[0].rstrip(",")  # the now asks
    return " ".join((head if head[-1] in "!." else head + "!", *said))


def _gift_known(view: PromptView) -> list[str]:
    """What an idea for someone may draw on: memory and the window, and the owner's own lines
    whole ("my brother is called Ash, he plays guitar": the window splits it in two), and the
    lines before with their pronouns read ("she loves orchids" -> "my wife Ingrid loves
    orchids": the seventeenth pass, a liking said with "she" was not found for "get her")."""
    window = [offline_chat.plain(line) for line in view.owner_recent]
    # the whole window, not three lines; a pronoun only by the lines before it in the window (the
    # people named further back may be named after it: "she" would be a daughter named later)
    said = offline_referent.said_of_whom(window)
    resolved = [line for line in said if line not in view.owner_recent]
    return [*view.owner_recent, *resolved, *(k.text for k in view.known)]  # memory's last


def _work_name(view: PromptView) -> str:
    """The entry the owner's work is filed under: "job" (what "what's my job?" finds by title),
    or "work" where an older entry already has that name (so it is revised, not doubled)."""
    titles = {e.title.casefold() for e in view.entries if e.collection == "facts"}
    return "work" if "work" in titles and "job" not in titles else "job"


# How a thing or someone is for now, not what lasts: "at school today", "in Spain this week".
_FOR_NOW = lazy(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening|week|weekend)|right now|at the moment|"
    r"atm|rn|for now|till|until)\b",
    re.IGNORECASE,
)


def _one_of_two(turn: _Turn, rel: str, name: str) -> str:
    """The entry a relation's name is kept under: the relation ("sister"), or, when memory keeps
    another of that relation by another name and this is no correction ("my sister is called
    Beth" after "… Anna"), the relation and the name: two sisters are two people."""
    other = lazy(rf"\bowner's {re.escape(rel)} is called (?!{re.escape(name)}\b)[A-Z]")
    if offline_talk.correction(turn.view.message)[1]:
        return rel
    if any(k.source in ("memory", "about") and other.search(k.text) for k in turn.view.known):
        return f"{rel} {name.casefold()}"
    return rel


def _thing_fact(turn: _Turn, s: str) -> bool:
    """ "my car is red" -> facts/car colour; "my sister is a nurse" -> people/sister details."""
    found = _THING.match(s)
    if not found:
        return False
    words = found.group(1).casefold().split()
    predicate = _clean_clause(found.group(2))
    first = predicate.split()[0].casefold() if predicate else ""
    if not predicate or any(w in _PASSING for w in words) or _SECRET.search(s):
        return False
    thing = " ".join(w for w in words if w not in _THING_ADJECTIVES) or words[-1]
    colour = first in _COLOURS or (
        first in ("dark", "light", "bright", "pale") and len(predicate.split()) > 1
    )
    # "my kids are at school today", "… at the vet rn" (a filler plain() has taken off)
    for_now = bool(_FOR_NOW.search(predicate) or _FOR_NOW.search(turn.view.message))
    lasting = (thing in _WORK_WORDS or colour or bool(_LASTING.match(predicate))) and not for_now
    if not lasting or (first.endswith("ing") and first not in _STILL and thing not in _WORK_WORDS):
        return False  # "my fan is noisy", "my phone is dying": how a thing is now, not what it is
    aspect = "colour" if colour else "age" if re.match(r"^\d{1,3}\b", predicate) else ""
    content = to_third_person(re.sub(r"^((?:my|our) [^'’]+?)['’]s\s+", r"\1 is ", s, flags=re.I))
    if re.fullmatch(_RELATIONS, thing):
        turn.remember("people", f"{thing} {aspect or 'details'}", content)
    elif thing in _WORK_WORDS:
        turn.remember("facts", _work_name(turn.view), content)
    else:
        turn.remember("facts", f"{thing} {aspect}".strip(), content)
    turn.replies.append(f"Noted: {lower_first(to_second_person(content))}")
    return True


def _ordered(turn: _Turn, order: offline_orders.Ordered) -> None:
    """The dislike read as any is, then said back with the pet's promise to the order."""
    ops = len(turn.ops)
    _statements(turn, order.fact)
    kept = [op for op in turn.ops[ops:] if op.get("op") == "remember"]
    if kept and turn.replies:
        said = lower_first(to_second_person(kept[-1]["content"]))
        turn.replies[-1] = order.promise(said)


def _repeated(turn: _Turn, sentence: str) -> None:
    """The owner says again what they said before: a pattern worth consolidating."""
    words = set(content_words(sentence))
    if len(words) < 2:
        return
    for earlier in turn.view.owner_said:
        other = set(content_words(earlier))
        if other and len(words & other) / len(words | other) >= 0.75:
            observation = f"The owner said more than once: {lower_first(to_third_person(sentence))}"
            turn.learn(observation, pattern_key("said", sentence))
            return


_NAME_INTENT = norm("name")
_LIKE_INTENT = norm("like")
_LIKING_INTENTS = frozenset((_LIKE_INTENT, norm("favourite")))
_LIVE_INTENT = norm("live")
_INTO_ASKED = lazy(r"\binto(?: (?:these days|lately|at the moment|now))?\W*$", re.IGNORECASE)
_BIRTHDAY_INTENT = norm("birthday")
_DISLIKE_WORD = norm("dislike")


def _names_someone(intent: str, text: str) -> bool:
    """A name question is answered by a statement with a proper name in it ("Ana is my sister")."""
    if intent != _NAME_INTENT:
        return False
    return any(
        w[:1].isupper() and w != "I" and w.casefold() not in UNSAID for w in WORD.findall(text)
    )


# "after work", "at work", "from home": an intent word after a preposition names a thing, not what
# the statement says ("I walk by the river after work" does not say where the owner works).
_NOUN_USE = lazy(
    r"\b(?:after|before|at|from|to|for|off|of|into|during)\s+(?:my\s+|the\s+)?"
    r"(work|job|home|name|birthday)\b",
    re.IGNORECASE,
)


def _intent_words(text: str) -> list[str]:
    """The statement's words an intent can match: without the intent words used as nouns."""
    return content_words(_NOUN_USE.sub(" ", text))


# What only frames a question ("do you know my name?" asks "my name?").
_QUESTION_FRAME = lazy(
    r"^(?:(?:do|did) you (?:know|remember)|(?:can|could) you (?:tell me|remind me)|"
    r"tell me|remind me|i wonder)\s+(?:if\s+|whether\s+)?",
    re.IGNORECASE,
)
_NAME_QUESTION = lazy(
    r"^(?:what(?:'s|’s| is) my name|my name|who am i|what am i called|what do you call me|"
    r"what should you call me|what do (?:people|everyone|my friends|they) call me|"
    r"what do i go by)\b",
    re.IGNORECASE,
)
_YES_NO = lazy(r"^(?:do|does|did|am|is|are|was|were|have|has|can|could|will)\b", re.I)
_DISLIKES = lazy(
    r"\b(?:hates?|dislikes?|detests?|loathes?|can't stand|cannot stand)\b", re.IGNORECASE
)
# What answers "what do I dislike?": a dislike said in any of its words.
_DISLIKED = lazy(
    rf"{_DISLIKES.pattern}|\b(?:don't|doesn't|do not|does not|don’t|doesn’t) (?:really )?like\b",
    re.IGNORECASE,
)
# A dislike says no to "do I like …?" as a "not" does ("hates running": "No, you hate running.").
_NEGATED = lazy(rf"\b(?:not|never|no longer|used to)\b|n't\b|{_DISLIKES.pattern}", re.IGNORECASE)


def _answer(turn: _Turn, question: str) -> None:
    question = _QUESTION_FRAME.sub("", question.strip()) or question
    if _NAME_QUESTION.match(question):
        turn.replies.append(_your_name(turn.view))
        return
    q = content_words(question)
    if _INTO_ASKED.search(question):  # "what is Dev into?": a liking, never "Dev is 61"
        q.append(_LIKE_INTENT)
    intents = [w for w in q if w in _INTENT_WORDS]
    subject = [w for w in q if w not in _INTENT_WORDS and w not in _ANSWER_KINDS]
    best: tuple[tuple[int, bool, int, int, int], Known] | None = None
    # "where do I live?" asks about now: "you used to live in Berlin" is no answer to it.
    now_asked = not offline_past.PAST_QUESTION.search(question) and not _YES_NO.match(question)
    earlier: tuple[tuple[int, bool, int, int, int], Known] | None = None
    # "what's my favourite food?" is not answered by the favourite band: a kind asked for is named.
    liking_asked = any(w in _LIKING_INTENTS for w in intents)
    kind = offline_topics.kind_asked(question) if liking_asked else None
    owners = offline_whose.asks_about_the_owner(question)  # "where do I work?": not Tom's work
    for known in _each_clause(turn.view.known):
        if kind is not None and not offline_topics.names_kind(known.text, kind):
            continue
        if owners and offline_whose.someone_elses(known.text):
            continue
        words = content_words(known.text)
        once_home = bool(offline_past.PAST_HOME.search(known.text))
        if once_home:  # "moved away from Derby": where the owner lived, once
            words.append(_LIVE_INTENT)
        liking = _DISLIKES.search(known.text) or offline_likes.LIKING.search(known.text)
        if liking:  # "hates running", "is not into hiking anymore" say as much as "likes"
            words.append(_LIKE_INTENT)
        if _DISLIKED.search(known.text):  # "can't stand olives" answers "what do I dislike?"
            words.append(_DISLIKE_WORD)
        born = offline_birthdays.says_birthday(known.text)  # "Lily turns 7 on march 3rd"
        if born:
            words.append(_BIRTHDAY_INTENT)
        shared = [w for w in q if w in words]
        if not shared:
            continue
        stated = _intent_words(known.text)
        if liking:  # so a dislike answers "do I like …?"
            stated.append(_LIKE_INTENT)
        if born:
            stated.append(_BIRTHDAY_INTENT)
        if once_home:
            stated.append(_LIVE_INTENT)
        if intents and not any(w in stated or _names_someone(w, known.text) for w in intents):
            continue  # "where does my sister live" is not answered by her name
        shared_subject = [w for w in subject if w in words]
        if subject and len(shared_subject) * 2 < len(subject):
            continue  # "my sister" must not be answered with a fact about "my brother"
        extra = len([w for w in words if w not in q])
        kept = known.source in ("memory", "about")  # what the owner corrected is kept there
        score = (len(shared), kept, -extra, _SOURCE_RANK.get(known.source, 0), known.order)
        if now_asked and offline_past.PAST.search(known.text):
            if earlier is None or score > earlier[0]:
                earlier = (score, known)
        elif best is None or score > best[0]:
            best = (score, known)
    if best is None and earlier is not None:
        said = lower_first(to_second_person(offline_cased.said_back(earlier[1].text)))
        turn.replies.append(f"{NOT_NOW} What I know is from before: {said}")
        return
    if best is None:
        turn.replies.append(_not_known(turn.view, subject))
        return
    found = best[1]
    if holds_blank(found.text):  # what was told held a secret, blanked before it was kept
        turn.replies.append(SECRET_NOT_KEPT)
        return
    said = lower_first(to_second_person(offline_cased.said_back(found.text)))
    mused = offline_chat.ponder(question, turn.seed) if _YES_NO.match(question) else None
    if mused is not None:  # "do you get nervous?" is the pet's: never "Yes, you're nervous."
        turn.replies.append(mused)
        return
    if _YES_NO.match(question) and found.source in ("memory", "about", "recent", "recall"):
        yes = not _NEGATED.search(found.text) or bool(_NEGATED.search(question))
        if not offline_past.PAST_QUESTION.search(question) and offline_past.PAST.search(found.text):
            yes = False  # "do I live in Galway?": "you grew up in Galway" says no of now
        turn.replies.append(f"{'Yes' if yes else 'No'}, {said}")
        return
    # Varied by the openings the pet said last (not by dice): the same "From what you told me,
    # …" to every question read like a form.
    recent = found.source in ("recent", "recall")  # "You told me …", unless just said so
    templates = _TOLD if recent else _RECALLED
    worded = {t: t.format(x=said, X=said[:1].upper() + said[1:]) for t in templates}
    fresh = [t for t, w in worded.items() if w not in turn.view.pet_said] or list(templates)
    seed = 0 if recent else turn.seed
    turn.replies.append(worded[offline_talk.pick(fresh, seed, turn.view.pet_said)])


SECRET_NOT_KEPT = (
    "That one held a secret, so I didn't keep it: I never keep passwords or codes, not even in "
    "what I remember of our chats."
)
_NEVER_MIND_REPLIES = ("Okay, no worries!", "Sure, never mind.", "No problem.")
_RECALLED = ("{X}", "I remember that {x}", "From what you told me, {x}")
_TOLD = ("You told me {x}", "You said {x}", "{X}")


def _each_clause(known: list[Known]) -> list[Known]:
    """Each statement clause by clause ("I love hiking but I hate running" is two), so an answer
    says the clause asked about, not its neighbour's yes."""
    return [Known(part, k.source, k.order) for k in known for part in offline_talk.clauses(k.text)]


def _not_known(view: PromptView, subject: list[str]) -> str:
    """The honest "I don't know yet", with what the pet does know about the same subject."""
    nearby = [
        k
        for k in view.known
        if k.source in ("memory", "about") and subject and set(subject) & set(content_words(k.text))
    ]
    if nearby:
        said = lower_first(to_second_person(nearby[-1].text))
        return f"{NOT_KNOWN} What I do know: {said} Tell me more and I'll remember."
    return offline_talk.pick(_ASK_TO_BE_TOLD, 0, view.pet_said)  # the first, unless just said


_ASK_TO_BE_TOLD = (
    "I don't know that yet. Tell me and I'll remember.",
    "I don't know that yet. What is it? I'd love to know.",
    "I don't know that yet. You can tell me whenever you like.",
)


NOT_KNOWN = "I don't know that yet."
NOT_NOW = "I don't know about now."


def _about_me(view: PromptView) -> str:
    """What the curated memory and about.md in the prompt say about the owner, said back."""
    said = _about_me_lines(view)
    if not said:
        return "I don't know much about you yet. Tell me about yourself and I'll remember."
    opening = offline_talk.pick(_ABOUT_ME_OPENINGS, 0, view.pet_said)  # asked again: other words
    return opening + " ".join(said)


_ABOUT_ME_OPENINGS = ("Here's what I know about you: ", "All still here in my shell: ")


def _about_me_lines(view: PromptView) -> list[str]:
    """Each thing the curated memory and about.md say about the owner, in the second person."""
    said: list[str] = []
    for known in view.known:
        if known.source not in ("memory", "about") or not _ABOUT_OWNER.search(known.text):
            continue
        called = _CALLED.match(known.text.strip())
        asked = _ASKED.match(known.text.strip())
        if called:
            line = f"You like to be called {called.group(1)}."
        elif asked:  # an owner rule, said as what they asked: "You asked me never to call you …"
            how = "never to" if asked.group(1).lower() == "never" else "to always"
            line = f"You asked me {how} {lower_first(to_second_person(asked.group(2)))}"
        else:
            line = to_second_person(known.text)
        line = line[:1].upper() + line[1:]
        if line not in said:
            said.append(line)
        if len(said) == MAX_ABOUT_ME:
            break
    return said


# The first turn ever (no history, no memory) when the owner opens with small talk ("hi"): the pet
# introduces itself and asks the owner's name, and the time zone only when the owner's zone is
# UTC (unset on most fresh systems). A first message that asks or tells something is answered
# as any other, with the introduction after the answer (without the name question when the
# message gave the name). The next turn has history: the introduction is said once. See
# docs/turn.md.
INTRO = "Hi, I'm {pet}, your pocket pet! I remember what you tell me. What's your name?"
ASK_NAME = "What's your name?"
ASK_ZONE = (
    "And which time zone are you in? Tell me with /timezone Europe/Lisbon (your zone's name), "
    "so reminders and quiet hours follow your clock."
)
# "The owner's name is Sam." (and, read past, an entry an older brain wrote as "… is I'm Sam").
_NAME_IS = lazy(
    r"(?:owner's|my) name is (?:(?:I'm|I’m|I am|im|it's|it is|you are)\s+)?([\w'’-]+)",
    re.IGNORECASE,
)
# An owner's always/never rule as core keeps it ("Never call me before 9.").
_ASKED = lazy(r"^(always|never)\s+(.+)$", re.IGNORECASE)
# The owner's own rule, as core keeps it: "Call me Pri." (one or two words of a name).
_CALLED = lazy(r"^call me ([\w'’-]+(?: [A-Z][\w'’-]*)?)[.!]?$", re.IGNORECASE)


def _first_turn(view: PromptView, request: CompletionRequest) -> str | None:
    """The introduction, when this is the first turn ever; None otherwise."""
    local = offline_proactive.find_now(request)
    if local is None:
        return None  # a real turn always has its "# Now" section; a bare prompt is no first run
    if view.history_rows or any(k.source in ("memory", "about", "summary") for k in view.known):
        return None
    intro = INTRO.format(pet=_pet_name(request))
    if local.zone in ("UTC", "Etc/UTC", "Etc/Universal", "Universal"):
        intro += " " + ASK_ZONE
    return intro


# A question typed without its "?": no name answers the pet's "What's your name?".
_ASKS = lazy(
    r"\b(?:how|what|where|who|why|when|which)\b.*\b(?:you|your|u|ur|i|my|is|are|was|do|did)\b|"
    r"\b(?:are|do|did|can|have) (?:you|u)\b",
    re.IGNORECASE,
)
# "hi im ana", "i'm tom": a name in lower case, while the pet does not know the owner's yet.
_I_AM_ONE_WORD = lazy(
    rf"^(?i:(?:{alternation(*HELLOS)}|(?:good )?(?:{alternation(*TIMES_OF_DAY)}))\b[\s,!.]*)?"
    r"(?i:i'm|i’m|im|i am)\s+"
    r"(?P<name>[a-zà-ÿ][\w'’-]*)[\s!.]*$"
)


def _answered_name(view: PromptView, message: str) -> str | None:
    """The owner's bare answer ("Bob", "it's Bob") to the pet's "What's your name?"; or, while
    no name is known, "hi im ana" unasked (one word that can be a name: never "im off")."""
    if _is_question(message) or _ASKS.search(message):  # "anyway how are you": no "Anyway"
        return None
    if ASK_NAME not in view.pet_last:
        lower = _I_AM_ONE_WORD.match(message.strip())
        if _owner_name(view) or lower is None or not offline_cased.can_be_name(lower["name"]):
            return None
    if offline_chat.reaction(message, 0, None, "") is not None or offline_chat.foreign(message):
        return None  # "bye", "lol", "ok", "merci beaucoup": no one is called that
    said = offline_talk.said_name(message, asked=True)  # "im jaz lol": the name, not the laugh
    return said or offline_talk.said_name(offline_chat.plain(message), asked=True)


def _names_known(view: PromptView) -> list[tuple[Known, str, bool]]:
    """Each name the prompt holds for the owner: (where, the name, whether it is the owner's own
    "call me X" rule, which says what the pet calls them whatever a fact says)."""
    found = [
        (k, m.group(1), False)
        for k in view.known
        if (m := _NAME_IS.search(k.text)) and m.group(1).casefold() not in UNSAID
    ]
    found += [
        (k, m.group(1), True)
        for k in view.known
        if k.source == "memory" and (m := _CALLED.match(k.text.strip()))
    ]
    return found


def _your_name(view: PromptView) -> str:
    """ "What's my name?": the newest name the owner gave (a revised entry has only the new), or
    what they asked to be called."""
    found = _names_known(view)
    if not found:
        return "I don't know your name yet. What is it?"
    known, name, _ = max(
        found, key=lambda f: (f[2], f[0].source in ("memory", "about"), f[0].order)
    )
    if known.source in ("recent", "recall"):
        return f"You told me your name is {name}."
    return f"Your name is {name}."


def _owner_name(view: PromptView) -> str:
    found = _names_known(view)
    return max(found, key=lambda f: (f[2], f[0].order))[1] if found else ""


def owner_said(view: PromptView) -> list[str]:
    """What the owner said of themselves as the prompt holds it: their message and memory's and
    about.md's statements (broker.answer checks a model's reply never says them as its own)."""
    return [view.message, *(k.text for k in view.known if k.source in ("memory", "about"))]


def owner_name(view: PromptView) -> str:
    """The owner's name as the prompt holds it, or as the owner's message gives it ("my name is
    Sam"); "" when none is known. broker.answer checks a model's reply never claims it as the
    pet's own."""
    for sentence in split_sentences(view.message):
        if (given := offline_talk.said_name(sentence)) is not None:
            return given
    return _owner_name(view)


def _pet_name(request: CompletionRequest) -> str:
    for section in request.sections:
        if section.kind == "system" and (found := _PET_NAME.search(section.text)):
            return found.group(1)
    return DEFAULT_PET_NAME


# "my sister Ana is visiting next week": a relation named in passing. The name is a capitalised
# word (two for "Mary Ann") that is no calendar word and no pronoun.
_IN_PASSING = lazy(rf"\b(?:[Mm]y|[Oo]ur) {_REL},? {_NAME}(?=$|[\s.,!;:?'’])")


def _named_in_passing(turn: _Turn, sentence: str) -> list[tuple[str, str]]:
    """Keep who a relation named in passing is ("The owner's sister is called Ana."), beside
    whatever the sentence was answered with, unless the turn or memory has it already. Kept by
    relation and name: the owner has more than one friend. Returns (relation, name) kept."""
    kept: list[tuple[str, str]] = []
    for found in _IN_PASSING.finditer(sentence):
        rel = found.group(1).lower()
        name = found.group(2)
        first = name.split()[0]
        if first.casefold() == "i" or a_day(first) or first.casefold() in UNSAID:
            continue
        fact = f"The owner's {rel} is called {name}."
        if any(
            f"{rel} is called {name}".casefold() in known.text.casefold()
            for known in turn.view.known
        ):
            continue
        if any(name in str(op.get("content", "")) for op in turn.ops):
            continue  # kept by its own pattern ("my sister Ana lives in Leeds" says who she is)
        turn.remember("people", f"{rel} {name.lower()}", fact)
        kept.append((rel, name))
    return kept


# A message the owner forwarded (contracts.relayed): kept in the chat, never read as theirs.
_RELAYED_REPLIES = (
    "That's from {origin}, not from you, so I won't file it as yours. What do you make of it?",
    "A message from {origin}! It stays in our chat, but not as something you said. Thoughts?",
    "Thanks for showing me what {origin} wrote. Tell me in your own words if any of it is about "
    "you, and I'll remember that.",
)


_NAMED_FIRST = lazy(
    r"^(?P<opener>(?:(?:actually|oh|sorry|wait|no|nope|well)[\s,]+)*)(?P<who>[^\W\d_][\w'’-]*)"
    r"(?P<rest>\s.*)$",
    re.IGNORECASE | re.DOTALL,
)


def respond(request: CompletionRequest) -> dict[str, Any]:
    """The reply-protocol object for one owner turn. Deterministic: same prompt, same answer."""
    view = PromptView.of(request)
    message = view.message
    seed = offline_talk.turn_seed(message, view.history_rows)
    turn = _Turn(view, seed)
    if not message:
        return {"reply": "I'm here.", "ops": []}
    origin = relayed.origin_of(message)
    if origin is not None:  # someone else's words the owner passed on: nothing filed as theirs
        reply = offline_talk.pick(_RELAYED_REPLIES, seed, view.pet_said)
        return {"reply": reply.format(origin=origin), "ops": []}
    # "my cousin texted me: "…"": someone else's words, pasted; "is that a scam?" about them next
    pasted = offline_pasted.on_paste(message, seed, view.pet_said)
    if pasted is None:
        pasted = offline_pasted.on_question(message, view.owner_recent)
    if pasted is not None:
        return {"reply": pasted, "ops": []}
    message = offline_nordic.read(message)  # "jeg hedder Freja": "my name is Freja"
    name = _answered_name(view, message)
    studied = offline_notes.read(message)  # "im tom, 2nd year law at leeds": more than a name
    alone = len(offline_talk.clauses(studied)) == 1 and not offline_intro.introduction(studied)
    if name is not None and alone:  # more ("my name is Zoe, based in Cork") is read below
        turn.remember("facts", "owner's name", f"The owner's name is {name}.")
        intro = _first_turn(view, request)  # "hi im ana" as the first line: who the pet is too
        told = f" {intro.replace(' ' + ASK_NAME, '')}" if intro else ""
        return {"reply": f"Nice to meet you, {name}!{told}", "ops": turn.ops}
    played = offline_banter.banter(offline_chat.plain(message), view.pet_last, seed, view.pet_said)
    if played is not None:  # a groan at its joke, a riddle, a complaint about it: no op
        return {"reply": played, "ops": []}
    addition = offline_additions.added(offline_chat.plain(message), view.entries)
    if addition is not None:  # "correction: I do bathrooms too, not only kitchens": it adds
        turn.remember(*addition.keep)
        return {"reply": addition.reply, "ops": turn.ops}
    last_said = view.owner_recent[-1] if view.owner_recent else ""
    listed = offline_lists.added(offline_chat.plain(message), view.entries, last_said)
    if listed is not None:  # "add to my list: call the bank", "and also coffee": the list kept
        turn.remember(*listed.keep)
        return {"reply": listed.reply, "ops": turn.ops}
    local_now = offline_proactive.find_now(request)
    hour = local_now.local.hour if local_now is not None else None
    reminded = False
    lines, turned = offline_back.turned_back(list(sentences(message)))  # "… What about you?"
    lines = offline_notes.joined(lines)  # a trip, then its dates: one line
    name_asked = ASK_NAME in view.pet_last
    if len(lines) > 1 and offline_intro.introduction(
        offline_chat.plain(offline_intro.joined(lines)), asked=name_asked
    ):
        lines = [offline_intro.joined(lines)]  # "ben here. just moved to Bristol": one introduction
    elif len(lines) == 1 and (parts := offline_intro.fragments(lines[0])) is not None:
        lines = parts  # "23, student in Glasgow": "I'm 23", "I'm a student in Glasgow"
    names = known_names(view)
    for at, sentence in enumerate(lines):
        # "my wife is priya": Priya; "tom is 8" when Tom is known
        as_meant = offline_slips.read(
            offline_likes.slang_love(offline_slang.read(offline_chat.plain(sentence)))
        )
        as_meant = offline_notes.read(as_meant)  # "exam is on wednesday": the owner's exam
        as_meant = offline_lists.heading(as_meant)  # "I need: milk, eggs": the shopping list
        as_meant = offline_dictated.kept(as_meant) or as_meant  # "jot down that …": the note
        s = offline_cased.cased(as_meant, names)
        # "sorry i meant brutus not bruno", "its 14 april" to its own gap: the line made whole
        mend = offline_mend.mended(s, view.owner_recent, view.pet_last) if at == 0 else None
        if mend is not None:
            s = offline_cased.cased(offline_slips.read(offline_chat.plain(mend.statement)), names)
            s = f"actually {s}" if mend.old else s
        ops_before = len(turn.ops)
        answer_opened = offline_answers.opening(s, view.pet_last, seed, view.pet_said)
        if answer_opened is not None:  # "not bad, just got a new job": glad, and the job
            turn.replies.append(answer_opened[0])
            s = answer_opened[1]
        s = _BREED_NAMED.sub(lambda m: _BREED_KIND[m["breed"].casefold()], s)
        s = _THE_OURS.sub(r"our \1 ", s)  # "the dogs are called Pepper and Salt": the owner's
        s = _NO_SUBJECT.sub(r"I \g<0>", s)  # "just moved to leeds!": the owner's "I" dropped
        s = _NO_SUBJECT_CLAUSE.sub(_with_subject, s)  # "born in glasgow, living in bristol now"
        s = _WE_LIVE.sub("I ", s)  # "we live in swansea": the household's home is the owner's
        s = _LIVING.sub("I live", s)  # "I'm based in Madrid": the owner's home
        s = _NOWADAYS.sub("", s)  # "these days im a driving instructor": what is, now
        # who "he", "she" or "they" may be: the nearest line that names someone, of the last few
        before = [  # read as the rules read them: "my daugther is called mila" names Mila
            offline_cased.cased(offline_chat.plain(said), names)
            for said in (*view.owner_recent[-3:], *lines[:at])
        ]
        # further back: the window's other lines and memory's statements, one each
        farther = offline_referent.farther_ones(  # the pet's last words too: "your wife Margit"
            [*view.owner_recent[:-3], re.sub(r"\b[Yy]our\b", "my", view.pet_last)],
            [k.text for k in view.known if k.source in ("memory", "about")],
            [e.title for e in view.entries if e.collection == "people"],
        )
        before = offline_referent.said_of_whom(before, farther)  # "she likes …": Margit's
        named_first = _NAMED_FIRST.match(s)  # "actually devi lives in york now": the sister's
        if named_first and not _is_question(s) and offline_talk.correction(s)[1]:
            who = by_relation(view, named_first["who"])  # the entry kept of "my sister", revised
            s = f"{named_first['opener']}{who}{named_first['rest']}" if who else s
        s = (  # "his name is Arjun" after "my sister just had a baby boy": the owner's nephew
            offline_newborn.named(s, [*view.owner_recent[-3:], *lines[:at]]) or s
        )
        referred = offline_referent.resolved(s, before, farther)  # "she's a doctor": "my friend …"
        s = referred.sentence if referred is not None else s
        if referred is None and _is_question(s) and not _REMIND.match(s):  # "her name?": mum's
            s = offline_referent.asked_of(s, before, farther) or s
        s = offline_habits.as_liking(s, [k.text for k in view.known])  # "what do I drink?"
        passed_on = offline_dictated.relay(s)  # "tell Sam I'll be late": it cannot send it
        reminder = (
            None
            if passed_on
            else offline_proactive.reminder(
                offline_dictated.weekly(s),
                local_now,  # "on Tuesdays": every Tuesday
            )
        )
        if passed_on is not None:
            turn.replies.append(passed_on)
            continue
        if reminder is None and at == 0:  # "at 8am" to the pet's "At what time should I …?"
            reminder = offline_proactive.reminder_follow_up(
                s,
                view.pet_last,
                offline_dictated.weekly(view.owner_recent[-1] if view.owner_recent else ""),
                local_now,
            )
        if reminder is not None:
            reminded = True  # "remind you that the bins go out", never "to the bins go out"
            turn.replies.append(offline_dictated.that_clause(reminder.reply))
            if reminder.op is not None:
                turn.propose(reminder.op)
        elif (summed := offline_sums.worked(s)) is not None:
            turn.replies.append(summed)  # "what's 15% of 80?", "100 divide by 4": worked out
        elif (trip := offline_notes.trip_asked(s, [k.text for k in view.known])) is not None:
            turn.replies.append(trip)  # "where am i going in may?": the trip kept
        elif (on_list := offline_lists.asked(s, view.entries)) is not None:
            turn.replies.append(on_list)  # "what do I need to buy?": the list kept, whole
        elif (habit := offline_habits.change(s)) is not None:
            turn.replies.append(habit.reply)  # "I don't drink coffee anymore, I switched to tea"
            turn.remember(*habit.keep)
        elif (habitual := offline_habits.asked(s, [k.text for k in view.known])) is not None:
            turn.replies.append(habitual)  # "what do I drink?": the habit kept, the new one
        elif (jotted := offline_dictated.noted(s)) is not None:
            turn.replies.append(jotted[0])  # "write down: dentist on the 12th at 3pm"
            turn.remember(*jotted[1])
        elif (noted := offline_notes.note(s)) is not None:
            turn.replies.append(noted.reply)  # "packing list: …", "mia has swimming thurs 5pm"
            turn.remember(*noted.keep)
        elif (missing := offline_lost.lost(view, offline_chat.plain(sentence))) is not None:
            turn.replies.append(missing)  # "have you seen my keys?": it cannot see, says so
        elif offline_lost.mislaid(s):  # "I can't find my keys": now, never a fact
            if not turn.replies:
                turn.replies.append(offline_lost.MISLAID)
        elif (born := offline_news.own_birthday(s, local_now, _owner_name(view))) is not None:
            turn.replies.append(born.reply)  # "it's my birthday today": a date, not "today"
            if born.keep is not None:
                turn.remember(*born.keep)
        elif (
            someone := offline_birthdays.birthday(
                offline_milestones.figures(s), local_now, relations(view)
            )
        ) is not None:
            turn.replies.append(someone.reply)  # "it's Idris's birthday on saturday, he'll be 45"
            turn.remember(*someone.keep)
        elif (grows := offline_milestones.said(s, local_now, relations(view))) is not None:
            turn.replies.append(grows.reply)  # "my daughter Ines turns seven next month"
            turn.remember(*grows.keep)
        elif (occasion := offline_occasions.said(s, local_now, relations(view))) is not None:
            turn.replies.append(occasion.reply)  # "my grandson Tom is getting married in August"
            turn.remember(*occasion.keep)
        elif (aged := offline_birthdays.age_asked(s, [k.text for k in view.known])) is not None:
            turn.replies.append(aged)  # "how old will Tom be?": the birthday kept says
        elif (setback := offline_setbacks.said(s, local_now, seed)) is not None:
            turn.replies.append(setback.reply)  # "I didn't pass my driving test": an event, dated
            turn.remember(*setback.keep)
        elif (baby := offline_newborn.born(s, local_now, seed)) is not None:
            turn.replies.append(baby.reply)  # "my sister just had a baby boy!": cheered, kept
            for newborn_kept in baby.keep:
                turn.remember(*newborn_kept)
        elif (skill := offline_skills.said(s, seed)) is not None:
            turn.replies.append(skill.reply)  # "my mum makes the best dal": kept about her
            for skill_kept in skill.keep:
                turn.remember(*skill_kept)
        elif (good_at := offline_skills.asked(s, [k.text for k in view.known])) is not None:
            turn.replies.append(good_at)  # "what is Mia good at?": "great at swimming" kept
        elif (feat := offline_feats.said(s, local_now, seed)) is not None:
            turn.replies.append(feat.reply)  # "I ran 5k in 28 minutes": praised, kept, dated
            turn.remember(*feat.keep)
        elif (done := offline_feats.asked(s, [k.text for k in view.known])) is not None:
            turn.replies.append(done)  # "how fast did I run?": the figure said
        elif (visit := offline_visits.said(s, local_now)) is not None:
            turn.replies.append(visit.reply)  # "my sister Gwen is visiting next friday": a date
            turn.remember(*visit.keep)
        elif (day := offline_visits.asked(s, [k.text for k in view.known])) is not None:
            turn.replies.append(day)  # "when is Gwen coming?": the date kept
        elif (journey := offline_journeys.said(s, local_now)) is not None:
            turn.replies.append(journey.reply)  # "we're going to Lisbon in March": kept, dated
            if journey.keep is not None:
                turn.remember(*journey.keep)
        elif (was := _former(turn, s)) is not None:
            turn.replies.append(was)  # "retired welder, 40 years at the shipyard": the past
        elif offline_former.asked(s):  # "what did I used to do?": the work of before
            kept = sorted(
                view.known,
                key=lambda k: (k.source not in ("recent", "recall"), k.order),
                reverse=True,
            )
            turn.replies.append(offline_former.answer([k.text for k in kept]))
        elif (glad := offline_days.better(s, seed, view.pet_said)) is not None:
            turn.replies.append(glad)  # "a bit better today, the surgery went well", "phew"
        elif (felt := offline_feelings.reply(s, seed, view.pet_said)) is not None:
            turn.replies.append(felt)  # "feeling a bit homesick tbh", "kinda burnt out": no op
        elif (thought := offline_gifts.idea(s, before, _gift_known(view), farther)) is not None:
            turn.replies.append(thought)  # "any idea what I should get him?": from what it keeps
        elif (respected := offline_days.not_talking(s, seed, view.pet_said)) is not None:
            turn.replies.append(respected)  # "i don't want to talk about it": never a fact
        elif (recounted := offline_recount.recount(view, s, seed, view.pet_said)) is not None:
            turn.replies.append(recounted)  # "what did I say about my sister?": every statement
        elif offline_recount.asks_all(s):
            turn.replies.append(_about_me(view))  # "what have I told you so far?"
        elif (again := offline_recount.said_again(s, view.pet_last)) is not None:
            turn.replies.append(again)  # "what did you say?": its last words again
        elif (kind := offline_kind.in_kind(s, _last_news(view), seed, view.pet_said)) is not None:
            turn.replies.append(kind)  # "what did you have for dinner": its own, and back
        elif (
            itself := offline_self.answer(
                s, _owner_name(view), _about_me_lines(view), seed, view.pet_said
            )
        ) is not None:
            turn.replies.append(itself)  # "do you remember me?", "can you forget things?"
        elif (forgotten := forget_request(s)) is not None and _SECRET.search(forgotten):
            turn.replies.append(
                "I never keep passwords or secrets in my memory, so there's nothing to forget. "
                "`shelldon vault` keeps those."
            )
        elif forgotten is not None:
            ops, said = offline_forget.forget(view, forgotten)
            for op in ops:
                turn.propose(op)
            turn.replies.append(said)
        elif (weighed := offline_ideas.idea(s, seed, view.pet_said)) is not None:
            turn.replies.append(weighed)  # "I'm thinking of learning the fiddle": not decided yet
        elif (nickname := offline_talk.goes_by(s)) is not None:
            _name_said(turn, nickname)  # "I'm Robert, but call me Bob": Bob, said once
        elif (
            introduced := offline_intro.introduction(s, asked=name_asked)
        ) is not None:  # "Oli here, …"
            _name_said(turn, introduced[0])
            for rest in introduced[1]:
                _statements(turn, rest)
        elif (name := offline_talk.said_name(s)) is not None:
            _name_said(turn, name)
            for rest in offline_talk.clauses(s)[1:]:  # "My name is Priya, and I'm a nurse"
                _statements(turn, rest)
        elif (name_given := offline_referent.named_reply(s, before, seed)) is not None:
            turn.replies.append(name_given)  # "his name is Theo", a friend's baby: nothing kept
        elif (regard := offline_praise.regard(s, seed, view.pet_said)) is not None:
            turn.replies.append(regard)  # "you're adorable", "shut up", "sorry, didn't mean it"
        elif (heard := offline_rules.heard_rule(s, seed)) is not None:
            turn.replies.append(heard)  # core keeps the rule itself: no op of the brain's
        elif (
            hello := offline_greet.greeting(s, seed, _owner_name(view), view.pet_said)
        ) is not None:
            asked = offline_days.follow_up(view.owner_recent, seed, view.pet_said)
            if asked is not None and "! " in hello:  # a hard day in the window: asked after
                hello = f"{hello.split('! ', 1)[0]}! {asked}"
            turn.replies.append(hello)  # "good morning ☀️", "evening all", "hola 👋"
        elif (so_so := offline_slang.verdict(s, seed, view.pet_said)) is not None:
            turn.replies.append(so_so)  # "these lecture notes are so mid": the thing, no fact
        elif offline_moods.mood(s) == "let down":  # "the roses didn't come up": never "so glad"
            turn.replies.append(offline_moods.reply("let down", seed, view.pet_said))
        elif (  # "my grandma passed last spring" is a loss, never "Yay for your grandma!"
            aside := offline_asides.aside(s, seed, view.pet_said)
        ) is not None and offline_talk.feeling(s) not in ("grief", "grief_apart"):
            turn.replies.append(aside)  # "😴", "call my dad", "why?", "sooo happy today"
        elif (
            reacted := offline_chat.reaction(s, seed, hour, _owner_name(view), view.pet_said)
        ) is not None:
            turn.replies.append(reacted)
        elif offline_chat.foreign(s):
            turn.replies.append(offline_talk.pick(offline_chat.FOREIGN, seed, view.pet_said))
        elif (
            answered := offline_answers.answer(s, view.pet_last, seed, view.pet_said)
        ) is not None:
            turn.replies.append(answered)  # "pretty good, went climbing" to "How are you?"
        elif (nodded := offline_nods.nod(s, view.pet_last, seed, view.pet_said)) is not None:
            turn.replies.append(nodded)  # "hmm", "right", "yep": agreed, or asked what it is
        elif offline_proactive.is_never_mind(s):
            turn.replies.append(offline_talk.pick(_NEVER_MIND_REPLIES, seed, view.pet_said))
        elif (felt := offline_talk.feeling(s)) is not None:
            turn.replies.append(offline_talk.feeling_reply(felt, seed, view.pet_said, s))
        elif (mood := offline_moods.mood(s)) is not None:  # "tired af", "my head is killing me"
            turn.replies.append(offline_moods.reply(mood, seed, view.pet_said, s))
        elif (opened := offline_open.answer(s, view, seed)) is not None:
            turn.replies.append(opened)  # "tell me something", "surprise me": its own, no gap
        elif (own_life := offline_chat.about_itself(s)) is not None:
            turn.replies.append(own_life)
        elif (joke := offline_talk.another_joke(s, view.pet_last, seed, view.pet_said)) is not None:
            turn.replies.append(joke)  # "another one" after a joke
        elif (about_itself := offline_talk.repertoire(s, seed)) is not None:
            turn.replies.append(about_itself)
        elif _GREETING.match(s) and len(content_words(s)) <= 3:
            name = _owner_name(view)
            turn.replies.append(f"Hello{', ' + name if name else ''}! Good to see you.")
        elif (thanked := _THANKS.match(s)) is not None:
            rest = s[thanked.end() :].strip(" ,.!")  # "thanks, goodnight": both are answered
            bye = offline_chat.parting(rest, seed, hour, _owner_name(view), view.pet_said)
            turn.replies.append(f"You're welcome! {bye}" if rest and bye else "You're welcome!")
        elif _HOW_ARE_YOU.match(s):
            turn.replies.append("I'm doing well, thanks for asking. How are you?")
        elif _ABOUT_ME.match(s):
            turn.replies.append(_about_me(view))
        elif _YOUR_NAME.match(s):
            turn.replies.append(f"My name is {_pet_name(request)}.")
        elif _WHO_ARE_YOU.match(s):
            turn.replies.append(
                f"I'm {_pet_name(request)}, your pocket pet. I remember what you tell me."
            )
        elif _SECRET.search(s) and not _is_question(s):
            turn.replies.append(
                "That sounds like a secret, so I won't keep it in my memory. "
                "`shelldon vault set` keeps secrets locked away."
            )
        elif _is_question(s) and (advised := offline_advice.advice(s, seed, view.pet_said)):
            turn.replies.append(advised)  # "do dogs go to heaven?": nobody knows, said gently
        elif _is_question(s) and (summed := offline_world.sum_of(s)) is not None:
            turn.replies.append(summed)
        elif _is_question(s) and (topical := offline_topics.answer(view, s, seed)) is not None:
            turn.replies.append(topical)
        elif _is_question(s) and (worldly := offline_world.answer(s, local_now)) is not None:
            turn.replies.append(worldly)
        elif _is_question(s):
            _answer(turn, s)
            # Memory first ("do I like the rain?"); what it does not know of the world outside
            # ("will it rain tomorrow?") is not the owner's to tell: no internet, said so.
            if (asked := by_relation(view, s)) is not None:
                # "when is Jo's birthday?" is "when is my wife's birthday?", and "what does Priya
                # do?" is what memory says of the best friend, not only her name
                first = turn.replies.pop()
                _answer(turn, asked)
                said = turn.replies[-1]
                if said.startswith(NOT_KNOWN) or (
                    " is called " in said and not first.startswith(NOT_KNOWN)
                ):
                    turn.replies[-1] = first
            if (
                turn.replies[-1].startswith(NOT_KNOWN) and not names_a_known_person(view, s)
            ) or offline_world.beside_the_point(s, turn.replies[-1]):
                turn.replies[-1] = _not_the_owners(view, s, seed) or turn.replies[-1]
        elif not _is_question(s) and (news := offline_news.heard(s, seed, view.pet_said)):
            turn.replies.append(news.reply)  # "my dad is in hospital", "im vegan now btw"
            if news.keep is not None:
                turn.remember(*news.keep)
        elif (order := offline_orders.ordered(s)) is not None:
            _ordered(turn, order)  # "I hate coriander, never suggest it": a fact and a promise
        else:
            _statements(turn, s)
        if mend is not None and mend.old and len(turn.ops) == ops_before and turn.replies:
            turn.replies[-1] = mend.heard()  # a plan put right: nothing kept, said back
        elif (
            mend is not None
            and mend.old
            and turn.replies
            and not any(turn.replies[-1].startswith(u) for u in _UPDATED)
        ):  # "a new job at the archive, congratulations!" again: an update, said as one
            content = str(turn.ops[-1].get("content", ""))
            said = lower_first(to_second_person(offline_cased.said_back(content)))
            turn.replies[-1] = offline_talk.pick(_UPDATED, seed, view.pet_said) + said
        whom = referred.who if referred is not None else offline_referent.about(s, before, farther)
        if whom is not None and turn.replies and turn.replies[-1] in _ACKNOWLEDGEMENTS:
            turn.replies[-1] = offline_referent.heard(whom, seed)  # "he's going to be …"
        named = [] if _is_question(s) else _named_in_passing(turn, s)
        if named and turn.replies and turn.replies[-1] in _ACKNOWLEDGEMENTS:  # what was heard
            rel, who = named[0]
            turn.replies[-1] = f"Oh, {who}! I'll remember {who} is your {rel}."
    # A first message about a reminder is just answered: that owner knows the pet already.
    intro = None if reminded else _first_turn(view, request)
    if intro is not None:  # the first turn ever: the reply, and the introduction with it, once
        if any(op.get("name") == "owner's name" for op in turn.ops):
            intro = intro.replace(" " + ASK_NAME, "")  # it was just told
        greeted = [g for r in turn.replies if (g := offline_greet.first_words(r))]
        small_talk = all(
            r in _ACKNOWLEDGEMENTS
            or r.startswith(("Hello", "Hey", "Hi", f"I'm {_pet_name(request)}, your pocket pet"))
            or offline_greet.first_words(r)
            for r in turn.replies
        )
        if small_talk and greeted:  # "good morning ☀️": "Good morning! I'm shelldon, …"
            intro = intro.replace("Hi, I'm", f"{greeted[0]}! I'm", 1)
        # A greeting, a bare acknowledgement or "who are you?" says less than the introduction
        # (which says who the pet is): it replaces them.
        turn.replies = [intro] if small_talk else [*turn.replies, intro]
    if turned and (back := offline_back.answer(lines, _pet_name(request), intro is not None)):
        turn.replies.append(back)  # the question turned back, answered of the pet itself
    if any(r.startswith("Nice to meet you") for r in turn.replies):  # "hi! I'm Dan": one hello
        turn.replies = [r for r in turn.replies if not r.startswith("Hello")] or turn.replies
        # "Good afternoon! Kwame here": the greeting back, without its own question beside a hello
        turn.replies = [re.sub(r"^(Good \w+!) .*\?$", r"\1", r) for r in turn.replies]
    # A bland acknowledgement beside a real reply only trails it ("That's wonderful! … I hear you.")
    meant = [r for r in turn.replies if r not in _ACKNOWLEDGEMENTS] or turn.replies
    gently = any(offline_talk.grieving(r) for r in (*meant, view.pet_last))  # beside a loss
    worded = [
        offline_talk.noted(r[len("Noted: ") :], seed + i, gently=gently)
        if r.startswith("Noted: ")
        else r
        for i, r in enumerate(merge_notes(meant))
    ]
    worded = openers_once(promise_once(worded))  # "I'll remember" once; never "Nice! … Nice!"
    worded = [  # a low day, then the grandma in it: consoled once, about the grandma
        r
        for i, r in enumerate(worded)
        if not (offline_talk.consoling(r) and any(_SORRY.search(x) for x in worded[i + 1 :]))
    ]
    return {"reply": " ".join(dict.fromkeys(_not_asked_again(worded, view))), "ops": turn.ops}


def _last_news(view: PromptView) -> str:
    """The owner's last statement in the window, said back in the second person ("" for none)."""
    last = [
        k
        for k in view.known
        if k.source == "recent"
        and len(k.text.split()) >= 4
        and offline_talk.said_name(k.text) is None
    ]
    if not last:
        return ""
    return lower_first(to_second_person(max(last, key=lambda k: k.order).text))


_SORRY = lazy(r"\b(?:sorry|poor)\b", re.IGNORECASE)
_REMIND = lazy(r"^(?:please\s+)?remind\b", re.IGNORECASE)  # "remind me to text her": her words


def _not_asked_again(replies: list[str], view: PromptView) -> list[str]:
    """The replies without a question the pet asked in one of its last two rows ("Do you miss
    it?" after a second thing from the past): a follow-up is asked once. A reply that is only
    that question stays."""
    if is_question(view.message):
        return replies  # asked again, the owner gets the answer again ("How about lasagne?")
    asked = " ".join(view.pet_recent[-2:])
    out: list[str] = []
    for reply in replies:
        said = re.split(r"(?<=[.!?])\s+", reply)
        kept = [s for s in said if not (s.endswith("?") and len(s.split()) >= 3 and s in asked)]
        out.append(" ".join(kept) if kept else reply)
    return out


def _not_the_owners(view: PromptView, question: str, seed: int) -> str | None:
    """What memory could not answer and the owner cannot teach either: the world outside
    ("will it rain tomorrow?": no internet), a how-to or an errand, general knowledge, or the
    pet's own life. None: it is the owner's to tell ("what's my favourite colour?")."""
    if offline_world.about_the_world(question):
        return offline_talk.pick(
            (offline_world.NO_INTERNET, offline_world.NO_INTERNET_AGAIN), 0, view.pet_said
        )
    return offline_world.cannot_help(question) or offline_chat.ponder(question, seed)


_ACKNOWLEDGEMENTS = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")


def _acknowledge(sentence: str, avoid: list[str]) -> str:
    return offline_talk.pick(_ACKNOWLEDGEMENTS, zlib.crc32(sentence.encode()), avoid)


class OfflineBrain:
    """A Provider that thinks by rules. No network, no randomness."""

    name = "offline"
    max_reply_chars: int | None = None
    budget_s: float | None = None
    retry_policy: RetryPolicy | None = None
    rule_based = True  # the chain's backstop (broker.answer) is these rules: not applied twice

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion:
        if request.purpose == "dream":
            return _dream(request)
        if request.purpose == "reflect":
            return _reflect(request)
        if request.purpose == "checkin":
            reply = {"reply": offline_checkin.checkin_text(request), "ops": []}
            return RawCompletion(text=json.dumps(reply, ensure_ascii=False))
        return RawCompletion(text=json.dumps(respond(request), ensure_ascii=False))


def _dream(request: CompletionRequest) -> RawCompletion:
    """The deterministic dream lives in shelldon.broker.offline_dream (`dream` -> text); imported
    here, not at the top, so a turn never pays for it."""
    from shelldon.broker.offline_dream import dream

    return RawCompletion(text=dream(request))


def _reflect(request: CompletionRequest) -> RawCompletion:
    """The deterministic reflection (shelldon.broker.offline_reflect), imported when asked."""
    from shelldon.broker.offline_reflect import reflect

    return RawCompletion(text=reflect(request))
