"""Where shelldon keeps things: one data root, from --home, SHELLDON_HOME or ~/.shelldon.

Every path the program uses is derived here, so tests inject a temporary root and nothing
ever touches a real home.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HOME_ENV = "SHELLDON_HOME"
RUN_DIR_ENV = "SHELLDON_RUN_DIR"
CONFIG_ENV = "SHELLDON_CONFIG"
CHAT_HISTORY_NAME = "chat_history"  # a private file: layout.settle_modes keeps it 0600


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
        return self.home / "history.db"

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
    def chat_history(self) -> Path:
        """The terminal chat's line history (readline's file), private to the owner (0600)."""
        return self.home / CHAT_HISTORY_NAME

    @property
    def config(self) -> Path:
        env = os.environ.get(CONFIG_ENV)
        return Path(env) if env else self.home / "shelldon.toml"

    def socket(self, name: str) -> Path:
        return self.run_dir / f"{name}.sock"
