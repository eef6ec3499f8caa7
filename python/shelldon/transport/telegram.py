"""The Telegram transport: a Bot API long-polling loop that runs inside the broker process.

Only the broker reaches the network, so the poller lives there (started through
`shelldon.transport.telegram_start` once the vault holds the bot token: broker/ never imports
transport/). It speaks HTTPS through the project's own client
(`broker.providers.http.post_json`: http.client, TLS verification on) and reaches core over core's
socket, as any owner client does; core checks that the peer is the broker.

The loop: getMe, deleteWebhook (pending updates kept), setMyCommands, then ask core where to poll
from (`TelegramResume`: core's last recorded update_id, and the replies it recorded but nobody
confirmed sent). Then getUpdates(offset, timeout) forever; each update goes to core
(`TelegramInbound`), which records it (in the turn's own transaction when it is a turn) and
answers with the outbox; the poller sends those replies (sendMessage, plain text) and confirms
them (`TelegramSent`). The offset it asks for is always core's last recorded update + 1, so
Telegram never drops an update core has not recorded. "typing" shows while a turn runs. A second
thread delivers what the pet wants to say first (ProactiveFetch) to the paired chat. A voice note
from the paired chat is heard before it goes to core, and a reply to one may be spoken
(transport.telegram_voice). What a message carries beyond its words (a reply to someone else's,
a link's hidden address, a quote block) is read by transport.telegram_shapes.

The bot token sits in the API's URL path: it is read from the vault here (the broker is the only
process allowed to), never logged, and scrubbed from every error text and log record of this
process (`_ScrubFilter`). Failures (no network, DNS, 401, 409, 429, 5xx, a hung connection) back
off with jitter and show in `shelldon status`; nothing else in the pet waits on them.

Over 400 lines: the Bot API client, the poll loop with its failure handling and the proactive
delivery share the token, the state line and the backoff; split, each would need all three.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from shelldon import digests, ipc
from shelldon.broker.providers.base import ProviderError, scrub
from shelldon.broker.vault import surface_vault
from shelldon.contracts import wire
from shelldon.contracts.commands import OWNER_COMMANDS
from shelldon.contracts.config import TelegramConfig, VoiceConfig
from shelldon.contracts.relayed import UNKNOWN_ORIGIN, clean_origin
from shelldon.paths import DataRoot
from shelldon.transport import telegram_shapes
from shelldon.transport.telegram_voice import VoiceDesk, VoicePlan

log = logging.getLogger("shelldon.transport.telegram")

MAX_RESPONSE_BYTES = 4 * 1024 * 1024  # a getUpdates answer holds at most 100 updates
CONNECT_TIMEOUT_S = 10.0
CORE_TIMEOUT_S = 300.0  # a turn may wait behind another turn and a dream's worker
TOKEN_RECHECK_S = 10.0  # the token gone from the vault: look again after this long
TYPING_EVERY_S = 4.0  # Telegram shows "typing" for about five seconds per call
PROACTIVE_EVERY_S = 10.0
PROACTIVE_UNSERVED_S = 60.0  # core does not serve ProactiveFetch (an older core): ask rarely
PROACTIVE_REFUSED_RETRY_S = 3600.0  # an item Telegram refused (400/403) is tried again after this
BACKOFF_BASE_S = 1.0
MAX_INBOUND_CHARS = 8192
MEDIA_KINDS = (
    "photo",
    "voice",
    "audio",
    "video",
    "video_note",
    "animation",
    "sticker",
    "document",
    "location",
    "contact",
    "poll",
)
STATE_NO_TOKEN = "telegram: off (no {key} in the vault: `shelldon vault set {key}`)"


class BotApiError(Exception):
    """A Bot API call failed. `kind`: network, timeout, unauthorized (401), conflict (409),
    rate_limited (429), server (5xx), client (another 4xx), malformed. The message is log-safe."""

    def __init__(
        self, kind: str, message: str, *, code: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code
        self.retry_after = retry_after


class CoreUnavailable(Exception):
    """Core did not answer, or refused: the update stays unacknowledged and is fetched again."""


class _Waiting(Exception):
    """Nothing to do for a while (no token yet): not a failure."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"waiting {seconds:.0f} s")
        self.seconds = seconds


