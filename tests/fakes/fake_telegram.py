"""A fake Telegram Bot API: a real HTTP server on 127.0.0.1 speaking the Bot API's wire format.

`POST /bot<token>/<method>` with a JSON body, answered with the envelope Telegram uses:
`{"ok": true, "result": …}` or `{"ok": false, "error_code": N, "description": "…",
"parameters": {"retry_after": S}}`. Methods: getMe, deleteWebhook, setMyCommands, getUpdates
(long polling with offset/timeout/limit/allowed_updates: an offset confirms, and forgets, every
update below it; a second getUpdates while one waits ends the first with 409, as Telegram does),
sendMessage (1-4096 UTF-16 units, plain text), sendChatAction, getFile (a File object with its
`file_path`; a file over 20 MB is refused as Telegram refuses it), the download itself
(`GET /file/bot<token>/<file_path>`, counted in `downloads`) and sendVoice (multipart/form-data,
parsed as a server would: `chat_id` and a `voice` file part; kept in `voices`). A wrong token gets
401.

The "phone" side, for tests: `text(chat_id, "hi")`, `media(chat_id, "photo")`,
`voice(chat_id, ogg_bytes, seconds)` (a Voice object, or an Audio one with `kind="audio"`),
`group_text(...)` queue Update objects shaped as Telegram sends them; `sent` holds what the bot
delivered; `wait_until(predicate)` waits on the server's condition (no sleeps).

Faults, consumed in order per method: `fail(method, code, description, retry_after=...)`,
`hang(method)` (the request is held until `release()`, then the connection closes unanswered:
nothing delivered), `hang(method, taken=True)` (the same, but Telegram carried the call out first:
a message delivered whose answer never arrives), `hold(method)` (held until `release()`, then
carried out and answered: a slow Telegram), `drop(method)` (closed at once, unanswered).
`down()` / `up()` close and reopen the listening socket on the same port (the network gone, then
back).

In-process: `with FakeTelegram() as tg: ... tg.api_base ...`. The pet's processes reach it over
TCP like the real API.
"""

from __future__ import annotations

import hashlib
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fakes import multipart

