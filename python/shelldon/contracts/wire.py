"""Every message that crosses a process boundary: one tagged msgspec union, msgpack on the wire.

Framing (length prefix, size limit, read deadlines) lives in `shelldon.ipc`; this module is only
the vocabulary. Each message carries `v` (the wire version): a peer speaking another version is
refused with a clear reason instead of being half-understood.

Who talks to whom (and who may: the servers check the peer with SO_PEERCRED, see
docs/processes.md):

    owner CLI  -> core         Say -> Reply; StatusRequest -> Status; VaultSet -> Ack;
                               VaultList -> VaultNames; IsolationProbe -> ProbeReport;
                               DreamNow -> DreamDone; OwnerCommand -> CommandReply;
                               TelegramPair -> TelegramPairing; TelegramUnpair -> Ack;
                               ProactiveFetch -> ProactiveBatch; ProactiveDelivered -> Ack
    broker     -> core         TelegramResume | TelegramInbound -> TelegramOutbox;
                               TelegramSent -> Ack (the Telegram poller, inside the broker)
    core       -> fork-server  SpawnTurn -> TurnResult | TurnFailed;   Ping -> Pong
    worker     -> broker       Complete -> Completion | CompletionFailed
    fork-server -> broker      AdmitWorker -> Ack; RetireWorker -> Ack (who may ask: the worker
                               of a live turn, by pid, uid and that turn's token)
    core       -> broker       VaultRead -> VaultValue;                Ping -> Pong
    anyone     <- any server   Refused(reason) when a request is not allowed or not understood.

Over 400 lines: it is the one vocabulary of every socket (a message's tag is its one name, and the
union decodes them all in one place); split by process it would scatter the tags that must not
collide.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

import msgspec

from shelldon.contracts.brain import BrainReply, CompletionRequest, LinkFailure, Usage
from shelldon.contracts.json_in import mend_strings
from shelldon.contracts.languages import OwnerLanguages
from shelldon.contracts.wire_say import WIRE_VERSION as WIRE_VERSION


class _Msg(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="t", kw_only=True):
    v: int = WIRE_VERSION


# --- owner <-> core ---------------------------------------------------------------------------


class Say(_Msg, frozen=True, tag="say"):
    """One owner message; core answers with exactly one Reply."""

    text: str


class Reply(_Msg, frozen=True, tag="reply"):
    text: str
    turn_id: str
    degraded: bool = False  # the degrade reply stood in for the brain's
    provider: str = ""


class StatusRequest(_Msg, frozen=True, tag="status_request"):
    pass


class ProcessState(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str  # "core" | "broker" | "forkserver"
    pid: int | None
    up: bool
    detail: str = ""


class LastTurn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    turn_id: str
    purpose: str
    at: str  # ISO-8601 UTC
    outcome: str  # "ok" | "degraded" | "spawn_failed"
    provider: str = ""
    elapsed_ms: int = 0


class Status(_Msg, frozen=True, tag="status"):
    processes: tuple[ProcessState, ...]
    last_turn: LastTurn | None
    memory_counts: dict[str, int]
    vault_isolation: bool  # the worker drops to an unprivileged uid that cannot read vault/
    isolation_detail: str = ""
    extra_lines: tuple[str, ...] = ()  # e.g. the scheduler's "next dream in ..." lines


class IsolationProbe(_Msg, frozen=True, tag="isolation_probe"):
    """Fork a real worker that tries to read the vault, write memory, regain root (doctor)."""


class ProbeReport(_Msg, frozen=True, tag="probe_report"):
    isolated: bool
    # JSON: {"uid", "gid", "resuid", "resgid", "groups", "status": {"CapEff", "CapPrm", "CapAmb",
    # "NoNewPrivs"}, "checks": [{"check", "outcome": refused|allowed|error, "error", "errno"}]}
    report: str


class VaultSet(_Msg, frozen=True, tag="vault_set"):
    key: str
    value: str


class VaultList(_Msg, frozen=True, tag="vault_list"):
    pass


class VaultNames(_Msg, frozen=True, tag="vault_names"):
    names: tuple[str, ...]


class Ack(_Msg, frozen=True, tag="ack"):
    detail: str = ""


class DreamNow(_Msg, frozen=True, tag="dream_now"):
    """`shelldon dream --now`: one dream, skipping the idle wait and cooldown (force: also the
    budget and battery gates). Core answers with DreamDone."""

    force: bool = False


class DreamDone(_Msg, frozen=True, tag="dream_done"):
    """What the dream did (core.proactive.scheduler.DreamRecord's fields)."""

    at: str
    outcome: str  # done | stopped | skipped | failed | busy | refused
    detail: str
    n: int = 0
    written: int = 0
    promoted: int = 0
    pruned: int = 0
    refused: int = 0
    note: str = ""


class OwnerCommand(_Msg, frozen=True, tag="owner_command"):
    """`/help`, `/status`, `/memory`, … from any transport; core answers CommandReply
    (core.commands holds the table)."""

    name: str  # without the slash: "help"
    arg: str = ""


class CommandReply(_Msg, frozen=True, tag="command_reply"):
    text: str


class ProactiveItem(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: int
    kind: str  # "reminder" | "checkin" | "notice"
    text: str
    created: str  # ISO-8601 UTC
    late: bool = False  # a reminder that came due while the pet was off


class ProactiveFetch(_Msg, frozen=True, tag="proactive_fetch"):
    """What the pet wants to say first, not yet delivered (oldest first, at most `limit`)."""

    limit: int = 20


class ProactiveBatch(_Msg, frozen=True, tag="proactive_batch"):
    items: tuple[ProactiveItem, ...]


class ProactiveDelivered(_Msg, frozen=True, tag="proactive_delivered"):
    """The items a transport delivered; core marks them delivered (answers Ack)."""

    ids: tuple[int, ...]
    channel: str  # "telegram" | "terminal"


class TelegramPair(_Msg, frozen=True, tag="telegram_pair"):
    """`shelldon telegram pair`: a new one-time code (any earlier one stops working)."""


class TelegramPairing(_Msg, frozen=True, tag="telegram_pairing"):
    code: str  # shown once; core keeps only its hash
    expires: str  # ISO-8601 UTC
    bot_username: str = ""  # "" until the poller has asked getMe


class TelegramUnpair(_Msg, frozen=True, tag="telegram_unpair"):
    pass


class TelegramResume(_Msg, frozen=True, tag="telegram_resume"):
    """The poller (re)starts: where to poll from and what is still to send."""

    bot_username: str = ""


# The kinds whose words the pet hears: a voice note or an audio file (transcribed by the broker),
# and the media the Bot API lets carry a caption, which the pet cannot see but whose words it reads.
VOICE_KINDS = ("voice", "audio")
CAPTIONED_KINDS = ("photo", "video", "animation", "document")


class TelegramInbound(_Msg, frozen=True, tag="telegram_inbound"):
    """One update from getUpdates, as much of it as core needs. Core records `update_id` (in the
    turn's own transaction when it is a turn) before it answers; a repeat is answered from the
    outbox, never run twice."""

    update_id: int
    chat_id: int
    chat_type: str  # "private" | "group" | "supergroup" | "channel"
    # "text" | "photo" | "voice" | "audio" | "sticker" | "document" | … | "other"; "edited": a
    # message its sender changed (its new words are not carried); "none": not a message.
    kind: str
    # A voice note or audio file from the paired chat: its transcript; a captioned photo, video,
    # animation or document: its caption.
    text: str = ""
    user_id: int = 0
    # A voice note or audio file: its length (Telegram's `duration`), and why it was not heard
    # ("" = `text` is what the transcriber heard). The broker downloads only the paired chat's.
    voice_seconds: int = 0
    voice_failure: VoiceFailure | Literal[""] = ""
    # A message whose words are someone else's (a forward, an inline bot's; typed text or a
    # voice note): who, as the broker read it from the update; "" for the owner's own words
    # (contracts.relayed).
    relayed_from: str = ""
    # One of an album (Telegram's `media_group_id`: several photos sent together, one update
    # each): core answers the album once.
    album: str = ""


# Why a voice note was not turned into words (core tells the owner; docs/telegram.md):
# off: no [voice] transcribe; too_long / too_big: over [voice] max_seconds / max_bytes;
# corrupt: not the audio it claims to be (or the transcriber refused it); unreachable / slow /
# busy / server: the transcriber is down, timed out, rate-limited or failing; no_key: its key is
# not in the vault, or refused (401/403); silent: it heard no words; download: Telegram would
# not give the file.
VoiceFailure = Literal[
    "off",
    "too_long",
    "too_big",
    "corrupt",
    "unreachable",
    "slow",
    "busy",
    "server",
    "no_key",
    "silent",
    "download",
]


class OutboxItem(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: int
    chat_id: int
    text: str  # at most the Bot API's 4,096 characters: core split it
    speak: bool = False  # a reply to a voice note: also sent as one when [voice] speak is set


class TelegramOutbox(_Msg, frozen=True, tag="telegram_outbox"):
    """Core's answer to the poller: the last recorded update and every reply not yet confirmed
    sent (oldest first)."""

    last_update_id: int
    paired_chat: int | None
    items: tuple[OutboxItem, ...] = ()
    turn: bool = False  # the update ran a turn (typing was worth showing)


class TelegramSent(_Msg, frozen=True, tag="telegram_sent"):
    """sendMessage confirmed these outbox rows; core forgets them (answers Ack)."""

    ids: tuple[int, ...]


class Refused(_Msg, frozen=True, tag="refused"):
    """The request was not allowed or not understood. `reason` never echoes a secret."""

    reason: str


# --- core <-> fork-server ---------------------------------------------------------------------


# probe: the isolation self-test, no brain; checkin: the pet speaks first (core.proactive.checkins)
TurnPurpose = Literal["turn", "dream", "probe", "checkin", "reflect"]


class SpawnTurn(_Msg, frozen=True, tag="spawn_turn"):
    turn_id: str
    purpose: TurnPurpose
    message: str
    # core-built: the dream directive, a check-in's note, a reflection's digest; else empty
    dream_directive: str = ""
    deadline_s: float = (
        30.0  # the whole turn, fork to result; the fork-server kills the worker after it
    )
    capture_prompt: bool = False  # send the assembled prompt back (core records it; tests only)
    # The owner's language profile over `message` and their history rows, as core keeps it
    # (contracts.languages.ProfileCache): the worker neither reads those rows nor counts them.
    # None: the worker builds it (worker.prompt).
    owner_languages: OwnerLanguages | None = None
    # The owner's local time as the prompt shows it (contracts.localtime.now_line), from core's
    # clock and the owner's zone (core.proactive.owner_time.owner_clock_line): the worker reads
    # no zone. Empty: the worker makes it (worker.prompt).
    clock_line: str = ""


class TurnResult(_Msg, frozen=True, tag="turn_result"):
    """What a worker proposes. `ops` are raw (core decodes each on its own); nothing is trusted."""

    turn_id: str
    reply: str
    ops: tuple[Any, ...] = ()
    provider: str = ""
    usage: Usage | None = None
    dropped: tuple[str, ...] = ()  # reasons the reply parser dropped parts
    prompt: CompletionRequest | None = None  # only when SpawnTurn.capture_prompt (up to 24 KB)
    isolated: bool = False  # the worker ran dropped to the worker uid
    failures: tuple[LinkFailure, ...] = ()  # providers that did not answer before `provider`


TurnFailStage = Literal[
    "busy", "spawn", "drop", "unreached", "prompt", "brain", "timeout", "crash", "protocol"
]
# Stages at which no brain ran: nothing is applied and nothing was spent, so a check-in or a
# reflection is asked again soon instead of being charged (core.turn.apply, core.proactive,
# core.learning). "unreached": the worker ran but the broker was not there to take its request
# (not up yet at the pet's start, or restarting), or did not admit it.
NOT_STARTED_STAGES: frozenset[str] = frozenset({"busy", "spawn", "drop", "unreached"})


class TurnFailed(_Msg, frozen=True, tag="turn_failed"):
    """No reply from the worker. Stages in NOT_STARTED_STAGES: no brain ran, nothing is applied
    (an owner turn is still kept, with the degrade or busy reply); any later stage: core answers
    with the degrade reply."""

    turn_id: str
    stage: TurnFailStage
    reason: str
    failures: tuple[LinkFailure, ...] = ()  # stage "brain": every provider that did not answer


class Ping(_Msg, frozen=True, tag="ping"):
    pass


class Pong(_Msg, frozen=True, tag="pong"):
    name: str
    pid: int
    detail: str = ""
    isolation: bool | None = None  # fork-server only: workers drop privilege
    lines: tuple[str, ...] = ()  # broker: its transports' status lines (`shelldon status`)


# --- worker <-> broker, core <-> broker -------------------------------------------------------


class Complete(_Msg, frozen=True, tag="complete"):
    turn_id: str
    request: CompletionRequest
    deadline_s: float = 30.0  # what is left of the turn when sent: bounds the chain's retries
    token: str = ""  # the turn's one-time token, handed to the worker in the fork (AdmitWorker)


class AdmitWorker(_Msg, frozen=True, tag="admit_worker"):
    """The fork-server spawned `pid` (running as `uid`) for `turn_id`: the broker serves its
    Completes that carry `token`, until RetireWorker or `deadline_s` from now."""

    turn_id: str
    pid: int
    uid: int
    token: str
    deadline_s: float


class RetireWorker(_Msg, frozen=True, tag="retire_worker"):
    """The turn ended (result relayed, worker killed, or fork-server stopping): forget it."""

    turn_id: str
    pid: int


class Completion(_Msg, frozen=True, tag="completion"):
    reply: BrainReply


class CompletionFailed(_Msg, frozen=True, tag="completion_failed"):
    reason: str
    kind: str = ""  # a ProviderError kind when the chain was exhausted
    failures: tuple[LinkFailure, ...] = ()  # each provider that did not answer


class VaultRead(_Msg, frozen=True, tag="vault_read"):
    key: str


class VaultValue(_Msg, frozen=True, tag="vault_value"):
    key: str
    value: str | None  # None: no such key


Message = (
    Say
    | Reply
    | StatusRequest
    | Status
    | IsolationProbe
    | ProbeReport
    | VaultSet
    | VaultList
    | VaultNames
    | Ack
    | DreamNow
    | DreamDone
    | OwnerCommand
    | CommandReply
    | ProactiveFetch
    | ProactiveBatch
    | ProactiveDelivered
    | TelegramPair
    | TelegramPairing
    | TelegramUnpair
    | TelegramResume
    | TelegramInbound
    | TelegramOutbox
    | TelegramSent
    | Refused
    | SpawnTurn
    | TurnResult
    | TurnFailed
    | Ping
    | Pong
    | Complete
    | AdmitWorker
    | RetireWorker
    | Completion
    | CompletionFailed
    | VaultRead
    | VaultValue
)

# What core's socket serves (core.server's one `match`): a new request type that core should serve
# goes here, and mypy then names the branch it lacks.
CoreRequest = (
    Say
    | OwnerCommand
    | StatusRequest
    | TelegramResume
    | TelegramInbound
    | TelegramSent
    | TelegramPair
    | TelegramUnpair
    | VaultSet
    | VaultList
    | DreamNow
    | ProactiveFetch
    | ProactiveDelivered
    | IsolationProbe
    | Ping
)
CORE_REQUESTS = (
    Say,
    OwnerCommand,
    StatusRequest,
    TelegramResume,
    TelegramInbound,
    TelegramSent,
    TelegramPair,
    TelegramUnpair,
    VaultSet,
    VaultList,
    DreamNow,
    ProactiveFetch,
    ProactiveDelivered,
    IsolationProbe,
    Ping,
)


class WireError(ValueError):
    """A frame that does not decode to a known message of this wire version."""


_ENCODER = msgspec.msgpack.Encoder()
_DECODER: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(Message)


def encode(message: _Msg) -> bytes:
    return _ENCODER.encode(message)


def encodable(value: Any) -> bool:
    """Whether a raw value (a model's proposed op, as JSON parsed it) can travel in a message:
    msgpack has no integer past 64 bits, and Python's JSON parser reads any length of digits, so
    `"in_seconds": 1e30` written out in digits would fail the frame it rides in, not one op."""
    try:
        _ENCODER.encode(value)
    except (OverflowError, TypeError, ValueError, RecursionError):
        return False
    return True


_M = TypeVar("_M", bound=_Msg)


def mended(message: _M) -> _M | None:
    """`message` as it can travel: itself when it encodes, else a copy with every string mended
    (contracts.json_in.mend_strings: a lone surrogate from outside becomes U+FFFD); None when it
    still cannot (a number past 64 bits). The senders' backstop: the edges mend what they parse
    (broker.answer, the HTTP client's JSON), so this is for a field no edge thought of."""
    if encodable(message):
        return message
    try:
        fixed = msgspec.convert(
            mend_strings(msgspec.to_builtins(message)), type(message), from_attributes=False
        )
    except (msgspec.ValidationError, ValueError, TypeError):
        return None
    return fixed if encodable(fixed) else None


def decode(payload: bytes) -> Message:
    """Decode one frame's payload. Raises WireError with a short reason (never the payload)."""
    try:
        message = _DECODER.decode(payload)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise WireError(f"undecodable frame: {str(exc)[:200]}") from None
    except (TypeError, ValueError, RecursionError) as exc:
        raise WireError(f"undecodable frame: {type(exc).__name__}") from None
    if message.v != WIRE_VERSION:
        raise WireError(f"wire version {message.v} is not {WIRE_VERSION}")
    return message  # type: ignore[no-any-return]
