"""broker.speech: the pet's own voice (espeak-ng piped into opusenc, nothing on disk) and a
provider's `/audio/speech` (the fake audio server), each giving a real OGG/Opus voice note."""

from __future__ import annotations

import pytest

from fakes.fake_audio import FakeAudio
from shelldon.broker.speech import OfflineVoice, ProviderVoice, SpeechFailed
from shelldon.contracts.config import ProviderConfig
from support.audio import need_tools, read_ogg

KEY = "sk-fakeSpeechKey0123456789"


def test_the_offline_voice_is_a_real_ogg_opus_note() -> None:
    need_tools()
    ogg = read_ogg(OfflineVoice("en").speak("Okay, I'll remind you to call Ana tomorrow."))
    assert ogg.head.startswith(b"OpusHead") and ogg.head[9] == 1  # one channel
    assert 1.0 < ogg.seconds < 10.0  # a sentence, spoken
    longer = read_ogg(OfflineVoice("en").speak("Okay. " * 12))
    assert longer.seconds > ogg.seconds


def test_without_the_tools_the_offline_voice_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(SpeechFailed, match="apt install espeak-ng opus-tools"):
        OfflineVoice("en").speak("hello")


def test_a_provider_voice_asks_for_opus_with_the_key() -> None:
    need_tools()  # the fake speaks with the same tools
    with FakeAudio(key=KEY) as server:
        spec = ProviderConfig(
            name="openai", kind="openai", base_url=server.base_url, model="gpt", key="k"
        )
        voice = ProviderVoice(
            spec, model="gpt-4o-mini-tts", voice="alloy", read_secret={"k": KEY}.get
        )
        ogg = read_ogg(voice.speak("Hello there."))
        assert ogg.seconds > 0.3
        (request,) = server.requests
        assert request.fields == {
            "model": "gpt-4o-mini-tts",
            "input": "Hello there.",
            "voice": "alloy",
            "response_format": "opus",
        }
        assert request.authorization == f"Bearer {KEY}"
        server.fail(500)
        with pytest.raises(SpeechFailed, match="openai: server"):
            voice.speak("again")
        wrong = ProviderVoice(spec, model="m", voice="alloy", read_secret={}.get)
        with pytest.raises(SpeechFailed, match="vault entry 'k' is missing"):
            wrong.speak("no key")
