"""Anthropic-compatible messages: `POST {base_url}/messages` with `x-api-key` and
`anthropic-version`. The format has no JSON mode: the system prompt carries the reply protocol and
the robust parser does the rest. Anthropic's "overloaded" is 529: a 5xx, so it falls back like any
server error.
"""

from __future__ import annotations

from typing import Any

from shelldon.broker.providers.base import ProviderError, RawCompletion
from shelldon.broker.providers.json_http import JsonHttpProvider, usage_from
from shelldon.contracts.brain import CompletionRequest


class AnthropicProvider(JsonHttpProvider):
    ENDPOINT = "/messages"

    def payload(self, request: CompletionRequest) -> dict[str, Any]:
        system, user = self.system_and_user(request)
        body: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": self.max_tokens(request),
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

    def parse(self, data: Any) -> RawCompletion:
        return RawCompletion(
            text=_text(data), usage=usage_from(data, "input_tokens", "output_tokens")
        )


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
