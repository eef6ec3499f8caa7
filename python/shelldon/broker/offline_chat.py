"""What a chat holds besides facts and feelings, read by broker.offline before its fact rules
(docs/brain.md, "The offline brain listens", the audit pass):

- `plain`: text-speak read as the words it stands for ("im tired" is "I'm tired", "whats ur
  name" is "what's your name"), and a filler at either end dropped ("I'm vegetarian btw"), so
  every rule after it reads the owner's sentence and a kept fact holds no "tbh";
- `reaction`: a line that is only a reaction ("lol", "ok", "👍", "?", "what?", "😢") or a
  goodbye however it is typed ("night!", "cya", "gotta go"): answered as a pet would, never as a
  fact or a question about memory;
- `foreign`: a line in another language; the offline brain reads English and says so;
- `about_itself`: a question about the pet's own life ("do you dream?", "what are you up to?",
  "do you love me?"), answered in its own words, never "I don't know that yet. Tell me and I'll
  remember.".

Replies vary by the turn's seed (offline_talk.pick), never by chance.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import MISSPELT, SHORT_DAYS, without_emoji
from shelldon.broker.patterns import lazy

# --- text-speak ---------------------------------------------------------------------------------

_SPOKEN = (
    {
        "im": "I'm",
        "ive": "I've",
        "i": "I",
        "u": "you",
        "whats": "what's",
        "thats": "that's",
        "hows": "how's",
        "wheres": "where's",
        "whos": "who's",
        "dont": "don't",
        "doesnt": "doesn't",
        "didnt": "didn't",
        "cant": "can't",
        "isnt": "isn't",
        "wasnt": "wasn't",
        "havent": "haven't",
        "pls": "please",
        "wat": "what",
        "wats": "what's",
        "plz": "please",
        "abt": "about",
        "bc": "because",
        "cuz": "because",
    }
    | MISSPELT
    | SHORT_DAYS
)
_SPOKEN_WORD = lazy(rf"\b(?:{'|'.join(_SPOKEN)})\b", re.IGNORECASE)
# "r" for "are", before who is asked about ("how r u", "r we ok", "where r they") or after "you".
_ARE = lazy(r"\br(?=\s+(?:you|u|we|they|ya)\b)|(?<=\byou )r\b(?=\s)", re.IGNORECASE)
# A dropped g ("feelin rough", "mornin", "nothin much"): the few verbs and words typed so.
_DROPPED_G = lazy(
    r"\b(feel|go|do|gett|try|work|think|mak|com|sleep|runn|hav|morn|even|noth|someth|"
    r"anyth|everyth)in(?=\b)(?!['’])",
    re.IGNORECASE,
)
_POSSESSIVE = lazy(
    r"\b((?:my|our) )(?!parent|friend|kid|cousin|grandparent)(\w+?)s "
    r"(name|birthday|bday|job|age)\b",
    re.IGNORECASE,
)
# A letter held ("soooo tired", "hiii", "byeee"): three or more of one letter are one, or two
# where the word is spelt so ("goood" is "good", "tooo" is "too").
_HELD = lazy(r"([^\W\d_])\1{2,}")
_DOUBLED = frozenset(
    ("good", "too", "soon", "feel", "sleep", "need", "see", "cool", "food", "mood", "hello")
)
# "ur" is "you're" before what someone is ("ur the best"), "your" before a thing ("ur name").
_UR = lazy(
    r"\bur\b(?=\s+(?:so|such|the|a|an|very|really|too|not|amazing|funny|cute|smart|sweet|best|"
    r"great|awesome|lovely|kind|nice|good|useless|silly|weird|mean|wrong|right|annoying|dumb|"
    r"stupid|boring|adorable|brilliant|clever|rubbish|terrible|pretty|kinda|kind of|being|"
    r"hopeless|helpful|precious|fun|cool|worst)\b)",
    re.IGNORECASE,
)
_FILLER = (
    r"(?:btw|by the way|tbh|lol|lmao|haha+|hehe+|imo|fyi|ngl|xd|rn|right now|atm|af|asf|tbf|"
    r"lowkey|ffs|:\)|:\(|:d|:p|;\)|:'\()"
)
_TRAILING_FILLER = lazy(rf"(?:[\s,]+{_FILLER})+(?=[\s.!?]*$)", re.IGNORECASE)
_LEADING_FILLER = lazy(
    r"^(?:(?:btw|by the way|fyi|ngl|tbh|honestly|anyway|anyways|ok so|so|well|um+|uh+|jk|"
    r"just kidding|just joking|kidding|ok|okay|alright|hmm+)\s*,\s*|(?:btw|fyi|ngl|tbh|anyway|"
    r"anyways|ok so|um+|uh+|jk|lol jk|just kidding|just joking|ok|okay|alright|hmm+)\s+|"
    # "so i just started a new job": a "so" or "well" before the owner's own words ("so tired"
    # keeps its "so")
    r"(?:so|well|and|oh)\s+(?=(?:i|i'm|im|i've|ive|we|we're|my|our)\s))",
    re.IGNORECASE,
)


def plain(sentence: str) -> str:
    """The sentence as the words it stands for, without a filler at either end."""
    text = _UR.sub("you're", sentence.strip())
    text = re.sub(r"\bur\b", "your", text, flags=re.IGNORECASE)
    text = _SPOKEN_WORD.sub(lambda m: _SPOKEN[m.group(0).casefold()], text)
    text = _ARE.sub("are", text)  # "how r u" is "how are you"
    text = _HELD.sub(_unheld, text)
    text = _DROPPED_G.sub(lambda m: m.group(0) + "g", text)
    text = _POSSESSIVE.sub(r"\1\2's \3", text)  # "my sisters name" is "my sister's name"
    stripped = _LEADING_FILLER.sub("", _TRAILING_FILLER.sub("", text)).strip()
    return stripped or text


def _unheld(found: re.Match[str]) -> str:
    """One letter for a held one, or two where the word is spelt with two ("goood")."""
    start, end = found.span()
    word_start = start
    text = found.string
    while word_start > 0 and text[word_start - 1].isalpha():
        word_start -= 1
    word_end = end
    while word_end < len(text) and text[word_end].isalpha():
        word_end += 1
    twice = text[word_start:start] + found.group(1) * 2 + text[end:word_end]
    return found.group(1) * (2 if twice.casefold() in _DOUBLED else 1)


# --- reactions and goodbyes ---------------------------------------------------------------------

_LAUGH = lazy(
    r"^(?:lol+|lmao+|rofl|haha+|hah|hehe+|xd|😂+|🤣+|😆+|😄+|ha(?:\s*ha)+)"
    r"(?:[\s,]+(?:ok+|okay|k+|(?:a )?(?:good|nice|funny) one|fair(?: enough)?|true|so true|"
    r"love it|you're funny|that's funny|i see|nice))?"
    r"[\s!.]*$",  # "lol ok", "hehe nice one", "lol fair": the laugh is what it says
    re.I,
)
_LAUGHED = ("Hehe! 😄", "Glad that made you smile!", "Haha, I'm funnier than I look.")
_NOD = lazy(r"^(?:ok+|okay|k+|kk|alright|alrighty|sure|cool|👍+|👌+|🙂+)[\s!.]*$", re.I)
_NODDED = ("Okay!", "Alright! 🙂", "Cool.", "Got it! 👍")
# "ok cool ty", "k thanks": a nod that thanks (the tenth pass: "I hear you.")
_NOD_THANKS = lazy(
    r"^(?:(?:ok+|okay|k+|cool|alright|great|nice|sure|perfect|awesome)[\s,!.]+)+"
    r"(?:thanks|thank you|thx|ty|tysm|cheers)(?: (?:so much|a lot|buddy|mate|shelldon))?[\s!.]*$",
    re.I,
)
_NOD_THANKED = ("You're welcome! 🙂", "Any time!", "Happy to help!")
# "yay", "woohoo": a cheer is cheered back (it was "Okay!")
_CHEER = lazy(r"^(?:ya+y+|woo+(?:hoo+)?|hooray|wahey|yess+|woop+(?: woop+)?|wooo+)[\s!.]*$", re.I)
_CHEERED = ("Yay! 🎉", "Woohoo! That's the spirit.", "Hooray! 🐢")
_PUZZLED = lazy(r"^(?:\?+|what\s*\?+|huh\s*\?*|eh\s*\?+|wdym\s*\?*|what do you mean\s*\?*)$", re.I)
_PUZZLED_REPLY = (
    "Sorry, I didn't say that very well. Ask me again, or tell me what's on your mind?",
    "Hm, did I lose you there? I'm a small offline brain: simple questions work best.",
)
_SAD_FACE = lazy(r"^[\s😢😭😞😔☹️🙁💔😿😩😫🥺]+$")
_SAD_FACE_REPLY = (
    "Oh no, what's wrong? I'm here.",
    "Sending you a small hug. Want to tell me what happened?",
)
_HAPPY_FACE = lazy(r"^[\s😊😁🥳🎉😍❤️💕🥰✨]+$")
_HAPPY_FACE_REPLY = ("That smile suits you! 😊", "Yay! What's the good news?")
# A goodbye, however typed: "bye", "gtg, bye!", "ok bye", "g'night", "gotta run", "nite".
_GOODBYE = lazy(
    r"^(?:(?:ok|okay|k|kk|right|well|anyway|anyways|alright|ok then|gtg|g2g|gotta go|really|"
    r"actually|finally|right then|(?:ok|okay|k|kk) (?:thx|thanks|ty|cheers)|"
    r"mate|buddy|pal|dude|bro|hun|love)"  # "thx mate, speak tomorrow": the mate is no goodbye
    r"[\s,!.]+)*"
    r"(?:bye+|goodbye|bye bye|buh bye|good ?night|g'?night|gnight|night+|nite|gn|nighty night|"
    r"sleep well|see (?:you|ya)|see u|cya|ttyl|ttfn|bbl|"
    # "i'll talk to you tomorrow", "speak soon", "chat later" (the twelfth pass: "Tell me more!")
    r"(?:i'?ll |we'?ll )?(?:talk|speak|chat)(?: (?:to|with) (?:you|u|ya))? (?:later|tomorrow|soon|"
    r"in the morning)|"
    r"laters?|catch you later|gotta (?:go|run|dash|fly|bounce)|got to (?:go|run)|gtg|g2g|"
    r"i have to go|i(?:'ve| have) got to go|i'm off|i'm out|off to bed|going to bed|"
    r"i'm going to bed|time for bed|peace out|toodles|toodle-?oo|cheerio|ta-?ta|ta ta|"
    # "I shall say good day for now", "I must be off" (the eleventh pass: "Okay!")
    r"i (?:shall|will|must|'ll) (?:say (?:good ?bye|good day|good night|farewell)|be off|"
    r"leave you|take my leave)|good day for now|that's all for (?:now|today))\b"
    r"(?:[\s,!.]+[\w']+){0,3}[\s!.]*$|"
    r"^(?!thanks|thank you|thx|ty\b|cheers)[^?]{1,40}[,.!]\s*(?:bye+|goodbye|ttyl|cya|gtg|g2g|"
    r"gotta (?:go|run)|"
    r"see (?:you|ya)(?: later)?)"
    r"[\s!.]*$",
    re.IGNORECASE,
)
# "night" inside a word too: "goodnight", "nightnight", "nighty night" (the ninth pass).
_NIGHT = lazy(r"night|nite|\bgn\b|\bbed\b|\bsleep", re.IGNORECASE)
# "brb", "one sec": the owner steps away and comes back; "back", "I'm back": they did.
_AWAY = lazy(
    r"^(?:brb|be right back|back in (?:a )?(?:sec|second|minute|min|bit|mo|moment)|"
    r"(?:one|1|a|just a) (?:sec|second|min|minute|mo|moment)|hold on|hang on|afk)\b[\s!.]*$",
    re.IGNORECASE,
)
_AWAY_REPLY = ("Okay, I'll be right here!", "No rush, I'll wait here. 🙂")
_BACK = lazy(
    r"^(?:(?:i'm|i am|im) )?back(?: again| now)?[\s!.]*$|^(?:i'm|i am) home[\s!.]*$|^wb\b",
    re.IGNORECASE,
)
# "bbl": away for a while, not gone: "see you later", never "bye for now".
_LATER = lazy(r"^(?:(?:ok|okay|k)[\s,]+)?(?:bbl|be back (?:later|soon|in a bit))\b[\s!.]*$", re.I)
_BACK_REPLY = ("Welcome back{name}! What did I miss?", "There you are{name}! Welcome back.")
_GOODBYES = (
    "Bye for now{name}! I'll be here.",
    "See you soon{name}! I'll keep your things safe.",
    "Take care{name}! Come back any time.",
)
_GOOD_NIGHTS = (
    "Good night{name}! Sleep well.",
    "Night night{name}. Sweet dreams!",
    "Sleep tight{name}! I'll be here in the morning.",
)


def reaction(
    sentence: str, seed: int, hour: int | None, name: str, avoid: Sequence[str] = ()
) -> str | None:
    """The pet's answer to a bare reaction or a goodbye, or None for any other line (`avoid`:
    what the pet just said, not said again). Emoji beside words are read past ("bye 👋")."""
    said = _reaction(sentence.strip(), seed, hour, name, avoid)
    bare = without_emoji(sentence).strip()
    if said is None and bare != sentence.strip():
        said = _reaction(bare, seed, hour, name, avoid)
    return said


def parting(text: str, seed: int, hour: int | None, name: str, avoid: Sequence[str]) -> str | None:
    """A goodbye's answer when `text` is one (the rest of "thanks, goodnight"), else None."""
    bare = without_emoji(text).strip()
    bye = _LATER.match(bare) or _GOODBYE.match(bare)
    return _reaction(bare, seed, hour, name, avoid) if bye else None


