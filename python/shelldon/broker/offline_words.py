"""The offline brain's words: what a sentence is about (content words, with a few synonyms), a
stable key for an observation, and the person shifts between what the owner says ("I", "my"),
what a memory entry says ("the owner", "the owner's") and what the pet says back ("you", "your").

Shared by broker.offline (the rules), broker.offline_view (reading the prompt) and the small
modules beside them (offline_forget, offline_topics); kept apart so none imports the rules.
"""

from __future__ import annotations

import re

from shelldon.broker.patterns import lazy
from shelldon.core.words import PET_WORDS, STOPWORDS, stem

# --- words -------------------------------------------------------------------------------------

# What a question and a statement are compared without: the stop words and the pet's own nouns.
UNSAID = STOPWORDS | PET_WORDS
# Words that mean the same thing for matching a question to a statement.
_SYNONYMS = {
    "called": "name", "named": "name", "names": "name", "call": "name",
    "love": "like", "loves": "like", "enjoy": "like", "enjoys": "like", "likes": "like",
    "prefer": "like", "prefers": "like", "fond": "like", "favorite": "favourite",
    "lives": "live", "living": "live", "located": "live",
    "works": "work", "working": "work", "job": "work",
    "born": "birthday", "bday": "birthday",
    "mom": "mum", "mother": "mum", "dad": "father",
    # chat words for the owner's people: "whats my bfs name" asks after "my boyfriend"
    "gf": "girlfriend", "gfs": "girlfriend", "bf": "boyfriend", "bfs": "boyfriend",
    "sis": "sister", "bro": "brother", "hubby": "husband", "hubbys": "husband",
    "wifey": "wife",
    "hate": "dislike", "hates": "dislike", "dislikes": "dislike", "detest": "dislike",
    "detests": "dislike", "loathe": "dislike", "loathes": "dislike",
}  # fmt: skip
WORD = lazy(r"[^\W_]+(?:['’][^\W_]+)*")
# Compiled now: tables built at import normalise words with it (the rest: broker.patterns).
_CONTRACTION = re.compile(r"'(?:s|m|re|ve|ll|d)$")


def norm(word: str) -> str:
    w = _CONTRACTION.sub("", word.casefold().replace("’", "'"))
    w = _SYNONYMS.get(w, w)
    return stem(_SYNONYMS.get(stem(w), w))


def plain_words(text: str) -> list[str]:
    out: list[str] = []
    for raw in WORD.findall(text):
        w = _CONTRACTION.sub("", raw.casefold().replace("’", "'"))
        if len(w) > 1 and w not in UNSAID and w not in out:
            out.append(w)
    return out


def content_words(text: str) -> list[str]:
    """Casefolded, lightly stemmed words that carry meaning, in order, without repeats."""
    out: list[str] = []
    for raw in WORD.findall(text):
        plain = _CONTRACTION.sub("", raw.casefold().replace("’", "'"))
        if len(plain) < 2 or plain in UNSAID:
            continue
        w = norm(raw)
        if w not in out:
            out.append(w)
    return out


def pattern_key(kind: str, text: str, words: int = 5) -> str:
    """A stable key: the same observation, however punctuated or cased, gives the same key."""
    return f"{kind}:" + "-".join(plain_words(text)[:words])


# --- person: first <-> second <-> third --------------------------------------------------------

_MODALS = frozenset(
    re.findall(r"\S+", "can cannot could will would should shall may might must did was had")
)
_IRREGULAR_3RD = {
    "have": "has",
    "do": "does",
    "go": "goes",
    "am": "is",
    "'m": "is",
    "don't": "doesn't",
    "haven't": "hasn't",
}
_IRREGULAR_2ND = {
    "has": "have",
    "does": "do",
    "goes": "go",
    "is": "are",
    "doesn't": "don't",
    "isn't": "aren't",
    "hasn't": "haven't",
    "wasn't": "weren't",
    "was": "were",
}


ADVERBS = (
    "(?:usually|often|always|normally|generally|never|rarely|sometimes|really|also|still|just|only|"
    "actually|truly|absolutely|quite|mostly)"
)


