"""Stage directions around a small model's words (broker.stage_directions, called by
broker.weak_text.scrub): taken off, the words kept; a reply that is only directions goes to the
next provider. Then asides that only look like one: left exactly as written."""

from __future__ import annotations

import pytest

from broker.test_weak_models import REQUEST
from fakes.fake_provider import FakeProvider, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.stage_directions import is_direction, without_directions
from shelldon.broker.weak_text import scrub
from support.providers import http_provider

# (written, what the owner reads): one row per shape of the class.
DIRECTIONS = [
    ("(grins) See you tomorrow!", "See you tomorrow!"),
    ("[Chuckles] That's a good one.", "That's a good one."),
    ("*hugs you tight* I missed you.", "I missed you."),
    ("**waves** Hello again!", "Hello again!"),
    ("_yawns_ Morning already?", "Morning already?"),
    ("Good night! *curls up in my shell*", "Good night!"),
    ("That's great news! (claps happily) Tell me more.", "That's great news! Tell me more."),
    ("Sure thing. [whispering] It's a secret.", "Sure thing. It's a secret."),
    ("(gently) You did your best.", "You did your best."),
    ("(with a big grin) Yes!", "Yes!"),
    ("(in a sleepy voice) Five more minutes...", "Five more minutes..."),
    ("(wagging its tail) Walk time?", "Walk time?"),
    ("(holding your hand) It'll be fine.", "It'll be fine."),
    ("*Blushes.* Thank you!", "Thank you!"),
    ("Hi!\n\n*stretches*\n\nWhat shall we do today?", "Hi!\n\nWhat shall we do today?"),
    ("*spins around* *beeps twice* Ready!", "Ready!"),
    ('"Welcome home!" (smiles)', '"Welcome home!"'),
    ("*bows* At your service.", "At your service."),
    ("(pokes you) Wake up!", "Wake up!"),
    ("Yay! *dances around*", "Yay!"),
]


@pytest.mark.parametrize(("written", "shown"), DIRECTIONS)
def test_a_direction_is_taken_off_and_the_words_kept(written: str, shown: str) -> None:
    text, notes = scrub(written)
    assert text == shown
    assert any("stage direction(s) removed" in note for note in notes)


# Asides a good answer has: emphasis, notes, a recipe's brackets, a link, the pet's own aside.
ASIDES = [
    "That is *so* kind of you.",
    "Mix the flour [sifted] with the sugar.",
    "Bake for 20 minutes (or until golden).",
    "Bake it slowly. (Takes a while.)",
    "See [the guide](https://example.org/guide) for more.",
    "(Optional: add a pinch of salt.)",
    "Ana called! (I'm kidding.)",
    "*Ingredients*\n- 2 eggs\n- 1 cup flour",
    "**Step 1:** preheat the oven.",
    "Hi *waves*.",
    "Use snake_case_names_like_this in Python.",
    "The meeting (about the budget) is at noon.",
    "(Sounds like you had a long day, are you okay?)",
    "[see note below]",
    "Bake it slowly. (takes a while)",
    "*Notes*\nBring a coat.",
]


@pytest.mark.parametrize("written", ASIDES)
def test_an_aside_that_is_not_a_direction_stays(written: str) -> None:
    assert without_directions(written) == (written, 0)


def test_what_a_direction_says() -> None:
    assert is_direction("smiles warmly") and is_direction("softly") and is_direction("Giggles.")
    assert is_direction("taking the owner's hand") and is_direction("happy beeping noises")
    assert not is_direction("optional") and not is_direction("I smile")  # the pet's own words
    assert not is_direction("serves 4") and not is_direction("laughs?")
    assert not is_direction("one two three four five six seven eight nine ten eleven smiles")


@pytest.mark.parametrize("written", ["*smiles warmly*", "(giggles) [waves]", "_nods_"])
def test_a_reply_that_is_only_directions_goes_to_the_next_provider(
    fake: FakeProvider, written: str
) -> None:
    fake.script(raw(written))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
    assert reply.provider == "offline"


def test_through_the_chain_the_owner_reads_the_words(fake: FakeProvider) -> None:
    fake.script(raw("[Laughs] Ana is a lovely name! *wags tail*"))  # "[Laughs]": no placeholder
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
    assert (reply.provider, reply.text) == ("fake-openai", "Ana is a lovely name!")


def test_inside_the_json_protocols_envelope_too(fake: FakeProvider) -> None:
    """The envelope's reply is scrubbed like plain text: the direction and the lead-in go."""
    fake.script(
        raw(
            '{"reply": "*smiles* Hi Sam! Based on the memory provided, Ana lives in Porto.", '
            '"ops": []}'
        )
    )
    provider = http_provider(fake, "openai", protocol="plain")
    reply = ProviderChain([provider, OfflineBrain()]).complete(REQUEST)
    assert (reply.provider, reply.text) == ("fake-openai", "Hi Sam! Ana lives in Porto.")
    assert "reply: 1 stage direction(s) removed" in reply.dropped