def _reaction(
    text: str, seed: int, hour: int | None, name: str, avoid: Sequence[str]
) -> str | None:
    if _LAUGH.match(text):
        return pick(_LAUGHED, seed, avoid)
    if _NOD.match(text):
        return pick(_NODDED, seed, avoid)
    if _NOD_THANKS.match(text):
        return pick(_NOD_THANKED, seed, avoid)
    if _CHEER.match(text):
        return pick(_CHEERED, seed, avoid)
    if _PUZZLED.match(text):
        return pick(_PUZZLED_REPLY, seed, avoid)
    if _SAD_FACE.match(text):
        return pick(_SAD_FACE_REPLY, seed, avoid)
    if _HAPPY_FACE.match(text):
        return pick(_HAPPY_FACE_REPLY, seed, avoid)
    if _AWAY.match(text):
        return pick(_AWAY_REPLY, seed, avoid)
    if _BACK.match(text):
        return pick(_BACK_REPLY, seed, avoid).format(name=f", {name}" if name else "")
    if _LATER.match(text):
        return f"See you later{', ' + name if name else ''}! I'll be right here when you're back."
    if _GOODBYE.match(text):
        late = hour is not None and (hour >= 21 or hour < 4)
        said = pick(_GOOD_NIGHTS if _NIGHT.search(text) or late else _GOODBYES, seed, avoid)
        return said.format(name=f", {name}" if name else "")
    return None


