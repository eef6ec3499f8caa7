#!/usr/bin/env bash
# pytest through the project's venv, where exit 5 ("no tests ran") is a failure, not a pass.
set -uo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests: failing (exit 5 is not a pass)" >&2
    exit 1
fi
exit "$rc"
