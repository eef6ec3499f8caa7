"""What the owner tells of their life that broker.offline's fact shapes do not take, answered
like a pet that listens (a word about it and a question back), and kept when it lasts:

- what they have: "we have two cats, Pixel and Byte", "I've got three kids" -> kept
  ("The owner has two cats, Pixel and Byte."), named by what it is ("cats");
- what they are learning or took up: "I started learning the guitar", "I'm learning Spanish" ->
  kept ("The owner is learning the guitar.");
- a new job: "I got a new job at Siemens" -> kept under `job` (the name "what's my job?" finds);
- the past (`used_to`, a clause the fact rules read last): "I used to live in Berlin" -> kept as
  the past ("The owner used to live in Berlin."), never as where the owner lives now;
- what they play or do regularly ("I play football on Sundays"), how they eat ("I'm vegan") -> kept;
- a fact about someone named before ("Sofia loves dinosaurs", `about_someone`) -> kept in
  people/ by the person and what it says;
- a plan or an event: "I have a meeting tomorrow", "my mum is visiting next week" -> wished
  well, its day said back, not kept (history keeps it, recall finds it); a trip back: "I just
  got back from Japan" -> welcomed back, asked how it was.

`told` is None for anything else; the caller then acknowledges as before. Each kept sentence is
the owner's own words turned to the third person (broker.offline_words), one fact per op. Over
400 lines because each shape of a life told here shares the reply helpers and kept-fact wording
below; a pastime said by its craft's verb has its own module (broker.offline_pastimes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from shelldon.broker import offline_past
from shelldon.broker.offline_words import (
    ANIMALS,
    KIN,
    KIN_GROUPS,
    OCCUPATIONS,
    WEEKDAYS,
    alternation,
    lower_first,
    plurals,
    to_second_person,
    to_third_person,
)
from shelldon.broker.patterns import lazy

_WHEN = (
    r"(?:tomorrow|tonight|today|this (?:morning|afternoon|evening|week|weekend)|next \w+|"
    rf"on (?:{alternation(*WEEKDAYS)})|later|soon|in \w+ (?:days?|weeks?|hours?))"
)
_EVENT = lazy(
    rf"^(?:i|we)(?:'ve| have)? (?:have|got|'ve got) (?:a|an|my|our) ([\w -]+?) {_WHEN}\b"
    rf"|^(?:my|our) ([\w -]+?) (?:is|are) (?:visiting|coming(?: over| round)?|arriving) "
    rf"(?:\w+ )?{_WHEN}?",
    re.IGNORECASE,
)
_WHEN_SAID = lazy(_WHEN, re.IGNORECASE)
_BACK_FROM = lazy(
    r"^(?:i|we) (?:just |finally )?(?:got|came|am|'m|are|'re) back from ([\w' -]+?)\s*[.!]*$",
    re.IGNORECASE,
)
_HAVE = lazy(
    r"^(?:i|we)(?:'ve| have)? (?:have|got|'ve got|own|keep) "
    r"(?:(?P<n>a|an|one|two|three|four|five|six|some|\d+) |(?=twins\b))"
    rf"(?P<what>(?:[a-z]+ )?(?:{alternation(*plurals(*KIN, *ANIMALS), *KIN_GROUPS)}|twins|"
    r"cars?|bikes?|motorbikes?|boats?|gardens?|houses?|flats?))"
    r"(?P<rest>[^.!?]*)",
    re.IGNORECASE,
)
_LEARNING = lazy(
    r"^(?:i|we)(?:'m| am|'re| are|'ve been| have been| just| recently)* "
    r"(?:started |began |am |'m )?(?:learning|taking up|studying|practising|practicing) "
    r"(?P<what>[\w' -]+?)(?: (?:last|this) \w+| recently| again)?\s*[.!]*$",
    re.IGNORECASE,
)
# What the owner studies ("I study physics", "I'm doing a degree in law"): their subject.
_STUDIES = lazy(
    r"^(?:i(?: also| still| now)? (?:study|major in)|i(?:'m| am) (?:majoring in|doing (?:a|my) "
    r"(?:degree|masters|master's|phd|course|diploma) in)) "
    r"(?!(?:at|in|on|for|with|from|to|hard|a lot|late|every|all|most|some|too|really|so|loads|"
    r"lots|alone|together|online|abroad|part[- ]time|full[- ]time)\b)"
    r"(?P<what>[\w' -]+?)(?: at (?P<where>[\w' -]+?))?\s*[.!]*$",
    re.IGNORECASE,
)
# A baby on the way, the owner's household's: "we're expecting a boy in March".
_EXPECTING = lazy(
    r"^(?:we(?:'re| are)|i(?:'m| am)) (?:(?:now|finally|officially) )?expecting "
    r"(?P<what>(?:a |our (?:first|second|"
    r"third) )?(?:baby(?: boy| girl)?|boy|girl|twins|little one)|another baby)"
    r"(?P<when> (?:in|this|next|around|at the end of|by) [\w ]+?)?\s*[.!]*$",
    re.IGNORECASE,
)
_BABY = ("Congratulations!! 🍼 {x}! I'll remember.", "Oh, how wonderful! {x}! I'll remember. 🍼")
_STUDY = ("Ooh, {x}! I'll remember that's what you study. How are you finding it?",)
_NEW_JOB = lazy(
    r"^i (?:just |finally )?(?:got|started|found|landed) a new job"
    r"(?P<rest> (?:at|with|as) [\w' &.-]+)?",
    re.IGNORECASE,
)
_PLAY = lazy(
    r"^(?:i|we) (?:play|go|do) (?P<what>(?:football|soccer|tennis|basketball|chess|golf|the \w+|"
    r"piano|guitar|violin|drums|bass|cello|flute|sax(?:ophone)?|trumpet|ukulele|clarinet|keys|"
    r"yoga|pilates|climbing|running|swimming|hiking|cycling|"
    r"badminton|volleyball|squash|rugby|hockey|cricket|board games|video games|[a-z]+ball)"
    r"(?: [\w -]+)?)\s*[.!]*$",
    re.IGNORECASE,
)
# "I'm vegan now btw", "im sober now, 6 months": a change is the same entry, said as it is now
# (how long is the owner's to tell again; the gate revises facts/diet).
_DIET = lazy(
    r"^i(?:'m| am) (?:a |now |fully |mostly |strictly |officially )*(?P<what>vegetarian|vegan|"
    r"veggie|pescatarian|pescetarian|gluten[- ]free|dairy[- ]free|plant[- ]based|"
    r"lactose[- ]intolerant|teetotal|sober|alcohol[- ]free|diabetic|coeliac|celiac)\b"
    r"(?:\s+(?:now|these days|nowadays|again))*"
    r"(?:[\s,]+(?:for |since )?(?:\d+|a|one|two|three|six) (?:days?|weeks?|months?|years?)"
    r"(?: now)?)?\s*[.!]*$",
    re.IGNORECASE,
)
_SIMPLE_NAME = lazy(r"[^\w ]+")
# "I used to live in Berlin": a fact about the past, kept as it was said (never as the present);
# what follows "but" or "now" is the present, read by the rules clause by clause.
_USED_TO = lazy(
    r"^(?:i|we) used to (?P<what>.+?)(?:,? (?:but|and now|now|these days)\b.*)?[\s.!]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Told:
    """The pet's reply, and the fact to keep (collection, name, content) when it lasts."""

    reply: str
    keep: tuple[str, str, str] | None = None


