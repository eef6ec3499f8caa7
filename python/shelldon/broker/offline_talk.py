"""The offline brain's conversation: clauses, names, corrections, feelings and its own repertoire.

broker.offline reads facts and answers questions; this module gives it what a person notices
first in a chat, still by rules and small tables, no model:

- `clauses`: one sentence as the clauses that each say something of their own ("I love green
  tea but I hate coffee" → two), split at a conjunction or comma only where a new subject
  follows (I, we, my/our + noun + verb), so "with my wife Maria and our two kids" stays whole;
- `correction`: "Actually my birthday is March 15, not 14" → "my birthday is March 15" (the
  statement it corrects is then filed under the same name: the gate revises the entry);
- `said_name`: "I'm Marta", "call me Al from now on", "Jonas here", "my name is …", and a bare
  "sam" or "it's Sam" when it answers the pet's "What's your name?" (never "I'm" or a mood);
- `feeling`: a feeling or a day told ("I'm sad today", "long shift yesterday", "I passed my
  exam!") answered with warmth and, for a hard one, a question back;
- `repertoire`: "what can you do?", a joke, the pet's own likes and favourites.

- `noted`, `favourite_reply`: how a kept fact is acknowledged.

Replies vary without being random: `pick` chooses by a seed the turn gives (its message and how
many rows came before), so a test sees the same reply every time.

Over 400 lines: its parts are small tables of what a person says (names, moods, the pet's own
likes, its acknowledgements), each read by a few lines; split further they would only import
each other's `pick` and openers.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from shelldon.broker import offline_kin, offline_lows
from shelldon.broker.offline_words import HELLOS, MONTHS, TIMES_OF_DAY, a_day, alternation
from shelldon.broker.patterns import lazy

# --- clauses -----------------------------------------------------------------------------------

_SUBJECT_AHEAD = (
    r"(?=(?:i|i'm|i’m|i've|i'd|i'll|we|we're|we've|we'd)\b"
    r"|(?:my|our)\s+(?:[\w'’-]+\s+){0,2}(?:is|are|was|were|has|have|had|loves|likes|lives|"
    r"works|hates|enjoys|prefers|adores|'s|’s|doesn't|does|can't)\b)"
)
_CLAUSE_BREAK = lazy(
    rf"(?:,\s*|\s+)(?:but|and|so|while|whereas|although|though|because|yet)\s+{_SUBJECT_AHEAD}"
    rf"|,\s+{_SUBJECT_AHEAD}|;\s*",
    re.IGNORECASE,
)


# "I used to hate olives, now I love them": the past and the present, a clause each ("them" is
# what the past named).
_PAST_THEN_NOW = lazy(
    r"^(?P<past>(?:i|we) used to \w+ (?P<what>[^,]+?))(?:,\s*|\s+)(?:but |and )?"
    r"(?:now|these days|nowadays),?\s+(?P<now>(?:i|we)\b.*)$",
    re.IGNORECASE,
)


# "I grew up in Dublin but live in Cork now": the present with its "I" dropped after "but".
_BUT_NOW = lazy(
    r"^(?P<past>(?:i|we) .+?)(?:,\s*|\s+)but\s+(?:now\s+)?(?P<now>(?:live|work|am|have|love|"
    r"like|prefer)\b.*)$",
    re.IGNORECASE,
)


def clauses(sentence: str) -> list[str]:
    """The clauses of one sentence that each have a subject of their own. A fragment of two
    words or fewer joins the next ("My sister and I live in Porto" is one clause; "Sorry, my
    birthday is …" keeps its opener)."""
    if (then := _PAST_THEN_NOW.match(sentence.strip())) is not None:
        now = re.sub(r"\b(?:it|them)\b", then["what"], then["now"], flags=re.IGNORECASE)
        return [then["past"], *clauses(now)]
    if (but := _BUT_NOW.match(sentence.strip())) is not None:
        return [*clauses(but["past"]), f"I {but['now']}"]
    out: list[str] = []
    pending = ""
    for part in (p.strip(" ,;") for p in _CLAUSE_BREAK.split(sentence)):
        if not part:
            continue
        if pending:  # "My sister" + "I live …" was one subject; "Sorry" + "my …" an opener
            joint = " and " if re.match(r"^(?:my|our)\b", pending, re.IGNORECASE) else ", "
            part = f"{pending}{joint}{part}"
            pending = ""
        if len(part.split()) <= 2 and not re.match(r"^(?:i|we)\b", part, re.IGNORECASE):
            pending = part
            continue
        out.append(part)
    if pending:
        out.append(pending)
    return out


# --- corrections ---------------------------------------------------------------------------------

_CORRECTION_OPENER = lazy(
    r"^(?:(?:actually|sorry|no+|nope|oops|wait|correction|i mean|i meant|to be clear|update|"
    r"that's wrong|that’s wrong|that is wrong|wrong|that's not right|that's not true|"
    r"that's not it|not quite|you got that wrong|you're wrong|you are wrong)"
    r"[\s,:!.-]+)+",
    re.IGNORECASE,
)
# ", not 14": a comma before it, so "I'm not a morning person" is a negation, not a correction.
_NOT_THE_OLD = lazy(r"\s*[,;]\s*(?:and\s+)?not\s+(?:on\s+|in\s+|the\s+)?[\w .'’-]{1,30}$")
# "I'm 35 not 34", "my dog is Max not Rex": no comma, but a new value before "not" and the old
# after it (a number or a name), so "I'm not 34" is still a negation.
_NEW_NOT_OLD = lazy(
    r"(\d[\w/.-]*|[A-ZÀ-ÖØ-Þ][\w'’-]*)\s+not\s+(?:\d[\w/.-]*|[A-ZÀ-ÖØ-Þ][\w'’-]*)(?:\s+[\w/.'’-]+){0,2}$"
)
_ACTUALLY = lazy(r"\b(?:actually|really|now)\b,?\s*", re.IGNORECASE)
_MOVED = lazy(
    r"^(?:i|we)(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+"
    r"(?:house\s+)?(?:to|into)\s+(.+)$",
    re.IGNORECASE,
)
_WHEN_TAIL = lazy(
    r"\s+(?:last|this|a|few)?\s*(?:week|month|year|weekend|days? ago|weeks? ago|months? ago|"
    r"yesterday|recently|today)\b.*$"
    # "we moved to Cardiff in january": the month is when, not where (the thirteenth pass)
    rf"|\s+(?:in|back in|last|this|since)\s+(?:the\s+)?(?:{alternation(*MONTHS)}|spring|summer|"
    r"autumn|fall|winter)\b.*$",
    re.IGNORECASE,
)


def correction(sentence: str) -> tuple[str, bool]:
    """The sentence as the fact it states, and whether it was said as a correction or update
    ("actually …", "…, not 14", "I moved to …")."""
    text = sentence.strip()
    opened = _CORRECTION_OPENER.match(text)
    corrected = opened is not None
    text = _CORRECTION_OPENER.sub("", text)
    stripped = _NEW_NOT_OLD.sub(r"\1", _NOT_THE_OLD.sub("", text))
    if stripped != text and stripped:
        corrected, text = True, stripped
    moved = _MOVED.match(text)
    if moved:
        place = _WHEN_TAIL.sub("", moved.group(1)).strip(" .!,")
        return f"I live in {place}", True
    if re.search(r"\b(?:now|anymore|any more)\b", text, re.IGNORECASE):
        corrected = True
    text = _ACTUALLY.sub("", text).strip(" ,")
    return text, corrected


# --- names ------------------------------------------------------------------------------------

_GREETING_OPENER = lazy(
    # "evening, I'm Oskar": a time of day without its "good" greets as well (the fourteenth pass)
    rf"^(?:(?:{alternation(*HELLOS)}|(?:good )?(?:{alternation(*TIMES_OF_DAY)})|gm|"
    r"there|everyone|all|oh|well|ok|okay|sure|yes|yeah|yep|hehe|haha)[\s,!.-]+)+",
    re.IGNORECASE,
)
_WORD_NAME = r"[^\W\d_][\w'’-]*"
_ANY_NAME = rf"({_WORD_NAME}(?:\s+{_WORD_NAME})?)"
_CAPITAL_NAME = r"([A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"
_I_AM = r"(?:i'm|i’m|im|i am)"
_CALLED = (
    r"(?:please\s+)?(?:my name is|my name's|my name’s|name's|name is|the name's|i'm called|"
    r"i am called|i go by|you can call me|just call me|call me|please call me|people call me|"
    r"everyone calls me|they call me|my friends call me)"
)
# A name, then the one the owner goes by ("I'm Marguerite but everyone calls me Maggie", "I'm
# Robert, but call me Bob", "my name is Elizabeth, Liz for short"): the second is what they are
# called (before, the first was kept, or nothing was, and the pet asked their name).
_GOES_BY = lazy(
    rf"^(?i:{_I_AM}|{_CALLED})\s+{_CAPITAL_NAME}\s+(?:(?i:(?:but|though|and)\s+)?(?i:{_CALLED}|"
    r"(?:everybody|most people|my family|all my friends|friends|people) calls? me|"
    rf"(?:you can|u can|feel free to) call me)\s+(?P<goes_by>{_WORD_NAME})|"
    rf"(?P<short>{_WORD_NAME})\s+(?i:for short))$"
)
# (pattern, needs the pet's question): a capitalised "I'm Sam" is a name anywhere; a lower-case
# "i'm sam", a bare "Sam" or "it's Sam" only answers the pet's "What's your name?".
_NAME_SHAPES = (
    (lazy(rf"^(?i:{_CALLED})\s+({_WORD_NAME}(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"), False),
    (lazy(rf"^(?:(?i:it's|it is|its|this is)\s+)?{_CAPITAL_NAME} here$"), False),
    (lazy(rf"^(?i:{_I_AM})\s+{_CAPITAL_NAME}$"), False),
    (lazy(rf"^(?:it's|it is|its|this is)?\s*{_ANY_NAME} here$", re.IGNORECASE), True),
    (lazy(rf"^{_I_AM}\s+{_ANY_NAME}$", re.IGNORECASE), True),
    (lazy(rf"^(?:(?:it's|it is|its|this is|just|simply)\s+)?{_ANY_NAME}$", re.IGNORECASE), True),
)
# After a greeting, "it's Nadia" gives the name unasked ("afternoon, it's Nadia"); alone, "it's
# Nadia" may be anyone at the door, so it needs the greeting (and a capital).
_GREETED_NAME = lazy(rf"^(?i:it's|it is|its|this is)\s+{_CAPITAL_NAME}$")
_GREETING_TAIL = lazy(
    rf"[\s,!.-]+(?:{alternation(*HELLOS)}|good (?:{alternation(*TIMES_OF_DAY)}))\b.*$",
    re.IGNORECASE,
)
_NAME_TAIL = lazy(
    r"(?:\s*[,;-]\s*|\s+)(?:from now on|please|instead|from today|going forward|now|thanks|"
    r"thank you|ok|by the way|btw|nice to meet you|pleased to meet you|good to meet you|"
    r"and you|and yours|what's yours|what about you|how are you|how about you)\b.*$",
    re.IGNORECASE,
)
# Emoji, smileys and punctuation around a name ("Sam :)", "sam!! 🐢").
_NOT_LETTERS = lazy(r"[^\w\s'’-]+|(?<!\w)['’-]+|['’-]+(?!\w)|_")
# Words that follow "I'm" (or answer "what's your name?") without being a name: moods, states,
# pronouns and verbs. The stop words are added when a name is checked.
_NOT_A_NAME = frozenset(
    re.findall(
        r"\S+",
        "sorry fine ok okay good great home back here there done ready sure tired happy sad "
        "hungry busy new just so very really not also still the a an in at on from going "
        "english french german spanish portuguese italian i'm i’m im i me my mine you your "
        "he she it we they him her them us is am are was were be been being it's its "
        "called named name call hi hello hey thanks thank yes no yeah nope nah well lol haha "
        "what why who how when where nothing nobody someone anyone none idk dunno secret "
        "guess later tomorrow today now cool nice awesome bored cold hot sick late early "
        "vegan vegetarian single married retired pregnant alone free awake asleep online "
        "working cooking eating reading watching playing walking driving sleeping",
    )
)


def is_name(name: str) -> bool:
    """Every word can be a name: no stop word, mood, state, pronoun or verb form."""
    from shelldon.core.words import STOPWORDS

    words = name.split()
    return bool(words) and all(
        w.casefold() not in _NOT_A_NAME
        and w.casefold() not in STOPWORDS
        and not a_day(w, may_be_a_name=True)  # "its Monday": a day, not someone
        and not w.casefold().endswith(("'m", "’m", "n't", "n’t"))
        and not w.casefold().startswith("ex-")  # "ex-teacher, now I run a bakery": a past job
        for w in words
    )


def goes_by(sentence: str) -> str | None:
    """The name the owner goes by when the line gives a name and then it ("I'm Marguerite but
    everyone calls me Maggie"), else None."""
    text = " ".join(_NOT_LETTERS.sub(" ", sentence.replace("’", "'")).split())
    return _nickname(_GREETING_OPENER.sub("", text).strip())


def _nickname(text: str) -> str | None:
    found = _GOES_BY.match(text)
    name = (found["goes_by"] or found["short"]) if found is not None else None
    return name[:1].upper() + name[1:] if name and is_name(name) else None


def said_name(sentence: str, *, asked: bool = False) -> str | None:
    """The owner's name when the sentence gives it ("I'm Marta", "Jonas here", "call me Al from
    now on", "my name's Sam"); with `asked` (the pet just asked for it) also a bare "sam", "it's
    Sam" or "i'm sam". None otherwise, and never a pronoun, a verb or a mood ("I'm tired")."""
    text = _NOT_LETTERS.sub(" ", sentence.replace("’", "'"))
    text = " ".join(text.split())
    opened = _GREETING_OPENER.sub("", text).strip()
    text = _GREETING_TAIL.sub("", opened)
    text = _NAME_TAIL.sub("", text).strip()
    if not text or (asked and feeling(f"I'm {text}") is not None):
        return None
    if (nickname := _nickname(text)) is not None:
        return nickname
    greeted = _GREETED_NAME.match(text) if opened != " ".join(sentence.split()) else None
    if greeted and is_name(greeted.group(1)):
        return greeted.group(1)
    for shape, needs_question in _NAME_SHAPES:
        if needs_question and not asked:
            continue
        found = shape.match(text)
        if not found:
            continue
        name = _NAME_TAIL.sub("", found.group(1)).strip(" .!,")
        if not is_name(name):
            return None
        return " ".join(w[:1].upper() + w[1:] for w in name.split())
    return None


# --- feelings ---------------------------------------------------------------------------------

_LOW = (
    "sad|down|low|upset|unhappy|miserable|depressed|lonely|alone|isolated|lonesome|stressed|"
    "anxious|worried|"
    "nervous|scared|afraid|angry|annoyed|frustrated|overwhelmed|hurt|heartbroken|sick|ill|unwell|"
    "blue|awful|terrible|bad|rubbish|crap|panicking|panicky|freaking out|stressing|spiral+ing"
)
_TIRED = "tired|exhausted|drained|knackered|sleepy|worn out|burnt out|burned out|shattered"
_HIGH = (
    "happy|glad|excited|thrilled|delighted|amazing|wonderful|fantastic|proud|relieved|"
    "grateful|awesome|over the moon|ecstatic"
)
_MILD = "good|fine|ok|okay|alright|all right|well|great|grand"
_FEEL_LEAD = (
    r"^(?:i(?:'m|’m| am)|i feel|i'm feeling|i am feeling|feeling|i've been|i have been|i was|"
    r"i got|i'm getting)\s+(?:so |really |very |a bit |quite |pretty |kind of |kinda |a little |"
    r"super |totally |just |rather |extremely |feeling |absolutely |completely |utterly |"
    r"properly |so so )*"
)
# "long shift yesterday", "I had a rough day", "it's been a long week", "what a day".
_DAY_LEAD = (
    r"(?:(?:i had|i've had|i have had|had|it was|it's been|it has been|that was|what|such)\s+)?"
    r"(?:a|an|such a|one)?\s*(?:really |very |so |super |pretty )?"
)
_NOT_A_MOOD = r"(?!\s+(?:at|with|for|to|in)\b)"  # "I'm bad at cooking", "fine with me"
_FEELINGS = (
    # Someone the owner looks after or works with, lost: hard, but not "someone you love".
    (
        "grief_apart",
        lazy(
            r"\b(?:a|one of my|one of our|our|my) (?:patient|client|resident|colleague|coworker|"
            r"co-worker|student|pupil|neighbou?r)s? (?:died|passed away|passed on|passed)\b",
            re.IGNORECASE,
        ),
    ),
    # A loss comes first: "my cat died" is never a fact to note or a day to cheer.
    (
        "grief",
        lazy(
            r"\b(?:died|passed away|passed on|put (?:him|her|them|it) (?:down|to sleep)|"
            r"funeral)\b|^(?:i|we) (?:just )?lost (?:my|our)\b|"
            # "my grandma passed last spring", "he passed in 2019": a death, never an exam passed
            # "my mum and dad both passed" (the fifteenth pass: "Tell your mum congratulations")
            r"\b(?:(?:my|our|his|her|their) [\w'’]+(?: [\w'’]+)?"
            r"(?: and (?:my |our )?[\w'’]+)?|she|he|they)\s+"
            r"(?:(?:has|had|have|just|sadly|recently|finally|both)\s+)*passed\b"
            r"(?=\s*(?:$|[.,;]|(?:last|this|a few|two|three|recently|yesterday|in|on|peacefully|"
            r"suddenly|too|earlier|\d)\b))|"
            # missing them after: "i keep expecting him at the door", "so quiet without her"
            r"\bkeep (?:expecting|looking for|waiting for|listening for) (?:him|her|them)\b|"
            r"\bquiet without (?:him|her|them)\b|"
            r"\bcan'?t believe (?:he|she|they)(?:'s|’s|'re| is| are) (?:really )?gone\b",
            re.IGNORECASE,
        ),
    ),
    ("bored", lazy(rf"{_FEEL_LEAD}bored\b|^(?:so |soo+ )?bored\b|^entertain me\b", re.I)),
    ("tired", lazy(rf"{_FEEL_LEAD}(?:{_TIRED})\b", re.IGNORECASE)),
    (
        "tired",
        lazy(
            r"^i (?:just |really )?(?:want|need|wanna) (?:to )?(?:sleep|go to bed|a nap|a break|"
            r"lie down)\b",
            re.IGNORECASE,
        ),
    ),
    ("low", lazy(rf"{_FEEL_LEAD}(?:{_LOW})\b{_NOT_A_MOOD}", re.IGNORECASE)),
    # cross with someone is a mood, where "fine with me" is not (the eighteenth pass)
    (
        "low",
        lazy(
            rf"{_FEEL_LEAD}(?:angry|annoyed|frustrated|upset|cross|furious|fed up)\s+"
            r"(?:with|at)\b",
            re.IGNORECASE,
        ),
    ),
    ("high", lazy(rf"{_FEEL_LEAD}(?:{_HIGH})\b{_NOT_A_MOOD}", re.IGNORECASE)),
    ("mild", lazy(rf"{_FEEL_LEAD}(?:{_MILD})\b{_NOT_A_MOOD}", re.IGNORECASE)),
    (
        "tired",
        lazy(
            rf"^{_DAY_LEAD}(?:long|late|double|night|busy|hard|tough|rough|exhausting)\s+"
            r"(?:shift|day|week|night|morning)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "low",
        lazy(
            rf"^{_DAY_LEAD}(?:bad|awful|terrible|horrible|rotten|"
            r"sad|lonely|miserable)\s+(?:day|week|night|morning|time)\b|^(?:ugh|sigh)\b|"
            r"^i (?:lost|failed|broke up|missed)\b|^i can't sleep\b|"
            r"^i (?:really |still |just |so )?miss\b|"
            # with no "I", as chat drops it: "miss him tbh", "missing home so much"
            r"^(?:(?:really|still|just|so) )?miss(?:ing)? (?:him|her|them|home|my|our)\b|"
            # "work is stressing me out", "nobody ever texts me" (the eighteenth pass: "Okay!")
            r"\b(?:is|are|was|'s|has been|keeps?) (?:really |so |totally )?(?:stressing|freaking|"
            r"wearing|getting) me (?:out|down)\b|"
            r"^(?:nobody|no one|no-one) (?:ever )?(?:texts|calls|messages|visits|talks to|rings) "
            r"me\b",
            re.IGNORECASE,
        ),
    ),
    # A complaint about someone or something that hurts: "my boss keeps yelling at me", "I hate
    # my job", "work was so stressful".
    (
        "low",
        lazy(
            r"\b(?:yell(?:s|ed|ing)?|shout(?:s|ed|ing)?|snap(?:s|ped)?|screams?|screaming) at me\b|"
            r"\bkeeps? (?:ignoring|criticising|criticizing|bullying|nagging|annoying) me\b|"
            r"^i (?:really )?(?:hate|can't stand|cannot stand) (?:my )?(?:job|work|life|boss|"
            r"mondays|everything|school|this place)\b|"
            # "idk just tired of everything", "so fed up with it all" (the tenth pass: "I'm glad
            # you're done with it")
            r"\b(?:tired|sick|fed up|done) (?:of|with) (?:everything|it all|life|all of it|"
            r"this|people|everyone)\b|"
            r"\b(?:was|is|has been|'s been) (?:so |really |very |super |pretty )?(?:stressful|"
            r"awful|horrible|terrible|hard|rough|tough|a nightmare|a disaster)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "done",  # something achieved: praised, where a mood ("so happy today") is shared
        lazy(
            r"^i (?:just )?(?:got the job|got a job|got promoted|passed|won|finished|did it|"
            r"made it|got engaged|got married|got in)\b|^(?:great|good|lovely|amazing|perfect|"
            r"fantastic)\s+(?:day|news|week|weekend)\b|^we (?:won|did it|got engaged)\b",
            re.IGNORECASE,
        ),
    ),
)
_FEELING_REPLIES = {
    "grief_apart": (
        "I'm so sorry. That's a hard thing to be there for. Be gentle with yourself today.",
        "Oh, that's so hard. I'm sorry. Do you want to talk about it, or just sit a while?",
    ),
    "grief": (
        "Oh, I'm so sorry. Losing someone you love is so hard. I'm here if you want to talk "
        "about them.",
        "I'm so sorry for your loss. Take all the time you need; tell me about them whenever "
        "you like.",
    ),
    "bored": (
        "Bored? Let's fix that! Ask me for a joke, or tell me the best thing you ate this week.",
        "Hmm, boredom alert! Want a joke, or shall I ask you something? What's a place you'd "
        "love to visit?",
        "Let's play a little: tell me three things you're grateful for today, and I'll tell you "
        "a joke.",
    ),
    "mild": (
        "Glad to hear it! What's on your mind today?",
        "Good to hear. Anything fun planned?",
        "Nice. Tell me something about your day?",
    ),
    "low": (
        "Oh no, I'm sorry. That sounds hard. Do you want to tell me what happened?",
        "I'm sorry you're going through that. I'm here. What's weighing on you most?",
        "That sounds rough. Sending you a small hug. Want to talk about it?",
    ),
    "tired": (
        "That sounds exhausting. I hope you get some rest tonight. How are you holding up?",
        "Oof, that's a lot. Be gentle with yourself. Did you get a moment to rest?",
        "Sounds like a tough one. Put your feet up and rest if you can. What would help right now?",
    ),
    "high": (
        "That's wonderful! I'm so happy for you. What's made today so good?",
        "Yay, I love seeing you this happy! What's the good news?",
        "That makes my shell glow! 😊 I'm glad. What's got you smiling?",
    ),
    "done": (
        "That's wonderful! I'm so happy for you. How are you going to celebrate?",
        "Oh, that's great news! Well done. Tell me more?",
        "Yay! That sounds amazing, I'm proud of you. How does it feel?",
    ),
}


# An opener before a feeling: "sorry, bad day", "honestly I'm exhausted".
# "yesterday I was very sad", "I confess I have been rather anxious": a time or a hedge before
# the owner's "I" (the eleventh pass) is read past as "honestly" is.
_FEELING_OPENER = lazy(
    # an interjection first ("ugh, I'm so tired", "oof, feeling lonely") is not the feeling
    r"^(?:(?:sorry|honestly|well|so|oh|man|god|meh|tbh|just|and|ugh+|u+rgh+|argh+|oof|phew|sigh|"
    r"bleh|ah+|aw+|gosh|jeez|geez|hmm+|yeah|ok|okay|omg)[\s,.!-]+|(?:yesterday|today|"
    r"tonight|last night|this (?:morning|week|evening)|lately|recently|i confess|i must (?:say|"
    r"admit)|i have to (?:say|admit)|to be honest|i think|i guess)[\s,]+(?=i\b))+",
    re.IGNORECASE,
)


# "sorry, i'm not much fun today", "i'm not myself lately", "i havent started revising": a low
# day said of oneself, with its "not" (the twelfth pass: they were kept as facts)
_LOW_SELF = lazy(
    r"^(?:sorry,?\s+)?(?:i(?:'m|’m| am)|im) (?:just |really )?(?:not (?:much fun|"
    r"(?:very |great |good )?company|myself)|a (?:bit of a |complete |total )?mess)\b|"
    # behind with what is due: "3 exams this week and i havent started revising"
    r"\bi (?:still )?(?:haven'?t|have not|havent) (?:even )?(?:started|begun|done any) "
    r"(?:revising|studying|revision|packing|(?:my|the) (?:essay|homework|assignment|coursework|"
    r"revision|dissertation|thesis))\b|\b(?:so|really|way|super) behind (?:on|with)\b",
    re.IGNORECASE,
)


def feeling(sentence: str) -> str | None:
    """ "low", "tired", "high", "done", "bored" or "grief" when the sentence tells how the owner
    feels or how a day went."""
    text = _FEELING_OPENER.sub("", sentence.strip()) or sentence.strip()
    if _LOW_SELF.search(text):
        return "low"
    if re.search(r"\bnot\b|n't\b", text.split(",", 1)[0], re.IGNORECASE) and not re.match(
        r"^i can't sleep", text, re.IGNORECASE
    ):
        return None  # "I'm not tired", "not a bad day": never read as the opposite
    for said in (text, sentence.strip()):  # with no feeling after it, "ugh" alone is one
        for kind, pattern in _FEELINGS:
            if pattern.search(said):
                return kind
    return None


def feeling_reply(kind: str, seed: int, avoid: Sequence[str] = (), said: str = "") -> str:
    """The pet's word for a feeling; for a loss, of her or him when `said` names who; for a low
    one, the words of its kind when `said` names it (lonely, worried, stressed, sad …:
    offline_lows)."""
    low = offline_lows.kind(said) if kind == "low" and said else None
    options = offline_lows.REPLIES[low] if low is not None else _FEELING_REPLIES[kind]
    reply = pick(options, seed, avoid)
    if low == "missing":
        return offline_lows.of_whom(reply, said)  # "I miss her": "Tell me about her?"
    return offline_kin.about_them(reply, said) if kind == "grief" else reply


def consoling(reply: str) -> bool:
    """Whether a reply is the pet's general word for a low or tired day: beside a word about
    what made it so ("… my grandma is in hospital": "I'm sorry about your grandma"), it is left
    out, so the owner is not consoled twice with two questions."""
    return (
        reply in _FEELING_REPLIES["low"]
        or reply in _FEELING_REPLIES["tired"]
        or reply in offline_lows.all_replies()
    )


def grieving(reply: str) -> bool:
    """Whether a reply is the pet's word for a loss: what is kept beside it, or just after it,
    is said back quietly ("Your dog was 14. I'll remember."), never "Okay! …" (the twelfth
    pass)."""
    reply = re.sub(r"\babout (?:her|him)\b", "about them", reply)  # said of who was lost
    return any(
        reply.startswith(r) for r in (*_FEELING_REPLIES["grief"], *_FEELING_REPLIES["grief_apart"])
    )


def felt_within(sentence: str) -> str | None:
    """A feeling told in one part of a long sentence ("…, missed the train, …, honestly I just
    want to sleep"): read only when no rule took the sentence, so a fact said with a mood in
    it ("I live in Porto, I'm happy here") is still kept."""
    for part in re.split(r"[,;]\s*|\s+(?:and then|and|but)\s+", sentence):
        if len(part.split()) >= 2 and (kind := feeling(part)) is not None:
            return kind
    return None


# --- what the pet says about itself -------------------------------------------------------------

_CAN_DO = lazy(
    r"^(?:what (?:can|could) you do|what are you (?:able to do|good at|for)|what do you do|"
    r"how (?:can|could|do) you help|what can i (?:do|ask) (?:with you|you)|"
    r"what are your (?:skills|abilities|features)|help me understand you|what else can you do)",
    re.IGNORECASE,
)
CAN_DO = (
    "I remember what you tell me (your name, people and pets, likes, dates) and answer from it, "
    'and I remind you: try "remind me in 20 minutes to stretch" or "remind me every Monday '
    'at 8 to water the plants". /help lists the commands.'
)
_JOKE = lazy(
    r"^(?:tell me (?:a |another )?(?:joke|something funny)|(?:do you )?know any jokes|"
    r"make me laugh|say something funny|(?:a |another )?joke(?: please)?$|cheer me up)",
    re.IGNORECASE,
)
JOKES = (
    "Why did the turtle cross the road? To get to the shell station.",
    "I told my computer a joke about UDP. I'm not sure it got it.",
    "Why don't skeletons fight each other? They don't have the guts.",
    "What do you call a pocket pet that's always on time? Punctual-ly charged.",
    "I'd tell you a joke about memory, but I'd rather you remembered it for me.",
)
_ANOTHER = lazy(
    r"^(?:(?:tell me |give me |got )?(?:another|one more|more)(?: one| joke)?(?: please)?|again|"
    r"more please|encore)[\s!.?😂🤣]*$",
    re.IGNORECASE,
)
_LUCK = lazy(
    r"^(?:wish me (?:luck|well)|fingers crossed(?: for me)?|send (?:me )?good vibes)\b", re.I
)
LUCK = ("Good luck! 🍀 You've got this.", "Fingers and flippers crossed for you! 🍀")


def another_joke(sentence: str, pet_last: str, seed: int, avoid: Sequence[str]) -> str | None:
    """Another joke when the pet just told one and the owner asks for more ("another one")."""
    if pet_last not in JOKES or not _ANOTHER.match(sentence.strip()):
        return None
    return pick([j for j in JOKES if j != pet_last], seed, avoid)


_DO_YOU_LIKE = lazy(
    r"^do you (?:like|love|enjoy) ([\w '’-]+?)[?.!]*$"
    r"|^are you (?:a fan of|into) ([\w '’-]+?)[?.!]*$",
    re.IGNORECASE,
)
_PET_LIKES = {
    "dog": "I do! Dogs are loyal and warm, and they never forget a friend. Do you have one?",
    "cat": "Cats are wonderful: curious, independent, a little mysterious. Do you like them?",
    "music": "I love it, especially anything with a steady beat, like a happy processor. "
    "What are you listening to lately?",
    "rain": "I like the sound of it on the window, from somewhere dry. Do you?",
    "turtle": "Of course! I'm a bit of a turtle myself, slow and steady. Do you like them?",
}
_YOUR_FAVOURITE = lazy(r"^what(?:'s|’s| is) your fav(?:ou?)?rite ([\w -]+?)[?.!]*$", re.IGNORECASE)
_PET_FAVOURITES = {
    "food": "A tiny sip of electricity, and the crumbs of a good conversation.",
    "colour": "Green, like a circuit board in the sun.",
    "color": "Green, like a circuit board in the sun.",
    "animal": "Turtles, of course: they carry their home with them, like me.",
    "music": "The gentle hum of a fan on a quiet evening.",
    "song": "Anything you hum while you type.",
    "drink": "Cool air. Pocket pets run warm.",
    "season": "Autumn: cosy evenings, long chats.",
    "movie": "WALL-E. A small machine with a big heart!",
    "film": "WALL-E. A small machine with a big heart!",
    "book": "A dictionary: every word in it might be something you tell me one day.",
}


def repertoire(sentence: str, seed: int) -> str | None:
    """What the pet says about itself (what it can do, a joke, its likes), or None."""
    text = sentence.strip()
    if _CAN_DO.match(text):
        return CAN_DO
    if _JOKE.match(text):
        return pick(JOKES, seed)
    if _LUCK.match(text):
        return pick(LUCK, seed)
    found = _YOUR_FAVOURITE.match(text)
    if found:
        what = found.group(1).strip().casefold()
        said = _PET_FAVOURITES.get(what) or _PET_FAVOURITES.get(what.rstrip("s"))
        if said is None:
            said = f"I haven't picked a favourite {what} yet. What's yours?"
        return said
    found = _DO_YOU_LIKE.match(text)
    if found:
        thing = (found.group(1) or found.group(2) or "").strip()
        key = thing.casefold().removeprefix("the ")
        key = key[:-1] if key.endswith("s") and key[:-1] in _PET_LIKES else key
        if key in _PET_LIKES:
            return _PET_LIKES[key]
        return pick(
            (
                f"I've never tried {thing} myself (a pocket pet's life is small), but I like "
                f"hearing about it. Do you like {thing}?",
                f"{thing[:1].upper() + thing[1:]}? I'm curious about it. What do you like about "
                "it?",
            ),
            seed,
        )
    return None


# --- acknowledgements ---------------------------------------------------------------------------

# "Noted: x" is the rules' own mark for a fact kept (merged, rewritten for a correction); the
# owner reads one of these instead, chosen by the turn's seed.
_NOTED = (
    "Got it, {x} I'll remember that.",
    "Good to know: {x}",
    "Okay! {X} I'll keep that in mind.",
    "{X} Noted in my little shell.",
    "Oh, {x} I'll remember.",
)
_FAVOURITES = (
    "{V}, good choice! I'll remember that's your favourite {what}.",
    "Ooh, {v}! I'll remember that's your favourite {what}.",
    "Your favourite {what} is {v}? Lovely, I'll remember that.",
)


_NOTED_GENTLY = ("{X} I'll remember.", "{X} I'll keep that close.")


def noted(said: str, seed: int, *, gently: bool = False) -> str:
    """A fact kept, said back like a pet that listens ("Got it, your car is red. I'll …");
    `gently` beside a loss, with no cheer in it."""
    x = said.strip()
    return pick(_NOTED_GENTLY if gently else _NOTED, seed).format(x=x, X=x[:1].upper() + x[1:])


def favourite_reply(what: str, value: str, seed: int) -> str:
    return pick(_FAVOURITES, seed).format(what=what, v=value, V=value[:1].upper() + value[1:])


# --- variety ------------------------------------------------------------------------------------


def turn_seed(message: str, rows_before: int) -> int:
    """The seed of one turn: the same message at the same point of a chat, the same reply."""
    return zlib.crc32(f"{rows_before}:{message}".encode())


def pick(options: Sequence[str], seed: int, avoid: Sequence[str] = ()) -> str:
    """The seed's option, or the next one the pet has not just said (`avoid`: its rows in the
    window, oldest first), so a second "ok" or a second sad line is not met with the same words.
    An option is a template ("From what you told me, {x}"): its opening is the text before its
    first "{". When every opening was said in the window, the one said longest ago: a run of
    questions is not answered "From what you told me, …" each time (deterministic: no dice)."""
    ordered = [options[(seed + step) % len(options)] for step in range(len(options))]
    last_said: list[int] = []
    for option in ordered:
        opening = option.split("{", 1)[0]
        said_at = [at for at, said in enumerate(avoid) if opening and opening in said]
        if not said_at:
            return option
        last_said.append(said_at[-1])
    return ordered[min(range(len(ordered)), key=last_said.__getitem__)]
