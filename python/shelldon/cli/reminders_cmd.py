"""`shelldon reminders [cancel N]` and `shelldon timezone [ZONE]`: reminders and the time zone.

Like `shelldon memory`, they work on the data root's history.db directly, whether core is running
or not (sqlite's locking keeps a CLI write and core's apart; core reads both afresh on every tick).
They never create the store: a pet that has never run has nothing to list or set yet.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from shelldon.cli.common import data_root
from shelldon.contracts.text import small_number

if TYPE_CHECKING:
    from shelldon.core.history.store import HistoryStore

# core's modules are imported inside the commands: every process (`shelldon broker` too) starts
# through this CLI, and the broker must not pay for the gate and the scheduler it never uses.


def _store(args: argparse.Namespace, command: str) -> HistoryStore | None:
    from shelldon.core.history.store import HistoryStore

    path = data_root(args).history_db
    if not path.exists():
        print(
            f"shelldon {command}: no history.db at {path} yet; start the pet once (shelldon run)",
            file=sys.stderr,
        )
        return None
    return HistoryStore.open(path)


def _reminders(args: argparse.Namespace) -> int:
    from shelldon.core.proactive import service as proactive

    words = list(args.words)
    if words and words[0] not in ("cancel", "list"):
        print("shelldon reminders: use `shelldon reminders` or `shelldon reminders cancel N`",
              file=sys.stderr)  # fmt: skip
        return 2
    if words[:1] == ["cancel"] and (len(words) != 2 or small_number(words[1].lstrip("#")) is None):
        print("shelldon reminders cancel: give its number, e.g. cancel 3", file=sys.stderr)
        return 2
    store = _store(args, "reminders")
    if store is None:
        return 1 if words[:1] == ["cancel"] else 0
    try:
        if words[:1] == ["cancel"]:
            reply = proactive.cancel_reminder(store, words[1])
            print(reply)
            return 0 if reply.startswith("Cancelled") else 1
        print(
            proactive.reminder_list(store, cancel_hint="(shelldon reminders cancel N cancels one)")
        )
        return 0
    finally:
        store.close()


def _timezone(args: argparse.Namespace) -> int:
    from shelldon.core.proactive import owner_time
    from shelldon.core.proactive import service as proactive

    if args.zone is not None:
        try:
            owner_time.zone(args.zone)  # a clear one-line error before touching the store
        except owner_time.UnknownZone as exc:
            print(f"shelldon timezone: {exc}", file=sys.stderr)
            return 2
    store = _store(args, "timezone")
    if store is None:
        return 1
    try:
        now = datetime.now(UTC)
        if args.zone is None:
            stored = store.setting(owner_time.TIMEZONE_SETTING)
            name = owner_time.owner_zone(store)
            how = "set with shelldon timezone" if stored else "the system's; not set"
            local = owner_time.local_now(now, name)
            print(f"{name} ({how}): {local:%a %Y-%m-%d %H:%M} there")
            return 0
        name = proactive.set_timezone(store, args.zone, now)
        print(f"time zone set to {name}: {owner_time.local_now(now, name):%a %H:%M} there")
        return 0
    finally:
        store.close()


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    reminders = sub.add_parser(
        "reminders", parents=[common], help="list reminders; shelldon reminders cancel N"
    )
    reminders.add_argument("words", nargs="*", metavar="cancel N")
    reminders.set_defaults(func=_reminders)
    timezone = sub.add_parser(
        "timezone", parents=[common], help="show or set the owner's time zone (Europe/Lisbon)"
    )
    timezone.add_argument("zone", nargs="?", help="an IANA zone name; omitted: show the current")
    timezone.set_defaults(func=_timezone)
