"""What every brain the broker can ask has in common: the Provider protocol, what it answers
(`RawCompletion`), how it fails (`ProviderError` and its kinds), how hard to retry it
(`RetryPolicy`), and `scrub`, which keeps keys and token-shaped text out of every message.

The chain (`shelldon.broker.chain`), the HTTP providers (`shelldon.broker.providers`), the offline
brain (`shelldon.broker.offline`) and the doctor all speak this vocabulary; it imports none of them.
Messages carried by ProviderError are written for logs: they never hold a key, a prompt or a reply
body.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

from shelldon.contracts.brain import CompletionRequest, Usage

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


class ToolCall(msgspec.Struct, frozen=True):
    """One native tool call as a wire carried it: OpenAI's `arguments` is a JSON string (which
    the model may have got wrong), Anthropic's `input` an object; `id` pairs it with its result."""

    id: str
    name: str
    arguments: str | dict[str, Any]


class RawCompletion(msgspec.Struct, frozen=True):
    """What a provider answered: the model's text (the reply protocol, unparsed, or plain text
    beside tool calls), its tool calls, its usage, and whether the token budget cut it short
    (`cut`: OpenAI's finish_reason "length", Anthropic's stop_reason "max_tokens").

    `requests` counts the HTTP requests it took (2 when the model was asked for its words after
    answering only tool calls). `tools`: the request offered the ops as native tools, so ops come
    only as tool calls; JSON in the text that imitates the reply protocol is never read as ops."""

    text: str
    usage: Usage | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    cut: bool = False
    requests: int = 1
    tools: bool = False


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


@runtime_checkable
class Provider(Protocol):
    """A brain, with everything the chain reads of it (broker.chain names no other attribute).

    `rule_based` is true for the offline brain only. `max_reply_chars`, `budget_s` and
    `retry_policy` are None where the provider sets no limit of its own (the request's limit, the
    turn's deadline and the chain's default policy apply).
    `deadline` is the monotonic time the call must end by; a provider that cannot bound its own
    call (the offline brain, which answers at once) ignores it."""

    @property
    def name(self) -> str: ...
    @property
    def max_reply_chars(self) -> int | None: ...
    @property
    def budget_s(self) -> float | None: ...
    @property
    def retry_policy(self) -> RetryPolicy | None: ...
    @property
    def rule_based(self) -> bool:
        """The offline brain: the chain's backstop (broker.answer) is these rules already."""
        ...

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion: ...


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
