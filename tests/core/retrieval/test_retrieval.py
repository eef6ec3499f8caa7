"""Retrieval for the prompt: 4 in full within 3,000 chars, 12 by title, the rest counted."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shelldon.clock import iso
from shelldon.core.memory.entry import Entry, EntryMeta
from shelldon.core.retrieval.rank import FULL_BUDGET_CHARS, paths_in, select_entries, stale_files

NOW = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


def entry(
    stem: str,
    body: str,
    *,
    title: str = "",
    collection: str = "facts",
    provenance: str = "inferred",
    confidence: float = 0.8,
    age_days: float = 0.0,
    depends_on: tuple[str, ...] = (),
    status: str = "active",
    tags: tuple[str, ...] = (),
) -> Entry:
    when = iso(NOW - timedelta(days=age_days))
    meta = EntryMeta(
        title=title or body.split(".")[0][:60],
        collection=collection,
        provenance=provenance,  # type: ignore[arg-type]
        confidence=confidence,
        created=when,
        modified=when,
        last_confirmed=when,
        depends_on=depends_on,
        status=status,  # type: ignore[arg-type]
        tags=tags,
    )
    return Entry(meta, body, stem=stem, collection=collection)


def test_paths_in_finds_file_names() -> None:
    assert paths_in("I changed ./src/main.rs and notes.md, not the cat") == [
        "notes.md",
        "src/main.rs",
    ]


def test_the_relevant_entry_is_shown_in_full_first() -> None:
    entries = [
        entry("tea", "The owner drinks green tea every morning."),
        entry("cat", "Mia's cat is called Oscar."),
        entry("bike", "The owner rides a red bike to work, rain or shine.", title="Bike"),
    ]
    selection = select_entries(entries, "what is the name of Mia's cat?", NOW)
    assert [s.id for s in selection.full] == ["facts/cat"]
    assert {s.id for s in selection.titled} == {"facts/tea", "facts/bike"}
    text = selection.render()
    assert "Mia's cat is called Oscar." in text
    assert "rain or shine" not in text  # titled only…
    assert "- Bike (facts/bike; inferred)" in text  # …its title listed


def test_budget_four_full_twelve_titled_rest_counted() -> None:
    entries = [entry(f"e{i:02d}", f"Shared word garden number {i}.") for i in range(30)]
    selection = select_entries(entries, "garden", NOW)
    assert len(selection.full) == 4
    assert len(selection.titled) == 12
    assert selection.rest == 14
    assert selection.total == 30
    assert "14 more entries not shown." in selection.render()


def test_full_entries_stay_within_the_character_budget() -> None:
    long_body = "garden " * 180  # ~1,260 chars each: only two fit in 3,000
    entries = [entry(f"e{i}", long_body, title=f"garden {i}") for i in range(5)]
    selection = select_entries(entries, "garden", NOW)
    assert len(selection.full) == 2
    assert sum(len(s.render_full()) for s in selection.full) <= FULL_BUDGET_CHARS
    assert len(selection.titled) == 3
    assert selection.rest == 0


def test_an_owner_entry_outranks_an_inference_of_equal_relevance() -> None:
    owner = entry(
        "b-owner", "Mia's cat is called Oscar.", provenance="owner", age_days=400, confidence=0.1
    )
    inferred = entry(
        "a-inferred", "Mia's cat is called Oscar.", provenance="inferred", confidence=1.0
    )
    selection = select_entries([inferred, owner], "Mia cat", NOW)
    assert [s.id for s in selection.full] == ["facts/b-owner", "facts/a-inferred"]


def test_owner_rules_are_shown_even_when_they_share_no_word() -> None:
    rule = entry(
        "always-answer-in-french",
        "Always answer in French.",
        provenance="owner",
        collection="preferences",
    )
    other = entry("cat", "Mia's cat is called Oscar.")
    selection = select_entries([rule, other], "hello there", NOW)
    assert [s.id for s in selection.full] == ["preferences/always-answer-in-french"]
    assert [s.id for s in selection.titled] == ["facts/cat"]


def test_superseded_entries_are_never_offered() -> None:
    old = entry("call-me-sam", "Call me Sam.", provenance="owner", status="superseded")
    new = entry("call-me-alex", "Call me Alex.", provenance="owner")
    selection = select_entries([old, new], "call me", NOW)
    assert [s.id for s in selection.full] == ["facts/call-me-alex"]
    assert selection.total == 1


def test_stale_entries_rank_lower_and_say_so(tmp_path: Path) -> None:
    (tmp_path / "garden.txt").write_text("changed")
    confirmed = NOW - timedelta(days=1)
    os.utime(tmp_path / "garden.txt", (NOW.timestamp(), NOW.timestamp()))
    stale = entry("a", "The garden tap is fixed.", depends_on=("garden.txt",), age_days=1)
    fresh = entry("b", "The garden tap is fixed.")
    assert stale_files(("garden.txt",), confirmed, tmp_path) == ("garden.txt",)
    selection = select_entries([stale, fresh], "garden tap", NOW, base=tmp_path)
    assert [s.id for s in selection.full] == ["facts/b", "facts/a"]
    assert selection.full[1].stale
    assert "may be stale: garden.txt changed since last confirmed" in selection.render()


def test_a_missing_depended_on_file_counts_as_changed(tmp_path: Path) -> None:
    assert stale_files(("gone.txt",), NOW, tmp_path) == ("gone.txt",)
    (tmp_path / "kept.txt").write_text("x")
    old = NOW.timestamp() - 3600
    os.utime(tmp_path / "kept.txt", (old, old))
    assert stale_files(("kept.txt",), NOW, tmp_path) == ()


def test_shared_paths_pull_an_entry_up() -> None:
    with_path = entry("z", "How the build works.", depends_on=("src/main.rs",))
    without = entry("a", "How the build works.")
    selection = select_entries([without, with_path], "I edited src/main.rs", NOW)
    assert selection.full[0].id == "facts/z"


def test_empty_memory_renders_nothing() -> None:
    selection = select_entries([], "anything", NOW)
    assert selection.total == 0
    assert selection.render() == ""


def test_deterministic_whatever_the_input_order() -> None:
    entries = [entry(f"e{i}", "same words here") for i in range(20)]
    a = select_entries(entries, "words", NOW)
    b = select_entries(list(reversed(entries)), "words", NOW)
    assert a.render() == b.render()
    assert [s.id for s in a.full] == ["facts/e0", "facts/e1", "facts/e10", "facts/e11"]


@pytest.mark.parametrize("bad", ["not a time", ""])
def test_unreadable_timestamps_are_the_epoch_not_a_crash(bad: str) -> None:
    e = entry("a", "garden notes")
    e = Entry(
        EntryMeta(title="garden", collection="facts", modified=bad, last_confirmed=bad),
        e.body,
        stem="a",
        collection="facts",
    )
    assert select_entries([e], "garden", NOW).full[0].id == "facts/a"


# --- ranking at scale: hundreds of entries about the same few people ---------------------------


def _about_ana(count: int) -> list[Entry]:
    """`count` new entries that all name Ana, in the title and twice in the body, as a pet's
    memory of one sister does; the entries the tests look for are older, so they never win on
    recency."""
    chores = ("garden", "train", "kettle", "bicycle", "library", "market", "umbrella", "piano")
    return [
        entry(
            f"ana-{i:03d}",
            f"Ana said Ana's {chores[i % len(chores)]} was fine on day {i}.",
            title="Ana",
        )
        for i in range(count)
    ]


def test_a_name_in_every_entry_does_not_decide_the_ranking() -> None:
    # "ana" is in all 200 entries: its weight is near nothing, the rare word decides.
    entries = [
        *_about_ana(199),
        entry(
            "zz-jazz",
            "On quiet evenings she listens to old jazz records with Ana and the neighbours.",
            title="Evenings",
            age_days=30,
        ),
    ]
    selection = select_entries(entries, "does Ana like jazz?", NOW)
    assert selection.full[0].id == "facts/zz-jazz"


def test_a_words_other_form_meets_it() -> None:
    # "passion" meets "passionate" (Snowball English; the old -s/-ed/-ing strip never did).
    entries = [
        *_about_ana(199),
        entry(
            "zz-painting",
            "Ana is passionate about painting seascapes.",
            title="Painting",
            age_days=30,
        ),
    ]
    selection = select_entries(entries, "what is Ana's passion?", NOW)
    assert selection.full[0].id == "facts/zz-painting"


def test_a_short_entry_does_not_win_a_single_shared_word_by_being_short() -> None:
    # One shared word ("nurse"), as often in the title and the body of both: the one-word entry
    # and the sentence now score alike and the newer one leads. Before the length floor
    # (rust/src/ranker.rs) the one-word entry won on shortness alone.
    entries = [
        *_about_ana(20),
        entry("a-nurse", "Nurse.", title="Nurse", age_days=30),
        entry("b-ana-nurse", "Ana works as a nurse in Porto.", title="Ana the nurse"),
    ]
    selection = select_entries(entries, "who is a nurse?", NOW)
    assert [s.id for s in selection.full[:2]] == ["facts/b-ana-nurse", "facts/a-nurse"]
