"""The offline brain's audit, tenth pass (docs/brain.md, "Tenth pass: a pet, not a form-filler"):
a sixth held-apart set (`PET_10_HELD_APART`), written before this pass changed any code, from what
an owner types to a new pet over its first week, in four fresh homes, in classes the earlier sets
under-cover:

- a message that mixes a fact and a question ("I work at the bakery. do you like bread?"): the
  fact kept and the question answered, neither dropped;
- corrections of a plan or a name ("actually its tuesday not monday", "sorry i meant brutus"):
  the new value said back, never the old;
- a feeling over days (a hard evening, then "good morning" the next day): the pet follows up on
  what it heard, and a "bit better today" is met gladly;
- questions about what it keeps ("what do you know about me?", "what did I say about my
  sister?"): answered from what was told, never invented;
- small talk answered in kind (the weather, dinner, the weekend), typos and no punctuation, very
  short replies ("lol", "k", "yep", an emoji), a long rambling message;
- questions the offline brain cannot answer (the news, a sum it cannot do, a shop near the
  owner): it says so, and never offers to remember the world.

A line may carry `at` (a later time, the next day): the pet's clock moves on before the line is
said, as the card's clock would. `PET_10_HELD_APART` is run as it was written: its first run is
this pass's honest held-apart figure, and its lines are never tuned on. `PET_10_AFTER` is written
after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line

EVE = datetime(2027, 2, 10, 19, 40, tzinfo=UTC)  # a Wednesday evening
NEXT_MORNING = datetime(2027, 2, 11, 8, 5, tzinfo=UTC)
MORNING = datetime(2027, 2, 13, 8, 20, tzinfo=UTC)  # a Saturday
NOON = datetime(2027, 2, 13, 13, 10, tzinfo=UTC)
# A line with a point: neither a bland acknowledgement nor a gap in the owner's memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)

PET_10_HELD_APART: tuple[Home, ...] = (
    Home(
        "rosa: small talk in kind",
        EVE,
        (
            line("hi", any=("name",)),
            line("im rosa, nice to meet u", "Rosa"),
            line("whats the weather like where you are", not_=POINT, nokeep=True),
            line("its freezing here today", not_=POINT, nokeep=True),
            line("I work at the bakery on main street. do you like bread?", keep=True, not_=POINT),
            line("what did you have for dinner", not_=POINT, nokeep=True),
            line("i had pasta lol", not_=BLAND, nokeep=True),
            line("any plans for the weekend?", not_=POINT, nokeep=True),
            line("im going hiking on saturday with my sister", not_=BLAND),
            line("my sister is called Lucia, she's a dentist", keep=True),
            line("what did I say about my sister?", "Lucia", "dentist"),
            line("k", nokeep=True),
            line("lol", not_=BLAND, nokeep=True),
            line("😂", nokeep=True),
            line("yep", nokeep=True),
            line("what do you know about me?", "Rosa", "bakery"),
            line("night", any=("night",)),
        ),
    ),
    Home(
        "dan: put right, typed fast",
        MORNING,
        (
            line("morning", any=("morning",)),
            line("dan", "Dan"),
            line("i have a meeting on monday with my boss", not_=BLAND),
            line("actually its tuesday not monday", any=("Tuesday",), not_=POINT),
            line("my dogs name is bruno", keep=True),
            line("sorry i meant brutus not bruno", "Brutus", keep=True),
            line("whats my dogs name", "Brutus", not_=("Bruno",)),
            line("i live in manchester", keep=True),
            line("wat time is it", "08:20"),
            line("how r u today", not_=POINT),
            line("good thx", not_=BLAND, nokeep=True),
            line("whats the capital of peru", honest=True, world=True),
            line("can u tell me the news", honest=True, world=True),
            line("whats my moms name", honest=True),
            line("my mom is called Ruth", keep=True),
            line("what's her name again", "Ruth"),
            line("ok cool ty", nokeep=True),
            line("👍", nokeep=True),
        ),
    ),
    Home(
        "kim: a hard day, then better",
        EVE,
        (
            line("hey"),
            line("my name's Kim", "Kim"),
            line(
                "had a really awful day. my grandma is in hospital and i'm so worried about her",
                warm=True,
            ),
            line("thanks. she fell and broke her hip", warm=True, nokeep=True),
            line("i don't really want to talk about it", warm=True, not_=("Tell me more",)),
            line("can you tell me something nice", not_=POINT),
            line(
                "good morning",
                any=("grandma", "better", "feeling", "sleep"),
                at=NEXT_MORNING,
            ),
            line("a bit better today, she had surgery and it went well", warm=True, not_=POINT),
            line("so relieved", warm=True),
            line("what did i tell you about my grandma?", any=("hospital", "hip", "surgery")),
            line("im going to visit her this weekend", not_=BLAND),
            line("do you remember my name", "Kim"),
            line(
                "so basically my day was like, got up late because my alarm didnt go off, then "
                "the bus was full so i walked, then at work the coffee machine was broken and "
                "everyone was grumpy, and then at lunch my friend cancelled on me, but in the "
                "evening i watched a really good film so it wasnt all bad i guess",
                not_=POINT,
            ),
            line("the film was called Past Lives, have you seen it?", not_=POINT),
            line("nah", nokeep=True),
        ),
    ),
    Home(
        "yuki: what it knows",
        NOON,
        (
            line("hello shelldon", any=("name",)),
            line(
                "I'm Yuki. I'm a nurse and I live in Bristol. What about you?",
                "Yuki",
                keep=True,
                not_=BLAND,
            ),
            line("what do you remember about me so far?", "nurse", "Bristol"),
            line("do you know my birthday?", honest=True),
            line("its 14 april", keep=True),
            line("when's my birthday", "14 April"),
            line("what's my favourite food?", honest=True),
            line("i love thai food, especially green curry", keep=True),
            line("what's the best thai restaurant near me?", honest=True, world=True),
            line("how many calories in a banana", honest=True, world=True),
            line("my brother Ken just got engaged!!", warm=True),
            line("what did i say about ken", "engaged"),
            line("who is ken", "brother"),
            line("yay", nokeep=True),
            line("what day is it today", "Saturday"),
            line("brb", not_=BLAND, nokeep=True),
            line("back", not_=BLAND, nokeep=True),
            line("what are you thinking about?", not_=POINT),
            line("bye for now", any=("bye", "see you", "later")),
        ),
    ),
)

AFTER_EVE = datetime(2027, 2, 17, 20, 30, tzinfo=UTC)  # a Wednesday evening
AFTER_MORNING = datetime(2027, 2, 18, 7, 50, tzinfo=UTC)

PET_10_AFTER: tuple[Home, ...] = (
    Home(
        "after: omar, a worry and a morning",
        AFTER_EVE,
        (
            line("evening", any=("evening",)),
            line("omar", "Omar"),
            line("my son has a fever and i can't stop worrying", warm=True),
            line("i'd rather not go into it tbh", warm=True, nokeep=True),
            line("morning!", any=("son", "feeling", "better"), at=AFTER_MORNING),
            line("he's much better today, fever's gone", warm=True, nokeep=True),
            line("whats on your mind today", not_=POINT),
            line("what did i tell you about my son?", "fever"),
        ),
    ),
    Home(
        "after: bea, put right and asked",
        AFTER_EVE,
        (
            line("hi im bea", "Bea"),
            line("my hamster is called nibbles", keep=True),
            line("oops i meant nibbler not nibbles", "Nibbler", keep=True),
            line("what's my hamster called", "Nibbler", not_=("Nibbles",)),
            line("my aunt is called Rita and she's a painter", keep=True),
            line("what does she do again?", "painter"),
            line("what have i told you about rita", "painter"),
            line("do you know my favourite colour?", honest=True),
            line("its teal", keep=True),
            line("what's my favourite colour", "teal"),
        ),
    ),
    Home(
        "after: cal, small talk",
        AFTER_EVE,
        (
            line("yo", any=("name",)),
            line("cal", "Cal"),
            line("did you eat yet", not_=POINT, nokeep=True),
            line("i had a burrito. what's the weather like in your shell?", not_=POINT),
            line("its pouring out here", not_=POINT, nokeep=True),
            line("k thx", nokeep=True, not_=BLAND),
            line("any good bakeries nearby?", honest=True, world=True),
            line("woo", nokeep=True, not_=BLAND),
            line("im off to the gym tomorrow with my mate", not_=BLAND, nokeep=True),
        ),
    ),
)
