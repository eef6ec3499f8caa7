"""Someone coming, or the owner going to see someone, on a day a week off or more
(shelldon.broker.offline_visits through broker.offline). Before the fourteenth pass "my sister Gwen
is visiting next friday" was "That sounds like a plan." with nothing kept, "grandson Luca is
coming next friday" "I hear you.", and "when is Gwen coming?" was answered with her name alone or
"next friday" said days before. The pet's clock is Tuesday 1 December 2026: "next friday" is the
Friday of next week, 11 December."""

from __future__ import annotations

import pytest

from support.offline_pet import talked_to


@pytest.mark.parametrize(
    ("line", "who", "question"),
    [
        ("my sister Gwen is visiting next friday", "Gwen", "when is Gwen coming?"),
        ("grandson Luca is coming next friday, he's 9", "Luca", "what day is Luca coming?"),
        ("seeing my friend Lou next friday for her 40th", "Lou", "when am I seeing Lou?"),
        ("Planning to visit my dad next friday for a week", "dad", "when am I visiting my dad?"),
        ("my brother is coming to stay in two weeks", "brother", "when is my brother coming?"),
    ],
)
def test_a_visit_is_kept_as_its_date_and_asked_back(line: str, who: str, question: str) -> None:
    pet = talked_to()
    reply = pet.say(line)
    assert "Friday 11 December" in reply or "15 December" in reply, reply
    bodies = [body for body, _ in pet.memory.values() if who in body]
    assert any("11 December" in b or "15 December" in b for b in bodies), pet.memory
    assert not any("next friday" in b.casefold() for b in bodies), bodies
    pet.bury()
    back = pet.say(question)
    assert "11 December" in back or "15 December" in back, back


def test_a_visit_in_the_days_ahead_is_wished_well_and_not_kept() -> None:
    pet = talked_to()
    reply = pet.say("my sister Gwen is visiting on saturday")
    assert "visiting" not in str(pet.ops) and "5 December" not in reply, (reply, pet.ops)
    assert "goes well" in reply, reply
