"""OpenAI-compatible chat completions: OpenAI, OpenRouter, Groq, Gemini's OpenAI endpoint, Ollama,
llama.cpp server, vLLM. `POST {base_url}/chat/completions`, `Authorization: Bearer <key>`.

JSON output is asked for with `response_format` where the server supports it (configurable per
provider, since support varies): `json_schema` (OpenAI, OpenRouter, vLLM, llama.cpp, Ollama),
`json_object` (the widest support, the default), or `none` (the robust parser alone).
"""

from __future__ import annotations

from typing import Any

from shelldon.broker.chain import ProviderError, RawCompletion
from shelldon.broker.protocol import REPLY_JSON_SCHEMA
from shelldon.broker.providers import max_tokens
from shelldon.broker.providers.http import JsonHttpProvider, exchange_json
from shelldon.contracts.brain import CompletionRequest, Usage


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
            self.spec.max_tokens_field: max_tokens(self.spec, request),
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

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion:
        data = exchange_json(
            self.url,
            self.payload(request),
            self.headers(),
            self.spec,
            deadline=deadline,
            secrets=(self._api_key,),
        )
        return RawCompletion(text=_content(data), usage=_usage(data))


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


def _usage(data: Any) -> Usage | None:
    usage = data.get("usage") if isinstance(data, dict) else None
    if not isinstance(usage, dict):
        return None
    return Usage(
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
