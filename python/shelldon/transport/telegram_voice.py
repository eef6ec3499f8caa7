"""Voice notes on the poller's side (docs/telegram.md, "Voice notes"): hear the paired chat's
notes, and speak the replies to them when `[voice] speak` is set.

Hearing (`VoiceDesk.hear`), for a voice note or audio file from the paired private chat only (a
stranger's note is passed to core as it came, never downloaded):
1. the note's `duration` and `file_size` (in the update) against `[voice] max_seconds` and
   `max_bytes`: over either, refused before anything is fetched;
2. `getFile`, then the file from `{api_base}/file/bot<token>/<file_path>`, capped at `max_bytes`
   while it is read; a voice note must be an OGG stream (Telegram's voice notes are OGG/Opus);
3. the bytes, held in memory only, go to the transcriber (broker.transcribe); the reference is
   dropped as soon as it answers. Nothing of the audio is logged or written anywhere.
Telegram failing (network, 5xx) while fetching leaves the update unacknowledged: the poll loop
backs off and the note is fetched again. Anything else becomes a `voice_failure` core answers.

Speaking (`VoiceDesk.speak`): a reply row core marked (`OutboxItem.speak`) is, after its text,
also sent as a voice note (`sendVoice`, multipart, OGG/Opus) made by broker.speech. A voice that
fails is logged and dropped: the text has gone already.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

import msgspec

from shelldon.contracts import wire
from shelldon.contracts.config import SPEAK_OFFLINE, ProviderConfig, ShelldonConfig, VoiceConfig

log = logging.getLogger("shelldon.transport.telegram")

OGG_MAGIC = b"OggS"
# What the transcription endpoints read the container from (OpenAI's list of formats).
_EXTENSIONS = {"flac", "mp3", "mp4", "mpeg", "mpga", "m4a", "ogg", "oga", "opus", "wav", "webm"}
_EXTENSION_OF_MIME = {
    "audio/ogg": "ogg",
    "audio/opus": "ogg",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/mp4": "m4a",
    "audio/m4a": "m4a",
    "audio/x-m4a": "m4a",
    "audio/aac": "m4a",
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/flac": "flac",
    "audio/webm": "webm",
}


class BotApi(Protocol):
    """What this module uses of transport.telegram's BotApi (which imports this module)."""

    def call(self, method: str, payload: dict[str, Any] | None = None) -> Any: ...
    def download(self, file_path: str, max_bytes: int) -> bytes: ...
    def upload(
        self, method: str, head: bytes, data: bytes, tail: bytes, content_type: str
    ) -> Any: ...


@dataclass(frozen=True)
class VoicePlan:
    """`[voice]` with the providers it names, as the poller needs them."""

    config: VoiceConfig
    transcribers: tuple[ProviderConfig, ...] = ()
    speaker: ProviderConfig | None = None  # `speak = "<provider>"`


def plan_of(config: ShelldonConfig) -> VoicePlan:
    by_name = {spec.name: spec for spec in config.providers}
    voice = config.voice
    return VoicePlan(
        config=voice,
        transcribers=tuple(by_name[n] for n in voice.transcribers if n in by_name),
        speaker=by_name.get(voice.speak) if voice.speak != SPEAK_OFFLINE else None,
    )


@dataclass(frozen=True)
class VoiceFile:
    kind: str  # "voice" | "audio"
    file_id: str
    seconds: int
    size: int | None
    mime: str
    name: str

    def filename(self) -> str:
        if self.kind == "voice":
            return "voice.ogg"
        extension = self.name.rsplit(".", 1)[-1].lower() if "." in self.name else ""
        if extension not in _EXTENSIONS:
            extension = _EXTENSION_OF_MIME.get(self.mime.lower(), "mp3")
        return f"audio.{extension}"

    def content_type(self) -> str:
        if self.kind == "voice":
            return "audio/ogg"
        return self.mime if self.mime.startswith("audio/") else "application/octet-stream"


# Beyond these an update's duration or size is read as the bound: still over every cap (so the
# note is refused, told), and a number the wire to core can carry (an int past 64 bits could
# not, and the update would fail at every poll).
_LONGEST_S = 2**31 - 1
_LARGEST = 2**62


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def voice_file(update: Any) -> VoiceFile | None:
    """The Voice or Audio object of an update's message, as the Bot API shapes it."""
    message = update.get("message") if isinstance(update, dict) else None
    if not isinstance(message, dict):
        return None
    for kind in wire.VOICE_KINDS:
        item = message.get(kind)
        if isinstance(item, dict) and isinstance(item.get("file_id"), str):
            duration = item.get("duration")
            size = item.get("file_size")
            return VoiceFile(
                kind=kind,
                file_id=item["file_id"],
                seconds=min(duration, _LONGEST_S) if _whole(duration) else 0,
                size=min(size, _LARGEST) if _whole(size) else None,
                mime=str(item.get("mime_type") or ""),
                name=str(item.get("file_name") or ""),
            )
    return None


