"""The pet speaks first: the service core runs (reminders, check-ins, the queue's wire side) and
the owner commands `/quiet`, `/reminders` and `/timezone`.

- `ProactiveService` fires due reminders (core.proactive.reminders) on a ticker that sleeps until
the next
  one is due (at most `tick_s`) and is woken when a turn sets a new one; at start it fires, before
  core reports ready, everything that came due while the pet was off. A second, slower ticker runs
  check-ins (core.proactive.checkins). Both only ever write through history.db's one writer handle.
- `fetch` / `delivered` serve the wire's ProactiveFetch / ProactiveDelivered (core.proactive.queue
  holds the table). While a Telegram chat is paired, the terminal gets an empty batch: the phone
  is where the pet speaks first; while none is, the poller gets one (a chat unpaired a moment ago
  is not written to).
- The command functions take the owner command context (core.commands' CommandContext: the
  stores and `now`) and return the reply text. This module does not import core.commands (that
  module imports these functions), so the context is typed by the `CommandInput` protocol.

docs/proactive.md has the rules.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Protocol

from shelldon.config import ConfigError, load_config
from shelldon.contracts import wire
from shelldon.contracts.config import ProactiveConfig
from shelldon.contracts.text import small_number
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import checkins, owner_time, reminders
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive.checkins import CheckinOutcome
from shelldon.core.proactive.owner_time import Clocks
from shelldon.core.proactive.reminders import Book, Fired, Reminder
from shelldon.core.proactive.scheduler import Scheduler
from shelldon.core.runner import WorkerRunner, record_prompt
from shelldon.core.stores import Stores
from shelldon.core.telegram import state as telegram_state
from shelldon.paths import DataRoot

log = logging.getLogger(__name__)

TICK_S = 30.0  # the longest the reminder ticker sleeps (it wakes earlier for a due reminder)
CHECKIN_TICK_S = 60.0
CHECKIN_RETRY_S = 5.0  # after a check-in whose worker never started (the fork-server starting)


def checkin_config(root: DataRoot) -> ProactiveConfig:
    """`[proactive]` from shelldon.toml; the defaults when it cannot be read (logged)."""
    try:
        return load_config(root).proactive
    except (ConfigError, OSError) as exc:
        log.warning("[proactive] unreadable, using the defaults: %s", exc)
        return ProactiveConfig()


def _telegram_paired(history: HistoryStore) -> bool:
    """Is a Telegram chat paired? Then the terminal does not take proactive items."""
    return telegram_state.paired_chat(history) is not None


class ProactiveService:
    """Reminders firing on time, check-ins when allowed, and the queue's wire side."""

    def __init__(
        self,
        stores: Stores,
        runner: WorkerRunner | None,
        *,
        scheduler: Scheduler | None,
        config: ProactiveConfig | None = None,
        clocks: Clocks | None = None,
        tick_s: float = TICK_S,
        checkin_tick_s: float = CHECKIN_TICK_S,
    ) -> None:
        self.stores = stores
        self.history = stores.history
        self.runner = runner
        self.scheduler = scheduler
        self.config = config if config is not None else checkin_config(stores.root)
        self.clocks = clocks or Clocks()
        self.tick_s = tick_s
        self.checkin_tick_s = checkin_tick_s
        self.book = Book(self.history, self.clocks, self.config.max_reminders, on_change=self.wake)
        self.last_checkin: CheckinOutcome | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- reminders

    def fire_reminders(self) -> list[Fired]:
        try:
            return reminders.fire_due(self.history, self.clocks)
        except Exception:  # the ticker must survive a bad moment; the next tick tries again
            log.exception("reminders: firing failed")
            return []

    def wake(self) -> None:
        self._wake.set()

    def _reminder_wait(self) -> float:
        try:
            until = reminders.seconds_until_next(self.history, self.clocks)
        except Exception:
            log.exception("reminders: cannot tell when the next is due")
            return self.tick_s
        return self.tick_s if until is None else min(self.tick_s, until)

    def _reminder_loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._reminder_wait())
            self._wake.clear()
            if self._stop.is_set():
                return
            self.fire_reminders()

    # -- check-ins

    def _spawn_checkin(self, turn_id: str, note: str) -> wire.TurnResult | wire.TurnFailed:
        if self.runner is None:
            return wire.TurnFailed(turn_id=turn_id, stage="spawn", reason="no worker runner")
        outcome = self.runner.spawn(turn_id, "checkin", "", note)
        if isinstance(outcome, wire.TurnResult):
            record_prompt(self.stores.root, turn_id, "checkin", outcome.prompt)
        return outcome

    def checkin_tick(self) -> CheckinOutcome:
        if self.runner is None:
            return CheckinOutcome("skipped", "no worker runner")
        outcome = checkins.run_checkin(
            history=self.history,
            config=self.config,
            scheduler=self.scheduler,
            gate=self.runner.gate,
            spawn=self._spawn_checkin,
            now=self.clocks.wall,
        )
        if outcome.outcome != "skipped":
            self.last_checkin = outcome
            log.info("check-in: %s (%s)", outcome.outcome, outcome.detail)
        return outcome

    def _checkin_loop(self) -> None:
        # The first look right away: a pet started after a long silence need not wait a tick. A
        # worker that never started (core comes up before the fork-server) is asked again soon,
        # once; after that, at the normal pace.
        retried = False
        while not self._stop.is_set():
            wait = self.checkin_tick_s
            try:
                if self.checkin_tick().outcome != "not_started":
                    retried = False
                elif not retried:
                    wait, retried = min(wait, CHECKIN_RETRY_S), True
            except Exception:
                log.exception("check-in tick failed; the next tick tries again")
            self._stop.wait(wait)

    # -- life

    def start(self) -> None:
        """Fire what came due while the pet was off (before core says it is ready), then tick."""
        fired = self.fire_reminders()
        if fired:
            log.info(
                "reminders: %d fired at start (%d late)", len(fired), sum(f.late for f in fired)
            )
        if self._threads:
            return
        for name, target in (("reminders", self._reminder_loop), ("checkins", self._checkin_loop)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=5)

    # -- the wire

    def fetch(self, limit: int, *, from_terminal: bool) -> wire.ProactiveBatch:
        """Pending items for one transport: the Telegram poller while a chat is paired, the
        terminal while none is; the other gets an empty batch (one door speaks first, never two)."""
        if from_terminal == _telegram_paired(self.history):
            return wire.ProactiveBatch(items=())
        items = proactive_queue.pending(self.history, limit)
        return wire.ProactiveBatch(
            items=tuple(
                wire.ProactiveItem(
                    id=item.id, kind=item.kind, text=item.text, created=item.created, late=item.late
                )
                for item in items
            )
        )

    def delivered(self, ids: tuple[int, ...], channel: str) -> int:
        return proactive_queue.delivered(self.history, ids, channel, self.clocks.wall())

    # -- status

    def status_lines(self) -> tuple[str, ...]:
        try:
            return self._status_lines()
        except Exception:
            log.exception("proactive: status failed")
            return ("proactive: status unavailable (see the log)",)

    def _status_lines(self) -> tuple[str, ...]:
        now = self.clocks.wall()
        zone_name = owner_time.owner_zone(self.history)
        stored = self.history.setting(owner_time.TIMEZONE_SETTING)
        lines = [f"time zone: {zone_name}" + ("" if stored else " (the system's; not set)")]
        pending = reminders.pending_reminders(self.history)
        if pending:
            soonest = owner_time.describe_local(pending[0].due, zone_name)
            lines.append(f"reminders: {len(pending)} pending, next {soonest}")
        else:
            lines.append("reminders: none pending")
        waiting = proactive_queue.pending(self.history, proactive_queue.MAX_FETCH)
        if waiting:
            lines.append(f"proactive: {len(waiting)} message(s) waiting to be delivered")
        check = checkins.verdict(self.history, self.config, self.scheduler, now)
        lines.append("check-in: " + ("allowed now" if check.due else f"not now ({check.reason})"))
        return tuple(lines)


