"""`shelldon agent serve` as a real process: the MCP SDK's own client over a real stdio pipe, and
every byte on stdout checked to be JSON-RPC."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from shelldon.agent import stdio as agent_stdio
from shelldon.contracts.ops import Remember
from shelldon.core.memory.lifecycle import CuratedMemory

mcp = pytest.importorskip("mcp", reason="the agent extra is not installed (pip install '.[agent]')")
anyio = pytest.importorskip("anyio")

TOOLS = {
    "memory_recall",
    "memory_list",
    "memory_read",
    "memory_write",
    "memory_delete",
    "memory_note_request",
    "memory_reflect",
}
DEADLINE_S = 60.0


def serve_command(home: Path, project: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "shelldon",
        "agent",
        "serve",
        "--project",
        str(project),
        "--home",
        str(home),
        *extra,
    ]


@pytest.fixture
def project(tmp_path: Path, home: Path) -> Path:
    CuratedMemory(home / "memory").apply_memory_op(
        Remember(
            collection="preferences",
            name="commits",
            content="The owner writes commit messages in the imperative mood.",
        ),
        provenance="owner",
    )
    path = tmp_path / "proj"
    path.mkdir()
    return path


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def test_the_sdk_client_uses_every_tool_over_stdio(home: Path, project: Path) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = serve_command(home, project)
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    seen: dict[str, Any] = {}

    async def session() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            init = await client.initialize()
            seen["instructions"] = init.instructions or ""
            listed = (await client.list_tools()).tools
            seen["tools"] = {t.name for t in listed}
            seen["listed"] = {t.name: t for t in listed}

            async def call(tool: str, **arguments: Any) -> tuple[bool, str]:
                result = await client.call_tool(tool, arguments)
                return bool(result.is_error), _text(result)

            seen["note"] = await call(
                "memory_note_request", text="Never push to main directly, please."
            )
            seen["write"] = await call(
                "memory_write",
                collection="facts",
                name="regen",
                content="After editing schema.json run tools/regen.py before the tests.",
                depends_on=["schema.json"],
            )
            seen["secret"] = await call(
                "memory_write",
                collection="facts",
                name="key",
                content="The deploy key is sk-proj-" + "Z7q" * 16,
            )
            seen["recall"] = await call("memory_recall", task="edit the schema and push it")
            seen["list"] = await call("memory_list")
            seen["read"] = await call("memory_read", name="project:facts/regen")
            seen["global_delete"] = await call("memory_delete", name="global:preferences/commits")
            seen["delete"] = await call("memory_delete", name="project:facts/regen")
            seen["reflect"] = await call(
                "memory_reflect",
                digest={
                    "request": "make the tests pass",
                    "commands": [{"command": "pytest", "exit_code": 0}],
                    "verified": True,
                    "facts": [
                        {
                            "name": "codegen",
                            "content": "The generated module must be rebuilt by tools/regen.py.",
                        }
                    ],
                },
            )
            seen["bad_digest"] = await call("memory_reflect", digest={"facts": "nope"})

    anyio.run(session)
    assert seen["tools"] == TOOLS == agent_stdio.TOOL_NAMES  # the screen's list is the server's
    assert "memory_note_request" in seen["instructions"]
    assert seen["note"] == (False, seen["note"][1]) and seen["note"][1].startswith("create")
    assert seen["write"][0] is False and seen["write"][1].startswith("create (created)")
    assert seen["secret"][0] is True and "reject (secret)" in seen["secret"][1]
    recall = seen["recall"][1]
    assert "(project:facts/regen; inferred" in recall and "(global:preferences/commits" in recall
    assert "project:preferences/never-push" in seen["list"][1]
    assert "tools/regen.py" in seen["read"][1]
    assert seen["global_delete"][0] is True and "read-only" in seen["global_delete"][1]
    assert seen["delete"][0] is False and seen["delete"][1].startswith(
        "deleted project:facts/regen"
    )
    assert seen["reflect"][1].startswith("codegen: create")
    assert seen["bad_digest"][0] is True
    assert not (project / ".shelldon" / "memory" / "facts" / "regen.md").exists()
    # Every closed field lists its values; the hints say which tools read and which destroy.
    listed = seen["listed"]
    collection = listed["memory_write"].input_schema["properties"]["collection"]
    assert sorted(collection["enum"]) == ["capabilities", "facts", "people", "preferences"]
    reflect = json.dumps(listed["memory_reflect"].input_schema)
    assert '"enum": ["facts", "people", "preferences", "capabilities"]' in reflect
    assert listed["memory_delete"].annotations.destructive_hint is True
    for name in ("memory_recall", "memory_list", "memory_read"):
        assert listed[name].annotations.read_only_hint is True
    for name in ("memory_write", "memory_note_request", "memory_reflect"):
        hints = listed[name].annotations
        assert hints.read_only_hint is False and hints.destructive_hint is False


def _read_line(proc: subprocess.Popen[bytes], deadline: float) -> bytes:
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(max(0.0, deadline - time.monotonic())):
            raise AssertionError("the server did not answer")
    return proc.stdout.readline()


def test_nothing_but_json_rpc_reaches_stdout(home: Path, project: Path) -> None:
    import mcp_types

    # -v: debug logging everywhere, which must all land on stderr.
    proc = subprocess.Popen(
        serve_command(home, project, "-v"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    deadline = time.monotonic() + DEADLINE_S
    lines: list[bytes] = []

    def send(message: dict[str, Any], *, answer: bool = True) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        proc.stdin.flush()
        if answer:
            lines.append(_read_line(proc, deadline))

    try:
        send(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": mcp_types.LATEST_PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        )
        send({"method": "notifications/initialized"}, answer=False)
        send({"id": 2, "method": "tools/list"})
        calls: list[tuple[str, dict[str, Any]]] = [
            ("memory_note_request", {"text": "Always run the linter first."}),
            ("memory_write", {"collection": "facts", "name": "n", "content": "x"}),
            ("memory_recall", {"task": "lint"}),
            ("memory_list", {}),
            ("memory_read", {"name": "nothing"}),
            ("memory_reflect", {"digest": {"request": "r"}}),
        ]
        for n, (name, arguments) in enumerate(calls, start=3):
            send(
                {"id": n, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
            )
    finally:
        rest, errors = proc.communicate(timeout=DEADLINE_S)  # closes stdin: the server ends
    lines.extend(rest.splitlines(keepends=True))
    assert len(lines) >= 2 + len(calls)
    for line in lines:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0", line
        assert "result" in message or "error" in message or "method" in message, line
    assert b"DEBUG" in errors or b"serving project memory" in errors
