"""The dream: core builds the directive from pending learnings, a worker proposes, core applies.

The dream is a worker turn like any other (purpose "dream"). What is particular to it lives in
this package, one job per module; import the module (this face imports nothing):

- `directive`: what a dreaming worker is asked (pending learnings, full collections, the recent
  conversation), built from the stores; its grammar is shelldon.contracts.dream.
- `apply`: every proposed op, one by one, through the gate, under caps, audited as `dream-<n>`.
- `cycle`: one dream at a time (scheduler verdict, cross-process lock, the worker slot, budget,
  worker, application, the record `shelldon status` shows).
- `undo`: reverts a dream's learning resolutions (its file changes are the audit's undo).
- `service`: the DreamService core.server builds from its runner and stores.
- `model`: what the others share.

The corrections ledger and pending learnings are `core.learning`'s. Nothing here imports broker/
or worker/ (the worker is reached through the fork-server's socket).
"""
