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
from dataclasses import dataclass
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
ARCHIVE_DIR = "archive"  # superseded and retired entries, per collection
ARCHIVE_INDEX = "index.db"  # in ARCHIVE_DIR: the retired entries' search index
EPISODES = "episodes.md"  # the appended episode log

# In a project's .shelldon/ (the agent face), beside its memory tree.
OWNER_SAID = "owner-said.jsonl"  # the user's last messages as the prompt hook saw them


@dataclass(frozen=True)
class DataRoot:
    """The data root and everything under it."""

    home: Path
    run_override: Path | None = None

    @classmethod
    def resolve(cls, home: str | os.PathLike[str] | None = None) -> DataRoot:
        if home is None:
            home = os.environ.get(HOME_ENV) or Path.home() / ".shelldon"
        run = os.environ.get(RUN_DIR_ENV)
        return cls(Path(home).expanduser().absolute(), Path(run) if run else None)

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
        return Path(env) if env else self.home / "shelldon.toml"

    def socket(self, name: str) -> Path:
        return self.run_dir / f"{name}.sock"
