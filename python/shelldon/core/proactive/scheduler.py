"""When the pet may dream: cadence, daily budget, cooldown and battery.

Core-resident and LLM-free. The scheduler never runs a turn itself: it answers "may a dream start
now, and if not, why and when", charges the budget, and keeps its state in `<home>/state/` so a
restart neither refunds the day's spend nor forgets the last dream. Owner turns are not counted
here at all: the budget reads them from history.db, where each turn is stored before its reply
(`TurnLedger`), so a kill can never forget one; a dream's cost is written when it is charged. The
clock and the sysfs root are injected so tests drive time and power without sleeping or touching
real hardware.

Decisions (docs/learning.md has the reasons):
- The budget is counted per UTC day. Owner turns cost 1 and are never refused by it (the owner is
  always answered); a dream costs 3 and only starts when the day has room for it.
- Idle cadence: a dream is due once the owner has been silent for `idle_after` (6 h default) and the
  last dream is at least `cooldown` old. `dream --now` skips those two waits, never the budget or
  the battery unless forced.
- Battery: no battery means mains; a battery that is low AND discharging means no dream.
- One worker in flight is core.runner's TurnGate (owner turns first); the dream takes its slot
  through core.dream.cycle.GateArbiter, so it always queues behind the owner, never the reverse.

Over 400 lines: cadence, budget, cooldown and battery are one decision, taken under one lock
against one persisted state; the sysfs power reading it consults is the only part that stands
alone, and it is small.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal, Protocol

import msgspec

from shelldon import _native
from shelldon.clock import Clock, iso, parse_iso, utc_now
from shelldon.contracts.config import SchedulerConfig
from shelldon.core.history.store import OwnerTurns
from shelldon.core.storage import layout
from shelldon.paths import SCHEDULER_STATE

log = logging.getLogger(__name__)

POWER_SUPPLY_ROOT = Path("/sys/class/power_supply")
STATE_VERSION = 1


def _parse_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return parse_iso(text)
    except ValueError:
        return None


# --- power -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerStatus:
    """What sysfs says about power. `percent` is the lowest battery's capacity (None: unknown)."""

    has_battery: bool
    discharging: bool
    percent: int | None
    detail: str

    def too_low(self, low_percent: int) -> bool:
        """Low AND discharging: the one state in which a dream must not run."""
        return self.discharging and self.percent is not None and self.percent <= low_percent


