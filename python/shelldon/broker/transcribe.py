"""Voice notes into words: the OpenAI-compatible `POST {base_url}/audio/transcriptions`.

The request is multipart/form-data: a `file` part (the note's bytes, with a filename whose
extension names the format, as OpenAI, Groq, whisper.cpp's server and speaches all read it), a
`model` part, `response_format` = json (`{"text": "…"}`), and `language` when `[voice] language`
is set. The note is sent from memory as it is: the multipart head, the bytes, the tail, one after
the other (`http.exchange`), never joined into a second copy and never written to a file.

The providers named by `[voice] transcribe` are asked in order, as the chat chain asks its own:
each with its key from the vault (`read_api_key`: a missing key skips it), its `timeout`,
`connect_timeout`, `retries`, backoff and Retry-After cap; connect, timeout, 429 and 5xx are
retried, another 4xx moves on at once. When every one fails, `TranscribeFailed` carries the
reason core tells the owner (a `wire.VoiceFailure` code) and a log-safe detail: never the audio,
never the transcript, never the key.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shelldon import digests
from shelldon.broker.providers import MissingKey, read_api_key
from shelldon.broker.providers.base import ProviderError, RetryPolicy
from shelldon.broker.providers.http import exchange, raise_for_status
from shelldon.broker.providers.json_http import retry_policy
from shelldon.config import ConfigError
from shelldon.contracts.config import ProviderConfig
from shelldon.contracts.wire import VoiceFailure

log = logging.getLogger("shelldon.broker.transcribe")

MAX_ANSWER_BYTES = 256 * 1024  # a transcript of the longest note allowed is well under this
MAX_TRANSCRIPT_CHARS = 8192  # what a typed Telegram message may carry to core, too

# A provider's failure kind -> what the owner is told, when it is the last one met.
_REASON_OF_KIND: dict[str, VoiceFailure] = {
    "connect": "unreachable",
    "timeout": "slow",
    "rate_limited": "busy",
    "server": "server",
    "client": "corrupt",  # 400: OpenAI's "Invalid file format", a file it could not decode
    "malformed": "server",
}


class TranscribeFailed(Exception):
    def __init__(self, reason: VoiceFailure, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason: VoiceFailure = reason
        self.detail = detail


@dataclass(frozen=True)
class Audio:
    """One note as the transcriber is sent it: the bytes and what they are."""

    data: bytes
    filename: str  # "voice.ogg": the extension tells the server the container
    content_type: str  # "audio/ogg"


def multipart(
    fields: Sequence[tuple[str, str]], file_field: str, audio: Audio, boundary: str
) -> tuple[bytes, bytes]:
    """(head, tail) of a multipart/form-data body whose one file part sits between them."""
    head = bytearray()
    for name, value in fields:
        head += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    head += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; '
        f'filename="{audio.filename}"\r\nContent-Type: {audio.content_type}\r\n\r\n'
    ).encode()
    return bytes(head), f"\r\n--{boundary}--\r\n".encode()


def new_boundary() -> str:
    return "shelldon-" + digests.token_hex(12)


class Transcriber:
    """`transcribe(audio)` -> the words; `TranscribeFailed` when no provider could give them."""

    def __init__(
        self,
        specs: Sequence[ProviderConfig],
        *,
        model: str,
        language: str = "",
        read_secret: Callable[[str], str | None],
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = digests.fraction,
    ) -> None:
        self.specs = tuple(specs)
        self.model = model
        self.language = language
        self.read_secret = read_secret
        self.sleep = sleep
        self.jitter = jitter

    @property
    def names(self) -> str:
        return ", ".join(spec.name for spec in self.specs)

    def transcribe(self, audio: Audio) -> str:
        last: TranscribeFailed | None = None
        for spec in self.specs:
            try:
                key = read_api_key(spec, self.read_secret)
            except MissingKey:
                last = TranscribeFailed(
                    "no_key", f"{spec.name}: no {spec.key} in the vault (`shelldon vault set …`)"
                )
                log.warning("voice: %s", last.detail)
                continue
            except ConfigError as exc:
                last = TranscribeFailed("no_key", str(exc))
                log.warning("voice: %s", exc)
                continue
            try:
                return self._ask(spec, key, audio)
            except ProviderError as exc:
                reason = _REASON_OF_KIND.get(exc.kind, "server")
                if exc.status in (401, 403):
                    reason = "no_key"  # a key refused is the owner's to fix, as a missing one
                last = TranscribeFailed(reason, f"{spec.name}: {exc.message}")
                log.warning("voice: transcriber %s failed: %s", spec.name, exc)
        if last is None:
            raise TranscribeFailed("off", "no transcriber is configured")
        raise last

    def _ask(self, spec: ProviderConfig, key: str, audio: Audio) -> str:
        policy: RetryPolicy = retry_policy(spec)
        deadline = time.monotonic() + spec.timeout
        attempt = 0
        while True:
            try:
                return self._once(spec, key, audio, deadline)
            except ProviderError as exc:
                retryable = exc.kind in ("connect", "timeout", "rate_limited", "server")
                pause = policy.pause(attempt, exc, self.jitter())
                if (
                    not retryable
                    or attempt >= policy.retries
                    or time.monotonic() + pause >= deadline
                ):
                    raise
                attempt += 1
                self.sleep(pause)

    def _once(self, spec: ProviderConfig, key: str, audio: Audio, deadline: float) -> str:
        fields = [("model", self.model), ("response_format", "json")]
        if self.language:
            fields.append(("language", self.language))
        boundary = new_boundary()
        head, tail = multipart(fields, "file", audio, boundary)
        headers = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Accept": "application/json",
            **spec.headers,
        }
        if key:
            headers["Authorization"] = f"Bearer {key}"
        secrets_ = (key,) if key else ()
        response = exchange(
            "POST",
            f"{spec.base_url}/audio/transcriptions",
            (head, memoryview(audio.data), tail),
            headers,
            timeout=max(0.05, deadline - time.monotonic()),
            connect_timeout=spec.connect_timeout,
            max_bytes=MAX_ANSWER_BYTES,
            secrets=secrets_,
        )
        raise_for_status(response, secrets_)
        try:
            body = response.json()
        except (ValueError, RecursionError):
            body = None
        text = body.get("text") if isinstance(body, dict) else None
        if not isinstance(text, str):
            raise ProviderError("malformed", "the answer has no text", status=response.status)
        return " ".join(text.split())[:MAX_TRANSCRIPT_CHARS]
