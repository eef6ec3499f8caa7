"""The offline brain's audit, seventh pass (docs/brain.md, "The audit pass: the phone's
leftovers"): a third held-apart set, written before this pass changed any code, from the classes
the sixth pass left (its held-apart set, tests/support/offline_audit_phone.py, has been read and
is now a tuning set), in other words and with other people, typed as on a phone:

- a relation's name in lower case ("my wife is priya", "my sister noor lives in leeds") and
  chat abbreviations for relations in questions ("whats my bfs name", "where does my sis live");
- an opener with "its" and several facts ("hiya its sam. im a plumber, 35, got a cat");
- a change of diet or state ("im vegetarian these days");
- a fact with no rule about someone just mentioned ("she works nights");
- a family member's birthday or age said as an event ("my daughter lily turns 10 on saturday");
- feeling ill ("i think im coming down with flu");
- questions to the pet about itself ("what are you doing this weekend?");
- short reactions ("aww thanks", "hehe nice one"), small complaints with emoji ("wifi is down
  again 🙄"), worry about someone ("my dad is in hospital since monday"), news about someone
  else ("my cousin just had a baby");
- places typed in lower case, said back with a capital (`cased`).

`PHONE_3_HELD_APART` is run as it was written: its first run is this pass's honest held-apart
figure, and its lines are never tuned on.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line
from support.offline_audit_chat import GOODBYE

POINT = (*BLAND, *NOT_ABOUT_ITSELF, "I don't know")
# A reply to news about someone: it was heard as news (not a plan, not an opinion).
NEWS = ("wow", "oh", "aw", "lovely", "congrat", "exciting", "news", "how")

PHONE_3_HELD_APART: tuple[Home, ...] = (
    Home(
        "sam: held apart 3, after work",
        datetime(2026, 12, 21, 18, 15, tzinfo=UTC),
        (
            line("hiya its sam. im a plumber, 35, got a cat", "Sam", keep=True),
            line("whats my job", "plumber"),
            line("how old am i", "35"),
            line("i live in bristol", keep=True),
            line("where do i live", cased=("Bristol",)),
            line("my wife is priya", keep=True),
            line("she works nights", keep=True, not_=BLAND),
            line("whats my wifes name", "Priya"),
            line("bus didnt show up 😤", not_=BLAND, nokeep=True),
            line("what are you doing this weekend?", not_=POINT),
            line("hehe nice one", not_=BLAND),
            line("im vegetarian these days", keep=True),
            line("feel a bit sick tbh", warm=True),
            line("ok off to bed, nite", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "noor: held apart 3, a busy family",
        datetime(2026, 12, 22, 9, 40, tzinfo=UTC),
        (
            line("morning", any=("morning",)),
            line("im ellie", "Ellie"),
            line("my sister noor lives in leeds", keep=True),
            line("where does my sis live", cased=("Leeds",)),
            line("my daughter lily turns 10 on saturday", keep=True, not_=(*BLAND, "luck")),
            line("how old is lily", "10"),
            line("my dad is in hospital since monday", warm=True),
            line("aww thanks", not_=BLAND),
            line("my cousin just had a baby", any=NEWS, not_=BLAND),
            line("wifi is down again 🙄", not_=BLAND, nokeep=True),
            line("did you sleep well?", not_=POINT),
            line("i think im coming down with flu", warm=True, not_=("opinion", "think so")),
            line("bye 👋", any=GOODBYE),
        ),
    ),
    Home(
        "dev: held apart 3, on the sofa",
        datetime(2026, 12, 23, 20, 50, tzinfo=UTC),
        (
            line("yo", not_=BLAND),
            line("its dev btw. 29, nurse, live in manchester", "Dev", keep=True),
            line("where do i live?", cased=("Manchester",)),
            line("my bf is called tomas", keep=True),
            line("he plays the cello", keep=True, not_=BLAND),
            line("whats my bfs name", "Tomas"),
            line("what does tomas play", "cello"),
            line("my best mate rosa just got engaged!", any=NEWS, not_=BLAND),
            line("lol fair", not_=BLAND),
            line("my grandad had a fall yesterday", warm=True),
            line("got a sore throat too 🤒", warm=True),
            line("whats your plan for tomorrow", not_=POINT),
            line("i dont eat meat anymore", keep=True),
            line("ugh its raining again ☔", not_=BLAND, nokeep=True),
            line("ty for listening", not_=BLAND),
        ),
    ),
    Home(
        "mei: held apart 3, a lazy saturday",
        datetime(2026, 12, 19, 11, 0, tzinfo=UTC),
        (
            line("hey shelldon", not_=BLAND),
            line("mei here. teacher, 52, two kids", "Mei", keep=True),
            line("my son kenji lives in osaka", keep=True),
            line("where does kenji live", cased=("Osaka",)),
            line("its my husbands 60th next week", keep=True, not_=("luck",)),
            line("my neighbour bought a boat lol", any=NEWS, not_=BLAND),
            line("he drives a taxi", not_=BLAND),
            line("my best friend has been really ill", warm=True),
            line("whats my hubbys birthday", not_=BLAND),
            line("do you have any hobbies?", not_=POINT),
            line("coffee machine broke 😩", not_=BLAND, nokeep=True),
            line("cheers mate", not_=BLAND),
            line("im sober now, 6 months", keep=True),
            line("toodles", any=GOODBYE),
        ),
    ),
)

# Written after this pass's fixes, never run before they were done, never tuned on: the same
# classes in new words (its figure is printed apart).
PHONE_3_AFTER: tuple[Home, ...] = (
    Home(
        "ola: after the seventh pass",
        datetime(2026, 12, 28, 19, 5, tzinfo=UTC),
        (
            line("heyy its ola. 33, vet, live in york", "Ola", keep=True),
            line("where do i live", cased=("York",)),
            line("my fiancee is marta", keep=True),
            line("she teaches yoga", keep=True, not_=BLAND),
            line("whats my fiancees name", "Marta"),
            line("my stepdad has been in hospital since friday", warm=True),
            line("my nephew leo turns 4 next week", keep=True, not_=("luck",)),
            line("my boss bought a tesla lol", any=NEWS, not_=BLAND),
            line("pfff printer jammed again 😤", not_=BLAND, nokeep=True),
            line("i reckon im coming down with something", warm=True),
            line("haha fair enough", not_=BLAND),
            line("aw thank u", not_=BLAND),
            line("got any plans this weekend?", not_=POINT),
            line("im dairy free these days", keep=True),
            line("my bro sami lives in cairo", keep=True),
            line("where does my bro live", cased=("Cairo",)),
            line("right, finally going to bed", any=GOODBYE),
        ),
    ),
)
