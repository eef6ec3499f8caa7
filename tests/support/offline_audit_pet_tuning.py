"""The offline brain's audit, fifth pass: the tuning set (docs/brain.md, "The audit pass: a pet on
a phone"), written from the classes the held-apart set (tests/support/offline_audit_pet.py)
showed on its first run, in other words and other homes:

- a past event, said with how it went or not ("we saw a film last night", "the exam went
  really well", "my train got cancelled again"): asked about or shared, nothing kept;
- news about someone else ("my dad retired today", "my friend is pregnant!");
- errands an offline pocket pet cannot do ("call my dad", "text Sam for me", "can you buy
  milk"): said plainly, with the verb;
- follow-ups about the pet's last line ("why?", "how come?", "are you sure?", "seriously?",
  "what do you think?");
- emoji-only lines (sleepy, love, party, a wave, food);
- a fact about the past ("I used to work in a café", "I used to have a dog called Max"): kept,
  in the second person said back ("when you were little", never "you was");
- the known leftovers: "I used to love running but not anymore" as a first line ("updated"
  with nothing kept before), "bbl" (a goodbye, where the owner is coming back);
- added after the first fixes, from a seam the held-apart set's replies showed (read, not
  judged): "how was it?" asked of a second sentence after the first was already answered;
- a second round, from the held-apart classes left after the first: a possessive without its
  apostrophe ("my brothers name is tomas"), "wat"/"wats", a laugh before a nod ("haha ok"), a
  goodbye after a few words of what comes next ("right, off to the gym, bye!").
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line
from support.offline_audit_chat import GOODBYE

POINT = (*BLAND, *NOT_ABOUT_ITSELF)
NOT_PRAISE = ("well done",)

PET_TUNING: tuple[Home, ...] = (
    Home(
        "rosa: evenings, what happened",
        datetime(2026, 12, 14, 20, 0, tzinfo=UTC),
        (
            line("hi", any=("name",)),
            line("rosa", "Rosa"),
            line("we saw a film last night", not_=BLAND),
            line("it was amazing", warm=True),
            line("the exam went really well", warm=True),
            line("my train got cancelled again", warm=True),
            line("I had a job interview this morning", not_=BLAND),
            line("I went swimming after work", not_=BLAND),
            line("the concert was brilliant", warm=True),
            line("dinner at my parents was a bit awkward", warm=True),
            line("I finally finished my thesis!", warm=True),
            line("I burnt the toast lol", not_=BLAND, nokeep=True),
            line("we lost the match 3-0", warm=True),
            line("my dog ate my sandwich 😂", not_=BLAND, nokeep=True),
            line("night", any=GOODBYE),
        ),
    ),
    Home(
        "kit: news about others",
        datetime(2026, 12, 14, 9, 0, tzinfo=UTC),
        (
            line("morning", any=("name",)),
            line("I'm Kit", "Kit"),
            line("my dad retired today", warm=True),
            line("my friend is pregnant!", warm=True),
            line("my sister got engaged last night", warm=True),
            line("my mum had surgery yesterday", warm=True),
            line("my cousin passed his driving test", warm=True),
            line("my neighbour's dog ran away", warm=True),
            line("my son won his football match", warm=True),
            line("my best mate got dumped", warm=True),
            line("sooo happy today", warm=True, not_=NOT_PRAISE),
            line("im so excited rn!!", warm=True, not_=NOT_PRAISE),
            line("bye!", any=GOODBYE),
        ),
    ),
    Home(
        "joe: errands and follow-ups",
        datetime(2026, 12, 15, 17, 0, tzinfo=UTC),
        (
            line("hey", any=("name",)),
            line("joe", "Joe"),
            line("call my dad", honest=True, world=True),
            line("text Sam for me", honest=True, world=True),
            line("can you buy milk on the way home", honest=True, world=True),
            line("order me a taxi", honest=True, world=True),
            line("can you send an email to my boss", honest=True, world=True),
            line("turn on the lights", honest=True, world=True),
            line("could you phone the doctor for me?", honest=True, world=True),
            line("play my playlist", honest=True, world=True),
            line("how come?", not_=POINT),
            line("are you sure?", not_=POINT),
            line("seriously?", not_=POINT),
            line("I think summer is better than winter", not_=BLAND),
            line("what do u think", not_=POINT),
            line("why not?", not_=POINT),
            line("wdym", not_=POINT),
            line("cya", any=GOODBYE),
        ),
    ),
    Home(
        "pia: emoji and the past",
        datetime(2026, 12, 16, 21, 30, tzinfo=UTC),
        (
            line("hello", any=("name",)),
            line("I'm Pia", "Pia"),
            line("💤", not_=BLAND),
            line("🥱", not_=BLAND),
            line("🥰", not_=BLAND),
            line("🥳", not_=BLAND),
            line("🍕", not_=BLAND),
            line("🙋‍♀️", not_=BLAND),
            line("I used to work in a café", keep=True, not_=BLAND),
            line("I used to have a dog called Max", keep=True, not_=BLAND),
            line("I used to ride horses when I was a kid", keep=True, not_=BLAND),
            line("do I ride horses?", "used to"),
            line("we used to live by the sea", keep=True, not_=BLAND),
            line("I used to smoke but I quit last year", keep=True, not_=BLAND),
            line("😘", not_=BLAND),
            line("nite nite", any=GOODBYE),
        ),
    ),
    Home(
        "ola: a first line that changed",
        datetime(2026, 12, 17, 11, 0, tzinfo=UTC),
        (
            line("I used to love running but not anymore", keep=True),
            line("do I like running?", "no"),
            line("I used to hate olives, now I love them", keep=True),
            line("do I like olives?", "yes"),
            line("I'm so tired. We walked to the beach and back.", warm=True, not_=("how was",)),
            line("bbl", any=("later",), not_=("bye",)),
        ),
    ),
    Home(
        "eli: shorthand, written after the second round of classes",
        datetime(2026, 12, 18, 16, 0, tzinfo=UTC),
        (
            line("hi", any=("name",)),
            line("eli", "Eli"),
            line("my brothers name is tomas", keep=True),
            line("whats my brother's name", "Tomas"),
            line("my moms birthday is may 3", keep=True),
            line("wats my name", "Eli"),
            line("haha ok", not_=BLAND),
            line("lmao ok", not_=BLAND),
            line("right, off to the gym, bye!", any=GOODBYE, not_=BLAND),
            line("anyway dinner time. cya", any=GOODBYE, not_=BLAND),
        ),
    ),
)
