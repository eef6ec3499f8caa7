"""What the two JSON wires (OpenAI chat completions, Anthropic messages) share: `JsonHttpProvider`,
whose `complete` is a template method (POST the wire's payload, parse the wire's answer), and the
small helpers both use (the turn's deadline as a timeout, the prompt split, usage figures).

The HTTP exchange itself (TLS, proxies, the deadline, the size cap) is `http.py`'s.
"""

from __future__ import annotations

import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import msgspec

from shelldon.broker.protocol import REPLY_FORMAT_INSTRUCTION
from shelldon.broker.providers.base import ProviderError, RawCompletion, RetryPolicy
from shelldon.broker.providers.http import SseEvent, post_json, raise_for_status
from shelldon.broker.reply_check import unusable_reason
from shelldon.broker.tools import TOOL_PURPOSES, CallResult, read_calls
from shelldon.contracts.brain import CompletionRequest, Usage
from shelldon.contracts.config import ProviderConfig
from shelldon.contracts.digest import REFLECT_MAX_TOKENS
from shelldon.contracts.reply_format import TOOL_REPLY_BLOCK, asks_for_json, for_tools

log = logging.getLogger(__name__)

# A client error about streaming itself ("stream_options", "streaming is not supported"), not
# one that merely contains the word ("upstream").
_NAMES_STREAM = re.compile(r"\bstream", re.IGNORECASE)
# Closes the outcomes the model reads when it is asked for its words after calling tools only.
WORDS_NUDGE = "Now answer your owner in plain words (no tool calls, no JSON)."


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


def split_prompt(request: CompletionRequest) -> tuple[str, str]:
    """(system text, user text): the last section is what the model answers (the owner's message,
    or the dream directive); everything before it, in binding order, is the system context."""
    sections = [s for s in request.sections if s.text]
    if not sections:
        return "", ""
    *context, last = sections
    return "\n\n".join(s.text for s in context), last.text


# More tokens than any answer holds: a figure past it is a provider's garbage, not a count (and a
# Python int of any size would not fit the wire's 64 bits).
MAX_TOKEN_COUNT = 2**40


def token_count(value: Any) -> int | None:
    """A usage figure from a provider's JSON: a non-negative int, else unknown (None)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_TOKEN_COUNT:
        return value
    return None


def usage_from(data: Any, prompt_field: str, completion_field: str) -> Usage | None:
    """The answer's `usage` object as a Usage; the two wires name its fields differently."""
    usage = data.get("usage") if isinstance(data, dict) else None
    if not isinstance(usage, dict):
        return None
    return Usage(
        prompt_tokens=token_count(usage.get(prompt_field)),
        completion_tokens=token_count(usage.get(completion_field)),
    )


def exchange_json(
    url: str,
    payload: dict[str, Any],
    headers: dict[str, str],
    spec: ProviderConfig,
    *,
    deadline: float | None,
    secrets: Iterable[str],
    assemble: Callable[[Sequence[SseEvent], bool], Any] | None = None,
) -> Any:
    """POST the JSON body within the turn's deadline, map a non-2xx answer to its ProviderError,
    and return the parsed JSON answer (a non-JSON answer is "malformed"). A streamed answer is
    folded into the unstreamed shape by `assemble` (providers.streams; a server that ignored
    `"stream": true` answers JSON, which is read as it is)."""
    secrets = tuple(secrets)
    response = post_json(
        url,
        payload,
        headers,
        timeout=call_timeout(spec.timeout, deadline),
        connect_timeout=spec.connect_timeout,
        max_bytes=spec.max_response_bytes,
        secrets=secrets,
    )
    raise_for_status(response, secrets)
    if response.events is not None:
        if assemble is None:
            raise ProviderError("malformed", "a stream where one JSON answer was expected")
        return assemble(response.events, response.complete)
    try:
        return response.json()
    except (ValueError, RecursionError):
        raise ProviderError("malformed", "the answer is not JSON", status=response.status) from None


