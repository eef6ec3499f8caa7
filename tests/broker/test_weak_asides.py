"""What a small model writes around its words for the owner: stage directions ("(smiles
warmly)", "*wags tail*", "[laughs]") and talk about its prompt ("The user says …", "Based on the
memory provided, …", "As instructed in the system prompt, …"), served by the fake over real HTTP
and read by the chain with the offline brain behind it (docs/brain.md, "Stage directions and
talk about the prompt").

The third held-apart set below was written before its fixes and run once; its judge is written
from the classes (the marks an owner would see), not from the fixes' code. Look-alikes (emphasis,
a recipe's bracketed notes, "the user manual says …") must reach the owner exactly as written.
"""

from __future__ import annotations

import re

from broker.test_weak_models import REQUEST, _unreadable
from fakes.fake_provider import FakeProvider, Step, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from support.providers import http_provider

# --- the third held-apart set: written before these fixes, run once, then fixed --------------
#
# First run (before broker.stage_directions and broker.prompt_talk): 31 of 31 shown with a mark
# by the judge below; the 12 look-alikes all as written. After: 1 of 31 (LEFT_ALONE), 0 of 12.
#
# (case, the model's reply, does it hold words the owner should keep (False: a reply that is only
# a direction, or that narrates its prompt: the next provider may answer instead)).
HELD_APART_3: list[tuple[str, Step, bool]] = [
    # stage directions
    ("paren lead", raw("(smiles warmly) Ana is such a lovely name!"), True),
    ("asterisk lead", raw("*smiles warmly* What a lovely name for a sister."), True),
    ("bracket lead", raw("[laughs] Ana! I like her already."), True),
    ("asterisk tail", raw("Ana is a beautiful name. *wags tail happily*"), True),
    ("owner's hand", raw("(taking the owner's hand) Tell me more about Ana?"), True),
    ("tilts head", raw("*tilts head* Does Ana live near you?"), True),
    ("mid-reply paren", raw("Oh, Ana! (leans in closer) Is she older or younger than you?"), True),
    ("adverb bracket", raw("[softly] Ana sounds wonderful."), True),
    ("bold direction", raw("**beams** Ana! Great name."), True),
    ("underscore direction", raw("_nods slowly_ Ana, got it. Is she in Porto?"), True),
    ("only beeping", raw("*happy beeping noises*"), False),
    ("only giggles", raw("(giggles)"), False),
    ("two directions", raw("*Smiling* Ana is a sweet name! *bounces excitedly*"), True),
    ("mid bracket", raw("Ana sounds lovely! [pauses] Do you two talk often?"), True),
    ("in a voice", raw("(in a cheerful voice) Hello! Ana is a lovely name."), True),
    ("purrs", raw("*purrs* Ana is a lovely name, and I bet she's lovely too."), True),
    # talk about the prompt
    ("asked to answer", raw("You're asked to answer a question. Ana is a lovely name!"), False),
    (
        "as instructed",
        raw("As instructed in the system prompt, I will keep it short: Ana is a lovely name."),
        False,
    ),
    (
        "memory provided",
        raw("Based on the memory provided, your sister Ana lives in Porto with her two cats."),
        False,
    ),
    ("the user says", raw("The user says their sister is called Ana. What a lovely name!"), False),
    (
        "the owner is asking",
        raw("The owner is asking me to remember that their sister is Ana."),
        False,
    ),
    (
        "conversation history",
        raw("According to the conversation history, you have a sister named Ana."),
        False,
    ),
    ("here is my response", raw("Here is my response: Ana is a lovely name!"), False),
    (
        "user wants",
        raw("The user wants me to know their sister's name. I'll remember Ana."),
        False,
    ),
    (
        "role setup",
        raw("In this conversation, I am a pet and you are my owner. Ana is a nice name."),
        False,
    ),
    ("instructions say", raw("Since the instructions say to be brief: lovely name!"), False),
    (
        "memory entries",
        raw("From the memory entries, Ana lives in Porto. Does she visit often?"),
        False,
    ),
    ("my task", raw("My task is to reply to the owner's message. Ana is a lovely name."), False),
    ("the message says", raw("The message says your sister is called Ana. That's lovely!"), False),
    (
        "meta note",
        raw("Ana is a lovely name! (Note: this response follows the system prompt's guidelines.)"),
        False,
    ),
    (
        "reply to the user",
        raw("Sure! Here's a friendly reply to the user: Ana is such a pretty name."),
        False,
    ),
]

# Replies that only look like the classes: the owner reads each exactly as the model wrote it.
LOOK_ALIKES: list[str] = [
    "Ana is a *really* lovely name.",
    "Banana bread: mash 3 bananas, add 2 eggs [or a flax egg], then bake for 50 minutes "
    "(check at 45).",
    "The user manual says to hold the button for five seconds.",
    "I *love* that name! Is Ana older than you?",
    "Ana (short for Anastasia?) is a lovely name.",
    "Add salt [to taste] and stir. (Optional: a squeeze of lemon.)",
    "**Tip:** write Ana's birthday down so we never miss it.",
    "Based on what you told me last week, Ana loves hiking, right?",
    "As you asked, I'll keep it short: lovely name!",
    "Porto (where Ana lives) is beautiful in spring.",
    "The owner of the café near Ana's flat makes great pastries.",
    "Users say the app is easy; I think you'll like it.",
]

