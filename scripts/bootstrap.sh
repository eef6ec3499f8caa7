#!/usr/bin/env bash
# Idempotent developer setup (`just dev`; every recipe runs it first): .venv with the dev tools, then
# the Rust extension built into it. When there is work it says what and roughly how long, and shows
# cargo's progress; when there is none it prints nothing and runs neither pip nor cargo.
# Works on a fresh Debian-like box that has python3 (with venv) and cargo; installs nothing system-wide.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
say() { printf 'shelldon setup: %s\n' "$*" >&2; }

# A venv made without python3-venv has a python but no pip: make it (again) then.
if [ ! -x "$venv/bin/pip" ]; then
    say "creating .venv (python3 -m venv)"
    python3 -m venv "$venv" || {
        say "python3 -m venv failed; on Debian or Raspberry Pi OS: apt install python3-venv"
        exit 1
    }
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
stamp="$venv/.deps-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -e "$stamp" ]; then
    say "installing the Python tools into .venv (msgspec, maturin, pytest, hypothesis, ruff, mypy, the MCP SDK for the agent face's tests): about a minute the first time"
    "${pip[@]}" install --quiet --upgrade pip
    "${pip[@]}" install --quiet "msgspec>=0.18" "maturin>=1.5,<2" "pytest>=8" \
        "pytest-benchmark>=4" "hypothesis>=6.100" "ruff>=0.6" "mypy>=1.11" "mcp>=2.3,<3"
    rm -f "$venv"/.deps-*
    touch "$stamp"
fi

# The extension is rebuilt when what it is built from changes (the Rust sources, Cargo.toml/.lock,
# pyproject.toml) or it is missing. Not asking cargo each time keeps a no-op silent and instant.
native=python/shelldon/_native.abi3.so
key=$({ sha256sum Cargo.toml Cargo.lock pyproject.toml; find rust -type f -print0 | sort -z | xargs -0 sha256sum; } |
    sha256sum | cut -c1-16)
native_stamp="$venv/.native-$key"
if [ ! -e "$native_stamp" ] || [ ! -e "$native" ]; then
    command -v cargo >/dev/null || {
        say "cargo not found; on Debian or Raspberry Pi OS: apt install cargo (or rustup.rs)"
        exit 1
    }
    if [ -e "$native" ]; then
        say "updating the Rust extension (cargo rebuilds what changed since the last build)"
    else
        say "building the Rust extension (cargo, release): about 2 minutes the first time on a laptop, much longer on a Pi"
    fi
    # Editable install: python/ on the path, the .so built in place. Release: the gate's regexes are
    # hot. cargo's progress is on stderr; stdout is pip's chatter ("Ignoring maturin: markers...").
    VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" "$venv/bin/maturin" develop --release >/dev/null
    rm -f "$venv"/.native-*
    touch "$native_stamp"
fi
