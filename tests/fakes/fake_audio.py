"""A fake OpenAI-compatible audio server on 127.0.0.1: the two endpoints `[voice]` uses, on the wire
as OpenAI documents them.

- `POST /v1/audio/transcriptions`: multipart/form-data with a `file` part (a filename whose
  extension names the format) and a `model` part; `response_format` json (the default) answers
  `{"text": "…"}`. The file is checked as a server must before decoding it: an `.ogg` must be an
  OGG stream whose first packet is OpusHead, else 400 `invalid_request_error` ("Invalid file
  format"), as OpenAI answers a file it cannot decode. The words: what the test said the note
  says (`knows(audio, text)`, keyed by the exact bytes, so a note changed on the way is not
  recognised), "" for valid audio it was not told about.
- `POST /v1/audio/speech`: JSON `{"model", "input", "voice", "response_format"}`, answered with
  the audio itself (espeak-ng + opusenc for "opus", the only format the pet asks for).

`Authorization: Bearer <key>` is checked when the fake has a key (401 otherwise). Faults:
`fail(status, times)`, `hold()` (requests wait until `release()`: the transcriber is slow),
`down()` / `up()` (the port closed, then open again). `requests` records what arrived (the
fields, the file's name, type, size and sha256), never asserted by sleeping: `wait_until`.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fakes import multipart


@dataclass
class AudioRequest:
    path: str
    fields: dict[str, str]
    filename: str | None = None
    content_type: str | None = None
    size: int = 0
    sha256: str = ""
    authorization: str = ""


@dataclass
class _State:
    key: str
    lock: threading.Condition = field(default_factory=threading.Condition)
    known: dict[str, str] = field(default_factory=dict)
    requests: list[AudioRequest] = field(default_factory=list)
    failures: list[int] = field(default_factory=list)
    holding: bool = False
    held: int = 0
    stopping: bool = False


def _is_ogg_opus(data: bytes) -> bool:
    if not data.startswith(b"OggS") or len(data) < 28:
        return False
    count = data[26]
    first = data[27 + count : 27 + count + 8]
    return first == b"OpusHead"


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (the slow-transcriber tests) is not the fake's failure


class FakeAudio:
    def __init__(self, *, key: str = "") -> None:
        self._state = _State(key=key)
        self._server: ThreadingHTTPServer | None = None
        self._port = 0

    def start(self) -> FakeAudio:
        server = _Server(("127.0.0.1", self._port), _handler_for(self._state))
        server.daemon_threads = True
        self._port = server.server_address[1]
        self._server = server
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        with self._state.lock:
            self._state.stopping = True
            self._state.lock.notify_all()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def down(self) -> None:
        self.stop()
        with self._state.lock:
            self._state.stopping = False

    def up(self) -> None:
        self.start()

    def __enter__(self) -> FakeAudio:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}/v1"

    def knows(self, audio: bytes, text: str) -> None:
        with self._state.lock:
            self._state.known[hashlib.sha256(audio).hexdigest()] = text

    def fail(self, status: int, times: int = 1) -> None:
        with self._state.lock:
            self._state.failures.extend([status] * times)

    def hold(self) -> None:
        with self._state.lock:
            self._state.holding = True

    def release(self) -> None:
        with self._state.lock:
            self._state.holding = False
            self._state.lock.notify_all()

    @property
    def requests(self) -> list[AudioRequest]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def held(self) -> int:
        with self._state.lock:
            return self._state.held

    def wait_until(self, predicate: Callable[[FakeAudio], bool], timeout: float = 60.0) -> bool:
        with self._state.lock:
            return self._state.lock.wait_for(lambda: predicate(self), timeout)


def _handler_for(state: _State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            authorization = self.headers.get("Authorization") or ""
            with state.lock:
                status = state.failures.pop(0) if state.failures else 0
                if state.holding:
                    state.held += 1
                    state.lock.notify_all()
                    while state.holding and not state.stopping:
                        state.lock.wait(1.0)
                    state.held -= 1
            if state.key and authorization != f"Bearer {state.key}":
                with state.lock:
                    state.requests.append(AudioRequest("unauthorized", {}, size=len(raw)))
                    state.lock.notify_all()
                self._json(401, _error("Incorrect API key provided", "invalid_api_key"))
                return
            if status:
                with state.lock:
                    state.requests.append(AudioRequest(f"failed {status}", {}, size=len(raw)))
                    state.lock.notify_all()
                self._json(status, _error(f"fake failure {status}", "server_error"))
                return
            if self.path == "/v1/audio/transcriptions":
                self._transcribe(raw, authorization)
            elif self.path == "/v1/audio/speech":
                self._speech(raw, authorization)
            else:
                self._json(404, _error(f"Unknown path {self.path}", "not_found"))

        def _transcribe(self, raw: bytes, authorization: str) -> None:
            try:
                parts = multipart.parse(raw, self.headers.get("Content-Type") or "")
            except multipart.MultipartError as exc:
                self._json(400, _error(f"Could not parse multipart form: {exc}"))
                return
            fields = {
                name: part.data.decode("utf-8", "replace")
                for name, part in parts.items()
                if part.filename is None
            }
            upload = parts.get("file")
            record = AudioRequest("transcriptions", fields, authorization=authorization)
            if upload is not None:
                record.filename = upload.filename
                record.content_type = upload.content_type
                record.size = len(upload.data)
                record.sha256 = hashlib.sha256(upload.data).hexdigest()
            with state.lock:
                state.requests.append(record)
                state.lock.notify_all()
            if upload is None or not upload.filename:
                self._json(400, _error("you must provide a file"))
                return
            if not fields.get("model"):
                self._json(400, _error("you must provide a model parameter"))
                return
            if upload.filename.endswith((".ogg", ".oga", ".opus")) and not _is_ogg_opus(
                upload.data
            ):
                self._json(400, _error("Invalid file format."))
                return
            with state.lock:
                text = state.known.get(record.sha256, "")
            self._json(200, {"text": text})

        def _speech(self, raw: bytes, authorization: str) -> None:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            if not isinstance(body, dict) or not isinstance(body.get("input"), str):
                self._json(400, _error("input is required"))
                return
            with state.lock:
                state.requests.append(
                    AudioRequest(
                        "speech", {k: str(v) for k, v in body.items()}, authorization=authorization
                    )
                )
                state.lock.notify_all()
            wav = subprocess.run(
                ["espeak-ng", "--stdin", "--stdout"],
                input=body["input"].encode(),
                capture_output=True,
                check=True,
            ).stdout
            audio = subprocess.run(
                ["opusenc", "--quiet", "-", "-"], input=wav, capture_output=True, check=True
            ).stdout
            self.send_response(200)
            self.send_header("Content-Type", "audio/ogg")
            self.send_header("Content-Length", str(len(audio)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(audio)
            self.close_connection = True

        def _json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True

    return Handler


def _error(message: str, code: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "code": code}}
