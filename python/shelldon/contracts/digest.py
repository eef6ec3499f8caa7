"""A digest of one turn of real work: what a reflection reads (the spec's shape).

The request, the files changed, the last commands and how they ended, the final report, whether
the turn ended verified, and (from a host that already knows them) the facts it proposes. A
reflection proposes at most `MAX_FACTS` durable facts from it; the gate decides which survive.
The agent face's `memory_reflect` takes one (`shelldon.agent.reflect`).
"""

from __future__ import annotations

import msgspec

from shelldon.contracts.ops import CollectionName

MAX_FACTS = 5  # durable facts one reflection may propose
MAX_COMMANDS = 20  # the last commands a digest keeps


class CommandRun(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One command the turn ran and how it ended (`exit_code` None: not known)."""

    command: str
    exit_code: int | None = None
    output_tail: str = ""


class ProposedFact(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One durable fact, as a `remember` would carry it, with the files it depends on."""

    name: str
    content: str
    collection: CollectionName = "facts"
    depends_on: tuple[str, ...] = ()


class Digest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    request: str = ""
    files_changed: tuple[str, ...] = ()
    commands: tuple[CommandRun, ...] = ()
    report: str = ""
    verified: bool | None = None  # None: the turn did not say
    facts: tuple[ProposedFact, ...] = ()


class DigestError(ValueError):
    """A digest that does not fit the contract; the message says why."""


def decode_digest(raw: object) -> Digest:
    """A Digest from a parsed mapping (a tool call's argument). Raises DigestError."""
    try:
        digest = msgspec.convert(raw, Digest, strict=True)
    except msgspec.ValidationError as exc:
        raise DigestError(str(exc)) from None
    if len(digest.commands) > MAX_COMMANDS:
        digest = msgspec.structs.replace(digest, commands=digest.commands[-MAX_COMMANDS:])
    return digest
