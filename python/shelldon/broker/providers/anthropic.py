"""Anthropic-compatible messages: `POST {base_url}/messages` with `x-api-key` and
`anthropic-version`. The format has no JSON mode: the system prompt carries the reply protocol and
the robust parser does the rest.
"""

from __future__ import annotations

from typing import Any

from shelldon.broker.chain import ProviderError, RawCompletion
from shelldon.broker.providers import max_tokens
from shelldon.broker.providers.http import JsonHttpProvider, exchange_json
from shelldon.broker.providers.openai import _int
from shelldon.contracts.brain import CompletionRequest, Usage


class AnthropicProvider(JsonHttpProvider):
    ENDPOINT = "/messages"

    def payload(self, request: CompletionRequest) -> dict[str, Any]:
        system, user = self.system_and_user(request)
        body: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": max_tokens(self.spec, request),
            "system": system,
            "messages": [{"role": "user", "content": user or "(no message)"}],
        }
        if self.spec.temperature is not None:
            body["temperature"] = min(self.spec.temperature, 1.0)
        return body

    def headers(self) -> dict[str, str]:
        headers = dict(self.spec.headers)
        headers["anthropic-version"] = self.spec.anthropic_version
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return headers

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion:
        # Anthropic's "overloaded" is 529: a 5xx, so it falls back like any server error.
        data = exchange_json(
            self.url,
            self.payload(request),
            self.headers(),
            self.spec,
            deadline=deadline,
            secrets=(self._api_key,),
        )
        return RawCompletion(text=_text(data), usage=_usage(data))


def _text(data: Any) -> str:
    blocks = data.get("content") if isinstance(data, dict) else None
    if not isinstance(blocks, list):
        raise ProviderError("malformed", "no content blocks in the answer")
    texts = [
        block["text"]
        for block in blocks
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    if not texts:
        raise ProviderError("malformed", "the answer has no text block")
    return "".join(texts)


def _usage(data: Any) -> Usage | None:
    usage = data.get("usage") if isinstance(data, dict) else None
    if not isinstance(usage, dict):
        return None
    return Usage(
        prompt_tokens=_int(usage.get("input_tokens")),
        completion_tokens=_int(usage.get("output_tokens")),
    )
