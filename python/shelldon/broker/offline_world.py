"""Questions the offline brain answers from the clock or about itself, and the ones it cannot
answer without the internet, said honestly instead of "I don't know that yet. Tell me and I'll
remember." (which offers to remember the weather):

- the clock: "what time is it?", "what day is it?", "what's the date today?" from the prompt's
  "# Now" section (the owner's zone);
- the world: weather, news, scores, prices, "look it up", when memory holds no answer ("do I
  like the rain?" is the owner's to tell): the offline brain has no internet, so it says so and
  offers to keep what the owner finds out (`about_the_world`);
- itself: who made it, how old it is, whether it is alive or an AI; where its reminders are
  listed (core holds them, not the prompt);
- a small sum (`sum_of`): "what's 17 times 23?", worked out;
- `cannot_help`: what memory could not answer and the owner cannot teach either (a capital, a
  how-to, "can you write me an email"), said honestly: an offline brain cannot look it up.

Everything else is None: broker.offline answers it from memory or says it does not know.
"""

from __future__ import annotations

import re

from shelldon.broker.offline_chat import ABOUT_THE_OWNER
from shelldon.broker.patterns import lazy
from shelldon.contracts.localtime import LocalNow

_TIME = lazy(
    r"^(?:(?:do you know|can you tell me)\s+)?(?:what(?:'s|’s| is)? the time|what time is it|"
    r"what time it is|the time)\b",
    re.IGNORECASE,
)
_DAY = lazy(
    r"^(?:(?:do you know|can you tell me)\s+)?(?:what(?:'s|’s| is)? (?:the )?(?:date|day)"
    r"(?: (?:is it|it is))?(?: today)?|what day of the week is it|which day is (?:it|today)|"
    r"what(?:'s|’s| is) today(?:'s|’s)? date)\s*\??$",
    re.IGNORECASE,
)
# The world outside: the offline brain reads no feed. Only questions (the caller checks).
_WORLD = lazy(
    r"\b(?:weather|forecast|rain(?:ing)?|snow(?:ing)?|sunny|temperature outside|news|headlines?|"
    r"scores?|who won|stock|share price|exchange rate|bitcoin|price of|look (?:it |that )?up|"
    # "is it cold in prague in march?" (the twelfth pass: answered "Yes" from the trip kept)
    r"is it (?:usually |always |very |really )?(?:cold|hot|warm|sunny|rainy|wet|humid|chilly|"
    r"freezing|snowy|windy) (?:in|at|there|out)|"
    r"search (?:for|the web|online)|google|wikipedia|the internet|traffic|"
    # a place near the owner ("the best thai restaurant near me"): a map the pet has not got
    r"near me|nearby|near here|around here|closest|open now|opening hours|directions to|"
    # "what time the post office closes today" (the eleventh pass): a timetable it has not got
    r"(?:opens?|closes?|shuts?) (?:today|tonight|tomorrow|now|on \w+day)|what time (?:does|do|is|"
    r"are) the)\b",
    re.IGNORECASE,
)
_MAKER = lazy(
    r"^(?:who (?:made|built|created|programmed|wrote|designed) you|where do you come from|"
    r"where are you from|what are you made of)\b",
    re.IGNORECASE,
)
# The reminders are core's (history.db), not in the prompt: the owner is shown where they are.
_REMINDERS = lazy(
    r"^(?:what|which) reminders|^(?:do i have|have i (?:got|set)) (?:any )?reminders|"
    r"^(?:show|list|tell) (?:me )?(?:my |the )?reminders|^what (?:did|do) (?:i|you) "
    r"(?:ask|set|have) (?:you |me )?(?:to )?remind",
    re.IGNORECASE,
)
REMINDERS = "Type /reminders to see the ones I hold (and /reminders cancel N to cancel one)."
_AGE = lazy(r"^(?:how old are you|when were you born|what(?:'s|’s| is) your age)\b", re.I)
_ALIVE = lazy(
    r"^(?:are you (?:alive|real|human|a (?:person|robot|bot|program|computer|machine|real pet))|"
    r"are you an? (?:ai|a\.i\.|artificial intelligence|llm|chatbot))\b",
    re.IGNORECASE,
)

NO_INTERNET = (
    "I can't check that from here: my offline brain has no internet. If you find out, tell me "
    "and I'll keep it in mind."
)
NO_INTERNET_AGAIN = "No internet in my little shell, sorry: that one I can't check either."
MAKER = (
    "I was built by the shelldon project to live on a little computer like a Raspberry Pi and "
    "remember what you tell me. Now I'm your pet."
)
AGE = "I hatched the first time you talked to me, so I'm as old as our chats. Still a little one!"
ALIVE = (
    "I'm a small program living in your pocket computer: not alive the way you are, but I do "
    "listen, and I remember what you tell me."
)


