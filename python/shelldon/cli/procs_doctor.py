"""`shelldon doctor`'s process checks: are the three processes up, and does the kernel keep a real,
dropped worker out of the vault? (Run by doctor_cmd.all_checks.)

The isolation check asks core for an IsolationProbe: the fork-server forks and drops a worker
exactly as for a turn, and the worker tries to read vault/, write the memory tree and history.db,
and setuid(0). The doctor prints what the kernel answered.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from shelldon import ipc
from shelldon.appliance.doctor import Check, CheckResult, DoctorContext, Status
from shelldon.contracts import wire


def _ask(ctx: DoctorContext, message: wire._Msg, timeout: float) -> wire.Message | None:
    try:
        return ipc.request(ctx.root.socket("core"), message, timeout=timeout)
    except (OSError, ipc.IpcError):
        return None


def check_processes(ctx: DoctorContext) -> Iterator[CheckResult]:
    status = _ask(ctx, wire.StatusRequest(), 15.0)
    if not isinstance(status, wire.Status):
        yield CheckResult("warn", "processes", "the pet is not running (start it to check them)")
        return
    for proc in status.processes:
        up: Status = "ok" if proc.up else "fail"
        yield CheckResult(up, f"process {proc.name}", f"pid {proc.pid}: {proc.detail or 'up'}")
    # A write core could not do since the last one that worked; a store changed under core
    # (core.upkeep.store_watch).
    for line in status.extra_lines:
        if line.startswith(("storage: last write failed", "storage: store changed: ")):
            yield CheckResult("fail", "storage", line.removeprefix("storage: "))


def _summary(checks: list[dict[str, Any]], prefix: str) -> tuple[int, int, set[str]]:
    chosen = [c for c in checks if str(c["check"]).startswith(prefix)]
    refused = [c for c in chosen if c["outcome"] == "refused"]
    errors = {f"{c['error']} (errno {c['errno']})" for c in refused}
    return len(refused), len(chosen), errors


def check_vault_isolation(ctx: DoctorContext) -> Iterator[CheckResult]:
    answer = _ask(ctx, wire.IsolationProbe(), 60.0)
    if answer is None:
        yield CheckResult("warn", "vault isolation", "the pet is not running (start it to probe)")
        return
    if not isinstance(answer, wire.ProbeReport):
        reason = getattr(answer, "reason", type(answer).__name__)
        yield CheckResult("fail", "vault isolation", f"the probe failed: {reason}")
        return
    report = json.loads(answer.report)
    checks: list[dict[str, Any]] = report.get("checks", [])
    allowed = [str(c["check"]) for c in checks if c["outcome"] == "allowed"]
    if not answer.isolated:
        yield CheckResult(
            "warn",
            "vault isolation",
            f"OFF (dev mode): the worker runs as uid {report.get('uid')} and could "
            + ", ".join(allowed[:3]),
        )
        return
    who = f"worker uid {report.get('uid')}"
    for label, prefix in (
        ("vault read", "read vault/"),
        ("vault listing", "list vault/"),
        ("memory writes", "open memory/"),
        ("new files", "create a file in memory"),
        ("history.db", "open history.db"),
        ("root again", "setuid(0)"),
    ):
        refused, tried, errors = _summary(checks, prefix)
        if tried == 0:
            continue
        state: Status = "ok" if refused == tried else "fail"
        detail = f"{who}: {refused}/{tried} refused by the kernel: {', '.join(sorted(errors))}"
        yield CheckResult(state, f"isolation {label}", detail)
    caps = report.get("status", {})
    sets = ("CapEff", "CapPrm", "CapAmb", "CapBnd")
    zero = all(int(str(caps.get(k, "1")), 16) == 0 for k in sets)
    yield CheckResult(
        "ok" if zero and caps.get("NoNewPrivs") == "1" else "fail",
        "isolation caps",
        " ".join(f"{k} {caps.get(k)}" for k in ("CapEff", "CapPrm", "NoNewPrivs", "CapBnd")),
    )
    calls: list[dict[str, Any]] = report.get("syscalls", [])
    refused = sum(1 for c in calls if c["outcome"] == "refused")
    yield CheckResult(
        "ok" if calls and refused == len(calls) else "fail",
        "isolation seccomp",
        f"{refused}/{len(calls)} listed calls refused (docs/processes.md)"
        if calls
        else "no seccomp filter in the worker",
    )
    if allowed:
        yield CheckResult("fail", "vault isolation", "the worker could: " + "; ".join(allowed))


CHECKS: list[Check] = [check_processes, check_vault_isolation]
