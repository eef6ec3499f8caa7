"""The dream inside core's process: the Dreamer wired to the real stores, core's worker runner and
the audit log, with the idle ticker and the status lines core.server shows."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping

from shelldon.clock import Clock, utc_now
from shelldon.config import load_config
from shelldon.contracts import wire
from shelldon.contracts.config import SchedulerConfig
from shelldon.core.dream.cycle import Dreamer, DreamTurn, GateArbiter
from shelldon.core.dream.directive import StoreSources
from shelldon.core.learning.corrections import CorrectionLedger
from shelldon.core.proactive.scheduler import DreamRecord, Scheduler
from shelldon.core.runner import WorkerRunner, record_prompt
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot

log = logging.getLogger(__name__)


def scheduler_config(root: DataRoot) -> SchedulerConfig:
    """`[scheduler]` from shelldon.toml (defaults when absent; a bad value is a start-up error)."""
    return load_config(root).scheduler


def dream_turn(outcome: wire.TurnResult | wire.TurnFailed) -> DreamTurn:
    """A worker's outcome as the Dreamer sees it."""
    if isinstance(outcome, wire.TurnFailed):
        return DreamTurn(failed=f"{outcome.stage}: {outcome.reason}"[:200] or "worker failed")
    return DreamTurn(
        reply=outcome.reply,
        ops=tuple(outcome.ops),
        completion_tokens=outcome.usage.completion_tokens if outcome.usage else None,
    )


class DreamService:
    """What core.server holds: the scheduler, the dreamer, the idle ticker and the status lines.

    Raises OSError or ValueError (a bad `[scheduler]`) when dreaming cannot start."""

    def __init__(
        self,
        runner: WorkerRunner,
        stores: Stores,
        *,
        config: SchedulerConfig | None = None,
        clock: Clock = utc_now,
        tick_s: float = 60.0,
    ) -> None:
        self.runner = runner
        self.stores = stores
        state = stores.root.state
        self.scheduler = Scheduler(
            state,
            config if config is not None else scheduler_config(stores.root),
            turns=stores.history,  # owner turns are counted where they are stored
            clock=clock,
        )
        self.dreamer = Dreamer(
            state_dir=state,
            scheduler=self.scheduler,
            arbiter=GateArbiter(runner.gate),
            sources=StoreSources(stores.history, stores.memory),
            memory=stores.memory,
            history=stores.history,
            audit=self._audit,
            spawn=self._spawn,
        )
        self.tick_s = tick_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def corrections(self) -> CorrectionLedger:
        """The ledger an owner's "no, that's wrong" goes to (the turn), read by the Dreamer."""
        return self.dreamer.corrections

    def _audit(self, line: Mapping[str, str]) -> None:
        try:
            self.stores.memory.audit.note(line)
        except Exception:
            log.exception("dream: could not write the audit record")

    def _spawn(self, turn_id: str, directive: str, deadline_s: float) -> DreamTurn:
        # The runner's deadline is the one every worker gets; the arbiter already holds the slot.
        outcome = self.runner.spawn(turn_id, "dream", "", directive)
        if isinstance(outcome, wire.TurnResult):
            record_prompt(self.stores.root, turn_id, "dream", outcome.prompt)
        return dream_turn(outcome)

    def status_lines(self) -> tuple[str, ...]:
        try:
            return self.scheduler.status_lines()
        except Exception:
            log.exception("scheduler: status failed")
            return ("scheduler: status unavailable (see the log)",)

    def dream_now(self, *, force: bool = False) -> DreamRecord:
        return self.dreamer.dream_now(force=force)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="dream-ticker", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        while not self._stop.wait(self.tick_s):
            try:
                record = self.dreamer.tick()
            except Exception:
                log.exception("dream tick failed; the next tick tries again")
                continue
            if record is not None:
                log.info("dream: %s (%s)", record.outcome, record.detail)