class JsonHttpProvider(ABC):
    """One provider request in a JSON wire format: a template method.

    `complete` is the same for every wire: POST `payload(request)` with `headers()` to the
    endpoint within the turn's deadline, map a failure to its ProviderError, and hand the JSON
    answer to `parse`. A wire (openai.py, anthropic.py) sets ENDPOINT and supplies those three.
    Shared here too: the configured spec, a repr that never shows the key, and the (system, user)
    split of the prompt carrying the reply protocol.
    """

    ENDPOINT: ClassVar[str]

    def __init__(self, spec: ProviderConfig, api_key: str) -> None:
        self.name = spec.name
        self.spec = spec
        self.max_reply_chars = spec.max_reply_chars
        self.retry_policy = retry_policy(spec)
        # All attempts at this provider in one turn share its timeout (ProviderChain): a hung
        # server costs `timeout` once, not once per retry.
        self.budget_s = spec.timeout
        self.rule_based = False  # a model: its replies are checked, its forgotten ops backstopped
        self.url = spec.base_url.rstrip("/") + self.ENDPOINT
        self._api_key = api_key
        # A server that refused to stream (HTTP 400 naming it): asked unstreamed from then on.
        self.streams = True

    def __repr__(self) -> str:  # never the key
        kind = type(self).__name__
        return f"{kind}(name={self.name!r}, url={self.url!r}, model={self.spec.model!r})"

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion:
        body = self.payload(request)
        tools = self.protocol(request) == "tools"  # then ops come only as tool calls
        first = self.parse(self._exchange(body, deadline))
        first = msgspec.structs.replace(first, tools=tools)
        if not first.tool_calls or unusable_reason(first.text) is None:
            return first
        # Tool calls and no words for the owner: ask once more, the calls' outcomes in hand.
        results = read_calls(first.tool_calls, request.purpose)
        try:
            words = self.parse(self._exchange(self.words_payload(body, first, results), deadline))
        except ProviderError as error:
            log.warning(
                "provider %s: asking for words after tool calls failed: %s", self.name, error
            )
            return msgspec.structs.replace(first, requests=2)
        return RawCompletion(
            text=words.text,
            usage=_summed(first.usage, words.usage),
            tool_calls=first.tool_calls,
            cut=words.cut,
            requests=2,
            tools=tools,
        )

    def _exchange(self, body: dict[str, Any], deadline: float | None) -> Any:
        if not self.streams:
            body = _unstreamed(body)
        try:
            return self._post(body, deadline)
        except ProviderError as error:
            if not (
                body.get("stream") and error.status in (400, 422) and "stream" in error.message
            ):
                raise
        # The server refused to stream ("stream_options" unknown, streaming unsupported): ask
        # once more unstreamed, and keep to that (the call is then closed, not stopped, at its
        # deadline: docs/brain.md).
        log.warning("provider %s refused to stream; asking unstreamed from now on", self.name)
        self.streams = False
        return self._post(_unstreamed(body), deadline)

    def _post(self, body: dict[str, Any], deadline: float | None) -> Any:
        return exchange_json(
            self.url,
            body,
            {"Accept": "text/event-stream, application/json", **self.headers()},
            self.spec,
            deadline=deadline,
            secrets=(self._api_key,),
            assemble=self.assemble_stream,
        )

    @abstractmethod
    def assemble_stream(self, events: Sequence[SseEvent], complete: bool) -> Any:
        """The streamed events as the unstreamed JSON answer `parse` reads (providers.streams)."""

    def protocol(self, request: CompletionRequest) -> str:
        """How this request asks for structure: the configured protocol, except that tools serve
        only the purposes with op tools (a reflection keeps its JSON ask: `fallback_protocol`)."""
        protocol = self.spec.resolved_protocol()
        if protocol == "tools" and request.purpose not in TOOL_PURPOSES:
            return self.fallback_protocol
        return protocol

    fallback_protocol: ClassVar[str] = "plain"

    @abstractmethod
    def words_payload(
        self, body: dict[str, Any], first: RawCompletion, results: list[CallResult]
    ) -> dict[str, Any]:
        """The follow-up body: the first request, the model's tool calls, each call's outcome,
        and no further tool calls allowed."""

    @abstractmethod
    def payload(self, request: CompletionRequest) -> dict[str, Any]:
        """The request body in this wire's shape."""

    @abstractmethod
    def headers(self) -> dict[str, str]:
        """The configured headers plus this wire's key header (never logged)."""

    @abstractmethod
    def parse(self, data: Any) -> RawCompletion:
        """The model's text and usage from the JSON answer; ProviderError("malformed") if absent."""

    def max_tokens(self, request: CompletionRequest) -> int:
        """The reply's token budget: a dream writes more than a turn; a reflection at most
        REFLECT_MAX_TOKENS (the spec's limit per attempt)."""
        spec = self.spec
        if request.purpose == "reflect":
            return min(spec.dream_max_tokens, REFLECT_MAX_TOKENS)
        return spec.dream_max_tokens if request.purpose == "dream" else spec.max_tokens

    def system_and_user(self, request: CompletionRequest) -> tuple[str, str]:
        system, user = split_prompt(request)
        if self.protocol(request) == "tools":
            system, user = for_tools(system), for_tools(user)
            if TOOL_REPLY_BLOCK not in system and not asks_for_json(system):
                system = f"{system}\n\n{TOOL_REPLY_BLOCK}" if system else TOOL_REPLY_BLOCK
            return system, user
        if '"reply"' not in system:  # the worker's system instruction usually carries it
            system = (
                f"{system}\n\n{REPLY_FORMAT_INSTRUCTION}" if system else REPLY_FORMAT_INSTRUCTION
            )
        return system, user


def _unstreamed(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "stream_options"} | {"stream": False}


def _summed(first: Usage | None, second: Usage | None) -> Usage | None:
    """Both requests' usage, added field by field (unknown stays unknown)."""
    if first is None or second is None:
        return first or second

    def add(a: int | None, b: int | None) -> int | None:
        return None if a is None or b is None else a + b

    return Usage(
        add(first.prompt_tokens, second.prompt_tokens),
        add(first.completion_tokens, second.completion_tokens),
    )
