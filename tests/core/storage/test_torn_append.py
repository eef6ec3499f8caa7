"""Torn records in the append-only files (the audit log, episodes.md), made by the kernel itself.

A writer dies mid-record: a forked child whose file-size limit falls inside its record gets a
short write and then SIGXFSZ's default action, so it dies with a prefix on disk, as a SIGKILL
landing between the pages of a large write leaves one (the SIGKILL loop below does that too, at
random points). A write that fails partway: the same limit with SIGXFSZ ignored gives EFBIG
after a short write, as a full disk gives ENOSPC (a real full tmpfs, as root). After each: readers
skip the torn tail, the next append is whole and not glued onto it, and core's start-up
recovery cuts it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import resource
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from shelldon import _native
from shelldon.contracts.ops import LogEpisode, Remember
from shelldon.core.memory.audit import AuditLog, AuditRecord
from shelldon.core.memory.lifecycle import CuratedMemory
from shelldon.core.upkeep import recovery
from shelldon.paths import DataRoot
from support.marks import needs_root

SHORT_KILLS = 20
LONG_KILLS = int(os.environ.get("SHELLDON_APPEND_KILLS", "200"))
MB = 1 << 20


@pytest.fixture
def root(home: Path) -> DataRoot:
    data = DataRoot.resolve(str(home))
    CuratedMemory(data.memory)  # the tree, as core makes it
    return data


def _in_child(work: Callable[[], None], *, limit: int, die: bool) -> int:
    """Run `work` in a forked child whose files may not grow past `limit` bytes. With `die`,
    SIGXFSZ keeps its default action (the child dies at the short write); else it is ignored
    and the write fails with EFBIG. Returns the wait status."""
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL if die else signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            try:
                work()
                code = 0
            except OSError as exc:
                code = 10 + (exc.errno or 0) if exc.errno != errno.EFBIG else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return status


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")


def _note(audit: AuditLog, n: int, size: int = 200) -> AuditRecord:
    return audit.note({"unit": "test", "op": "note", "action": "skip", "reason": f"{n} " * size})


# --- a writer that dies mid-record ----------------------------------------------------------------


def test_a_writer_killed_mid_line_leaves_a_tail_readers_skip_and_the_next_line_stays_whole(
    root: DataRoot,
) -> None:
    audit = AuditLog(root.memory)
    first = [_note(audit, n).id for n in range(2)]
    size = audit.path.stat().st_size
    status = _in_child(lambda: _note(audit, 2, size=2000), limit=size + 100, die=True)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXFSZ
    assert audit.path.stat().st_size == size + 100, "the kernel wrote a prefix: a torn line"
    assert [r.id for r in audit.records()] == first  # the torn tail is skipped
    third = _note(audit, 3).id
    assert [r.id for r in audit.records()] == [*first, third], "the next line was swallowed"
    fragment = _lines(audit.path)[2]
    assert len(fragment) == 100 and not fragment.endswith(b"}")  # kept apart, on its own line


def test_recovery_at_start_cuts_a_torn_audit_line_and_every_line_parses(root: DataRoot) -> None:
    audit = AuditLog(root.memory)
    kept = _note(audit, 0).id
    size = audit.path.stat().st_size
    _in_child(lambda: _note(audit, 1, size=2000), limit=size + 64, die=True)
    done = recovery.recover(root)
    assert done.cut == {"history.jsonl": 64}
    assert audit.path.stat().st_size == size
    assert recovery.recover(root).cut == {}  # settled: a second start finds nothing
    assert [r.id for r in audit.records()] == [kept]


def test_a_line_torn_just_before_its_newline_is_kept_and_completed(root: DataRoot) -> None:
    audit = AuditLog(root.memory)
    _note(audit, 0)
    size = audit.path.stat().st_size
    line_size = len(_lines(audit.path)[0]) + 1  # the same record again, same length
    _in_child(lambda: _note(audit, 0), limit=size + line_size - 1, die=True)
    assert list(audit.records())[1:] == []  # no newline yet: not counted
    done = recovery.recover(root)
    assert done.completed == ["history.jsonl"] and done.cut == {}
    assert len(list(audit.records())) == 2


def test_a_torn_episode_is_left_out_by_readers_cut_at_start_and_the_cut_is_undoable(
    root: DataRoot,
) -> None:
    memory = CuratedMemory(root.memory)
    memory.apply_memory_op(LogEpisode(content="walked in the park"), turn_id="t1")
    episodes = root.memory / "episodes.md"
    whole = episodes.read_bytes()
    big = "a long day " * 2000
    _in_child(
        lambda: memory.apply_memory_op(LogEpisode(content=big), turn_id="t2"),
        limit=len(whole) + 4000,
        die=True,
    )
    assert episodes.stat().st_size == len(whole) + 4000
    assert memory.read_episodes() == whole.decode()  # the torn record is left out
    done = recovery.recover(root)
    assert done.cut == {"episodes.md": 4000}
    assert episodes.read_bytes() == whole
    (repair,) = [r for r in memory.audit.records() if r.op == "repair"]
    assert repair.reason_code == "torn"
    memory.undo_change(repair.id)  # a hand edit mistaken for a tear comes back
    assert episodes.stat().st_size == len(whole) + 4000


# --- a write that fails partway -------------------------------------------------------------------


def test_a_write_failing_partway_is_cut_back_and_the_next_record_is_in_the_log_and_undo(
    root: DataRoot,
) -> None:
    """The disk-full report: the episode landed, its audit line hit the limit partway. The line
    is cut back, the op fails loudly, and the next op's line is whole, listed and undoable."""
    memory = CuratedMemory(root.memory)
    memory.apply_memory_op(LogEpisode(content="first"), turn_id="t1")
    log_size = memory.audit.path.stat().st_size
    episodes = root.memory / "episodes.md"
    # Room for the episode (the episodes file is smaller than the log), not for the whole line.
    limit = log_size + 150
    assert episodes.stat().st_size + 200 < limit
    status = _in_child(
        lambda: memory.apply_memory_op(LogEpisode(content="second"), turn_id="t2"),
        limit=limit,
        die=False,
    )
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1, "expected EFBIG"
    assert memory.audit.path.stat().st_size == log_size, "the partial line was cut back"
    tea = "The owner drinks green tea every morning, without sugar."
    applied = memory.apply_memory_op(Remember(collection="facts", name="tea", content=tea))
    last = list(memory.audit.records())[-1]
    assert last.target == "facts/tea.md" and applied.target.exists()
    memory.undo_change(last.id)
    assert not applied.target.exists()


