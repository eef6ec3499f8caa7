"""How the pet learns from what it lived: the owner's rules, corrections, reflection, skills.

- `rules`: rules the owner states ("always …", "never …", "call me …"), captured without a model.
- `corrections`: an owner's "no, that's wrong" and the learnings of the turn before it.
- `pending`: a pending learning as the dream and the corrections ledger read it.
- `reflection`: what a reflection keeps (one turn's proposed facts, through the gate).
- `service`: the reflection after a turn of real work (digest, queue, attempts, the budget).
- `skills`: procedures proven twice become skills.
"""
