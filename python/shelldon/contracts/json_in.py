"""JSON that came from outside (a provider, the Bot API, a model's reply, a tool call's
arguments), with every string made encodable.

JSON is valid with half an emoji escaped in it ("\\ud83d"), and Python's parser turns that
into a lone surrogate, which no UTF-8 encoder takes: the string would fail the first socket frame
or sqlite row it reaches (a Telegram update that did so failed every poll for ever).
`loads_mended` and `mend_strings` make each such string U+FFFD at the edge
(contracts.text.repair_surrogates). Apart from contracts.text so that `shelldon say`, which loads
that one, imports no json.
"""

from __future__ import annotations

import json
import re
from typing import Any

from shelldon.contracts.text import repair_surrogates

# A JSON escape of a surrogate ("\ud83d"): only a text holding one can parse to a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def mend_strings(value: Any) -> Any:
    """`value` (parsed JSON, or a message as builtins: dicts, lists and tuples, strings, numbers)
    with every string made encodable
    (`repair_surrogates`): JSON is valid with half an emoji ("\\ud83d") escaped in it, and no
    UTF-8 encoder, so no socket and no sqlite row, takes the string it parses to. Raises
    ValueError for nesting deeper than Python recurses (the caller's malformed input)."""
    try:
        return _mended(value)
    except RecursionError:
        raise ValueError("nested too deep") from None


def loads_mended(text: str | bytes) -> Any:
    """`json.loads`, with `mend_strings` applied when the text escapes a surrogate at all (the
    common text pays one search). Raises ValueError as json.loads does."""
    value = json.loads(text)
    raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return mend_strings(value) if _SURROGATE_ESCAPE.search(raw) else value


def _mended(value: Any) -> Any:
    if isinstance(value, str):
        return repair_surrogates(value)
    if isinstance(value, dict):
        return {_mended(k): _mended(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_mended(v) for v in value]
    return value
