"""`shelldon doctor`'s voice lines against the fake audio server: a transcriber that answers, one
whose key is refused, one that is down, the offline voice's tools, --offline contacting nothing."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from fakes.fake_audio import FakeAudio
from shelldon.appliance.doctor import DoctorContext
from shelldon.cli.doctor_cmd import check_config, render, run_checks
from shelldon.cli.voice_doctor import SILENCE_OGG, check_voice
from shelldon.paths import DataRoot
from support.audio import read_ogg

KEY = "gsk_fakeDoctorKey0123456789abc"


def _config(home: Path, base_url: str, *, speak: str = "") -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        "[[provider]]\n"
        'name = "stt"\nkind = "openai"\n'
        f'base_url = "{base_url}"\nmodel = "whisper"\nkey = "stt_key"\nchat = false\n'
        f'[voice]\ntranscribe = "stt"\nspeak = "{speak}"\n'
    )


def _lines(**context: object) -> dict[str, tuple[str, str]]:
    ctx = DoctorContext(root=DataRoot.resolve(), **context)  # type: ignore[arg-type]
    results = run_checks(ctx, [check_config, check_voice])
    assert KEY not in render(results, ctx.secrets)
    return {r.name: (r.status, r.detail) for r in results}


def test_the_probe_is_a_real_ogg_opus_stream() -> None:
    ogg = read_ogg(SILENCE_OGG)
    assert 0.4 < ogg.seconds < 0.6


def test_a_transcriber_that_answers_is_ok_and_the_key_is_sent(home: Path) -> None:
    with FakeAudio(key=KEY) as server:
        _config(home, server.base_url)
        lines = _lines(read_secret={"stt_key": KEY}.get)
        assert lines["voice stt"][0] == "ok", lines
        (request,) = server.requests
        assert request.filename == "voice.ogg" and request.authorization == f"Bearer {KEY}"
        refused = _lines(read_secret={"stt_key": "gsk_wrongKey00000000000000"}.get)
        assert refused["voice stt"][0] == "fail" and "401" in refused["voice stt"][1]
        offline = _lines(read_secret={"stt_key": KEY}.get, network=False)
        assert offline["voice stt"][0] == "skip" and len(server.requests) == 2


def test_a_transcriber_down_fails_and_the_chain_line_leaves_it_out(home: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    _config(home, dead)
    lines = _lines(read_secret={"stt_key": KEY}.get)
    assert lines["voice stt"][0] == "fail" and "unreachable" in lines["voice stt"][1]
    assert "no providers: the offline brain answers" in lines["config"][1]  # chat = false


def test_the_offline_voice_needs_its_tools(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeAudio(key=KEY) as server:
        _config(home, server.base_url, speak="offline")
        monkeypatch.setenv("PATH", "/nonexistent")
        lines = _lines(read_secret={"stt_key": KEY}.get)
    assert lines["voice replies"][0] == "fail"
    assert "apt install espeak-ng opus-tools" in lines["voice replies"][1]
