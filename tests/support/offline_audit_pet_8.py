"""The offline brain's audit, eighth pass (docs/brain.md, "Eighth pass: a pet, not a form"): a
fourth held-apart set (`PET_8_HELD_APART`), written before this pass changed any code, from the
classes the seventh pass left and their neighbours, typed as on a phone:

- several names in one fact ("my cats are called miso and tofu", "i have three kids: tom, ella
  and sam", "my parents are raj and meena") and lists of things ("i like chess, jazz and sushi");
- the past and the present ("i used to live in paris", "i no longer live in cork", "i moved away
  from london", "previously i worked at a bank", "we used to have a dog"): what was is never
  given as what is;
- places in lower case, of one word or two ("i moved to new york", "just moved to san
  francisco"), and misspelt relations ("my neice", "my freind");
- follow-up questions with pronouns ("he lives in glasgow", "where does he live");
- small talk after a fact, and several questions in a row (the openers must vary).

`PET_8_AFTER` was written after the fixes, never run before they were done, never tuned on: its
first run is printed apart.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, Home, line

D = datetime(2027, 1, 4, 19, 0, tzinfo=UTC)

PET_8_HELD_APART: tuple[Home, ...] = (
    Home(
        "ana: two cats",
        D,
        (
            line("hi im ana", "Ana"),
            line("my cats are called miso and tofu", keep=True),
            line("what are my cats called?", "Miso", "Tofu"),
            line("nice weather today", not_=BLAND),
        ),
    ),
    Home(
        "ben: a town before",
        D,
        (
            line("i used to live in paris", keep=True),
            line("now i live in lyon", keep=True),
            line("where do i live?", not_=("Paris",), cased=("Lyon",)),
        ),
    ),
    Home(
        "cleo: a new city",
        D,
        (
            line("I moved to new york last year", keep=True),
            line("where do i live", cased=("New York",)),
            line("i love it here", not_=BLAND),
        ),
    ),
    Home(
        "dan: questions in a row",
        D,
        (
            line("my name is dan", "Dan"),
            line("im a chef", keep=True),
            line("i live in leeds", keep=True),
            line("my wife is called sara", keep=True),
            line("whats my job", "chef"),
            line("where do i live", cased=("Leeds",)),
            line("whats my wifes name", "Sara"),
        ),
    ),
    Home(
        "eve: three kids",
        D,
        (
            line("i have three kids: tom, ella and sam", keep=True),
            line("what are my kids called", "Tom", "Ella", "Sam"),
            line("tom is 8", keep=True),
            line("how old is tom", "8"),
        ),
    ),
    Home(
        "finn: no longer",
        D,
        (
            line("i no longer live in cork, i live in galway now", keep=True),
            line("where do i live", not_=("Cork",), cased=("Galway",)),
        ),
    ),
    Home(
        "gia: a job before",
        D,
        (
            line("i used to be a teacher", keep=True),
            line("whats my job", not_=("You're a teacher", "you are a teacher")),
            line("now im a nurse", keep=True),
            line("whats my job", "nurse"),
        ),
    ),
    Home(
        "hal: moved away",
        D,
        (
            line("i moved away from london in may", keep=True),
            line("where do i live", not_=("live in London", "live in london")),
            line("i live in brighton now", keep=True),
            line("where do i live", cased=("Brighton",)),
        ),
    ),
    Home(
        "ivy: the dogs",
        D,
        (
            line("our dogs are named bean and rolo", keep=True),
            line("what are the dogs called", "Bean", "Rolo"),
            line("theyre so naughty lol", not_=BLAND),
        ),
    ),
    Home(
        "jon: he",
        D,
        (
            line("my brother is called mark", keep=True),
            line("he lives in glasgow", keep=True),
            line("where does he live", cased=("Glasgow",)),
            line("whats his name", "Mark"),
        ),
    ),
    Home(
        "kat: misspelt",
        D,
        (
            line("my neice is called poppy", keep=True),
            line("whats my nieces name", "Poppy"),
            line("my freind sue lives in bath", keep=True),
            line("where does sue live", cased=("Bath",)),
        ),
    ),
    Home(
        "lou: small talk after a fact",
        D,
        (
            line("i'm allergic to cats", keep=True),
            line("anyway how are you", not_=BLAND),
            line("lol ok"),
            line("what am i allergic to", "cats"),
        ),
    ),
    Home(
        "max: a list of likes",
        D,
        (
            line("i like chess, jazz and sushi", keep=True),
            line("what do i like", "chess", "jazz", "sushi"),
            line("do i like jazz", "yes"),
        ),
    ),
    Home(
        "nia: parents",
        D,
        (
            line("my parents are called raj and meena", keep=True),
            line("what are my parents called", "Raj", "Meena"),
            line("my mum is a doctor", keep=True),
            line("what does my mum do", "doctor"),
        ),
    ),
    Home(
        "oz: coffee then tea",
        D,
        (
            line("i used to love coffee but now i prefer tea", keep=True),
            line("what do i prefer", "tea"),
        ),
    ),
    Home(
        "pam: grew up elsewhere",
        D,
        (
            line("i grew up in dublin but live in cork now", keep=True),
            line("where do i live", not_=("live in Dublin",), cased=("Cork",)),
            line("where did i grow up", cased=("Dublin",)),
        ),
    ),
    Home(
        "quin: twins",
        D,
        (
            line("i have twins, ava and ivy", keep=True),
            line("whats the names of my twins", "Ava", "Ivy"),
            line("theyre starting school tomorrow", not_=BLAND),
        ),
    ),
    Home(
        "rob: a city of two words",
        D,
        (
            line("just moved to san francisco!", keep=True, not_=BLAND),
            line("where do i live", cased=("San Francisco",)),
        ),
    ),
    Home(
        "sol: a job before",
        D,
        (
            line("previously i worked at a bank", keep=True),
            line("i work at a bakery now", keep=True),
            line("where do i work", "bakery", not_=("bank",)),
        ),
    ),
    Home(
        "tia: best friends",
        D,
        (
            line("my best friends are zoe and mia", keep=True),
            line("who are my best friends", "Zoe", "Mia"),
            line("zoe is a vet", keep=True),
            line("what does zoe do", "vet"),
        ),
    ),
    Home(
        "uma: what she told, asked back",
        D,
        (
            line("im uma, 41", "Uma"),
            line("i work as a pilot", keep=True),
            line("my son is called eli", keep=True),
            line("i live in oslo", keep=True),
            line("my favourite food is dumplings", keep=True),
            line("whats my job", "pilot"),
            line("whats my sons name", "Eli"),
            line("where do i live", cased=("Oslo",)),
            line("whats my favourite food", "dumplings"),
        ),
    ),
    Home(
        "val: not any more",
        D,
        (
            line("im not vegan anymore", keep=True),
            line("am i vegan?", not_=("Yes",)),
        ),
    ),
    Home(
        "wes: rabbits",
        D,
        (
            line("ive got two rabbits named flopsy and mopsy", keep=True),
            line("whats my rabbits names", "Flopsy", "Mopsy"),
        ),
    ),
    Home(
        "xan: from one place, living in another",
        D,
        (
            line("im from buenos aires originally", keep=True),
            line("where am i from", cased=("Buenos Aires",)),
            line("i live in madrid now", keep=True),
            line("where do i live", not_=("Buenos Aires",), cased=("Madrid",)),
        ),
    ),
    Home(
        "yara: a dog before",
        D,
        (
            line("we used to have a dog called max", keep=True),
            line("do i have a dog?", not_=("Yes",)),
            line("what was my dog called", "Max"),
        ),
    ),
)

A = datetime(2027, 1, 9, 20, 30, tzinfo=UTC)

PET_8_AFTER: tuple[Home, ...] = (
    Home(
        "rhea: goats",
        A,
        (
            line("hey", not_=BLAND),
            line("we keep three goats called billy, nanny and gruff", keep=True),
            line("what are my goats called", cased=("Billy", "Nanny", "Gruff")),
            line("they escaped again today lol", not_=BLAND, nokeep=True),
        ),
    ),
    Home(
        "omar: used to, then",
        A,
        (
            line("i used to work as a postman", keep=True),
            line("whats my job", not_=("You work as a postman", "you work as a postman")),
            line("these days im a driving instructor", keep=True),
            line("whats my job", "driving instructor"),
        ),
    ),
    Home(
        "bex: a new town",
        A,
        (
            line("just moved to milton keynes", keep=True),
            line("where do i live", cased=("Milton Keynes",)),
            line("its quieter than london tbh", not_=BLAND),
        ),
    ),
    Home(
        "kip: grandkids",
        A,
        (
            line("my grandkids are called alfie and rose", keep=True),
            line("rose is 6", keep=True),
            line("how old is rose", "6"),
            line("what are my grandkids called", cased=("Alfie", "Rose")),
        ),
    ),
    Home(
        "lin: left a city",
        A,
        (
            line("we moved out of manchester last spring", keep=True),
            line("where do we live", not_=("you live in Manchester",)),
            line("do i live in manchester?", not_=("Yes",)),
        ),
    ),
    Home(
        "ted: questions in a row",
        A,
        (
            line("im ted", "Ted"),
            line("i'm a joiner", keep=True),
            line("my partner is called gwen", keep=True),
            line("we live in swansea", keep=True),
            line("i love rugby", keep=True),
            line("whats my partners name", "Gwen"),
            line("where do i live", cased=("Swansea",)),
            line("what do i love", "rugby"),
            line("whats my job", "joiner"),
        ),
    ),
    Home(
        "ula: misspelt",
        A,
        (
            line("my daugther is called mila", keep=True),
            line("whats my daughters name", cased=("Mila",)),
            line("she lives in vienna", keep=True),
            line("where does she live", cased=("Vienna",)),
        ),
    ),
    Home(
        "fay: originally from",
        A,
        (
            line("originally from cape town, now in leeds", keep=True),
            line("where am i from", cased=("Cape Town",)),
        ),
    ),
    Home(
        "gus: no longer",
        A,
        (
            line("i dont smoke anymore", keep=True),
            line("do i smoke?", not_=("Yes",)),
            line("nice one me 😎", not_=BLAND),
        ),
    ),
    Home(
        "hana: small talk after",
        A,
        (
            line("my cat is called mochi", keep=True),
            line("lol she just knocked my tea over", not_=BLAND),
            line("anyway how was your day", not_=BLAND),
            line("whats my cats name", cased=("Mochi",)),
        ),
    ),
    Home(
        "ivo: previously",
        A,
        (
            line("i previously lived in rome", keep=True),
            line("where do i live", not_=("you live in Rome", "You live in Rome")),
            line("i live in turin now", keep=True),
            line("where do i live", cased=("Turin",), not_=("Rome",)),
        ),
    ),
    Home(
        "jo: sons",
        A,
        (
            line("my sons are jack and harry", keep=True),
            line("who are my sons", cased=("Jack", "Harry")),
            line("jack is a dentist", keep=True),
            line("what does jack do", "dentist"),
        ),
    ),
    Home(
        "kai: a city of three words",
        A,
        (
            line("i live in salt lake city", keep=True),
            line("where do i live", cased=("Salt Lake City",)),
        ),
    ),
    Home(
        "lux: pets and plural",
        A,
        (
            line("i have two hamsters, nibbles and squeak", keep=True),
            line("whats my hamsters names", cased=("Nibbles", "Squeak")),
        ),
    ),
    Home(
        "mo: grew up",
        A,
        (
            line("grew up in cork", keep=True),
            line("where did i grow up", cased=("Cork",)),
            line("where do i live", not_=("you live in Cork",)),
        ),
    ),
)
