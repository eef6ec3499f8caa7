"""The broker's ordered provider chain: fallback, bounded retries, then the reply parser.

A provider turns a CompletionRequest into raw text (`RawCompletion`; the vocabulary lives in
`shelldon.broker.providers.base`); the chain walks its providers in order, retries a provider only
for transient failures (connect, timeout, 429, 5xx) with backoff that honours a capped Retry-After,
moves on for everything else, and parses the first answer into a BrainReply. When every provider
failed it raises ChainExhausted: the turn gets the degrade reply.

Time: the turn's deadline is shared down the chain. A provider's attempts together get at most its
own `budget_s` (an HTTP provider's configured `timeout`), and never the time the providers after it
need: `RESERVE_PER_PROVIDER_S` each (at most half of what is left), so a hung first provider
still leaves the offline brain its few seconds to answer within the turn.

What did not answer travels with the answer (`BrainReply.failures`, `ChainExhausted.failures`) so
core can tell the owner that the model link is down, and why.

Messages carried by ProviderError / ChainExhausted are written for logs: they never hold a key, a
prompt or a reply body (the HTTP providers scrub what they quote from a server). The broker builds
its chain from shelldon.toml with `shelldon.broker.server.build_chain`.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from shelldon import digests
from shelldon.broker.answer import Unusable, read_answer
from shelldon.broker.providers.base import (
    RETRYABLE_KINDS,
    Provider,
    ProviderError,
    RawCompletion,
    RetryPolicy,
    scrub,
)
from shelldon.contracts.brain import BrainReply, CompletionRequest, LinkFailure, Usage
from shelldon.contracts.config import RESERVE_PER_PROVIDER_S

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Attempt:
    """One provider call that failed, for ChainExhausted and the logs."""

    provider: str
    kind: str
    message: str
    status: int | None = None

    def failure(self) -> LinkFailure:
        """As the owner is told about it: a refused key (401/403) is its own kind, "auth"."""
        kind = "auth" if self.status in (401, 403) else self.kind
        return LinkFailure(self.provider, kind, self.status, self.message[:200])


def failures_of(attempts: Sequence[Attempt]) -> tuple[LinkFailure, ...]:
    """One LinkFailure per provider (its last attempt's), in chain order."""
    last: dict[str, LinkFailure] = {}
    for attempt in attempts:
        last[attempt.provider] = attempt.failure()
    return tuple(last.values())


class ChainExhausted(Exception):
    """Every provider failed (or was cooling down). The turn gets the degrade reply."""

    def __init__(self, attempts: Sequence[Attempt]) -> None:
        self.attempts = tuple(attempts)
        self.failures = failures_of(self.attempts)
        detail = "; ".join(f"{a.provider}: {a.kind} ({a.message})" for a in self.attempts)
        super().__init__(f"every provider failed: {detail or 'the chain is empty'}")


# Below this much time left, calling a provider is pointless: move on (or give up) at once.
MIN_CALL_SECONDS = 0.05
# Kept back from a provider for each provider after it (shelldon.contracts.config, where the
# config's check of timeouts against the turn reads it too): an HTTP fallback gets this at least,
# and whatever the first one left.


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
    jitter: Callable[[], float] = digests.fraction
    max_ops: int = 16
    # A dream resolves up to 20 learnings, two ops per promotion, plus its summary (core.dream
    # applies at most DreamLimits.max_ops of them under its own caps).
    max_dream_ops: int = 48
    # Providers left out when the chain was built (a key not stored yet): told like a failure.
    skipped: tuple[Attempt, ...] = ()
    _cooldown_until: dict[str, float] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.providers)

    def complete(self, request: CompletionRequest, *, deadline: float | None = None) -> BrainReply:
        """The first provider's parsed answer; `deadline` (on `clock`) bounds the retry pauses.

        Raises ChainExhausted when nobody answered.
        """
        attempts: list[Attempt] = list(self.skipped)
        for index, provider in enumerate(self.providers):
            if self._cooling_down(provider.name):
                attempts.append(
                    Attempt(provider.name, "cooldown", "skipped after a long Retry-After")
                )
                continue
            share = self._deadline_for(provider, len(self.providers) - index - 1, deadline)
            raw = self._try_provider(provider, request, attempts, share)
            if raw is None:
                continue
            limit = provider.max_reply_chars or request.max_reply_chars
            try:
                reply = read_answer(
                    raw,
                    request,
                    provider=provider.name,
                    max_reply_chars=min(request.max_reply_chars, limit),
                    max_ops=self.max_dream_ops if request.purpose == "dream" else self.max_ops,
                    offline_provider=provider.rule_based,
                )
            except Unusable as refused:
                # Never shown, never stored: the next provider may do better (the offline last).
                attempts.append(
                    Attempt(provider.name, "malformed", f"unusable reply: {refused.reason}")
                )
                log.warning(
                    "provider %s: unusable reply (%s); trying the next",
                    provider.name,
                    refused.reason,
                )
                continue
            if reply.dropped:
                log.info(
                    "provider %s: reply parser dropped: %s", provider.name, "; ".join(reply.dropped)
                )
            _log_usage(provider.name, request.purpose, reply.usage, len(attempts))
            if attempts:
                reply = msgspec.structs.replace(reply, failures=failures_of(attempts))
            return reply
        exhausted = ChainExhausted(attempts)
        log.error("%s", exhausted)
        raise exhausted

    def _deadline_for(self, provider: Provider, after: int, deadline: float | None) -> float | None:
        """When this provider's attempts must be done: its own budget, and the turn's deadline
        less what the `after` providers behind it are kept (at most half of what is left)."""
        now = self.clock()
        ends: list[float] = []
        budget = provider.budget_s
        if budget is not None and budget > 0:
            ends.append(now + float(budget))
        if deadline is not None:
            reserve = min(RESERVE_PER_PROVIDER_S * after, (deadline - now) / 2) if after else 0.0
            ends.append(deadline - reserve)
        return min(ends) if ends else None

    def _try_provider(
        self,
        provider: Provider,
        request: CompletionRequest,
        attempts: list[Attempt],
        deadline: float | None,
    ) -> RawCompletion | None:
        policy = self.policies.get(provider.name) or provider.retry_policy or self.default_policy
        for attempt in range(policy.retries + 1):
            if deadline is not None and deadline - self.clock() < MIN_CALL_SECONDS:
                attempts.append(Attempt(provider.name, "timeout", "no time left in the turn"))
                return None
            try:
                return provider.complete(request, deadline=deadline)
            except ProviderError as error:
                attempts.append(Attempt(provider.name, error.kind, error.message, error.status))
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