# --- owner commands ------------------------------------------------------------------------------


class CommandInput(Protocol):
    """What an owner command gets (core.commands.CommandContext has these)."""

    @property
    def stores(self) -> Stores: ...

    @property
    def now(self) -> datetime: ...


def command_quiet(ctx: CommandInput, arg: str) -> str:
    """`/quiet`: no check-ins until the end of the next quiet hours; `/quiet off` resumes them.
    Reminders still fire."""
    history = ctx.stores.history
    if arg.strip().lower() in ("off", "stop", "resume", "end"):
        checkins.set_quiet(history, None, ctx.now)
        return "Check-ins are back on."
    config = checkin_config(ctx.stores.root)
    zone_name = owner_time.owner_zone(history)
    until = checkins.end_of_next_quiet(ctx.now, zone_name, config.quiet_from, config.quiet_until)
    if until <= ctx.now:
        return "There are no quiet hours set, so there is nothing to pause until."
    checkins.set_quiet(history, until, ctx.now)
    when = owner_time.describe_local(until, zone_name)
    return (
        f"Okay, I'll keep quiet until {when} ({zone_name}). Reminders still come on time; "
        "/quiet off ends it sooner."
    )


def format_reminder(reminder: Reminder, zone_name: str, clocks: Clocks | None = None) -> str:
    """ "#3 Tue 5 May 09:00: call mum" (a repeat: "#4 every Monday at 08:00 (next ...): ...")."""
    when = owner_time.describe_local(reminder.due, reminder.zone)
    where = "" if reminder.zone == zone_name else f" {reminder.zone}"
    if reminder.repeat == "weekly":
        weekday = f"{reminder.due.astimezone(owner_time.zone(reminder.zone)):%A}"
        head = f"every {weekday} at {reminder.local_at}{where} (next {when})"
    elif reminder.repeat == "daily":
        head = f"every day at {reminder.local_at}{where} (next {when})"
    elif reminder.boot_id is not None and reminder.mono_due is not None:
        clocks = clocks or Clocks()
        if reminder.boot_id == clocks.boot_id():
            minutes = max(0, round((reminder.mono_due - clocks.mono()) / 60))
            head = f"in about {minutes} min (by the boot clock: the wall clock was not synced)"
        else:
            head = f"{when}{where} (set before a restart, while the clock was not synced)"
    else:
        head = f"{when}{where}"
    return f"#{reminder.id} {head}: {reminder.text}"


