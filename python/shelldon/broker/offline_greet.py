"""A greeting, read by broker.offline (docs/brain.md, "The audit pass: typed on a phone"):
"hi", "hey there 👋", "good morning ☀️", "gm", "afternoon 👋", "evening all", "morning
sunshine", and a hello in another language ("hola", "salut!", "buenos días ☀️", "bonsoir").

A greeting with a time of day is answered in kind ("Good morning, Nina!"), with the emoji
around it read past (offline_words.without_emoji); on the pet's first turn the introduction
keeps it ("Good morning! I'm shelldon, …"). A hello in another language is said back in its
own words, with the honest note that the offline brain reads English (one word, "hola", is no
sentence in another language for offline_chat.foreign, but it is still a hello).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.offline_talk import pick
from shelldon.broker.offline_words import HELLOS, TIMES_OF_DAY, alternation, without_emoji
from shelldon.broker.patterns import lazy

_AFTER = r"(?:[\s,!.]+(?:there|all|everyone|friend|buddy|mate|sunshine|shelldon|you|love|"
_AFTER += r"lovely|little one|pal|again|to you|[A-Z][\w'’-]*))?[\s,!.?]*$"
_HELLO = lazy(rf"^(?:(?:{alternation(*HELLOS)})[\s,!.]*)+?{_AFTER}", re.IGNORECASE)
# "good morning", "morning", "mornin", "gm", "top of the morning", "good aftanoon" is not read.
_TIMED = lazy(
    rf"^(?:(?:{alternation(*HELLOS)})[\s,!.]+)?(?:(?:a )?very )?(?:good |top of the )?"
    rf"(?P<when>{alternation(*TIMES_OF_DAY)}|mornin|gm|g'?morning|evenin)" + _AFTER,
    re.IGNORECASE,
)
_WHEN = {"gm": "morning", "mornin": "morning", "gmorning": "morning", "g'morning": "morning",
         "evenin": "evening"}  # fmt: skip
_IN_KIND = {
    "morning": ("Did you sleep well?", "What's the plan for today?", "I hope it's a gentle one."),
    "afternoon": ("How's your day going?", "Lovely to see you.", "Need a little break?"),
    "evening": ("How was your day?", "Lovely to see you.", "Time to put your feet up?"),
}
_HELLO_BACK = ("Hello{name}! Good to see you.", "Hey{name}! What's up?", "Hi{name}! 🐢")

# A hello, good night or goodbye in the languages owners most often slip into, and what it is.
_ABROAD = {
    "hello": (
        "hola", "salut", "hallo", "ciao", "olá", "ola", "oi", "bonjour", "servus", "moin",
        "hej", "hoi", "namaste", "konnichiwa", "ahoj", "privet", "merhaba", "guten tag",
        "buenos días", "buenos dias", "bom dia", "buongiorno", "guten morgen", "buenas",
        "buenas tardes", "boa tarde", "bonsoir", "buonasera", "guten abend", "goedemorgen",
        "qué tal", "que tal", "ça va", "ca va", "hola hola",
    ),
    "night": (
        "bonne nuit", "gute nacht", "buenas noches", "buona notte", "buonanotte", "boa noite",
        "gn8", "oyasumi",
    ),
    "bye": (
        "adiós", "adios", "au revoir", "tschüss", "tschüs", "arrivederci", "hasta luego",
        "hasta mañana", "tchau", "ciao ciao", "à plus", "a plus", "bis später", "bis morgen",
        "chao",
    ),
}  # fmt: skip
_FOREIGN = lazy(
    rf"^(?P<said>{alternation(*(w for ws in _ABROAD.values() for w in ws))})"
    r"(?:[\s,!.]+(?:amigo|amiga|mon ami|mein freund|[A-Z][\w'’-]*|à tous|a todos))?[\s,!.¡¿]*$",
    re.IGNORECASE,
)
_ABROAD_BACK = {
    "hello": "{Said}{name}! Offline I only read English, but I know a hello when I see one.",
    "night": "{Said}{name}! Sleep well. Offline I only read English, but I know a good night "
    "when I see one.",
    "bye": "{Said}{name}! Come back soon. Offline I only read English, but I know a goodbye "
    "when I see one.",
}


def time_of_day(sentence: str) -> str | None:
    """ "morning", "afternoon" or "evening" when the line is a greeting by the time of day."""
    found = _TIMED.match(without_emoji(sentence).strip())
    if found is None:
        return None
    said = found.group("when").casefold()
    return _WHEN.get(said, said)


def greeting(sentence: str, seed: int, name: str, avoid: Sequence[str] = ()) -> str | None:
    """The pet's answer to a greeting (`name`: the owner's, "" when unknown); None for any other
    line."""
    text = without_emoji(sentence).strip()
    named = f", {name}" if name else ""
    when = time_of_day(text)
    if when is not None:
        return f"Good {when}{named}! {pick(_IN_KIND[when], seed, avoid)}"
    if _HELLO.match(text):
        return pick(_HELLO_BACK, 0, avoid).format(name=named)  # the first, unless just said
    found = _FOREIGN.match(text)
    if found is not None:
        said = found.group("said")
        kind = next(k for k, ws in _ABROAD.items() if said.casefold() in ws)
        return _ABROAD_BACK[kind].format(Said=said[:1].upper() + said[1:], name=named)
    return None


def first_words(reply: str) -> str | None:
    """The greeting a reply opens with ("Good morning"), for the first turn's introduction."""
    found = re.match(r"^(Good (?:morning|afternoon|evening))\b", reply)
    return found.group(1) if found else None
