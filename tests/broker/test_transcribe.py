"""broker.transcribe against the fake audio server (real HTTP on 127.0.0.1, the multipart request
parsed as a server parses it): the request on the wire, the key, retries, the fallback to the next
transcriber, and each failure as the reason the owner is told."""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Iterator

import msgspec
import pytest

from fakes.fake_audio import FakeAudio
from shelldon.broker.transcribe import Audio, TranscribeFailed, Transcriber
from shelldon.contracts.config import ProviderConfig
from support.audio import note

KEY = "gsk_fakeTranscriberKey0123456789"


@pytest.fixture
def audio_server() -> Iterator[FakeAudio]:
    with FakeAudio(key=KEY) as server:
        yield server


@pytest.fixture(scope="module")
def spoken() -> bytes:
    return note("remind me to water the plants")


def _spec(server: FakeAudio | str, name: str = "groq", **settings: object) -> ProviderConfig:
    base = server.base_url if isinstance(server, FakeAudio) else server
    spec = ProviderConfig(name=name, kind="openai", base_url=base, model="llama", key="groq_key")
    return msgspec.structs.replace(spec, **settings)  # type: ignore[arg-type]


def _transcriber(*specs: ProviderConfig, vault: dict[str, str] | None = None) -> Transcriber:
    keys = {"groq_key": KEY} if vault is None else vault
    return Transcriber(
        specs, model="whisper-large-v3-turbo", read_secret=keys.get, sleep=lambda s: None
    )


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def test_the_note_goes_as_multipart_and_its_words_come_back(
    audio_server: FakeAudio, spoken: bytes
) -> None:
    audio_server.knows(spoken, "Remind me to water the plants.")
    words = _transcriber(_spec(audio_server)).transcribe(Audio(spoken, "voice.ogg", "audio/ogg"))
    assert words == "Remind me to water the plants."
    (request,) = audio_server.requests
    assert request.fields == {"model": "whisper-large-v3-turbo", "response_format": "json"}
    assert (request.filename, request.content_type) == ("voice.ogg", "audio/ogg")
    assert request.sha256 == hashlib.sha256(spoken).hexdigest()  # every byte, unchanged
    assert request.authorization == f"Bearer {KEY}"


def test_a_failing_transcriber_is_retried_then_the_next_is_asked(
    audio_server: FakeAudio, spoken: bytes
) -> None:
    audio_server.knows(spoken, "water the plants")
    audio_server.fail(503)  # one 5xx: retried on the same provider
    first = _spec(audio_server, retries=1)
    assert _transcriber(first).transcribe(Audio(spoken, "voice.ogg", "audio/ogg"))
    assert len(audio_server.requests) == 2
    down = _spec(_dead_url(), name="local", key="", retries=0)
    words = _transcriber(down, _spec(audio_server)).transcribe(
        Audio(spoken, "voice.ogg", "audio/ogg")
    )
    assert words == "water the plants" and len(audio_server.requests) == 3


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("down", "unreachable"),
        ("corrupt", "corrupt"),
        ("no_key", "no_key"),
        ("busy", "busy"),
        ("slow", "slow"),
    ],
)
def test_each_failure_is_the_reason_the_owner_is_told(
    audio_server: FakeAudio, spoken: bytes, setup: str, reason: str
) -> None:
    audio = Audio(spoken, "voice.ogg", "audio/ogg")
    spec = _spec(audio_server, retries=0)
    vault = None
    if setup == "down":
        spec = _spec(_dead_url(), retries=0)
    elif setup == "corrupt":
        audio = Audio(b"OggS" + b"\x00" * 60 + b"not opus at all", "voice.ogg", "audio/ogg")
    elif setup == "no_key":
        vault = {}
    elif setup == "busy":
        audio_server.fail(429)
    elif setup == "slow":
        audio_server.hold()
        spec = _spec(audio_server, retries=0, timeout=0.5)
    try:
        with pytest.raises(TranscribeFailed) as failed:
            _transcriber(spec, vault=vault).transcribe(audio)
    finally:
        audio_server.release()
    assert failed.value.reason == reason
    assert KEY not in failed.value.detail


def test_an_audio_file_keeps_its_format_in_the_filename(audio_server: FakeAudio) -> None:
    from shelldon.transport.telegram_voice import VoiceFile

    memo = VoiceFile("audio", "id", 12, 100, "audio/mpeg", "Memo 3.MP3")
    assert (memo.filename(), memo.content_type()) == ("audio.mp3", "audio/mpeg")
    odd = VoiceFile("audio", "id", 12, 100, "audio/x-m4a", "recording")
    assert odd.filename() == "audio.m4a"
    voice = VoiceFile("voice", "id", 3, 100, "audio/ogg", "")
    assert (voice.filename(), voice.content_type()) == ("voice.ogg", "audio/ogg")
