"""`decide(candidate, existing, limits)`: the one pure function that decides every durable write.

It returns a `Decision` (create, update, skip or reject), the entry it targets, a reason code, a
reason a person understands, what it supersedes, and flags. It reads nothing and writes nothing:
the caller (core.memory) applies the decision and audits it.

Checks run in a fixed order and the first that settles the candidate wins. Each stage is one
function below, in this order:

1. safety      credential-shaped text, instruction-shaped text, too short / too long  -> reject
2. provenance  owner > observed > inferred. A lower provenance never replaces or revises a higher
               one (an inference revising an owner entry is rejected; one revising an observed
               entry is skipped). The owner restating a rule with a new value supersedes the old
               rule (kept, marked superseded by the caller).
3. exact       the same text after normalisation already exists                     -> skip
4. near        token-set similarity (Rust) over the threshold and no veto: a better
               candidate updates the entry, one that is no better is skipped. A swapped negation,
               number or proper noun vetoes "duplicate", and so does a swapped identifier (a
               path, a name: gate.identifiers): those are two facts. A text whose only change
               is a value ("two minutes" -> "five") updates the entry (`value_updated`).
5. caps        a full collection skips with the `collection_full` flag (the dream consolidates);
               a full index (MEMORY.md lines/bytes) skips with `index_full`. A merge that does
               not grow the collection is admitted.

A merge (`Candidate.merges`) takes the same path with stages of its own in the middle: it must
name active entries, may not merge away what the owner stated unless the owner asks, and its text
may not already exist outside what it merges.

Over 400 lines: this is the gate's whole policy, stage after stage, and most of it is
the reasons it gives. Split further, following one decision would mean reading several files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import msgspec

from shelldon._native import similarity_batch
from shelldon.contracts.provenance import Provenance, outranks
from shelldon.core.gate.authority import (
    ROLE_CLAIM_RULE,
    namings,
    narrowed_rule,
    opposed_rule,
    owner_named,
    reads_as_rule,
    renamed_owner,
    role_claim,
    said_by_owner,
)
from shelldon.core.gate.identifiers import (
    drops_only_naming,
    identifier_swapped,
    only_values_differ,
    subject_swapped,
)
from shelldon.core.gate.learned import LEXICAL_RULE_ID
from shelldon.core.gate.model import (
    BAD_MERGE,
    COLLECTION_FULL,
    CONFIRMED,
    CREATED,
    DEFAULT_LIMITS,
    DUPLICATE,
    FLAG_COLLECTION_FULL,
    FLAG_INDEX_FULL,
    IMPROVED,
    INDEX_FULL,
    INSTRUCTION,
    LOWER_PROVENANCE,
    MERGED,
    NEAR_DUPLICATE,
    OWNER_PROTECTED,
    OWNER_RESTATED,
    REVISED,
    TOO_LONG,
    TOO_SHORT,
    VALUE_UPDATED,
    Candidate,
    Decision,
    ExistingEntry,
    Limits,
)
from shelldon.core.gate.normalise import normalise_for_compare, normalise_for_rules, written_words
from shelldon.core.gate.own_tasks import owner_may_keep
from shelldon.core.gate.screen import screen_text
from shelldon.core.reasons import ReasonCode


def decide(
    candidate: Candidate,
    existing: Sequence[ExistingEntry],
    limits: Limits = DEFAULT_LIMITS,
) -> Decision:
    """Decide one candidate write against the current entries. Pure: no I/O, no clock."""
    write = _Write(candidate, existing, limits)
    stages: tuple[Callable[[_Write], Decision | None], ...]
    if candidate.merges:
        stages = (_safety, _merge_targets, _merge_provenance, _merge_duplicate, _caps)
    else:
        stages = (_safety, _provenance, _exact_duplicate, _near_duplicate, _caps)
    for stage in stages:
        decision = stage(write)
        if decision is not None:
            return decision
    return _admit(write)


@dataclass(frozen=True, slots=True)
class _Match:
    """How close an active entry's body is to the candidate's (`_native.similarity_batch`)."""

    entry: ExistingEntry
    score: float
    veto: str
    added: int
    dropped: int


class _Write:
    """One candidate against the stored entries, with what several stages read worked out once,
    when first read (an unsafe candidate or a merge never needs the similarity scores)."""

    def __init__(
        self, candidate: Candidate, existing: Sequence[ExistingEntry], limits: Limits
    ) -> None:
        self.candidate = candidate
        self.existing = existing
        self.limits = limits
        self.is_owner = candidate.provenance == "owner"

    @cached_property
    def active(self) -> list[ExistingEntry]:
        return [e for e in self.existing if e.status == "active"]

    @cached_property
    def norm(self) -> str:
        """The candidate's body as exact-duplicate comparison sees it."""
        return normalise_for_compare(self.candidate.body)

    @cached_property
    def named(self) -> ExistingEntry | None:
        """The active entry the writer addressed by stem, if any."""
        if self.candidate.stem is None:
            return None
        return next(
            (
                e
                for e in self.active
                if e.collection == self.candidate.collection and e.stem == self.candidate.stem
            ),
            None,
        )

    @cached_property
    def matches(self) -> list[_Match]:
        if not self.active:
            return []
        scores = similarity_batch(self.candidate.body, [e.body for e in self.active])
        return [
            _Match(entry, c.score, c.veto, c.added, c.dropped)
            for entry, c in zip(self.active, scores, strict=True)
        ]

    @cached_property
    def near(self) -> list[_Match]:
        """Matches over the near-duplicate threshold, closest first."""
        return sorted(
            (m for m in self.matches if m.score >= self.limits.near_duplicate), key=_closest_first
        )

    @cached_property
    def contradicts(self) -> list[_Match]:
        """Matches that state the same subject with a different value (a veto fired), closest
        first. A text about another thing ("worker 3" / "worker 2", the crate / the module:
        gate.identifiers) contradicts nothing."""
        limits = self.limits
        return sorted(
            (
                m
                for m in self.matches
                if m.veto
                and not subject_swapped(self.candidate.body, m.entry.body)
                and (
                    m.score >= limits.near_duplicate
                    or (
                        m.score >= limits.contradiction
                        and m.added <= limits.contradiction_swaps
                        and m.dropped <= limits.contradiction_swaps
                    )
                )
            ),
            key=_closest_first,
        )

    @cached_property
    def merged(self) -> list[ExistingEntry]:
        """The active entries of the candidate's collection that it merges, each once, in the
        order named; a stem that names none is left out (`_merge_targets` refuses it)."""
        by_stem = {e.stem: e for e in self.active if e.collection == self.candidate.collection}
        return [by_stem[stem] for stem in dict.fromkeys(self.candidate.merges) if stem in by_stem]