# The replies, by class; {x} is what the owner said, back in the second person.
_BACK = ("Welcome back from {x}! How was it?", "Oh, {x}! Welcome back. What was the best part?")
_PLAN = ("That sounds like a plan. I hope it goes well!", "Oh, good to know. I hope it goes well!")
_HAS = (
    "Oh, {x} I'll remember that. Tell me about them?",
    "How lovely: {x} I'll keep that in mind.",
)
_LEARNS = (
    "Learning {x}, nice! How is it going so far?",
    "Ooh, {x}! I'll remember you're learning it. What got you started?",
)
_PLAYS = ("{X} Sounds fun! I'll remember.", "Nice: {x} I'll keep that in mind.")
_USED = (
    "Oh, you used to {x}? I'll remember that. Do you miss it?",
    "Once upon a time you used to {x}! I'll keep that in mind. What was it like?",
    "So you used to {x}! I'll remember that. How long ago was it?",
)


def used_to(sentence: str, seed: int, alone: bool = True) -> Told | None:
    """ "I used to live in Berlin": kept as the past, asked about (not when the line goes on to
    the present: "…, now I love them"); the past said other ways (broker.offline_past) too; None
    for any other clause."""
    plain = " ".join(sentence.split()).strip()
    if (m := _USED_TO.match(plain)) is None:
        said = offline_past.before(plain, seed)  # "previously …", "moved away from …"
        return None if said is None else Told(*said)
    what = m.group("what").strip()
    keep = ("facts", _name(f"used to {what}"), _third(f"I used to {what}"))
    options = _USED if alone else _USED[2:]
    reply = _say(options, seed, to_second_person(what).rstrip("."))
    return Told(reply if alone else reply.split("!")[0] + "!", keep)  # the present says it


