"""What a pet on a phone hears between facts, read by broker.offline (docs/brain.md, "The audit
pass: a pet on a phone"):

- `aside`, before the rules that read facts: a line that is only emoji (sleepy, love, party, a
  wave, food), an errand an offline pocket pet cannot run ("call my dad", "can you order a
  taxi", "play some music": said plainly, by what the errand needs, with a reminder offered when
  one would help), a follow-up about the pet's last line ("why?", "really?", "are you sure?",
  "what do you think?"), and joy said without "I'm" ("sooo happy today": shared, never "well
  done");
- `event`, when no rule took a statement: something that happened, to the owner or to someone
  of theirs ("we saw a film last night", "my train got cancelled", "my dad retired today", "it
  didn't hurt at all"), met by how it went (glad, sorry, or "how did it go?"), and an opinion
  ("I think summer is better than winter"). Nothing is kept: history holds what happened.

Replies vary by the turn's seed (offline_talk.pick, which also avoids what the pet just said),
never by chance.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import feeling, pick
from shelldon.broker.offline_words import KIN, KIN_GROUPS, OTHERS, alternation, to_second_person
from shelldon.broker.patterns import lazy

# --- emoji only ---------------------------------------------------------------------------------

_EMOJI = (
    (
        "😴💤🥱🛌",
        (
            "Sleepy? Off to bed with you, I'll keep watch. 💤",
            "Yawn... it's catching! Get some rest, I'll be here.",
        ),
    ),
    (
        "❤️❤💕💖💗💓💞😘🥰😍😻♥️♥🫶",
        ("Aww, right back at you! 💕", "Stop it, you'll make my shell blush. ❤️"),
    ),
    (
        "🎉🥳🎊🍾🥂",
        ("Ooh, are we celebrating? What's the occasion?", "Party time! 🎉 What happened?"),
    ),
    ("👋🙋", ("Hi there! 👋 What's up?", "*waves back* Hello, you!")),
    (
        "🍕🍔🍟🌮🍣🍜🍝🍩🍰🍫🍦🍪☕🍺🍷",
        ("Yum! Is that what you're having? Save me a crumb.", "Ooh, snack time? Enjoy it!"),
    ),
)
_NOT_EMOJI = lazy(r"[\w]")
_JOINERS = lazy(r"[\s\u200d\ufe0f\U0001f3fb-\U0001f3ff\u2640\u2642!.?]+")


def _emoji(text: str, seed: int, avoid: Sequence[str]) -> str | None:
    if not text or _NOT_EMOJI.search(text):
        return None
    marks = _JOINERS.sub("", text)
    for chars, replies in _EMOJI:
        if marks and all(c in chars for c in marks):
            return pick(replies, seed, avoid)
    return None


# --- errands ------------------------------------------------------------------------------------

_ERRAND = lazy(
    r"^(?:(?:can|could|would|will) (?:you|u) (?:please |pls )?|please |pls )?"
    r"(?P<verb>call|ring|phone|text|message|whatsapp|e-?mail|send|order|buy|get me|book|reserve|"
    r"pay|turn (?:on|off)|switch (?:on|off)|unlock|lock|drive|pick up|fetch|bring|"
    r"play (?:\w+ ){0,2}(?:music|songs?|playlist|tunes?|radio|podcasts?|album))"
    r"(?!(?<=call) me\b|(?<=ring) me\b|(?<=text) me\b|(?<=message) me\b)"
    r"(?P<rest>(?: [^?!.]*)?)[\s?!.]*$",
    re.IGNORECASE,
)
_ERRAND_NEEDS = (
    (("call", "ring", "phone"), "make calls", True),
    (("text", "message", "whatsapp", "email", "e-mail", "send"), "send messages", True),
    (("order", "buy", "get me", "pay"), "buy things", True),
    (("book", "reserve"), "book things", True),
    (("pick up", "fetch", "bring", "drive"), "go anywhere", True),
    (("play",), "play music", False),
)
_FOR_ME = lazy(r"\s+(?:for me|for us|please|pls)\b|^\s*me\b", re.IGNORECASE)


def _errand(text: str) -> str | None:
    found = _ERRAND.match(text)
    if found is None:
        return None
    verb = found["verb"].lower()
    need, nudge = next(
        ((n, r) for verbs, n, r in _ERRAND_NEEDS if verb.startswith(verbs)),
        ("work anything in your home", False),
    )
    said = f"I can't {need} from in here: I'm a pocket pet with no hands, and offline I have no "
    said += "internet either."
    if not nudge:
        return said
    todo = f"{found['verb'].lower()}{_FOR_ME.sub('', found['rest'])}".strip()
    return f'{said} I can remind you to do it, though: say "remind me to {todo} at 6".'


# --- follow-ups ---------------------------------------------------------------------------------

_FOLLOW_UP = lazy(
    r"^(?:(?:hmm+|hm+|but|and|so|oh|ok|wait)[\s,]+)*"
    r"(?:(?P<why>why+|why not|how come|how so)|"
    r"(?P<really>really+|seriously|for real|no way|is that (?:so|true|right))|"
    r"(?P<sure>(?:are )?(?:you|u) sure)|"
    r"(?P<think>what do (?:you|u) think|(?:and )?what about you|wbu|hbu|and you))"
    r"[\s?!.]*$",
    re.IGNORECASE,
)
_FOLLOWED = {
    "why": (
        "Good question! I'm a small offline pet, so my reasons are small too. What do you think?",
        "Hmm, you've got me there. I only know what you've told me. Why do you ask?",
    ),
    "really": (
        "Really! Well, as far as a pocket pet can tell. 🙂",
        "Cross my little shell! Does that surprise you?",
    ),
    "sure": (
        "Pretty sure! But I'm a small offline brain, so tell me if I've got it wrong.",
        "As sure as a pocket pet can be. Did I get something mixed up?",
    ),
    "think": (
        "Me? I think you might be onto something! Though my opinions are mostly about naps.",
        "I'm on your side, always. What got you thinking about it?",
        "Honestly? I'd have to nap on it. What's your gut say?",
    ),
}


def _follow_up(text: str, seed: int, avoid: Sequence[str]) -> str | None:
    found = _FOLLOW_UP.match(text)
    if found is None or found.lastgroup is None:
        return None
    return pick(_FOLLOWED[found.lastgroup], seed, avoid)


# --- joy without "I'm" --------------------------------------------------------------------------

_JOY = lazy(
    r"^(?:(?:i'm|i am|im|feeling|feelin|feel)\s+)?(?:so+|sooo+|really|very|super|soo+ so+)?\s*"
    r"(?P<how>happy|excited|glad|thrilled|stoked|buzzing|over the moon|on top of the world|"
    r"hyped)(?:\s+(?:today|tonight|rn|right now|atm|now))?[\s!.:)]*$",
    re.IGNORECASE,
)
_JOYFUL = (
    "Yay! I love it when you're {how}. What's got you smiling?",
    "That makes my shell glow! I'm so glad. 😊 What happened?",
)


def _joy(text: str, seed: int, avoid: Sequence[str]) -> str | None:
    found = _JOY.match(text)
    if found is None or feeling(text) is not None:  # "I'm so excited!!" has its own words
        return None
    return pick(_JOYFUL, seed, avoid).format(how=found["how"].lower())


# A word on the weather, as small talk ("nice weather today", "grim day out"): never a plan
# to wish luck for, nor news to praise. The pet cannot see the sky: it only answers the mood.
_FINE = r"nice|lovely|gorgeous|beautiful|glorious|great|amazing|perfect|sunny|warm|fab|bright"
_GRIM = (
    r"horrible|awful|terrible|miserable|grim|rubbish|crap|crappy|grey|gray|dreary|foul|cold|"
    r"rainy|wet|windy|foggy|misty|freezing|chilly"
)
# "nice weather", any word; "a grey morning", only a word of the sky ("a great day" is the
# owner's day, not the weather).
_SKY = (
    r"sunny|warm|bright|gorgeous|cold|grey|gray|dreary|rainy|wet|windy|foggy|misty|freezing|"
    r"chilly"
)
_WEATHER = lazy(
    rf"^(?:(?:such|what) (?:a )?)?(?:(?:so|really|very|pretty) )?(?:(?P<how>{_FINE}|{_GRIM})\s+"
    rf"(?:weather|sunshine|sun)|(?P<sky>{_SKY})\s+(?:day|morning|evening|afternoon|one))"
    r"(?:\s+(?:today|tonight|out|outside|there|again|innit|eh|huh|here|this \w+))*[\s!.,]*"
    r"(?:lol|tbh|ngl)?[\W_]*$",
    re.IGNORECASE,
)
_SUNNY = ("Ooh, enjoy it! Soak up some sun for me. ☀️", "Lovely! Will you get out in it?")
_GLOOMY = ("Ugh, stay cosy! A good day for a warm drink.", "Boo. Stay warm and dry out there!")


# "its freezing here today", "it's raining again": the weather said as it is (the tenth pass:
# it was "I hope the its freezing here goes well!", a plan)
_IT_IS = lazy(
    r"^(?:it's|its|it’s|it is) (?:(?:so|really|very|absolutely|bloody|pretty|super|kinda|soo+) )*"
    rf"(?P<how>{_SKY}|hot|boiling|baking|lovely|nice|raining|pouring|snowing|hailing|"
    r"blowing a gale)"
    r"(?:\s+(?:here|out|outside|today|tonight|again|in here|out there|this \w+))*[\s!.,]*"
    r"(?:lol|tbh|ngl)?[\W_]*$",
    re.IGNORECASE,
)


def _weather(s: str, seed: int, avoid: Sequence[str]) -> str | None:
    found = _WEATHER.match(s) or _IT_IS.match(s)
    if found is None:
        return None
    how = found.groupdict().get("how") or found.groupdict().get("sky") or ""
    fine = re.fullmatch(rf"{_FINE}|hot|boiling|baking", how, re.IGNORECASE) is not None
    return pick(_SUNNY if fine else _GLOOMY, seed, avoid)


# A stretch that is a lot, said as now: "work is a lot", "life's so hectic right now".
_NOW_HECTIC = lazy(
    r"^(?:work|life|school|uni|college|things|everything|this week|my job|the kids)"
    r"(?:'s| is| are| has been| have been) (?:(?:so|really|very|super|just|a bit|kinda|pretty) )?"
    r"(?:a lot|crazy|hectic|mad|manic|busy|full[- ]on|non-?stop|chaos|chaotic|exhausting|intense|"
    r"overwhelming|too much)\b",
    re.IGNORECASE,
)
_NOW_A_LOT = (
    "That sounds like a lot right now. Be gentle with yourself. 🐚",
    "Phew. I hope you find a quiet moment soon. Anything I can keep track of for you?",
)


def _now_hectic(s: str, seed: int, avoid: Sequence[str]) -> str | None:
    return pick(_NOW_A_LOT, seed, avoid) if _NOW_HECTIC.match(s) and "?" not in s else None


def aside(text: str, seed: int, avoid: Sequence[str] = ()) -> str | None:
    """The pet's answer to an emoji-only line, an errand, a follow-up, the weather, a stretch
    that is a lot, or joy (see the module); None for any other line."""
    s = text.strip()
    for said in (
        _emoji(s, seed, avoid),
        _errand(s),
        _follow_up(s, seed, avoid),
        _weather(s, seed, avoid),
        _now_hectic(s, seed, avoid),
    ):
        if said is not None:
            return said
    return _joy(s, seed, avoid)


# --- what happened ------------------------------------------------------------------------------

_PAST = lazy(
    r"\b(?:was|were|went|got|had|did|saw|met|ate|ran|lost|won|passed|broke|made|took|came|left|"
    r"spent|bought|finished|tried|watched|played|cooked|retired|quit|fell|forgot|"
    r"(?!(?:need|red|bed|tired|bored|scared|stressed|excited|worried|married)\b)\w{3,}ed)\b|"
    r"\b(?:today|yesterday|last night|this morning|earlier|after work|burnt|spilt|slept|woke|"
    r"drove|flew|wrote|pregnant|engaged|getting married|"
    r"expecting(?: (?:a baby|a boy|a girl|twins)|(?=[\s!.]*$))|"
    r"didn't|did not|wasn't|"
    r"weren't)\b",
    re.IGNORECASE,
)
_UNDONE = lazy(
    r"\b(?:didn't|did not|wasn't|was not|not|no)\s+(?:\w+\s+)?(?:hurt|bad|awful|terrible|"
    r"painful|scary|boring|too bad)\b",
    re.IGNORECASE,
)
_GOOD = lazy(
    r"\b(?:fun|great|amazing|awesome|brilliant|lovely|wonderful|fantastic|good|nice|well|perfect|"
    r"best|celebrat\w*|baby|beautiful|delicious|cool|epic|class|incredible)\b",
    re.IGNORECASE,
)
# Something achieved: congratulated, whoever did it.
_DONE = lazy(
    r"\b(?:promoted|promotion|engaged|married|pregnant|passed|won|finished|graduated|"
    r"expecting(?: (?:a baby|a boy|a girl|twins|our (?:first|second)|a little one)|"
    r"(?=[\s!.]*$))|"
    r"retired|new job|got the job|got in|aced|nailed|first (?:tooth|steps?|words?))\b",  # a first
    re.IGNORECASE,
)
# A small mishap ("I burnt the toast"): a giggle and a "poor you", not a hard day.
_MISHAP = lazy(
    r"\b(?:burnt|burned|spil+t|spil+ed|knocked|dropped|tripped|ate my|stole my)\b", re.IGNORECASE
)
_BAD = lazy(
    r"\b(?:cancel+ed|lost(?! (?:his|her|their|my|our) first\b)|failed|broke|broken|awful|"
    r"terrible|horrible|bad|worst|missed|hurt|sick|"
    r"ill|surgery|operation|hospital|ran away|died|dumped|fired|crashed|stolen|rain\w*|late|"
    r"awkward|boring|disaster|spil+t|spil+ed|burnt|burned|knocked|ruined|argument|fight|"
    r"delayed|flooded|badly|stressful|a nightmare)\b",
    re.IGNORECASE,
)
# A day that was a lot, not a bad one: "work was crazy today", "the kids were up all night".
_HECTIC = lazy(
    r"\b(?:crazy|hectic|mad|manic|busy|full[- ]on|non-?stop|chaos|chaotic|exhausting|draining|"
    r"intense|up all night|long (?:day|shift|week|night)|"
    r"(?:day|shift|week|night) (?:was|has been) (?:so |really |very |super )?long)\b",
    re.IGNORECASE,
)
# Neither good nor bad: "work was fine", "school was ok".
_SO_SO = lazy(
    r"\b(?:was|were|went) (?:(?:just|pretty|fairly) )?(?:fine|ok|okay|alright|all right|so-so|"
    r"meh|not bad|average|uneventful)\b",
    re.IGNORECASE,
)
_FUNNY = lazy(r"\b(?:lol|lmao|haha\w*)\b|[😂🤣😆😅]", re.IGNORECASE)
_SOMEONE = lazy(
    r"^(?:my|our) (?P<who>(?:best |little |big |older |younger )?"
    rf"(?:{alternation(*KIN, *OTHERS, *KIN_GROUPS)}))\b",
    re.IGNORECASE,
)
_HOW_WAS = lazy(
    r"\b(?:had|have) (?:a |an |my |the |our )?(?P<had>(?:[\w-]+ ){0,2}(?:interview|exam|test|"
    r"appointment|meeting|date|lesson|class|match|game|party|check-?up|presentation|session))\b|"
    r"\bwent (?:to (?P<to>(?:the |a |my |our )?[\w'-]+)|(?P<ing>\w+ing))\b",
    re.IGNORECASE,
)
_THEIRS_GOOD = (
    "Oh, that's wonderful news! Tell your {who} congratulations from me.",
    "Yay for your {who}! You must be so happy for them.",
    "How exciting for your {who}! I'm so happy for them.",
)
_THEIRS_BAD = (
    "Oh no, your {who}! I hope they're okay. How are you feeling about it?",
    "That's hard news. I'm sorry. Give your {who} a hug from me.",
    "I'm sorry to hear that. Your {who} is lucky to have you looking out for them.",
)
_WENT_WELL = (
    "That sounds lovely! I'm so glad. What was the best bit?",
    "Ooh, that sounds like fun! I'm glad it went well.",
    "Yay, I'm happy to hear that! 😊",
)
_ACHIEVED = (
    "Congratulations! That's a big deal. How are you celebrating?",
    "Wow, you did it! I'm so proud of you.",
    "Yes! Congrats, that's brilliant news.",
)
_WENT_BADLY = (
    "Oh no, that sounds rotten. I'm sorry. Are you okay?",
    "Ugh, what a pain. Sorry that happened. Want to tell me about it?",
    "Oh, that's a shame. I'm sorry. I hope the rest of the day is kinder.",
)
_WENT_HECTIC = (
    "Sounds like a full-on day! Did you get a moment to breathe?",
    "Phew, that's a lot. I hope you get some quiet time now.",
)
_WENT_SO_SO = (
    "An ordinary one, then. Anything small and good in it?",
    "Fine is fine! Was there a best bit?",
)
_WENT_FUNNY = (
    "Haha, oh no! Poor you. Was it a total mess?",
    "Oops! 😄 One of those days, huh? Sorry, it did make me giggle.",
    "Oh no, poor you! 😄 At least it makes a good story.",
)
# Something the owner did ("we saw a film", "I went swimming"), to ask how it went.
_DID = lazy(r"^(?:i|we|me and \w+|\w+ and i)\b(?! (?:was|were)\b)", re.IGNORECASE)
_HOW_DID = ("Oh, how was {x}?", "And how did {x} go?", "Ooh! How was it?", "Oh? And how was it?")
_OPINION = lazy(
    r"^(?:i (?:think|reckon|feel like|believe)|imo|honestly)\b|"
    r"\b(?:is|are) (?:way |so |much )?(?:better|worse|overrated|underrated) (?:than\b)?",
    re.IGNORECASE,
)
_OPINED = (
    "Ha, a bold opinion! I think I agree. What makes you say so?",
    "Ooh, I like how you think. Would anyone argue with you on that?",
)


def event(text: str, seed: int, avoid: Sequence[str] = (), alone: bool = True) -> str | None:
    """The pet's answer to something that happened or an opinion, when no fact rule took the
    line; None when the line says neither. Not `alone` (the turn already has a reply: "I'm
    exhausted. I had three meetings …"), "how was it?" is not asked: the line said."""
    s = " ".join(text.split()).strip()
    if "?" in s:
        return None
    if _OPINION.search(s):
        return pick(_OPINED, seed, avoid)
    if not _PAST.search(s):
        return None
    done = bool(_DONE.search(s))
    good = bool(done or _GOOD.search(s) or _UNDONE.search(s))
    bad = bool(_BAD.search(_UNDONE.sub("", s)))
    someone = _SOMEONE.match(s)
    if someone is not None and (good or bad):
        who = someone["who"].lower()
        return pick(_THEIRS_BAD if bad else _THEIRS_GOOD, seed, avoid).format(who=who)
    if _MISHAP.search(s) or _FUNNY.search(s):
        return pick(_WENT_FUNNY, seed, avoid)
    if done and not bad:
        return pick(_ACHIEVED, seed, avoid)
    if not good and _HECTIC.search(s):
        return pick(_WENT_HECTIC, seed, avoid)
    if bad:
        return pick(_WENT_BADLY, seed, avoid)
    if good:
        return pick(_WENT_WELL, seed, avoid)
    if _SO_SO.search(s):
        return pick(_WENT_SO_SO, seed, avoid)
    if not alone or not _DID.match(s):
        return None  # "the weather was odd today" says how it was: nothing to ask
    how = _HOW_WAS.search(s)
    if how is None:
        return pick(_HOW_DID[2:], seed, avoid)  # "Ooh! How was it?", "Oh? And how was it?"
    what = f"the {how['had']}" if how["had"] else how["to"] or how["ing"]
    return pick(_HOW_DID, seed, avoid).format(x=to_second_person(what).rstrip("."))