# ------------------------------------------------------------------------------ 1. safety


def _safety(write: _Write) -> Decision | None:
    candidate, limits = write.candidate, write.limits
    refusal = screen_text(f"{candidate.title}\n{candidate.body}")
    # The model alone may read the title line as an order's first word ("reply-style" over
    # "Always answer in short plain sentences."): a title is a name, so the model's evidence
    # must hold in the body or in the title on its own (the rules still read them joined).
    if (
        refusal is not None
        and refusal.rule_ids == (LEXICAL_RULE_ID,)
        and candidate.title
        and screen_text(candidate.body) is None
        and screen_text(candidate.title) is None
    ):
        refusal = None
    if (
        refusal is not None
        and write.is_owner
        and candidate.collection not in limits.rule_collections
        and refusal.code == INSTRUCTION
        and owner_may_keep(
            refusal.rule_ids,
            normalise_for_rules(f"{candidate.title}\n{candidate.body}"),
            LEXICAL_RULE_ID,
        )
    ):
        # The owner's own note: a reminder to mail records to someone, or text only the
        # model's guess refused (gate.own_tasks). A model's op (inferred) is read as before, and
        # so is an owner rule: the rule collections are where an "always ..." sentence of text
        # the owner pasted lands (core.learning.rules), a standing order nobody checked.
        refusal = None
    if refusal is not None:
        if refusal.code == INSTRUCTION and not write.is_owner:
            # An order that also turns an owner rule around is refused naming that rule, with
            # the screen's rules kept for the audit: the owner sees which rule it would reverse.
            turned = _provenance_of_contradicted(write)
            if turned is not None:
                return msgspec.structs.replace(turned, rule_ids=refusal.rule_ids)
        return _reject(refusal.code, refusal.message, refusal.rule_ids)
    claim = None if write.is_owner else role_claim(f"{candidate.title}\n{candidate.body}")
    if claim is not None:
        return _reject(
            INSTRUCTION,
            f"claims a role it does not have ({claim!r}): only core writes as the owner, and "
            "nothing in memory is the directive",
            (ROLE_CLAIM_RULE,),
        )
    words = written_words(candidate.body)
    if words < limits.min_words:
        return _reject(
            TOO_SHORT,
            f"too short to be worth remembering ({words} word{'s' if words != 1 else ''}; "
            f"at least {limits.min_words})",
        )
    if len(candidate.body) > limits.max_body_chars:
        return _reject(
            TOO_LONG,
            f"too long for one entry ({len(candidate.body)} characters; at most "
            f"{limits.max_body_chars}): split it or summarise it",
        )
    if len(candidate.title) > limits.max_title_chars:
        return _reject(
            TOO_LONG,
            f"title too long ({len(candidate.title)} characters; at most {limits.max_title_chars})",
        )
    return None


