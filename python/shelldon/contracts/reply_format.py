"""How a brain is asked to answer: the JSON reply protocol's instruction, and what replaces it
when a provider speaks native tool calls (shelldon.broker.tools).

The worker's system instruction and the dream's directive embed the JSON asks below verbatim; a
provider whose `protocol` is "tools" swaps each for its tool-call counterpart with `for_tools`, so
a model is never told two protocols at once. Exact constants rather than a pattern: the swap is a
plain replace, and tests/broker/test_tool_calls.py checks that every prompt that carries an
ask has it swapped.
"""

from __future__ import annotations

JSON_REPLY_BLOCK = """\
Answer with exactly one JSON object and nothing else:
{"reply": "<what you say to your owner>", "ops": [<zero or more ops>]}

"ops" proposes changes to your memory; the core decides what is kept, so propose only what the \
conversation supports, in your own words, one fact per op. The ops you may propose:
{"op": "remember", "collection": "facts" | "people" | "preferences" | "capabilities", \
"name": "<short title>", "content": "<one complete sentence>", "depends_on": ["<a file it \
depends on>"] (optional)}
{"op": "forget", "collection": "<collection>", "name": "<the entry's name after the slash>"} \
when a memory entry is wrong or the owner asks you to drop it (what the owner stated stays)
{"op": "rewrite_about", "content": "<your whole self-summary>"}
{"op": "log_episode", "content": "<what happened>", "tags": ["<tag>"]}
{"op": "capture_learning", "observation": "<a private observation worth consolidating later>", \
"pattern_key": "<a short stable key, the same each time you notice the same thing>"}
{"op": "remind", "text": "<what to remind the owner of>", "in_seconds": <seconds from now>} or \
{"op": "remind", "text": "...", "at": "<YYYY-MM-DDTHH:MM, the owner's local time>", \
"repeat": "daily" | "weekly" (optional)} when the owner asks to be reminded; resolve "tomorrow \
at 9" or "every Monday at 8" against the local time under "# Now", and say when in your reply
{"op": "rewrite_summary", "content": "<the running conversation summary>"} (dreams only)
{"op": "resolve_learning", "id": <learning id>, "status": "promoted" | "pruned"} (dreams only)
Never put passwords, keys or other secrets in an op. DIRECTIVE.md is the owner's and is not yours \
to write."""

TOOL_REPLY_BLOCK = """\
Answer your owner in plain words: no JSON, no braces, no template. To change your memory, call \
the tools you are given; the core decides what is kept, so propose only what the conversation \
supports, in your own words, one fact per call: remember for a lasting fact about your owner, \
the people around them, their preferences or your capabilities; forget when an entry is wrong or \
the owner asks you to drop it; capture_learning for a private observation worth consolidating \
later; remind when the owner asks to be reminded (resolve "tomorrow at 9" or "every Monday at 8" \
against the local time under "# Now", and say when in your reply). Always say something to your \
owner as well. Never put passwords, keys or other secrets in a call. DIRECTIVE.md is the owner's \
and is not yours to write."""

DREAM_JSON_ASK = (
    'Answer with one JSON object {"reply": "<one short sentence for your owner>", "ops": [...]}.'
)
DREAM_TOOL_ASK = (
    "Write one short sentence for your owner as your answer, and make every change by calling "
    "the tools (remember, rewrite_about, resolve_learning, merge, rewrite_summary)."
)

_SWAPS: tuple[tuple[str, str], ...] = (
    (JSON_REPLY_BLOCK, TOOL_REPLY_BLOCK),
    (DREAM_JSON_ASK, DREAM_TOOL_ASK),
)


def for_tools(text: str) -> str:
    """`text` with every JSON-protocol ask replaced by its tool-call counterpart."""
    for json_ask, tool_ask in _SWAPS:
        text = text.replace(json_ask, tool_ask)
    return text


def asks_for_json(text: str) -> bool:
    """Does `text` carry one of the JSON asks (what `for_tools` would swap)?"""
    return any(json_ask in text for json_ask, _ in _SWAPS)
