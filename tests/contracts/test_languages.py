"""The owner's languages (shelldon.contracts.languages): a reply in a script or a language the
owner never used is told apart from one in theirs, and names, code, URLs, a bilingual owner, a
translation they asked for and a short history never make it misfire."""

from __future__ import annotations

import msgspec
import pytest

from shelldon.contracts.brain import CompletionRequest, PromptSection
from shelldon.contracts.languages import OwnerLanguages, foreign_reason, owner_profile, script_of
from support.owner_texts import ENGLISH, PORTUGUESE, foreign_answers

FOREIGN_SCRIPT = "a script the owner never writes in"
FOREIGN_LANGUAGE = "a language the owner never used"


def _replies() -> dict[str, list[str]]:
    by_language: dict[str, list[str]] = {}
    for record in foreign_answers():
        text = record["answer"]["choices"][0]["message"]["content"]
        by_language.setdefault(record["language"], []).append(text)
    return by_language


REPLIES = _replies()


def test_scripts_come_from_the_letters_names() -> None:
    assert [script_of(c) for c in "aПж你は한ب"] == [
        "LATIN", "CYRILLIC", "CYRILLIC", "CJK", "HIRAGANA", "HANGUL", "ARABIC",
    ]  # fmt: skip
    assert script_of("Ａ") == "LATIN"  # fullwidth
    assert script_of("7") is None and script_of("!") is None


@pytest.mark.parametrize("language", ["de", "es", "fr", "pt", "ru", "zh"])
def test_an_english_owner_is_never_answered_in_another_language(language: str) -> None:
    profile = owner_profile(ENGLISH)
    for reply in REPLIES[language]:
        expected = FOREIGN_SCRIPT if language in ("ru", "zh") else FOREIGN_LANGUAGE
        assert foreign_reason(reply, profile) == expected


def test_english_replies_to_an_english_owner_pass() -> None:
    profile = owner_profile(ENGLISH)
    for reply in REPLIES["en"]:
        assert foreign_reason(reply, profile) is None


def test_an_owner_who_writes_two_languages_may_be_answered_in_either() -> None:
    profile = owner_profile(ENGLISH[::2] + PORTUGUESE[1::2])
    for language in ("en", "pt"):
        for reply in REPLIES[language]:
            assert foreign_reason(reply, profile) is None, reply
    assert foreign_reason(REPLIES["de"][0], profile) == FOREIGN_LANGUAGE
    assert foreign_reason(REPLIES["ru"][0], profile) == FOREIGN_SCRIPT


def test_a_portuguese_owner_is_not_answered_in_english() -> None:
    profile = owner_profile(PORTUGUESE)
    assert foreign_reason(REPLIES["en"][0], profile) == FOREIGN_LANGUAGE
    assert foreign_reason(REPLIES["pt"][0], profile) is None


def test_names_in_another_script_or_language_do_not_count() -> None:
    profile = owner_profile(ENGLISH)
    for reply in (
        "Your friend Дмитрий Иванович Соколов called while you were at the library today.",
        "You told me your favourite places are Saint-Germain-des-Prés, Düsseldorf and Zürich.",
        "Ana says the restaurant O Velho Eurico in Lisbon is the best place for dinner tonight.",
    ):
        assert foreign_reason(reply, profile) is None, reply


def test_code_urls_and_addresses_are_not_judged() -> None:
    profile = owner_profile(ENGLISH)
    for reply in (
        "Here is the fix:\n```python\ndef obtener_datos(fichero):\n    return abrir(fichero)\n```",
        "Try `gehe_zu_seite(nummer)` and see https://beispiel.de/hilfe/anleitung-fur-anfanger",
        "Write to ich.bin.hier@beispiel.de or @unser_verein_berlin about it.",
        "```\nпривет = получить_данные()\nпечать(привет)\n```",
    ):
        assert foreign_reason(reply, profile) is None, reply


def test_a_translation_the_owner_asked_for_is_shown() -> None:
    profile = owner_profile(ENGLISH)
    german = REPLIES["de"][0]
    assert foreign_reason(german, profile, "can you translate that into German?") is None
    # A translation that comes with a line in the owner's language passes without the ask.
    mixed = f"Here is how you would say it in German, more or less: {german}"
    assert foreign_reason(mixed, profile) is None


