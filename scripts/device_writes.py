"""What core's turns dirty in the page cache, by file: the bytes the SD card is asked to store.

`/proc/PID/io` `write_bytes` counts a whole 4 KiB page each time a clean page is dirtied; this
says which files those pages belong to. The kernel's `writeback:writeback_dirty_folio` event
(tracefs; root) names the inode and page of every page dirtied; the events of core's threads are
summed by inode and each inode named from the data root. A page of the block device itself (the
file system's metadata: inode tables, directories, bitmaps, changed by every mtime update and
every file created or renamed) is shown as "file system metadata".

    sudo .venv/bin/python scripts/device_writes.py [--turns 100] [--warm 60] [--worker-user NAME]

The real pet (offline brain) in a temporary home on the file system /tmp is on, talked to with
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pet_process import start_run
from turn_cost import message

from shelldon import ipc
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--warm", type=int, default=60, help="turns before counting")
    parser.add_argument("--worker-user", default=None)
    args = parser.parse_args()
    if not EVENT.exists():
        print(f"no {EVENT}: run as root with tracefs mounted on {TRACING}", file=sys.stderr)
        return 2
    home = Path(tempfile.mkdtemp(prefix="shelldon-device-", dir="/tmp"))
    os.chmod(home, 0o755)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(home / "run"))
    env.pop("SHELLDON_CONFIG", None)
    if args.worker_user:
        env["SHELLDON_WORKER_USER"] = args.worker_user
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
        before = _io(pid)
        try:
            for i in range(args.warm, args.warm + args.turns):
                _turn(sock, i)
        finally:
            _write(EVENT, "0")
            _write(TRACING / "tracing_on", was_on)
        after = _io(pid)
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
