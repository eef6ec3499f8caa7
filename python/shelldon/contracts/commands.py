"""The owner commands every transport offers, by name, with the line `/help` and Telegram's
command menu (setMyCommands) show. Handled in one place: core.commands."""

from __future__ import annotations

# (name, what it does): a name is 1-32 lowercase letters, digits or '_' (the Bot API's rule).
OWNER_COMMANDS: tuple[tuple[str, str], ...] = (
    ("help", "what I understand"),
    ("status", "how I am: processes, memory, last turn"),
    ("memory", "what I keep about you, by title"),
    ("forget", "forget entry N of /memory: /forget N"),
    ("undo", "undo my last change to memory"),
    ("quiet", "no check-ins until the end of the next quiet hours"),
    ("reminders", "the reminders I hold: /reminders cancel N"),
    ("timezone", "your time zone: /timezone Europe/Lisbon"),
)
