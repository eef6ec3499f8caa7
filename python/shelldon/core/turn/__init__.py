"""The owner's turn as core applies it: journaled before the reply, then the ops through the gate.

- `apply`: `apply_turn` (journal, reply, the owner's rules, then each proposed op through the gate)
  and `replay_journal` (what a killed core journaled but had not applied).
- `journal`: the journal's rows in history.db and the item ids the audit log stamps.

What a turn returns (`OpVerdict`, `TurnOutcome`) is `core.outcome`, a leaf below every service.
"""
