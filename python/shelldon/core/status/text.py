"""`shelldon status` as text: the one rendering the terminal, `/status` in any chat and the CLI
share (light on purpose: the CLI imports it without core's stores)."""

from __future__ import annotations

from shelldon.contracts import wire


def format_status(status: wire.Status) -> str:
    lines = []
    for proc in status.processes:
        state = "up" if proc.up else "DOWN"
        detail = f"  {proc.detail}" if proc.detail else ""
        lines.append(
            f"{proc.name:<11} {state:<5} pid {proc.pid if proc.pid is not None else '-'}{detail}"
        )
    iso = "on" if status.vault_isolation else "OFF (dev mode)"
    lines.append(f"vault isolation: {iso} ({status.isolation_detail})")
    if status.last_turn is None:
        lines.append("last turn: none yet")
    else:
        t = status.last_turn
        via = f" via {t.provider}" if t.provider else ""
        lines.append(
            f"last turn: {t.turn_id} {t.purpose} {t.outcome}{via} at {t.at} ({t.elapsed_ms} ms)"
        )
    counts = ", ".join(f"{k} {v}" for k, v in status.memory_counts.items())
    lines.append(f"memory: {counts}")
    lines.extend(status.extra_lines)
    return "\n".join(lines)
