"""What a reflection keeps (core.learning.reflection) on real memory trees: observed only for a
command the digest saw run, unverified marked and ranked under confirmed facts, the five-fact cap,
and the model's depends_on making an entry stale once its file changes."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import msgspec

from shelldon.clock import utc_now
from shelldon.contracts.digest import CommandRun, Digest, ProposedFact, facts_from_ops
from shelldon.contracts.ops import OpDecodeError, Remember, decode_op
from shelldon.core.learning.reflection import apply_reflection, provenance_of
from shelldon.core.memory.entry import UNVERIFIED_TAG
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.retrieval.rank import select_entries

BUILD = CommandRun(command="make release", exit_code=0)


def fact(name: str, content: str, **kw: object) -> ProposedFact:
    return msgspec.convert({"name": name, "content": content, **kw}, ProposedFact)


def entry_text(memory: CuratedMemory, stem: str) -> str:
    return (memory.root / stem).with_suffix(".md").read_text()


def test_a_fact_is_observed_only_when_it_cites_a_command_the_digest_saw_run() -> None:
    digest = Digest(
        commands=(BUILD, CommandRun(command="pytest -q")),  # the second: exit code not known
    )
    assert provenance_of(fact("b", "x", observed_from="make release"), digest) == "observed"
    assert provenance_of(fact("b", "x", observed_from=" make release "), digest) == "observed"
    assert provenance_of(fact("b", "x", observed_from="pytest -q"), digest) == "inferred"
    assert provenance_of(fact("b", "x", observed_from="make deploy"), digest) == "inferred"
    assert provenance_of(fact("b", "x"), digest) == "inferred"  # the model's own inference


def test_observed_and_inferred_facts_are_written_as_such(tmp_path: Path) -> None:
    memory = CuratedMemory(tmp_path / "memory")
    digest = Digest(request="build it", commands=(BUILD,), verified=True)
    facts = [
        fact(
            "release build",
            "The release build is made with make release from the root.",
            observed_from="make release",
        ),
        fact("style", "The project seems to prefer small modules over large ones."),
    ]
    reflection = apply_reflection(memory, digest, facts, unit="reflect-t1")
    assert [(v.action, v.provenance) for v in reflection.verdicts] == [
        ("create", "observed"),
        ("create", "inferred"),
    ]
    assert "provenance: observed" in entry_text(memory, "facts/release-build")
    assert "provenance: inferred" in entry_text(memory, "facts/style")
    units = {rec.unit for rec in memory.audit.records()}
    assert units == {"reflect-t1"}


def test_at_most_five_facts_are_taken(tmp_path: Path) -> None:
    memory = CuratedMemory(tmp_path / "memory")
    topics = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]
    facts = [
        fact(t, f"The {t} service listens on port {1000 + i} locally.")
        for i, t in enumerate(topics)
    ]
    reflection = apply_reflection(memory, Digest(), facts, unit="reflect-t2")
    assert [v.reason_code for v in reflection.verdicts[5:]] == ["over_cap", "over_cap"]
    assert reflection.kept == 5


def test_an_unverified_turn_is_kept_marked_and_ranked_under_a_confirmed_fact(
    tmp_path: Path,
) -> None:
    memory = CuratedMemory(tmp_path / "memory")
    unverified = Digest(request="deploy", verified=False)
    confirmed = Digest(request="deploy", verified=True)
    apply_reflection(
        memory,
        unverified,
        [fact("deploy fast", "Deploy with the deploy script and the fast flag on staging.")],
        unit="reflect-a",
    )
    apply_reflection(
        memory,
        confirmed,
        [fact("deploy", "Deploy with the deploy script after the staging checks pass.")],
        unit="reflect-b",
    )
    assert f'"{UNVERIFIED_TAG}"' in entry_text(memory, "facts/deploy-fast")
    assert UNVERIFIED_TAG not in entry_text(memory, "facts/deploy")
    # The unverified one shares more words with the request, yet the confirmed one goes first.
    selection = select_entries(
        memory.entries(), "deploy script fast flag staging", utc_now(), keep_ranked=True
    )
    order = [s.id for s in selection.ranked]
    assert order == ["facts/deploy", "facts/deploy-fast"]
    assert selection.ranked[1].unverified and "unverified" in selection.ranked[1].label()
    assert selection.ranked[1].relevance > selection.ranked[0].relevance


def test_a_confirmed_rewrite_drops_the_unverified_mark(tmp_path: Path) -> None:
    memory = CuratedMemory(tmp_path / "memory")
    text = "The staging deploy needs the VPN up before the script runs."
    apply_reflection(memory, Digest(verified=False), [fact("staging", text)], unit="reflect-a")
    assert UNVERIFIED_TAG in entry_text(memory, "facts/staging")
    revised = text.replace("runs.", "runs, and the VPN profile is called staging-eu.")
    reflection = apply_reflection(
        memory, Digest(verified=True), [fact("staging", revised)], unit="reflect-b"
    )
    assert reflection.verdicts[0].action == "update"
    assert UNVERIFIED_TAG not in entry_text(memory, "facts/staging")


def test_the_models_remember_op_declares_depends_on_and_goes_stale_with_the_file(
    tmp_path: Path,
) -> None:
    base = tmp_path / "home"
    (base / "notes").mkdir(parents=True)
    schema = base / "notes" / "schema.json"
    schema.write_text("{}")
    earlier = (utc_now() - timedelta(hours=1)).timestamp()
    os.utime(schema, (earlier, earlier))  # written before the entry (timestamps are to the second)
    memory = CuratedMemory(base / "memory")
    op = decode_op(
        {
            "op": "remember",
            "collection": "facts",
            "name": "schema",
            "content": "The schema lives in notes/schema.json and drives the generator.",
            "depends_on": ["notes/schema.json"],
        }
    )
    assert isinstance(op, Remember)
    applied = memory.apply_memory_op(op, provenance="inferred", turn_id="t1")
    assert applied.action == "create"
    assert 'depends_on: ["notes/schema.json"]' in entry_text(memory, "facts/schema")
    now = utc_now()
    fresh = select_entries(memory.entries(), "schema generator", now, base=base, keep_ranked=True)
    assert not fresh.ranked[0].stale
    later = (now + timedelta(minutes=5)).timestamp()
    os.utime(schema, (later, later))  # the file changed after the entry was confirmed
    stale = select_entries(memory.entries(), "schema generator", now, base=base, keep_ranked=True)
    assert stale.ranked[0].stale_files == ("notes/schema.json",)
    assert stale.ranked[0].score < fresh.ranked[0].score


def test_depends_on_in_an_op_is_bounded() -> None:
    many = {"op": "remember", "collection": "facts", "name": "n", "content": "c"}
    try:
        decode_op({**many, "depends_on": [f"f{i}" for i in range(9)]})
    except OpDecodeError as exc:
        assert "depends_on" in str(exc)
    else:
        raise AssertionError("nine paths were accepted")
    for bad in ("", "a\nb", "x" * 201):
        try:
            decode_op({**many, "depends_on": [bad]})
        except OpDecodeError:
            continue
        raise AssertionError(f"{bad!r} was accepted")


def test_facts_from_ops_reads_each_on_its_own() -> None:
    facts, dropped = facts_from_ops(
        [
            {"op": "remember", "name": "a", "content": "A fact.", "procedure": "make gen"},
            {"op": "rewrite_about", "content": "x"},
            {"op": "remember", "name": "b"},  # no content
            "not an op",
        ]
    )
    assert [(f.name, f.procedure) for f in facts] == [("a", "make gen")]
    assert len(dropped) == 3
