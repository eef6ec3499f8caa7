"""SIGKILL a real writer at random moments; every file and every turn must be whole.

A forked child (a real process with its own fds and sqlite connection) applies memory ops and
records turns in a loop. The parent waits for its readiness line, lets it run a random number
of iterations plus a random sub-iteration spin (the kill point; synchronisation itself is by
pipe lines, never by sleeping), SIGKILLs it, then checks: about.md and facts/tea.md each hold
one complete version, episodes.md holds only whole records, every turn in history has both
rows or none, sqlite and its FTS index pass their integrity checks, and nothing goes backwards.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from shelldon import _native
from shelldon.core.memory.entry import parse_entry

sys.path.insert(0, str(Path(__file__).parent))
import crash_child

KILLS = 210
CHILD = Path(__file__).with_name("crash_child.py")
_EPISODE = re.compile(r"## \S+ \(turn t(\d+)\)\n(episode \1 (?:walked in the park )*)\n\n")


def _spin(seconds: float) -> None:
    """Busy-wait: picks the kill point inside an iteration (not synchronisation)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _check_memory(root: Path, last: dict[str, int]) -> bool:
    """Assert the invariants; True when a temp file was left (the kill hit mid-write)."""
    about = (root / "about.md").read_text() if (root / "about.md").exists() else None
    if about is not None:
        version = int(about.split("\n", 1)[0].removeprefix("about v"))
        assert about == crash_child.about_text(version), "about.md is torn"
        assert version >= last["about"], "about.md went backwards"
        last["about"] = version
    tea = root / "facts" / "tea.md"
    if tea.exists():
        entry = parse_entry(tea.read_text())
        assert not entry.defaulted, "tea.md front matter is torn"
        version = int(entry.body.split("\n", 1)[0].removeprefix("tea fact v"))
        expected = crash_child.fact_text(version)
        assert entry.body == expected, "tea.md body is torn"
        assert version >= last["tea"]
        last["tea"] = version
    episodes = root / "episodes.md"
    if episodes.exists():
        text = episodes.read_text()
        matched = sum(len(m.group(0)) for m in _EPISODE.finditer(text))
        assert matched == len(text), "episodes.md has a torn record"
        for m in _EPISODE.finditer(text):
            assert m.group(2) == crash_child.episode_text(int(m.group(1)))
    leftovers = [p for p in root.rglob(f"*{_native.TEMP_MARKER}*")]
    return bool(leftovers)


def _check_history(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO messages_stem(messages_stem) VALUES ('integrity-check')")
        torn = conn.execute(
            "SELECT turn_id FROM messages GROUP BY turn_id "
            "HAVING count(*) != 2 OR sum(role = 'owner') != 1 OR sum(role = 'pet') != 1"
        ).fetchall()
        assert torn == [], f"turns with one row: {torn[:5]}"
        return int(conn.execute("SELECT count(*) FROM messages").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.slow
def test_sigkill_at_random_moments_never_tears_anything(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    root, db = tmp_path / "memory", tmp_path / "history.db"
    last = {"about": -1, "tea": -1}
    mid_write_kills = 0
    rows_before = 0
    for kill in range(KILLS):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 1
            try:
                os.close(read_fd)
                crash_child.run(str(root), str(db), kill * 100_000, write_fd)
            finally:
                os._exit(code)
        os.close(write_fd)
        with os.fdopen(read_fd, "r") as lines:
            assert lines.readline() == "ready\n", "child failed to start"
            for _ in range(rng.randrange(3)):
                assert lines.readline(), "child died on its own"
            _spin(rng.random() * 0.004)
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        mid_write_kills += _check_memory(root, last)
        rows = _check_history(db)
        assert rows >= rows_before, "committed turns disappeared"
        rows_before = rows
    assert rows_before > 0 and last["about"] >= 0 and last["tea"] >= 0
    print(
        f"{KILLS} kills, {mid_write_kills} left a temp file (killed mid-write), {rows_before} rows"
    )


def test_the_checks_see_torn_files_and_half_turns(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / "facts").mkdir(parents=True)
    full = crash_child.about_text(7)
    (root / "about.md").write_text(full[: len(full) // 2])
    with pytest.raises(AssertionError, match="torn"):
        _check_memory(root, {"about": -1, "tea": -1})
    (root / "about.md").write_text(full)
    (root / "episodes.md").write_text("## 2026-01-01T00:00:00Z (turn t3)\nepisode 3 walk")
    with pytest.raises(AssertionError, match="torn record"):
        _check_memory(root, {"about": -1, "tea": -1})
    db = tmp_path / "history.db"
    from shelldon.core.history.store import HistoryStore

    HistoryStore.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute(
        "INSERT INTO messages (turn_id, role, content, ts) VALUES ('t1', 'owner', 'x', 'y')"
    )
    conn.commit()
    with pytest.raises(AssertionError, match="one row"):
        _check_history(db)