def told(sentence: str, seed: int) -> Told | None:
    """The pet's answer to one sentence of the owner's life, or None (see the module)."""
    s = " ".join(sentence.split()).strip().rstrip(".")  # "… at the library." one of several
    if (m := _BACK_FROM.match(s)) is not None:
        return Told(_say(_BACK, seed, m.group(1)))
    if (event := _EVENT.match(s)) is not None:
        if (day := _WHEN_SAID.search(s) if event.group(1) else None) is not None:  # its day said
            said = f"Your {event.group(1)} {day.group(0)}, noted. I hope it goes well!"
            return Told(f"{_CALM}{said}" if _NERVES.search(s) else said)  # "… im so stressed"
        return Told(_say(_PLAN, seed, ""))
    if (m := _HAVE.match(s)) is not None:
        what = m.group("what").lower()
        keep = ("people" if _PEOPLE.search(what) else "facts", _name(what), _third(s))
        return Told(_say(_HAS, seed, _said(s)), keep)
    if (m := _EXPECTING.match(s)) is not None:
        what = m.group("what").lower()
        what = f"a baby {what}" if what in ("boy", "girl") else what
        what = what if what.startswith(("a ", "our ", "another", "twins")) else f"a {what}"
        when = (m.group("when") or "").rstrip()
        kept = f"The owner is expecting {to_third_person(what).rstrip('.').lower()}{when}."
        said = to_second_person(f"{what}{when}").rstrip(".")
        return Told(_say(_BABY, seed, said[:1].upper() + said[1:]), ("facts", "baby", kept))
    if (m := _STUDIES.match(s)) is not None:
        what = m.group("what").strip()
        where = f" at {m.group('where').strip()}" if m.group("where") else ""
        keep = ("facts", "studies", f"The owner studies {lower_first(what)}{where}.")
        return Told(_say(_STUDY, seed, to_second_person(what).rstrip(".")), keep)
    if (m := _LEARNING.match(s)) is not None:
        what = m.group("what").strip()
        # "my old iPhone" is the owner's: theirs in the fact, "your" said back.
        kept = lower_first(to_third_person(what).rstrip("."))
        keep = ("facts", _name(f"learning {what}"), f"The owner is learning {kept}.")
        said = to_second_person(what).rstrip(".")
        # "Ooh, to jailbreak …!" reads wrong: an infinitive takes the "Learning …" wording.
        options = _LEARNS[:1] if said.lower().startswith("to ") else _LEARNS
        return Told(_say(options, seed, said), keep)
    if (m := _NEW_JOB.match(s)) is not None:
        where = f" {m.group('rest').strip()}" if m.group("rest") else ""
        reply = f"A new job{where}, congratulations! How are you finding it?"
        return Told(reply, ("facts", "job", f"The owner got a new job{where}."))
    if (m := _PLAY.match(s)) is not None:
        keep = ("preferences", _name(m.group("what").split(" on ")[0]), _third(s))
        return Told(_say(_PLAYS, seed, _said(s)), keep)
    if (m := _DIET.match(s)) is not None:
        what = m.group("what").lower()
        reply = f"Got it, you're {what}. I'll keep that in mind when we talk about food."
        if re.search(r"\b(?:now|these days|nowadays|since|for|months?|years?)\b", s, re.I):
            reply = f"Oh, {what} now! Good to know, I'll keep that in mind. How's it going?"
        return Told(reply, ("facts", "diet", f"The owner is {what}."))
    return None


