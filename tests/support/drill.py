"""The kill drill: a real `shelldon run`, SIGKILLed at random moments while a client talks nonstop.

Each round starts the pet, lets the client get a few replies, then at a random moment (inside a
turn or between two) SIGKILLs either core alone (the supervisor then stops the rest) or every
process of the set at once, core first: the supervisor, core, broker, fork-server and any worker.
The next round starts it again, as systemd or the owner would. A reply the client received is an
acknowledged turn. After the last round one more start (its replay applies what the last kill
cut), a clean stop, and then `verify` reads the data root cold:

- every acknowledged turn is in history.db: both rows, under its turn id, with the very texts the
  owner sent and got back; the journal is empty; sqlite's and FTS5's integrity checks pass;
- no torn file: every memory file is UTF-8, every entry's front matter parses, episodes.md is whole
  records, every state file parses, no temp file of the atomic writer is left anywhere;
- every audit line ends with its newline and parses as a decision.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.core.memory.audit import AuditRecord
from shelldon.core.memory.entry import parse_entry
from shelldon.core.memory.reader import whole_episodes_length
from shelldon.core.storage import layout
from shelldon.paths import DataRoot
from support.pet import Pet, start_pet, wait_gone

TURN_TIMEOUT_S = 60.0
ROUND_TIMEOUT_S = 120.0

_TOPICS = ("green tea", "chess on sundays", "the blue bicycle", "rainy walks", "old maps")
_NAMES = ("Ana", "Bruno", "Chiara", "Dev", "Emeka")


def message(i: int) -> str:
    """The client's i-th message: statements the offline brain turns into ops (entries,
    learnings), questions, small talk. Unique, so each is found by its text."""
    topic, name = _TOPICS[i % len(_TOPICS)], _NAMES[i % len(_NAMES)]
    return (
        f"remember that locker {i} holds {topic}",
        f"my friend number {i} is called {name}",
        f"I like {topic} and the number {i}",
        f"I usually read about {topic} on day {i}",
        f"what do I like about {topic}, question {i}?",
        f"hello again, this is message {i}",
    )[i % 6]


@dataclass(frozen=True)
class Acked:
    turn_id: str
    text: str
    reply: str


class Talker(threading.Thread):
    """The owner's client: one `Say` after another while `up` is set; each Reply is acknowledged."""

    def __init__(self, root: DataRoot) -> None:
        super().__init__(name="drill-talker", daemon=True)
        self.root = root
        self.up = threading.Event()
        self.stop = threading.Event()
        self.acked: list[Acked] = []
        self.failed = 0  # requests cut by a kill (no reply: not acknowledged)
        self.other = 0  # answers that were not a Reply
        self._progress = threading.Condition()

    def run(self) -> None:
        i = 0
        while not self.stop.is_set():
            if not self.up.wait(0.5):  # the pet is down: wait for the next start
                continue
            text = message(i)
            i += 1
            try:
                answer = ipc.request(
                    self.root.socket("core"), wire.Say(text=text), timeout=TURN_TIMEOUT_S
                )
            except (OSError, ipc.IpcError):
                self.failed += 1
                continue
            if not isinstance(answer, wire.Reply):
                self.other += 1
                continue
            with self._progress:
                self.acked.append(Acked(answer.turn_id, text, answer.text))
                self._progress.notify_all()

    def wait_for(self, count: int, timeout: float) -> bool:
        with self._progress:
            return self._progress.wait_for(lambda: len(self.acked) >= count, timeout)


@dataclass
class Report:
    kills: dict[str, int] = field(default_factory=lambda: {"core": 0, "group": 0})
    acked: int = 0
    not_saved: int = 0  # replies that said the turn could not be saved (told, so not owed)
    lost: list[Acked] = field(default_factory=list)
    torn: list[str] = field(default_factory=list)
    audit_lines: int = 0
    bad_audit_lines: list[str] = field(default_factory=list)
    journal_left: int = 0
    integrity: str = ""
    failed_requests: int = 0
    seconds: float = 0.0
    # What the kills left for the next start (probed while the pet was down):
    left_journaled: int = 0  # kills after a reply, before its ops were all applied
    left_temp_files: int = 0
    left_torn_tails: int = 0

    def summary(self) -> str:
        return (
            f"kill drill: {sum(self.kills.values())} kills ({self.kills['core']} of core, "
            f"{self.kills['group']} of the whole process set), {self.acked} acknowledged turns "
            f"({self.not_saved} said not saved), {len(self.lost)} lost, {len(self.torn)} torn "
            f"files, {self.audit_lines} audit lines "
            f"({len(self.bad_audit_lines)} unparsable), journal rows left {self.journal_left}, "
            f"integrity {self.integrity}, {self.failed_requests} requests cut by a kill, "
            f"{self.seconds:.0f} s; left for the next start: {self.left_journaled} journaled turns "
            f"to replay, {self.left_temp_files} temp files, {self.left_torn_tails} torn tails"
        )