def _secrets_of(token: str) -> list[str]:
    """The token, and its secret half on its own (a server may echo either)."""
    parts = [token]
    _, _, secret = token.partition(":")
    if len(secret) >= 8:
        parts.append(secret)
    return parts


class BotApi:
    """One Bot API method call per `call`, over http.client with TLS verification on."""

    def __init__(self, api_base: str, token: str, *, request_timeout: float) -> None:
        self.api_base = api_base.rstrip("/")
        self._token = token
        self.secrets = _secrets_of(token)
        self.request_timeout = request_timeout

    def scrub(self, text: str) -> str:
        return scrub(text, self.secrets)

    def call(
        self, method: str, payload: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> Any:
        """The method's `result`. Raises BotApiError (message scrubbed of the token)."""
        # Imported at the first call: a pet without a bot token never pays for TLS (~2 MB RSS).
        from shelldon.broker.providers.http import post_json

        url = f"{self.api_base}/bot{self._token}/{method}"
        try:
            response = post_json(
                url,
                payload or {},
                {},
                timeout=timeout if timeout is not None else self.request_timeout,
                connect_timeout=min(CONNECT_TIMEOUT_S, self.request_timeout),
                max_bytes=MAX_RESPONSE_BYTES,
                secrets=self.secrets,
            )
        except ProviderError as exc:
            kind = "timeout" if exc.kind == "timeout" else "network"
            raise BotApiError(kind, f"{method}: {self.scrub(exc.message)}") from None
        except Exception as exc:  # anything else http.client let out; its text may hold the URL
            raise BotApiError(
                "network", self.scrub(f"{method}: {type(exc).__name__}: {exc}")
            ) from None
        return self.result_of(method, response)

    def upload(self, method: str, head: bytes, data: bytes, tail: bytes, content_type: str) -> Any:
        """A multipart call (sendVoice): the body is `head`, the file's bytes, `tail`."""
        from shelldon.broker.providers.http import exchange

        try:
            response = exchange(
                "POST",
                f"{self.api_base}/bot{self._token}/{method}",
                (head, memoryview(data), tail),
                {"Content-Type": content_type, "Accept": "application/json"},
                timeout=self.request_timeout * 2,
                connect_timeout=min(CONNECT_TIMEOUT_S, self.request_timeout),
                max_bytes=MAX_RESPONSE_BYTES,
                secrets=self.secrets,
            )
        except ProviderError as exc:
            kind = "timeout" if exc.kind == "timeout" else "network"
            raise BotApiError(kind, f"{method}: {self.scrub(exc.message)}") from None
        return self.result_of(method, response)

    def download(self, file_path: str, max_bytes: int) -> bytes:
        """A file getFile named, from `{api_base}/file/bot<token>/<file_path>`, at most `max_bytes`
        (over it: BotApiError "too_big"). The bytes stay in memory."""
        from shelldon.broker.providers.http import exchange

        try:
            response = exchange(
                "GET",
                f"{self.api_base}/file/bot{self._token}/{file_path.lstrip('/')}",
                (),
                {"Accept": "*/*"},
                timeout=self.request_timeout * 2,
                connect_timeout=min(CONNECT_TIMEOUT_S, self.request_timeout),
                max_bytes=max_bytes,
                secrets=self.secrets,
            )
        except ProviderError as exc:
            if exc.kind == "malformed" and "larger than" in exc.message:
                raise BotApiError("too_big", "download: the file is over the cap") from None
            kind = "timeout" if exc.kind == "timeout" else "network"
            raise BotApiError(kind, f"download: {self.scrub(exc.message)}") from None
        if response.status != 200:
            raise BotApiError(
                "server" if response.status >= 500 else "client",
                f"download: HTTP {response.status}",
                code=response.status,
            )
        return response.body

    def result_of(self, method: str, response: Any) -> Any:
        """The `result` of a Bot API envelope; BotApiError (scrubbed) for an error envelope."""
        try:
            body = response.json()
        except (ValueError, RecursionError):
            body = None
        if not isinstance(body, dict):
            raise BotApiError(
                "malformed",
                f"{method}: HTTP {response.status} without a JSON envelope",
                code=response.status,
            )
        if body.get("ok") is True:
            return body.get("result")
        code = body.get("error_code")
        code = code if isinstance(code, int) else response.status
        description = self.scrub(" ".join(str(body.get("description") or "").split())[:200])
        parameters = body.get("parameters")
        retry_after = parameters.get("retry_after") if isinstance(parameters, dict) else None
        known = {401: "unauthorized", 409: "conflict", 429: "rate_limited"}
        kind = known.get(code) or ("server" if code >= 500 else "client")
        raise BotApiError(
            kind,
            f"{method}: {code} {description}".rstrip(),
            code=code,
            retry_after=float(retry_after) if isinstance(retry_after, (int, float)) else None,
        )


def _id_of(value: Any) -> int | None:
    """An identifier of the Bot API (update, chat, user: at most 52 bits there) as an int the
    wire and sqlite carry; None for anything else (a bool, a float, 10**30)."""
    if isinstance(value, int) and not isinstance(value, bool) and -(2**62) < value < 2**62:
        return value
    return None


def inbound_of(update: Any) -> wire.TelegramInbound | None:
    """An Update object as core needs it; None when it has no update_id (nothing to record)."""
    update_id = _id_of(update.get("update_id")) if isinstance(update, dict) else None
    if update_id is None:
        return None
    message = update.get("message")
    edited = message is None and isinstance(update.get("edited_message"), dict)
    if edited:  # the sender changed a text they sent: core says it reads only new messages
        message = update["edited_message"]
    chat = message.get("chat") if isinstance(message, dict) else None
    if (
        not isinstance(message, dict)
        or not isinstance(chat, dict)
        or _id_of(chat.get("id")) is None
    ):
        return wire.TelegramInbound(update_id=update_id, chat_id=0, chat_type="", kind="none")
    sender = message.get("from")
    user_id = _id_of(sender.get("id")) if isinstance(sender, dict) else None
    on_behalf = message.get("sender_chat")  # sent as a channel or a group, not as a person
    if isinstance(on_behalf, dict) and _id_of(on_behalf.get("id")) is not None:
        user_id = _id_of(on_behalf.get("id"))
    text = message.get("text")
    entities: Any = None
    if edited:
        kind, body = "edited", ""
    elif isinstance(text, str):
        kind, body, entities = "text", text, message.get("entities")
    else:
        kind = next((k for k in MEDIA_KINDS if k in message), "other")
        caption = message.get("caption")  # the owner's words beside a photo, a file…
        if kind in wire.CAPTIONED_KINDS and isinstance(caption, str):
            body, entities = caption, message.get("caption_entities")
        else:
            body = ""
    relayed = _relayed_origin(message, user_id)
    if body:
        body = telegram_shapes.with_links(body, entities)
        if not relayed and telegram_shapes.quoted_block(body, entities):
            relayed = telegram_shapes.QUOTE_ORIGIN  # a quote block: someone else's words
    if body and not relayed and (kind == "text" or kind in wire.CAPTIONED_KINDS):
        replied = telegram_shapes.replied_to(message, user_id, relayed_from)
        if replied is not None:  # a reply to someone else's words: theirs first, then the owner's
            relayed = clean_origin(replied[0])
            body = f"{replied[1]}\n{body}"
    album = message.get("media_group_id")
    return wire.TelegramInbound(
        update_id=update_id,
        chat_id=int(chat["id"]),
        chat_type=str(chat.get("type") or ""),
        kind=kind,
        text=body[:MAX_INBOUND_CHARS],
        user_id=user_id if user_id is not None else 0,
        relayed_from=relayed,
        album=album[:64] if isinstance(album, str) else "",
    )


def _name_of(party: Any) -> str:
    """A User's or a Chat's name as the Bot API gives it: "@username", or first and last name,
    or a chat's title; "" when it has none."""
    if not isinstance(party, dict):
        return ""
    title = party.get("title")
    if isinstance(title, str) and title.strip():
        return title
    names = [party.get(key) for key in ("first_name", "last_name")]
    full = " ".join(n for n in names if isinstance(n, str) and n.strip())
    if full:
        return full
    username = party.get("username")
    return f"@{username}" if isinstance(username, str) and username.strip() else ""


def relayed_from(message: dict[str, Any], sender_id: int | None) -> str | None:
    """Whose words a message carries when they are not its sender's: the origin of a forward
    (`forward_origin`, or the fields it replaced), or the inline bot that wrote it (`via_bot`).
    None for the sender's own words, a forward of the sender's own message included."""
    origin = message.get("forward_origin")
    if isinstance(origin, dict):
        user = origin.get("sender_user")
        if isinstance(user, dict) and sender_id is not None and _id_of(user.get("id")) == sender_id:
            return None  # the owner forwarding their own words
        for key in ("sender_user", "sender_chat", "chat"):
            if key in origin:
                return _name_of(origin.get(key)) or UNKNOWN_ORIGIN
        name = origin.get("sender_user_name")
        return name if isinstance(name, str) and name.strip() else UNKNOWN_ORIGIN
    legacy = message.get("forward_from")
    if isinstance(legacy, dict):
        if sender_id is not None and _id_of(legacy.get("id")) == sender_id:
            return None
        return _name_of(legacy) or UNKNOWN_ORIGIN
    if "forward_from_chat" in message or "forward_sender_name" in message:
        name = _name_of(message.get("forward_from_chat")) or message.get("forward_sender_name")
        return name if isinstance(name, str) and name.strip() else UNKNOWN_ORIGIN
    if "forward_date" in message:
        return UNKNOWN_ORIGIN
    bot = message.get("via_bot")
    if isinstance(bot, dict):
        return _name_of(bot) or UNKNOWN_ORIGIN
    return None


def _relayed_origin(message: dict[str, Any], sender_id: int | None) -> str:
    origin = relayed_from(message, sender_id)
    return clean_origin(origin) if origin is not None else ""


class _ScrubFilter(logging.Filter):
    """On this process's log handlers: no record leaves with the token in it, whoever logged it."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        clean = scrub(message, self.secrets)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = scrub(text, self.secrets)
            record.exc_info = None
        return True


_SCRUB = _ScrubFilter()


def _guard_logs(secrets: Iterable[str]) -> None:
    for secret in secrets:
        if secret not in _SCRUB.secrets:
            _SCRUB.secrets.append(secret)
    for handler in logging.getLogger().handlers:
        if _SCRUB not in handler.filters:
            handler.addFilter(_SCRUB)


@dataclass
class _Backoff:
    cap: float
    failures: int = 0

    def next(self, floor: float = 0.0) -> float:
        """The pause after one more failure: exponential, capped, with jitter (half to full)."""
        self.failures += 1
        ceiling: float = min(self.cap, BACKOFF_BASE_S * 2.0 ** min(self.failures - 1, 16))
        return max(floor, ceiling / 2 + ceiling / 2 * digests.fraction())

    def reset(self) -> None:
        self.failures = 0


class TelegramPoller:
    """The poll loop (`run`, in the thread telegram_start gave it) and its state line."""

    def __init__(
        self,
        root: DataRoot,
        config: TelegramConfig,
        *,
        stop: threading.Event | None = None,
        read_secret: Callable[[str], str | None] | None = None,
        voice: VoicePlan | None = None,
    ) -> None:
        self.root = root
        self.config = config
        self._read_secret = read_secret or self._vault_read
        self._voice = VoiceDesk(
            voice or VoicePlan(VoiceConfig()), self._read_secret, api_error=BotApiError
        )
        self._stop = stop or threading.Event()
        self._lock = threading.Lock()
        self._state = STATE_NO_TOKEN.format(key=config.token_key)
        self._api: BotApi | None = None
        self._resumed = False
        self._bot = ""
        self._offset = 0
        self._paired: int | None = None
        self._pending: list[wire.OutboxItem] = []
        self._unconfirmed: list[int] = []  # sent, but core has not heard it yet
        self._proactive_sent: list[int] = []  # proactive items sent, core not told yet
        self._proactive_refused: dict[tuple[int, int], float] = {}  # (chat, item): when refused
        self._backoff = _Backoff(config.backoff_cap)
        self._threads: list[threading.Thread] = []
        self._send_lock = threading.Lock()  # the outbox and proactive items go out one at a time

    # --- the broker's side ----------------------------------------------------------------------

    def run(self) -> None:
        """Poll until stopped (in the caller's thread)."""
        self._threads.append(threading.current_thread())
        self._poll_loop()

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def stop(self) -> None:
        self._stop.set()

    def status_lines(self) -> list[str]:
        with self._lock:
            return [self._state]

    def _set_state(self, text: str) -> None:
        with self._lock:
            changed = text != self._state
            self._state = text
        if changed:
            log.info("%s", text)

    def _vault_read(self, key: str) -> str | None:
        value = surface_vault(self.root, key)
        return value if isinstance(value, str) and value else None

    def _ask_core(self, message: wire._Msg, timeout: float = CORE_TIMEOUT_S) -> wire.Message:
        try:
            return ipc.request(self.root.socket("core"), message, timeout=timeout)
        except (OSError, ipc.IpcError) as exc:
            raise CoreUnavailable(f"core did not answer: {exc}") from None

    # --- the poll loop --------------------------------------------------------------------------

    def _poll_loop(self) -> None:
        while not self._stop.is_set():
            try:
                self._cycle()
            except _Waiting as wait:
                self._stop.wait(wait.seconds)
            except BotApiError as exc:
                self._stop.wait(self._failed(exc))
            except CoreUnavailable as exc:
                pause = self._backoff.next()
                self._set_state(f"telegram: waiting for core ({exc}); retrying in {pause:.0f} s")
                self._stop.wait(pause)
            except Exception as exc:  # a bug here must not end the poller for good
                log.error(
                    "telegram: poll loop failed: %s", self._scrub(f"{type(exc).__name__}: {exc}")
                )
                self._stop.wait(self._backoff.next())
            else:
                self._backoff.reset()

    def _scrub(self, text: str) -> str:
        api = self._api
        return api.scrub(text) if api is not None else scrub(text)

    def _failed(self, exc: BotApiError) -> float:
        """The pause after a failed call, and the state line that says why."""
        if exc.kind == "unauthorized":
            self._api = None  # read the token again: the owner may have set a new one
            pause = self._backoff.next(floor=min(5.0, self.config.backoff_cap))
            self._set_state(
                "telegram: 401 Unauthorized: the bot token was refused; set the right one with "
                f"`shelldon vault set --replace {self.config.token_key}` "
                f"(retrying in {pause:.0f} s)"
            )
        elif exc.kind == "conflict":
            pause = self._backoff.next(floor=min(5.0, self.config.backoff_cap))
            self._set_state(
                "telegram: 409 Conflict: another program is polling this bot's token (or a "
                f"webhook is set); retrying in {pause:.0f} s"
            )
        elif exc.kind == "rate_limited":
            wait = exc.retry_after if exc.retry_after is not None else self._backoff.next()
            pause = min(max(wait, 1.0), 3600.0) + digests.fraction()
            self._set_state(f"telegram: 429 Too Many Requests; waiting {pause:.0f} s as asked")
        else:
            pause = self._backoff.next()
            self._set_state(f"telegram: {exc.kind}: {exc} (retrying in {pause:.0f} s)")
        log.warning("telegram: %s", exc)
        return pause

    def _connect(self) -> BotApi:
        """Read the token; getMe, deleteWebhook (pending updates kept), setMyCommands."""
        token = self._read_secret(self.config.token_key)
        if not token:
            self._set_state(STATE_NO_TOKEN.format(key=self.config.token_key))
            raise _Waiting(TOKEN_RECHECK_S)
        api = BotApi(self.config.api_base, token, request_timeout=self.config.request_timeout)
        _guard_logs(api.secrets)
        me = api.call("getMe")
        self._bot = str(me.get("username") or "") if isinstance(me, dict) else ""
        api.call("deleteWebhook", {"drop_pending_updates": False})
        api.call(
            "setMyCommands",
            {"commands": [{"command": n, "description": d} for n, d in OWNER_COMMANDS]},
        )
        self._api, self._resumed = api, False
        if len(self._threads) == 1:  # the proactive delivery, once there is a bot to deliver with
            self._spawn("telegram-push", self._push_loop)
        return api

    def _resume(self) -> None:
        """Ask core where to poll from, and for the replies it recorded but nobody sent."""
        answer = self._ask_core(wire.TelegramResume(bot_username=self._bot), timeout=30.0)
        if not isinstance(answer, wire.TelegramOutbox):
            raise CoreUnavailable(f"core answered {type(answer).__name__} to TelegramResume")
        # Poll after the last update core recorded; 0 (none, or too old): without an offset.
        self._offset = answer.last_update_id + 1 if answer.last_update_id else 0
        self._take(answer)
        self._resumed = True
        self._set_state(self._polling_line())

    def _polling_line(self) -> str:
        chat = f"paired chat {self._paired}" if self._paired is not None else "no chat paired"
        return f"telegram: polling as @{self._bot or '?'} ({chat})"

    def _take(self, answer: wire.TelegramOutbox) -> None:
        """What core answered: who is paired, and the replies to send (not those sent already)."""
        self._paired = answer.paired_chat
        with self._send_lock:
            self._pending = [i for i in answer.items if i.id not in self._unconfirmed]

    def _cycle(self) -> None:
        api = self._api or self._connect()
        if not self._resumed:
            self._resume()
        self._flush(api)
        query: dict[str, Any] = {
            "timeout": self.config.poll_timeout,
            "allowed_updates": ["message", "edited_message"],
        }
        if self._offset:
            query["offset"] = self._offset
        updates = api.call(
            "getUpdates", query, timeout=self.config.poll_timeout + self.config.request_timeout
        )
        self._set_state(self._polling_line())
        if not isinstance(updates, list):
            raise BotApiError("malformed", "getUpdates: the result is not a list")
        for update in updates:  # in update_id order, as Telegram sends them
            inbound = inbound_of(update)
            if inbound is None:
                continue  # no update_id: nothing core could record
            if inbound.kind == "none":  # recorded (the offset moves past it), never answered
                log.warning(
                    "telegram: passed over a %s update (not a message the pet answers)",
                    telegram_shapes.kind_of(update),
                )
            if (
                inbound.kind in wire.VOICE_KINDS
                and inbound.chat_id == self._paired
                and inbound.user_id == inbound.chat_id
                and inbound.chat_type == "private"
            ):  # only the owner's notes are ever fetched (not another sender's in their chat)
                inbound = self._hear(api, inbound, update)
            sendable = wire.mended(inbound)  # a field no check above thought of
            if sendable is None:  # sent, it would fail at every poll: passed over, and said
                log.warning("telegram: update %d cannot reach core; passed over", inbound.update_id)
                self._offset = inbound.update_id + 1
                continue
            answer = self._deliver(api, sendable)
            # Core recorded this update: the next poll may acknowledge it, and only it.
            self._offset = answer.last_update_id + 1
            self._take(answer)
            self._flush(api)

    def _deliver(self, api: BotApi, inbound: wire.TelegramInbound) -> wire.TelegramOutbox:
        """One update to core; "typing" in the owner's chat while a turn may be running."""
        typing = None
        heard = inbound.kind in wire.VOICE_KINDS and bool(inbound.text)
        words = heard or (inbound.kind in wire.CAPTIONED_KINDS and bool(inbound.text.strip()))
        if (
            (inbound.kind == "text" or words)
            and inbound.chat_id == self._paired
            and (words or not inbound.text.startswith("/"))
        ):
            typing = threading.Event()
            threading.Thread(
                target=self._typing, args=(api, inbound.chat_id, typing), daemon=True
            ).start()
        try:
            answer = self._ask_core(inbound)
        finally:
            if typing is not None:
                typing.set()
        if not isinstance(answer, wire.TelegramOutbox):
            reason = answer.reason if isinstance(answer, wire.Refused) else type(answer).__name__
            raise CoreUnavailable(f"core did not record update {inbound.update_id}: {reason}")
        return answer

    def _hear(
        self, api: BotApi, inbound: wire.TelegramInbound, update: Any
    ) -> wire.TelegramInbound:
        """The owner's note in words ("typing" shows while the pet listens)."""
        done = threading.Event()
        threading.Thread(
            target=self._typing, args=(api, inbound.chat_id, done), daemon=True
        ).start()
        try:
            return self._voice.hear(api, inbound, update)
        finally:
            done.set()

    def _typing(self, api: BotApi, chat_id: int, done: threading.Event) -> None:
        # At least once, even when core answers at once: the owner sees the message was taken.
        while not self._stop.is_set():
            try:
                api.call(
                    "sendChatAction",
                    {"chat_id": chat_id, "action": "typing"},
                    timeout=min(self.config.request_timeout, 10.0),
                )
            except BotApiError as exc:
                log.debug("telegram: typing not shown: %s", exc)
            if done.wait(TYPING_EVERY_S):
                return

    def _flush(self, api: BotApi) -> None:
        """Send every pending outbox row, oldest first, confirming each to core as it goes. A row
        sent is never sent again by this process, even when core misses its confirmation."""
        with self._send_lock:
            self._confirm()
            while self._pending:
                item = self._pending[0]
                speak = item.speak  # a reply to a voice note: in the pet's voice too
                try:
                    api.call("sendMessage", {"chat_id": item.chat_id, "text": item.text})
                except BotApiError as exc:
                    if exc.kind != "client":
                        raise  # kept: sent again after the pause
                    # 400/403 (the owner blocked the bot, the chat is gone): it can never go.
                    log.warning("telegram: outbox row %d dropped: %s", item.id, exc)
                    speak = False
                self._pending.pop(0)
                self._unconfirmed.append(item.id)
                self._confirm()
                if speak:  # after the text is confirmed: a slow voice never re-sends the text
                    self._voice.speak(api, item.chat_id, item.text)

    def _confirm(self) -> None:
        if not self._unconfirmed:
            return
        answer = self._ask_core(wire.TelegramSent(ids=tuple(self._unconfirmed)), timeout=30.0)
        if not isinstance(answer, wire.Ack):
            raise CoreUnavailable("core did not take the confirmation of sent replies")
        self._unconfirmed.clear()

    # --- what the pet says first ----------------------------------------------------------------

    def _push_loop(self) -> None:
        every = PROACTIVE_EVERY_S
        while not self._stop.wait(every):
            api, chat = self._api, self._paired
            if api is None or chat is None:
                continue
            try:
                every = self._push(api, chat)
            except (BotApiError, CoreUnavailable) as exc:
                log.info("telegram: proactive delivery deferred: %s", exc)
                every = PROACTIVE_EVERY_S

    def _push(self, api: BotApi, chat: int) -> float:
        """Send what core says the pet wants to say first, oldest first, confirming each. An item
        sent is never sent again by this process, even when core misses its confirmation (as the
        outbox's rows); one Telegram refuses (400/403) stays pending but waits, so it cannot hold
        up the rest."""
        self._confirm_proactive()
        answer = self._ask_core(wire.ProactiveFetch(limit=20), timeout=30.0)
        if not isinstance(answer, wire.ProactiveBatch):
            log.debug("telegram: core does not serve ProactiveFetch (%s)", type(answer).__name__)
            return PROACTIVE_UNSERVED_S
        for item in answer.items:
            refused = self._proactive_refused.get((chat, item.id))
            if item.id in self._proactive_sent or (
                refused is not None and time.monotonic() - refused < PROACTIVE_REFUSED_RETRY_S
            ):
                continue
            try:
                with self._send_lock:
                    api.call("sendMessage", {"chat_id": chat, "text": item.text})
            except BotApiError as exc:
                if exc.kind != "client":
                    raise  # not sent: offered again next cycle
                # Kept pending (never lost), tried again an hour later (the owner may unblock
                # the bot), and not in the way of the items after it.
                self._proactive_refused[(chat, item.id)] = time.monotonic()
                log.warning("telegram: proactive item %d not delivered: %s", item.id, exc)
                continue
            self._proactive_sent.append(item.id)
            self._confirm_proactive()
            if item.kind == "reminder" and self._voice.config.speak_reminders:
                self._voice.speak(api, chat, item.text)  # after the text; never in its way
        return PROACTIVE_EVERY_S

    def _confirm_proactive(self) -> None:
        if not self._proactive_sent:
            return
        ids = tuple(self._proactive_sent)
        done = self._ask_core(wire.ProactiveDelivered(ids=ids, channel="telegram"), timeout=30.0)
        if not isinstance(done, wire.Ack):
            raise CoreUnavailable(f"core did not take the delivery of items {list(ids)}")
        self._proactive_sent.clear()