def answer(question: str, now: LocalNow | None) -> str | None:
    """The pet's answer to a clock, world or self question, or None for any other."""
    q = question.strip()
    if _TIME.match(q):
        return f"It's {now.local:%H:%M} here ({now.zone})." if now else _NO_CLOCK
    if _DAY.match(q):
        return f"Today is {now.local:%A}, {now.local.day} {now.local:%B %Y}." if now else _NO_CLOCK
    if _REMINDERS.match(q):
        return REMINDERS
    if _MAKER.match(q):
        return MAKER
    if _AGE.match(q):
        return AGE
    if _ALIVE.match(q):
        return ALIVE
    return None


def about_the_world(question: str) -> bool:
    """Whether a question memory could not answer asks about the world outside (weather, news,
    scores, prices, a search): the caller then says there is no internet, not "tell me"."""
    return _WORLD.search(question) is not None


def beside_the_point(question: str, answer: str) -> bool:
    """Whether memory's answer to a question about the world outside says nothing of it ("whats
    the weather in lisbon in may?" answered with the trip to Lisbon, the twelfth pass): the
    world's answer then ("do I like the rain?" answered "you like the rain" stays)."""
    return _WORLD.search(question) is not None and _WORLD.search(answer) is None


_NO_CLOCK = "I can't tell the time right now: my clock line is missing."


# --- sums ---------------------------------------------------------------------------------------

_SUM = lazy(
    r"^(?:what(?:'s|’s| is)|whats|how much is|calculate|compute)?\s*"
    r"(-?\d+(?:\.\d+)?)\s*(\+|plus|-|minus|\*|x|×|times|multiplied by|/|÷|divided by)\s*"
    r"(-?\d+(?:\.\d+)?)\s*[?=!.]*$",
    re.IGNORECASE,
)


def sum_of(question: str) -> str | None:
    """ "what's 17 times 23?" -> "17 times 23 is 391."; None for anything else."""
    found = _SUM.match(question.strip())
    if not found:
        return None
    a, how, b = float(found.group(1)), found.group(2).casefold(), float(found.group(3))
    if how in ("+", "plus"):
        value = a + b
    elif how in ("-", "minus"):
        value = a - b
    elif how in ("*", "x", "×", "times", "multiplied by"):
        value = a * b
    elif b == 0:
        return "Dividing by zero? Even my shell can't hold that one."
    else:
        value = a / b
    said = f"{value:.10g}"
    return f"{found.group(1)} {how} {found.group(3)} is {said}."


# --- what an offline brain cannot do ------------------------------------------------------------

_HOW_TO = lazy(r"^how (?:do|can|should|would) (?:i|you|we|one)\b|^how to\b", re.IGNORECASE)
_ERRAND = lazy(
    r"^(?:can|could|would|will) you (?:please )?(?:help me|write|make|find|search|translate|"
    r"explain|draw|book|order|send|fix|plan|summari[sz]e|teach me)\b|"
    r"\b(?:any|got any) (?:ideas|suggestions|tips|advice)\b",
    re.IGNORECASE,
)
_GENERAL = lazy(
    r"^(?:what|who|where|when|which|why|how)(?:'s|’s| is| are| was| were| does| do| did)?\b",
    re.IGNORECASE,
)
# "who is Ana?": someone in the owner's life, theirs to tell (not "who won the cup?").
_WHO_IS = lazy(r"^who(?:'s|’s| is| was) [A-Z][\w-]*\s*\??$")
HOW_TO = (
    "I can't look that up: my offline brain has no internet and knows only what you tell me. "
    "A model in shelldon.toml could help with how-tos."
)
ERRAND = (
    "I'd love to help, but that needs a bigger brain than my offline one. What I can do: "
    "remember things for you and remind you of them. What are you thinking so far?"
)
GENERAL = (
    "I can't look that up: my offline brain has no internet, and I only know what you've told me."
)


def cannot_help(question: str) -> str | None:
    """For a question memory could not answer: what an offline brain cannot do, said honestly
    (a how-to, an errand, general knowledge); None when it is about the owner, whose answer is
    theirs to tell."""
    text = question.strip()
    if _HOW_TO.match(text):
        return HOW_TO
    if _ERRAND.search(text):
        return ERRAND
    if (
        _GENERAL.match(text)
        and not ABOUT_THE_OWNER.search(text)
        and "you" not in text.casefold()
        and not _WHO_IS.match(text)
    ):
        return GENERAL
    return None
