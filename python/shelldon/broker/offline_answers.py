"""The owner answering what the pet just asked, and small talk with no fact in it, read by
broker.offline (docs/brain.md, "Ninth pass: the first days").

The pet asks ("How are you?", "Want to talk about it?", "What would help right now?", "What are
you up to?"); the owner's next line is the answer, and is heard as one:

    How are you?               -> pretty good, went climbing   -> glad, and the climbing said back
    How are you holding up?    -> yeah long shift at work      -> heard warmly
    What would help right now? -> a bath would help            -> the bath wished for
    What are you up to?        -> just watching telly          -> what they are doing, enjoyed

and a line of small talk that says nothing lasting is answered as what it is, asked or not:
"nothing much really", "nm, just relaxing", "lying in bed scrolling", "idk what to say lol",
"its colder than paris here" (a comparison), "look at me, i baked bread 💪" (a boast). Each was
"Tell me more!", "Okay!" or "I hear you." before, or "not bad" read as a "meh" mood.

A line that holds a fact ("not bad, just got a new job at tesco", "my", "I'm a …", "called")
is left to the fact rules; a mood said as one ("im exhausted") to offline_moods and
offline_talk unless it answers "How are you?" gladly. Nothing is kept: no op. Replies vary by
the turn's seed and skip what the pet said in the window (offline_talk.pick); the pet's own
question is never asked again in its answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker import offline_moods
from shelldon.broker.offline_talk import feeling, pick
from shelldon.broker.offline_words import without_emoji
from shelldon.broker.patterns import lazy

# What the pet asks, by what it wants to hear.
_ASKED_HOW = lazy(
    r"how are you(?: feeling| doing)?\?|how(?:'s|’s| is| was) (?:your day|it going|things)|"
    r"how about you\?|what about you\?|how was it\?",
    re.IGNORECASE,
)
_ASKED_TALK = lazy(
    r"want to talk about it|what happened|what's weighing on you|what's wrong|holding up|"
    r"want to tell me about it|what's on your mind|how are you feeling\?",
    re.IGNORECASE,
)
_ASKED_HELP = lazy(r"what would help|what do you need|what would make it better", re.IGNORECASE)
_ASKED_DOING = lazy(r"what are you up to|what about you\?|how about you\?", re.IGNORECASE)
# A line that holds a fact, for the fact rules, not for small talk.
_HOLDS_A_FACT = lazy(
    r"\b(?:my|our|i'm an?|im an?|i am an?|i have|i've got|ive got|i work|i live|called|named|"
    r"got a new|got an?|started|my name|birthday|remember|forget|remind|living in|based in|"
    r"born in|(?:i'm|im|i am|originally|come|comes) from|moved|working (?:as|at|for|in)|"
    r"studying|learning|"
    # a plan is offline_life's: "going to the gym later"
    r"later|tomorrow|tonight|next|this weekend|soon|at \d)\b",
    re.IGNORECASE,
)
_GLAD = lazy(
    r"^(?:(?:yeah|yes|yep|oh|honestly|actually|it was|it's been|its been|i'm|im|all|pretty|"
    r"really|very|super|so|quite)[\s,]+)*"
    r"(?:good|great|fine|not bad|not too bad|alright|all right|ok|okay|lovely|brilliant|"
    r"amazing|awesome|fab|fantastic|grand|decent|nice|wonderful|chill|productive|fun)\b",
    re.IGNORECASE,
)
_HARD = lazy(
    r"\b(?:(?<!not )(?<!too )bad|awful|rough|crazy|hectic|long|hard|tired|stress\w*|busy|"
    r"rubbish|terrible|"
    r"horrible|shattered|knackered|exhausted|draining|mad|insane|nightmare|ugh|sucked|sucks|"
    r"tough|meh|sad|lonely|sick|not great|not good|could be better)\b",
    re.IGNORECASE,
)
# An answer's opening, then more: "not bad, just got a new job", "rough day tbh. my boss …".
_OPENED = lazy(
    r"^(?P<open>(?:(?:yeah|yes|oh|honestly|pretty|really|very|so|quite|not)\s+)*"
    r"(?:good|great|fine|bad|not bad|not too bad|alright|ok|okay|lovely|amazing|awesome|rough|"
    r"awful|long|busy|hectic|tired|meh)(?:\s+(?:day|thanks|thank you|ty))?)"
    r"\s*[,;.!-]+\s*(?P<rest>\S.*)$",
    re.IGNORECASE,
)
_NO = lazy(
    r"^(?:no|nah|nope|not really|not now|maybe later|i'm ok|im ok|it's fine|its fine)\b",
    re.IGNORECASE,
)
_NAMES = lazy(r"\b(?:called|named|name is|i'm an?|im an?|i am an?)\b", re.IGNORECASE)
_SAID_BY_I = lazy(r"^(?:i|i'd|id|i'm|im|we)\b", re.IGNORECASE)
_YES = lazy(r"^(?:yeah|yes|yep|ya|yea|i guess|kind of|kinda|a bit)\b", re.IGNORECASE)
# "went climbing", "been gardening all day", "did some baking": what filled the day.
_DID = lazy(
    r"(?:^(?:just |finally )?|\b)(?:went|been|was|did some|did a bit of|spent the day|"
    r"spent all day|out)\s+"
    r"(?P<doing>[a-z]+ing)\b",
    re.IGNORECASE,
)
_WANTS = lazy(
    r"^(?:(?:honestly|just|i|i just|probably|maybe)\s+)*(?:need|want|could use|could do with|"
    r"would love)\s+(?:a |an |some |my )?(?P<thing>[\w' -]{2,30}?)[\s!.]*$"
    r"|^(?:(?:a|an|some|my)\s+)?(?P<thing2>[\w' -]{2,30}?)\s+would (?:help|be nice|be good)",
    re.IGNORECASE,
)
_NOTHING_MUCH = lazy(
    r"^(?:oh |well |um+ |eh )?(?:not much|nothing much|nothing really|nothing|nm|nmu|not a lot|"
    r"same old(?: same old)?|the usual|same as always|meh|dunno|idk|i don't know|not sure)"
    r"(?P<rest>(?:[\s,]+[\w']+)*)[\s!.]*$",
    re.IGNORECASE,
)
_NOT_DOING = frozenset(
    re.findall(
        r"\S+",
        "nothing something anything everything morning evening thing king ring spring string "
        "wedding building ceiling darling pudding sibling bring sing wing swing feeling going "
        "getting heading leaving coming starting",
    )
)
_DOING = lazy(
    r"^(?:(?:just|still|currently|rn|now|only|been|busy|mostly)\s+)*(?P<doing>[a-z]+ing)\b"
    r"(?:\s+[\w']+){0,6}[\s!.]*$",
    re.IGNORECASE,
)
_NO_WORDS = lazy(r"\b(?:idk|dunno|don't know|not sure) what to (?:say|talk about|do)\b", re.I)
_THAN = lazy(
    r"^(?:it'?s|its|it is|this is|that'?s|thats|way|so)\s+(?:(?:way|so|much|a lot|even|kinda|"
    r"a bit|bit|loads|far)\s+)*(?P<cmp>[a-z]+er|more \w+|less \w+) than\b",
    re.IGNORECASE,
)
_BOAST = lazy(
    r"^(?:check me out|look at me|go me|yay me|nice one me|proud of myself|"
    r"look what i did|i did it)\b|\b(?:all )?by myself\b|\bmyself\b.*[😎💪🎉]|\bfrom scratch\b",
    re.IGNORECASE,
)
_GLAD_REPLIES = (
    "Glad to hear it!",
    "That's good to hear!",
    "Nice, I'm glad!",
)
_DID_REPLIES = (
    "{Doing}? That sounds like a good day. What was the best bit?",
    "Ooh, {doing}! Sounds like fun. Are you tired now?",
)
_HARD_REPLIES = (
    "That sounds like a lot. Thanks for telling me; I'm here, and you can rest now.",
    "Oh, that sounds tiring. I'm glad you're done with it. Be gentle with yourself tonight.",
)
_NO_REPLIES = ("That's okay. I'm here if you change your mind.", "Alright. I'm right here.")
_WANT_REPLIES = (
    "Then {thing} it is! You deserve it.",
    "{Thing} sounds just right. Go on, treat yourself.",
)
_DOING_REPLIES = (
    "{Doing}? I'm happy keeping you company while you do.",
    "Ooh, {doing}. Enjoy it! I'll be right here.",
)
_NOTHING_REPLIES = (
    "Quiet ones are nice too. I'm happy just hanging out with you.",
    "Fair enough! Nothing much is allowed. Want a joke while we sit here?",
)
_NO_WORDS_REPLIES = (
    "That's okay! We can just hang out. Or ask me for a joke, or tell me one thing from today.",
)
_THAN_REPLIES = (
    "{Cmp}? I'll take your word for it: from inside your pocket every day looks the same. 🙂",
    "{Cmp}, really? Lucky you. Or unlucky, I can't tell from in here!",
)
_BOAST_REPLIES = (
    "Look at you go! That's properly impressive. 🎉",
    "Well done you! I'm proud of you.",
)


def answer(sentence: str, pet_last: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's word for a line that answers what it just asked (`pet_last`, its last row) or
    is small talk with no fact; None for any other line. A line read as a mood is the mood
    rules' (a glad answer to "How are you?" is still taken: "not bad" is no "meh")."""
    text = without_emoji(sentence).strip().rstrip("!.?")
    mood = feeling(text) is not None or offline_moods.mood(text) is not None
    if text and "?" not in sentence and _BOAST.search(text) and not _NAMES.search(text):
        return pick(_BOAST_REPLIES, seed, avoid)  # "i fixed my bike all by myself"
    if not text or _HOLDS_A_FACT.search(text) or len(text.split()) > 12 or "?" in sentence:
        return None
    asked = _last_question(pet_last)
    said = None
    glad = _GLAD.match(text) is not None and not _HARD.search(text)  # "ok i guess, long day"
    if asked is not None and _ASKED_HOW.search(asked) and glad:
        said = _glad(text, seed, avoid)
    if said is None and mood:
        return None  # offline_moods or offline_talk answers a mood said as one
    if said is None and (
        (asked is not None and _ASKED_HELP.search(asked)) or not _SAID_BY_I.match(text)
    ):
        said = _wanted(text, seed, avoid)  # "a bath would help", "just need coffee"
    feelings = asked is not None and any(
        p.search(asked) for p in (_ASKED_TALK, _ASKED_HELP, _ASKED_HOW)
    )
    if said is None and feelings and _NO.match(text):
        said = pick(_NO_REPLIES, seed, avoid)
    elif said is None and feelings and _HARD.search(text):
        said = pick(_HARD_REPLIES, seed, avoid)  # "yeah long shift at the hospital"
    elif said is None and asked is not None and _ASKED_TALK.search(asked) and _YES.match(text):
        said = pick(_HARD_REPLIES, seed, avoid)
    return said or _small_talk(text, seed, avoid)


