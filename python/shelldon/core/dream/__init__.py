"""The dream: core builds the directive from pending learnings, a worker proposes, core applies.

The dream is a worker turn like any other (purpose "dream"). What is particular to it lives in
this package, one job per module:

- `directive`: what a dreaming worker is asked (pending learnings, full collections, the recent
  conversation), built from the stores; its grammar is shelldon.contracts.dream.
- `corrections`: how an owner's "no, that's wrong" reaches the learnings of the turn before.
- `apply`: every proposed op, one by one, through the gate, under caps, audited as `dream-<n>`.
- `cycle`: one dream at a time (scheduler verdict, cross-process lock, the worker slot, budget,
  worker, application, the record `shelldon status` shows).
- `undo`: reverts a dream's learning resolutions (its file changes are the audit's undo).
- `service`: the DreamService core.server builds from its runner and stores (imported from
  there, not here: core.turns imports `corrections`, and service imports core.turns).
- `model` and `words`: what the others share.

Core-resident: nothing here imports broker/ or worker/ (the worker is reached through the
fork-server's socket).
"""

from shelldon.core.dream.apply import DreamApplication, OpOutcome, apply_dream
from shelldon.core.dream.corrections import CorrectionLedger, detect_correction, rule_contradicts
from shelldon.core.dream.cycle import Dreamer, DreamTurn, GateArbiter, dream_lock
from shelldon.core.dream.directive import StoreSources, build_dream_directive
from shelldon.core.dream.model import DreamLimits, FullCollection, PendingLearning, dream_unit
from shelldon.core.dream.undo import dream_resolutions, undo_dream_learnings

__all__ = [
    "CorrectionLedger",
    "DreamApplication",
    "DreamLimits",
    "DreamTurn",
    "Dreamer",
    "FullCollection",
    "GateArbiter",
    "OpOutcome",
    "PendingLearning",
    "StoreSources",
    "apply_dream",
    "build_dream_directive",
    "detect_correction",
    "dream_lock",
    "dream_resolutions",
    "dream_unit",
    "rule_contradicts",
    "undo_dream_learnings",
]
