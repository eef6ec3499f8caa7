"""How the owner feels, said the way people type it, read by broker.offline after
offline_talk.feeling (docs/brain.md, "The audit pass: chat as owners type it"):

- a mood with no "I'm" ("so tired", "stressed about money", "excited!!"; offline_chat.plain has
  already dropped the "rn", "af" and held letters of "soooo tired rn");
- a state said with a negation ("didn't sleep at all", "not feeling great", "can't be
  bothered"), which offline_talk.feeling leaves alone so "I'm not tired" is never read as tired;
- being unwell ("my head is killing me", "my back hurts", "got a cold", "feeling rough");
- the worst of a day ("had the worst day", "what a week");
- a shrug ("meh", "ugh", "bleh") or a lukewarm day ("it was okay I guess", "not bad");
- trouble with a thing, right now ("my phone is dying", "the wifi is down"): how a thing is, not
  what it is, so never kept (broker.offline's fact rules leave it too).

`mood` gives the kind ("ill", "sleepless", "tired", "low", "high", "meh", "trouble", "power")
or None (`within`: the same for a part of a longer line); `reply` the pet's words,
varied by the turn's seed (offline_talk.pick). Nothing here is kept: how the owner feels today is
history's, not memory's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import feeling_reply, pick
from shelldon.broker.patterns import lazy

_SO = (
    r"(?:(?:so|really|very|super|kinda|kind of|a bit|pretty|totally|just|feeling|been|too|still|"
    r"quite|a little|bit)\s+)*"
)
_BARE = {
    "tired": "tired|exhausted|knackered|shattered|sleepy|drained|wiped out|burnt out|burned out",
    "low": "stressed|anxious|worried|nervous|sad|lonely|upset|miserable|depressed|overwhelmed|"
    "frustrated|annoyed|angry|fed up|heartbroken|down in the dumps|freaking out|panicking|"
    "dreading it",
    # "happy birthday!" is a wish, not a mood.
    "high": r"happy(?!\s+(?:new year|holidays|\w+day|\w+mas|anniversary|easter|hour))|excited|"
    "thrilled|stoked|buzzing|pumped|over the moon",
    # Not "ill" ("ill be there" is "I'll") nor "rough" ("rough day" is a day, not an illness).
    "ill": "sick|unwell|poorly|under the weather",
}
_MOODS = (
    # Unwell: a part of the owner that hurts, an illness caught, feeling rough.
    (
        "ill",
        lazy(
            r"^(?:my|the) (?:head|back|tummy|stomach|throat|tooth|teeth|ear|ears|eyes?|knee|"
            r"neck|leg|arm|foot|feet|chest)\s+(?:is |are |'s )?"
            r"(?:so |really |very |super |a bit |kinda )*(?:killing me|hurts?|hurting|aches?|"
            r"aching|sore|is sore|are sore|is pounding|pounding|is throbbing)\b"
            r"|^(?:i(?:'ve| have)? )?(?:got|have|caught|picked up) (?:a |the |some )?(?:cold|flu|"
            r"fever|headache|migraine|sore throat|cough|bug|stomach bug|covid|toothache|"
            r"back ache|backache|earache|temperature)\b"
            r"|^(?:i (?:think|feel like|reckon) )?i(?:'m| am) (?:coming down|going down) with\b"
            r"|^(?:(?:i )?(?:think|feel like|reckon) )?(?:i(?:'m| am) |i might be )?"
            r"(?:getting|catching|fighting(?: off)?) (?:a |the |some )?(?:cold|flu|fever|"
            r"sore throat|cough|bug|stomach bug|covid|migraine|headache|something)\b"
            r"|^(?:i )?(?:feel|feeling|felt)\s+(?:so |really |a bit |kinda )*(?:sick|ill|"
            r"unwell|poorly|rough|awful|crap|like crap|like death|under the weather|dizzy|"
            r"nauseous|queasy)\b",
            re.IGNORECASE,
        ),
    ),
    # An ache in the body, said as people say it: "my knee is playing up again", "my calves
    # are screaming", "pulled a hamstring" (the fourteenth pass: "Tell me more!" before).
    (
        "ache",
        lazy(
            r"(?:^|\b(?:and|but|now|plus)\s+|,\s*)(?:my|the|both) (?:head|back|lower back|tummy|"
            r"stomach|throat|tooth|teeth|ears?|eyes?|knees?|neck|legs?|arms?|foot|feet|chest|hips?|"
            r"shoulders?|wrists?|ankles?|elbows?|calf|calves|hands?|fingers?|thumbs?|toes?|joints|"
            r"muscles|jaw|gums|hamstrings?|thighs?|shins?|bones|sciatica|arthritis)\s+"
            r"(?:is |are |'s |has been |have been |keeps? )?(?:still |so |really |very |super |"
            r"a bit |kinda |properly )*(?:killing me|hurts?|hurting|aches?|aching|sore|is sore|"
            r"are sore|is pounding|pounding|is throbbing|throbbing|playing up|acting up|"
            r"flaring up|giving me (?:grief|gyp|jip|hell|trouble|bother)|screaming|in bits|"
            r"in agony|agony|stiff|swollen|seized up|locked|bad again|bothering me|"
            r"(?:is |are )?not (?:great|good|happy))\b"
            r"|^(?:i(?:'ve| have)? )?(?:(?:hurt|pulled|twisted|sprained|tweaked|strained|done) "
            r"(?:my|a) (?:back|knee|ankle|wrist|shoulder|hamstring|calf|neck|muscle|hip))\b",
            re.IGNORECASE,
        ),
    ),
    # A good thing said with "not": a let-down ("the tomatoes didn't do well", "the sourdough
    # didn't rise at all"), never met as glad (the fourteenth pass: "I'm so glad." before).
    (
        "let down",
        lazy(
            r"\b(?:didn't|did not|didnt|wasn't|was not|weren't|hasn't|haven't|couldn't|won't)\s+"
            r"(?:\w+\s+)??(?:go (?:well|to plan|great)|do (?:well|great|much)|come up|turn out|"
            r"work(?: out)?|rise|grow|take|germinate|flower|sprout|set|start|happen|show up|"
            r"turn up|make it|get in|pass|win|(?:very |that |so |much )?(?:fun|great|good|nice))\b",
            re.IGNORECASE,
        ),
    ),
    # A state said with a negation: offline_talk.feeling reads no "not" on purpose.
    (
        "sleepless",
        lazy(
            r"^(?:ugh|sigh|argh)?[\s,.!]*(?:i )?(?:didn't|did not|couldn't|could not|can't|"
            r"cannot|barely|hardly) (?:sleep|slept|get any sleep|get to sleep)\b"
            r"|^(?:ugh|sigh)?[\s,.!]*(?:no|zero|not much|hardly any) sleep\b",
            re.IGNORECASE,
        ),
    ),
    (
        "low",
        lazy(
            r"^(?:i(?:'m| am) |i feel |i'm feeling |i am feeling |honestly )?not (?:feeling )?"
            r"(?:so |too |very |that |really )?(?:great|good|well|ok|okay|happy|the best|"
            r"my best|myself|100%)\b"
            r"|^(?:i )?(?:can't|cannot|couldn't) be bothered\b"
            r"|^(?:(?:i(?:'ve)? )?had |it was |it's been |what )?(?:the|a|such a)?\s*"
            r"(?:worst|crappiest|shittiest|longest|hardest) (?:day|week|night|morning|shift)\b"
            r"|^what a (?:day|week|night|morning)\b",
            re.IGNORECASE,
        ),
    ),
    *(
        (kind, lazy(rf"^{_SO}(?:{words})\b(?!\s+(?:of|with|at|for|to)\b)", re.IGNORECASE))
        for kind, words in _BARE.items()
    ),
)
_MEH = lazy(r"^(?:meh+|bleh+|blah+|ugh+|urgh+|sigh+|eh|nah)[\s!.…]*$", re.IGNORECASE)
# Lukewarm: "it was okay I guess", "not bad", "so-so", "could be worse".
_LUKEWARM = lazy(
    r"\b(?:ok|okay|fine|alright|all right)(?:,)? i guess\b|^(?:it was |it's been |i'm |)"
    r"(?:not bad|so-so|so so|could be worse|could be better|same old(?: same old)?|"
    r"nothing special)\b",
    re.IGNORECASE,
)
# Trouble with a thing, right now: "my phone is dying", "my laptop just died", "wifi is down".
_TROUBLE = lazy(
    r"^(?:my |the |our )?(?:phone|battery|laptop|computer|pc|tablet|car|bike|wifi|wi-fi|"
    r"internet|printer|boiler|heating|washing machine|fridge|headphones|charger)\b[\w' ]{0,12}?"
    r"(?:is |'s |just |has |keeps )*(?:dying|died|dead|broken|broke|broke down|playing up|"
    r"acting up|not working|stopped working|down|crashed|crashing|on \d{1,2}\s*%|flat|low)\b",
    re.IGNORECASE,
)
_REPLIES = {
    "ill": (
        "Oh no, I'm sorry you're feeling poorly. Rest up, drink some water, and be gentle "
        "with yourself.",
        "Poor you! I hope you feel better soon. Is there anything that helps a little?",
        "That sounds miserable, I'm sorry. Take it easy today if you can.",
    ),
    "let down": (
        "Oh, what a let-down. I'm sorry, after all that effort.",
        "Aw, that's disappointing. I'm sorry. Will you have another go?",
        "Oh no, that's a shame. I'm sorry it didn't work out.",
    ),
    "ache": (
        "Ouch! Aches like that wear you down. Can you rest it a bit today?",
        "Oh, poor you, that sounds sore. Be gentle with it, and put your feet up if you can.",
        "Ouch, I'm sorry. Is it a warm bath and an early night kind of day?",
    ),
    "trouble": (
        "Oh no, that's annoying! I hope it sorts itself out soon. I'll be right here.",
        "Ugh, things always break at the worst moment. Go sort it out, I'll wait!",
    ),
    "power": (
        "Oh no! Go find a charger quick, I'll be right here when you're back.",
        "Quick, to the charger! I'll keep your things safe meanwhile.",
    ),
    "sleepless": (
        "Oh no, a night with no sleep is the worst. Be gentle with yourself today, and sneak "
        "in a nap if you can.",
        "Ugh, I'm sorry. Everything is harder on no sleep. Can you get an early night tonight?",
    ),
    "meh": (
        "One of those days, huh? Want to tell me about it, or shall I tell you a joke?",
        "Meh days happen. I'm here if you want to talk, or we can just hang out.",
    ),
}


# A sound or a word before the mood: "urgh my throat is so sore", "honestly, worst week".
_OPENER = lazy(
    r"^(?:(?:ugh+|urgh+|argh+|sigh|omg|oh god|oh no|man|honestly|so|well)[\s,.!]+)+", re.I
)


def mood(sentence: str) -> str | None:
    """The kind of mood a line says in the way people type it (see the module), or None."""
    text = sentence.strip()
    if _MEH.match(text) or _LUKEWARM.search(text):
        return "meh"
    text = _OPENER.sub("", text) or text
    if (trouble := _TROUBLE.match(text)) is not None:
        power = re.search(
            r"\b(?:phone|battery|laptop|tablet)\b.*\b(?:dying|dead|died|%|flat|low)",
            trouble.group(0),
            re.IGNORECASE,
        )
        return "power" if power else "trouble"
    for kind, pattern in _MOODS:
        if pattern.search(text):
            return kind
    return None


# Said after offline_talk's words for the same kind: a chat of several low lines in a row is
# not met with the same three sentences again.
_MORE = {
    "low": (
        "That sounds heavy. I'm right here with you, no pressure to talk.",
        "I'm sorry, some days are just like that. Want to tell me about it, or shall I keep you "
        "company?",
    ),
    "tired": (
        "You sound worn out. A cup of tea and an early night, maybe?",
        "Oh, sleepy you. Rest is allowed, you know! I'll be here when you wake up.",
    ),
}


def reply(kind: str, seed: int, avoid: Sequence[str] = (), sentence: str = "") -> str:
    """The pet's words for a mood `mood` found in `sentence` (a low one in words of its kind:
    "kinda lonely tonight" is lonely, offline_lows)."""
    if kind in _REPLIES:
        return pick(_REPLIES[kind], seed, avoid)
    said = feeling_reply(kind, seed, avoid, sentence)
    if kind in _MORE and any(said in earlier for earlier in avoid):
        return pick(_MORE[kind], seed, avoid)  # offline_talk's words were all said just now
    return said


def within(sentence: str) -> str | None:
    """A mood told in one part of a longer line ("I just got home from work, it was okay I
    guess"): read only when no rule took the line, as offline_talk.felt_within is."""
    for part in re.split(r"[,;]\s*|\s+(?:and then|and|but)\s+", sentence):
        if len(part.split()) >= 2 and (kind := mood(part)) is not None:
            return kind
    return None
