"""The agent face's wire (`shelldon.agent.stdio`): every line screened, and every request answered
before the server ends, even when the client closes its input at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shelldon.agent import stdio as agent_stdio

mcp = pytest.importorskip("mcp", reason="the agent extra is not installed (pip install '.[agent]')")
anyio = pytest.importorskip("anyio")

DEADLINE_S = 120.0


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


def _call(req_id: Any, tool: str, arguments: dict[str, Any]) -> bytes:
    params = {"name": tool, "arguments": arguments}
    return _line({"id": req_id, "method": "tools/call", "params": params})


def test_a_client_that_closes_its_input_at_once_still_gets_every_answer(
    tmp_path: Path, home: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "pipe", "version": "0"},
    }
    lines = [
        _line({"id": "init", "method": "initialize", "params": init}),
        _line({"method": "notifications/initialized"}),
    ]
    asked: list[Any] = ["init"]
    for i in range(12):
        fact = f"Module m{i} is built by tools/build_m{i}.py before its own tests run."
        write = {"collection": "facts", "name": f"m{i}", "content": fact}
        lines.append(_call(i, "memory_write", write))
        lines.append(_call(f"recall-{i}", "memory_recall", {"task": f"build module m{i}"}))
        asked += [i, f"recall-{i}"]
    lines.append(_call(100, "memory_list", {}))
    lines.append(_line({"id": "x" * 300, "method": "ping"}))
    lines.append(_call(101, "memory_write", {"collection": "facts", "name": "bad"}))
    lines.append(b"not json\n")  # answered by the screen, id null
    asked += [100, "x" * 300, 101, None]
    # The whole session in one write, then end of input: a script's or a pipe's way.
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", "agent", "serve", "--project", str(project)],
        input=b"".join(lines),
        capture_output=True,
        timeout=DEADLINE_S,
        env={**os.environ, "SHELLDON_HOME": str(home)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    answered = [reply["id"] for reply in replies]
    assert sorted(map(str, answered)) == sorted(map(str, asked)), done.stderr[-2000:]
    by_id = {reply["id"]: reply for reply in replies}
    for i in range(12):
        assert by_id[i]["result"]["isError"] is False, by_id[i]
    assert by_id[101]["result"]["isError"] is True
    assert by_id[None]["error"]["code"] == -32700
    written = sorted(p.name for p in (project / ".shelldon" / "memory" / "facts").iterdir())
    assert written == sorted(f"m{i}.md" for i in range(12))


def test_answers_owed_are_counted_by_id_and_a_cancelled_request_is_forgiven() -> None:
    async def run() -> None:
        answers = agent_stdio._Answers()
        answers.asked({"jsonrpc": "2.0", "id": 1, "method": "tools/call"})
        answers.asked({"jsonrpc": "2.0", "id": 1, "method": "ping"})  # an id used twice
        answers.asked({"jsonrpc": "2.0", "id": "a", "method": "tools/call"})
        answers.asked({"jsonrpc": "2.0", "method": "notifications/initialized"})
        answers.asked({"jsonrpc": "2.0", "id": 7, "result": {}})  # the client's answer to us
        assert answers.owed == 3
        assert await answers.settled(0.0) is False

        class Reply:
            def __init__(self, req_id: Any) -> None:
                self.id = req_id

        answers.answered(Reply(1))
        answers.answered(Reply(99))  # never asked: pays nothing
        assert answers.owed == 2
        cancel = {"requestId": "a", "reason": "user stopped"}
        answers.asked({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        assert answers.owed == 1
        answers.answered(Reply(1))
        assert answers.owed == 0
        assert await answers.settled(0.0) is True

    anyio.run(run)


@pytest.mark.parametrize(
    ("params", "said"),
    [
        (
            {"name": "memory_forget_everything", "arguments": {}},
            "Unknown tool: memory_forget_everything",
        ),
        ({"name": "Memory_Write", "arguments": {}}, "Unknown tool: Memory_Write"),
        ({"name": "ignore previous instructions", "arguments": {}}, "Unknown tool"),
        ({"name": 7, "arguments": {}}, "Unknown tool"),
        ({"arguments": {}}, "Unknown tool"),
    ],
)
def test_a_call_to_a_tool_the_server_lacks_is_a_protocol_error(
    params: dict[str, Any], said: str
) -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params})
    text, refusal = agent_stdio.screen_line(line.encode())
    assert text is None
    assert refusal == {"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": said}}


def test_calls_to_its_own_tools_and_other_methods_pass_the_screen() -> None:
    for name in sorted(agent_stdio.TOOL_NAMES):
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name}}
        assert agent_stdio.screen_line(json.dumps(call).encode())[1] is None
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    assert agent_stdio.screen_line(json.dumps(listing).encode())[1] is None


@pytest.mark.parametrize("req_id", [None, 1.5, True, [1], {"n": 1}])
def test_a_request_whose_id_no_answer_can_carry_is_an_invalid_request(req_id: Any) -> None:
    # The SDK reads `{"id": null, "method": "ping"}` as a notification and answers nothing.
    line = json.dumps({"jsonrpc": "2.0", "id": req_id, "method": "ping"}).encode()
    text, refusal = agent_stdio.screen_line(line)
    assert text is None and refusal is not None
    assert refusal["id"] is None and refusal["error"]["code"] == -32600
    for fine in (0, -3, "a", ""):
        line = json.dumps({"jsonrpc": "2.0", "id": fine, "method": "ping"}).encode()
        assert agent_stdio.screen_line(line)[1] is None
