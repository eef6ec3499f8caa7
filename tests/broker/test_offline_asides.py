"""What a pet on a phone hears between facts (broker.offline_asides), through the real brain:
emoji-only lines, errands it cannot run, follow-ups, joy said without "I'm", something that
happened (to the owner or someone of theirs) and an opinion. Each was "I hear you.", "Tell me
more!", "Okay!" or a memory gap before; none of them keeps anything."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shelldon.broker.offline_asides import aside, event
from support.offline_pet import Pet, one_turn

GENERIC = ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")
MEMORY_GAP = ("don't know that yet", "Tell me and I'll remember")


def _turn(message: str) -> tuple[str, list[object]]:
    return one_turn(message, now=datetime(2026, 12, 6, 18, tzinfo=UTC))


SLEEPY = ("sleep", "rest")
LOVE = ("back at you", "blush")
PARTY = ("celebrat", "party")
WAVE = ("hi there", "hello")
FOOD = ("yum", "snack")


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("😴", SLEEPY),
        ("💤💤", SLEEPY),
        ("🥱", SLEEPY),
        ("❤️", LOVE),
        ("😘", LOVE),
        ("🎉", PARTY),
        ("🥳🎊", PARTY),
        ("👋", WAVE),
        ("🙋‍♀️", WAVE),
        ("🍕", FOOD),
    ],
)
def test_an_emoji_alone_is_answered_by_what_it_shows(message: str, said: tuple[str, ...]) -> None:
    reply, ops = _turn(message)
    assert any(w in reply.casefold() for w in said) and reply not in GENERIC, reply
    assert ops == []


@pytest.mark.parametrize(
    ("message", "need", "todo"),
    [
        ("call my dad", "make calls", "call my dad"),
        ("can you ring the plumber", "make calls", "ring the plumber"),
        ("text Sam for me", "send messages", "text Sam"),
        ("could you email my landlord please?", "send messages", "email my landlord"),
        ("order me a taxi", "buy things", "order a taxi"),
        ("can u buy some bread", "buy things", "buy some bread"),
        ("book a table for two", "book things", "book a table for two"),
        ("play some music", "play music", None),
        ("switch off the heating", "work anything in your home", None),
    ],
)
def test_an_errand_is_declined_by_what_it_needs(message: str, need: str, todo: str | None) -> None:
    reply, ops = _turn(message)
    assert f"I can't {need}" in reply, reply
    assert (f'"remind me to {todo} at 6"' in reply) if todo else "remind" not in reply
    assert not any(m in reply for m in MEMORY_GAP) and ops == []


@pytest.mark.parametrize(
    ("message", "said"),
    [("call me Pri", "Pri"), ("can you remind me to call mum at 23:00", "remind you")],
)
def test_what_only_looks_like_an_errand_is_left_to_its_rule(message: str, said: str) -> None:
    reply, _ = _turn(message)
    assert "I can't make calls" not in reply and said in reply, reply


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("why?", "why"),
        ("hmm why", "why"),
        ("how come?", "why"),
        ("why not?", "why"),
        ("really?", "really"),
        ("really??", "really"),
        ("seriously?", "really"),
        ("are you sure?", "sure"),
        ("u sure", "sure"),
        ("what do you think?", "think"),
        ("what do u think", "think"),
    ],
)
def test_a_follow_up_is_answered_as_one(message: str, kind: str) -> None:
    reply, ops = _turn(message)
    assert reply == aside(message, 0, ()) or reply in _all_of(message), reply
    assert not any(m in reply for m in (*MEMORY_GAP, "no internet", *GENERIC)) and ops == []
    assert kind  # the class the line was written for (the reply's words are checked above)


def _all_of(message: str) -> set[str]:
    return {aside(message, seed, ()) or "" for seed in range(4)}


@pytest.mark.parametrize("message", ["sooo happy today", "so happy rn!!", "feeling so excited"])
def test_joy_without_im_is_shared_not_praised(message: str) -> None:
    reply, ops = _turn(message)
    assert "well done" not in reply.casefold() and "proud" not in reply, reply
    assert "hope the" not in reply and ops == []  # "I hope the so happy goes well!" before
    assert any(w in reply.casefold() for w in ("glad", "yay", "happy for you")), reply


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("my dad retired today", "congratulations"),
        ("my friend is pregnant!", "happy for them"),
        ("my sister got engaged last night", "happy for them"),
        ("my mum had surgery yesterday", "sorry"),
        ("my best mate got dumped", "hope they're okay"),
        ("the exam went really well", "glad"),
        ("it didn't hurt at all", "glad"),
        ("my train got cancelled again", "sorry"),
        ("I finally finished my thesis!", "proud"),
        ("I burnt the toast lol", "poor you"),
        ("my dog ate my sandwich 😂", "poor you"),
        ("we saw a film last night", "how was it"),
        ("I went to the vet with the cat", "how was the vet"),
        ("I had a job interview this morning", "how did the job interview go"),
        ("I think summer is better than winter", "opinion"),
    ],
)
def test_what_happened_is_met_by_how_it_went_and_not_kept(message: str, said: str) -> None:
    reply, ops = _turn(message)
    seeds = {event(message, seed, ()) or "" for seed in range(4)}
    assert reply not in GENERIC and ops == [], reply
    assert any(said in r.casefold() for r in seeds), seeds
    assert said in reply.casefold() or reply in seeds


@pytest.mark.parametrize(
    "message", ["the weather was odd today", "my phone is dying", "my fan is noisy"]
)
def test_how_a_thing_is_is_no_event_to_ask_about(message: str) -> None:
    assert event(message, 0, ()) is None


def test_how_was_it_is_not_asked_after_the_line_was_already_answered() -> None:
    """ "I'm exhausted. I had three meetings …" was "That sounds exhausting. … Oh? And how was
    it?": the second sentence said how it was."""
    for message in (
        "I'm so tired. We walked to the beach and back.",
        "ugh, long day. I had a meeting with the landlord.",
    ):
        reply, ops = _turn(message)
        assert "how was it" not in reply.casefold() and "how did" not in reply.casefold(), reply
        assert ops == []
    assert event("We walked to the beach and back.", 0, (), alone=False) is None


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("lovely weather this morning", ("enjoy", "Lovely")),
        ("what a foggy day", ("cosy", "warm")),
        ("so windy one out there", ("cosy", "warm")),
        ("gorgeous sunshine today ☀️", ("enjoy", "Lovely")),
    ],
)
def test_the_weather_is_small_talk_not_a_plan(said: str, words: tuple[str, ...]) -> None:
    """Eighth pass (by eye: "nice weather today" was wished luck as a plan): a word on the
    weather gets one back, nothing kept, no "I hope it goes well"."""
    pet = Pet()
    pet.say("hi")
    reply = pet.say(said)
    assert any(w in reply for w in words) and "goes well" not in reply, reply
    assert not pet.ops


