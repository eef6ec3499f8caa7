"""An op's name is its wire tag, and the collections are listed once."""

from __future__ import annotations

import typing

import msgspec

from shelldon import paths
from shelldon.contracts.ops import COLLECTION_NAMES, CollectionName, Op, decode_op, op_name

SAMPLES: list[dict[str, object]] = [
    {"op": "rewrite_about", "content": "x"},
    {"op": "remember", "collection": "facts", "name": "n", "content": "x"},
    {"op": "log_episode", "content": "x"},
    {"op": "rewrite_summary", "content": "x"},
    {"op": "capture_learning", "observation": "x"},
    {"op": "resolve_learning", "id": 1, "status": "pruned"},
    {"op": "merge", "collection": "facts", "sources": ["a", "b"], "content": "x"},
    {"op": "remind", "text": "call mum", "in_seconds": 1200},
    {"op": "forget", "collection": "facts", "name": "n"},
]


def test_every_op_is_named_by_its_wire_tag() -> None:
    decoded = [decode_op(raw) for raw in SAMPLES]
    assert {type(op) for op in decoded} == set(typing.get_args(Op))  # every kind of op, once
    for raw, op in zip(SAMPLES, decoded, strict=True):
        assert op_name(op) == raw["op"] == type(op).__struct_config__.tag


def test_what_is_not_an_op_is_named_by_its_type() -> None:
    class Stray(msgspec.Struct):
        pass

    assert op_name("remember") == "str"
    assert op_name(Stray()) == "Stray"


def test_the_collections_are_the_ones_an_op_may_name() -> None:
    assert COLLECTION_NAMES == ("facts", "people", "preferences", "capabilities")
    assert typing.get_args(CollectionName) == COLLECTION_NAMES
    assert not hasattr(paths, "COLLECTIONS")  # one list, in contracts
