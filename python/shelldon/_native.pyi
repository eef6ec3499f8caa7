# Hand-written stub for the Rust module; `just lint` checks it with mypy.stubtest.
# Keep one section per Rust module, in the order of rust/src/bindings.rs.

import os
from collections.abc import Sequence
from typing import final

__version__: str
UNICODE_VERSION: str
TEMP_MARKER: str

# ranker.rs: curated entries ranked against a turn.
@final
class RankEntry:
    """One entry as the ranker sees it; trust is the provenance's rank (0 owner, 1 observed,
    2 inferred: `shelldon.contracts.provenance.rank`); `Ranker` checks."""

    def __new__(
        cls,
        *,
        id: str,
        title: Sequence[str],
        tags: Sequence[str],
        body: Sequence[str],
        paths: Sequence[str],
        trust: int,
        confidence: float,
        updated: float,
        stale: bool,
        unverified: bool = False,
    ) -> RankEntry: ...
    @property
    def id(self) -> str: ...
    @property
    def title(self) -> list[str]: ...
    @property
    def tags(self) -> list[str]: ...
    @property
    def body(self) -> list[str]: ...
    @property
    def paths(self) -> list[str]: ...
    @property
    def trust(self) -> int: ...
    @property
    def confidence(self) -> float: ...
    @property
    def updated(self) -> float:
        """Epoch seconds."""
    @property
    def stale(self) -> bool: ...
    @property
    def unverified(self) -> bool: ...

@final
class Ranker:
    def __new__(cls, entries: list[RankEntry]) -> Ranker: ...
    def __len__(self) -> int: ...
    def rank(
        self, query: list[str], paths: list[str], now: float, limit: int
    ) -> list[tuple[int, float, float]]:
        """(index into `entries`, score, relevance), best first, ties by id; at most `limit`."""

# --- words.rs ---

@final
class Tokenizer:
    """The Snowball English stemmer and a set of stop words (`shelldon.core.words`)."""

    def __new__(cls, stopwords: list[str]) -> Tokenizer: ...
    def stem(self, word: str) -> str:
        """Snowball English for a word of letters; any other word ("2010s") as it is."""
    def tokens(self, text: str) -> list[str]:
        """The non-stop words of already folded `text`, stemmed, in order, repeats kept."""

# --- passages.rs ---

@final
class PassageScorer:
    """History recall's passage scoring (`shelldon.core.history.recall`): rows and their query
    terms' counts in, ids ranked out."""

    def __new__(
        cls,
        *,
        terms: list[str],
        weights: list[float],
        k1: float,
        b: float,
        avg_len: float,
        previous_weight: float,
        next_weight: float,
        date_boost: float,
    ) -> PassageScorer: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: int, /) -> bool: ...
    def add(self, rows: list[tuple[int, int]], counts: list[tuple[int, str, int]]) -> None:
        """Rows `(id, words)` and the query terms' counts in them `(id, term, count)`."""
    def best(self, n: int) -> list[int]:
        """The `n` ids whose own words score best, best first (ties: the newer row)."""
    def rank(self, n: int, dated: list[int] = ...) -> list[int]:
        """The `n` best passages' ids, best first, scoring above 0; `dated` rows boosted."""

def candidate_words(texts: list[str], prefixes: list[str]) -> list[str]:
    """The distinct words of the ASCII `texts` (runs of ASCII letters and digits, as sqlite's
    unicode61 splits ASCII, lower-cased) that begin with one of `prefixes`, sorted."""

def count_terms(
    rows: list[tuple[int, str]], prefixes: list[str], terms: dict[str, str]
) -> list[tuple[int, str, int]]:
    """(row id, term, occurrences) of the words `terms` maps to a query term, in the ASCII rows
    (the others are the caller's)."""

# --- atomic.rs / append.rs ---

def atomic_write(
    path: str | os.PathLike[str], data: bytes, mode: int = 0o644, durable: bool = True
) -> None:
    """Replace `path` atomically (and durably unless `durable` is False: the caller then syncs the
    filesystem); OSError (with errno) leaves the old file untouched."""

def durable_append(
    path: str | os.PathLike[str], data: bytes, mode: int = 0o644, durable: bool = True
) -> int:
    """Append one record (non-empty, ending with a newline; ValueError otherwise) with one fsync
    (none when `durable` is False), created at `mode` if absent; returns the file's new size.
    Under an exclusive flock of the file:
    a write that fails partway is cut back before the OSError, and a file ending in a torn record
    gets a newline before this one."""

def fsync_dir(path: str | os.PathLike[str]) -> None:
    """fsync a directory so a rename or unlink in it is durable; OSError (ENOTDIR for a file)."""

