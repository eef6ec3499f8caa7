"""HTTP providers: OpenAI-compatible chat completions and Anthropic-compatible messages.

`make_provider(spec, read_secret)` turns one `[[provider]]` into a Provider, reading its key from
the vault once: a named key that is missing is a ConfigError at start-up, never a silent keyless
call.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from shelldon.broker.chain import Provider, RetryPolicy
from shelldon.config import ConfigError
from shelldon.contracts.brain import CompletionRequest
from shelldon.contracts.config import ProviderConfig

_HEADER_SAFE = re.compile(r"[\x21-\x7e]{1,4096}")


def make_provider(spec: ProviderConfig, read_secret: Callable[[str], str | None]) -> Provider:
    api_key = ""
    if spec.key:
        try:
            value = read_secret(spec.key)
        except PermissionError:
            raise ConfigError(
                f"provider {spec.name!r}: no permission to read vault entry {spec.key!r}; "
                "run as the service user (or root)"
            ) from None
        except (OSError, ValueError) as exc:
            # The reason is the vault's (traversal, permissions); it never holds the value.
            raise ConfigError(
                f"provider {spec.name!r}: cannot read vault entry {spec.key!r} "
                f"({type(exc).__name__})"
            ) from None
        api_key = (value or "").strip()
        if not api_key:
            raise ConfigError(
                f"provider {spec.name!r}: vault entry {spec.key!r} is missing or empty; "
                f"set it with `shelldon vault set {spec.key}`"
            )
        if not _HEADER_SAFE.fullmatch(api_key):
            # It goes into an HTTP header: a space, a line break or a non-ASCII character there is
            # a paste accident (and http.client would quote the value in its error).
            raise ConfigError(
                f"provider {spec.name!r}: vault entry {spec.key!r} does not look like an API key "
                "(spaces, line breaks or non-ASCII characters); set it again"
            )
    if spec.kind == "openai":
        from shelldon.broker.providers.openai import OpenAIProvider

        return OpenAIProvider(spec, api_key)
    if spec.kind == "anthropic":
        from shelldon.broker.providers.anthropic import AnthropicProvider

        return AnthropicProvider(spec, api_key)
    raise ConfigError(f"provider {spec.name!r}: kind {spec.kind!r} is not an HTTP provider")


def retry_policy(spec: ProviderConfig) -> RetryPolicy:
    return RetryPolicy(
        retries=spec.retries,
        backoff=spec.backoff,
        backoff_cap=spec.backoff_cap,
        retry_after_cap=spec.retry_after_cap,
    )


def call_timeout(timeout: float, deadline: float | None) -> float:
    """The provider's own timeout, cut to what is left of the turn (deadline on time.monotonic)."""
    if deadline is None:
        return timeout
    return max(0.01, min(timeout, deadline - time.monotonic()))


def max_tokens(spec: ProviderConfig, request: CompletionRequest) -> int:
    return spec.dream_max_tokens if request.purpose == "dream" else spec.max_tokens


def split_prompt(request: CompletionRequest) -> tuple[str, str]:
    """(system text, user text): the last section is what the model answers (the owner's message,
    or the dream directive); everything before it, in binding order, is the system context."""
    sections = [s for s in request.sections if s.text]
    if not sections:
        return "", ""
    *context, last = sections
    return "\n\n".join(s.text for s in context), last.text


__all__ = ["call_timeout", "make_provider", "max_tokens", "retry_policy", "split_prompt"]
