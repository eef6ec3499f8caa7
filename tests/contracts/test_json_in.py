"""JSON from outside with every string encodable (contracts.json_in)."""

from __future__ import annotations

from shelldon.contracts.json_in import loads_mended, mend_strings


def test_json_from_outside_is_mended_where_it_escapes_half_a_pair() -> None:
    body = '{"a": "half \\ud83d", "b": ["x\\udfff", {"k\\ud800": 1}], "pair": "\\ud83d\\ude00"}'
    assert loads_mended(body) == {
        "a": "half \ufffd",
        "b": ["x\ufffd", {"k\ufffd": 1}],
        "pair": "\U0001f600",  # a whole pair is an emoji, left alone
    }
    assert loads_mended(body.encode()) == loads_mended(body)
    assert mend_strings(("t", ["\ud800"])) == ["t", ["\ufffd"]]
