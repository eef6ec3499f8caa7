"""A change of habit keeps the new thing, and a question about what the owner drinks, uses,
listens to or how they get somewhere finds it (broker.offline_habits)."""

from __future__ import annotations

import pytest

from shelldon.broker import offline_habits
from shelldon.contracts.ops import Remember
from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("said", "new", "asked"),
    [
        ("I don't like coffee anymore, I switched to green tea", "green tea", "what do I drink?"),
        ("I don't drink cola anymore, I drink sparkling water now", "sparkling water",
         "what do I drink these days?"),
        ("I gave up sugar in my tea, I use honey now", "honey", "what do I put in my tea?"),
        ("I stopped watching the news, I listen to podcasts now", "podcasts",
         "what do I listen to?"),
        ("I used to cycle to work but now I take the bus", "the bus", "how do I get to work?"),
        ("I quit fizzy drinks, I only drink water now", "water", "what do I drink?"),
        ("I used to run every morning but now I swim instead", "swim", "what sport do I do?"),
        ("I now cycle to work instead of driving", "to work now", "how do I get to work?"),
        ("I play tennis instead of football now", "tennis", "what sport do I do?"),
        ("I've switched to decaf coffee", "decaf coffee", "what do I drink?"),
    ],
)  # fmt: skip
def test_a_change_of_habit_keeps_the_new_thing_and_answers_for_it(
    said: str, new: str, asked: str
) -> None:
    pet = talked_to()
    reply = pet.say(said)
    kept = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert new in reply, reply
    assert any(new in k and k.startswith("The owner ") for k in kept), kept
    pet.bury()  # memory answers, not the window
    answer = pet.say(asked)
    assert new in answer and "don't know" not in answer, answer


def test_a_second_change_of_the_same_habit_revises_the_first() -> None:
    pet = talked_to("I don't drink coffee anymore, I switched to green tea")
    pet.say("I don't drink green tea anymore, I switched to rooibos")
    pet.bury()
    answer = pet.say("what do I drink?")
    assert "rooibos" in answer and "green tea" in answer, answer  # now rooibos, not green tea
    assert answer.index("rooibos") < answer.index("green tea"), answer


@pytest.mark.parametrize(
    ("liking", "asked", "named"),
    [
        ("I love green tea", "what do I drink?", "green tea"),
        ("I love jasmine tea", "what do I drink these days?", "jasmine tea"),
    ],
)
def test_with_no_change_kept_a_liking_answers_what_the_owner_drinks(
    liking: str, asked: str, named: str
) -> None:
    pet = talked_to(liking)
    pet.bury()
    answer = pet.say(asked)
    assert named in answer and "don't know" not in answer, answer


@pytest.mark.parametrize(
    "said",
    [
        "I stopped drinking, I feel so much better now",
        "I used to hate mornings but now I get up at 6",
        "I gave up on the diet, I eat whatever now",
        "I used to hate olives, now I love them",
        "I used to live in Leeds and now I live in York",
        "I don't smoke anymore, I quit last year",
        "I went to the park instead of the gym",
        "we went to Rome instead of Paris",
        "I stayed home instead of going out",
    ],
)
def test_a_present_that_is_no_new_habit_is_left_to_the_other_rules(said: str) -> None:
    assert offline_habits.change(said) is None


def test_every_sport_kept_as_a_habit_answers_what_sport_do_i_do() -> None:
    pet = talked_to(
        "I used to run every morning but now I swim instead",
        "I play tennis instead of football now",
    )
    assert ("facts", "habit sport swim") in pet.memory and (
        "facts",
        "habit sport play",
    ) in pet.memory
    pet.bury()
    answer = pet.say("what sport do I do?")
    assert "swim" in answer and "tennis" in answer, answer
