"""The offline brain's reflection: deterministic facts from the digest's commands, no guesses."""

from __future__ import annotations

import json

from shelldon.broker.offline import OfflineBrain
from shelldon.contracts.digest import CommandRun, Digest, reflect_request, render_digest


def ops_for(digest: Digest) -> list[dict[str, object]]:
    raw = OfflineBrain().complete(reflect_request(render_digest(digest)))
    ops: list[dict[str, object]] = json.loads(raw.text)["ops"]
    return ops


def test_the_command_that_worked_after_a_failure_is_the_fact() -> None:
    digest = Digest(
        request="make the build green",
        files_changed=("Makefile",),
        commands=(
            CommandRun(command="make test", exit_code=2, output_tail="missing gen/"),
            CommandRun(command="make gen -j4", exit_code=0),
            CommandRun(command="git status"),  # exit code not known: not evidence
        ),
    )
    [fact] = ops_for(digest)
    assert fact["observed_from"] == "make gen -j4" and fact["procedure"] == "make gen"
    assert fact["depends_on"] == ["Makefile"]
    assert fact["content"] == (
        'For "make the build green", `make gen -j4` worked. Before it, `make test` had failed '
        "(exit 2)."
    )
    assert ops_for(digest) == [fact]  # deterministic


def test_a_failure_at_the_end_is_kept_as_a_failure_and_no_commands_teach_nothing() -> None:
    [fact] = ops_for(Digest(commands=(CommandRun(command="cargo build", exit_code=101),)))
    assert fact["name"] == "cargo build fails" and "procedure" not in fact
    assert ops_for(Digest(request="a long chat", report="we talked")) == []


def test_a_chat_turns_own_actions_teach_nothing_so_the_owner_is_never_quoted() -> None:
    """The junk a newcomer met: "remember facts/birthday.md works", quoting their sentence."""
    chat = Digest(
        request="I work as a nurse at the city hospital",
        commands=(
            CommandRun(command="remember facts/work.md", exit_code=0),
            CommandRun(command="capture_learning habit:work-nurse", exit_code=0),
            CommandRun(command="forget facts/old.md", exit_code=1, output_tail="not found"),
        ),
    )
    assert ops_for(chat) == []
    work = Digest(
        request="make the build green",
        commands=(
            CommandRun(command="remember facts/work.md", exit_code=0),
            CommandRun(command="make gen", exit_code=0),
        ),
    )
    [fact] = ops_for(work)  # the pet's action around real work is still no command
    assert fact["procedure"] == "make gen" and "facts/work.md" not in json.dumps(fact)
