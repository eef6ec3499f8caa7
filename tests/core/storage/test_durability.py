"""core.storage.durability: a batch's writes skip their fsyncs and end with one fsync of each file
and directory they touched, no syncfs; the boot mark.

The fsync counts are read from the kernel's side with strace (a real child process, its real
syscalls): installed from Debian under CI as root (image/deps.sh), skipped elsewhere without it.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from shelldon import paths
from shelldon.core.storage import durability, layout

REPO = Path(__file__).resolve().parents[3]
SYNC_CALLS = ("fsync", "fdatasync", "syncfs", "sync_file_range")

WRITES = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from shelldon.core.storage import durability

    where, mode = Path(sys.argv[1]), sys.argv[2]

    def writes():
        for n in range(3):
            durability.replace_file(where / f"entry-{n}.md", b"an entry\\n", 0o640)
        durability.append_record(where / "history.jsonl", b"{}\\n", 0o640)
        durability.append_record(where / "history.jsonl", b"{}\\n", 0o640)
        (where / "entry-0.md").unlink()
        durability.sync_dir(where)

    if mode == "batched":
        with durability.one_sync():
            writes()
    elif mode == "made":  # two directories made inside the batch
        with durability.one_sync():
            durability.ensure_dir(where / "sub", 0o750)
            writes()
    else:
        writes()
    """
)


def _strace() -> str:
    found = shutil.which("strace")
    if found is None and os.environ.get("CI") == "true" and os.geteuid() == 0:
        subprocess.run([str(REPO / "image" / "deps.sh"), "check"], check=True)
        found = shutil.which("strace")
    if found is None:
        pytest.skip("strace is not installed: the fsync calls cannot be counted")
    return found


def _sync_calls(tmp_path: Path, mode: str) -> Counter[str]:
    """The sync calls the writes made, by name."""
    return Counter(name for name, _ in _traced_syncs(tmp_path, mode).elements())


def _traced_syncs(tmp_path: Path, mode: str) -> Counter[tuple[str, str]]:
    where = tmp_path / mode
    if mode != "made":
        where.mkdir()
    trace = tmp_path / f"{mode}.trace"
    done = subprocess.run(
        [
            _strace(),
            "-f",
            "-qq",
            "-y",  # an fd's path: fsync(3</tmp/...>)
            "-e",
            "trace=" + ",".join(SYNC_CALLS),
            "-o",
            str(trace),
            sys.executable,
            "-c",
            WRITES,
            str(where),
            mode,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0 and "ptrace" in done.stderr:
        pytest.skip(f"strace cannot trace here: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr
    made = ["sub"] if mode == "made" else []
    assert sorted(p.name for p in where.iterdir()) == [
        "entry-1.md",
        "entry-2.md",
        "history.jsonl",
        *made,
    ]
    # "PID  fsync(3</path>) = 0": strace pads the pid to five columns.
    call = re.compile(rf"^\d+\s+({'|'.join(SYNC_CALLS)})\(\d+<([^>]*)>")
    calls: Counter[tuple[str, str]] = Counter()
    for line in trace.read_text().splitlines():
        if found := call.match(line):
            calls[found.group(1), found.group(2)] += 1
    return calls


def test_a_batch_fsyncs_each_file_and_directory_it_touched_once(tmp_path: Path) -> None:
    where = tmp_path / "batched"
    calls = _traced_syncs(tmp_path, "batched")
    # No syncfs: it would write back every dirty page of the file system (sqlite's -shm).
    # entry-0.md, replaced and then unlinked, is covered by its directory's fsync.
    assert calls == Counter(
        {
            ("fsync", str(where / "entry-1.md")): 1,
            ("fsync", str(where / "entry-2.md")): 1,
            ("fsync", str(where / "history.jsonl")): 1,
            ("fsync", str(where)): 1,
        }
    )


def test_a_directory_made_in_a_batch_is_synced_in_its_parent(tmp_path: Path) -> None:
    where = tmp_path / "made"
    calls = _traced_syncs(tmp_path, "made")
    # `made` and `made/sub`, both made by ensure_dir: each one's entry is in its parent, and the
    # parent is fsynced once however many reasons it has.
    assert calls == Counter(
        {
            ("fsync", str(where / "entry-1.md")): 1,
            ("fsync", str(where / "entry-2.md")): 1,
            ("fsync", str(where / "history.jsonl")): 1,
            ("fsync", str(tmp_path)): 1,
            ("fsync", str(where)): 1,
        }
    )


def test_an_append_to_a_file_that_exists_leaves_its_directory_alone(tmp_path: Path) -> None:
    log = tmp_path / "history.jsonl"
    log.write_bytes(b"{}\n")
    with durability.one_sync():
        durability.append_record(log, b"{}\n", 0o640)
        batch = durability._BATCH.get()
        assert batch is not None
        assert (list(batch.files), list(batch.dirs)) == ([log], [])
    assert log.read_bytes() == b"{}\n{}\n"


def test_outside_a_batch_each_write_is_durable_on_its_own(tmp_path: Path) -> None:
    calls = _sync_calls(tmp_path, "alone")
    # Three replaces (file, then directory), two appends (the first creates: + directory), one
    # directory after the unlink.
    assert calls["syncfs"] == 0
    assert calls["fsync"] + calls["fdatasync"] == 3 * 2 + 2 + 1 + 1


def test_a_batch_that_wrote_nothing_syncs_nothing(tmp_path: Path) -> None:
    with durability.one_sync():
        assert durability.batching()
        assert durability._BATCH.get() == durability._Batch()
    assert not durability.batching()


def test_a_nested_batch_joins_the_outer_one(tmp_path: Path) -> None:
    with durability.one_sync():
        with durability.one_sync():
            durability.replace_file(tmp_path / "x.md", b"x\n", 0o640)
        assert durability.batching()  # the inner exit neither ended the batch nor synced
        batch = durability._BATCH.get()
        assert batch is not None and list(batch.files) == [tmp_path / "x.md"]
    assert (tmp_path / "x.md").read_bytes() == b"x\n"


def test_a_failed_sync_is_raised_as_a_sync_failure(tmp_path: Path) -> None:
    anchor = tmp_path / "anchor"
    (anchor / "sub").mkdir(parents=True)
    with pytest.raises(durability.SyncFailed) as failed, durability.one_sync():
        durability.replace_file(anchor / "sub" / "x.md", b"x\n", 0o640)
        (anchor / "sub" / "x.md").unlink()
        (anchor / "sub").rmdir()  # the directory to fsync is gone: it cannot be opened
    assert failed.value.errno == errno.ENOENT
    assert isinstance(failed.value, OSError)


def test_the_boot_mark_tells_a_reboot_from_a_restart(tmp_path: Path) -> None:
    if durability.current_boot() is None:
        pytest.skip("no /proc/sys/kernel/random/boot_id here")
    state = tmp_path / "state"
    state.mkdir()
    assert durability.booted_since(state, layout.FILE_MODE)  # no mark yet: cannot tell
    assert not durability.booted_since(state, layout.FILE_MODE)  # a restart in the same boot
    (state / paths.BOOT_MARK).write_text("another-boot\n")
    assert durability.booted_since(state, layout.FILE_MODE)  # a power cut, a reboot
    assert (state / paths.BOOT_MARK).read_text() == durability.current_boot()
    assert not durability.booted_since(state, layout.FILE_MODE)
