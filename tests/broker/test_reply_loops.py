"""A small model's runaway loop in sentences that differ a little each time (broker.reply_check,
"a repetition loop"): SmolLM2-135M's recorded reply 20 ("I'll miss you. I'll miss you. You're
going to miss me. You're going to miss me. I'm going to miss you …", cut at max_tokens) reached
the owner, because no one sentence came three times and its repeated four-word runs stayed just
under a fifth of the text once the cut tail was taken off.

HELD_APART was written before any change, in the shapes such loops take (one thought said over
in shuffled words, a good start that then loops, two sentences taking turns), with LOOK_ALIKES
that must be shown as written (lists, schedules and recipes whose lines share words, cut at the
budget or not); run once before the change: 9 of 10 loops reached the owner, 0 of 8 look-alikes
were refused. Each case goes through the real chain over HTTP (the fake provider's wire)."""

from __future__ import annotations

import pytest

from fakes.fake_provider import FakeProvider, Step, cut, raw
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.brain import CompletionRequest, PromptSection
from support.providers import http_provider

REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection("system", "You are shelldon, a small pet."),
        PromptSection("message", "# The owner says\nbye for now, see you tomorrow"),
    ),
)

HELD_APART: list[tuple[str, Step]] = [
    (
        "two sentences taking turns",
        cut(
            "I love you. You love me. I love you so much. You love me so much. I love you. You "
            "love me so much. I love you so"
        ),
    ),
    (
        "one plan said over",
        cut(
            "We can go to the park. We can go to the beach. We can go to the park and the "
            "beach. We can go to the park. We can go to the"
        ),
    ),
    (
        "an exclamation varied",
        cut(
            "That sounds fun! That sounds really fun! It sounds fun. That sounds so fun! That "
            "sounds really fun. It sounds"
        ),
    ),
    (
        "a fact turned round and round",
        cut(
            "Ana is your sister. Your sister is Ana. Ana is your sister and your sister is Ana. "
            "Your sister Ana is your sister. Ana is"
        ),
    ),
    (
        "comfort said over",
        cut(
            "I'm here for you. I'm always here for you. You can always talk to me. I'm here for "
            "you. You can talk to me. I'm always here for you. You can always"
        ),
    ),
    (
        "good night said over",
        cut("Good night! Sleep well! Good night and sleep well! Sleep well, good night! Good"),
    ),
    (
        "a date said over",
        cut(
            "Tomorrow is Monday. Monday is tomorrow. Tomorrow, Monday, you have work. You have "
            "work on Monday, tomorrow. Tomorrow is Monday and you have work. Tomorrow"
        ),
    ),
    (
        "a good start, then a loop",
        cut(
            "Your trip to Porto sounds lovely, and the food there is great. You should try the "
            "pastries. You should try the pastries there. You should try them. You should try "
            "the pastries, they are great. You should try the pastries. You should"
        ),
    ),
    (
        "a loop that ended on its own, short",
        raw("Yes, yes, I remember. I remember, yes. Yes I remember, I remember yes. Yes!"),
    ),
    (
        "missing said over, as the recorded reply",
        cut(
            "See you tomorrow! I'll miss you. You'll miss me too. I'm going to miss you a lot. "
            "You're going to miss me. I'll miss you. You're going to miss me a lot. I'm going "
            "to miss you. You'll miss me. I'm going to"
        ),
    ),
]

LOOK_ALIKES: list[tuple[str, Step, str]] = [
    (
        "a shopping list, cut",
        cut(
            "Your shopping list has milk. It has eggs too. It also has bread and butter. You "
            "added apples yesterday. You wanted oat milk, not cow's milk. And"
        ),
        "Your shopping list has milk. It has eggs too. It also has bread and butter. You "
        "added apples yesterday. You wanted oat milk, not cow's milk.",
    ),
    (
        "a week's schedule, cut",
        cut(
            "Monday: gym at 7. Tuesday: piano at 6. Wednesday: gym at 7. Thursday: piano at 6. "
            "Friday: rest. Saturday: gym at 9. Sunday"
        ),
        "Monday: gym at 7. Tuesday: piano at 6. Wednesday: gym at 7. Thursday: piano at 6. "
        "Friday: rest. Saturday: gym at 9.",
    ),
    (
        "a recipe's steps, cut",
        cut(
            "Stir the onions for five minutes. Add the garlic and stir for one minute. Add the "
            "tomatoes and stir well. Let it simmer for ten minutes, then stir again. Add salt "
            "and stir. Serve with"
        ),
        "Stir the onions for five minutes. Add the garlic and stir for one minute. Add the "
        "tomatoes and stir well. Let it simmer for ten minutes, then stir again. Add salt "
        "and stir.",
    ),
    (
        "what it remembers about one person, cut",
        cut(
            "I remember three things about Ana: she is your sister, she lives in Porto, and she "
            "loves hiking. You told me she runs too. She is training for a race in May. You "
            "said she"
        ),
        "I remember three things about Ana: she is your sister, she lives in Porto, and she "
        "loves hiking. You told me she runs too. She is training for a race in May.",
    ),
    (
        "two walks, ended",
        raw(
            "You said you walk Rex at seven. You also said you walk him again at six in the "
            "evening. That's two walks a day!"
        ),
        "You said you walk Rex at seven. You also said you walk him again at six in the "
        "evening. That's two walks a day!",
    ),
    (
        "a yes with a reason",
        raw("Yes! Yes, you did tell me. You said your brother is Tom."),
        "Yes! Yes, you did tell me. You said your brother is Tom.",
    ),
    (
        "good night, warmly",
        raw("Good night! Sleep well, and see you tomorrow. I'll be here."),
        "Good night! Sleep well, and see you tomorrow. I'll be here.",
    ),
    (
        "two reminders, cut",
        cut(
            "I'll remind you to call Ana at five. I'll remind you to water the plants at six. "
            "I'll remind you about the bins on Thursday. Anything"
        ),
        "I'll remind you to call Ana at five. I'll remind you to water the plants at six. "
        "I'll remind you about the bins on Thursday.",
    ),
]


@pytest.fixture
def chain(fake: FakeProvider) -> ProviderChain:
    return ProviderChain([http_provider(fake, "openai"), OfflineBrain()])


@pytest.mark.parametrize(("case", "step"), HELD_APART, ids=[c[0] for c in HELD_APART])
def test_a_loop_in_varied_sentences_is_not_shown(
    fake: FakeProvider, chain: ProviderChain, case: str, step: Step
) -> None:
    fake.script(step)
    reply = chain.complete(REQUEST)
    assert reply.provider == "offline", (case, reply.text)


@pytest.mark.parametrize(("case", "step", "shown"), LOOK_ALIKES, ids=[c[0] for c in LOOK_ALIKES])
def test_lines_that_share_words_are_shown_as_written(
    fake: FakeProvider, chain: ProviderChain, case: str, step: Step, shown: str
) -> None:
    fake.script(step)
    reply = chain.complete(REQUEST)
    assert (reply.provider, reply.text) == ("fake-openai", shown), case
