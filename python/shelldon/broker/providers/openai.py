"""OpenAI-compatible chat completions: OpenAI, OpenRouter, Groq, Gemini's OpenAI endpoint, Ollama,
llama.cpp server, vLLM. `POST {base_url}/chat/completions`, `Authorization: Bearer <key>`.

JSON output is asked for with `response_format` where the server supports it (configurable per
provider, since support varies): `json_schema` (OpenAI, OpenRouter, vLLM, llama.cpp, Ollama),
`json_object` (the widest support, the default), or `none` (the robust parser alone).
"""

from __future__ import annotations

from typing import Any

from shelldon.broker.protocol import REPLY_JSON_SCHEMA
from shelldon.broker.providers.base import ProviderError, RawCompletion
from shelldon.broker.providers.json_http import JsonHttpProvider, usage_from
from shelldon.contracts.brain import CompletionRequest


class OpenAIProvider(JsonHttpProvider):
    ENDPOINT = "/chat/completions"

    def payload(self, request: CompletionRequest) -> dict[str, Any]:
        system, user = self.system_and_user(request)
        body: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            self.spec.max_tokens_field: self.max_tokens(request),
            "stream": False,
        }
        if self.spec.temperature is not None:
            body["temperature"] = self.spec.temperature
        if self.spec.response_format == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "shelldon_reply", "schema": REPLY_JSON_SCHEMA},
            }
        elif self.spec.response_format == "json_object":
            body["response_format"] = {"type": "json_object"}
        return body

    def headers(self) -> dict[str, str]:
        headers = dict(self.spec.headers)
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def parse(self, data: Any) -> RawCompletion:
        return RawCompletion(
            text=_content(data), usage=usage_from(data, "prompt_tokens", "completion_tokens")
        )


def _content(data: Any) -> str:
    try:
        message = data["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        raise ProviderError("malformed", "no choices[0].message in the answer") from None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):  # some servers send content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    if not isinstance(content, str):
        refusal = message.get("refusal") if isinstance(message, dict) else None
        reason = "a refusal" if refusal else "no text content"
        raise ProviderError("malformed", f"the answer has {reason}")
    return content
