"""What the owner dictates, to keep or to pass on (shelldon.broker.offline_dictated, through
broker.offline): a note kept without its command, a fragment kept as typed, a message for someone
else answered honestly (the pet cannot send it), a weekday in the plural a weekly reminder."""

from __future__ import annotations

import pytest

from support.offline_pet import Pet


def test_a_dictated_note_is_kept_without_its_command() -> None:
    pet = Pet()
    pet.say("hi, I'm Kofi")
    pet.say("jot down that I lent Dana my drill")
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "Dana" in kept and "note" not in kept.casefold(), pet.memory
    answer = pet.say("who has my drill?")
    assert "Dana" in answer and "make a note" not in answer, answer


def test_fragments_written_down_are_two_entries() -> None:
    pet = Pet()
    pet.say("hi, I'm Kofi")
    pet.say("write down: vet on the 3rd at 10am")
    pet.say("jot down: car service on Monday")
    kept = " ".join(body for body, _ in pet.memory.values())
    assert "vet on the 3rd at 10am" in kept and "car service on Monday" in kept, pet.memory


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("say that we're running late", "We're running late."),
        ("tell my sister I'll call her tonight", "I'll call her tonight."),
        ("let Omar know the meeting moved to 4", "The meeting moved to 4."),
    ],
)
def test_a_message_for_someone_else_is_answered_honestly(line: str, words: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Kofi")
    reply = pet.say(line)
    assert "can't send" in reply and words in reply, reply
    assert len(pet.memory) == 1, pet.memory  # nothing kept but the name


@pytest.mark.parametrize("line", ["say something nice", "tell me a joke", "tell me more"])
def test_a_request_to_the_pet_is_no_message(line: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Kofi")
    assert "can't send" not in pet.say(line)


def test_a_weekday_in_the_plural_is_a_weekly_reminder_of_a_clause() -> None:
    pet = Pet()
    pet.say("hi, I'm Kofi")
    asked = pet.say("remind me the recycling goes out on Thursdays")
    assert "remind you that the recycling goes out" in asked, asked
    done = pet.say("at 8pm")
    assert "every Thursday at 20:00" in done and "to the recycling" not in done, done


def test_a_clause_with_no_the_is_said_with_that() -> None:
    """After the held-apart owner: "remind you to rent is due"."""
    pet = Pet()
    pet.say("hi, I'm Kofi")
    asked = pet.say("remind me that council tax is due on friday")
    assert "to council tax" not in asked and "that council tax is due" in asked, asked
    assert "to call the bank" in pet.say("remind me to call the bank tomorrow at 9")
