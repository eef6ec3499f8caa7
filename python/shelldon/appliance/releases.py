"""The releases of shelldon on the card, side by side, and the switch between them.

    /opt/shelldon/releases/<version>/   lib/shelldon/... (the package, byte-compiled), VERSION
    /opt/shelldon/current  -> releases/<version>   what the units run (shelldon.pth names it)
    /opt/shelldon/previous -> releases/<version>   the version to fall back to
    /opt/shelldon/trial.json      present while a new version runs on trial
    /opt/shelldon/last-update.json  the last update's outcome (status, the paired chat's notice)

Every change is a rename of a fully written, fsync'd file or symlink, then an fsync of the
directory (SQLite's and systemd's rule: a power cut at any instant leaves the old name or the new
one, never half of either). The order of `begin_trial` makes each instant safe:
  1. the release's tree is written under .staging-*, fsync'd, renamed to releases/<version>
  2. previous -> the running version
  3. trial.json (candidate, previous, boots 0)
  4. current -> the candidate
A cut before 4 leaves `current` on the old version (`recover` drops a trial whose candidate is not
current, and any .staging-*); a cut after 4 boots the candidate on trial, and `recover` counts the
boots: the candidate gets MAX_TRIAL_BOOTS boots to pass its self-test, then it is rolled back
before the pet starts (Home Assistant OS gives a slot 3 attempts). The pet's data
(/var/lib/shelldon) is never under this tree.

Standard library only (see appliance.bundle).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shelldon.paths import DEFAULT_RELEASES, RELEASES_ENV, UPDATE_OUTCOME

RELEASE_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$")

MAX_TRIAL_BOOTS = 2  # boots a candidate may take to pass its self-test, after the one it came in


class ReleaseError(Exception):
    """An update that cannot go on: one line for the owner."""


class BundleError(ReleaseError):
    """A bundle refused before anything was written (appliance.bundle)."""


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Atomically: a temporary file, fsync, rename, fsync of the directory."""
    tmp = path.with_name(f".{path.name}.new")
    with tmp.open("w") as out:
        json.dump(data, out, indent=1, sort_keys=True)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class Releases:
    root: Path

    @classmethod
    def on_card(cls) -> Releases:
        return cls(Path(os.environ.get(RELEASES_ENV) or DEFAULT_RELEASES))

    @property
    def releases_dir(self) -> Path:
        return self.root / "releases"

    @property
    def trial_file(self) -> Path:
        return self.root / "trial.json"

    @property
    def updating_file(self) -> Path:
        """Present from the first byte an update writes until its switch (the boot unit's cue)."""
        return self.root / "updating.json"

    def mark_updating(self, version: str) -> None:
        write_json(self.updating_file, {"version": version, "started": now_iso()})

    @property
    def outcome_file(self) -> Path:
        return self.root / UPDATE_OUTCOME

    def release(self, version: str) -> Path:
        if not RELEASE_ID.match(version):
            raise ReleaseError(f"{version!r} is not a release name")
        return self.releases_dir / version

    def staging(self, version: str) -> Path:
        return self.releases_dir / f".staging-{version}-{os.getpid()}"

    def link(self, name: str) -> str | None:
        """The version `current` or `previous` points at, if it is a release that exists."""
        try:
            target = os.readlink(self.root / name)
        except OSError:
            return None
        version = Path(target).name
        if not RELEASE_ID.match(version) or not (self.releases_dir / version).is_dir():
            return None
        return version

    def current(self) -> str | None:
        return self.link("current")

    def previous(self) -> str | None:
        return self.link("previous")

    def versions(self) -> list[str]:
        if not self.releases_dir.is_dir():
            return []
        return sorted(p.name for p in self.releases_dir.iterdir() if RELEASE_ID.match(p.name))

    def point(self, name: str, version: str) -> None:
        """`name` -> releases/<version>, by renaming a new symlink over the old one."""
        if not self.release(version).is_dir():
            raise ReleaseError(f"no release {version}")
        tmp = self.root / f".{name}.new"
        tmp.unlink(missing_ok=True)
        os.symlink(f"releases/{version}", tmp)
        os.replace(tmp, self.root / name)
        fsync_dir(self.root)

    def install(self, staged: Path, version: str) -> None:
        """The staged tree becomes releases/<version> (one rename)."""
        target = self.release(version)
        if target.exists():
            raise ReleaseError(f"release {version} is already on the card")
        os.replace(staged, target)
        fsync_dir(self.releases_dir)

    def begin_trial(self, candidate: str, *, checkpoint: Any = None) -> str:
        """Steps 2-4 of the switch (the module's docstring); returns the version left behind.
        `checkpoint(step)` is called after each step (the kill tests stop there)."""
        running = self.current()
        if running is None:
            raise ReleaseError("no current release to update from")
        if candidate == running:
            raise ReleaseError(f"{candidate} is the running version")
        self.point("previous", running)
        _step(checkpoint, "previous")
        write_json(
            self.trial_file,
            {"candidate": candidate, "previous": running, "started": now_iso(), "boots": 0},
        )
        _step(checkpoint, "trial")
        self.point("current", candidate)
        _step(checkpoint, "switched")
        self.updating_file.unlink(missing_ok=True)
        fsync_dir(self.root)
        return running

    def trial(self) -> dict[str, Any] | None:
        return read_json(self.trial_file)

    def keep(self, *, seconds: float | None = None, written: int | None = None) -> dict[str, Any]:
        """The candidate passed its self-test: it stays, the trial ends, older releases go."""
        trial = self.trial() or {}
        outcome = {
            "result": "kept", "version": self.current(), "from": trial.get("previous"),
            "at": now_iso(), "id": trial.get("started", now_iso()),
        }  # fmt: skip
        if seconds is not None:
            outcome["seconds"] = round(seconds, 1)
        if written is not None:
            outcome["bytes_written"] = written
        write_json(self.outcome_file, outcome)
        self.trial_file.unlink(missing_ok=True)
        fsync_dir(self.root)
        self.prune()
        return outcome

    def roll_back(self, reason: str) -> dict[str, Any]:
        """Back to the version before the trial, whatever the candidate's state. The outcome is
        written first, so a cut halfway is finished by the next `recover`."""
        trial = self.trial()
        if trial is None:
            raise ReleaseError("no update is on trial")
        back, candidate = str(trial["previous"]), str(trial["candidate"])
        outcome = {
            "result": "rolled back", "version": back, "from": candidate, "reason": reason,
            "at": now_iso(), "id": trial.get("started", now_iso()),
        }  # fmt: skip
        write_json(self.outcome_file, outcome)
        self.point("current", back)
        self.trial_file.unlink(missing_ok=True)
        fsync_dir(self.root)
        self.prune()
        return outcome

    def recover(self) -> str:
        """At boot, before the pet starts: finish or undo what a cut left. Returns what it did."""
        done = []
        for leftover in self.root.glob(".*.new"):
            leftover.unlink(missing_ok=True)
        if self.releases_dir.is_dir():
            for p in self.releases_dir.iterdir():
                if p.name.startswith((".staging-", ".trash-")):
                    shutil.rmtree(p, ignore_errors=True)
                    done.append(f"removed {p.name}")
        if self.current() is None:
            fallback = self.previous() or next(reversed(self.versions()), None)
            if fallback is None:
                raise ReleaseError(f"no release under {self.releases_dir}")
            self.point("current", fallback)
            done.append(f"current was missing: now {fallback}")
        trial = self.trial()
        if trial is not None:
            outcome = read_json(self.outcome_file) or {}
            if self.current() != trial.get("candidate"):
                self.trial_file.unlink(missing_ok=True)
                fsync_dir(self.root)
                done.append(f"the switch to {trial.get('candidate')} had not happened: dropped")
            elif (
                outcome.get("id") == trial.get("started") and outcome.get("result") == "rolled back"
            ):
                self.roll_back(str(outcome.get("reason", "rolled back")))
                done.append(f"finished the roll-back to {trial.get('previous')}")
            elif outcome.get("id") == trial.get("started") and outcome.get("result") == "kept":
                self.keep()
                done.append(f"finished keeping {trial.get('candidate')}")
            elif int(trial.get("boots", 0)) >= MAX_TRIAL_BOOTS:
                reason = (
                    f"{trial['candidate']} did not pass its self-test in {MAX_TRIAL_BOOTS} boots"
                )
                self.roll_back(reason)
                done.append(f"rolled back to {trial.get('previous')}: {reason}")
            else:
                trial["boots"] = int(trial.get("boots", 0)) + 1
                write_json(self.trial_file, trial)
                done.append(f"{trial['candidate']} on trial, boot {trial['boots']}")
        if self.trial() is None:  # a release installed but never switched to: not kept
            orphans = set(self.versions()) - {self.current(), self.previous()}
            if orphans:
                self.prune()
                done.append(f"removed {', '.join(sorted(orphans))} (never switched to)")
        if self.updating_file.exists():
            self.updating_file.unlink()
            fsync_dir(self.root)
        return "; ".join(done) or f"{self.current()} (no update pending)"

    def prune(self) -> None:
        """Keep `current` and `previous`; the others are renamed away, then removed."""
        keep = {self.current(), self.previous()}
        for version in self.versions():
            if version in keep:
                continue
            trash = self.releases_dir / f".trash-{version}"
            os.replace(self.releases_dir / version, trash)
            shutil.rmtree(trash, ignore_errors=True)
        fsync_dir(self.releases_dir)


def _step(checkpoint: Any, name: str) -> None:
    if checkpoint is not None:
        checkpoint(name)