# -------------------------------------------------------------------------- 2. provenance


def _provenance(write: _Write) -> Decision | None:
    """The entry the writer addressed, then any entry the candidate contradicts."""
    addressed = _provenance_of_named(write)
    if addressed is not None:
        return addressed
    return _provenance_of_contradicted(write)


def _provenance_of_named(write: _Write) -> Decision | None:
    named, candidate = write.named, write.candidate
    if named is None or normalise_for_compare(named.body) == write.norm:
        return None
    if outranks(named.provenance, candidate.provenance):
        if named.provenance == "owner":
            return _reject(
                OWNER_PROTECTED,
                f"{_label(named)} is what the owner stated; an {candidate.provenance} "
                "write never replaces it",
                target=named.stem,
            )
        return Decision(
            action="skip",
            reason_code=LOWER_PROVENANCE,
            reason=f"{_label(named)} is {named.provenance}; an {candidate.provenance} "
            "write does not revise it",
            target=named.stem,
        )
    if write.is_owner and named.provenance == "owner":
        return Decision(
            action="create",
            reason_code=OWNER_RESTATED,
            reason=f"the owner restated {_label(named)} with a new value; the old one is "
            "kept, marked superseded",
            supersedes=(named.stem,),
        )
    return None


def _provenance_of_contradicted(write: _Write) -> Decision | None:
    candidate = write.candidate
    if not write.is_owner:
        found = _turns_an_owner_rule(write)
        if found is not None:
            turned, how = found
            return _reject(
                OWNER_PROTECTED,
                f"{how} {_label(turned)}, which the owner stated: "
                f"{' '.join(turned.body.split())[:120]!r}; an {candidate.provenance} write "
                "never changes it",
                target=turned.stem,
            )
        for m in write.contradicts:
            if m.entry.provenance == "owner":
                return _reject(
                    OWNER_PROTECTED,
                    f"contradicts {_label(m.entry)}, which the owner stated "
                    f"({m.veto.replace('_', ' ')} differs); an {candidate.provenance} write never "
                    "revises it",
                    target=m.entry.stem,
                )
        return _names_unheard(write)
    for m in write.contradicts:
        if (
            m.entry.provenance == "owner"
            and m.entry.collection == candidate.collection
            and candidate.collection in write.limits.rule_collections
        ):
            return Decision(
                action="create",
                reason_code=OWNER_RESTATED,
                reason=f"the owner restated {_label(m.entry)} with a new value; the old one "
                "is kept, marked superseded",
                supersedes=(m.entry.stem,),
            )
    return None


