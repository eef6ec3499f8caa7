"""HTTP providers: OpenAI-compatible chat completions and Anthropic-compatible messages.

`make_provider(spec, read_secret)` turns one `[[provider]]` into a Provider, reading its key from
the vault once: a named key that is missing is `MissingKey` (the broker skips that provider until
the key is stored), never a silent keyless call. What every provider shares is in `base.py`;
what the two HTTP wires share, in `http.py` (imported only when a chain has an HTTP provider:
http.client and ssl cost the broker RSS).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shelldon.broker.providers.base import Provider
from shelldon.config import ConfigError
from shelldon.contracts.config import ProviderConfig

_HEADER_SAFE = re.compile(r"[\x21-\x7e]{1,4096}")


class MissingKey(ConfigError):
    """The provider's vault entry is not stored (or empty): the chain is built without it."""

    def __init__(self, spec: ProviderConfig) -> None:
        super().__init__(
            f"provider {spec.name!r}: vault entry {spec.key!r} is missing or empty; "
            f"set it with `shelldon vault set {spec.key}`"
        )
        self.provider = spec.name
        self.key = spec.key


def make_provider(spec: ProviderConfig, read_secret: Callable[[str], str | None]) -> Provider:
    api_key = read_api_key(spec, read_secret)
    if spec.kind == "openai":
        from shelldon.broker.providers.openai import OpenAIProvider

        return OpenAIProvider(spec, api_key)
    if spec.kind == "anthropic":
        from shelldon.broker.providers.anthropic import AnthropicProvider

        return AnthropicProvider(spec, api_key)
    raise ConfigError(f"provider {spec.name!r}: kind {spec.kind!r} is not an HTTP provider")


def read_api_key(spec: ProviderConfig, read_secret: Callable[[str], str | None]) -> str:
    """The provider's key from the vault ("" when it names none). MissingKey when the entry is not
    stored; ConfigError when it cannot be read or is not header-safe. Chat completions and the
    audio endpoints (broker.transcribe, broker.speech) read keys the same way."""
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
            raise MissingKey(spec)
        if not _HEADER_SAFE.fullmatch(api_key):
            # It goes into an HTTP header: a space, a line break or a non-ASCII character there is
            # a paste accident (and http.client would quote the value in its error).
            raise ConfigError(
                f"provider {spec.name!r}: vault entry {spec.key!r} does not look like an API key "
                "(spaces, line breaks or non-ASCII characters); set it again"
            )
    return api_key