_PERSON_SAYS = lazy(
    r"^(?P<name>[A-Z][\w'’-]+) (?P<verb>loves|likes|adores|enjoys|hates|plays|collects|studies|"
    r"works|lives|goes to|wants|is learning|is into|is scared of|is afraid of) (?P<what>[^.!?]+)"
    r"[.!]*$"
)
# "Zoe is a vet": a named person's work (only a word of work: "Zoe is a nightmare" is no fact).
_PERSON_WORK = lazy(
    rf"^(?P<name>[A-Z][\w'’-]+) is (?:a|an) (?P<what>(?:[\w-]+ )?(?:{alternation(*OCCUPATIONS)}))"
    r"[.!]*$"
)
# "Leo is 7": a named person's age, said as "how old is Leo?" is answered.
_PERSON_AGE = lazy(r"^(?P<name>[A-Z][\w'’-]+) is (?P<age>\d{1,3})(?: years? old| yo)?[.!]*$")
_AGED = ("{x}, what a lovely age! I'll remember.", "Oh, {x}. I'll keep that in mind.")
_ABOUT = (
    "{X}, how nice! I'll remember that.",
    "Oh, I'll remember that {x}.",
    "Good to know: {x}. I'll keep it in mind.",
)
_NOT_A_TOPIC = frozenset({"the", "a", "an", "to", "his", "her", "their", "my", "our"})


def about_someone(sentence: str, seed: int, names: frozenset[str]) -> Told | None:
    """ "Sofia loves dinosaurs": a fact about someone the owner has named before (`names`, as
    written), kept in people/ by the person and what it says; None for anyone else ("Everyone
    loves pizza")."""
    s = " ".join(sentence.split()).strip()
    aged = _PERSON_AGE.match(s)
    if aged is not None and aged.group("name") in names:
        fact = f"{aged.group('name')} is {aged.group('age')} years old"
        return Told(_say(_AGED, seed, fact), ("people", _name(f"{aged['name']} age"), fact + "."))
    work = _PERSON_WORK.match(s)
    if work is not None and work.group("name") in names:
        fact = s.rstrip(".!")
        keep = ("people", _name(f"{work['name']} work"), f"{fact}.")
        return Told(_say(_ABOUT, seed, fact), keep)
    m = _PERSON_SAYS.match(s)
    if m is None or m.group("name") not in names:
        return None
    fact = s.rstrip(".!") + "."
    first = next((w for w in m.group("what").lower().split() if w not in _NOT_A_TOPIC), "")
    name = _name(f"{m.group('name')} {m.group('verb')} {first}")
    return Told(_say(_ABOUT, seed, fact[:-1]), ("people", name, fact))


def _say(options: Sequence[str], seed: int, said: str) -> str:
    return options[seed % len(options)].format(x=said, X=said[:1].upper() + said[1:])


_PEOPLE = lazy(rf"\b(?:{alternation(*plurals(*KIN), *KIN_GROUPS)})\b")


def _said(sentence: str) -> str:
    """The owner's sentence said back to them, as one sentence."""
    said = to_second_person(_third(sentence))
    return lower_first(said)