def test_too_little_to_tell_is_never_judged() -> None:
    short_history = owner_profile(ENGLISH[:8])  # a few hundred letters
    assert foreign_reason(REPLIES["de"][0], short_history) is None
    # ... but a script the owner never typed shows from the first message on.
    assert foreign_reason(REPLIES["ru"][0], owner_profile(["hi!"])) == FOREIGN_SCRIPT
    profile = owner_profile(ENGLISH)
    assert foreign_reason("Danke, gut!", profile) is None  # too short a reply
    assert foreign_reason(REPLIES["de"][0], None) is None
    assert foreign_reason(REPLIES["de"][0], OwnerLanguages()) is None


def test_an_owner_who_writes_in_a_script_without_spaces() -> None:
    japanese = owner_profile(["今日は図書館で働いていました。", "明日の朝、姉に電話したいです。"])
    reply = "お疲れさまでした。今日はゆっくり休んでくださいね。明日も頑張りましょう。"
    assert foreign_reason(reply, japanese) is None
    assert foreign_reason(REPLIES["ru"][0], japanese) == FOREIGN_SCRIPT


def test_the_profile_travels_with_the_request() -> None:
    profile = owner_profile(ENGLISH)
    request = CompletionRequest(
        purpose="turn", sections=(PromptSection("message", "# hi"),), owner_languages=profile
    )
    decoded = msgspec.msgpack.decode(msgspec.msgpack.encode(request), type=CompletionRequest)
    assert decoded.owner_languages == profile
    assert len(profile.trigrams) <= 600 and len(profile.words) <= 150
    assert "the" in profile.words and " th" in profile.trigrams


def test_the_profile_is_the_one_every_message_counted_alone_gave() -> None:
    """owner_profile judges each message alone and walks each distinct word once (core builds
    one every turn); the counts and their first-seen order, and so the ties `most_common`
    breaks, are those of the pass over every message and occurrence it replaced
    (tests/reference/languages.py): mixed scripts, names, code, URLs, blank messages,
    sentences cut at a message's end, and a budget that ends mid-message."""
    import random

    from reference.languages import owner_profile as one_by_one

    replies = [text for texts in REPLIES.values() for text in texts]
    pool = [
        *ENGLISH,
        *PORTUGUESE,
        *replies,
        "",
        "no full stop here",
        "Noor and Ana met Zoë. `x = 1` see https://example.com or me@example.org!",
        "日本語のテキスト。とても良い\nPS: ok",
    ]
    chooser = random.Random(25)
    for _ in range(60):
        messages = chooser.choices(pool, k=chooser.randrange(0, 400))
        assert owner_profile(messages) == one_by_one(messages)
    long_history = pool * 40  # past PROFILE_CHARS: the budget cuts a message
    assert owner_profile(long_history) == one_by_one(long_history)


def test_a_kept_cache_gives_each_turn_the_profile_owner_profile_gives() -> None:
    """core's ProfileCache (kept across turns, counting only new messages) against owner_profile,
    turn after turn of a growing history, newest first: the same profile each turn, including
    the turn whose budget cuts its oldest message, and after messages slid out of its window."""
    import random

    from shelldon.contracts.languages import ProfileCache

    replies = [text for texts in REPLIES.values() for text in texts]
    pool = [*ENGLISH, *PORTUGUESE, *replies, "", "Noor met Zoë. `x = 1` see https://ex.com!"]
    chooser = random.Random(18)
    cache = ProfileCache()
    history: list[str] = []
    for turn in range(250):
        message = f"{chooser.choice(pool)} {turn}" if turn % 3 else chooser.choice(pool)
        window = [message, *history[:400]]
        assert cache.profile(window) == owner_profile(window), turn
        history.insert(0, message)
    assert sum(map(len, history)) > 10_000  # the budget ended mid-history on the last turns


def test_a_kept_cache_holds_one_window_however_long_the_pet_talks() -> None:
    """ProfileCache keeps the counts of what the last profile read and nothing older: after
    3000 turns of new messages (each with a word of its own) it holds at most the messages that
    fit in PROFILE_CHARS, and only their words; kept by age, it held thousands."""
    from shelldon.contracts.languages import PROFILE_CHARS, PROFILE_MESSAGES, ProfileCache

    cache = ProfileCache()
    history: list[str] = []
    for turn in range(3000):
        name = "".join(chr(ord("a") + int(digit)) for digit in str(turn))  # 123 -> "bcd"
        message = f"I walked the dog to the park of {name}ville and we met {turn % 7} friends"
        history.insert(0, message)
        cache.profile(history[:PROFILE_MESSAGES])
    messages, words = cache.held()
    shortest = min(len(message) for message in history)
    assert 0 < messages <= PROFILE_CHARS // shortest + 1
    # Each message's own word (its place's name) and the words all of them share.
    assert words <= messages + 20
