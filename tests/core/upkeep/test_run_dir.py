"""The run dir's files removed under the real running pet: it keeps answering and storing.

`rm core.pid` (a cleanup script, `rm /run/shelldon/*.pid`): the fork-server admits core by the pid
in core.pid, so every turn after it failed ("I lost my train of thought"), nothing stored, nothing
said, until a restart. Core (and the fork-server, for its own) now puts its pid file back before
the next spawn.
"""

from __future__ import annotations

from shelldon.core.history.store import open_readonly
from support.disk import memory_files
from support.pet import Pet


def test_turns_after_the_pid_files_are_removed_are_answered_and_stored(pet: Pet) -> None:
    run_dir = pet.root.run_dir
    core = pet.pid_of("core")
    pet.say("hello before")
    for name in ("core", "forkserver"):
        (run_dir / f"{name}.pid").unlink()
    told = pet.say("remember that my car is red")
    assert "train of thought" not in told, told
    assert "remember" in told.lower(), told
    pet.settled()
    assert pet.pid_of("core") == core
    assert (run_dir / "forkserver.pid").exists()
    assert "car is red" in memory_files(pet.root.memory)
    assert pet.stop() == 0, pet.log[-3000:]
    store = open_readonly(pet.root.history_db)
    try:
        owner = [r["content"] for r in store.recent(50) if r["role"] == "owner"]
    finally:
        store.close()
    assert "remember that my car is red" in owner, owner


def test_a_removed_core_socket_is_said_as_such_not_as_a_pet_that_is_not_running(
    pet: Pet,
) -> None:
    """`rm core.sock`: the pet runs and cannot be reached. Before: "shelldon is not running ...
    start it with `shelldon run`", which would start a second pet on the same data."""
    pet.say("hello")
    (pet.root.run_dir / "core.sock").unlink()
    for args in (("say", "hello again"), ("status",)):
        done = pet.cli(*args)
        assert done.returncode == 1, done
        assert "Traceback" not in done.stderr
        assert f"core (pid {pet.pid_of('core')}) is running" in done.stderr, done.stderr
        assert "shelldon restart" in done.stderr and "start it with" not in done.stderr
