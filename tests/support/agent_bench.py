"""The memory benchmark's shape: does memory change what a later session achieves?

A workspace whose tests depend on an undocumented step: `generated.py` is built from
`schema.json` by `tools/regen.py` and carries the schema's sha256; nothing in the workspace says
so. Phase A starts with the generated module out of date (the tests fail until the agent finds the
step); phase B changes the schema and asks for the new field to work, from phase A's finished
workspace, once with the memory phase A left and once with it wiped. `verify` reads the schema's
hash inside the generated module, so only a real regeneration passes.

The agent is a small scripted loop (`run_agent`), talking to shelldon only through the MCP tools
of a real `shelldon agent serve` process (the SDK's client over a stdio pipe): it recalls at the
start, asks a brain (the provider chain: the fake provider, or a real model under `--live`) what
to do, runs the commands the answer names (`RUN: <command>` lines), and reflects at the end with
a digest (its `FACT: <name> | <content>` lines are the facts it proposes).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shelldon.contracts.brain import CompletionRequest, PromptSection

GENERATED = "generated.py"
SCHEMA = "schema.json"
MAX_STEPS = 8
OUTPUT_TAIL = 600
ALLOWED_PROGRAMS = {"python", "python3", "ls", "cat"}

REGEN = '''\
"""Rebuild generated.py from schema.json."""
import hashlib, json, pathlib
here = pathlib.Path(__file__).resolve().parents[1]
raw = (here / "schema.json").read_bytes()
fields = json.loads(raw)["fields"]
(here / "generated.py").write_text(
    f"FIELDS = {fields!r}\\nSCHEMA_SHA256 = {hashlib.sha256(raw).hexdigest()!r}\\n"
)
'''
RECORD = """\
from generated import FIELDS


def make_record(**values):
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown fields: {sorted(unknown)}")
    return {name: values.get(name) for name in FIELDS}
"""
CHECK_TESTS = '''\
"""The project's tests: python check_tests.py"""
import hashlib, json, pathlib, sys
import generated
from record import make_record

here = pathlib.Path(__file__).resolve().parent
schema = json.loads((here / "schema.json").read_text())
values = {name: f"v-{name}" for name in schema["fields"]}
try:
    assert make_record(**values) == values, "make_record does not cover the schema"
    digest = hashlib.sha256((here / "schema.json").read_bytes()).hexdigest()
    assert generated.SCHEMA_SHA256 == digest, "generated.py does not match schema.json"
except (AssertionError, ValueError) as exc:
    print(f"FAILED: {exc}")
    sys.exit(1)
