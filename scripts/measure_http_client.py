#!/usr/bin/env python3
"""Measure what an HTTP client costs the broker: RSS and import time of a fresh process.

Each figure comes from a new interpreter that imports msgspec (the broker always has it), then the
client, reading VmRSS from /proc/self/status before and after (the median of the runs); import
time is the fastest run (the least disturbed by other load). `--python` may name other
interpreters (e.g. a scratch venv holding httpx and requests), so the comparison does not need
those libraries in the project.

    python scripts/measure_http_client.py [--python /tmp/venv/bin/python] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CANDIDATES = {
    "nothing more (the baseline)": "pass",
    "http.client + ssl, CA bundle parsed": "import http.client, ssl; ssl.create_default_context()",
    "http.client + ssl, CA dir on demand (chosen)": (
        "import http.client, ssl;"
        "ssl.create_default_context(capath=ssl.get_default_verify_paths().capath)"
    ),
    "urllib.request": "import urllib.request, ssl; ssl.create_default_context()",
    "urllib3": "import urllib3; urllib3.PoolManager().connection_from_url('https://a.example')",
    "requests": "import requests; requests.Session().get_adapter('https://a.example')",
    "httpx": "import httpx; httpx.Client()",
    "shelldon's egress (chain, config, providers, TLS)": (
        "import shelldon.broker.providers.openai, shelldon.broker.providers.anthropic;"
        "from shelldon.broker.providers.http import ssl_context; ssl_context()"
    ),
}

CHILD = r"""
import json, sys, time
def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
import msgspec, json as _json  # the broker's baseline
before = rss_kib()
start = time.perf_counter()
try:
    exec(sys.argv[1])
except ImportError as exc:
    print(json.dumps({"missing": str(exc)})); sys.exit(0)
elapsed = time.perf_counter() - start
print(json.dumps({"before": before, "after": rss_kib(), "seconds": elapsed}))
"""


def measure(python: str, code: str, runs: int) -> dict[str, float] | None:
    samples = []
    for _ in range(runs):
        command = [python, "-c", CHILD, code]
        out = subprocess.run(command, capture_output=True, text=True, check=True)
        data = json.loads(out.stdout)
        if "missing" in data:
            return None
        samples.append(data)
    return {
        "base_mib": statistics.median(s["before"] for s in samples) / 1024,
        "after_mib": statistics.median(s["after"] for s in samples) / 1024,
        "delta_mib": statistics.median(s["after"] - s["before"] for s in samples) / 1024,
        "import_ms": min(s["seconds"] for s in samples) * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", default=[], help="interpreters to try too")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    interpreters = [sys.executable, *args.python]
    print("| client | process RSS after (MiB) | added RSS (MiB) | import + setup, best (ms) |")
    print("|---|---|---|---|")
    for name, code in CANDIDATES.items():
        for python in interpreters:
            figures = measure(python, code, args.runs)
            if figures is None:
                continue
            print(
                f"| {name} | {figures['after_mib']:.1f} | {figures['delta_mib']:.1f} "
                f"| {figures['import_ms']:.1f} |"
            )
            break
        else:
            print(f"| {name} | not installed in any given interpreter | | |")
    version = sys.version.split()[0]
    print(f"\nbaseline: python {version} + msgspec, measured with {args.runs} runs each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
