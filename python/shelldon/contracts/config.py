"""`shelldon.toml`, as typed structs. Loading, validation and messages live in `shelldon.config`.

Every section is closed (forbid_unknown_fields): a typo'd setting is a start-up error naming the
file and the setting, never a silently ignored line. Owners of a section add its fields here.
"""

from __future__ import annotations

from datetime import time, timedelta
from typing import Annotated

import msgspec

# Bounds a setting carries with its type: the loader refuses a value outside them, naming the
# setting (msgspec's "Expected `float` >= 0.0 - at `$.scheduler.cooldown_hours`"). Each has an
# upper bound too: `inf` is valid TOML, and `timedelta(hours=inf)` failed the dream scheduler at
# every check while the loader had said nothing.
Budget = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
Percent = Annotated[int, msgspec.Meta(ge=0, le=100)]
YearOfHours = Annotated[float, msgspec.Meta(ge=0, le=24 * 365)]
Cost = Annotated[int, msgspec.Meta(ge=0, le=1000)]
ReminderCap = Annotated[int, msgspec.Meta(ge=1, le=1000)]
CLOCK_TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"  # "HH:MM", 24 hours
ClockTime = Annotated[str, msgspec.Meta(pattern=CLOCK_TIME_PATTERN)]


def _hh_mm(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


PROVIDER_KINDS: tuple[str, ...] = ("openai", "anthropic", "offline")
RESPONSE_FORMATS: tuple[str, ...] = ("json_schema", "json_object", "none")
# How a provider is asked for structure (docs/brain.md): native tool calls, or the JSON reply
# protocol with a schema, with JSON mode, or in words only ("plain").
PROTOCOLS: tuple[str, ...] = ("tools", "json_schema", "json_object", "plain")
# Kept back from a provider, in one turn, for each provider after it in the chain (the broker's
# ProviderChain): the offline brain answers in well under a second even on a Pi.
RESERVE_PER_PROVIDER_S = 3.0
DEFAULT_PROTOCOL = {"openai": "tools", "anthropic": "tools", "offline": "plain"}
# `response_format`, the older setting, names three of the protocols.
PROTOCOL_OF_RESPONSE_FORMAT = {
    "json_schema": "json_schema",
    "json_object": "json_object",
    "none": "plain",
}


class ProviderConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One `[[provider]]` entry: a link of the ordered chain.

    `kind` is checked by shelldon.config (with a message listing the kinds) rather than by the type,
    so an unknown kind names itself. `key` is the vault entry holding the API key ("" = no key,
    e.g. a local Ollama); the key itself never appears in this file.
    """

    name: str
    kind: str
    base_url: str = ""
    model: str = ""
    key: str = ""
    # Seconds for this provider in one turn, all its attempts together (cut to what is left of the
    # turn, less what the providers after it are kept): a third of the turn's 60, so a hung first
    # provider still leaves the rest of the chain most of the turn.
    timeout: float = 20.0
    connect_timeout: float = 5.0
    retries: int = 1  # extra attempts on connect/timeout/429/5xx before moving on
    backoff: float = 0.5  # first pause; doubles per retry, capped at backoff_cap
    backoff_cap: float = 4.0
    retry_after_cap: float = 10.0  # a longer Retry-After skips the provider (cooldown) instead
    max_tokens: int = 1024  # the provider's completion budget (the reply itself is cut by chars)
    dream_max_tokens: int = 4096  # a dream answers with many ops (up to 48)
    max_tokens_field: str = "max_tokens"  # openai: "max_completion_tokens" for o-series/gpt-5
    max_reply_chars: int = 4000
    max_response_bytes: int = 1_048_576  # an HTTP body past this is refused as malformed
    temperature: float | None = None
    protocol: str = ""  # tools | json_schema | json_object | plain; "" = the kind's default
    response_format: str = ""  # the older name: json_schema | json_object | none (= plain)
    headers: dict[str, str] = {}  # extra request headers (OpenRouter's HTTP-Referer, …); no secrets
    allow_plain_http: bool = False  # may a key go over http:// to a non-loopback host?
    anthropic_version: str = "2023-06-01"
    # false: not a link of the chat chain; a server used by [voice] alone (whisper.cpp's server,
    # speaches), which answers /audio/* but no chat completions.
    chat: bool = True

    def resolved_protocol(self) -> str:
        """`protocol`, else what the older `response_format` names, else the kind's default."""
        return (
            self.protocol
            or PROTOCOL_OF_RESPONSE_FORMAT.get(self.response_format, "")
            or DEFAULT_PROTOCOL.get(self.kind, "plain")
        )


class WorkerConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    # The user a turn's worker drops to ("shelldon-worker" on the appliance). Empty: no drop, the
    # loud "vault isolation OFF, dev mode" warning (a developer's box).
    user: str = ""
    turn_timeout: float = 60.0  # seconds before core gives the degrade reply


class PromptConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Prompt budgets, named as `shelldon.worker.prompt.PromptLimits` names them.

    None means the prompt module's own default, so the defaults live in one place; a value set
    here replaces it (the worker applies them, never cutting mid-entry).
    """

    recent_window: int | None = None
    recall_k: int | None = None
    max_doc_chars: int | None = None
    max_row_chars: int | None = None
    max_message_chars: int | None = None
    max_prompt_chars: int | None = None
    max_reply_chars: int | None = None

    def overrides(self) -> dict[str, int]:
        """The settings the file sets, for `dataclasses.replace(PromptLimits(), **overrides)`."""
        return {
            name: value
            for name in self.__struct_fields__
            if (value := getattr(self, name)) is not None
        }


class SchedulerConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """`[scheduler]`: when the pet may dream (core.proactive.scheduler; docs/learning.md).

    Core reads this struct itself: the defaults and bounds live here only."""

    idle_after_hours: YearOfHours = 6.0  # a dream is due after this much owner silence
    cooldown_hours: YearOfHours = 6.0  # and at least this long after the previous dream
    daily_budget: Budget = 60  # turns per UTC day; owner turns are counted, never refused
    dream_cost: Cost = 3
    turn_cost: Cost = 1
    battery_low_percent: Percent = 20  # at or below, and discharging: no dream
    power_supply_root: str = "/sys/class/power_supply"

    @property
    def idle_after(self) -> timedelta:
        return timedelta(hours=self.idle_after_hours)

    @property
    def cooldown(self) -> timedelta:
        return timedelta(hours=self.cooldown_hours)


class ProactiveConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """`[proactive]`: the pet speaking first (core.proactive.checkins, core.proactive.reminders;
    docs/proactive.md).

    Reminders always fire; these settings shape check-ins, and cap the pending reminders. Core
    reads this struct itself: the defaults and bounds live here only."""

    enabled: bool = True  # false: no check-ins (reminders still fire)
    checkin_after_hours: YearOfHours = 48.0  # owner silence before the pet may check in
    checkin_cooldown_hours: YearOfHours = 48.0  # at least this long between two check-ins
    quiet_start: ClockTime = "22:00"  # quiet hours, in the owner's time zone: no check-in
    quiet_end: ClockTime = "08:00"
    checkin_cost: Cost = 1  # charged to [scheduler] daily_budget, like a turn
    max_reminders: ReminderCap = 50  # pending reminders at most

    @property
    def checkin_after(self) -> timedelta:
        return timedelta(hours=self.checkin_after_hours)

    @property
    def checkin_cooldown(self) -> timedelta:
        return timedelta(hours=self.checkin_cooldown_hours)

    @property
    def quiet_from(self) -> time:
        return _hh_mm(self.quiet_start)

    @property
    def quiet_until(self) -> time:
        return _hh_mm(self.quiet_end)


class TelegramConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """`[telegram]`: the Bot API poller in the broker (transport.telegram; docs/telegram.md).

    It polls once the vault holds `token_key` (`shelldon vault set telegram_token`); the token
    itself never appears in this file. `enabled = false` keeps the bot silent even then.
    """

    enabled: bool = True
    api_base: str = "https://api.telegram.org"  # a self-hosted Bot API server, or a test's fake
    token_key: str = "telegram_token"
    poll_timeout: int = 50  # seconds a getUpdates long poll waits for a message
    request_timeout: float = 15.0  # any other request; also the margin over a long poll
    backoff_cap: float = 60.0  # the longest pause between attempts after a failure
    allow_plain_http: bool = False  # may the token go over http:// to a non-loopback host?


# Voice notes (docs/telegram.md, "Voice notes"). A note is held whole in the broker's memory while
# it is transcribed: the caps bound that. Telegram lets a bot download up to 20 MB; an Opus voice
# note is ~4 KB a second, so 5 minutes is ~1.2 MB and 8 MiB leaves room for an audio file.
VoiceSeconds = Annotated[int, msgspec.Meta(ge=1, le=1800)]
VoiceBytes = Annotated[int, msgspec.Meta(ge=1024, le=20 * 1024 * 1024)]
SPEAK_OFFLINE = "offline"  # `speak = "offline"`: espeak-ng and opusenc on the pet itself
OFFLINE_VOICE = "en"  # espeak-ng's voice when `speak_voice` is unset
PROVIDER_VOICE = "alloy"  # OpenAI's /audio/speech voice when `speak_voice` is unset


class VoiceConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """`[voice]`: voice notes in and out through Telegram (transport.telegram_voice,
    broker.transcribe, broker.speech; docs/telegram.md).

    `transcribe` names one `[[provider]]` of kind "openai" (or a list of them, asked in order)
    whose `/audio/transcriptions` serves it; "" (the default) = voice notes are not listened to
    and the owner is told in one line how to turn them on. `speak`: "" text replies only;
    "offline" the pet's own voice (espeak-ng); or the name of an openai-kind provider whose
    `/audio/speech` speaks."""

    transcribe: str | tuple[str, ...] = ""
    transcribe_model: str = "whisper-1"
    language: str = ""  # ISO-639-1 hint sent to the transcriber ("" = let it detect)
    max_seconds: VoiceSeconds = 300  # a longer note is refused before it is downloaded
    max_bytes: VoiceBytes = 8 * 1024 * 1024  # a larger file is refused before or while downloading
    speak: str = ""
    speak_model: str = "gpt-4o-mini-tts"  # a provider's /audio/speech model
    speak_voice: str = ""  # "" = "alloy" for a provider, espeak-ng's "en" for "offline"
    speak_max_chars: Annotated[int, msgspec.Meta(ge=1, le=4096)] = 600  # longer: text only
    speak_reminders: bool = False  # reminders in the pet's voice too (when `speak` is set)

    @property
    def voice_name(self) -> str:
        if self.speak_voice:
            return self.speak_voice
        return OFFLINE_VOICE if self.speak == SPEAK_OFFLINE else PROVIDER_VOICE

    @property
    def transcribers(self) -> tuple[str, ...]:
        names = (self.transcribe,) if isinstance(self.transcribe, str) else self.transcribe
        return tuple(name for name in names if name)


class ShelldonConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    providers: tuple[ProviderConfig, ...] = msgspec.field(default=(), name="provider")
    worker: WorkerConfig = msgspec.field(default_factory=WorkerConfig)
    prompt: PromptConfig = msgspec.field(default_factory=PromptConfig)
    scheduler: SchedulerConfig = msgspec.field(default_factory=SchedulerConfig)
    proactive: ProactiveConfig = msgspec.field(default_factory=ProactiveConfig)
    telegram: TelegramConfig = msgspec.field(default_factory=TelegramConfig)
    voice: VoiceConfig = msgspec.field(default_factory=VoiceConfig)

    @property
    def chain(self) -> tuple[ProviderConfig, ...]:
        """The providers a turn asks, in order (`chat = false` ones serve [voice] only)."""
        return tuple(spec for spec in self.providers if spec.chat)
