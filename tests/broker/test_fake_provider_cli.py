"""The fake provider as a subprocess (how end-to-end tests in other processes use it)."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

FAKE = Path(__file__).resolve().parents[1] / "fakes" / "fake_provider.py"


def call(
    url: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers=headers or {})
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, json.loads(payload) if payload else None


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    script = tmp_path / "steps.json"
    script.write_text(json.dumps([{"kind": "status", "status": 503, "message": "busy"}]))
    command = [sys.executable, str(FAKE), "--script", str(script), "--require-key", "k1"]
    proc = subprocess.Popen([*command, "--reply", "hi"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("READY http://127.0.0.1:"), line
    yield line.split()[1]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


def test_script_requests_reset_over_http(served: str) -> None:
    chat = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}
    auth = {"Authorization": "Bearer k1"}
    assert call(served, "POST", "/v1/chat/completions", chat, auth)[0] == 503  # the file's script
    status, answer = call(served, "POST", "/v1/chat/completions", chat, auth)  # then the default
    assert status == 200
    assert json.loads(answer["choices"][0]["message"]["content"]) == {"reply": "hi", "ops": []}
    assert call(served, "POST", "/v1/messages", chat, {"x-api-key": "wrong"})[0] == 401

    assert call(served, "POST", "/_script", [{"kind": "echo"}])[1] == {"steps": 1}
    status, answer = call(served, "POST", "/v1/messages", chat, {"x-api-key": "k1"})
    assert json.loads(answer["content"][0]["text"])["reply"] == "echo: hello"

    status, recorded = call(served, "GET", "/_requests")
    assert [r["wire"] for r in recorded] == ["openai", "openai", "anthropic", "anthropic"]
    assert recorded[0]["headers"]["authorization"] == "Bearer k1"
    assert json.loads(recorded[0]["body"]) == chat
    call(served, "POST", "/_reset")
    assert call(served, "GET", "/_requests")[1] == []
