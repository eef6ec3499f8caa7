"""Danish and Swedish words in an owner's English, read as the English they stand for before
broker.offline's rules (docs/brain.md, "Seventeenth pass: owners who dictate, list and mix"):

    hej! jeg hedder Freja                -> hej! my name is Freja
    min søster hedder Ida                -> my sister is called Ida
    she works as a nurse i Odense        -> she works as a nurse in Odense
    jeg er så træt today                 -> I'm so tired today
    og også kaffe                        -> and also kaffe
    tack så mycket!                      -> thanks so much!
    vi skal til Göteborg på lørdag       -> we're going to Göteborg on Saturday

An owner from Copenhagen or Malmö types the small words of their own language between English
ones: a name, a relation, a feeling, thanks, a day. Before the seventeenth pass the name was
lost ("What's your name?" after "jeg hedder Freja"), "min søster hedder Ida" kept nothing, and
"jeg er så træt" was wished well as a plan. Only the words below are read, and only in a line
that holds one of the unmistakable words (`_MARKED`), so English is never rewritten; a lone
"i" before a capitalised place is "in" only after a verb of where ("works as a nurse i Odense").
Nouns that are not listed (kaffe, smørrebrød) stay as typed: the owner's own words, kept so.
"""

from __future__ import annotations

import re
from functools import partial

from shelldon.broker.patterns import LazyPattern, lazy

_DAYS = {
    "mandag": "Monday", "måndag": "Monday", "tirsdag": "Tuesday", "tisdag": "Tuesday",
    "onsdag": "Wednesday", "torsdag": "Thursday", "fredag": "Friday", "lørdag": "Saturday",
    "lördag": "Saturday", "søndag": "Sunday", "söndag": "Sunday",
}  # fmt: skip
_KIN = {
    "søster": "sister", "syster": "sister", "bror": "brother", "mor": "mum", "mamma": "mum",
    "far": "dad", "pappa": "dad", "kone": "wife", "fru": "wife", "hustru": "wife",
    "mand": "husband", "kæreste": "partner", "sambo": "partner", "pojkvän": "boyfriend",
    "flickvän": "girlfriend", "datter": "daughter", "dotter": "daughter", "søn": "son",
    "son": "son", "ven": "friend", "veninde": "friend", "vän": "friend", "väninna": "friend",
    "kompis": "friend", "farmor": "grandma", "mormor": "grandma", "farfar": "grandad",
    "morfar": "grandad", "hund": "dog", "kat": "cat", "katt": "cat",
}  # fmt: skip
# Words no English line holds: a line with one of them is read with the table below.
_MARKED = lazy(
    r"\b(?:jeg|jag|hedder|heter|søster|syster|træt|trött|tak|tack|også|också|og|och|skal|ska|"
    r"hej|hejsan|mycket|mange|tusind|navn|namn|är|vi|mig|mit|mitt|min|dag|idag|imorgon|"
    + "|".join(_DAYS)
    + r")\b",
    re.IGNORECASE,
)
_READ: tuple[tuple[LazyPattern, str], ...] = (
    (lazy(r"\b(?:jeg hedder|jag heter|mit navn er|mitt namn är|mitt navn er)\b", re.I),
     "my name is"),
    (lazy(r"\b(?:jeg er|jag är)\b", re.I), "I'm"),
    (lazy(r"\b(?:jeg|jag)\b", re.I), "I"),
    (lazy(r"\b(?:min|mit|mitt)\s+(" + "|".join(_KIN) + r")\b", re.I), "my {kin}"),
    (lazy(r"\b(?:hedder|heter)\b", re.I), "is called"),
    (lazy(r"\b(?:er|är)\s+(?=så\b|meget\b|mycket\b|träe?t|trött)", re.I), "is "),
    (lazy(r"\b(?:træt|trött)\b", re.I), "tired"),
    (lazy(r"\b(?:glad|glada)\b(?=\s+(?:i dag|idag|today))", re.I), "happy"),
    (lazy(r"\b(?:tusind tak|mange tak|tack så mycket|tack så mkt|tusen tack)\b", re.I),
     "thanks so much"),
    (lazy(r"\b(?:tak|tack)\b", re.I), "thanks"),
    (lazy(r"\b(?:så|meget|mycket)\b", re.I), "so"),
    (lazy(r"\b(?:og også|och också)\b", re.I), "and also"),
    (lazy(r"\b(?:også|också)\b", re.I), "also"),
    (lazy(r"\b(?:og|och)\b", re.I), "and"),
    (lazy(r"\bvi (?:skal|ska|tager|åker|kører) (?:til|till)\b", re.I), "we're going to"),
    (lazy(r"\b(?:i dag|idag)\b", re.I), "today"),
    (lazy(r"\b(?:i morgen|imorgon|i morgon)\b", re.I), "tomorrow"),
    (lazy(r"\bpå (" + "|".join(_DAYS) + r")\b", re.I), "on {day}"),
    (lazy(r"\b(" + "|".join(_DAYS) + r")\b", re.I), "{day}"),
)  # fmt: skip
# "works as a nurse i Odense", "lives i Malmö": "i" before a place, after a verb of where.
_IN_PLACE = lazy(
    r"\b((?:work|works|working|live|lives|living|study|studies|born|grew up|bor|bo)\b"
    r"(?:\s+(?:as|at)\s+an?\s+[\w-]+)?)\s+i\s+(?=[A-ZÆØÅÄÖ])"
)


def _put(template: str, found: re.Match[str]) -> str:
    word = (found.group(1) if found.groups() else "").casefold()
    return template.format(kin=_KIN.get(word, word), day=_DAYS.get(word, word))


def read(line: str) -> str:
    """The line with its Danish or Swedish small words in English (see the module); any other
    line as it was."""
    text = _IN_PLACE.sub(r"\1 in ", line)
    if not _MARKED.search(text):
        return text
    for pattern, template in _READ:
        text = pattern.sub(partial(_put, template), text)
    return text
