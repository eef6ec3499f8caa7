"""What core's turns dirty in the page cache, by file: the bytes the SD card is asked to store.

`/proc/PID/io` `write_bytes` counts a whole 4 KiB page each time a clean page is dirtied; this
says which files those pages belong to. The kernel's `writeback:writeback_dirty_folio` event
(tracefs; root) names the inode and page of every page dirtied; the events of core's threads are
summed by inode and each inode named from the data root. A page of the block device itself (the
file system's metadata: inode tables, directories, bitmaps, changed by every mtime update and
every file created or renamed) is shown as "file system metadata".

Dirtied pages are not all of it: ext4's journal (jbd2 writes every changed metadata block there
first, with its own buffers, no dirtied page) and a page dirtied again after its writeback are
what the block device itself counts. So the script also prints the sectors the data root's block
device wrote over the turns (`/sys/dev/block/MAJ:MIN/stat`, a syncfs before and after, so what a
run left dirty is counted too). Every writer of that device is in it: give `--root` a file
system of its own, e.g. a loop-mounted ext4 with the card's mount options (docs/performance.md,
"What reaches the SD card").

    sudo .venv/bin/python scripts/device_writes.py [--turns 100] [--warm 60] [--worker-user NAME]
        [--root DIR] [--tree CHECKOUT] [--pace SECONDS]

The real pet (offline brain) in a temporary home under --root (/tmp by default), talked to with
scripts/turn_cost.py's mix. Figures of this machine (docs/performance.md, "Storage per owner turn").
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pet_process import start_run
from turn_cost import message

from shelldon import _native, ipc
from shelldon.contracts import wire

TRACING = Path("/sys/kernel/tracing")
EVENT = TRACING / "events" / "writeback" / "writeback_dirty_folio" / "enable"
_LINE = re.compile(r"\(\s*(\d+)\)\s+\[.*ino=(\d+) index=(\d+)")
# A page past 4 GiB is not one of the pet's files: it is the block device's own page cache, where
# the file system keeps its metadata blocks.
_METADATA_INDEX = 1 << 20


def _write(path: Path, text: str) -> None:
    path.write_text(text)


def _turn(sock: Path, i: int) -> None:
    answer = ipc.request(sock, wire.Say(text=message(i)), timeout=60)
    assert isinstance(answer, wire.Reply), answer
    ipc.request(sock, wire.StatusRequest(), timeout=60)  # after the turn's writes


def _io(pid: int) -> dict[str, int]:
    lines = Path(f"/proc/{pid}/io").read_text().splitlines()
    return {key: int(value) for key, value in (line.split(": ") for line in lines)}


def _sectors_written(path: Path) -> tuple[str, int] | None:
    """The block device holding `path` and the sectors (512 bytes) it has written since it
    appeared; None when it is not a block device (tmpfs, overlay)."""
    dev = os.stat(path).st_dev
    stat = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}/stat")
    try:
        fields = stat.read_text().split()
    except OSError:
        return None
    return stat.parent.resolve().name, int(fields[6])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--warm", type=int, default=60, help="turns before counting")
    parser.add_argument("--worker-user", default=None)
    parser.add_argument(
        "--root", type=Path, default=Path("/tmp"), help="where the pet's home is made"
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between counted turns (past the kernel's dirty expiry, 30 s, a page "
        "left dirty by one turn is written back before the next dirties it again)",
    )
    parser.add_argument("--tree", type=Path, default=None, help="a checkout whose python/ to run")
    args = parser.parse_args()
    if not EVENT.exists():
        print(f"no {EVENT}: run as root with tracefs mounted on {TRACING}", file=sys.stderr)
        return 2
    if not args.root.is_dir():
        print(f"no directory {args.root}", file=sys.stderr)
        return 2
    home = Path(tempfile.mkdtemp(prefix="shelldon-device-", dir=args.root))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    if args.worker_user:
        env["SHELLDON_WORKER_USER"] = args.worker_user
    if args.tree is not None:  # a before/after in one sitting
        env["PYTHONPATH"] = str(args.tree.resolve() / "python")
    proc = start_run(env)
    try:
        sock = home / "run" / "core.sock"
        pid = int((home / "run" / "core.pid").read_text())
        for i in range(args.warm):
            _turn(sock, i)
        _write(TRACING / "trace", "")
        _write(TRACING / "options" / "record-tgid", "1")
        was_on = (TRACING / "tracing_on").read_text().strip()
        _write(EVENT, "1")
        _write(TRACING / "tracing_on", "1")
        _native.sync_filesystem(home)
        device_before = _sectors_written(home)
        before = _io(pid)
        try:
            for i in range(args.warm, args.warm + args.turns):
                if args.pace and i > args.warm:
                    time.sleep(args.pace)  # a pet talked to now and then, not a burst
                _turn(sock, i)
        finally:
            _write(EVENT, "0")
            _write(TRACING / "tracing_on", was_on)
        after = _io(pid)
        _native.sync_filesystem(home)
        device_after = _sectors_written(home)
        pages: collections.Counter[int] = collections.Counter()
        metadata: set[int] = set()
        for line in (TRACING / "trace").read_text().splitlines():
            found = _LINE.search(line)
            if found and int(found.group(1)) == pid:
                pages[int(found.group(2))] += 1
                if int(found.group(3)) >= _METADATA_INDEX:
                    metadata.add(int(found.group(2)))
        names = {}
        for path in home.rglob("*"):
            with contextlib.suppress(OSError):  # a file gone since the listing
                names[path.lstat().st_ino] = str(path.relative_to(home))
        device = (after["write_bytes"] - before["write_bytes"]) / args.turns / 1024
        calls = (after["wchar"] - before["wchar"]) / args.turns / 1024
        print(f"core, per turn: {device:.1f} KiB write_bytes, {calls:.1f} KiB through write calls")
        if device_before and device_after:
            written = (device_after[1] - device_before[1]) * 512 / args.turns / 1024
            print(
                f"{device_after[0]} (all its writers), per turn: {written:.1f} KiB written "
                f"to the device, its journal included"
            )
        print("| file | KiB dirtied per turn |\n|---|---|")
        grouped: collections.Counter[str] = collections.Counter()
        for inode, count in pages.items():
            name = names.get(inode)
            if inode in metadata:
                name = "file system metadata"
            elif name is None:
                name = "files since deleted"
            elif name.startswith("memory/.undo/"):
                name = "memory/.undo/* (the audit log's blobs)"
            elif name.startswith("memory/") and name.endswith(".md") and name.count("/") >= 2:
                name = "memory/<collection>/*.md (entries; archive/ included)"
            grouped[name] += count
        for name, count in grouped.most_common():
            print(f"| {name} | {count * 4 / args.turns:.1f} |")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", str(home)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
