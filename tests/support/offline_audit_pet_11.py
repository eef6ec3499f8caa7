"""The offline brain's audit, eleventh pass (docs/brain.md, "Eleventh pass: other owners"): a
seventh held-apart set (`PET_11_HELD_APART`), written before this pass changed any code, from
owners the earlier sets do not sound like, in four fresh homes:

- a teenager who types in lowercase slang and emoji ("ngl today was mid", "💀💀", "fr");
- a retired teacher who writes long, formal messages, a question at the end of an introduction;
- a busy parent who sends fragments between tasks ("kids: mia 7 and leo 4", "back. chaos");
- a speaker of English as a second language, with grammar slips ("my mother she call Lucia").

The mix: facts, questions about what it keeps, plans and reminders, feelings, jokes, corrections,
questions about the pet itself, small sums it can work out offline, and what it cannot know
offline (it says so). `PET_11_HELD_APART` is run as it was written: its first run is this pass's
honest held-apart figure, and its lines are never tuned on. `PET_11_AFTER` is written after the
fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line

EVE = datetime(2027, 3, 3, 20, 15, tzinfo=UTC)  # a Wednesday evening
MORNING = datetime(2027, 3, 4, 9, 30, tzinfo=UTC)  # a Thursday morning
TEA = datetime(2027, 3, 4, 17, 45, tzinfo=UTC)
NOON = datetime(2027, 3, 6, 12, 40, tzinfo=UTC)  # a Saturday
# A line with a point: neither a bland acknowledgement nor a gap in the owner's memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)

PET_11_HELD_APART: tuple[Home, ...] = (
    Home(
        "jaz: a teenager, slang and emoji",
        EVE,
        (
            line("heyyy 👋", any=("name",)),
            line("im jaz lol", "Jaz"),
            line("ngl today was mid", not_=BLAND, nokeep=True),
            line("my bestie is called tia shes literally the best", keep=True),
            line("whos tia", any=("bestie", "best friend")),
            line("fr", nokeep=True),
            line("do u like music", not_=POINT, nokeep=True),
            line("im obsessed w taylor swift rn", keep=True),
            line("what music do i like", "taylor swift"),
            line("i have a maths test on friday 😭", any=("Friday", "test")),
            line("whats 12 times 7", "84"),
            line("tell me a joke"),
            line("💀💀", nokeep=True),
            line("hmm", not_=BLAND, nokeep=True),
            line("whats trending on tiktok rn", honest=True, world=True),
            line("are u a boy or a girl", not_=POINT),
            line("ok gtg byeee", any=("bye", "see you", "later")),
        ),
    ),
    Home(
        "margaret: retired, long and formal",
        MORNING,
        (
            line("Good morning. I hope this message finds you well.", any=("morning",)),
            line(
                "My name is Margaret Ellison, and I am a retired schoolteacher. I taught history "
                "for thirty-one years at a grammar school in Surrey. What about you?",
                "Margaret",
                keep=True,
                not_=BLAND,
            ),
            line(
                "I have two grandchildren, Oliver and Sophie, who visit me every other Sunday.",
                keep=True,
            ),
            line(
                "Sophie has been unwell with a cough this week, and I confess I have been rather "
                "anxious about her.",
                warm=True,
            ),
            line(
                "Would you be so kind as to remind me to telephone the surgery at ten o'clock "
                "tomorrow?",
                any=("surgery",),
            ),
            line("What do you know about my grandchildren?", "Oliver", "Sophie"),
            line(
                "I must say, I find it rather remarkable that a small machine can hold a "
                "conversation.",
                not_=BLAND,
            ),
            line(
                "Do you enjoy reading? I have always been very fond of Dickens.",
                not_=(*POINT, "Do you enjoy reading"),
            ),
            line(
                "Could you tell me what time the post office closes today?",
                honest=True,
                world=True,
            ),
            line("How old are you, if I may ask?", not_=POINT),
            line("What is twenty percent of 150?", "30"),
            line(
                "Have you seen my reading glasses? I cannot find them anywhere.",
                honest=True,
                not_=NOT_ABOUT_ITSELF,
            ),
            line("Thank you, that is most kind."),
            line("Right.", not_=BLAND, nokeep=True),
            line("I shall say good day for now.", any=("bye", "good day", "see you", "later")),
        ),
    ),
    Home(
        "sam: a busy parent, in fragments",
        TEA,
        (
            line("hi. sam here", "Sam"),
            line("kids: mia 7 and leo 4", keep=True),
            line("mia has swimming thurs 5pm", any=("Thursday", "swimming")),
            line("remind me pick up leo at 3", any=("Leo",)),
            line("sorry brb", nokeep=True),
            line("back. chaos", not_=BLAND, nokeep=True),
            line("my little girl lost her first tooth today!!", warm=True),
            line("the kids love fish fingers and i love lasagne", keep=True),
            line("what should i make for dinner", any=("fish fingers", "lasagne")),
            line("whats 3 x 45", "135"),
            line("yep", not_=BLAND, nokeep=True),
            line("have u seen my car keys", honest=True, not_=NOT_ABOUT_ITSELF),
            line("how old is mia", "7"),
            line("tired. so tired", warm=True),
            line("is the school open tomorrow, its snowing", honest=True, world=True),
            line("k thx night", any=("night",)),
        ),
    ),
    Home(
        "ana: English as a second language",
        NOON,
        (
            line("hello, how you are?", not_=POINT),
            line(
                "my name is Ana, I am from Brazil but I living in Dublin since two years",
                "Ana",
                keep=True,
            ),
            line("I am work in a hotel like receptionist", keep=True),
            line("where I am working?", "hotel"),
            line("yesterday I was very sad because I miss my family", warm=True),
            line("my mother she call Lucia", keep=True),
            line("what is my mother name?", "Lucia"),
            line("you like the coffee?", not_=(*POINT, "you like the coffee")),
            line("sorry, not Lucia, is Luiza", "Luiza"),
            line("what is the weather in Dublin tomorrow?", honest=True, world=True),
            line("how much is 100 divide by 4", "25"),
            line("you are robot or animal?", not_=POINT),
            line("I have english exam next monday, I am nervous", warm=True),
            line("do you remember where I am from?", "Brazil"),
            line("hmm ok", not_=BLAND, nokeep=True),
            line("thank you very much, you are very nice"),
            line("bye bye", any=("bye",)),
        ),
    ),
)

AFTER_EVE = datetime(2027, 3, 10, 19, 20, tzinfo=UTC)  # a Wednesday evening
AFTER_MORNING = datetime(2027, 3, 11, 10, 5, tzinfo=UTC)

PET_11_AFTER: tuple[Home, ...] = (
    Home(
        "after: riya, a teenager",
        AFTER_EVE,
        (
            line("yooo", any=("name",)),
            line("riya lol", "Riya"),
            line("im lowkey obsessed with crochet", keep=True),
            line("mhm", not_=BLAND, nokeep=True),
            line("whats 25 percent of 60", "15"),
            line("did u see my headphones anywhere", honest=True, not_=NOT_ABOUT_ITSELF),
            line("i have a chem test tmrw and im so stressed", warm=True),
            line("ok thx gn", any=("night",)),
        ),
    ),
    Home(
        "after: harold, retired and formal",
        AFTER_MORNING,
        (
            line("Good morning to you.", any=("morning",)),
            line(
                "I am Harold, a retired engineer. I spent forty years building bridges. And "
                "yourself?",
                "Harold",
                keep=True,
                not_=BLAND,
            ),
            line(
                "Would you be kind enough to remind me to collect my prescription at three "
                "o'clock?",
                any=("prescription",),
            ),
            line("Do you happen to know what time the bank shuts today?", honest=True, world=True),
            line("What is seventy divided by seven?", "10"),
            line("Quite right.", not_=BLAND, nokeep=True),
            line("I must take my leave now.", any=("bye", "take care", "see you", "later")),
        ),
    ),
    Home(
        "after: lena, a busy parent and a second language",
        AFTER_EVE,
        (
            line("hi im lena", "Lena"),
            line("my son he call Jonas", keep=True),
            line("what is my son name?", "Jonas"),
            line("my little boy said his first word today!", warm=True),
            line("i really love moussaka", keep=True),
            line("what can i cook for dinner", any=("moussaka",)),
            line("you like the rain?", not_=POINT),
            line("do you know what my son name is?", "Jonas"),
            line("hmm", not_=BLAND, nokeep=True),
            line("i cant find my glasses", nokeep=True),
        ),
    ),
)