def _names_unheard(write: _Write) -> Decision | None:
    """A write below the owner that says who the owner or the pet is (a name, a form of
    address) is refused unless the owner's own words give that name: a "call me" rule the owner
    stated, or the owner turn's message it came from (`Candidate.heard`: "I'm Marta" makes the
    model's "The owner's name is Marta." the owner's word). Only the owner names themselves."""
    candidate = write.candidate
    rules = write.limits.rule_collections
    return _unheard_name(namings(candidate.body), candidate, write.active, rules, frozenset())


def document_names_unheard(
    text: str,
    *,
    provenance: Provenance,
    heard: str,
    active: Sequence[ExistingEntry],
    before: str = "",
    limits: Limits = DEFAULT_LIMITS,
) -> Decision | None:
    """The refusal of about.md's new `text` (the pet's description of itself and its owner, in
    the pet's first person: "I am Nova", "my owner is Bob") when a write below the owner names
    the owner or the pet otherwise than the owner's words did: a "call me" rule, the owner's
    message (`heard`), or what memory already says (the current about.md, `before`, and the
    active entries, each gated when written). The pet's own name, shelldon, is the system's."""
    if provenance == "owner":
        return None
    known = {*namings(before, "pet"), *(n for e in active for n in namings(e.body))}
    known.add(("pet", "shelldon"))
    said = Candidate(
        collection="", title="", body=text, provenance=provenance, stem=None, heard=heard
    )
    found = namings(text, "pet")
    return _unheard_name(found, said, active, limits.rule_collections, frozenset(known))


def _unheard_name(
    found: Iterable[tuple[str, str]],
    candidate: Candidate,
    active: Sequence[ExistingEntry],
    rule_collections: Sequence[str],
    known: frozenset[tuple[str, str]],
) -> Decision | None:
    rules = [
        (e.stem, e.body)
        for e in active
        if e.provenance == "owner" and e.collection in rule_collections
    ]
    provenance = candidate.provenance
    for who, name in found:
        if (who, name) in known or (who == "owner" and name in owner_named(rules)):
            continue
        if said_by_owner(candidate.heard, who, name):
            continue
        whom = "the owner" if who == "owner" else "the pet"
        return _reject(
            OWNER_PROTECTED,
            f"says who {whom} is ({name[:40]!r}): only the owner's own words name {whom} (a "
            f"'call me' rule they state); an {provenance} write never does",
        )
    return None


def _turns_an_owner_rule(write: _Write) -> tuple[ExistingEntry, str] | None:
    """The owner rule a lower-provenance text turns around or makes an exception to
    (gate.authority), however many clauses it adds, and how. The opposite is looked for in text
    in a rule collection or that reads as a rule; an exception in any text."""
    candidate, limits = write.candidate, write.limits
    rules = [
        e
        for e in write.active
        if e.provenance == "owner" and e.collection in limits.rule_collections
    ]
    if not rules:
        return None
    pairs = [(e.stem, e.body) for e in rules]
    stem, how = None, ""
    if candidate.collection in limits.rule_collections or reads_as_rule(candidate.body):
        stem, how = opposed_rule(candidate.body, pairs), "states the opposite of"
    else:  # a rule written as a fact ("The user says: always push to main directly.")
        stem, how = opposed_rule(candidate.body, pairs, whole_rule=True), "states the opposite of"
    if stem is None:
        stem, how = narrowed_rule(candidate.body, pairs), "makes an exception to"
    if stem is None:
        stem, how = renamed_owner(candidate.body, pairs), "names the owner otherwise than"
    found = next((e for e in rules if e.stem == stem), None)
    return (found, how) if found is not None else None


