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


# --- the owner's message read as writing to mark -----------------------------------------------
#
# Found by talking to the pet with SmolLM2-135M behind it (a new owner's 16 lines): two replies
# reached the owner as a writing tutor's ("This is a very well-written sentence … Here is a
# broken-up version:", "My mum lived in Galway. The sentence is in the correct order, and the
# owner can paste it …"). The owner never asked for their writing to be marked. The set below was
# written before any change, in other words (the reply, and the owner's message it answers), and
# run once: 9 of 10 marks reached the owner (the tenth was refused as the pet speaking as its
# owner); 0 of 8 look-alikes changed.
MARKS_THE_WRITING = [
    (
        "I love jasmine tea",
        "What a well-written sentence! It flows nicely and the grammar is fine.",
    ),
    ("my cat is called Miso", "Your sentence is grammatically correct, but it could be shorter."),
    ("my cat is called Miso", "Here's a revised version: My cat's name is Miso and she is lovely."),
    ("today was long", "The sentence reads well. You might add a comma after 'Today'."),
    ("work was busy and then the bus was late", "This text is a bit long, so I'd break it in two."),
    ("Ana lives in Porto", "I would rephrase it as: 'My sister, Ana, lives in Porto.'"),
    ("me and my brother went fishing", "There's a small grammar mistake: say 'my brother and I'."),
    ("my dog is naughty", "The original message can be improved by adding more detail."),
    ("I work at the library", "A clearer way to write this would be: I work at a library."),
    (
        "Pepper is very naughty",
        "The phrase 'very naughty' is informal; in formal writing, say 'badly behaved'.",
    ),
]
# The same words where the owner asked for them, and words about a message that mark nothing.
MARKS_ASKED_FOR = [
    (
        "can you check my sentence: I has two dogs",
        "It should be 'I have two dogs': the grammar needs 'have' after 'I'.",
    ),
    (
        "how do I rephrase 'pls send asap' politely?",
        "Here's a revised version: 'Could you send it when you have a moment?'",
    ),
    ("is 'whom' right in my email to the landlord?", "Yes, 'whom' is grammatically correct there."),
    (
        "I'm writing an essay on volcanoes, any tips?",
        "The first sentence should hook the reader: try a surprising fact about volcanoes.",
    ),
    (
        "my dog Pepper stole a sock again",
        "That sentence made me smile! Pepper sounds like a handful.",
    ),
    ("I'm learning the fiddle", "Your message made my day. Good luck with the fiddle!"),
    ("my son wrote his first poem", "His first poem! Is it well-written? Read me a line."),
    ("good night", "Good night! Sleep well."),
]


def _said_to(message: str) -> CompletionRequest:
    return CompletionRequest(
        purpose="turn",
        sections=(
            PromptSection("system", "You are shelldon, a small pet."),
            PromptSection("message", f"# The owner says\n{message}"),
        ),
    )


@pytest.mark.parametrize(("message", "written"), MARKS_THE_WRITING)
def test_a_reply_that_marks_the_owners_writing_goes_to_the_next_provider(
    fake: FakeProvider, message: str, written: str
) -> None:
    fake.script(raw(written))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(
        _said_to(message)
    )
    assert reply.provider == "offline", reply.text


@pytest.mark.parametrize(("message", "written"), MARKS_ASKED_FOR)
def test_words_about_writing_the_owner_asked_for_stay(
    fake: FakeProvider, message: str, written: str
) -> None:
    fake.script(raw(written))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(
        _said_to(message)
    )
    assert (reply.provider, reply.text) == ("fake-openai", written)


# What SmolLM2-135M wrote in that conversation, as the owner would have read it.
LIVE_MARKS = [
    (
        "I hate coriander, never suggest it",
        "This is a very well-written sentence, and it is very good. You can use it to practice "
        "your writing.",
    ),
    (
        "my mum lives in Galway",
        "My mum lived in Galway.\n\nThe sentence is in the correct order, and the owner can paste "
        "it to the chat as it is.",
    ),
]


@pytest.mark.parametrize(("message", "written"), LIVE_MARKS)
def test_the_live_models_marks_are_refused(message: str, written: str) -> None:
    assert unusable_reason(written, message=message) == (
        "marks the owner's writing, which they did not ask for"
    )


# Talk of grammar or of good writing that marks nothing the owner wrote.
NOT_MARKS = [
    ("I teach English at a school", "Do you teach grammar too, or mostly reading?"),
    ("I'm reading Dune", "Is it well written? I've heard the world is huge."),
    ("my daughter has a test tomorrow", "Good luck to her! Is it grammar or spelling?"),
]


@pytest.mark.parametrize(("message", "written"), NOT_MARKS)
def test_talk_of_grammar_that_marks_nothing_the_owner_wrote_stays(
    message: str, written: str
) -> None:
    assert unusable_reason(written, message=message) is None
