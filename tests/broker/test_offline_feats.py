"""Something the owner did, with a figure (shelldon.broker.offline_feats, through the real prompt
and brain): praised with the figure, kept with the day it was told on, and found by a question
in another form of the verb. Before the nineteenth pass "I ran 5k this morning in 28 minutes" was
"Oh? And how was it?" with nothing kept, and "how fast did I run?" was not found."""

from __future__ import annotations

from shelldon.broker.offline_feats import said
from support.offline_pet import Pet


def test_a_feat_with_a_figure_is_praised_with_it_and_kept_dated() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    reply = pet.say("I cycled 60km yesterday")
    assert "60km" in reply and "well done" in reply.casefold(), reply
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "The owner cycled 60km (told on " in kept, kept
    assert "yesterday" not in kept, kept
    answer = pet.say("how far did I cycle?")
    assert "60km" in answer, answer


def test_the_question_finds_the_verb_in_another_form_past_the_window() -> None:
    pet = Pet()
    pet.say("hi, I'm Ola")
    pet.say("I swam 32 lengths at the pool")
    for chatter in ("nice weather", "my dog Rex is snoring", "I like jazz", "lol", "ok", "hmm"):
        pet.say(chatter)
    answer = pet.say("how many lengths did I swim?")
    assert "32 lengths" in answer, answer


def test_a_doing_without_a_figure_or_not_a_feat_is_left_alone() -> None:
    for line in ("I ran into 2 old friends", "I finished my book", "I did nothing today"):
        assert said(line, None, 0) is None, line
