"""A voice note against the same words typed, through the real pet (offline brain, the fake Bot API,
the fake audio server answering at once): from the update reaching the Bot API to the reply sent.
Compare within the group: the ratio is the cost of fetching and transcribing a 3 s note, less the
transcriber's own time. `just bench -k voice`; scripts/measure_voice.py prints the same with the
broker's memory and the bytes written."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from fakes.fake_audio import FakeAudio
from fakes.fake_telegram import FakeTelegram
from support.audio import note
from support.pet import Pet, running_pet
from support.telegram import OWNER, configure, pair

SAID = "my favourite colour is green"
_count = itertools.count()


@pytest.fixture(scope="module")
def voice_setup(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Pet, FakeTelegram, bytes]]:
    spoken = note(SAID)
    home = tmp_path_factory.mktemp("bench-voice")
    with pytest.MonkeyPatch.context() as env, FakeTelegram() as fake, FakeAudio() as audio:
        env.setenv("SHELLDON_HOME", str(home / "home"))
        env.setenv("SHELLDON_RUN_DIR", str(home / "run"))
        audio.knows(spoken, SAID)
        extra = (
            f'\n[[provider]]\nname = "stt"\nkind = "openai"\nbase_url = "{audio.base_url}"\n'
            'model = "whisper"\nchat = false\n[voice]\ntranscribe = "stt"\n'
        )
        configure(fake, extra=extra)
        with running_pet() as pet:
            pair(pet, fake)
            yield pet, fake, spoken


def _round(fake: FakeTelegram, send: object, count: int) -> None:
    before = len(fake.sent_to(OWNER))
    send()  # type: ignore[operator]
    assert fake.wait_until(lambda f: len(f.sent_to(OWNER)) >= before + count, 60)


@pytest.mark.benchmark(group="voice")
def test_bench_typed_message(benchmark, voice_setup) -> None:  # type: ignore[no-untyped-def]
    _pet, fake, _spoken = voice_setup
    benchmark.pedantic(
        _round, (fake, lambda: fake.text(OWNER, f"{SAID} {next(_count)}"), 1), rounds=10
    )


@pytest.mark.benchmark(group="voice")
def test_bench_voice_note(benchmark, voice_setup) -> None:  # type: ignore[no-untyped-def]
    _pet, fake, spoken = voice_setup
    benchmark.pedantic(_round, (fake, lambda: fake.voice(OWNER, spoken, 3), 2), rounds=10)
