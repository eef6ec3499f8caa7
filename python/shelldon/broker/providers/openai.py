"""OpenAI-compatible chat completions: OpenAI, OpenRouter, Groq, Gemini's OpenAI endpoint, Ollama,
llama.cpp server, vLLM. `POST {base_url}/chat/completions`, `Authorization: Bearer <key>`.

JSON output is asked for with `response_format` where the server supports it (configurable per
provider, since support varies): `json_schema` (OpenAI, OpenRouter, vLLM, llama.cpp, Ollama),
`json_object` (the widest support, the default), or `none` (the robust parser alone).
"""

from __future__ import annotations

from typing import Any

from shelldon.broker.chain import ProviderError, RawCompletion
from shelldon.broker.protocol import REPLY_FORMAT_INSTRUCTION, REPLY_JSON_SCHEMA
from shelldon.broker.providers import max_tokens, retry_policy, split_prompt
from shelldon.broker.providers.http import exchange_json
from shelldon.contracts.brain import CompletionRequest, Usage
from shelldon.contracts.config import ProviderConfig


class OpenAIProvider:
    def __init__(self, spec: ProviderConfig, api_key: str) -> None:
        self.name = spec.name
        self.spec = spec
        self.max_reply_chars = spec.max_reply_chars
        self.retry_policy = retry_policy(spec)
        self.honours_deadline = True  # complete() takes the turn's deadline (ProviderChain)
        self.url = spec.base_url.rstrip("/") + "/chat/completions"
        self._api_key = api_key

    def __repr__(self) -> str:  # never the key
        return f"OpenAIProvider(name={self.name!r}, url={self.url!r}, model={self.spec.model!r})"

    def payload(self, request: CompletionRequest) -> dict[str, Any]:
        system, user = split_prompt(request)
        if '"reply"' not in system:  # the worker's system instruction usually carries it
            system = (
                f"{system}\n\n{REPLY_FORMAT_INSTRUCTION}" if system else REPLY_FORMAT_INSTRUCTION
            )
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
