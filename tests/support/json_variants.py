"""Type confusion at every place of a JSON value: each value of a well-formed message replaced in
turn by each value of another JSON type (what a broken or hostile peer can send at any door)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

OTHER_VALUES: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x", [], [1, "a"], {}, {"k": 1}]


def paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in `value`: each key of each object, each item of each array."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, (*path, index))


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of `value` with the place `path` holding `new`."""
    if not path:
        return new
    copied = copy.deepcopy(value)
    holder = copied
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return copied


def variants(value: Any) -> Iterator[Any]:
    """`value` with one place at a time holding each of OTHER_VALUES."""
    for path in paths(value):
        for new in OTHER_VALUES:
            yield replaced(value, path, new)
