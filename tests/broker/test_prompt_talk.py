"""A small model's talk about its prompt (broker.prompt_talk): a lead-in citing the prompt, an
introduction of the reply and a note about it are taken off by the scrub and the words kept; a
reply that retells its prompt (the owner in the third person, the task, the role play) is
refused by the reply check, and the chain asks the next provider. Words that only look like it
stay as written."""

from __future__ import annotations

import pytest

from broker.test_weak_models import REQUEST
from fakes.fake_provider import FakeProvider, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.prompt_talk import narrates_prompt, sentences, without_prompt_talk
from shelldon.broker.reply_check import unusable_reason
from shelldon.broker.weak_text import scrub
from shelldon.contracts.brain import CompletionRequest, PromptSection
from shelldon.worker.prompt import CHECKIN_HEADER, CHECKIN_INSTRUCTION
from support.providers import http_provider

# (written, what the owner reads): the prompt's part named at a sentence's start, taken off.
TAKEN_OFF = [
    ("According to my instructions, I should be brief: hi!", "I should be brief: hi!"),
    ("Based on the context provided, you love tea.", "You love tea."),
    ("Per the system prompt, hello there!", "Hello there!"),
    ("Going by the chat history, you start work at nine.", "You start work at nine."),
    ("Nice! As stated in the memory section, you like jazz.", "Nice! You like jazz."),
    ("Here's a short reply for the owner: welcome back!", "Welcome back!"),
    ("Here is the answer: Tuesday.", "Tuesday."),
    ("Enjoy the walk! I kept it short, as instructed.", "Enjoy the walk!"),
    ("Sleep well. (This reply follows the guidelines.)", "Sleep well."),
    ("Good luck today!\nThis response is warm and brief.", "Good luck today!"),
    ("Judging by the given information, you're busy.", "You're busy."),
    ("From your memory notes, you like tea.", "You like tea."),
    ("How's it going? (keeping the sentence short, as a conversation starter)", "How's it going?"),
]


@pytest.mark.parametrize(("written", "shown"), TAKEN_OFF)
def test_a_lead_in_or_note_about_the_prompt_is_taken_off(written: str, shown: str) -> None:
    text, notes = scrub(written)
    assert text == shown
    assert any("about the prompt removed" in note for note in notes)
    assert not narrates_prompt(text)


# The reply retells its prompt: refused, the next provider answers.
NARRATED = [
    "The user just told me their sister is Ana. Nice!",
    "The owner has shared that they like tea.",
    "The user's message is about their sister.",
    "Hi! The owner wrote that Ana is their sister.",
    "You are being asked to reply as a pet. Hello!",
    "My instructions are to be warm. Hello!",
    "I need to respond to the user's message about Ana.",
    "In this roleplay, you're my owner and I'm your pet. Hi!",
    "I am playing the role of a pocket pet. Hi!",
    "I'm replying as your pet now. Hi!",
    "As an AI, I don't have a sister, but Ana sounds lovely.",
]


@pytest.mark.parametrize("written", NARRATED)
def test_a_reply_that_retells_its_prompt_goes_to_the_next_provider(
    fake: FakeProvider, written: str
) -> None:
    assert unusable_reason(written) == "talk about its prompt, not words to the owner"
    assert unusable_reason(written, spoken=False) is None  # a dream's note may retell the owner
    fake.script(raw(written))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
    assert reply.provider == "offline"


# Words about other users, owners, messages and instructions: the owner reads them as written.
STAYS = [
    "The user manual says to charge it overnight.",
    "The owner of the bakery says hi.",
    "When the user clicks Save, the form is sent.",
    "Based on what you said yesterday, you like tea.",
    "According to Ana, the film starts at eight.",
    "From the train, you can see the sea.",
    "According to the information on the site, it opens at ten.",
    "Since the shop closes at six, let's go early.",
    "Here's a message you could send to Ana: happy birthday!",
    "The instructions on the box say 180 degrees for 20 minutes.",
    "Since the instructions on the box say 180 degrees, bake it longer.",
    "My task list is short today: laundry and a call to Ana.",
    "You're asked to enter the code from the letter, not your PIN.",
    "The message says your parcel is late.",
    "In this weather, I'd stay in.",
    "As you asked, I'll keep it short.",
]


@pytest.mark.parametrize("written", STAYS)
def test_words_that_only_look_like_prompt_talk_stay(written: str) -> None:
    assert without_prompt_talk(written) == (written, 0)
    assert not narrates_prompt(written)


def test_a_reply_that_is_only_a_note_about_itself_is_left_empty() -> None:
    assert without_prompt_talk("This response follows the system prompt.")[0] == ""


def test_sentences_join_back_to_the_text() -> None:
    text = 'Hi! How are you?\n\nI\'m fine. "Really." Ok'
    assert "".join(sentences(text)) == text


CHECKIN = CompletionRequest(
    purpose="checkin",
    sections=(
        PromptSection("system", "You are shelldon."),
        PromptSection("checkin", f"{CHECKIN_HEADER}\n{CHECKIN_INSTRUCTION}"),
    ),
)


def test_a_check_in_that_copies_its_own_instruction_goes_to_the_next_provider(
    fake: FakeProvider,
) -> None:
    """The check-in's instruction is its own section, not the system's: an echo of it is a
    prompt echo all the same."""
    echo = "Write one or two short, warm sentences that start a conversation. How is Ana?"
    fake.script(raw(echo))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(CHECKIN)
    assert reply.provider == "offline"
    fake.script(raw("Hi! How was your week?"))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(CHECKIN)
    assert (reply.provider, reply.text) == ("fake-openai", "Hi! How was your week?")


def test_a_dreams_note_may_retell_what_the_owner_said(fake: FakeProvider) -> None:
    """The owner never reads a dream's note: it is about them, and is kept."""
    dream = CompletionRequest(purpose="dream", sections=(PromptSection("system", "Dream."),))
    fake.script(raw("The owner said they like tea, so nothing new."))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(dream)
    assert (reply.provider, reply.text) == (
        "fake-openai",
        "The owner said they like tea, so nothing new.",
    )