def _third(sentence: str) -> str:
    text = sentence.strip().rstrip(".!")
    text = re.sub(r"^we\b", "I", text, flags=re.IGNORECASE)  # "we have two cats": the household's
    text = re.sub(r"^I(?:'ve| have) got\b|^I've\b", "I have", text, flags=re.IGNORECASE)
    third = to_third_person(text)
    return third[:1].upper() + third[1:].rstrip(".") + "."


def _name(what: str) -> str:
    return " ".join(_SIMPLE_NAME.sub(" ", what.lower()).split()[:5])


# --- plans with a day ---------------------------------------------------------------------------

_DAY = (
    r"(?:today|tonight|tomorrow|tmrw|tmr|this (?:morning|afternoon|evening|week|weekend)|"
    r"next (?:week|month|year|weekend|mon|tue|wed|thu|fri|sat|sun)\w*|(?:on )?(?:mon|tues|wednes|"
    r"thurs|fri|satur|sun)day|(?:on )?the \d{1,2}(?:st|nd|rd|th)|at \d{1,2}(?::\d\d)?\s*(?:am|pm)?|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm)|in \w+ (?:days?|weeks?|hours?))"
)
# "dentist thursday at 3", "flight to Rome on friday!", "exam next tuesday, wish me luck": a
# short line naming what and when, with no verb of the owner's.
_PLAN_LINE = lazy(
    rf"^(?:(?:i(?:'ve| have)?|we(?:'ve| have)?) (?:got|have) |got |off to |going to |"
    rf"heading to |i'm going to |we're going to )?(?:a |an |my |our |the )?"
    rf"(?P<what>[\w' -]{{2,40}}?)[\s,]+{_DAY}\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_LUCK = lazy(
    r"\b(?:exam|exams|test|interview|audition|presentation|match|game|race|finals?|assessment|"
    r"review|pitch|surgery|operation|viva|defen[cs]e|deadline|wish me luck)\b",
    re.IGNORECASE,
)
_FUN = lazy(
    r"\b(?:party|flight|trip|holiday|vacation|concert|gig|date|wedding|festival|dinner|drinks|"
    r"birthday|cinema|movie|show|picnic|barbecue|bbq|weekend away|sleepover|mum's|mom's|"
    r"parents'|gran's|nan's)\b",
    re.IGNORECASE,
)
_VISIT = lazy(r"\b(?:dentist|doctor|doctor's|gp|vet|hospital|hairdresser|barber|optician)\b", re.I)
# A verb or a subject in what comes before the day: a statement, not a plan's name.
_SAYS_HOW = lazy(
    r"\b(?:is|was|were|are|am|be|been|being|did|do|does|had|has|have|felt|feel|feels|seems?|"
    r"looks?|went|goes|go|i|we|he|she|it|they|you|[\w']+ed|"
    # a past said without "-ed" ("my little girl lost her first tooth today"): news, not a plan
    r"lost|won|broke|fell|got|made|took|gave|found|came|saw|ate|wrote|began|bought|caught|"
    r"told|left|met|paid|sold|sent|spent|built|drove|rode|swam|sang|forgot|hurt|threw|grew|"
    r"became|ran|said|slept|woke|wore|won)\b",
    re.IGNORECASE,
)
_WISH = lazy(r"^(?:happy|merry|congrats|congratulations|good luck|well done)\b", re.IGNORECASE)
# Nerves about what is coming ("I have english exam next monday, I am nervous"): the eleventh
# pass wished it luck and left the nerves unheard.
_NERVES = lazy(
    r"\b(?:nervous|anxious|worried|scared|dreading|stressed|terrified|bricking it)\b", re.I
)
_CALM = "Feeling nervous sounds normal: it shows it matters to you. "
_NUDGE = (' Want a nudge? Say "remind me" and when, and I will.', "")