def _workers(forkserver: int) -> list[int]:
    """The fork-server's children (workers in flight)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{forkserver}/task"):
            with contextlib.suppress(OSError):
                text = Path(f"/proc/{forkserver}/task/{task}/children").read_text()
                found.extend(int(pid) for pid in text.split())
    return found


def kill(pet: Pet, how: str) -> None:
    """SIGKILL core alone, or every process of the set (core first, so no reply can follow)."""
    core = pet.pid_of("core")
    others = [pet.pid_of("broker"), pet.pid_of("forkserver")]
    group = [pet.proc.pid, *others, *_workers(others[1])]
    victims = [core] if how == "core" else [core, *group]
    for pid in victims:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    pet.proc.wait(timeout=ROUND_TIMEOUT_S)
    pet.ended.wait(timeout=10)
    stuck = wait_gone([core, *others], timeout=ROUND_TIMEOUT_S)
    assert not stuck, f"still running after the kill: {stuck}"


def probe_leftovers(root: DataRoot, report: Report) -> None:
    """While the pet is down: what the kill left for the next start to settle."""
    if root.history_db.exists():
        conn = sqlite3.connect(f"file:{root.history_db}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT count(*) FROM turn_journal").fetchone()[0]
            report.left_journaled += int(rows) > 0
        finally:
            conn.close()
    report.left_temp_files += sum(
        1 for p in root.home.rglob("*") if layout.TEMP_NAME.fullmatch(p.name)
    )
    for path in (root.memory / "history.jsonl", root.memory / "episodes.md"):
        if path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
            report.left_torn_tails += 1


def run_drill(kills: int, *, seed: int | None = None) -> tuple[Report, Talker]:
    """`kills` rounds, then a last start and a clean stop. The caller verifies."""
    rng = random.Random(seed)
    root = DataRoot.resolve()
    talker = Talker(root)
    report = Report()
    started = time.monotonic()
    talker.start()
    pet: Pet | None = None
    try:
        for _ in range(kills):
            pet = start_pet()
            talker.up.set()
            target = len(talker.acked) + rng.randint(1, 3)
            assert talker.wait_for(target, ROUND_TIMEOUT_S), f"no replies:\n{pet.log[-3000:]}"
            # The kill point: a random moment, inside the next turn or between two (this picks
            # where the kill lands; nothing waits on it).
            time.sleep(rng.uniform(0.0, 0.4))
            talker.up.clear()
            how = rng.choice(("core", "group"))
            kill(pet, how)
            report.kills[how] += 1
            pet = None
            probe_leftovers(root, report)
        pet = start_pet()  # the last start replays what the last kill cut
        talker.up.set()
        assert talker.wait_for(len(talker.acked) + 1, ROUND_TIMEOUT_S)
        talker.up.clear()
        talker.stop.set()
        talker.join(timeout=TURN_TIMEOUT_S + 5)
        assert pet.stop() == 0, pet.log[-3000:]
        pet = None
    finally:
        talker.stop.set()
        if pet is not None and pet.proc.poll() is None:
            pet.stop()
    report.seconds = time.monotonic() - started
    report.failed_requests = talker.failed
    return report, talker


def verify(root: DataRoot, acked: list[Acked], report: Report) -> Report:
    """Read the stopped pet's data root and fill in what held and what did not."""
    not_saved = [a for a in acked if "I could not save this turn" in a.reply]
    report.not_saved = len(not_saved)
    owed = [a for a in acked if a not in not_saved]
    report.acked = len(acked)
    conn = sqlite3.connect(root.history_db)
    try:
        report.integrity = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        try:
            conn.execute("INSERT INTO messages_stem(messages_stem) VALUES ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            report.integrity += f"; fts: {exc}"
        rows: dict[str, dict[str, str]] = {}
        for turn_id, role, content in conn.execute("SELECT turn_id, role, content FROM messages"):
            rows.setdefault(turn_id, {})[role] = content
        report.journal_left = int(conn.execute("SELECT count(*) FROM turn_journal").fetchone()[0])
    finally:
        conn.close()
    report.lost = [a for a in owed if rows.get(a.turn_id) != {"owner": a.text, "pet": a.reply}]
    report.torn = torn_files(root)
    report.audit_lines, report.bad_audit_lines = audit_lines(root.memory)
    return report


def torn_files(root: DataRoot) -> list[str]:
    """Every file of the data root that is not whole, with why."""
    torn: list[str] = []
    for path in sorted(root.home.rglob("*")):
        if layout.TEMP_NAME.fullmatch(path.name):
            torn.append(f"{path}: a temp file of the atomic writer")
    memory = root.memory
    for path in sorted(memory.rglob("*.md")):
        relative = path.relative_to(memory)
        if relative.parts[0] in (".undo", "vault"):
            continue
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            torn.append(f"{relative}: not UTF-8")
            continue
        if len(relative.parts) == 2 and parse_entry(text).defaulted:
            torn.append(f"{relative}: front matter does not parse")
        if relative.name == "episodes.md" and whole_episodes_length(data) != len(data):
            torn.append(f"{relative}: ends in a torn record")
    for path in sorted(root.state.glob("*.json")):
        try:
            json.loads(path.read_bytes())
        except ValueError:
            torn.append(f"state/{path.name}: does not parse")
    return torn


def audit_lines(memory: Path) -> tuple[int, list[str]]:
    """How many audit lines there are, and the ones that do not parse (or lack their newline)."""
    count, bad = 0, []
    for path in sorted(memory.glob("history*.jsonl")):
        for number, raw in enumerate(path.read_bytes().split(b"\n")[:-1], 1):
            count += 1
            try:
                AuditRecord.from_json(json.loads(raw))
            except (ValueError, TypeError) as exc:
                bad.append(f"{path.name}:{number}: {exc}")
        if not path.read_bytes().endswith(b"\n") and path.stat().st_size:
            bad.append(f"{path.name}: the last line lacks its newline")
    return count, bad