def sync_filesystem(path: str | os.PathLike[str]) -> None:
    """syncfs(2) the filesystem holding `path`: every write made so far on it is durable."""

# --- the allocator ---

def trim_heap() -> bool:
    """Give the C heap's free pages back to the kernel (glibc's malloc_trim(0)); True when some
    were."""

def limit_malloc_arenas(count: int) -> bool:
    """Every thread allocates from at most `count` malloc arenas (glibc's M_ARENA_MAX); True when
    the C library took it."""

# --- fts.rs ---

def fts_query(query: str, max_terms: int = 16, max_term_chars: int = 64) -> str | None:
    """Quoted, OR-ed word terms for FTS5 MATCH; None when no term remains."""

# --- filename.rs ---

def filename_stem(name: str, max_bytes: int = 120) -> str:
    """Path-safe file name stem (NFC, casefold, non-word runs to '-'); ValueError if empty."""

# scanner.rs: the gate's rule scanner (secrets, instruction-shaped text).

@final
class RuleSpec:
    """One scanner rule; `prefilter` empty: the rule always runs; `min_entropy` 0: no floor."""

    def __new__(
        cls,
        *,
        id: str,
        pattern: str,
        prefilter: list[str],
        min_entropy: float,
        skip_placeholders: bool,
    ) -> RuleSpec: ...
    @property
    def id(self) -> str: ...
    @property
    def pattern(self) -> str: ...
    @property
    def prefilter(self) -> list[str]: ...
    @property
    def min_entropy(self) -> float: ...
    @property
    def skip_placeholders(self) -> bool: ...

@final
class Scanner:
    """Rules compiled once; `scan` gives (rule id, start, end) in characters."""

    def __new__(cls, rules: list[RuleSpec], placeholders: list[str]) -> Scanner: ...
    def scan(self, text: str) -> list[tuple[str, int, int]]: ...
    def scan_batch(self, texts: list[str]) -> list[list[tuple[str, int, int]]]: ...
    def rules_hit(self, text: str) -> list[str]: ...
    def is_placeholder(self, value: str) -> bool: ...
    def release_caches(self) -> None: ...
    def cache_bytes(self) -> int: ...
    def release_compiled(self) -> None: ...
    def compiled_rules(self) -> int: ...
    def rule_ids(self) -> list[str]: ...
    def __len__(self) -> int: ...

def shannon_entropy(text: str) -> float: ...
def seed_phrase_spans(text: str) -> list[tuple[int, int]]: ...
def seed_word_runs(text: str, min_words: int) -> list[tuple[int, int]]: ...
def seed_words() -> list[str]: ...

# lexical.rs: the gate's learned part (hashed n-grams, a linear model).

def lexical_features(text: str, bits: int) -> list[int]: ...

@final
class LexicalModel:
    """Weights read from a SHLXLIN2 file; `score` gives (probability, strongest n-grams)."""

    def __new__(cls, data: bytes) -> LexicalModel: ...
    def score(self, text: str, top: int = 3) -> tuple[float, list[tuple[str, float]]]: ...
    @property
    def bits(self) -> int: ...

# credential.rs: the gate's learned credential part (candidates, a linear model).

def credential_candidates(text: str) -> list[tuple[int, int, list[str]]]: ...

@final
class CredentialModel:
    """Weights read from a SHLXCRD1 file; `scan` gives the candidates at or over a threshold."""

    def __new__(cls, data: bytes, placeholders: list[str] = ...) -> CredentialModel: ...
    def release_compiled(self) -> None: ...
    def scan(
        self, text: str, threshold: float, top: int = 3
    ) -> list[tuple[int, int, float, list[tuple[str, float]]]]: ...
    def probability(self, features: list[str]) -> float: ...
    @property
    def bits(self) -> int: ...

# similarity.rs: the gate's near-duplicate check.

@final
class Comparison:
    """A candidate against one other text: Dice `score` of content tokens, `veto` ("",
    "negation", "number", "proper_noun"), content tokens only the candidate has (`added`) and
    only the other has (`dropped`)."""

    def __new__(cls, *, score: float, veto: str, added: int, dropped: int) -> Comparison: ...
    @property
    def score(self) -> float: ...
    @property
    def veto(self) -> str: ...
    @property
    def added(self) -> int: ...
    @property
    def dropped(self) -> int: ...

def similarity_batch(candidate: str, others: list[str]) -> list[Comparison]: ...

# sandbox.rs: the worker's seccomp filter (a deny-list; docs/processes.md).
def worker_filter(errno: int = 1) -> bytes: ...
def filtered_calls() -> list[tuple[str, int, str]]: ...
def install_filter(program: bytes) -> None: ...
def prctl(option: int, arg2: int = 0) -> int: ...
def try_filtered_calls() -> list[tuple[str, str, int, int]]: ...