@needs_root("mounts a 64 KB tmpfs to fill it")
def test_a_real_full_disk_cuts_the_partial_record_and_the_next_append_is_whole(
    tmp_path: Path,
) -> None:
    mount = tmp_path / "small"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True)
    try:
        log = mount / "history.jsonl"
        _native.durable_append(log, b'{"n": 0}\n')
        filler = mount / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as fh:
            fh.write(b"x" * (64 << 10))  # fills the rest (ENOSPC ends it)
        filler.unlink()
        filler.write_bytes(b"x" * ((64 << 10) - 4096 - 8192))  # leaves 8 KB or so
        with pytest.raises(OSError) as info:
            _native.durable_append(log, b'{"n": 1, "pad": "' + b"y" * 32768 + b'"}\n')
        assert info.value.errno == errno.ENOSPC
        assert log.read_bytes() == b'{"n": 0}\n', "the partial record was cut back"
        filler.unlink()  # space returns
        _native.durable_append(log, b'{"n": 2}\n')
        assert [json.loads(x)["n"] for x in log.read_bytes().splitlines()] == [0, 2]
    finally:
        subprocess.run(["umount", str(mount)], check=True)


# --- SIGKILL at random points -------------------------------------------------------------------


def _append_on_request(path: Path, first: int, go_fd: int, out_fd: int) -> None:
    """The child: for each "go" byte, one 1 MB JSON line numbered from `first`; reports each
    number after its fsync. The padding is made once, so the write starts right after the go."""
    pad = b"z" * (MB - 64)
    os.write(out_fd, b"ready\n")
    n = first
    while os.read(go_fd, 1) == b"g":
        _native.durable_append(path, b'{"n": %d, "pad": "%s"}\n' % (n, pad))
        os.write(out_fd, f"{n}\n".encode())
        n += 1