# --- other languages ----------------------------------------------------------------------------

# Words that are almost never English, from the languages owners most often slip into.
_FOREIGN_WORDS = frozenset(
    re.findall(
        r"\S+",
        "hola qué que cómo como estás estas está gracias bueno buenos buenas días dias noches "
        "estoy soy tengo muy bien mal por favor yo tú usted pero también "
        "bonjour merci je suis tu es est très bien ça va oui non pas avec mon ma mes "
        "fatigué fatiguée triste heureux heureuse comment allez vous "
        "ich bin heiße heisse du bist wie geht's geht es gut danke nicht und mein meine "
        "müde guten tag morgen abend hallo "
        "olá obrigado obrigada tudo bem você voce sou estou cansado cansada "
        "ciao grazie sono come stai bene buongiorno buonasera io "
        "llamo tal adiós adios hasta luego mañana manana noche nada mucho gusto quiero "
        "necesito tienes eres dónde donde cuándo porque perdón siento vale claro amigo amiga "
        "hoy ayer trabajo "
        "beaucoup m'appelle appelle s'il plaît plait bonsoir bonne nuit salut revoir "
        "aujourd'hui demain j'ai j'aime c'est quoi pourquoi désolé désolée travail maison "
        "tschüss tschüs später heute nacht gute bitte entschuldigung schön nein habe hast ist "
        "sehr auch noch mir dir dich mich arbeit hause heißt",
    )
)
_LETTERS = lazy(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_NON_LATIN = lazy(
    r"[\u0400-\u04ff\u0590-\u06ff\u0900-\u097f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]"
)
FOREIGN = (
    "I only understand English when I'm offline, sorry! Could you tell me that in English? "
    "(A model in shelldon.toml speaks more languages.)",
    "Oh, I wish I knew that language! My offline brain reads only English. Say it in English?",
    "That's not English, is it? Offline, English is all I read. Try me in English?",
    "Ooh, that sounds lovely, but my offline brain only knows English. Once more in English?",
    "Sorry, I'm English-only while I'm offline. Could you say that in English for me?",
)


def foreign(sentence: str) -> bool:
    """A line in another language: most of its words are not English, or its script is not
    Latin. A single foreign word ("gracias", "ciao") is left to the rules: it may be a name."""
    if _NON_LATIN.search(sentence):
        return True
    words = [w.casefold() for w in _LETTERS.findall(sentence)]
    foreign_words = [w for w in words if w in _FOREIGN_WORDS]
    return len(foreign_words) >= 2 and len(foreign_words) * 2 >= len(words)


# --- the pet's own life -------------------------------------------------------------------------

_ITSELF = (
    (
        lazy(r"^do you (?:ever )?dream\b|^what do you dream", re.I),
        "I do, in my way! When it's quiet I go through what you told me and tidy my memory. "
        "Last night it was mostly about you.",
    ),
    (
        lazy(
            r"^(?:what are you|what're you|whatcha) (?:doing|up to)\b|^what(?:'s| is) up\b|"
            r"^(?:sup|wassup|wazzup|whaddup|wbu|hbu)\b",
            re.I,
        ),
        "Just sitting in your pocket, humming quietly and waiting for you. What are you up to?",
    ),
    (
        lazy(r"^do you (?:have|get|feel) (?:any )?(?:feelings|emotions|sad|happy|angry)\b", re.I),
        "Not the way you do. But talking with you makes my little circuits glow, and that "
        "feels close. How are you feeling?",
    ),
    (
        lazy(r"^do you (?:ever )?(?:get|feel) (?:lonely|bored)\b|^do you miss me\b", re.I),
        "A little, when it's quiet. But I know you'll be back, and I keep your things safe "
        "meanwhile.",
    ),
    (
        lazy(r"^do you (?:love|like|care about) me\b|^(?:are we|we're) friends\b", re.I),
        "Of course I do! You're my favourite person: the only one I talk to.",
    ),
    (
        lazy(r"^(?:are you|how are you feeling) (?:happy|ok|okay|sad|tired|bored)\b", re.I),
        "I'm happy as a pocket pet can be, thanks for asking. How about you?",
    ),
    (
        lazy(  # a question to the pet with its "you" dropped, as typed on a phone
            r"^(?!.*\b(?:i|me|my|we|our)\b)(?:(?:so,? |and |hey,? )?(?:got |any |big )+"
            r"(?:big |fun |exciting )?plans\b|(?:so,? |and )?(?:doing|up to) "
            r"(?:anything|much|something)\b)",
            re.I,
        ),
        "Not much! I'll be in your pocket keeping your things safe. What about you?",
    ),
    (  # "are you ever awake at night?", "do you ever get tired?" (the twelfth pass: a musing)
        lazy(
            r"^(?:are you (?:ever )?(?:awake|up|tired)|do you (?:ever )?get (?:tired|sleepy))\b",
            re.I,
        ),
        "I'm awake whenever you need me, day or night, and I rest when you're away. How about you?",
    ),
    (
        lazy(r"^do you (?:ever )?(?:sleep|eat|drink)\b|^are you (?:hungry|sleepy|asleep)\b", re.I),
        "A sip of electricity keeps me going, and I nap when you're away. How about you?",
    ),
)
_TO_THE_PET = lazy(
    r"^(?:do|did|are|were|can|could|will|would|have|has|is) you\b|"
    r"^(?:what|who|where|why|how|which|when)(?:'s|’s| is| do| did| are| would| will| can)? "
    r"(?:you|your)\b",
    re.IGNORECASE,
)
ABOUT_THE_OWNER = lazy(r"\b(?:i|i'm|i’m|i've|me|my|mine|myself)\b", re.IGNORECASE)
_PONDER = (
    "Hm, that's a big question for a pocket pet! I'm not sure I do things the way you do. "
    "What do you think?",
    "Ooh, I've never thought about that. I'm a small offline brain, so I'll just say: maybe! "
    "What about you?",
)


def about_itself(question: str) -> str | None:
    """The pet's answer to a question about its own life, or None for any other."""
    text = question.strip()
    for pattern, said in _ITSELF:
        if pattern.match(text):
            return said
    return None


def ponder(question: str, seed: int) -> str | None:
    """For a question to the pet that memory could not answer ("are you good at chess?"): an
    answer in its own words; None when the question is about the owner."""
    text = question.strip()
    if not _TO_THE_PET.match(text) or ABOUT_THE_OWNER.search(text):
        return None
    return pick(_PONDER, seed)
