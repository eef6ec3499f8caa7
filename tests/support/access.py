"""What another uid may open in a data root, asked of the kernel by a real process running as it.

`probe_as(user, paths)` forks a child that becomes `user` (its primary group only, as the worker's
drop leaves it; a fork, not an exec, because the interpreter may live where another uid cannot
run it) and reports, for each path, "read" or the errno's name: a directory is listed, a file
opened and read. `history_rows_as` opens history.db the way the worker does.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from support import users
from support.users import TestUser


def every_path(top: Path, *, skip: Iterable[Path] = ()) -> list[Path]:
    """`top` and every directory and regular file under it (symlinks are not followed)."""
    skipped = {p.absolute() for p in skip}
    found: list[Path] = []
    pending = [top]
    while pending:
        path = pending.pop()
        if path.absolute() in skipped:
            continue
        st = path.lstat()
        if stat.S_ISDIR(st.st_mode):
            found.append(path)
            pending.extend(sorted(path.iterdir()))
        elif stat.S_ISREG(st.st_mode):
            found.append(path)
    return sorted(found)


def _run_as(user: TestUser, request: dict[str, Any]) -> dict[str, str]:
    from shelldon.core.history.store import (
        open_readonly,  # imported before the fork, not in the child
    )

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.close(read_fd)
            users.become(user)
            out = _answer(request, open_readonly)
            os.write(write_fd, json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        raw = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert raw, f"the probe as {user.name} reported nothing (status {status})"
    result: dict[str, str] = json.loads(raw)
    return result


def probe_as(user: TestUser, paths: Iterable[Path]) -> dict[str, str]:
    """path -> "read" or the errno name (EACCES, ...) the kernel gave `user`."""
    return _run_as(user, {"paths": [os.fspath(p) for p in paths]})


def history_rows_as(user: TestUser, db: Path) -> dict[str, str]:
    """{"rows": count} of history.db read as `user` through core.history.store.open_readonly, or
    {"error": ...}."""
    return _run_as(user, {"history": os.fspath(db)})


def _read(path: str) -> str:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.listdir(path)
        else:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            try:
                os.read(fd, 1)
            finally:
                os.close(fd)
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, str(exc))
    return "read"


def _answer(request: dict[str, Any], open_readonly: Callable[[str], Any]) -> dict[str, str]:
    if "history" not in request:
        return {path: _read(path) for path in request["paths"]}
    try:
        reader = open_readonly(request["history"])
        try:
            return {"rows": str(len(reader.recent(10_000)))}
        finally:
            reader.close()
    except Exception as exc:  # reported, not raised: the caller asserts on it
        return {"error": f"{type(exc).__name__}: {exc}"}
