"""Where shelldon keeps things: one data root, from --home, SHELLDON_HOME or ~/.shelldon.

Every path the program uses is derived here, so tests inject a temporary root and nothing
ever touches a real home: the root's directories (`DataRoot`), and the names of the files in them.
A memory tree's names are relative to its root, since the agent face keeps a project's tree
elsewhere (`<project>/.shelldon/memory`). The curated files themselves (DIRECTIVE.md, about.md,
summary.md, the collections) are named by core.memory.reader, where the one read of DIRECTIVE.md
lives (tests/core/memory/test_memory.py keeps it the only place that names it).
tests/test_paths.py checks that no other module names a file of its own.
"""

from __future__ import annotations

import os

# Not `typing.TYPE_CHECKING`, and pathlib only where a Path is made: `shelldon say` finds core's
# socket with `socket_text` and imports neither pathlib nor dataclasses (docs/cli.md).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

HOME_ENV = "SHELLDON_HOME"
RUN_DIR_ENV = "SHELLDON_RUN_DIR"
CONFIG_ENV = "SHELLDON_CONFIG"
CHAT_HISTORY_NAME = "chat_history"  # a private file: layout.settle_modes keeps it 0600

HISTORY_DB = "history.db"  # in the root (and in a backup)

# In state/: small core-owned files.
SCHEDULER_STATE = "scheduler.json"  # the dream budget and its last outcome (core.proactive.service)
DREAM_LOCK = "dream.lock"  # one dream at a time, across processes (core.dream.cycle)
PROMPTS_LOG = "prompts.jsonl"  # SHELLDON_RECORD_PROMPTS=1 only: the prompts workers assembled
BOOT_MARK = "core.boot"  # the boot core last started in (core.storage.durability)
CORRECTIONS = "corrections.json"  # an owner's "no, that's wrong" (core.learning.corrections)
PROCEDURES_LEDGER = "procedures.jsonl"  # procedures on their way to skills (core.learning.skills)
UPDATE_TOLD = "update-told.json"  # the update outcome already told (core.proactive.update_notice)

# The appliance's releases (appliance.releases), outside the data root: an update never touches it.
RELEASES_ENV = "SHELLDON_RELEASES"  # tests point it at a temporary tree
DEFAULT_RELEASES = "/opt/shelldon"
UPDATE_OUTCOME = "last-update.json"  # in the releases root: the last update's outcome

# In a memory tree, relative to its root.
MEMORY_INDEX = "MEMORY.md"  # the index (core.memory.index)
AUDIT_LOG = "history.jsonl"  # every decision (core.memory.audit)
AUDIT_LOCK = ".audit.lock"
WRITE_LOCK = ".write.lock"  # core's one writer (core.memory.writer)
UNDO_DIR = ".undo"  # the audit log's blob store, private
UNDO_PACK = "blobs.jsonl"  # in UNDO_DIR: the blobs, one appended line each (core.memory.blobs)
ARCHIVE_DIR = "archive"  # superseded and retired entries, per collection
ARCHIVE_INDEX = "index.db"  # in ARCHIVE_DIR: the retired entries' search index
EPISODES = "episodes.md"  # the appended episode log

# In a project's .shelldon/ (the agent face), beside its memory tree.
OWNER_SAID = "owner-said.jsonl"  # the user's last messages as the prompt hook saw them


def home_text(home: str | os.PathLike[str] | None = None) -> str:
    """The data root as absolute text: `home`, else $SHELLDON_HOME, else ~/.shelldon."""
    if home is None:
        home = os.environ.get(HOME_ENV) or os.path.join(os.path.expanduser("~"), ".shelldon")
    text = os.path.expanduser(os.fspath(home))
    return _tidy(text if os.path.isabs(text) else os.path.join(os.getcwd(), text))


def run_dir_text(home: str, run_dir: str | None = None) -> str:
    """The run directory as text: `run_dir` (--run-dir, made absolute), else $SHELLDON_RUN_DIR,
    else <home>/run."""
    if run_dir:
        return home_text(run_dir)
    return os.environ.get(RUN_DIR_ENV) or os.path.join(home, "run")


def socket_text(name: str, home: str, run_dir: str | None = None) -> str:
    """`DataRoot.socket(name)` as text, for a client that needs nothing else of the root."""
    return _tidy(os.path.join(run_dir_text(home, run_dir), f"{name}.sock"))


def _tidy(path: str) -> str:
    """`path` as pathlib spells it: no empty or "." parts, no trailing slash."""
    parts = [part for part in path.split("/") if part not in ("", ".")]
    return ("/" if path.startswith("/") else "") + "/".join(parts) or "."


class DataRoot:
    """The data root and everything under it (frozen; equal when both paths are)."""

    __slots__ = ("home", "run_override")
    home: Path
    run_override: Path | None

    def __init__(self, home: Path, run_override: Path | None = None) -> None:
        object.__setattr__(self, "home", home)
        object.__setattr__(self, "run_override", run_override)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"DataRoot is frozen: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DataRoot):
            return NotImplemented
        return (self.home, self.run_override) == (other.home, other.run_override)

    def __hash__(self) -> int:
        return hash((self.home, self.run_override))

    def __repr__(self) -> str:
        return f"DataRoot(home={self.home!r}, run_override={self.run_override!r})"

    def __reduce__(self) -> tuple[type[DataRoot], tuple[Path, Path | None]]:
        return DataRoot, (self.home, self.run_override)

    @classmethod
    def resolve(
        cls, home: str | os.PathLike[str] | None = None, run_dir: str | None = None
    ) -> DataRoot:
        """The root of `home_text(home)`; its run directory `run_dir` (--run-dir) when given,
        else $SHELLDON_RUN_DIR when set, else <home>/run."""
        from pathlib import Path

        run = home_text(run_dir) if run_dir else os.environ.get(RUN_DIR_ENV)
        return cls(Path(home_text(home)), Path(run) if run else None)

    @property
    def history_db(self) -> Path:
        return self.home / HISTORY_DB

    @property
    def memory(self) -> Path:
        return self.home / "memory"

    @property
    def vault(self) -> Path:
        return self.memory / "vault"

    @property
    def run_dir(self) -> Path:
        """Sockets and pid files. /run/shelldon on the appliance, <home>/run elsewhere."""
        return self.run_override if self.run_override is not None else self.home / "run"

    @property
    def state(self) -> Path:
        """Small core-owned state files (scheduler state, turn counters)."""
        return self.home / "state"

    @property
    def quarantine(self) -> Path:
        """Torn files core set aside at start, bytes as found (core.upkeep.torn_entries)."""
        return self.home / "quarantine"

    @property
    def chat_history(self) -> Path:
        """The terminal chat's line history (readline's file), private to the owner (0600)."""
        return self.home / CHAT_HISTORY_NAME

    @property
    def config(self) -> Path:
        env = os.environ.get(CONFIG_ENV)
        if env:
            from pathlib import Path

            return Path(env)
        return self.home / "shelldon.toml"

    def socket(self, name: str) -> Path:
        return self.run_dir / f"{name}.sock"
