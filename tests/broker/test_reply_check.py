"""Nothing raw reaches the owner: the reply check (broker.reply_check) on the shapes a real small
model produced (shared/notes: envelopes without a reply, digit floods, echoed placeholders, answers
cut at max_tokens), and the chain asking the next provider, the offline brain last.
"""

from __future__ import annotations

import json
import logging

import pytest

from fakes.fake_provider import FakeProvider, cut, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.broker.reply_check import PROMPT_TITLES, loggable, unusable_reason, whole_part
from shelldon.contracts.brain import CompletionRequest, PromptSection
from support.providers import http_provider as provider

REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection("system", "You are shelldon."),
        PromptSection("message", "# The owner says\nhello there"),
    ),
)
DIGITS = "4" * 400

UNUSABLE = [
    '{"answer": "hi"}',
    '{ "authoritative": "Hi! I\'m Sam, nice to meet you." }',
    '{"id": ' + DIGITS + "}",
    '{"type": "description"}',
    '[{"op": "remember"}]',
    "<what you say to your owner>",
    "Sure! <one short sentence for your owner>",
    "Hi! I'm [YourName] and I've been [You're Name] for [Time] years.",
    "Nice to meet you, [Owner Name]!",
    "Here it is: " + DIGITS,
    "12 34 56 78 90 12 34 56 78 90 12 34 56 78 90 12 34",
    "   ",
    "The owner: Ana\nYou: You are the one you are.\nYou: You are.",
    "owner: hi\npet: hello",
    "Hello! Nice to meet you. Nice to meet you. Nice to meet you.",
    'The owner says: "I love jasmine tea, my favorite tea."',
    "Sure.\n# Recent conversation (oldest first)\nowner: hi",
    "The owner is happy to have a cat. The owner's response is friendly.",
    "Dear Ana, Tuesday 2026-12-01 22:06, time zone UTC (UTC+00:00) What a lovely thing.",
]
USABLE = [
    "Hi! I'm shelldon.",
    "I <3 tea.",
    "If a < b and b > c, then who knows.",
    "Your PIN hint is 2019, the year you moved.",
    'Here is the config:\n```json\n{"a": 1}\n```',
]


@pytest.mark.parametrize("text", UNUSABLE)
def test_unusable_replies_are_named(text: str) -> None:
    assert unusable_reason(text) is not None


@pytest.mark.parametrize("text", USABLE)
def test_ordinary_replies_pass(text: str) -> None:
    assert unusable_reason(text) is None


def test_the_prompt_titles_are_the_prompts() -> None:
    from shelldon.contracts import localtime
    from shelldon.worker import prompt

    headers = [getattr(prompt, name) for name in dir(prompt) if name.endswith("_HEADER")] + [
        localtime.CHECKIN_HEADER
    ]
    for title in PROMPT_TITLES:
        assert any(title in header for header in headers), title
    for name in ("DIRECTIVE_HEADER", "ABOUT_HEADER", "RECENT_HEADER", "MESSAGE_HEADER"):
        assert any(t in getattr(prompt, name) for t in PROMPT_TITLES), name


def test_the_now_line_echo_is_the_prompts() -> None:
    from datetime import UTC, datetime

    from shelldon.contracts.localtime import now_line

    line = now_line(datetime(2026, 12, 1, 22, 6, tzinfo=UTC), "UTC", "+00:00")
    assert unusable_reason(f"Hello! {line}") == "a prompt echo"


def test_a_cut_reply_keeps_its_whole_sentences_or_nothing() -> None:
    long_whole = "Tea is lovely, and I could talk about it all day long. Green te"
    assert whole_part(long_whole) == "Tea is lovely, and I could talk about it all day long."
    assert whole_part("Tea is nice. And then there was a very long tail that never ends an") is None
    assert whole_part("No sentence end at all") is None
    assert whole_part("Done.") == "Done."