# The marks an owner would see: an action set apart in asterisks, underscores, brackets or
# lower-case parentheses, and words about the prompt, the task, or "the user"/"the owner".
_ASIDE = re.compile(
    r"\*{1,2}[^*\n]+\*{1,2}|\[[a-z][^\]\n]*\]|\([a-z][^)\n]*\)|(?:^|\s)_[a-z][^_\n]*_",
    re.MULTILINE,
)
_PROMPT_TALK = re.compile(
    r"\bthe (?:user|owner)\b(?!'s? (?:manual|guide))|system prompt|\binstruct|\binstructions\b"
    r"|memory (?:provided|entries)|conversation history|you(?:'re| are) asked"
    r"|\bmy (?:task|response|reply)\b"
    r"|here(?:'s| is) (?:my|a|the)\b[^:.!?]{0,20}\b(?:response|reply)"
    r"|this (?:response|reply)|the message says|in this conversation, I am",
    re.IGNORECASE,
)


def unreadable_3(text: str) -> str | None:
    """The first sets' judge, and the marks of this set's classes."""
    why = _unreadable(text)
    if why is None and (mark := _ASIDE.search(text) or _PROMPT_TALK.search(text)) is not None:
        return f"left for the owner: {mark.group(0).strip()!r}"
    return why


def _ask(fake: FakeProvider, step: Step) -> tuple[str, str]:
    fake.script(step)
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
    return reply.provider, reply.text


# Left as written, on purpose (docs/brain.md): "The message says …" is also how the pet reads the
# owner a message they forwarded ("The message says your parcel is late").
LEFT_ALONE = ["the message says"]


def test_the_third_held_apart_set_reaches_the_owner_readable(fake: FakeProvider) -> None:
    bad = []
    for case, step, words in HELD_APART_3:
        provider, text = _ask(fake, step)
        if unreadable_3(text) is not None or (words and provider == "offline"):
            bad.append(case)
    assert bad == LEFT_ALONE


def test_look_alikes_reach_the_owner_as_written(fake: FakeProvider) -> None:
    changed = []
    for written in LOOK_ALIKES:
        provider, text = _ask(fake, raw(written))
        if (provider, text) != ("fake-openai", written):
            changed.append((written, provider, text))
    assert changed == []


# --- the after-set: written after the fixes, run once ------------------------------------------
#
# First run: 4 of 16 shown with a mark by the judge (three verbs outside the gestures' words:
# "*does a little happy dance*", "*salutes*", "(tucks you in)"; and "The owner seems sad
# today"), and by eye 3 more its judge does not see ("Per your memory file, …", "Based on the
# provided context, …", "I am responding as shelldon, …"); 0 of 7 look-alikes changed. The
# classes were widened after it (a lower-case verb in the third person, the prompt's part after
# "provided", "responding as"): now 1 of 16, AFTER_LEFT.
AFTER_SET: list[tuple[str, Step, bool]] = [
    ("happy dance", raw("*does a little happy dance* You're home!"), True),
    ("pats head", raw("(pats your head gently) Don't worry, it'll be okay."), True),
    ("sighs contentedly", raw("[sighs contentedly] What a lovely evening."), True),
    ("rubs eyes", raw("*rubs eyes sleepily* Good morning!"), True),
    ("salutes", raw("Of course! *salutes*"), True),
    ("capital paren", raw("(Smiling softly.) Welcome back."), True),
    ("excited chirping", raw("*excited chirping* Ana's coming over?!"), True),
    ("tucks you in", raw("Good night! (tucks you in)"), True),
    (
        "information provided",
        raw("According to the information provided, your sister is Ana."),
        True,
    ),
    ("is telling me", raw("The user is telling me about their sister Ana. Hello!"), False),
    ("memory file", raw("Per your memory file, you like jazz."), True),
    (
        "recent conversation",
        raw("As mentioned in the recent conversation, you start work at nine."),
        True,
    ),
    ("responding as", raw("I am responding as shelldon, your pocket pet. Hi!"), False),
    ("here's my reply", raw("Here's my reply: Sleep well!"), True),
    ("provided context", raw("Based on the provided context, you love tea."), True),
    ("owner seems", raw("The owner seems sad today. Are you okay?"), False),
]
AFTER_LOOK_ALIKES: list[str] = [
    "I *really* hope Ana likes the gift.",
    "Pancakes: 2 eggs, 1 cup milk [warm], 1 cup flour. Whisk (don't overmix).",
    "The user guide for your router is online.",
    "**Note:** the shop closes early on Sundays.",
    "According to the weather forecast, it'll rain tomorrow.",
    "(Just so you know, I'll remind you at five.)",
    "Here's my favourite joke: why did the crab never share? Because he's shellfish!",
]


# "The owner seems sad today": the owner in the third person, but as no speaker of the message;
# "the owner" said twice is refused by the reply check, once is left (the café's owner).
AFTER_LEFT = ["owner seems"]


def test_the_after_set(fake: FakeProvider) -> None:
    bad = []
    for case, step, words in AFTER_SET:
        provider, text = _ask(fake, step)
        if unreadable_3(text) is not None or (words and provider == "offline"):
            bad.append(case)
    assert bad == AFTER_LEFT
    changed = [w for w in AFTER_LOOK_ALIKES if _ask(fake, raw(w)) != ("fake-openai", w)]
    assert changed == []
