"""The owner commands every transport offers, by name, with the line `/help` and Telegram's
command menu (setMyCommands) show, and how a message names one (`parse`, pure: every door and
core read it the same way). Handled in one place: core.commands."""

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


def parse(text: str, bot_username: str = "") -> tuple[str, str] | None:
    """("name", "arg") when `text` is a command ("/forget 3", "/help@my_bot"); else None."""
    text = text.strip()
    if not text.startswith("/") or len(text) < 2:
        return None
    head, _, arg = text[1:].partition(" ")
    name, _, addressee = head.partition("@")
    if addressee and bot_username and addressee.lower() != bot_username.lower():
        return None  # a command for another bot (in a group)
    return name.lower(), arg.strip()