def third_person_verb(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR_3RD:
        return _IRREGULAR_3RD[low]
    if low in _MODALS or low.endswith("ed") or low.endswith("n't"):
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _second_person_verb(verb: str) -> str:
    low = verb.lower().replace("’", "'")
    if low in _IRREGULAR_2ND:
        said = _IRREGULAR_2ND[low]
        return said.replace("'", "’") if "’" in verb else said
    if low in _MODALS or low.endswith("ed") or low.endswith("n't") or low == "lives":
        return verb[:-1] if low == "lives" else verb
    if low.endswith("ies"):
        return verb[:-3] + "y"
    if re.search(r"(sses|shes|ches|xes|zes|oes)$", low):
        return verb[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return verb[:-1]
    return verb


def to_third_person(text: str) -> str:
    """The owner's first-person sentence as a memory entry says it ("the owner has ...")."""
    out = re.sub(
        r"\bI(?:'m| am)\b",
        "the owner is",
        text,
    )
    out = re.sub(
        rf"\bI ((?:{ADVERBS} )*)(\w+n't|\w+)\b",  # "don't" whole, never "don" + "'t"
        lambda m: "the owner " + m.group(1) + third_person_verb(m.group(2)),
        out,
    )
    out = re.sub(r"\bI\b", "the owner", out)
    out = re.sub(r"\b(?:my|our)\b", "the owner's", out, flags=re.IGNORECASE)
    out = re.sub(r"\b(?:mine|ours)\b", "the owner's", out, flags=re.IGNORECASE)
    out = re.sub(r"\b(?:me|myself|us|ourselves)\b", "the owner", out, flags=re.IGNORECASE)
    out = re.sub(r"^[Ww]e(?:'re| are)\b", "the owner is", out)
    out = re.sub(r"^[Ww]e\b", "the owner", out)
    return sentence(out)


# The owner's "you" is the pet: said back, it is "I"/"me" (both directions in one pass).
_OWNER_YOU = (
    (lazy(r"(^|[,;:]\s*|\b(?:and|but|so|because|if|when|that)\s+)you(?:'re| are)\b"),
     "\\1\ue000 am"),
    (lazy(r"(^|[,;:]\s*|\b(?:and|but|so|because|if|when|that)\s+)you\b"), "\\1\ue000"),
    (lazy(r"\byou\b"), "\ue001"),
    (lazy(r"\byours\b"), "\ue002"),
    (lazy(r"\byour\b"), "\ue003"),
)  # fmt: skip
_PET_SAYS = str.maketrans({"\ue000": "I", "\ue001": "me", "\ue002": "mine", "\ue003": "my"})


def to_second_person(text: str) -> str:
    """A stored statement (first person or "the owner ...") as said back to the owner."""
    out = re.sub(r"(?<![\w'’.])i(?=(?:['’](?:m|ve|d|ll))?\b(?!\.))", "I", text)  # "i love …"
    for pattern, said in _OWNER_YOU:
        out = pattern.sub(said, out)
    out = re.sub(r"\b[Tt]he owner's\b", "your", out)
    out = re.sub(
        rf"\b[Tt]he owner ((?:{ADVERBS} )*)(\w+n[’']t|\w+)\b",  # "doesn't" whole, not "doesn"
        lambda m: "you " + m.group(1) + _second_person_verb(m.group(2)),
        out,
    )
    out = re.sub(r"\b[Tt]he owner\b", "you", out)
    out = re.sub(r"\bI(?:'m| am)\b", "you are", out)
    out = re.sub(r"\bI\b", "you", out)
    out = re.sub(r"\byou was(n[’']t)?\b", lambda m: "you were" + (m.group(1) or ""), out)
    out = re.sub(r"\b(?:[Mm]y|[Oo]ur)\b", "your", out)
    out = re.sub(r"\b(?:[Mm]ine|[Oo]urs)\b", "yours", out)
    out = re.sub(r"\b(?:[Mm]e|[Mm]yself|[Uu]s)\b", "you", out)
    out = re.sub(r"\b[Ww]e(?:'re| are)\b", "you are", out)
    out = re.sub(r"\b[Ww]e\b", "you", out)
    out = re.sub(r"\b([Yy]ou) are\b(?=\s+\w)", r"\1're", out)  # as a person says it
    return out.translate(_PET_SAYS).strip().rstrip(".!") + "."


def sentence(text: str) -> str:
    text = " ".join(text.split()).strip().rstrip(".!;,")
    return (text[:1].upper() + text[1:] + ".") if text else ""


def lower_first(text: str) -> str:
    """Lower-case a sentence's first word for use mid-sentence, unless it is a name ("Ana")."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first.casefold() in UNSAID else text


# --- word tables: one home for each list the offline modules share --------------------------
# Regex alternations (longest first, so "best friend" is tried before "friend"). Each module builds
# its own pattern from them; none keeps a copy of its own.


def alternation(*words: str) -> str:
    """One regex alternation of the words, longest first ("grandma" before "gran")."""
    return "|".join(sorted(dict.fromkeys(w for w in words if w), key=lambda w: (-len(w), w)))


def plurals(*words: str) -> tuple[str, ...]:
    """Each word and its plural as owners type it ("sister", "sisters"; "puppy", "puppies")."""
    out: list[str] = []
    for w in words:
        out += [w, w[:-1] + "ies" if re.search(r"[^aeiou]y$", w) else w + "s"]
    return tuple(out)


# The owner's family, said one at a time ("my sister", "my gf").
KIN = (
    "sister", "brother", "mum", "mom", "mam", "mother", "father", "dad", "wife", "husband",
    "partner", "boyfriend", "girlfriend", "gf", "bf", "fiancé", "fiancée", "fiance", "fiancee",
    "son", "daughter", "baby", "kid", "child", "grandma", "grandmother", "granny", "gran", "nan",
    "grandpa", "grandfather", "grandad", "aunt", "auntie", "uncle", "cousin", "niece", "nephew",
    "twin", "stepmum", "stepdad", "hubby", "wifey", "sis", "bro",
    # the thirteenth pass's after-set: "my grandson Alfie turns 10 next saturday" was no one
    "grandson", "granddaughter", "grandchild", "grandkid",
    "granddad",  # the sixteenth pass's after-set: "my granddad lives in Gdansk" was no one
    # a child by what a parent calls them (the eleventh pass: "my little girl" was no one)
    "little girl", "little boy", "little one", "baby girl", "baby boy",
)  # fmt: skip
# The owner's family, said together ("my kids", "my parents").
KIN_GROUPS = ("parents", "kids", "children", "family", "grandchildren", "grandkids", "siblings")
# Everyone else the owner speaks of by who they are to them.
OTHERS = (
    "best friend", "friend", "mate", "bff", "boss", "manager", "colleague", "coworker",
    "neighbour", "neighbor", "flatmate", "roommate", "housemate", "teacher", "doctor", "dentist",
)  # fmt: skip
# The animals owners keep.
ANIMALS = (
    "cat", "dog", "puppy", "kitten", "hamster", "rabbit", "bunny", "parrot", "bird", "horse",
    "fish", "goldfish", "tortoise", "turtle", "guinea pig", "snake", "lizard", "ferret", "mouse",
    "rat", "gerbil", "hen", "chicken", "duck", "goat", "pony",
)  # fmt: skip
# A pet named by its breed ("a golden retriever called Biscuit") is a pet of its kind.
BREEDS = {
    "dog": (
        "golden retriever", "retriever", "labrador", "lab", "labradoodle", "cockapoo", "cavapoo",
        "spaniel", "cocker spaniel", "springer spaniel", "springer", "collie", "border collie",
        "beagle", "poodle", "dachshund", "sausage dog", "terrier", "jack russell", "westie",
        "husky", "greyhound", "whippet", "lurcher", "pug", "bulldog", "french bulldog", "frenchie",
        "corgi", "shih tzu", "chihuahua", "alsatian", "german shepherd", "schnauzer", "boxer",
        "rottweiler", "dalmatian", "staffie", "staffy", "pomeranian", "cavalier", "sheepdog",
    ),
    "cat": (
        "tabby", "siamese", "persian", "maine coon", "ragdoll", "bengal", "sphynx",
        "british shorthair", "moggy", "tortoiseshell",
    ),
}  # fmt: skip
# Who is a "she" or a "he" by the word the owner used (the rest may be either).
SHE = frozenset(
    ("sister", "mum", "mom", "mam", "mother", "wife", "girlfriend", "gf", "fiancée", "fiancee",
     "daughter", "grandma", "grandmother", "granny", "gran", "nan", "aunt", "auntie", "niece",
     "stepmum", "wifey", "sis", "granddaughter")
)  # fmt: skip
HE = frozenset(
    ("brother", "father", "dad", "husband", "boyfriend", "bf", "fiancé", "fiance", "son",
     "grandpa", "grandfather", "grandad", "uncle", "nephew", "stepdad", "hubby", "bro", "grandson",
     "granddad")
)  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_CALENDAR = frozenset((*WEEKDAYS, *MONTHS, "today", "tomorrow", "tonight"))
_NAMES_TOO = frozenset(("may", "june", "april"))


def a_day(word: str, *, may_be_a_name: bool = False) -> bool:
    """Whether a word is a calendar word ("Monday", "march", "tonight"): a day, never a person.
    One home for broker.offline's names said in passing and offline_talk.is_name.
    `may_be_a_name`: "May", "June" and "April" are read as the names they also are."""
    said = word.casefold()
    return said in _CALENDAR and not (may_be_a_name and said in _NAMES_TOO)


# A hello, in English as owners type it (a time of day is offline_greet's to read).
HELLOS = ("hi", "hello", "hey", "hiya", "howdy", "yo", "greetings", "heya", "hii", "hey there")
TIMES_OF_DAY = ("morning", "afternoon", "evening")

# Emoji and ASCII smileys at a line's edges: "night 🌙", "hola 👋", "gm ☀️", "im lucia :)".
_EMOJI = lazy(
    r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u2300-\u23FF\uFE0F\u200D"
    r"\u2764\u203C\u2049]+|(?<!\w)[:;]-?[)(DPp]+(?!\w)|<3"
)


def without_emoji(text: str) -> str:
    """The line without its emoji and smileys, when words are left ("night 🌙" is "night");
    the line as it is when it is only emoji ("😂" is a laugh of its own)."""
    bare = " ".join(_EMOJI.sub(" ", text).split())
    return bare if re.search(r"[^\W\d_]", bare) else text


# What the owner does for a living, said as "I'm a …" ("what's my job?" asks for it).
OCCUPATIONS = (
    "teacher", "nurse", "doctor", "engineer", "developer", "programmer", "designer", "chef",
    "cook", "lawyer", "accountant", "architect", "student", "scientist", "researcher", "writer",
    "journalist", "editor", "artist", "musician", "photographer", "electrician", "plumber",
    "carpenter", "mechanic", "driver", "pilot", "farmer", "baker", "waiter", "waitress",
    "barista", "cashier", "manager", "consultant", "analyst", "salesman", "saleswoman",
    "pharmacist", "dentist", "vet", "veterinarian", "therapist", "psychologist", "paramedic",
    "firefighter", "police officer", "soldier", "librarian", "cleaner", "carer", "caregiver",
    "translator", "lecturer", "professor", "secretary", "receptionist", "hairdresser",
    "builder", "tutor", "coach", "surgeon", "midwife", "instructor", "joiner", "plasterer",
    "roofer", "welder", "florist", "postman", "postwoman", "butcher", "decorator", "physio",
    "physiotherapist", "social worker", "civil servant", "courier", "nanny", "childminder",
    "lorry driver", "bus driver", "taxi driver", "tailor",
)  # fmt: skip

# Words as often misspelt on a phone, read as meant (broker.offline_chat.plain): who someone is
# ("my neice", "my freind sue") and "theyre".
MISSPELT = {
    "theyre": "they're",
    "neice": "niece",
    "neices": "nieces",
    "freind": "friend",
    "freinds": "friends",
    "frend": "friend",
    "frends": "friends",
    "bestfriend": "best friend",
    "girlfreind": "girlfriend",
    "boyfreind": "boyfriend",
    "daugther": "daughter",
    "daugthers": "daughters",
    "nephwe": "nephew",
    "cousine": "cousin",
    "granmother": "grandmother",
    "granfather": "grandfather",
    "nieghbour": "neighbour",
    "roomate": "roommate",
    "roomates": "roommates",
    "flatemate": "flatmate",
    "granson": "grandson",
    "grandaughter": "granddaughter",
}
# A day typed short ("remind me tmrw at 10"): the day it stands for, so a reminder's "when" and a
# plan's day are read as typed in full (the fourteenth pass; offline_chat.plain reads it).
SHORT_DAYS = {
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrrw": "tomorrow",
    "tmoro": "tomorrow",
    "tomoz": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "2mrw": "tomorrow",
    "2day": "today",
    "2nite": "tonight",
    "tonite": "tonight",
}
