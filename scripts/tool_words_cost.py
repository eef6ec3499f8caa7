"""What the second request costs when a model answers a turn with tool calls only (docs/brain.md).

A typical turn's prompt (the real system instruction, a directive, about, twelve rows of recent
conversation, the owner's local time) goes through each HTTP provider at the fake on 127.0.0.1;
the fake answers two tool calls with no text, then words. Printed per wire: the bytes of the first
request, of its tools, of the second request, and what the second adds over the first; a token
estimate at 4 bytes a token (the providers' own counts depend on the model's tokenizer).

    .venv/bin/python scripts/tool_words_cost.py
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests")]

from fakes.fake_provider import FakeProvider, call, raw, tool_calls  # noqa: E402
from shelldon.broker.chain import ProviderChain  # noqa: E402
from shelldon.worker.prompt import HistoryRow, PromptContext, assemble_prompt  # noqa: E402
from support.providers import http_provider  # noqa: E402

ROWS = [
    "I started a new job at the library last week.",
    "That sounds lovely! How is it going so far?",
    "Good, but the early shifts are hard. I get up at six.",
    "Six is early! Do you have a morning routine that helps?",
    "Coffee, then a short walk with the dog.",
    "A walk with the dog sounds like a great start. What's the dog's name?",
    "Her name is Biscuit, she's a beagle.",
    "Biscuit the beagle! I'll remember her.",
    "My sister Ana visits on Sunday.",
    "How nice. Are you planning anything together?",
    "Maybe the market, she loves the flower stalls.",
    "The flower stalls sound wonderful.",
]


def main() -> int:
    recent = tuple(
        HistoryRow(i + 1, "owner" if i % 2 == 0 else "pet", text) for i, text in enumerate(ROWS)
    )
    ctx = PromptContext(
        directive="Be kind. Keep answers short.",
        about="I am shelldon, a pocket pet. My owner works at a library.",
        recent=recent,
        now=datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
    )
    request = assemble_prompt(ctx, "remind me to call Ana tomorrow at 9, and I love jasmine tea")
    remember = {
        "collection": "preferences",
        "name": "tea",
        "content": "The owner loves jasmine tea.",
    }
    remind = {"text": "call Ana", "at": "2026-12-02T09:00"}
    with FakeProvider() as fake:
        for kind in ("openai", "anthropic"):
            fake.script(
                tool_calls(call("remind", remind), call("remember", remember)),
                raw("I'll remind you to call Ana tomorrow at 9, and jasmine tea, noted!"),
            )
            ProviderChain([http_provider(fake, kind, key="")]).complete(request)
            first, second = fake.requests[-2:]
            tools = len(json.dumps(first.json["tools"]).encode())
            added = len(second.body) - len(first.body)
            print(
                f"{kind}: first request {len(first.body)} B (tools {tools} B), second "
                f"{len(second.body)} B (+{added} B over the first: ~{added // 4} tokens new to "
                f"a prefix cache, ~{len(second.body) // 4} without one), one more round trip"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