# "I'm going hiking with my dad later", "we're going camping this weekend", "seeing my mum
# tomorrow": a plan said in full, by what the owner is doing and when.
_GOING = lazy(
    r"^(?:(?:i'm|i’m|im|i am|we're|we’re|we are|gonna be)\s+)?(?:just\s+|finally\s+)?"
    r"(?P<doing>going|off|heading|seeing|meeting|having|visiting|playing|hosting|cooking|"
    r"watching|taking|getting|doing|grabbing)\s+(?P<what>[^,.!?]{2,60}?)\s*,?\s+"
    rf"(?P<when>later(?: on| today| tonight)?|{_DAY}|this (?:weekend|evening))"
    # "… on saturday with my sister": who or where after the when is part of the plan
    r"(?P<with>\s+(?:with|at|in|for) [^,.!?]{2,40}?)?[\s!.]*$",
    re.IGNORECASE,
)
_NOT_FUN = lazy(
    r"\b(?:bad|awful|terrible|rough|hard|tough|horrible|crap|shit|nightmare|worst|sick|ill|"
    r"headache|migraine|cold|flu|fever|trouble|problem|problems|panic|breakdown|late|back)\b",
    re.IGNORECASE,
)
_GOING_FUN = (
    "Ooh, {x}! Have fun, and tell me all about it after.",
    "{X}? Lovely! Enjoy it.",
)


def plan(sentence: str, seed: int) -> Told | None:
    """A plan told in a few words ("dentist thursday at 3") or in full ("I'm going hiking with
    my dad later"): wished well by what it is, and a reminder offered; nothing kept (history
    holds it, and a reminder is the owner's to ask)."""
    s = " ".join(sentence.split()).strip(" .!")
    going = _GOING.match(s)
    if going is not None and "?" not in s:
        doing = f"{going['doing']} {going['what']}{going['with'] or ''}".strip()
        if _LUCK.search(doing):
            return Told(f"Good luck with {_the(to_second_person(going['what']).rstrip('.'))}!")
        if _VISIT.search(doing):
            return Told(
                f"Good luck at the {_VISIT.findall(doing)[-1].lower()}! I hope it goes well."
            )
        if not _NOT_FUN.search(doing):
            when = f" {going['when']}" if _WHEN_SAID.fullmatch(going["when"]) else ""  # "on Wed"
            what = f"{going['what']}{when}{going['with'] or ''}"
            x = to_second_person(f"{going['doing'].lower()} {what}").rstrip(".")
            return Told(_say(_GOING_FUN, seed, x))
    found = _PLAN_LINE.match(s)
    if found is None or len(s.split()) > 10 or "?" in s or _SAYS_HOW.search(found["what"]):
        return None  # "the weather was odd today" says how something is: no plan
    if _WISH.match(s):
        return None  # "happy birthday to my mum today" is a wish, not a plan
    if re.search(r"\b(?:didn't|did not|wasn't|was not|weren't|was|were|went)\b", found["what"]):
        return None  # "the sourdough didn't rise at all today": what happened, no plan
    what = to_second_person(found.group("what").strip()).rstrip(".")
    nudge = _NUDGE[seed % len(_NUDGE)]
    if _LUCK.search(s):
        nerves = _CALM if _NERVES.search(s) else ""  # "…, I am nervous": heard, then the luck
        return Told(f"{nerves}Good luck with {_the(what)}! You've got this.{nudge}")
    if _VISIT.search(what):
        return Told(
            f"Good luck at the {_VISIT.findall(what)[-1].lower()}! I hope it goes well.{nudge}"
        )
    if _FUN.search(s):
        return Told(f"Ooh, {_the(what, 'a')}! Have fun, and tell me how it went.")
    return Told(f"I hope {_the(what)} goes well!{nudge}")


def _the(what: str, article: str = "the") -> str:
    """ "exam" -> "the exam", "your exam" stays; a name or a possessive keeps its own."""
    if re.match(r"^(?:your|the|a|an)\b|^[A-Z]", what):
        return what
    return f"{article} {what}"
