"""Pure-Python references for rust/src/{atomic,append,fts,filename}.rs.

The differential property tests check the Rust functions against these on generated input,
and the benchmarks use them as the baseline. The product never imports this module.
"""

from __future__ import annotations

import fcntl
import os
import re
import unicodedata
from pathlib import Path

MAX_TERMS = 16
MAX_TERM_CHARS = 64
MAX_STEM_BYTES = 120
_WORD_RUN = re.compile(r"\w+")
_NOT_WORD_OR_DASH = re.compile(r"[^\w-]+")


def fts_query(
    query: str, max_terms: int = MAX_TERMS, max_term_chars: int = MAX_TERM_CHARS
) -> str | None:
    terms: list[str] = []
    for run in _WORD_RUN.findall(query):
        if len(terms) >= max_terms:
            break
        term = run[:max_term_chars]
        if term and term not in terms:
            terms.append(term)
    if not terms:
        return None
    return " OR ".join(f'"{t}"' for t in terms)


def filename_stem(name: str, max_bytes: int = MAX_STEM_BYTES) -> str:
    folded = unicodedata.normalize("NFC", name).casefold()
    stem = _NOT_WORD_OR_DASH.sub("-", folded).strip("-")
    encoded = stem.encode("utf-8", "surrogatepass")
    if len(encoded) > max_bytes:
        stem = encoded[:max_bytes].decode("utf-8", "ignore").rstrip("-")
    if not stem:
        raise ValueError("name has no word characters to make a filename from")
    return stem


def atomic_write(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> None:
    target = Path(path)
    temp = target.with_name(f".{target.name}.tmp-ref-{os.getpid()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(temp)
        raise
    os.close(fd)
    try:
        os.replace(temp, target)
    except BaseException:
        os.unlink(temp)
        raise
    dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def durable_append(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> int:
    if not data.endswith(b"\n"):
        raise ValueError("a record must be non-empty and end with a newline")
    target = Path(path)
    created = False
    try:
        fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
    except FileNotFoundError:
        fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
        os.fchmod(fd, mode)
        created = True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data  # a torn tail: the record starts a line of its own
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            os.ftruncate(fd, size)
            raise
        os.fdatasync(fd)
        size = os.fstat(fd).st_size
    finally:
        os.close(fd)
    if created:
        dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    return size
