"""Near-miss op shapes a small model writes, put in the contract's own shape before core decodes
each op strictly (contracts.ops). Only spellings of the same thing, never a new meaning:

- the op's tag under another key ("type", "action", "kind") or wrapped (`{"remember": {…}}`),
  or in another case ("Remember");
- a collection in another case or number ("Facts", "fact", "person", "preference");
- a field under a common synonym, only when the contract's own name is absent: "title" for a
  remember's or forget's `name`; "text", "fact", "value" for a remember's `content`; "message"
  for a reminder's `text`.

Anything else is left as the model wrote it, and core refuses it with its reason. Each reshape is
logged by the broker (field and tag names, never the op's text); nothing is refused by it, so the
audit log has no line for it. Every op still passes
the gate in core: a reshaped op is exactly as safe as one written right.
"""

from __future__ import annotations

from typing import Any, Final, get_args

from shelldon.contracts.ops import CollectionName, Op

OP_TAGS: Final = frozenset(str(t.__struct_config__.tag) for t in get_args(Op))
_TAG_KEYS: Final = ("type", "action", "kind")
_COLLECTIONS: Final = frozenset(get_args(CollectionName))
_COLLECTION_SPELLINGS: Final = {
    "fact": "facts",
    "person": "people",
    "persons": "people",
    "preference": "preferences",
    "capability": "capabilities",
}
# (op tag, the contract's field, the synonyms a model writes for it)
_SYNONYMS: Final = (
    ("remember", "name", ("title",)),
    ("forget", "name", ("title",)),
    ("remember", "content", ("text", "fact", "value")),
    ("remind", "text", ("message",)),
)


def reshaped(raw: Any) -> tuple[Any, list[str]]:
    """`raw` in the contract's shape where it was a near miss, and what was changed (field and
    tag names only: never the op's text)."""
    if not isinstance(raw, dict):
        return raw, []
    changes: list[str] = []
    op = dict(raw)
    if "op" not in op:
        op, how = _tag_found(op)
        if how:
            changes.append(how)
    tag = op.get("op")
    if isinstance(tag, str) and tag not in OP_TAGS and tag.strip().lower() in OP_TAGS:
        op["op"] = tag = tag.strip().lower()
        changes.append("op tag lower-cased")
    collection = op.get("collection")
    if isinstance(collection, str) and collection not in _COLLECTIONS:
        word = collection.strip().lower()
        fixed = word if word in _COLLECTIONS else _COLLECTION_SPELLINGS.get(word)
        if fixed is not None:
            op["collection"] = fixed
            changes.append(f"collection spelled as {fixed!r}")
    for op_tag, field, synonyms in _SYNONYMS:
        if tag != op_tag or field in op:
            continue
        found = [s for s in synonyms if s in op]
        if len(found) == 1:  # two synonyms: which one is meant is a guess; core refuses it
            op[field] = op.pop(found[0])
            changes.append(f"{found[0]!r} read as {field!r}")
    return op, changes


def _tag_found(op: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The tag under another key, or the op wrapped in a one-key object named by its tag."""
    for key in _TAG_KEYS:
        value = op.get(key)
        if isinstance(value, str) and value.strip().lower() in OP_TAGS:
            rest = {k: v for k, v in op.items() if k != key}
            return {"op": value.strip().lower(), **rest}, f"op tag read from {key!r}"
    if len(op) == 1:
        ((key, inner),) = op.items()
        tag = key.strip().lower() if isinstance(key, str) else ""
        if tag in OP_TAGS and isinstance(inner, dict) and "op" not in inner:
            return {"op": tag, **inner}, "op unwrapped from its tag"
    return op, ""
