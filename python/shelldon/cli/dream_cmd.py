"""`shelldon dream --now`: ask the running core for one dream, and print what it did.

The dream runs in core (the sole writer), behind any owner turn in flight, under the same
budget and battery gates as a scheduled one; `--now` only skips the idle wait and the cooldown.
`--force` skips the budget and battery gates too.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from shelldon.cli.common import add_run_dir, ask_running_core

if TYPE_CHECKING:
    from shelldon.contracts import wire

# Beyond the dream's own deadline and an owner turn it may queue behind.
DREAM_TIMEOUT_S = 300.0


def format_dream(done: wire.DreamDone) -> str:
    head = f"dream-{done.n}: {done.outcome}" if done.n else f"dream: {done.outcome}"
    lines = [f"{head} ({done.detail})"]
    if done.n:
        lines.append(
            f"{done.written} written, {done.promoted} promoted, {done.pruned} pruned, "
            f"{done.refused} refused"
        )
    if done.note:
        lines.append(done.note)
    return "\n".join(lines)


def _dream(args: argparse.Namespace) -> int:
    import msgspec

    from shelldon.contracts import wire
    from shelldon.transport.terminal import print_refused_or_unexpected

    if not args.now:
        print("shelldon dream: only --now is supported (the scheduler dreams on its own)",
              file=sys.stderr)  # fmt: skip
        return 2
    message = wire.DreamNow(force=args.force)
    answer = ask_running_core(args, message, DREAM_TIMEOUT_S, command="shelldon dream")
    if answer is None:
        return 1
    if not isinstance(answer, wire.DreamDone):
        return print_refused_or_unexpected(answer)
    if args.json:
        print(json.dumps(msgspec.to_builtins(answer)))
    else:
        print(format_dream(answer))
    return 0 if answer.outcome in ("done", "stopped", "skipped") else 1


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    dream = sub.add_parser(
        "dream", parents=[common], help="consolidate learnings now: shelldon dream --now"
    )
    add_run_dir(dream)
    dream.add_argument("--now", action="store_true", help="dream now (skips idle wait, cooldown)")
    dream.add_argument("--force", action="store_true", help="also skip the budget and battery")
    dream.add_argument("--json", action="store_true", help="machine-readable")
    dream.set_defaults(func=_dream)