def _spin(seconds: float) -> None:
    """Busy-wait: picks the kill point (not synchronisation)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _until_mid_write(path: Path, before: int, limit_s: float) -> bool:
    """Busy-poll the file until the record under way is half on disk (it grew, and does not end
    with its newline yet), for at most `limit_s`. True when caught: a kill then lands inside
    the write itself."""
    end = time.perf_counter() + limit_s
    fd = -1
    try:
        while time.perf_counter() < end:
            if fd < 0:
                try:
                    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
                except FileNotFoundError:
                    continue
            size = os.fstat(fd).st_size
            if size > before and os.pread(fd, 1, size - 1) != b"\n":
                return True
        return False
    finally:
        if fd >= 0:
            os.close(fd)


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def _kill_mid_append(path: Path, first: int, *, aim: bool) -> list[int]:
    """Fork a writer, let it finish 0-2 records, then SIGKILL it: `aim` starts records one at a
    time until one is caught half on disk (a 1 MB write is several page-cache folios; a busy box
    may finish one unseen, so up to 8 tries), else it kills at a random moment of the next
    record (often its fsync, or after). The numbers it reported durable."""
    r, w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.close(go_w)
        try:
            _append_on_request(path, first, go_r, w)
        finally:
            os._exit(1)
    os.close(w)
    os.close(go_r)
    reports: list[int] = []
    try:
        with os.fdopen(r, "rb", buffering=0) as pipe:
            assert pipe.readline() == b"ready\n"
            for _ in range(random.randint(0, 2)):
                os.write(go_w, b"g")
                reports.append(int(pipe.readline()))
            if aim:
                for _ in range(8):
                    before = _size(path)
                    os.write(go_w, b"g")
                    if _until_mid_write(path, before, limit_s=0.05):
                        break
                    reports.append(int(pipe.readline()))  # done unseen: the next one
            else:
                os.write(go_w, b"g")
                _spin(random.uniform(0.0, 0.012))
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            reports.extend(int(x) for x in pipe.read().split())
    finally:
        os.close(go_w)
    return reports


def _append_kill_loop(tmp_path: Path, kills: int) -> None:
    """A real writer SIGKILLed at random points of 1 MB appends. Every record it reported durable
    is there, whole; a torn tail is skipped, and the next writer's records are whole lines after
    it (half the rounds run no recovery in between); recovery cuts a torn tail."""
    root = DataRoot.resolve(str(tmp_path / "home"))
    root.memory.mkdir(parents=True)
    path = AuditLog(root.memory).path
    durable: list[int] = []
    torn = cut = after_tear = 0
    left_torn = False  # the file ends in a torn record as this round's writer starts
    for round_ in range(kills):
        reported = _kill_mid_append(path, first=round_ * 100, aim=round_ % 2 == 0)
        after_tear += left_torn and bool(reported)
        durable.extend(reported)
        data = path.read_bytes() if path.exists() else b""
        left_torn = bool(data) and not data.endswith(b"\n")
        torn += left_torn
        whole = []
        for line in data.split(b"\n")[:-1]:
            with contextlib.suppress(ValueError):
                whole.append(json.loads(line)["n"])
        assert set(durable) <= set(whole), "a record reported durable is missing (or glued)"
        if random.random() < 0.5:
            cut += bool(recovery.recover(root).cut)
            after = path.read_bytes() if path.exists() else b""
            assert after == data[: data.rfind(b"\n") + 1]
            left_torn = False
        if len(data) > 8 * MB:  # bounded disk use: start a fresh file
            path.unlink()
            durable.clear()
            left_torn = False
    print(
        f"append kill loop: {kills} kills of 1 MB appends, {torn} torn tails, {cut} cut at "
        f"recovery, {after_tear} times a writer appended whole records after a torn tail"
    )


def test_sigkill_mid_append_never_glues_never_loses_and_recovery_cuts_the_tail(
    tmp_path: Path,
) -> None:
    _append_kill_loop(tmp_path, SHORT_KILLS)


@pytest.mark.drill
def test_append_kill_drill_long(tmp_path: Path) -> None:
    _append_kill_loop(tmp_path, LONG_KILLS)