TOKEN = "123456789:AAHfakeTokenForTests_x9ZqW3e4r5t6y7u8i9"
BOT_ID = 123456789
BOT_USERNAME = "shelldon_test_bot"
MAX_TEXT_UNITS = 4096
_COMMAND = set("abcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass
class Call:
    method: str
    payload: dict[str, Any]
    token_ok: bool
    at: float
    fault: str = ""  # the fault it met: "fail 429", "hang", "drop"


@dataclass
class _Fault:
    kind: str  # fail | hang | taken (carried out, then hung) | hold (held, then answered) | drop
    code: int = 0
    description: str = ""
    retry_after: int | None = None


@dataclass
class _State:
    token: str
    bot_username: str
    lock: threading.Condition = field(default_factory=threading.Condition)
    queue: list[dict[str, Any]] = field(default_factory=list)  # updates not yet confirmed
    next_update_id: int = 700_000_001
    next_message_id: int = 1
    sent: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    commands: list[dict[str, Any]] | None = None
    webhook_deletes: list[bool] = field(default_factory=list)
    faults: dict[str, list[_Fault]] = field(default_factory=dict)
    held: int = 0
    released: bool = False
    poll_generation: int = 0  # a new getUpdates ends the one waiting (409)
    bytes_in: int = 0
    bytes_out: int = 0
    stopping: bool = False
    down: bool = False  # the network is gone: waiting requests end unanswered
    files: dict[str, bytes] = field(default_factory=dict)  # file_id -> what a download serves
    downloads: list[str] = field(default_factory=list)  # file paths downloaded
    voices: list[dict[str, Any]] = field(default_factory=list)  # sendVoice: chat_id, bytes, …
    # getUpdates' allowed_updates, kept until a call names another list (as the Bot API keeps
    # it); None: every kind but the ones Telegram sends only when asked by name.
    allowed: list[str] | None = None
    # Updates served whatever allowed_updates says (`unasked`): a server that sends them anyway.
    forced: set[int] = field(default_factory=set)


_NAMED_ONLY = ("chat_member", "message_reaction", "message_reaction_count")


def _wanted(update: dict[str, Any], allowed: list[str] | None) -> bool:
    kinds = [key for key in update if key != "update_id"]
    if allowed is None:
        return not any(kind in _NAMED_ONLY for kind in kinds)
    return any(kind in allowed for kind in kinds)


class FakeTelegram:
    def __init__(
        self,
        *,
        token: str = TOKEN,
        bot_username: str = BOT_USERNAME,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self._state = _State(token=token, bot_username=bot_username)
        self._tls = tls  # serve HTTPS (scripts/measure_telegram.py counts what TLS costs)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._port = 0

    # --- life ---------------------------------------------------------------------------------

    def start(self) -> FakeTelegram:
        server = _Server(("127.0.0.1", self._port), _handler_for(self._state))
        server.daemon_threads = True
        if self._tls is not None:
            server.socket = self._tls.wrap_socket(server.socket, server_side=True)
        self._port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._state.lock:
            self._state.stopping = True
            self._state.released = True
            self._state.lock.notify_all()
        self._close()

    def _close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def down(self) -> None:
        """The network is gone: nothing listens on the port (connections are refused)."""
        with self._state.lock:
            self._state.down = True  # a waiting long poll ends unanswered
            self._state.lock.notify_all()
        self._close()

    def up(self) -> None:
        with self._state.lock:
            self._state.down = False
        self.start()

    def __enter__(self) -> FakeTelegram:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._port

    @property
    def api_base(self) -> str:
        return f"{'https' if self._tls else 'http'}://127.0.0.1:{self._port}"

    @property
    def token(self) -> str:
        return self._state.token

    @property
    def bot_username(self) -> str:
        return self._state.bot_username

    # --- the phone's side ---------------------------------------------------------------------

    def _push(self, message: dict[str, Any], *, kind: str = "message") -> int:
        with self._state.lock:
            update_id = self._state.next_update_id
            self._state.next_update_id += 1
            message_id = self._state.next_message_id
            self._state.next_message_id += 1
            self._state.queue.append(
                {
                    "update_id": update_id,
                    kind: {"message_id": message_id, "date": int(time.time()), **message},
                }
            )
            self._state.lock.notify_all()
        return update_id

    def edit(self, chat_id: int, text: str) -> int:
        """The sender changed a text they sent: an `edited_message` update (with `edit_date`)."""
        edited = {**self._people(chat_id, "private", None), "text": text}
        return self._push({**edited, "edit_date": int(time.time())}, kind="edited_message")

    @staticmethod
    def _people(chat_id: int, chat_type: str, user_id: int | None) -> dict[str, Any]:
        user = {
            "id": user_id if user_id is not None else chat_id,
            "is_bot": False,
            "first_name": "Robin",
            "username": f"user{abs(chat_id)}",
            "language_code": "en",
        }
        chat: dict[str, Any] = {"id": chat_id, "type": chat_type}
        if chat_type == "private":
            chat.update(first_name="Robin", username=user["username"])
        else:
            chat["title"] = "Some group"
        return {"from": user, "chat": chat}

    def text(
        self, chat_id: int, text: str, *, chat_type: str = "private", user_id: int | None = None
    ) -> int:
        """A text message from `chat_id`; returns its update_id."""
        message: dict[str, Any] = {**self._people(chat_id, chat_type, user_id), "text": text}
        if text.startswith("/"):
            length = len(text.split()[0].encode("utf-16-le")) // 2
            message["entities"] = [{"offset": 0, "length": length, "type": "bot_command"}]
        return self._push(message)

    def voice(
        self,
        chat_id: int,
        data: bytes,
        seconds: int,
        *,
        kind: str = "voice",
        file_size: int | None = None,
        mime_type: str = "audio/ogg",
        file_name: str = "",
        origin: dict[str, Any] | None = None,
        user_id: int | None = None,
    ) -> int:
        """A voice note (or, `kind="audio"`, an audio file) whose file serves `data`. `file_size`:
        what the update claims (default: the real size); `origin`: a forward's fields, as in
        `forwarded`; `user_id`: a sender other than the chat's person."""
        file_id = "AwAC" + hashlib.sha256(data).hexdigest()[:24] + str(len(self._state.files))
        with self._state.lock:
            self._state.files[file_id] = data
        item: dict[str, Any] = {
            "file_id": file_id,
            "file_unique_id": "AgAD" + file_id[-8:],
            "duration": seconds,
            "mime_type": mime_type,
            "file_size": len(data) if file_size is None else file_size,
        }
        if kind == "audio":
            item.update(file_name=file_name or "memo.ogg", title="memo", performer="Robin")
        sender = self._people(chat_id, "private", user_id)
        return self._push({**sender, kind: item, **(origin or {})})

    def forwarded(self, chat_id: int, text: str, origin: dict[str, Any]) -> int:
        """A text `chat_id` forwarded, its origin as the Bot API shapes it: `forward_origin` (a
        MessageOrigin: "user", "hidden_user", "chat" or "channel"), or the older `forward_*`
        fields, or `via_bot` (a message an inline bot wrote) — whichever keys `origin` holds."""
        message = {**self._people(chat_id, "private", None), "text": text, **origin}
        return self._push(message)

    def message(
        self,
        chat_id: int,
        fields: dict[str, Any],
        *,
        chat_type: str = "private",
        user_id: int | None = None,
        kind: str = "message",
    ) -> int:
        """Any Message the phone may send: `fields` (the Bot API's own keys: `text` and
        `entities`, `reply_to_message`, `quote`, `contact`, `media_group_id`, `sender_chat`…)
        over the sender and the chat; `kind`: the Update's field (`business_message`…: served
        whatever allowed_updates said, as `unasked`)."""
        update_id = self._push({**self._people(chat_id, chat_type, user_id), **fields}, kind=kind)
        if kind != "message":
            with self._state.lock:
                self._state.forced.add(update_id)
        return update_id

    def unasked(self, kind: str, body: dict[str, Any]) -> int:
        """An Update of `kind` (`callback_query`, `channel_post`, `my_chat_member`…) served
        whatever getUpdates' allowed_updates said: a server that sends it anyway."""
        with self._state.lock:
            update_id = self._state.next_update_id
            self._state.next_update_id += 1
            self._state.queue.append({"update_id": update_id, kind: body})
            self._state.forced.add(update_id)
            self._state.lock.notify_all()
        return update_id

    def group_text(self, chat_id: int, text: str, *, user_id: int = 4242) -> int:
        return self.text(chat_id, text, chat_type="group", user_id=user_id)

    def media(
        self,
        chat_id: int,
        kind: str,
        *,
        caption: str | None = None,
        origin: dict[str, Any] | None = None,
    ) -> int:
        """A photo, voice note, sticker or document, as Telegram shapes each; with a `caption`
        (the words the sender typed under it) and a forward's `origin` keys when given."""
        file = {"file_id": f"AgAC{kind}", "file_unique_id": f"AQAD{kind}", "file_size": 1234}
        payloads: dict[str, Any] = {
            "photo": {"photo": [{**file, "width": 90, "height": 67}]},
            "voice": {"voice": {**file, "duration": 3, "mime_type": "audio/ogg"}},
            "sticker": {
                "sticker": {
                    **file,
                    "type": "regular",
                    "width": 512,
                    "height": 512,
                    "is_animated": False,
                    "is_video": False,
                    "emoji": "🐢",
                }
            },
            "document": {
                "document": {**file, "file_name": "notes.pdf", "mime_type": "application/pdf"}
            },
        }
        message = {**self._people(chat_id, "private", None), **payloads[kind], **(origin or {})}
        if caption is not None:
            message["caption"] = caption
        return self._push(message)

    # --- faults -------------------------------------------------------------------------------

    def fail(
        self,
        method: str,
        code: int,
        description: str,
        *,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        fault = _Fault("fail", code, description, retry_after)
        with self._state.lock:
            self._state.faults.setdefault(method.lower(), []).extend([fault] * times)

    def hang(self, method: str, *, times: int = 1, taken: bool = False) -> None:
        fault = _Fault("taken" if taken else "hang")
        with self._state.lock:
            self._state.released = False
            self._state.faults.setdefault(method.lower(), []).extend([fault] * times)

    def hold(self, method: str) -> None:
        with self._state.lock:
            self._state.released = False
            self._state.faults.setdefault(method.lower(), []).append(_Fault("hold"))

    def drop(self, method: str, *, times: int = 1) -> None:
        with self._state.lock:
            self._state.faults.setdefault(method.lower(), []).extend([_Fault("drop")] * times)

    def revoke(self, new_token: str) -> None:
        """BotFather's /revoke: the old token gets 401 from now on."""
        with self._state.lock:
            self._state.token = new_token
            self._state.lock.notify_all()

    def release(self) -> None:
        """Let every held request go (each closes its connection unanswered)."""
        with self._state.lock:
            self._state.released = True
            self._state.lock.notify_all()

    # --- what happened ------------------------------------------------------------------------

    @property
    def sent(self) -> list[dict[str, Any]]:
        with self._state.lock:
            return list(self._state.sent)

    def sent_to(self, chat_id: int) -> list[str]:
        return [m["text"] for m in self.sent if m["chat"]["id"] == chat_id]

    @property
    def actions(self) -> list[dict[str, Any]]:
        with self._state.lock:
            return list(self._state.actions)

    @property
    def calls(self) -> list[Call]:
        with self._state.lock:
            return list(self._state.calls)

    def calls_of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method.lower()]

    @property
    def downloads(self) -> list[str]:
        with self._state.lock:
            return list(self._state.downloads)

    @property
    def voices(self) -> list[dict[str, Any]]:
        with self._state.lock:
            return list(self._state.voices)

    @property
    def commands(self) -> list[dict[str, Any]] | None:
        with self._state.lock:
            return self._state.commands

    @property
    def webhook_deletes(self) -> list[bool]:
        with self._state.lock:
            return list(self._state.webhook_deletes)

    @property
    def held(self) -> int:
        with self._state.lock:
            return self._state.held

    @property
    def pending(self) -> list[int]:
        """Update ids Telegram still keeps (not confirmed by an offset past them)."""
        with self._state.lock:
            return [u["update_id"] for u in self._state.queue]

    @property
    def traffic(self) -> tuple[int, int]:
        """(bytes received, bytes sent) on the HTTP level: request/status lines, headers, bodies."""
        with self._state.lock:
            return self._state.bytes_in, self._state.bytes_out

    def wait_until(self, predicate: Callable[[FakeTelegram], bool], timeout: float = 60.0) -> bool:
        """Wait (on the server's condition, woken by every request) until `predicate` holds."""
        deadline = time.monotonic() + timeout
        with self._state.lock:
            while True:
                self._state.lock.release()
                try:
                    if predicate(self):
                        return True
                finally:
                    self._state.lock.acquire()
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._state.lock.wait(min(left, 1.0))


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer (a killed broker, a timed-out poll) is normal."""


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _handler_for(state: _State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        answer_held = False  # this request was carried out; its answer is held, then never sent

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            if self.path.startswith("/file/bot"):
                self._download()
                return
            self._serve({})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            content_type = self.headers.get("Content-Type") or ""
            payload: Any
            if content_type.startswith("multipart/form-data"):
                try:
                    payload = {"multipart": multipart.parse(raw, content_type)}
                except multipart.MultipartError:
                    payload = None
            else:
                try:
                    payload = json.loads(raw) if raw else {}
                except ValueError:
                    payload = None
            self._serve(payload, len(raw))

        def _download(self) -> None:
            token, _, file_path = self.path[len("/file/bot") :].partition("/")
            token_ok = token == state.token
            with state.lock:
                call = Call("download", {"file_path": file_path}, token_ok, time.monotonic())
                state.calls.append(call)
                state.downloads.append(file_path)
                data = state.files.get(file_path.removeprefix("voice/"))
                state.lock.notify_all()
            if not token_ok or data is None:
                self._error(404, "Not Found")
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True

        def _serve(self, payload: Any, body_bytes: int = 0) -> None:
            head = (
                len(self.requestline)
                + 2
                + sum(len(k) + len(v) + 4 for k, v in self.headers.items())
            )
            parts = self.path.split("?")[0].strip("/").split("/")
            token = parts[0][3:] if parts and parts[0].startswith("bot") else ""
            method = parts[1].lower() if len(parts) == 2 else ""
            token_ok = token == state.token
            with state.lock:
                state.bytes_in += head + 2 + body_bytes
                queued = state.faults.get(method) if token_ok else None
                fault = queued.pop(0) if queued else None
                what = "" if fault is None else f"{fault.kind} {fault.code or ''}".strip()
                body = payload if isinstance(payload, dict) else {}
                state.calls.append(Call(method, body, token_ok, time.monotonic(), what))
                state.lock.notify_all()
            if not token_ok:
                self._error(401, "Unauthorized")
                return
            if fault is not None and fault.kind != "taken" and self._fault(fault):
                return
            self.answer_held = fault is not None and fault.kind == "taken"  # carried out, then hung
            if not isinstance(payload, dict):
                self._error(400, "Bad Request: can't parse JSON")
                return
            handler = _METHODS.get(method)
            if handler is None:
                self._error(404, "Not Found")
                return
            handler(self, payload)

        def _fault(self, fault: _Fault) -> bool:
            if fault.kind == "fail":
                params = {"retry_after": fault.retry_after} if fault.retry_after else None
                self._error(fault.code, fault.description, params)
                return True
            if fault.kind in ("hang", "taken", "hold"):
                with state.lock:
                    state.held += 1
                    state.lock.notify_all()
                    while not state.released and not state.stopping:
                        state.lock.wait(1.0)
                    state.held -= 1
                if fault.kind == "hold":
                    return False  # now carried out and answered, late
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)  # unanswered: the client sees it closed
            return True

        # -- envelopes ----------------------------------------------------------------------

        def _ok(self, result: Any) -> None:
            self._send(200, {"ok": True, "result": result})

        def _error(self, code: int, description: str, params: dict[str, Any] | None = None) -> None:
            body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
            if params:
                body["parameters"] = params
            self._send(code, body)

        def _send(self, code: int, body: dict[str, Any]) -> None:
            if self.answer_held:
                self._fault(_Fault("taken"))  # done on Telegram's side; the answer never comes
                return
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True
            with state.lock:
                # Status line and headers as sent, roughly: what a byte counter on the wire sees.
                state.bytes_out += len(data) + 150

        # -- methods --------------------------------------------------------------------------

        def get_me(self, payload: dict[str, Any]) -> None:
            self._ok(
                {
                    "id": BOT_ID,
                    "is_bot": True,
                    "first_name": "Shelldon",
                    "username": state.bot_username,
                    "can_join_groups": True,
                    "can_read_all_group_messages": False,
                    "supports_inline_queries": False,
                }
            )

        def delete_webhook(self, payload: dict[str, Any]) -> None:
            drop = bool(payload.get("drop_pending_updates", False))
            with state.lock:
                state.webhook_deletes.append(drop)
                if drop:
                    state.queue.clear()
            self._ok(True)

        def set_my_commands(self, payload: dict[str, Any]) -> None:
            commands = payload.get("commands")
            if not isinstance(commands, list) or not commands:
                self._error(400, "Bad Request: commands must be non-empty")
                return
            for item in commands:
                name = item.get("command", "") if isinstance(item, dict) else ""
                text = item.get("description", "") if isinstance(item, dict) else ""
                if not (1 <= len(name) <= 32 and set(name) <= _COMMAND):
                    self._error(400, "Bad Request: BOT_COMMAND_INVALID")
                    return
                if not 1 <= len(text) <= 256:
                    self._error(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
                    return
            with state.lock:
                state.commands = commands
            self._ok(True)

        def get_updates(self, payload: dict[str, Any]) -> None:
            offset = payload.get("offset")
            allowed = payload.get("allowed_updates")
            if isinstance(allowed, list):
                with state.lock:
                    state.allowed = [str(kind) for kind in allowed] or None
            timeout = float(payload.get("timeout") or 0)
            limit = int(payload.get("limit") or 100)
            deadline = time.monotonic() + timeout
            with state.lock:
                state.poll_generation += 1
                generation = state.poll_generation
                state.lock.notify_all()
                if isinstance(offset, int) and offset > 0:
                    # An offset confirms every update below it: Telegram forgets them.
                    state.queue = [u for u in state.queue if u["update_id"] >= offset]
                # A kind the bot did not ask for is never delivered (nor kept for later).
                state.queue = [
                    u
                    for u in state.queue
                    if u["update_id"] in state.forced or _wanted(u, state.allowed)
                ]
                while not state.queue and not state.stopping and not state.down:
                    if state.poll_generation != generation:
                        break
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    state.lock.wait(left)
                down = state.down
                if state.poll_generation != generation:
                    conflict = True
                    result: list[dict[str, Any]] = []
                else:
                    conflict = False
                    state.queue = [
                        u
                        for u in state.queue
                        if u["update_id"] in state.forced or _wanted(u, state.allowed)
                    ]
                    result = [dict(u) for u in state.queue[:limit]]
            if down:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if conflict:
                self._error(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one "
                    "bot instance is running",
                )
                return
            self._ok(result)

        def send_message(self, payload: dict[str, Any]) -> None:
            text = payload.get("text")
            chat_id = payload.get("chat_id")
            if not isinstance(chat_id, int):
                self._error(400, "Bad Request: chat not found")
                return
            if not isinstance(text, str) or not text.strip():
                self._error(400, "Bad Request: message text is empty")
                return
            if _units(text) > MAX_TEXT_UNITS:
                self._error(400, "Bad Request: message is too long")
                return
            with state.lock:
                message_id = state.next_message_id
                state.next_message_id += 1
                message = {
                    "message_id": message_id,
                    "from": {
                        "id": BOT_ID,
                        "is_bot": True,
                        "first_name": "Shelldon",
                        "username": state.bot_username,
                    },
                    "chat": {"id": chat_id, "type": "private"},
                    "date": int(time.time()),
                    "text": text,
                }
                state.sent.append({**message, "parse_mode": payload.get("parse_mode")})
                state.lock.notify_all()
            self._ok(message)

        def get_file(self, payload: dict[str, Any]) -> None:
            file_id = payload.get("file_id")
            with state.lock:
                data = state.files.get(file_id) if isinstance(file_id, str) else None
            if data is None:
                self._error(400, "Bad Request: invalid file_id")
                return
            if len(data) > 20 * 1024 * 1024:
                self._error(400, "Bad Request: file is too big")
                return
            self._ok(
                {
                    "file_id": file_id,
                    "file_unique_id": "AgAD" + str(file_id)[-8:],
                    "file_size": len(data),
                    "file_path": f"voice/{file_id}",
                }
            )

        def send_voice(self, payload: dict[str, Any]) -> None:
            parts = payload.get("multipart")
            if not isinstance(parts, dict):
                self._error(400, "Bad Request: there is no voice in the request")
                return
            chat = parts.get("chat_id")
            voice = parts.get("voice")
            if chat is None or not chat.data.lstrip(b"-").isdigit():
                self._error(400, "Bad Request: chat not found")
                return
            if voice is None or not voice.filename or not voice.data:
                self._error(400, "Bad Request: there is no voice in the request")
                return
            with state.lock:
                message_id = state.next_message_id
                state.next_message_id += 1
                state.voices.append(
                    {
                        "chat_id": int(chat.data),
                        "data": voice.data,
                        "filename": voice.filename,
                        "content_type": voice.content_type,
                    }
                )
                state.lock.notify_all()
            self._ok(
                {
                    "message_id": message_id,
                    "chat": {"id": int(chat.data), "type": "private"},
                    "date": int(time.time()),
                    "voice": {
                        "file_id": f"AwACreply{message_id}",
                        "file_unique_id": f"AgADreply{message_id}",
                        "duration": 1,
                        "mime_type": "audio/ogg",
                        "file_size": len(voice.data),
                    },
                }
            )

        def send_chat_action(self, payload: dict[str, Any]) -> None:
            with state.lock:
                state.actions.append(dict(payload))
                state.lock.notify_all()
            self._ok(True)

    _METHODS: dict[str, Callable[[Handler, dict[str, Any]], None]] = {
        "getme": Handler.get_me,
        "deletewebhook": Handler.delete_webhook,
        "setmycommands": Handler.set_my_commands,
        "getupdates": Handler.get_updates,
        "sendmessage": Handler.send_message,
        "sendchataction": Handler.send_chat_action,
        "getfile": Handler.get_file,
        "sendvoice": Handler.send_voice,
    }
    return Handler
