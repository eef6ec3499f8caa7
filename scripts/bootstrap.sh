#!/usr/bin/env bash
# Idempotent developer setup: .venv with the dev tools, then the Rust extension built into it.
# Works on a fresh Debian-like box that has python3 (with venv) and cargo; installs nothing system-wide.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || {
        echo "python3 -m venv failed; on Debian install python3-venv (apt-get install -y python3-venv)" >&2
        exit 1
    }
fi
stamp="$venv/.deps-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -e "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "msgspec>=0.18" "maturin>=1.5,<2" "pytest>=8" \
        "pytest-benchmark>=4" "hypothesis>=6.100" "ruff>=0.6" "mypy>=1.11"
    rm -f "$venv"/.deps-*
    touch "$stamp"
fi
# Editable install: python/ on the path, the .so built in place. Release: the gate's regexes are hot.
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" "$venv/bin/maturin" develop --release --quiet
