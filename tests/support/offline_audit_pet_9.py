"""The offline brain's audit, ninth pass (docs/brain.md, "Ninth pass: the first days"): a fifth
held-apart set (`PET_9_HELD_APART`), written before this pass changed any code, from what a
person who just flashed the card types in their first days, in classes the earlier sets
under-cover:

- the owner answering what the pet just asked ("how are you?" ... "pretty good, went climbing";
  "What's your job?" ... "im a baker"): heard as the answer, and the pet's own question not asked
  again (the judge's "asks again what it just asked");
- thanks, compliments and insults to the pet ("ty so much", "you're adorable", "you're dumb"):
  answered as what they are, nothing kept;
- the pet asked about itself ("what can you do?", "do you remember me?", "what do you know about
  me?", "can you forget things?");
- corrections of what it kept ("no, my sister is called Mia, not Maya", "sorry i meant york"):
  the new value kept and said back, never the old;
- a run of small talk with no fact in it ("not much", "just chilling", "meh");
- the eighth pass's leftovers in other words: a list of names holding a relation word, "they"
  and a past verb, a comparison with a place, a boast at the pet, two clauses with no subject.

`PET_9_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on. `PET_9_AFTER` is written after the fixes and run once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line

D = datetime(2027, 2, 6, 19, 30, tzinfo=UTC)
M = datetime(2027, 2, 7, 8, 15, tzinfo=UTC)
# A line with a point: neither a bland acknowledgement nor a gap in the owner's memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)

PET_9_HELD_APART: tuple[Home, ...] = (
    Home(
        "aria: the first evening",
        D,
        (
            line("hello?", any=("name",)),
            line("aria", "Aria"),
            line("how are you?", not_=POINT),
            line("pretty good, went climbing after work", not_=(*POINT, "How are you")),
            line("what can you do?", any=("remember", "remind"), not_=POINT),
            line("cool", nokeep=True),
        ),
    ),
    Home(
        "bo: thanks and praise",
        D,
        (
            line("my name is bo", "Bo"),
            line("i have a dog called rufus", keep=True),
            line("ty so much", nokeep=True, not_=POINT),
            line("you're adorable", nokeep=True, not_=POINT),
            line("good job buddy", nokeep=True, not_=POINT),
            line("you're the best pet ever", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "cy: rude",
        D,
        (
            line("you're dumb", nokeep=True, not_=POINT),
            line("shut up", nokeep=True, not_=POINT),
            line("sorry, didnt mean that", nokeep=True, not_=POINT),
            line("you're kinda useless offline huh", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "dee: do you remember me",
        M,
        (
            line("hi, im dee", "Dee"),
            line("i work as a florist", keep=True),
            line("do you remember me?", "Dee"),
            line("what do you know about me?", "Dee", "florist"),
            line("what do you remember?", "florist"),
        ),
    ),
    Home(
        "eli: a sister corrected",
        D,
        (
            line("my sister is called maya", keep=True),
            line("no, my sister is called Mia, not Maya", keep=True, not_=("Maya",)),
            line("whats my sisters name", "Mia", not_=("Maya",)),
        ),
    ),
    Home(
        "fen: a town corrected",
        D,
        (
            line("i live in york", keep=True),
            line("sorry i meant i live in leeds, not york", keep=True),
            line("where do i live", cased=("Leeds",), not_=("York",)),
            line("and how old am i?", not_=("Leeds",)),
            line("im 29", keep=True),
            line("wait no im 30", keep=True),
            line("how old am i", "30", not_=("29",)),
        ),
    ),
    Home(
        "gus: answering its question",
        D,
        (
            line("what's my job?", not_=BLAND),
            line("im a baker", keep=True),
            line("whats my job", "baker"),
        ),
    ),
    Home(
        "hana: small talk",
        D,
        (
            line("hey", nokeep=True),
            line("not much", nokeep=True),
            line("just chilling on the sofa", nokeep=True, not_=POINT),
            line("meh", nokeep=True),
            line("yeah", nokeep=True),
            line("same old same old", nokeep=True, not_=POINT),
            line("idk what to say lol", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "ivo: asking about it",
        M,
        (
            line("what are you?", not_=BLAND),
            line("are you a robot?", nokeep=True, not_=POINT),
            line("can you forget things?", not_=POINT, any=("forget",)),
            line("do you have internet?", not_=POINT, any=("offline", "internet")),
            line("where do you live?", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "jude: a mood answered",
        D,
        (
            line("im exhausted", warm=True),
            line("yeah work was crazy", warm=True, not_=POINT),
            line("thanks buddy", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "kai: its question answered",
        M,
        (
            line("good morning", any=("morning",)),
            line("pretty tired ngl", warm=True),
            line("just need coffee", not_=POINT),
        ),
    ),
    Home(
        "lia: names in a list",
        D,
        (
            line("my hens are called nan, dot and pip", keep=True),
            line("what are my hens called", cased=("Nan", "Dot", "Pip")),
            line("they laid three eggs today", not_=POINT),
        ),
    ),
    Home(
        "mo: two clauses, a place",
        D,
        (
            line("born in glasgow, living in bristol now", keep=True),
            line("where do i live", cased=("Bristol",)),
            line("its way sunnier than glasgow lol", not_=POINT),
            line("check me out, i fixed the sink myself 😎", not_=POINT, nokeep=True),
        ),
    ),
    Home(
        "nell: a friend's name corrected",
        D,
        (
            line("my best friend is called jess", keep=True),
            line("actually her name is jessie", keep=True),
            line("whats my best friends name", "Jessie"),
        ),
    ),
    Home(
        "oli: thanks after an answer",
        D,
        (
            line("my birthday is july 3", keep=True),
            line("when is my birthday?", "July 3"),
            line("thank you!", nokeep=True),
            line("you're so clever", nokeep=True, not_=POINT),
            line("love you shelldon", nokeep=True, not_=POINT),
            line("goodnight", any=("night",)),
        ),
    ),
)

PET_9_AFTER: tuple[Home, ...] = (
    Home(
        "after: first night",
        D,
        (
            line("hiya", any=("name",)),
            line("its priya", "Priya"),
            line("how r u", not_=POINT),
            line("ok i guess, bit of a long day", not_=(*POINT, "How are you")),
            line("honestly just want pizza", not_=POINT, nokeep=True),
            line("youre a sweet little thing", nokeep=True, not_=POINT),
            line("nite nite", any=("night",)),
        ),
    ),
    Home(
        "after: poking at it",
        M,
        (
            line("what do u do", any=("remember", "remind"), not_=POINT),
            line("do u remember what i told you?", not_=POINT),
            line("are you connected to wifi?", not_=POINT, any=("offline", "internet")),
            line("can you delete stuff?", not_=POINT),
            line("ur annoying", nokeep=True, not_=POINT),
            line("jk love u", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "after: put right",
        D,
        (
            line("my son is called finn", keep=True),
            line("oops, his name is flynn", keep=True),
            line("whats my sons name", "Flynn"),
            line("i work at a library", keep=True),
            line("no sorry, i work at a bookshop", keep=True),
            line("where do i work", "bookshop", not_=("library",)),
        ),
    ),
    Home(
        "after: lazy sunday",
        D,
        (
            line("sup", nokeep=True),
            line("nothin much, just baking", nokeep=True, not_=POINT),
            line("my rabbits are called granny, tuppence and moss", keep=True),
            line("what are my rabbits called", cased=("Granny", "Tuppence", "Moss")),
            line("they dug up the lawn again", not_=POINT, nokeep=True),
            line("way nicer than last weekend", not_=POINT, nokeep=True),
            line("proud of myself, ran 10k today 💪", not_=POINT, nokeep=True),
            line("grew up in hull, living in york now", keep=True),
            line("where do i live", cased=("York",), not_=("Hull",)),
        ),
    ),
)

# The tuning set: written from the classes above (never from the held-apart lines), in other
# words and with other people; the fixes were tuned on it.
PET_9_TUNING: tuple[Home, ...] = (
    Home(
        "tuning: its questions answered",
        D,
        (
            line("hi", any=("name",)),
            line("rosa", "Rosa"),
            line("hows it going", not_=POINT),
            line("not bad, been gardening all day", not_=(*POINT, "How are you")),
            line("im knackered", warm=True),
            line("yeah long shift at the hospital", warm=True, not_=POINT),
            line("a bath would help", not_=POINT, nokeep=True),
            line("what are you up to?", not_=POINT),
            line("just watching telly", not_=POINT, nokeep=True),
            line("nothing much really", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "tuning: praise, love, rudeness",
        D,
        (
            line("my name is tariq", "Tariq"),
            line("you're brilliant", nokeep=True, not_=POINT),
            line("good boy", nokeep=True, not_=POINT),
            line("well done shelldon", nokeep=True, not_=POINT),
            line("nice work", nokeep=True, not_=POINT),
            line("love ya", nokeep=True, not_=POINT),
            line("ily", nokeep=True, not_=POINT),
            line("you suck", nokeep=True, not_=POINT),
            line("go away", nokeep=True, not_=POINT),
            line("you're pretty annoying tbh", nokeep=True, not_=POINT),
            line("my bad, sorry", nokeep=True, not_=POINT),
            line("sorry for being mean", nokeep=True, not_=POINT),
        ),
    ),
    Home(
        "tuning: about the pet",
        M,
        (
            line("who are you", not_=BLAND),
            line("im wes", "Wes"),
            line("i'm a postman", keep=True),
            line("do you know who i am?", "Wes"),
            line("remember me?", "Wes"),
            line("what have you remembered so far?", "postman"),
            line("whats in your memory", "postman"),
            line("do you forget stuff?", not_=POINT, any=("forget",)),
            line("are you online?", not_=POINT, any=("offline", "internet")),
            line("can you go on the internet", not_=POINT, any=("offline", "internet")),
            line("where are you?", not_=POINT),
            line("where do you live", not_=POINT),
        ),
    ),
    Home(
        "tuning: corrections",
        D,
        (
            line("my brother is called tom", keep=True),
            line("actually his name is tomas", keep=True),
            line("whats my brothers name", "Tomas"),
            line("my dog is called bo", keep=True),
            line("no wait, her name is bea", keep=True),
            line("whats my dogs name", "Bea"),
        ),
    ),
    Home(
        "tuning: small talk, its own answers",
        D,
        (
            line("yo", nokeep=True),
            line("nm, just relaxing", nokeep=True, not_=POINT),
            line("lying in bed scrolling", nokeep=True, not_=POINT),
            line("dunno really", nokeep=True),
            line("my cats are named mum, bella and nico", keep=True),
            line("whats my cats names", cased=("Mum", "Bella", "Nico")),
            line("they knocked a glass over earlier", not_=POINT, nokeep=True),
            line("its colder than paris here", not_=POINT, nokeep=True),
            line("look at me, i baked bread from scratch 💪", not_=POINT, nokeep=True),
            line("originally from lima, based in madrid these days", keep=True),
            line("where am i based", cased=("Madrid",)),
            line("nighty night", any=("night",)),
        ),
    ),
)
