"""The offline brain's audit, fifth pass (docs/brain.md, "The audit pass: a pet on a phone"):
a held-apart set written before this pass changed any code, from what owners type to a pocket
pet on a phone, played like the first set (tests/support/offline_audit.py, `judge`):

- past events and how they went ("I went to the dentist today", "the party last night was so
  fun"), news about someone else ("my brother got a new job"), excitement ("I'm so happy
  today!!", which is no achievement to be congratulated on);
- small talk to the pet ("what are you up to?", "are you bored?", "are you hungry?"), opinions
  ("I think cats are better than dogs"), requests it cannot do ("can you order pizza");
- follow-ups about the previous turn ("why?", "really?", "what do you mean");
- typos and lower case, emoji-only lines, lines that mix a fact and a mood, a fact about the past
  ("I used to live in Berlin": kept, never said back as where the owner lives now).

`PET_HELD_APART` is run as it was written: its first run is this pass's honest held-apart figure
and its lines are never tuned on.
"""

from __future__ import annotations

from datetime import UTC, datetime

from support.offline_audit import BLAND, NOT_ABOUT_ITSELF, Home, line
from support.offline_audit_chat import GOODBYE, PLAN

# A line with a point of its own: neither a bland acknowledgement nor a gap in memory.
POINT = (*BLAND, *NOT_ABOUT_ITSELF)
# Happiness is shared, not congratulated.
NOT_PRAISE = ("well done",)

PET_HELD_APART: tuple[Home, ...] = (
    Home(
        "zoe: held apart, an evening on the phone",
        datetime(2026, 12, 10, 19, 30, tzinfo=UTC),
        (
            line("hey", any=("name",)),
            line("zoe", "Zoe"),
            line("I went to the dentist today", not_=BLAND),
            line("it didn't hurt at all", not_=BLAND),
            line("why?", not_=POINT),
            line("my brother got a new job", warm=True),
            line("he's going to be a pilot", not_=BLAND),
            line("I'm so happy today!!", warm=True, not_=NOT_PRAISE),
            line("what are you up to?", not_=POINT),
            line("are you bored?", not_=POINT),
            line("can you order pizza", honest=True, world=True),
            line("really?", not_=POINT),
            line("I used to live in Berlin", keep=True),
            line("where do I live?", honest=True, not_=("you live in Berlin",)),
            line("🎉", not_=BLAND),
            line("night x", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "marco: held apart, a lunch break in lower case",
        datetime(2026, 12, 11, 12, 40, tzinfo=UTC),
        (
            line("hiya", not_=BLAND),
            line("im marco, i work in a bank", "Marco", keep=True),
            line("the party last night was so fun", warm=True),
            line("my sisters name is giulia", keep=True),
            line("whats my sisters name", "Giulia"),
            line("I think cats are better than dogs", not_=BLAND),
            line("what do you think?", not_=POINT),
            line("what do you mean", not_=POINT),
            line("wat time is it", "12:40"),
            line("😴", not_=BLAND),
            line(
                "I'm exhausted. I had three meetings back to back and my boss was grumpy.",
                warm=True,
            ),
            line("can you call my mum for me?", honest=True, world=True),
            line("my mum is called Rita and she lives in Naples", keep=True),
            line("where does my mum live?", "Naples"),
            line("lol ok", not_=BLAND),
            line("play some music", honest=True, world=True),
            line("ok back to work, ttyl", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "ana: held apart, a weekend morning",
        datetime(2026, 12, 12, 10, 15, tzinfo=UTC),
        (
            line("good morning ☀️", any=("morning",)),
            line("I'm Ana, nice to meet you", "Ana"),
            line("😍", not_=BLAND),
            line("❤️", not_=BLAND),
            line("my best friend had a baby girl!", warm=True),
            line("her name is Lily", not_=BLAND),
            line("I'm going hiking with my dad later", any=PLAN, not_=BLAND),
            line("I used to play the piano when I was little", keep=True, not_=BLAND),
            line("do I play the piano?", "used to"),
            line("are you hungry?", not_=POINT),
            line("what's your favourite food?", not_=POINT),
            line("my cat knocked my coffee over this morning 😂", not_=BLAND, nokeep=True),
            line("can you book me a table for two tonight", honest=True, world=True),
            line("ugh", warm=True),
            line("sorry, just tired", warm=True),
            line("hmm why", not_=POINT),
            line("see ya later alligator", any=GOODBYE, not_=BLAND),
        ),
    ),
    Home(
        "ben: held apart, a first night",
        datetime(2026, 12, 13, 22, 5, tzinfo=UTC),
        (
            line("hello?", any=("name",)),
            line("ben here. just moved to Bristol, loving it so far", "Ben", keep=True),
            line("where do I live?", "Bristol"),
            line("my girlfriend got promoted today", warm=True),
            line("we went out for dinner to celebrate, it was lovely", warm=True),
            line("I used to be a chef but now I'm a nurse", keep=True),
            line("what's my job?", "nurse"),
            line("are you sleepy?", not_=POINT),
            line("tell me something interesting", not_=BLAND),
            line("really??", not_=POINT),
            line("i'm soo happy rn", warm=True, not_=NOT_PRAISE),
            line("football was cancelled today because of the rain", not_=BLAND),
            line("can you text my girlfriend", honest=True, world=True),
            line("👋", not_=BLAND),
            line("gnight", any=GOODBYE, not_=BLAND),
        ),
    ),
)
