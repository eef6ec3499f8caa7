"""The pet speaks first: reminders, check-ins, and when it may act on its own.

- `service`: what core runs (reminders due, check-ins, the queue's wire side, the owner commands
  `/quiet`, `/reminders`, `/timezone`).
- `reminders`: resolved, stored durably in history.db, fired once.
- `checkins`: after a long silence, a short conversation from what the pet remembers.
- `queue`: what the pet says first, kept in history.db until a door has shown it.
- `scheduler`: cadence, daily budget, cooldown and battery (the dream's and the check-ins' gate).
- `owner_time`: the owner's time zone and the clocks reminders run on.
"""
