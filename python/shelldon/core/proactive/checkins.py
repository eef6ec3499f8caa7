"""Check-ins: after a long silence the pet starts a short conversation from what it remembers.

A check-in is a proactive worker turn (purpose "checkin"), like the dream a scheduled turn under
the scheduler's gates. It may start only when every one of these holds, checked in this order (the
first that fails is the reason `shelldon status` shows):

- `[proactive] enabled` (false: never);
- not paused by `/quiet` (the `quiet_until` setting: until the end of the next quiet hours);
- outside the quiet hours (default 22:00-08:00) in the owner's time zone;
- the owner has said something, ever, and has been silent at least `checkin_after_hours` (2 days);
- the last check-in is at least `checkin_cooldown_hours` old (its own cooldown, not the dream's);
- the last check-in has been delivered (a pet that nobody reads does not pile messages up);
- the scheduler's daily budget has room for `checkin_cost` and the battery is not low and
  discharging (the gates it shares with the dream).

The cost is charged and the attempt recorded before the worker is asked, so a crash cannot make
it spend twice; a worker that never started (the fork-server not up yet, busy) gives both back
(outcome "not_started": the service asks again soon). Its reply (credentials blanked) goes to the
proactive queue; it proposes no ops
(any it sends are ignored: the owner said nothing new). Reminders never pass through here: they
fire whatever these gates say (core.proactive.reminders).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from shelldon.contracts import wire
from shelldon.contracts.config import ProactiveConfig
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import owner_time
from shelldon.core.proactive import queue as proactive_queue
from shelldon.core.proactive.scheduler import Scheduler, Verdict
from shelldon.core.runner import TurnGate

log = logging.getLogger(__name__)

QUIET_UNTIL_SETTING = "quiet_until"
NOT_STARTED_STAGES = wire.NOT_STARTED_STAGES  # no brain ran (as core.turn.apply says)
LAST_CHECKIN_SETTING = "last_checkin"


# --- quiet hours ---------------------------------------------------------------------------------


def in_quiet_hours(local: datetime, start: time, end: time) -> bool:
    """Is the local wall time inside [start, end)? A window may cross midnight; start == end
    means no quiet hours."""
    now = local.time().replace(tzinfo=None)
    if start == end:
        return False
    if start < end:
        return start <= now < end
    return now >= start or now < end


def _next_local(after_local: datetime, at: time) -> datetime:
    """The first moment strictly after `after_local` whose local wall time is `at`."""
    tz = after_local.tzinfo
    candidate = datetime.combine(after_local.date(), at, tzinfo=tz)
    while candidate <= after_local:
        candidate = datetime.combine(candidate.date() + timedelta(days=1), at, tzinfo=tz)
    return candidate


def end_of_next_quiet(now: datetime, zone_name: str, start: time, end: time) -> datetime:
    """When the quiet hours that are running now, or else the next ones, end (UTC)."""
    local = owner_time.local_now(now, zone_name)
    if start == end:
        return now
    if in_quiet_hours(local, start, end):
        return _next_local(local, end).astimezone(UTC)
    return _next_local(_next_local(local, start), end).astimezone(UTC)


def _parse(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def quiet_until(history: HistoryStore) -> datetime | None:
    return _parse(history.setting(QUIET_UNTIL_SETTING))


def set_quiet(history: HistoryStore, until: datetime | None, now: datetime) -> None:
    value = until.astimezone(UTC).isoformat(timespec="seconds") if until is not None else None
    history.set_setting(QUIET_UNTIL_SETTING, value, now)


# --- the verdict ---------------------------------------------------------------------------------


def _span(delta: timedelta) -> str:
    hours = int(delta.total_seconds() // 3600)
    if hours >= 48:
        return f"{hours // 24} days"
    if hours >= 1:
        return f"{hours}h"
    return f"{max(0, int(delta.total_seconds() // 60))}m"


def verdict(
    history: HistoryStore, config: ProactiveConfig, scheduler: Scheduler | None, now: datetime
) -> Verdict:
    """May a check-in start now? `code` is "due" or the first gate that says no."""
    if not config.enabled:
        return Verdict(False, "disabled", "check-ins are off ([proactive] enabled = false)")
    paused = quiet_until(history)
    if paused is not None and now < paused:
        return Verdict(False, "paused", f"paused by /quiet until {paused:%Y-%m-%d %H:%M} UTC")
    zone_name = owner_time.owner_zone(history)
    if in_quiet_hours(owner_time.local_now(now, zone_name), config.quiet_from, config.quiet_until):
        return Verdict(False, "quiet_hours", f"quiet hours in {zone_name}")
    last_owner = _parse(history.last_owner_ts())
    if last_owner is None:
        return Verdict(False, "idle", "the owner has not said anything yet")
    if now - last_owner < config.checkin_after:
        return Verdict(
            False,
            "idle",
            f"owner active {_span(now - last_owner)} ago "
            f"(check-in after {_span(config.checkin_after)})",
        )
    last = _parse(history.setting(LAST_CHECKIN_SETTING))
    if last is not None and now - last < config.checkin_cooldown:
        return Verdict(False, "cooldown", f"last check-in {_span(now - last)} ago")
    if proactive_queue.pending(history, 1, kind="checkin"):
        return Verdict(False, "cooldown", "the last check-in has not been read yet")
    if scheduler is None:
        return Verdict(False, "budget", "no scheduler: the budget cannot be checked")
    return scheduler.proactive_verdict(config.checkin_cost)


# --- running one ---------------------------------------------------------------------------------

SpawnCheckin = Callable[[str, str], "wire.TurnResult | wire.TurnFailed"]
"""(turn_id, core's note) -> the worker's outcome for purpose "checkin"."""


@dataclass(frozen=True)
class CheckinOutcome:
    outcome: str  # "queued" | "skipped" | "not_started" | "failed" | "empty"
    detail: str
    item_id: int | None = None


def checkin_turn_id(now: datetime) -> str:
    return f"checkin-{now.astimezone(UTC):%Y%m%dT%H%M%S}"


def note_for_worker(history: HistoryStore, now: datetime) -> str:
    """Core's facts for the worker: how long the owner has been quiet. Nothing else: the worker
    reads memory itself, and the scheduler never parses memory."""
    last_owner = _parse(history.last_owner_ts())
    if last_owner is None:
        return "The owner has not written yet."
    return f"The owner last wrote {_span(now - last_owner)} ago."


def run_checkin(
    *,
    history: HistoryStore,
    config: ProactiveConfig,
    scheduler: Scheduler | None,
    gate: TurnGate,
    spawn: SpawnCheckin,
    now: Callable[[], datetime],
) -> CheckinOutcome:
    """One check-in if every gate allows it: verdict, the worker slot (behind the owner), the
    verdict again, charge and record, the worker, the queue."""
    first = verdict(history, config, scheduler, now())
    if not first.due:
        return CheckinOutcome("skipped", first.reason)
    gate.acquire("checkin")  # waits behind every owner turn, in flight or queued
    try:
        moment = now()
        again = verdict(history, config, scheduler, moment)  # the owner may have spoken meanwhile
        if not again.due or scheduler is None:
            return CheckinOutcome("skipped", again.reason)
        previous = history.setting(LAST_CHECKIN_SETTING)
        scheduler.charge(config.checkin_cost)
        history.set_setting(LAST_CHECKIN_SETTING, moment.astimezone(UTC).isoformat(), moment)
        turn_id = checkin_turn_id(moment)
        outcome = spawn(turn_id, note_for_worker(history, moment))
        if isinstance(outcome, wire.TurnFailed) and outcome.stage in NOT_STARTED_STAGES:
            scheduler.charge(-config.checkin_cost)  # nothing ran: nothing spent, no cooldown
            history.set_setting(LAST_CHECKIN_SETTING, previous, moment)
            log.info("check-in %s: no worker (%s); asking again soon", turn_id, outcome.reason)
            return CheckinOutcome("not_started", f"{outcome.stage}: {outcome.reason}"[:200])
    finally:
        gate.release()
    if isinstance(outcome, wire.TurnFailed):
        log.warning("check-in %s failed at %s: %s", turn_id, outcome.stage, outcome.reason)
        return CheckinOutcome("failed", f"{outcome.stage}: {outcome.reason}"[:200])
    text = " ".join(outcome.reply.split())
    if outcome.ops:
        log.info("check-in %s: %d proposed op(s) ignored", turn_id, len(outcome.ops))
    if not text:
        return CheckinOutcome("empty", "the brain had nothing to say")
    item = proactive_queue.enqueue(history, "checkin", text, now())
    log.info("check-in %s queued as item %d", turn_id, item)
    return CheckinOutcome("queued", "queued", item)
