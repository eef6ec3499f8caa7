"""docs/performance.md's plots, as small hand-written SVG (matplotlib is not a dependency here).

    python scripts/context_scale.py --rows 0 10000 100000 1000000 --entries 0 50 200 --json c.json
    python scripts/turn_cost.py --history 0 100000 --entries 0 200 --json t.json
    python scripts/plot_performance.py --context c.json --turn t.json --out docs

Writes docs/perf-context.svg (gather_context p95 against history size, one line per entry count
and way of reading) and docs/perf-turn.svg (the Say -> Reply round trip against history size, one
line per entry count). The x axis is logarithmic (0 messages is drawn at the left edge).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 180, 36, 48
COLOURS = ("#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#66456b", "#00798c", "#8c564b")

Series = dict[str, list[tuple[float, float]]]


def _x(value: float, lo: float, hi: float) -> float:
    span = math.log10(hi) - math.log10(lo)
    at = 0.0 if value <= lo else (math.log10(value) - math.log10(lo)) / span
    return LEFT + at * (WIDTH - LEFT - RIGHT)


def _label(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:g}M"
    return f"{value / 1e3:g}k" if value >= 1e3 else f"{value:g}"


def _y(value: float, top: float) -> float:
    return HEIGHT - BOTTOM - (value / top) * (HEIGHT - TOP - BOTTOM)


def svg(title: str, ylabel: str, series: Series, *, budget: float | None = None) -> str:
    xs = [x for points in series.values() for x, _ in points]
    lo = max(1.0, min((x for x in xs if x > 0), default=1.0) / 10)
    hi = max([*xs, 10.0])
    top = max([y for points in series.values() for _, y in points] + [budget or 0.0]) * 1.1
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="13">{title}</text>',
        f'<text x="14" y="{HEIGHT / 2}" transform="rotate(-90 14 {HEIGHT / 2})" '
        f'text-anchor="middle">{ylabel}</text>',
        f'<text x="{(WIDTH - RIGHT + LEFT) / 2}" y="{HEIGHT - 10}" text-anchor="middle">'
        "messages in history (log scale)</text>",
    ]
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP
    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="black"/>')
    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="black"/>')
    decade = 10 ** math.ceil(math.log10(lo))
    while decade <= hi:
        x = _x(decade, lo, hi)
        label = _label(decade)
        if decade == lo and any(x <= 0 for x in xs):
            label = "0"  # where the empty history is drawn
        out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + 4}" stroke="black"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 + 16}" text-anchor="middle">{label}</text>')
        decade *= 10
    for i in range(6):
        value = top * i / 5
        y = _y(value, top)
        out.append(f'<line x1="{x0 - 4}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{value:.3g}</text>')
    if budget is not None:
        y = _y(budget, top)
        out.append(
            f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="black" '
            'stroke-dasharray="4 3"/>'
        )
        out.append(f'<text x="{x1 + 4}" y="{y + 4:.1f}">budget {budget:g}</text>')
    for n, (name, points) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        coords = " ".join(f"{_x(x, lo, hi):.1f},{_y(y, top):.1f}" for x, y in sorted(points))
        out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in points:
            out.append(
                f'<circle cx="{_x(x, lo, hi):.1f}" cy="{_y(y, top):.1f}" r="3" fill="{colour}"/>'
            )
        ly = TOP + 14 * n + 10
        out.append(
            f'<line x1="{x1 + 10}" y1="{ly}" x2="{x1 + 28}" y2="{ly}" stroke="{colour}" '
            'stroke-width="2"/>'
        )
        out.append(f'<text x="{x1 + 32}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def context_series(rows: list[dict[str, object]]) -> Series:
    series: Series = {}
    for row in rows:
        for read in ("terms", "tree"):
            figures = row.get(read)
            if not isinstance(figures, list):
                continue
            name = f"{row['entries']} entries, {read}"
            series.setdefault(name, []).append((float(row["rows"]), float(figures[1])))  # type: ignore[arg-type]
    return series


def turn_series(rows: list[dict[str, object]]) -> Series:
    series: Series = {}
    for row in rows:
        name = f"{row['entries']} entries"
        series.setdefault(name, []).append((float(row["rows"]), float(row["p95_ms"])))  # type: ignore[arg-type]
    return series


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--context", type=Path)
    parser.add_argument("--turn", type=Path)
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args()
    if args.context:
        rows = json.loads(args.context.read_text())
        (args.out / "perf-context.svg").write_text(
            svg("gather_context p95 (x86)", "ms", context_series(rows), budget=5.0)
        )
    if args.turn:
        rows = json.loads(args.turn.read_text())
        (args.out / "perf-turn.svg").write_text(
            svg("Say -> Reply p95, offline brain (x86)", "ms", turn_series(rows), budget=15.0)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
