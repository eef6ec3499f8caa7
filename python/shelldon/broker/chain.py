"""The broker's ordered provider chain: fallback, bounded retries, then the reply parser.

A provider turns a CompletionRequest into raw text (`RawCompletion`); the chain walks its providers
in order, retries a provider only for transient failures (connect, timeout, 429, 5xx) with backoff
that honours a capped Retry-After, moves on for everything else, and parses the first answer into
a BrainReply. When every provider failed it raises ChainExhausted: the turn gets the degrade reply.

Messages carried by ProviderError / ChainExhausted are written for logs: they never hold a key, a
prompt or a reply body (the HTTP providers scrub what they quote from a server).
"""

from __future__ import annotations

import importlib
import logging
import random
import re
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import msgspec

from shelldon.broker.protocol import parse_reply
from shelldon.contracts.brain import BrainReply, CompletionRequest, Usage

if TYPE_CHECKING:
    from shelldon.contracts.config import ShelldonConfig
    from shelldon.paths import DataRoot

log = logging.getLogger(__name__)

# Token-shaped runs (an API key with its prefix, a long opaque string) that a server or an
# exception might echo back: replaced before anything reaches a log or an error.
_TOKENISH = re.compile(r"\b(?:sk|pk|rk|ak|key|gsk|xai)[-_][A-Za-z0-9_-]{6,}|[A-Za-z0-9_-]{32,}")


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every secret, and anything shaped like a token, replaced: safe to log."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return _TOKENISH.sub("[redacted]", text)


ErrorKind = Literal["connect", "timeout", "rate_limited", "server", "client", "malformed"]

# Worth asking the same provider again after a pause; the rest move straight to the next provider.
RETRYABLE_KINDS: frozenset[str] = frozenset({"connect", "timeout", "rate_limited", "server"})


class RawCompletion(msgspec.Struct, frozen=True):
    """What a provider answered: the model's text (the reply protocol, unparsed) and its usage."""

    text: str
    usage: Usage | None = None


class ProviderError(Exception):
    """A provider could not answer. `kind` drives the chain's choice; the message is log-safe."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str = "",
        *,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        self.kind: ErrorKind = kind
        self.retry_after = retry_after
        self.status = status
        self.message = message or kind
        super().__init__(f"{kind}: {self.message}")


@dataclass(frozen=True)
class Attempt:
    """One provider call that failed, for ChainExhausted and the logs."""

    provider: str
    kind: str
    message: str


class ChainExhausted(Exception):
    """Every provider failed (or was cooling down). The turn gets the degrade reply."""

    def __init__(self, attempts: Sequence[Attempt]) -> None:
        self.attempts = tuple(attempts)
        detail = "; ".join(f"{a.provider}: {a.kind} ({a.message})" for a in self.attempts)
        super().__init__(f"every provider failed: {detail or 'the chain is empty'}")


@runtime_checkable
class Provider(Protocol):
    name: str

    def complete(self, request: CompletionRequest) -> RawCompletion: ...


@runtime_checkable
class DeadlineAwareProvider(Provider, Protocol):
    """A provider that can bound its own call by the turn's deadline (the HTTP providers do)."""

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion: ...


# Below this much time left, calling a provider is pointless: move on (or give up) at once.
MIN_CALL_SECONDS = 0.05


@dataclass(frozen=True)
class RetryPolicy:
    """How hard the chain tries one provider before moving on.

    `retries` is the number of extra attempts after the first; the pause before retry n is
    min(backoff * 2**n, backoff_cap) with jitter, or the server's Retry-After capped at
    `retry_after_cap`. A Retry-After above the cap also puts the provider in cooldown for that long,
    so the next turns skip it instead of hitting it again.
    """

    retries: int = 1
    backoff: float = 0.5
    backoff_cap: float = 4.0
    retry_after_cap: float = 10.0

    def pause(self, attempt: int, error: ProviderError, jitter: float) -> float:
        if error.retry_after is not None:
            return max(0.0, min(float(error.retry_after), self.retry_after_cap))
        return min(self.backoff * float(2**attempt), self.backoff_cap) * (0.5 + jitter / 2)


