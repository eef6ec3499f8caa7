"""A reply in a language the owner never used is never shown: the owner's languages are learned
from their own messages in a real history.db (the worker's gather_context), travel with the
prompt, and the chain, asked over real HTTP, moves on to the offline brain when the model answers
in another language (llama.cpp-shaped answers: tests/fixtures/live_model/languages.json)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from fakes.fake_provider import FakeProvider, body
from shelldon.broker.chain import ProviderChain
from shelldon.broker.offline import OfflineBrain
from shelldon.core.history.store import HistoryStore
from shelldon.paths import DataRoot
from shelldon.worker.prompt import gather_context
from support.owner_texts import ENGLISH, PORTUGUESE, foreign_answers
from support.providers import http_provider

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
ANSWERS = {record["language"]: record["answer"] for record in foreign_answers()}


def _owner_wrote(home: Path, messages: tuple[str, ...]) -> DataRoot:
    root = DataRoot.resolve(home)
    root.home.mkdir(parents=True, exist_ok=True)
    store = HistoryStore.open(root.history_db)
    try:
        for i, text in enumerate(messages):
            store.record_turn(f"t{i}", text, "Okay!", T0 + timedelta(minutes=i))
    finally:
        store.close()
    return root


def _ask(fake: FakeProvider, root: DataRoot, message: str, language: str) -> tuple[str, str]:
    request = gather_context(root, message)
    assert request.owner_languages is not None
    fake.script(body(ANSWERS[language]))
    reply = ProviderChain([http_provider(fake, "openai"), OfflineBrain()]).complete(request)
    if reply.provider == "offline":  # recorded as the model's failure, which core tells the owner
        assert [(f.kind, f.provider) for f in reply.failures] == [("malformed", "fake-openai")]
        assert "never" in reply.failures[0].detail
    return reply.provider, reply.text


@pytest.mark.parametrize("language", ["de", "es", "fr", "pt", "ru", "zh"])
def test_an_english_owner_never_reads_another_language(
    fake: FakeProvider, home: Path, language: str
) -> None:
    root = _owner_wrote(home, ENGLISH)
    provider, text = _ask(fake, root, "how was your day?", language)
    assert provider == "offline"
    assert text != ANSWERS[language]["choices"][0]["message"]["content"]


def test_an_english_owner_reads_the_model_in_english(fake: FakeProvider, home: Path) -> None:
    root = _owner_wrote(home, ENGLISH)
    provider, text = _ask(fake, root, "how was your day?", "en")
    assert provider == "fake-openai"
    assert text == ANSWERS["en"]["choices"][0]["message"]["content"]


def test_a_bilingual_owner_reads_either_language(fake: FakeProvider, home: Path) -> None:
    root = _owner_wrote(home, ENGLISH[::2] + PORTUGUESE[1::2])
    for language in ("en", "pt"):
        provider, _ = _ask(fake, root, "tudo bem?", language)
        assert provider == "fake-openai", language
    provider, _ = _ask(fake, root, "tudo bem?", "de")
    assert provider == "offline"


def test_a_new_owner_is_not_judged_on_words_yet(fake: FakeProvider, home: Path) -> None:
    root = _owner_wrote(home, ENGLISH[:5])
    assert _ask(fake, root, "hi!", "de")[0] == "fake-openai"  # too little to tell a language
    assert _ask(fake, root, "hi!", "ru")[0] == "offline"  # a script they never typed shows at once


def test_a_translation_the_owner_asked_for_is_shown(fake: FakeProvider, home: Path) -> None:
    root = _owner_wrote(home, ENGLISH)
    provider, _ = _ask(fake, root, "please translate 'how was your day' into German", "de")
    assert provider == "fake-openai"


def test_the_profile_is_the_owners_own_newest_words(home: Path) -> None:
    root = _owner_wrote(home, PORTUGUESE + ENGLISH)
    store = HistoryStore.open(root.history_db)
    try:
        newest = store.owner_messages(3)
    finally:
        store.close()
    assert newest == list(ENGLISH[-3:][::-1])  # the owner's rows only, newest first
    turn = gather_context(root, "hello")
    assert turn.owner_languages is not None
    assert "the" in turn.owner_languages.words and "okay" not in turn.owner_languages.words
    assert gather_context(root, "", purpose="checkin").owner_languages is not None
    assert gather_context(root, "", purpose="dream").owner_languages is None
