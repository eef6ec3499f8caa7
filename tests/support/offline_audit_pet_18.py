"""The offline brain's audit, eighteenth pass (docs/brain.md, "Eighteenth pass: a pet that
listens"): a thirteenth held-apart set (`PET_18_HELD_APART`), written before this pass changed
any code, from what a real run of the pet showed, in two other owners' words:

- a person's coming birthday or age ("my daughter Zoe turns nine next month") is a person's
  milestone, said back with the person's name, never read as an event ("I hope the daughter …
  goes well!");
- a change of habit ("I don't drink coffee anymore, I switched to rooibos") keeps the new thing,
  and a question about what the owner drinks, uses or does finds it;
- a known daughter, son, wife or brother is "she" or "he" in a gift idea, never "they";
- each low feeling (lonely, tired, stressed, sad, worried) is met with words that fit it, never
  the one "what happened?" line, and the same feeling said twice is not met with the same words;
- a compound acknowledgement names its subject once ("your sister Rana lives in Leeds and is a
  midwife", not "…, and your sister Rana is a midwife").

`PET_18_HELD_APART` was run once before any fix: its first run is the figure in docs/brain.md; it
was then tuned on. `PET_18_UNTUNED`, a third, small owner written at the same time, was never
tuned on: its one run after the fixes is the pass's held-apart figure.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, Home, line

TUESDAY = datetime(2027, 3, 9, 19, 20, tzinfo=UTC)  # Tuesday 9 March 2027, evening
SATURDAY = datetime(2027, 9, 18, 9, 5, tzinfo=UTC)  # Saturday 18 September 2027, morning

# What a reply to a person's milestone must not read as: the event's template.
AS_EVENT = ("I hope the", "the daughter", "the grandson", "the son", "goes well")
# "They" for a person whose relation says she or he.
THEY = ("they", "them")
# The one line every low feeling used to get.
WHAT_HAPPENED = ("what happened",)

PET_18_HELD_APART: tuple[Home, ...] = (
    Home(
        "dalia: a care worker on nights, with a daughter",
        TUESDAY,
        (
            line("hi, I'm Dalia", "Dalia"),
            line("my daughter Zoe turns nine next month", "Zoe", keep=True, not_=AS_EVENT),
            line(
                "I don't drink coffee anymore, I switched to rooibos",
                "rooibos",
                keep=True,
            ),
            line("what do I drink these days?", "rooibos", not_=("don't know",)),
            line("what should I get Zoe for her birthday?", any=("Zoe", "she", "her"), not_=THEY),
            line(
                "I'm feeling a bit lonely after night shifts",
                warm=True,
                any=("lonely", "alone", "company"),
                not_=WHAT_HAPPENED,
            ),
            line(
                "my sister Rana lives in Leeds and she's a midwife",
                "Leeds",
                "midwife",
                keep=True,
                not_=("and your sister Rana",),
            ),
            line(
                "I'm absolutely shattered today",
                warm=True,
                any=("rest", "sleep", "tired", "shattered"),
                not_=WHAT_HAPPENED,
            ),
            line("what does Rana do?", "midwife"),
            line(
                "I'm worried about my mum's test results",
                warm=True,
                any=("worr", "results", "mum"),
                not_=WHAT_HAPPENED,
            ),
            line("feeling lonely again tonight", warm=True, any=("lonely", "alone", "company")),
            line("I used to cycle to work but now I take the bus", "bus", keep=True),
            line("how do I get to work?", "bus"),
            line("what do you know about Zoe?", any=("nine", "9", "birthday")),
            line("night!", not_=BLAND),
        ),
    ),
    Home(
        "kofi: a retired bus driver, a grandson and a brother",
        SATURDAY,
        (
            line("morning, Kofi here", "Kofi"),
            line("my grandson Kwame turns 18 next week", "Kwame", keep=True, not_=AS_EVENT),
            line(
                "my brother Yaw lives in Accra and he's a tailor",
                "Accra",
                "tailor",
                keep=True,
                not_=("and your brother Yaw",),
            ),
            line("I gave up sugar in my tea, I use honey now", "honey", keep=True),
            line("what do I put in my tea?", "honey", not_=("don't know",)),
            line(
                "I'm stressed about the car's MOT",
                warm=True,
                any=("stress", "MOT", "car"),
                not_=WHAT_HAPPENED,
            ),
            line("any idea what I could get Kwame?", any=("Kwame", "he", "his"), not_=THEY),
            line(
                "I've been feeling sad since my friend moved away",
                warm=True,
                any=("sad", "miss"),
                not_=WHAT_HAPPENED,
            ),
            line(
                "I stopped watching the news, I listen to podcasts now",
                "podcasts",
                keep=True,
            ),
            line("what do I listen to?", "podcasts"),
            line("so tired, didn't sleep", warm=True, any=("rest", "sleep", "tired")),
            line(
                "my wife Ama is 70 and she loves gardening",
                keep=True,
                not_=("and your wife Ama",),
            ),
            line("what could I get Ama?", any=("garden",), not_=THEY),
            line("I'm a bit stressed again", warm=True, not_=WHAT_HAPPENED),
            line("where does Yaw live?", "Accra"),
        ),
    ),
)

# A third owner, written with the set above and never tuned on: run once after the fixes.
THURSDAY = datetime(2027, 11, 4, 17, 45, tzinfo=UTC)  # Thursday 4 November 2027, dusk

PET_18_UNTUNED: tuple[Home, ...] = (
    Home(
        "priti: a teacher with a small son",
        THURSDAY,
        (
            line("hello! I'm Priti", "Priti"),
            line("my son Arjun turns five in two weeks", "Arjun", keep=True, not_=AS_EVENT),
            line("I quit fizzy drinks, I only drink water now", "water", keep=True),
            line("what do I drink?", "water", not_=("don't know",)),
            line("I'm feeling so alone lately", warm=True, not_=WHAT_HAPPENED),
            line("any gift ideas for Arjun?", any=("Arjun", "he", "his"), not_=THEY),
            line(
                "my friend Noor lives in Delhi and she's a dentist",
                "Delhi",
                "dentist",
                keep=True,
                not_=("and your friend Noor",),
            ),
            line("I'm worried about money", warm=True, not_=WHAT_HAPPENED),
            line("still worried about money", warm=True, not_=WHAT_HAPPENED),
        ),
    ),
)
