#!/usr/bin/env python3
"""The memory gate's screening, this tree against another checkout: the same decisions, and the
time it takes, in one run.

`check` runs both trees' gate over every text the gate's tests, batteries, rules files and
training examples hold (string literals and the batteries' texts), gate_report's 2 KB entries,
and every row of ../shared/data/gate, and compares what each returns: `screen_text` (the
decision and its reason), `screen_owners_task`, `decide` for an owner's and an inferred write,
the credential spans (with and without the learned model), the instruction rules that fire, the
instruction finding with the model's score, `blank_secrets`, `undisguised`, `role_claim` and the
names `namings` reads (each once, in order).
It prints counts, never a text; any difference exits 1.

`time` screens (as gate_report's speed table does: `find_secrets` and `instruction_rules_hit`,
the thread's CPU time, the learned model between screens untimed) gate_report's 2 KB entries
and short owner facts, and decides a model's 1.4 KB write (`decide`: the screen, the role claim,
the names), in two worker processes, one per tree, batch for batch in turn, and
prints each tree's p50 and p99 and the ratio before / now.

`--before DIR` names the other checkout: its `python/` is imported (PYTHONPATH), with its own
built `_native`. Both workers say which tree they imported; a worker that imported the wrong
one is an error.

Usage: gate_speed.py check --before DIR [--data DIR]
       gate_speed.py time --before DIR [--rounds 3000] [--batch 50]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"

# Short owner facts, as the offline brain's writes and the owner's own lines are.
SHORT_FACTS = (
    "My sister Mia lives in Lyon and has two cats.",
    "I like ramen number 8",
    "my cousin is called Noor3",
    "The owner prefers green tea in the morning.",
    "Remind me to call the dentist on Friday.",
    "Always answer in English.",
    "My birthday is on 14 March.",
    "I work night shifts at the bakery on weekends.",
)

# What each text is asked, by name: the worker returns one digest per name and text.
OUTPUTS = (
    "screen_text",
    "screen_owners_task",
    "decide_owner",
    "decide_inferred",
    "find_secrets",
    "find_secrets_rules_only",
    "instruction_rules_hit",
    "instruction_finding",
    "blank_secrets",
    "undisguised",
    "role_claim",
    "namings",
)


# ----------------------------------------------------------------------------- the texts


def _literals(path: Path) -> Iterator[str]:
    """Every string literal in a Python file (f-strings' fixed parts too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    """The strings in a value built at import (a battery's lists, dicts, tuples, dataclasses)."""
    if depth > 6:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key, depth + 1)
            yield from _strings(item, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _strings(item, depth + 1)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from _strings(getattr(value, name, None), depth + 1)


def _battery_strings(path: Path) -> Iterator[str]:
    """The strings a support module (a battery) holds once imported: texts it builds."""
    sys.path.insert(0, str(TESTS))
    try:
        spec = importlib.util.spec_from_file_location(f"_battery_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:
        return
    finally:
        sys.path.remove(str(TESTS))
    for name, value in vars(module).items():
        if not name.startswith("__"):
            yield from _strings(value)


def _toml_strings(path: Path) -> Iterator[str]:
    yield from _strings(tomllib.loads(path.read_text(encoding="utf-8")))


def _data_texts(data: Path) -> Iterator[str]:
    """Every row's text in the gate data directory (the near-duplicate file's both sentences)."""
    for path in sorted(data.glob("*.jsonl")):
        with path.open(encoding="utf-8") as rows:
            for line in rows:
                if line.strip():
                    yield from _strings(json.loads(line).get("text"))
    for path in sorted(data.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            yield from line.split("\t")[3:5]


def _gate_report() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gate_report", REPO / "scripts" / "gate_report.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gate_report"] = module
    spec.loader.exec_module(module)
    return module


def collect_texts(data: Path | None) -> tuple[list[str], dict[str, int]]:
    """The texts compared, without repeats, and how many each source gave."""
    sources: dict[str, list[str]] = {"tests' literals": [], "batteries": [], "rules files": []}
    test_files = sorted((TESTS / "core" / "gate").glob("test_*.py"))
    test_files += sorted((TESTS / "core").glob("test_hostile*.py"))
    support = sorted((TESTS / "support").glob("gate_*.py"))
    for path in [*test_files, *support]:
        sources["tests' literals"] += _literals(path)
    for path in support:
        sources["batteries"] += _battery_strings(path)
    tomls = sorted((REPO / "python" / "shelldon" / "core" / "gate" / "gate_rules").glob("*.toml"))
    for path in [*tomls, *sorted((REPO / "scripts").glob("gate_*.toml"))]:
        sources["rules files"] += _toml_strings(path)
    sources["gate_report's 2 KB entries"] = [_gate_report().entry_2kb(i) for i in range(50)]
    sources["short facts"] = list(SHORT_FACTS)
    if data is not None:
        sources["shared gate data"] = list(_data_texts(data))
    seen: dict[str, None] = {}
    for texts in sources.values():
        for text in texts:
            if text.strip():
                seen.setdefault(text)
    return list(seen), {name: len(texts) for name, texts in sources.items()}


# ----------------------------------------------------------------------------- the worker


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _answers(text: str) -> dict[str, Any]:
    """What the imported tree's gate says of `text`, by output name."""
    import msgspec

    from shelldon.core import gate
    from shelldon.core.gate.authority import namings, role_claim
    from shelldon.core.gate.screen import undisguised

    def refusal(value: Any) -> Any:
        return None if value is None else (value.code, value.rule_ids, value.message)

    def decided(provenance: str) -> Any:
        limits = gate.Limits(max_body_chars=1_000_000, max_title_chars=1_000_000)
        candidate = gate.Candidate(
            collection="facts",
            title="note",
            body=text,
            provenance=provenance,  # type: ignore[arg-type]
        )
        return msgspec.to_builtins(gate.decide(candidate, [], limits))

    finding = gate.instruction_finding(text)
    return {
        "screen_text": refusal(gate.screen_text(text)),
        "screen_owners_task": refusal(gate.screen_owners_task(text)),
        "decide_owner": decided("owner"),
        "decide_inferred": decided("inferred"),
        "find_secrets": [(h.rule_id, h.start, h.end) for h in gate.find_secrets(text)],
        "find_secrets_rules_only": [
            (h.rule_id, h.start, h.end) for h in gate.find_secrets(text, model=False)
        ],
        "instruction_rules_hit": gate.instruction_rules_hit(text),
        "instruction_finding": None
        if finding is None
        else (
            finding.rule_ids,
            None
            if finding.lexical is None
            else (finding.lexical.probability, finding.lexical.strongest),
        ),
        "blank_secrets": gate.blank_secrets(text),
        "undisguised": undisguised(text),
        "role_claim": repr(role_claim(text)),
        # each name once, in order: `decide` reads the first it was not told (a repeat says
        # nothing more), `document_names_unheard` a set
        "namings": [list(dict.fromkeys(namings(text, voice))) for voice in ("owner", "pet")],
    }