def _read_sysfs(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None


def read_power(root: Path = POWER_SUPPLY_ROOT) -> PowerStatus:
    """Read /sys/class/power_supply (or an injected copy of it). Never raises.

    Any online mains/USB supply means "not discharging" whatever a battery reports; no battery at
    all means mains. An unreadable capacity is unknown, which never blocks a dream by itself.
    """
    try:
        supplies = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return PowerStatus(False, False, None, "no power_supply in sysfs: mains")
    batteries: list[tuple[str, int | None, str]] = []
    mains_online = False
    for supply in supplies:
        kind = (_read_sysfs(supply / "type") or "").lower()
        if kind == "battery":
            if _read_sysfs(supply / "present") == "0":
                continue
            capacity_text = _read_sysfs(supply / "capacity")
            capacity: int | None = None
            if capacity_text is not None:
                try:
                    capacity = max(0, min(100, int(capacity_text)))
                except ValueError:
                    log.warning("unreadable battery capacity in %s", supply.name)
            batteries.append(
                (supply.name, capacity, (_read_sysfs(supply / "status") or "").lower())
            )
        elif kind in ("mains", "usb", "usb_c", "usb_pd", "wireless") and (
            _read_sysfs(supply / "online") == "1"
        ):
            mains_online = True
    if not batteries:
        return PowerStatus(False, False, None, "no battery: mains")
    known = [cap for _, cap, _ in batteries if cap is not None]
    percent = min(known) if known else None
    discharging = not mains_online and any(status == "discharging" for _, _, status in batteries)
    state = "discharging" if discharging else "charging or on mains"
    shown = f"{percent}%" if percent is not None else "unknown charge"
    return PowerStatus(True, discharging, percent, f"battery {shown}, {state}")


# --- configuration and state ---------------------------------------------------------------------


class DreamRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The outcome of the last dream attempt, shown by `shelldon status`."""

    at: str
    outcome: str  # "done" | "stopped" | "skipped" | "failed" | "busy"
    detail: str
    n: int = 0  # the dream number (audit unit dream-<n>); 0 when no dream ran
    written: int = 0
    promoted: int = 0
    pruned: int = 0
    refused: int = 0
    note: str = ""


class SchedulerState(msgspec.Struct, forbid_unknown_fields=True):
    version: int = STATE_VERSION
    day: str = ""  # the UTC day `spent` belongs to
    spent: int = 0  # what dreams charged that day (owner turns are counted from history)
    last_owner_at: str | None = None  # no longer written (history has it); older files hold it
    last_dream_at: str | None = None  # when the last dream that spent budget started
    dreams: int = 0  # how many dreams have run; the next is dream-<dreams + 1>
    last_dream: DreamRecord | None = None


VerdictCode = Literal[
    "due", "idle", "cooldown", "budget", "battery", "disabled", "paused", "quiet_hours"
]  # the last three: check-ins only (core.proactive.checkins)


@dataclass(frozen=True)
class Verdict:
    due: bool
    code: VerdictCode
    reason: str


def _atomic_write(path: Path, data: bytes) -> None:
    """State files are replaced whole, durably, by the Rust atomic write (no Python fallback)."""
    _native.atomic_write(path, data, layout.FILE_MODE)


class TurnLedger(Protocol):
    """Where owner turns are stored (HistoryStore): the budget counts them there."""

    def owner_turns(self, since: datetime) -> OwnerTurns: ...


def _midnight(now: datetime) -> datetime:
    day = now.astimezone(UTC)
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


class Scheduler:
    """Budget, cadence and gates for the dream. Thread-safe; state persisted atomically whenever a
    dream changes it; owner turns read from `turns`."""

    def __init__(
        self,
        state_dir: Path,
        config: SchedulerConfig | None = None,
        *,
        turns: TurnLedger,
        clock: Clock = utc_now,
    ) -> None:
        self.config = config or SchedulerConfig()
        self._path = Path(state_dir) / SCHEDULER_STATE
        self._turns = turns
        self._clock = clock
        self._lock = threading.Lock()
        self._state = self._load()

    # -- persistence

    def _load(self) -> SchedulerState:
        try:
            raw = self._path.read_bytes()
        except FileNotFoundError:
            return SchedulerState()
        except OSError as exc:
            log.warning("scheduler state unreadable (%s); starting fresh", exc.strerror)
            return SchedulerState()
        try:
            state = msgspec.json.decode(raw, type=SchedulerState)
            if state.version != STATE_VERSION:
                raise ValueError(f"state version {state.version}")
            return state
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
            # Keep the bad file for a person to look at; never crash core over it.
            aside = self._path.with_name(SCHEDULER_STATE + ".corrupt")
            log.warning("scheduler state corrupt (%s); kept as %s, starting fresh", exc, aside.name)
            with contextlib.suppress(OSError):
                os.replace(self._path, aside)
            return SchedulerState()

    def _save(self) -> None:
        layout.ensure_dir(self._path.parent, layout.DIR_MODE)
        _atomic_write(self._path, msgspec.json.encode(self._state))

    def _roll_day(self, now: datetime) -> None:
        today = now.astimezone(UTC).date().isoformat()
        if self._state.day != today:
            self._state.day = today
            self._state.spent = 0

    # -- inputs

    def now(self) -> datetime:
        return self._clock()

    def _spent(self, turns: OwnerTurns) -> int:
        """Today's spend: what dreams charged, and each owner turn history holds since midnight
        (UTC) that a model answered (an offline turn costs nothing). The caller holds the lock
        and has rolled the day."""
        return self._state.spent + self.config.turn_cost * (turns.since - turns.free)

    def _owner_turns(self, now: datetime) -> OwnerTurns:
        return self._turns.owner_turns(_midnight(now))

    def power(self) -> PowerStatus:
        return read_power(Path(self.config.power_supply_root))

    def verdict(self, *, on_request: bool = False, force: bool = False) -> Verdict:
        """May a dream start now? `on_request` (dream --now) skips idle and cooldown; `force`
        skips budget and battery too."""
        with self._lock:
            now = self._clock()
            self._roll_day(now)
            state, config = self._state, self.config
            turns = self._owner_turns(now)
            if not force:
                spent = self._spent(turns)
                if config.daily_budget - spent < config.dream_cost:
                    return Verdict(
                        False,
                        "budget",
                        f"daily budget spent ({spent}/{config.daily_budget}; a dream costs "
                        f"{config.dream_cost})",
                    )
                power = self.power()
                if power.too_low(config.battery_low_percent):
                    return Verdict(
                        False,
                        "battery",
                        f"{power.detail}: at or below {config.battery_low_percent}%",
                    )
            if not (on_request or force):
                last_owner = turns.last
                if last_owner is not None and now - last_owner < config.idle_after:
                    return Verdict(
                        False,
                        "idle",
                        f"owner active {_span(now - last_owner)} ago; dreams after "
                        f"{_span(config.idle_after)} of silence",
                    )
                last_dream = _parse_iso(state.last_dream_at)
                if last_dream is not None and now - last_dream < config.cooldown:
                    return Verdict(
                        False,
                        "cooldown",
                        f"last dream {_span(now - last_dream)} ago (cooldown "
                        f"{_span(config.cooldown)})",
                    )
            return Verdict(True, "due", "due")

    def proactive_verdict(self, cost: int) -> Verdict:
        """May another proactive turn of `cost` (a check-in, core.proactive.checkins) start now? The
        dream's budget and battery gates, which the seed shares with every proactive turn; its
        cadence and cooldown are the caller's own."""
        with self._lock:
            self._roll_day(self._clock())
            spent, budget = self._state.spent, self.config.daily_budget
        if budget - spent < cost:
            return Verdict(False, "budget", f"daily budget spent ({spent}/{budget})")
        power = self.power()
        if power.too_low(self.config.battery_low_percent):
            low = self.config.battery_low_percent
            return Verdict(False, "battery", f"{power.detail}: at or below {low}%")
        return Verdict(True, "due", "due")

    def charge(self, cost: int) -> None:
        """Charge a proactive turn's cost to today's budget (saved at once, like a dream). A
        negative cost gives back a charge for a turn whose worker never started."""
        with self._lock:
            self._roll_day(self._clock())
            self._state.spent = max(0, self._state.spent + cost)
            self._save()

    def begin_dream(self) -> int:
        """Charge the dream's cost and number it. Called only once a worker will be asked."""
        with self._lock:
            now = self._clock()
            self._roll_day(now)
            self._state.spent += self.config.dream_cost
            self._state.dreams += 1
            self._state.last_dream_at = iso(now)
            self._save()
            return self._state.dreams

    def finish_dream(self, record: DreamRecord) -> None:
        with self._lock:
            self._state.last_dream = record
            self._save()

    # -- outputs

    @property
    def state(self) -> SchedulerState:
        with self._lock:
            return msgspec.structs.replace(self._state)

    def budget_left(self) -> int:
        with self._lock:
            now = self._clock()
            self._roll_day(now)
            return self.config.daily_budget - self._spent(self._owner_turns(now))

    def next_dream_at(self) -> datetime:
        """The earliest moment cadence, cooldown and budget allow (battery: not predictable)."""
        with self._lock:
            now = self._clock()
            self._roll_day(now)
            state, config = self._state, self.config
            turns = self._owner_turns(now)
            candidates = [now]
            last_owner = turns.last
            if last_owner is not None:
                candidates.append(last_owner + config.idle_after)
            last_dream = _parse_iso(state.last_dream_at)
            if last_dream is not None:
                candidates.append(last_dream + config.cooldown)
            if config.daily_budget - self._spent(turns) < config.dream_cost:
                tomorrow = now.astimezone(UTC).date() + timedelta(days=1)
                candidates.append(datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=UTC))
            return max(candidates)

    def status_lines(self) -> tuple[str, ...]:
        """The scheduler's lines for `shelldon status`."""
        now = self._clock()
        state = self.state
        left = self.budget_left()
        lines = [
            f"budget: {max(left, 0)}/{self.config.daily_budget} left today "
            f"(turn {self.config.turn_cost}, dream {self.config.dream_cost})",
        ]
        verdict = self.verdict()
        if verdict.due:
            lines.append("next dream: due now")
        else:
            when = self.next_dream_at()
            wait = when - now
            eta = iso(when) if wait > timedelta(0) else "when allowed"
            lines.append(
                f"next dream: {eta} (in {_span(max(wait, timedelta(0)))}; {verdict.reason})"
            )
        record = state.last_dream
        if record is None:
            lines.append("last dream: none yet")
        else:
            counts = (
                f"{record.written} written, {record.promoted} promoted, {record.pruned} pruned, "
                f"{record.refused} refused"
            )
            label = f"dream-{record.n} " if record.n else ""
            line = f"last dream: {label}{record.outcome} at {record.at}: {record.detail}"
            if record.n:
                line += f" ({counts})"
            lines.append(line)
            if record.note:
                lines.append(f"dream note: {record.note}")
        return tuple(lines)


def _span(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 0:
        seconds = 0
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    if hours:
        return f"{hours}h{minutes:02d}m"
    if minutes:
        return f"{minutes}m"
    return f"{seconds}s"