def reminder_list(history: HistoryStore, *, cancel_hint: str) -> str:
    pending = reminders.pending_reminders(history)
    if not pending:
        return "No reminders set. Ask me: remind me tomorrow at 9 to call mum."
    zone_name = owner_time.owner_zone(history)
    lines = [f"Your reminders ({zone_name}):"]
    lines.extend(format_reminder(r, zone_name) for r in pending)
    lines.append(cancel_hint)
    return "\n".join(lines)


def cancel_reminder(history: HistoryStore, arg: str) -> str:
    """`cancel N` (or `#N`): the reply text."""
    number = arg.strip().lstrip("#")
    wanted = small_number(number)
    if wanted is None:
        return "Which one? Give its number, e.g. cancel 3."
    cancelled = reminders.cancel(history, wanted)
    if cancelled is None:
        return f"There is no pending reminder #{number}."
    return f"Cancelled reminder #{cancelled.id}: {cancelled.text}"


_CANCEL_WORDS = frozenset({"cancel", "delete", "remove", "stop"})


def command_reminders(ctx: CommandInput, arg: str) -> str:
    """`/reminders` lists the pending reminders; `/reminders cancel N` cancels one."""
    history = ctx.stores.history
    words = arg.strip().split()
    if not words:
        return reminder_list(history, cancel_hint="(/reminders cancel N cancels one)")
    if words[0].lower() in _CANCEL_WORDS:
        return cancel_reminder(history, words[1] if len(words) > 1 else "")
    if small_number(words[0].lstrip("#")) is not None:
        return cancel_reminder(history, words[0])
    return "Try /reminders, or /reminders cancel N."


def set_timezone(history: HistoryStore, name: str, now: datetime) -> str:
    """Validate and store the owner's zone; its canonical name. Raises owner_time.UnknownZone."""
    canonical = str(owner_time.zone(name).key)
    history.set_setting(owner_time.TIMEZONE_SETTING, canonical, now)
    return canonical


def command_timezone(ctx: CommandInput, arg: str) -> str:
    """`/timezone` shows the owner's zone; `/timezone Europe/Lisbon` sets it."""
    history = ctx.stores.history
    if not arg.strip():
        zone_name = owner_time.owner_zone(history)
        local = owner_time.local_now(ctx.now, zone_name)
        return f"My clock says {local:%a %H:%M}, time zone {zone_name}."
    try:
        name = set_timezone(history, arg, ctx.now)
    except owner_time.UnknownZone as exc:
        return str(exc)
    return f"Time zone set to {name}: it's {owner_time.local_now(ctx.now, name):%a %H:%M} there."