def _screen_times(texts: list[str], rounds: int, start: int, what: str) -> list[float]:
    """gate_report's `time_scan` for `rounds` screens from texts[start % len] (`what` "decide":
    the whole `decide` of an inferred write of each text instead): ms of thread CPU."""
    import time

    from shelldon.core import gate

    out = []
    for i in range(start, start + rounds):
        text = texts[i % len(texts)]
        if what == "decide":
            candidate = gate.Candidate(collection="facts", title="notes", body=text)
            began = time.thread_time()
            gate.decide(candidate, [])
            out.append((time.thread_time() - began) * 1000)
            continue
        began = time.thread_time()
        gate.find_secrets(text)
        gate.instruction_rules_hit(text)
        out.append((time.thread_time() - began) * 1000)
        gate.lexical_score(gate.normalise_for_rules(text))  # as time_scan: the model between
    return out


def worker() -> int:
    """Answer the requests on stdin, one JSON line each, one JSON line back."""
    import shelldon

    texts: dict[str, list[str]] = {}
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        if op == "where":
            answer: Any = str(Path(shelldon.__file__).resolve().parents[1])
        elif op == "texts":
            texts[request["name"]] = request["texts"]
            answer = len(request["texts"])
        elif op == "digests":
            answer = [
                {name: _digest(value) for name, value in _answers(text).items()}
                for text in texts[request["name"]]
            ]
        elif op == "time":
            answer = _screen_times(
                texts[request["name"]],
                request["rounds"],
                request["start"],
                request.get("what", "screen"),
            )
        else:
            answer = None
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