def opening(
    sentence: str, pet_last: str, seed: int, avoid: Sequence[str] = ()
) -> tuple[str, str] | None:
    """ "not bad, just got a new job at tesco" to "How are you?": the answer's word for its
    opening ("not bad") and the rest, a fact for the fact rules to keep; None when the line is
    no such answer."""
    asked = _last_question(pet_last)
    found = _OPENED.match(sentence.strip())
    if asked is None or found is None or not _HOLDS_A_FACT.search(found.group("rest")):
        return None
    if not any(p.search(asked) for p in (_ASKED_HOW, _ASKED_TALK)):
        return None
    said = pick(_GLAD_REPLIES if _GLAD.match(found.group("open")) else _HARD_REPLIES, seed, avoid)
    return said, found.group("rest")


def _last_question(pet_last: str) -> str | None:
    """Every question the pet's last row asked, as one ("How are you holding up? … What's your
    name?": both were asked, the first is still the one a feeling answers)."""
    asked = [q for q in re.split(r"(?<=[.!?])\s+", pet_last) if q.endswith("?")]
    return " ".join(asked) if asked else None


def _glad(text: str, seed: int, avoid: Sequence[str]) -> str:
    did = _DID.search(text)
    if did is None:
        return pick(_GLAD_REPLIES, seed, avoid)
    doing = did.group("doing").casefold()
    said = pick(_DID_REPLIES, seed, avoid).format(doing=doing, Doing=doing.capitalize())
    return f"{pick(_GLAD_REPLIES, seed)} {said}"