@pytest.mark.parametrize(
    "said",
    [
        "work was crazy today",
        "my day was long",
        "the kids were up all night",
        "today was so hectic",
    ],
)
def test_a_day_that_was_a_lot_is_heard_as_one(said: str) -> None:
    """Before: "I hear you." or "Tell me more!"; it is no bad news either ("that sounds rotten")."""
    reply, ops = one_turn(said)
    assert reply in (
        "Sounds like a full-on day! Did you get a moment to breathe?",
        "Phew, that's a lot. I hope you get some quiet time now.",
    ), reply
    assert ops == []


@pytest.mark.parametrize("said", ["work was fine", "school was ok", "the day went alright"])
def test_a_so_so_day_is_met_as_one(said: str) -> None:
    reply, _ = one_turn(said)
    assert "best bit" in reply or "small and good" in reply, reply


@pytest.mark.parametrize(
    ("said", "not_said"),
    [
        ("the interview went badly", "I hear you"),
        ("I had a long walk by the river", "full-on"),
        ("the long weekend was great", "full-on"),
        ("work was busy but fun", "full-on"),
    ],
)
def test_long_or_busy_with_a_good_word_is_not_a_hard_day(said: str, not_said: str) -> None:
    reply, _ = one_turn(said)
    assert not_said not in reply and "Tell me more" not in reply, reply


@pytest.mark.parametrize(
    "said", ["work is a lot", "life's so hectic right now", "things are crazy at the moment"]
)
def test_a_stretch_that_is_a_lot_said_as_now_is_heard(said: str) -> None:
    """Before: "Okay!" (the past tense alone was read as a day that was a lot)."""
    reply, ops = one_turn(said)
    assert ("a lot right now" in reply or "quiet moment" in reply) and ops == [], reply


@pytest.mark.parametrize(
    "said",
    ["its freezing here today", "it's raining again", "it's so hot today", "its snowing!!"],
)
def test_the_weather_said_as_it_is_gets_a_word_back_and_is_no_plan(said: str) -> None:
    reply, ops = one_turn(said)
    assert "I hope the" not in reply and "goes well" not in reply, reply  # read as a plan before
    assert reply not in ("I hear you.", "Tell me more!", "Mm-hm, I'm listening.", "Okay!")
    assert ops == []


@pytest.mark.parametrize(
    "said",
    [
        "my little girl lost her first tooth today!!",
        "my son took his first steps this morning",
        "my daughter said her first word today",
    ],
)
def test_a_childs_first_is_good_news_though_lost(said: str) -> None:
    """The eleventh pass: "lost her first tooth" was hard news ("I'm sorry to hear that") or a
    plan ("I hope the little girl lost her first tooth goes well!")."""
    reply, ops = one_turn(said)
    assert "sorry" not in reply.casefold() and "I hope the" not in reply, reply
    assert any(w in reply for w in ("exciting", "Yay", "wonderful", "congrat")), reply
    assert ops == []
