# Hand-written stub for the Rust module; `just lint` checks it with mypy.stubtest.
# Keep one section per Rust module, in the order of rust/src/bindings.rs.

import os
from typing import final

__version__: str
UNICODE_VERSION: str
TEMP_MARKER: str

# ranker.rs: curated entries ranked against a turn.
@final
class Ranker:
    def __new__(
        cls,
        entries: list[
            tuple[str, list[str], list[str], list[str], list[str], int, float, float, bool]
        ],
    ) -> Ranker: ...
    def __len__(self) -> int: ...
    def rank(
        self, query: list[str], paths: list[str], now: float, limit: int
    ) -> list[tuple[int, float, float]]: ...

# --- atomic.rs / append.rs ---

def atomic_write(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> None:
    """Replace `path` atomically and durably; OSError (with errno) leaves the old file untouched."""

def durable_append(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> int:
    """Append with one fsync (created at `mode` if absent); returns the file's new size."""

def fsync_dir(path: str | os.PathLike[str]) -> None:
    """fsync a directory so a rename or unlink in it is durable; OSError (ENOTDIR for a file)."""

# --- fts.rs ---

def fts_query(query: str, max_terms: int = 16, max_term_chars: int = 64) -> str | None:
    """Quoted, OR-ed word terms for FTS5 MATCH; None when no term remains."""

# --- stem.rs ---

def safe_stem(name: str, max_bytes: int = 120) -> str:
    """Path-safe filename stem (NFC, casefold, non-word runs to '-'); ValueError if empty."""

# scanner.rs: the gate's rule scanner (secrets, instruction-shaped text).

@final
class Scanner:
    """Rules compiled once: (id, pattern, prefilter literals, entropy floor, skip placeholders)."""

    def __new__(
        cls, rules: list[tuple[str, str, list[str], float, bool]], placeholders: list[str]
    ) -> Scanner: ...
    def scan(self, text: str) -> list[tuple[str, int, int]]: ...
    def scan_batch(self, texts: list[str]) -> list[list[tuple[str, int, int]]]: ...
    def rules_hit(self, text: str) -> list[str]: ...
    def is_placeholder(self, value: str) -> bool: ...
    def rule_ids(self) -> list[str]: ...
    def __len__(self) -> int: ...

def shannon_entropy(text: str) -> float: ...

# similarity.rs: the gate's near-duplicate check.

def similarity_batch(candidate: str, others: list[str]) -> list[tuple[float, str, int, int]]: ...