def _wanted(text: str, seed: int, avoid: Sequence[str]) -> str | None:
    found = _WANTS.match(text)
    if found is None:
        return None
    thing = (found.group("thing") or found.group("thing2") or "").strip()
    if thing.casefold().startswith(("to ", "you", "it ", "that")):
        return None  # "need to call the bank": an errand, not a wish
    return pick(_WANT_REPLIES, seed, avoid).format(thing=thing, Thing=thing.capitalize())


def _small_talk(text: str, seed: int, avoid: Sequence[str]) -> str | None:
    """Small talk with no fact: nothing much, what they are doing now, no words, a comparison,
    a boast."""
    if _BOAST.search(text):
        return pick(_BOAST_REPLIES, seed, avoid)
    if _NO_WORDS.search(text):
        return pick(_NO_WORDS_REPLIES, seed, avoid)
    if (did := _DID.match(text)) is not None:  # "went swimming" (its "I" dropped)
        doing = did.group("doing").casefold()
        return pick(_DID_REPLIES, seed, avoid).format(doing=doing, Doing=doing.capitalize())
    if (than := _THAN.match(text)) is not None:
        cmp = than.group("cmp").casefold()
        return pick(_THAN_REPLIES, seed, avoid).format(Cmp=cmp.capitalize())
    nothing = _NOTHING_MUCH.match(text)
    rest = nothing.group("rest").strip(" ,") if nothing else text
    doing = _DOING.match(rest)
    if doing is not None and doing.group("doing").casefold() not in _NOT_DOING:
        words = rest[doing.start("doing") :].split()[:4]  # "lying in bed scrolling"
        what = " ".join(words).casefold().rstrip(" !.,")
        return pick(_DOING_REPLIES, seed, avoid).format(doing=what, Doing=what.capitalize())
    if nothing is not None and not rest.split()[1:]:  # "nothing much really", not "idk why …"
        return pick(_NOTHING_REPLIES, seed, avoid)
    return None