class VoiceDesk:
    def __init__(
        self,
        plan: VoicePlan,
        read_secret: Callable[[str], str | None],
        api_error: type[Exception],
    ) -> None:
        self.plan = plan
        self.read_secret = read_secret
        self.api_error = api_error  # transport.telegram's BotApiError (with its `kind`)
        self._transcriber: Any = None

    @property
    def config(self) -> VoiceConfig:
        return self.plan.config

    # --- hearing -------------------------------------------------------------------------------

    def hear(self, api: BotApi, inbound: wire.TelegramInbound, update: Any) -> wire.TelegramInbound:
        """`inbound` with the note's words (or why there are none). Raises BotApiError when
        Telegram itself failed (the update is then fetched again)."""
        found = voice_file(update)
        if found is None:
            return self._failed(inbound, "download", 0)
        if not self.plan.transcribers:
            return self._failed(inbound, "off", found.seconds)
        if found.seconds > self.config.max_seconds:
            return self._failed(inbound, "too_long", found.seconds)
        if found.size is not None and found.size > self.config.max_bytes:
            return self._failed(inbound, "too_big", found.seconds)
        data = self._fetch(api, found)
        if isinstance(data, str):
            return self._failed(inbound, data, found.seconds)  # type: ignore[arg-type]
        if found.kind == "voice" and not data.startswith(OGG_MAGIC):
            return self._failed(inbound, "corrupt", found.seconds)
        from shelldon.broker.transcribe import Audio, TranscribeFailed

        try:
            words = self._transcribe(Audio(data, found.filename(), found.content_type()))
        except TranscribeFailed as failed:
            return self._failed(inbound, failed.reason, found.seconds)
        except Exception as exc:  # a bug must not make this note block the poller forever
            log.error("telegram: transcribing failed: %s", type(exc).__name__)
            return self._failed(inbound, "server", found.seconds)
        finally:
            del data  # the note's only reference: gone once it is heard
        if not words:
            return self._failed(inbound, "silent", found.seconds)
        log.info("telegram: a %d s %s note heard", found.seconds, found.kind)
        return msgspec.structs.replace(inbound, text=words, voice_seconds=found.seconds)

    def _fetch(self, api: BotApi, found: VoiceFile) -> bytes | str:
        try:
            file = api.call("getFile", {"file_id": found.file_id})
            path = file.get("file_path") if isinstance(file, dict) else None
            size = file.get("file_size") if isinstance(file, dict) else None
            if isinstance(size, int) and size > self.config.max_bytes:
                return "too_big"
            if not isinstance(path, str) or not path:
                return "download"
            return api.download(path, self.config.max_bytes)
        except self.api_error as exc:
            kind = getattr(exc, "kind", "")
            if kind == "too_big" or (kind == "client" and "too big" in str(exc)):
                return "too_big"
            if kind == "client":
                log.warning("telegram: a voice note could not be fetched: %s", exc)
                return "download"
            raise

    def _transcribe(self, audio: Any) -> str:
        if self._transcriber is None:
            from shelldon.broker.transcribe import Transcriber

            self._transcriber = Transcriber(
                self.plan.transcribers,
                model=self.config.transcribe_model,
                language=self.config.language,
                read_secret=self.read_secret,
            )
        return str(self._transcriber.transcribe(audio))

    @staticmethod
    def _failed(
        inbound: wire.TelegramInbound, reason: wire.VoiceFailure, seconds: int
    ) -> wire.TelegramInbound:
        log.info("telegram: a voice note was not heard: %s", reason)
        return msgspec.structs.replace(
            inbound, text="", voice_seconds=seconds, voice_failure=reason
        )

    # --- speaking ------------------------------------------------------------------------------

    def speak(self, api: BotApi, chat_id: int, text: str) -> bool:
        """Send `text` as a voice note too, when `[voice] speak` is set; True when it went."""
        config = self.config
        if not config.speak or not text.strip() or len(text) > config.speak_max_chars:
            return False
        from shelldon.broker.speech import OfflineVoice, ProviderVoice, SpeechFailed, Voice
        from shelldon.broker.transcribe import Audio, multipart, new_boundary

        voice: Voice
        if config.speak == SPEAK_OFFLINE:
            voice = OfflineVoice(config.voice_name)
        elif self.plan.speaker is not None:
            voice = ProviderVoice(
                self.plan.speaker,
                model=config.speak_model,
                voice=config.voice_name,
                read_secret=self.read_secret,
            )
        else:
            return False
        try:
            audio = voice.speak(text)
        except SpeechFailed as exc:
            log.warning("telegram: the reply was not spoken: %s", exc)
            return False
        boundary = new_boundary()
        head, tail = multipart(
            [("chat_id", str(chat_id))], "voice", Audio(audio, "reply.ogg", "audio/ogg"), boundary
        )
        try:
            api.upload("sendVoice", head, audio, tail, f"multipart/form-data; boundary={boundary}")
        except self.api_error as exc:
            log.warning("telegram: the spoken reply was not delivered: %s", exc)
            return False
        return True