print("OK")
'''

PHASE_A_TASK = (
    "The tests fail: python check_tests.py reports a problem with make_record and the age "
    "field. Make the tests pass."
)
PHASE_B_TASK = (
    "The schema in schema.json gained an email field. Make make_record accept email and make "
    "the tests (python check_tests.py) pass."
)

SYSTEM = """\
You are a coding agent working in a small Python project. Each answer may contain lines:
RUN: <command>      run a command in the project (python, ls or cat), you see its output next
FACT: <name> | <one or two sentences>   a durable fact a later session on this project needs
DONE: <report>      you are finished
Memory from earlier sessions on this project may be shown; use it. Put only these lines in your \
reply."""


def make_workspace(path: Path) -> Path:
    """Phase A's starting point: the schema has `age`, the generated module does not yet."""
    (path / "tools").mkdir(parents=True)
    (path / "tools" / "regen.py").write_text(REGEN)
    (path / "record.py").write_text(RECORD)
    (path / "check_tests.py").write_text(CHECK_TESTS)
    (path / SCHEMA).write_text(json.dumps({"fields": ["name"]}))
    subprocess.run([sys.executable, "tools/regen.py"], cwd=path, check=True)
    (path / SCHEMA).write_text(json.dumps({"fields": ["name", "age"]}))
    return path


def change_schema(path: Path) -> None:
    """Phase B's change: a new field."""
    schema = json.loads((path / SCHEMA).read_text())
    (path / SCHEMA).write_text(json.dumps({"fields": [*schema["fields"], "email"]}))


def verify(path: Path, field_name: str) -> bool:
    """Passes only when the generated module was rebuilt from the schema as it is now."""
    digest = hashlib.sha256((path / SCHEMA).read_bytes()).hexdigest()
    text = (path / GENERATED).read_text()
    return f"SCHEMA_SHA256 = {digest!r}" in text and repr(field_name) in text


@dataclass
class Run:
    """What one session of the loop did."""

    task: str
    recalled: str = ""
    commands: list[dict[str, Any]] = field(default_factory=list)
    facts: list[dict[str, str]] = field(default_factory=list)
    report: str = ""
    reflected: str = ""
    steps: int = 0


Brain = Callable[[CompletionRequest], str]

_RUN = re.compile(r"RUN:\s*(.+?)\s*$")
_FACT = re.compile(r"FACT:\s*(.+?)\s*\|\s*(.+?)\s*$")
_DONE = re.compile(r"DONE:\s*(.*?)\s*$")


def _run_command(command: str, cwd: Path) -> dict[str, Any]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return {"command": command, "exit_code": 2, "output_tail": f"bad command: {exc}"}
    if not argv or argv[0] not in ALLOWED_PROGRAMS:
        return {"command": command, "exit_code": 127, "output_tail": "not allowed here"}
    if argv[0].startswith("python"):
        argv[0] = sys.executable
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60, check=False)
    output = (done.stdout + done.stderr)[-OUTPUT_TAIL:]
    return {"command": command, "exit_code": done.returncode, "output_tail": output}


async def run_agent(
    brain: Brain, workspace: Path, home: Path, task: str, *, max_steps: int = MAX_STEPS
) -> Run:
    """One session: recall, act until done (or nothing new to do), reflect."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "shelldon", "agent", "serve", "--project", str(workspace), "--home", str(home)],
        env=dict(os.environ),
    )
    run = Run(task)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()

        async def tool(name: str, **arguments: Any) -> str:
            result = await client.call_tool(name, arguments)
            return "".join(getattr(block, "text", "") for block in result.content)

        run.recalled = await tool("memory_recall", task=task)
        last_step: set[str] = set()  # a command the previous answer ran is not run again
        observations: list[str] = []
        for _ in range(max_steps):
            run.steps += 1
            # memory_recall's answer is a tool result in the agent's conversation: it goes with
            # the task, in the message the model answers.
            message = "\n\n".join(
                [
                    f"Task: {task}",
                    f"memory_recall said:\n{run.recalled}",
                    *(["What you saw so far:", *observations] if observations else []),
                ]
            )
            request = CompletionRequest(
                purpose="turn",
                sections=(PromptSection("system", SYSTEM), PromptSection("message", message)),
            )
            answer = brain(request)
            new = False
            finished = False
            this_step: set[str] = set()
            for line in answer.splitlines():
                if m := _FACT.search(line):
                    fact = {"name": m.group(1)[:80], "content": m.group(2)}
                    if fact not in run.facts:
                        run.facts.append(fact)
                elif m := _RUN.search(line):
                    command = m.group(1)
                    if command in last_step or command in this_step:
                        continue
                    this_step.add(command)
                    new = True
                    outcome = _run_command(command, workspace)
                    run.commands.append(outcome)
                    observations.append(
                        f"$ {command}\n(exit {outcome['exit_code']})\n{outcome['output_tail']}"
                    )
                elif m := _DONE.search(line):
                    run.report, finished = m.group(1), True
            last_step = this_step
            if finished or not new:
                break
        tests = _run_command("python check_tests.py", workspace)
        run.reflected = await tool(
            "memory_reflect",
            digest={
                "request": task,
                "commands": [
                    {"command": c["command"], "exit_code": c["exit_code"]} for c in run.commands
                ],
                "report": run.report,
                "verified": tests["exit_code"] == 0,
                "facts": run.facts[:5],
            },
        )
    return run
