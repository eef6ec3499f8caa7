"""A raw JSON-RPC session with the real `shelldon agent serve` process, for the agent face's
red-team passes (tests/agent/test_red_team_2.py, test_red_team_3.py): one line out, its answer
back, each read with a deadline so a server that answers nothing fails the test, never hangs it.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
from pathlib import Path
from typing import Any

DEADLINE_S = 60.0
INIT_PARAMS = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "hostile", "version": "0"},
}


class Wire:
    """A raw JSON-RPC session with the real server process: one line out, its answer back."""

    def __init__(self, home: Path, project: Path) -> None:
        command = [sys.executable, "-m", "shelldon", "agent", "serve", "--project", str(project)]
        self.proc = subprocess.Popen(
            [*command, "--home", str(home)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)

    def send(self, message: dict[str, Any]) -> None:
        self.raw(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def raw(self, line: bytes) -> None:
        """One line as given (not JSON, not strict JSON, a batch ...)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        if not self._sel.select(DEADLINE_S):
            self.proc.kill()
            raise AssertionError("no answer within the deadline")
        line = self.proc.stdout.readline()
        assert line, "the server closed its output"
        reply: dict[str, Any] = json.loads(line)
        return reply

    def ask(self, req_id: Any, method: str, params: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"id": req_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer()

    def initialize(self) -> None:
        assert "result" in self.ask("init", "initialize", INIT_PARAMS)
        self.send({"method": "notifications/initialized"})

    def call(self, req_id: Any, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.ask(req_id, "tools/call", {"name": tool, "arguments": arguments})

    def end(self) -> str:
        """Close the input; the server's exit code must be 0. Its stderr."""
        _, errors = self.proc.communicate(timeout=DEADLINE_S)
        assert self.proc.returncode == 0, errors[-2000:]
        return errors.decode("utf-8", "replace")


def text_of(reply: dict[str, Any]) -> tuple[bool, str]:
    """A tools/call result: whether it is an error, and its text."""
    result = reply["result"]
    return bool(result.get("isError")), "".join(c.get("text", "") for c in result["content"])


def entries_of(project: Path) -> dict[str, tuple[str, str]]:
    """The project's memory entries: "collection/stem" -> (provenance, body)."""
    from shelldon.agent.memory import AgentMemory
    from shelldon.paths import DataRoot

    memory = AgentMemory(project, DataRoot.resolve(project / "unused-home"))
    return {
        f"{e.collection}/{e.stem}": (e.meta.provenance, e.body.strip())
        for e in memory.project_memory.entries()
    }