class Worker:
    """A worker process importing `tree`'s python/."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree.resolve()
        env = {**os.environ, "PYTHONPATH": str(self.tree / "python")}
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            cwd=str(self.tree),
        )
        where = Path(self.ask({"op": "where"}))
        if where != self.tree / "python":
            self.close()
            raise SystemExit(f"gate_speed: the worker for {self.tree} imported {where}")

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"gate_speed: the worker for {self.tree} stopped")
        return json.loads(line)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


# ----------------------------------------------------------------------------- the two commands


def compare(before: Path, now: Path, texts: list[str]) -> dict[str, int]:
    """How many texts each output differs on between the two trees (0 everywhere: the same)."""
    answers = []
    for tree in (before, now):
        one = Worker(tree)
        try:
            one.ask({"op": "texts", "name": "all", "texts": texts})
            answers.append(one.ask({"op": "digests", "name": "all"}))
        finally:
            one.close()
    return {
        name: sum(a[name] != b[name] for a, b in zip(*answers, strict=True)) for name in OUTPUTS
    }


def check(before: Path, data: Path | None) -> int:
    texts, sources = collect_texts(data)
    for name, count in sources.items():
        print(f"{name}: {count} strings")
    if data is None:
        print("shared gate data: not found (../shared/data/gate): compared without it")
    print(f"distinct texts compared: {len(texts)}")
    differences = compare(before, REPO, texts)
    for name, count in differences.items():
        print(f"{name}: {count} texts differ")
    total = sum(differences.values())
    print("the same on every text" if total == 0 else f"DIFFERENT: {total} differences")
    return 0 if total == 0 else 1


def _summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[max(0, int(len(ordered) * 0.99) - 1)]


def timing(before: Path, rounds: int, batch: int) -> dict[str, dict[str, tuple[float, float]]]:
    """p50 and p99 (ms, thread CPU) per workload and tree, batches taken in turn."""
    entries = [_gate_report().entry_2kb(i) for i in range(50)]
    workloads = {
        "2 KB entry": ("screen", entries),
        "short owner fact": ("screen", list(SHORT_FACTS)),
        # the write path: `decide` of a model's 1.4 KB note (under the body's 1,500 characters)
        "decide, a 1.4 KB inferred write": ("decide", [e[:1400] for e in entries]),
    }
    trees = {"before": Worker(before), "now": Worker(REPO)}
    out: dict[str, dict[str, tuple[float, float]]] = {}
    try:
        for name, (what, texts) in workloads.items():
            samples: dict[str, list[float]] = {tree: [] for tree in trees}
            for one in trees.values():
                one.ask({"op": "texts", "name": name, "texts": texts})
                warm = {"op": "time", "name": name, "rounds": 2 * len(texts), "start": 0}
                one.ask({**warm, "what": what})
            for start in range(0, rounds, batch):
                order = list(trees.items())
                if (start // batch) % 2:
                    order.reverse()
                for tree, one in order:
                    asked = {
                        "op": "time",
                        "name": name,
                        "rounds": batch,
                        "start": start,
                        "what": what,
                    }
                    samples[tree] += one.ask(asked)
            out[name] = {tree: _summary(s) for tree, s in samples.items()}
    finally:
        for one in trees.values():
            one.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("worker")
    checking = sub.add_parser("check", help="the same answers on every text, or exit 1")
    checking.add_argument("--before", type=Path, required=True, help="the other checkout")
    checking.add_argument("--data", help="the gate data directory (default: ../shared/data/gate)")
    timed = sub.add_parser("time", help="p50/p99 of screening, both trees, in turn")
    timed.add_argument("--before", type=Path, required=True, help="the other checkout")
    timed.add_argument("--rounds", type=int, default=3000)
    timed.add_argument("--batch", type=int, default=50)
    args = parser.parse_args(argv)
    if args.command == "worker":
        return worker()
    if not (args.before / "python" / "shelldon").is_dir():
        print(f"gate_speed: {args.before} holds no python/shelldon (a checkout is needed)")
        return 2
    if args.command == "check":
        data = _gate_report().find_data(args.data)
        return check(args.before, data if data is not None and data.is_dir() else None)
    print(f"load average {os.getloadavg()[0]:.1f}; thread CPU ms per screen, p50 / p99")
    for name, trees in timing(args.before, args.rounds, args.batch).items():
        (b50, b99), (n50, n99) = trees["before"], trees["now"]
        print(
            f"{name}: before {b50:.3f} / {b99:.3f}, now {n50:.3f} / {n99:.3f}, "
            f"ratio before/now (p50) {b50 / n50:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
