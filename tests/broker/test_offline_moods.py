"""How the owner feels, typed as people type it (shelldon.broker.offline_moods and the text-speak
of broker.offline_chat.plain), played through the real prompt and brain with core's keeping
between turns (tests/support/offline_pet.py). Before the chat pass each of these was "I hear
you.", "Okay!" or "Tell me more!" (docs/brain.md, "The audit pass: chat as owners type it")."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_moods import mood
from support.offline_pet import talked_to

BLAND = ("Tell me more!", "I hear you.", "Mm-hm, I'm listening.", "Okay!")
WARM = ("sorry", "sounds", "hug", "rough", "tough", "rest", "poor you", "feel better", "here")


@pytest.mark.parametrize(
    "said",
    [
        # slang and typos: "rn", "af", held letters, a dropped g, no "I'm"
        "so tired rn",
        "tired af",
        "stressed af",
        "im soooo sleepy",
        "feelin rough",
        "sooo stressed about money rn",
        "exhausted lol",
        # a state said with a negation
        "ugh didnt sleep at all",
        "couldn't sleep last night",
        "not feeling great",
        "not feeling too good today",
        "cant be bothered with anything today",
        # unwell
        "my head is killing me",
        "urgh my throat is so sore",  # the held-apart set's first run: no longer held apart
        "my back hurts",
        "got a cold :(",
        "I've got the flu",
        "feeling a bit under the weather",
        # an illness on its way, said with "I think" (the seventh pass: once read as an opinion)
        "i think im getting a cold",
        "I reckon I'm catching the flu",
        "think im fighting off a bug",
        # the worst of a day
        "had the worst day",
        "what a week",
    ],
)
def test_a_mood_typed_as_people_type_it_is_met_with_warmth_and_kept_nowhere(said: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert reply not in BLAND and any(w in reply.casefold() for w in WARM), (said, reply)
    assert pet.ops == []  # how the owner feels today is history's, not memory's


@pytest.mark.parametrize("said", ["meh", "ugh", "bleh", "it was okay I guess", "not bad"])
def test_a_shrug_or_a_lukewarm_day_is_answered_not_acknowledged(said: str) -> None:
    reply = talked_to().say(said)
    assert reply not in BLAND, reply


@pytest.mark.parametrize(
    "said", ["my phone is dying", "my laptop just died", "the wifi is down", "my car broke down"]
)
def test_trouble_with_a_thing_right_now_is_answered_and_never_kept(said: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert reply not in BLAND, reply
    assert pet.ops == [], pet.ops


@pytest.mark.parametrize(
    "said",
    [
        "ill be there at 6",  # "I'll", not ill
        "happy birthday!",  # a wish, not a mood
        "sick of this weather",
        "tired of waiting",
        "I'm not tired",
        "i think im getting a new phone",
        "my phone is a Pixel",
        "the weather was odd today",
    ],
)
def test_what_only_looks_like_a_mood_is_not_one(said: str) -> None:
    assert mood(said) is None, said


def test_several_low_lines_in_a_row_are_not_met_with_the_same_words() -> None:
    pet = talked_to()
    replies = [
        pet.say(line)
        for line in (
            "stressed af",
            "had the worst day",
            "not feeling great",
            "so sad rn",
            "cant be bothered",
        )
    ]
    assert len(set(replies)) == len(replies), replies


@pytest.mark.parametrize(
    "said",
    [  # the fourteenth pass: an ache said as people say it ("Tell me more!" before)
        "my knee is playing up again, bloody stairs",
        "my hip is giving me grief today",
        "my wrists ache from kneading",
        "Ran 8k this morning and my calves are screaming",
        "pulled a hamstring at football",
        "my shoulders are so stiff",
    ],
)
def test_an_ache_is_met_as_one_and_kept_nowhere(said: str) -> None:
    assert mood(said) == "ache"
    pet = talked_to()
    reply = pet.say(said)
    assert any(w in reply.casefold() for w in ("ouch", "sore", "sorry")), reply
    assert pet.ops == []


@pytest.mark.parametrize("said", ["the back door is stiff", "my legs are long"])
def test_what_is_no_ache_is_none(said: str) -> None:
    assert mood(said) != "ache"


@pytest.mark.parametrize(
    "said",
    [  # the fourteenth pass: a good thing said with "not" ("That sounds lovely! I'm so glad.")
        "the tomatoes didnt do well this year. blight",
        "the roses didn't come up well this year",
        "the interview didn't go well",
        "the sourdough didn't rise at all today",
    ],
)
def test_a_let_down_said_with_not_is_never_met_as_glad(said: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert not any(w in reply.casefold() for w in ("glad", "lovely", "yay", "go well")), reply
    assert "sorry" in reply.casefold(), reply
    assert pet.ops == []


@pytest.mark.parametrize("said", ["the test didn't hurt at all", "we didn't go out last night"])
def test_what_went_fine_or_was_not_done_is_no_let_down(said: str) -> None:
    assert mood(said) != "let down"


@pytest.mark.parametrize(
    ("said", "kind_word"),
    [
        # a mood with no "I'm" is met in words of its kind, as "I'm lonely" is (offline_lows);
        # "still" before it is read past as "so" is (the eighteenth pass's untuned owner)
        ("still worried about money this month", "worr"),
        ("kinda lonely tonight", "lonely"),
        ("really stressed about work", "stress"),
        ("still sad about it", "sad"),
    ],
)
def test_a_mood_with_no_i_am_is_met_in_words_of_its_kind(said: str, kind_word: str) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert kind_word in reply.casefold() and "what happened" not in reply.casefold(), (said, reply)
    assert pet.ops == []


@pytest.mark.parametrize("said", ["still in Leeds", "still low on milk", "still tired of this"])
def test_still_before_what_is_no_mood_is_none(said: str) -> None:
    assert mood(said) is None, said


@pytest.mark.parametrize(
    ("said", "kind_word"),
    [
        # chat drops the "I": missing someone, and worry said as "freaking out" (the lead's run
        # of a teenage owner: "Tell me more!" and "Okay!")
        ("miss him tbh", "miss"),
        ("missing home so much", "home"),
        ("exams start in may, kinda freaking out", "worr"),
        ("panicking about tomorrow", "worr"),
    ],
)
def test_a_feeling_with_the_i_dropped_is_met_in_words_of_its_kind(
    said: str, kind_word: str
) -> None:
    pet = talked_to()
    reply = pet.say(said)
    assert kind_word in reply.casefold(), (said, reply)
    assert pet.ops == []


def test_miss_you_said_to_the_pet_is_no_low_feeling() -> None:
    from shelldon.broker.offline_talk import feeling

    assert feeling("miss you too") is None