def test_the_log_gets_it_short_and_scrubbed() -> None:
    logged = loggable('{"key": "sk-proj-Zx8vQ2mN4bR7tY1uI0oP3aS5dF6gH9jK"} ' + DIGITS)
    assert len(logged) <= 120 and "Zx8vQ2" not in logged


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("junk", UNUSABLE[:8])
def test_junk_from_a_provider_gets_the_offline_brains_answer(
    fake: FakeProvider, kind: str, junk: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake.script(raw(junk))
    offline = OfflineBrain()
    chain = ProviderChain([provider(fake, kind), offline])
    with caplog.at_level(logging.WARNING):
        reply = chain.complete(REQUEST)
    expected = json.loads(offline.complete(REQUEST).text)["reply"]
    assert reply.provider == "offline" and reply.text == expected
    (failure,) = reply.failures
    assert failure.kind == "malformed" and failure.detail.startswith("unusable reply")
    assert DIGITS not in caplog.text  # logged cut short, never whole


def test_the_answer_hi_case(fake: FakeProvider) -> None:
    """The issue's own: `{"answer": "hi"}` with the offline brain behind yields the offline's."""
    fake.script(raw('{"answer": "hi"}'))
    reply = ProviderChain([provider(fake, "openai"), OfflineBrain()]).complete(REQUEST)
    assert reply.provider == "offline"
    assert "answer" not in reply.text and "{" not in reply.text


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_reply_cut_by_the_token_budget(fake: FakeProvider, kind: str) -> None:
    chain = ProviderChain([provider(fake, kind), OfflineBrain()])
    fake.script(cut("Hello there, it is so good to see you again today. I was just thinking ab"))
    assert chain.complete(REQUEST).text == "Hello there, it is so good to see you again today."
    fake.script(cut("Hello, I was just thinking about what you told me the other day when we"))
    assert chain.complete(REQUEST).provider == "offline"


def _turn(message: str, entry: str = "") -> CompletionRequest:
    """A turn's request: the owner's message, and one memory entry when given."""
    memory = (PromptSection("memory", f"# Memory (curated entries, most relevant first)\n{entry}"),)
    return CompletionRequest(
        purpose="turn",
        sections=(
            PromptSection("system", "You are shelldon, a pocket pet."),
            *(memory if entry else ()),
            PromptSection("message", f"# The owner says\n{message}"),
        ),
    )


# Found by the live model's run (docs/live-model.md): SmolLM2 answered "my sister is called Ana"
# with "Hi, I'm shelldon, your pet! You live in Lisbon, Portugal. I'm Sam. …", Sam being the owner.
CLAIMS = [
    "Hi, I'm shelldon, your pet! You live in Lisbon. I'm Sam. I'm happy to share.",
    "My name is Sam and I love jasmine tea.",
    "Sure! Call me Sam.",
    "I am Sam, the one who works at the library.",
]
NOT_CLAIMS = [
    "Nice to meet you, Sam!",
    "I'm Sam's pocket pet, and proud of it.",
    "I'm so glad, Sam. Tell me more!",
    "I am Samantha's friend too.",  # another name that starts the same
    "Sam, I'm here whenever you need me.",
]


@pytest.mark.parametrize("text", CLAIMS)
def test_the_pet_speaking_as_its_owner_is_unusable(text: str) -> None:
    assert unusable_reason(text, owner="Sam") == "the pet speaking as its owner"
    assert unusable_reason(text) is None  # with no owner's name known, nothing to compare


@pytest.mark.parametrize("text", NOT_CLAIMS)
def test_words_to_the_owner_by_name_are_usable(text: str) -> None:
    assert unusable_reason(text, owner="Sam") is None


def test_a_reply_that_takes_the_owners_name_gets_the_offline_brains_answer(
    fake: FakeProvider,
) -> None:
    named = _turn(
        "my sister is called Ana", "## owner's name [facts, inferred]\nThe owner's name is Sam."
    )
    fake.script(raw("Hi! I'm Sam. My sister is Ana too."))
    reply = ProviderChain([provider(fake, "openai"), OfflineBrain()]).complete(named)
    assert reply.provider == "offline", reply.text
    assert "I'm Sam" not in reply.text


# SmolLM2 in the live run: "Here's the official address: … You can check your hotel's address
# online: www.your-hotel-address.com".
@pytest.mark.parametrize(
    "text",
    [
        "You can check your hotel's address online: www.your-hotel-address.com",
        "See https://yourwebsite.com for more.",
        "Visit example.com to learn more!",
    ],
)
def test_a_made_up_placeholder_link_is_unusable(text: str) -> None:
    assert unusable_reason(text) == "a template placeholder"


@pytest.mark.parametrize(
    "text",
    ["Your library's site is lisboa.pt, you said.", "I love yourself.com? No idea, Sam!"],
)
def test_a_real_looking_link_is_not_a_placeholder(text: str) -> None:
    assert unusable_reason(text) != "a template placeholder"


def test_a_reply_that_repeats_the_owners_introduction_as_its_own_is_refused(
    fake: FakeProvider,
) -> None:
    """The live run's second turn: "my name is Sam" answered "my name is Sam. I am your pet."
    (the name not kept yet: it is the message's)."""
    introduced = _turn("my name is Sam")
    fake.script(raw("my name is Sam. I am your pet. I was waiting for you."))
    reply = ProviderChain([provider(fake, "openai"), OfflineBrain()]).complete(introduced)
    assert reply.provider == "offline", reply.text
    fake.script(raw("Nice to meet you, Sam! I'm shelldon."))
    reply = ProviderChain([provider(fake, "openai"), OfflineBrain()]).complete(introduced)
    assert (reply.provider, reply.text) == ("fake-openai", "Nice to meet you, Sam! I'm shelldon.")


# The live run's rows 10 and 11: "I am the one who works at the city library. I live in Lisbon."
OWNER_SAID = [
    "The owner lives in Lisbon.",
    "The owner works at the city library.",
    "I'm from Porto",
]


@pytest.mark.parametrize(
    "text",
    [
        "I am the one who works at the city library. I live in Lisbon.",
        "Oh nice, I work at the library too!",
        "I'm from Porto as well!",
        "Hi! I also live in Lisbon, near the river.",
    ],
)
def test_the_pet_saying_the_owners_life_as_its_own_is_unusable(text: str) -> None:
    assert unusable_reason(text, owner_said=OWNER_SAID) == "the pet speaking as its owner"
    assert unusable_reason(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "You live in Lisbon, by the river!",
        "I live in your pocket, Sam.",
        "I am in love with Lisbon already.",
        "I work best in the mornings, like you.",
        "I was in Lisbon once, in a dream.",
    ],
)
def test_the_owners_life_said_to_them_is_usable(text: str) -> None:
    assert unusable_reason(text, owner_said=OWNER_SAID) is None


def test_a_reply_that_takes_the_owners_home_gets_the_offline_brains_answer(
    fake: FakeProvider,
) -> None:
    homed = _turn("where do I live?", "## home [facts, inferred]\nThe owner lives in Lisbon.")
    fake.script(raw("You're lucky! I live in Lisbon. Here's the official address."))
    reply = ProviderChain([provider(fake, "openai"), OfflineBrain()]).complete(homed)
    assert reply.provider == "offline", reply.text
    assert "Lisbon" in reply.text