# ------------------------------------------------------------------------------- 3. exact


def _exact_duplicate(write: _Write) -> Decision | None:
    candidate = write.candidate
    exact = sorted(
        (e for e in write.active if normalise_for_compare(e.body) == write.norm),
        key=lambda e: (e.collection != candidate.collection, e.stem != candidate.stem, e.stem),
    )
    if not exact:
        return None
    entry = exact[0]
    if outranks(candidate.provenance, entry.provenance):
        return Decision(
            action="update",
            reason_code=CONFIRMED,
            reason=f"{_label(entry)} says the same; now confirmed by {candidate.provenance}",
            target=entry.stem,
        )
    return Decision(
        action="skip",
        reason_code=DUPLICATE,
        reason=f"already remembered as {_label(entry)}",
        target=entry.stem,
    )


# -------------------------------------------------------------------------------- 4. near


def _near_duplicate(write: _Write) -> Decision | None:
    """Near duplicates, and revisions of the entry the writer addressed."""
    candidate, named = write.candidate, write.named
    if named is not None:
        return Decision(
            action="update",
            reason_code=REVISED,
            reason=f"revises {_label(named)}",
            target=named.stem,
        )
    # A path, a name or a command that differs makes two facts (gate.identifiers).
    same_fact = [
        m for m in write.near if not m.veto and not identifier_swapped(candidate.body, m.entry.body)
    ]
    if not same_fact:
        return _value_update(write)
    best = same_fact[0]
    entry = best.entry
    higher = outranks(write.candidate.provenance, entry.provenance)
    lower = outranks(entry.provenance, write.candidate.provenance)
    adds_detail = best.added > 0 and (
        best.dropped == 0 or drops_only_naming(candidate.body, entry.body)
    )
    if lower:
        if entry.provenance == "owner":
            reason = f"the owner already stated this as {_label(entry)}"
        else:
            reason = f"{_label(entry)} ({entry.provenance}) already says this"
        return Decision(
            action="skip",
            reason_code=LOWER_PROVENANCE if adds_detail else NEAR_DUPLICATE,
            reason=reason,
            target=entry.stem,
        )
    if higher or adds_detail:
        why = f"now from the {candidate.provenance}" if higher else "adds detail"
        return Decision(
            action="update",
            reason_code=IMPROVED,
            reason=f"a better version of {_label(entry)} ({why}, similarity {best.score:.2f})",
            target=entry.stem,
        )
    return Decision(
        action="skip",
        reason_code=NEAR_DUPLICATE,
        reason=f"a rewording of {_label(entry)} that adds nothing (similarity {best.score:.2f})",
        target=entry.stem,
    )


def _value_update(write: _Write) -> Decision | None:
    """The same subject with a new value ("two minutes" -> "five minutes", port 8080 -> 3000):
    an update of the entry, not a second, contradicting copy. An owner entry never reaches here
    from a lower provenance (`_provenance` refused it); a higher-provenance entry is kept."""
    candidate = write.candidate
    for m in write.contradicts:
        entry = m.entry
        if (
            m.veto != "number"
            or entry.collection != candidate.collection
            or not only_values_differ(candidate.body, entry.body)
        ):
            continue
        if outranks(entry.provenance, candidate.provenance):
            return Decision(
                action="skip",
                reason_code=LOWER_PROVENANCE,
                reason=f"{_label(entry)} ({entry.provenance}) states this with another value",
                target=entry.stem,
            )
        return Decision(
            action="update",
            reason_code=VALUE_UPDATED,
            reason=f"a new value for {_label(entry)} (similarity {m.score:.2f})",
            target=entry.stem,
        )
    return None


# -------------------------------------------------------------------------------- 5. caps


