"""The offline brain's audit (docs/brain.md, "The offline brain listens"): what owners type to a
pet over a few days (tests/support/offline_audit.py, several fresh homes), played turn by turn
through the real prompt assembly and the real brain with what core keeps between turns (the
recent window, each `remember` kept by (collection, name), each `forget` applied, the owner's
rules as core.owner_rules reads them). Every reply is judged by class; prints each line, its
reply and what is wrong with it, then how many lines read badly, by class.

    .venv/bin/python scripts/offline_audit.py [--bad]    # --bad: only the lines that read badly
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from shelldon.broker.offline import OfflineBrain
from shelldon.core.owner_rules import extract_rules
from shelldon.worker.prompt import (
    RECENT_WINDOW,
    HistoryRow,
    MemoryItem,
    MemorySelection,
    PromptContext,
    assemble_prompt,
)
from support.offline_audit import HOMES, Home, judge


def play(home: Home) -> list[tuple[str, str, list[str]]]:
    """(line, reply, classes) for each line of one home, a fresh pet."""
    brain = OfflineBrain()
    rows: list[HistoryRow] = []
    memory: dict[tuple[str, str], tuple[str, str]] = {}  # (collection, name) -> body, provenance
    out: list[tuple[str, str, list[str]]] = []
    for said in home.lines:
        items = tuple(MemoryItem(n, c, body, p) for (c, n), (body, p) in memory.items())
        ctx = PromptContext(
            memory=MemorySelection(full=items),
            recent=tuple(rows[-RECENT_WINDOW:]),
            now=home.now,
            zone="Europe/London",
        )
        for rule in extract_rules(said.text):  # core keeps the owner's rules before the ops
            memory[("preferences", rule.name)] = (rule.text, "owner")
        obj: dict[str, Any] = json.loads(brain.complete(assemble_prompt(ctx, said.text)).text)
        kinds = [op.get("op", "") for op in obj["ops"]]
        for op in obj["ops"]:
            key = (op.get("collection", ""), op.get("name", ""))
            if op.get("op") == "remember":
                memory[key] = (op["content"], "inferred")
            elif op.get("op") == "forget" and memory.get(key, ("", ""))[1] != "owner":
                memory.pop(key, None)
        reply = obj["reply"]
        out.append(
            (
                said.text,
                reply,
                judge(said, reply, kinds, [r for _, r, _ in out], [t for t, _, _ in out]),
            )
        )
        rows += [HistoryRow(len(rows) + 1, "owner", said.text)]
        rows += [HistoryRow(len(rows) + 1, "pet", reply)]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bad", action="store_true", help="print only the lines that read badly")
    args = parser.parse_args()
    classes: Counter[str] = Counter()
    total = bad = 0
    for home in HOMES:
        print(f"\n## {home.name}")
        for said, reply, why in play(home):
            total += 1
            bad += bool(why)
            classes.update(why)
            if why or not args.bad:
                mark = "  BAD " + "; ".join(why) if why else ""
                print(f"> {said}\n  {reply}{mark}")
    print(f"\n{bad} of {total} lines read badly")
    for name, count in classes.most_common():
        print(f"  {count:3d}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