@dataclass
class ProviderChain:
    """Ordered providers with fallback. Thread-safe: the only shared state is the cooldown map.

    A provider's retry policy is `policies[name]`, else its own `retry_policy` attribute (the HTTP
    providers carry the one their `[[provider]]` entry configures), else `default_policy`.

    `clock` (monotonic seconds) and `sleep` are injectable so tests never sleep for real.
    """

    providers: Sequence[Provider]
    policies: Mapping[str, RetryPolicy] = field(default_factory=dict)
    default_policy: RetryPolicy = field(default_factory=RetryPolicy)
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    jitter: Callable[[], float] = random.random
    max_ops: int = 16
    # A dream resolves up to 20 learnings, two ops per promotion, plus its summary (core.dream
    # applies at most DreamLimits.max_ops of them under its own caps).
    max_dream_ops: int = 48
    _cooldown_until: dict[str, float] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.providers)

    def complete(self, request: CompletionRequest, *, deadline: float | None = None) -> BrainReply:
        """The first provider's parsed answer; `deadline` (on `clock`) bounds the retry pauses.

        Raises ChainExhausted when nobody answered.
        """
        attempts: list[Attempt] = []
        for provider in self.providers:
            if self._cooling_down(provider.name):
                attempts.append(
                    Attempt(provider.name, "cooldown", "skipped after a long Retry-After")
                )
                continue
            raw = self._try_provider(provider, request, attempts, deadline)
            if raw is None:
                continue
            limit = getattr(provider, "max_reply_chars", None) or request.max_reply_chars
            reply = parse_reply(
                raw.text,
                max_reply_chars=min(request.max_reply_chars, limit),
                max_ops=self.max_dream_ops if request.purpose == "dream" else self.max_ops,
                provider=provider.name,
                usage=raw.usage,
            )
            if not reply.text.strip() and not reply.ops:
                # An empty answer is no answer: the next provider may do better.
                attempts.append(Attempt(provider.name, "malformed", "empty reply and no ops"))
                log.warning("provider %s gave an empty reply; trying the next", provider.name)
                continue
            if reply.dropped:
                log.info(
                    "provider %s: reply parser dropped: %s", provider.name, "; ".join(reply.dropped)
                )
            _log_usage(provider.name, request.purpose, reply.usage, len(attempts))
            return reply
        exhausted = ChainExhausted(attempts)
        log.error("%s", exhausted)
        raise exhausted

    def _try_provider(
        self,
        provider: Provider,
        request: CompletionRequest,
        attempts: list[Attempt],
        deadline: float | None,
    ) -> RawCompletion | None:
        policy = (
            self.policies.get(provider.name)
            or getattr(provider, "retry_policy", None)
            or self.default_policy
        )
        for attempt in range(policy.retries + 1):
            if deadline is not None and deadline - self.clock() < MIN_CALL_SECONDS:
                attempts.append(Attempt(provider.name, "timeout", "no time left in the turn"))
                return None
            try:
                if deadline is not None and getattr(provider, "honours_deadline", False):
                    return provider.complete(request, deadline=deadline)  # type: ignore[call-arg]
                return provider.complete(request)
            except ProviderError as error:
                attempts.append(Attempt(provider.name, error.kind, error.message))
                log.warning("provider %s failed: %s (%s)", provider.name, error.kind, error.message)
                long_wait = (
                    error.retry_after is not None and error.retry_after > policy.retry_after_cap
                )
                if error.kind == "rate_limited" and long_wait:
                    self._cool_down(provider.name, error.retry_after or 0.0)
                    return None
                if error.kind not in RETRYABLE_KINDS or attempt == policy.retries:
                    return None
                pause = policy.pause(attempt, error, self.jitter())
                if deadline is not None and self.clock() + pause >= deadline:
                    return None  # no time left to wait: let the next provider try
                log.info("provider %s: %s, retrying in %.2fs", provider.name, error.kind, pause)
                self.sleep(pause)
            except Exception as exc:  # a provider bug must not take the broker down
                # The traceback's code lines are safe; the message may quote a value: scrubbed.
                trace = "".join(traceback.format_exception(exc))
                log.error("provider %s raised unexpectedly:\n%s", provider.name, scrub(trace))
                attempts.append(
                    Attempt(provider.name, "malformed", f"internal {type(exc).__name__}")
                )
                return None
        return None

    def _cooling_down(self, name: str) -> bool:
        with self._lock:
            until = self._cooldown_until.get(name)
            if until is None:
                return False
            if self.clock() >= until:
                del self._cooldown_until[name]
                return False
            return True

    def _cool_down(self, name: str, seconds: float) -> None:
        with self._lock:
            self._cooldown_until[name] = self.clock() + seconds


def _log_usage(name: str, purpose: str, usage: Usage | None, failed_before: int) -> None:
    """One line per answered request (one per turn): the broker's record of what each turn cost."""
    prompt = usage.prompt_tokens if usage is not None else None
    completion = usage.completion_tokens if usage is not None else None
    log.info(
        "%s answered by %s: prompt_tokens=%s completion_tokens=%s failed_attempts=%d",
        purpose,
        name,
        "?" if prompt is None else prompt,
        "?" if completion is None else completion,
        failed_before,
    )


def _offline_brain(name: str = "offline") -> Provider:
    # Lazy (and by name): the offline brain is its own module with its own rules, and only the
    # chains that use it should pay for importing it.
    module = importlib.import_module("shelldon.broker.offline")
    brain: Provider = module.OfflineBrain()
    brain.name = name  # the chain, logs and BrainReply.provider use the configured name
    return brain


def build_chain(
    config: ShelldonConfig | None,
    *,
    root: DataRoot | None = None,
    read_secret: Callable[[str], str | None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> ProviderChain:
    """The chain `shelldon.toml` describes; no providers configured → the offline brain alone.

    Keys are read here, once, at start-up (`read_secret`, default the broker's vault read): a named
    key that is missing raises ConfigError before the broker serves anything.
    """
    from shelldon.broker.providers import make_provider

    if config is None or not config.providers:
        return ProviderChain([_offline_brain()], clock=clock, sleep=sleep)
    if read_secret is None:
        read_secret = _vault_reader(root)
    providers: list[Provider] = []
    for spec in config.providers:
        if spec.kind == "offline":
            providers.append(_offline_brain(spec.name))
        else:
            providers.append(make_provider(spec, read_secret))
    return ProviderChain(providers, clock=clock, sleep=sleep)


def _vault_reader(root: DataRoot | None) -> Callable[[str], str | None]:
    from shelldon.paths import DataRoot

    # The broker's one vault read (shelldon.broker.vault, Step 3); imported by name so the chain
    # module stays importable on its own.
    surface_vault = importlib.import_module("shelldon.broker.vault").surface_vault
    resolved = root if root is not None else DataRoot.resolve()

    def read(key: str) -> str | None:
        value = surface_vault(resolved, key)
        return value if isinstance(value, str) else None

    return read