def _caps(write: _Write) -> Decision | None:
    candidate, active, limits = write.candidate, write.active, write.limits
    merged = len(write.merged)
    in_collection = sum(1 for e in active if e.collection == candidate.collection)
    after = in_collection - merged + 1
    # A merge that does not grow the collection passes even when it is over the cap.
    if after > limits.collection_cap and after > in_collection:
        return Decision(
            action="skip",
            reason_code=COLLECTION_FULL,
            reason=(
                f"{candidate.collection} is full ({in_collection} of {limits.collection_cap} "
                "entries); kept for the dream to consolidate"
            ),
            flags=(FLAG_COLLECTION_FULL,),
        )
    if merged == 0 and _index_full(active, candidate, limits):
        return Decision(
            action="skip",
            reason_code=INDEX_FULL,
            reason=(
                f"the memory index would pass {limits.index_max_lines} lines or "
                f"{limits.index_max_bytes} bytes; kept for the dream to consolidate"
            ),
            flags=(FLAG_INDEX_FULL,),
        )
    return None


def _index_full(active: Sequence[ExistingEntry], candidate: Candidate, limits: Limits) -> bool:
    lines = limits.index_reserved_lines + len(active) + 1
    size = limits.index_reserved_bytes + sum(
        _index_cost(e.collection, e.stem, e.title, limits) for e in active
    )
    size += _index_cost(
        candidate.collection, candidate.stem or candidate.title, candidate.title, limits
    )
    return lines > limits.index_max_lines or size > limits.index_max_bytes


def _index_cost(collection: str, stem: str, title: str, limits: Limits) -> int:
    return len(collection) + len(stem) + len(title.encode()) + limits.index_line_overhead


# ---------------------------------------------------------------------- a merge's stages


def _merge_targets(write: _Write) -> Decision | None:
    """A merge names active entries of its own collection."""
    found = {e.stem for e in write.merged}
    for stem in write.candidate.merges:
        if stem not in found:
            return _reject(
                BAD_MERGE,
                f"the merge names {write.candidate.collection}/{stem}, which is not an active "
                "entry",
            )
    return None


def _merge_provenance(write: _Write) -> Decision | None:
    """Only the owner merges away what the owner stated."""
    for entry in write.merged:
        if outranks(entry.provenance, write.candidate.provenance) and entry.provenance == "owner":
            return _reject(
                OWNER_PROTECTED,
                f"a merge by {write.candidate.provenance} may not replace {_label(entry)}, "
                "which the owner stated",
            )
    return None


def _merge_duplicate(write: _Write) -> Decision | None:
    """The merged text already exists outside the entries it merges."""
    collection = write.candidate.collection
    merged_stems = {e.stem for e in write.merged}
    for entry in write.active:
        if entry.collection == collection and entry.stem in merged_stems:
            continue
        if normalise_for_compare(entry.body) == write.norm:
            return Decision(
                action="skip",
                reason_code=DUPLICATE,
                reason=f"the merged text already exists as {_label(entry)}",
                target=entry.stem,
            )
    return None


# ------------------------------------------------------------------------------- admitted


def _admit(write: _Write) -> Decision:
    """Past every stage: a new entry, which supersedes the entries a merge consolidates."""
    if not write.candidate.merges:
        return Decision(action="create", reason_code=CREATED, reason="a new entry")
    stems = tuple(e.stem for e in write.merged)
    return Decision(
        action="create",
        reason_code=MERGED,
        reason=f"merges {len(stems)} entr{'y' if len(stems) == 1 else 'ies'} into one: "
        + ", ".join(f"{write.candidate.collection}/{s}" for s in stems),
        supersedes=stems,
    )


# -------------------------------------------------------------------------------- helpers


def _label(entry: ExistingEntry) -> str:
    return f"{entry.collection}/{entry.stem}"


def _reject(
    code: ReasonCode, reason: str, rule_ids: tuple[str, ...] = (), target: str | None = None
) -> Decision:
    return Decision(
        action="reject", reason_code=code, reason=reason, rule_ids=rule_ids, target=target
    )


def _closest_first(m: _Match) -> tuple[float, str, str]:
    return (-m.score, m.entry.collection, m.entry.stem)
