"""The owner commands' wording, on a real pet: /undo says it removed what a turn created (not
"restored"), brought back what /forget took; /help names the model when shelldon.toml has one."""

from __future__ import annotations

import re
from pathlib import Path

from shelldon.contracts import wire
from shelldon.core.commands import MODEL_HELP, CommandContext, command_help
from shelldon.core.stores import Stores
from shelldon.paths import DataRoot
from shelldon.transport.terminal import ask_core
from support.pet import start_pet


def _command(root: DataRoot, name: str, arg: str = "") -> str:
    answer = ask_core(root, wire.OwnerCommand(name=name, arg=arg))
    assert isinstance(answer, wire.CommandReply), answer
    return answer.text


def test_undo_says_what_it_removed_and_what_it_brought_back(run_dir: Path) -> None:
    pet = start_pet()
    try:
        pet.say("my sister is called Ana")
        # No wait: the command waits for the turn's ops itself (core.server: `settled`).
        undone = _command(pet.root, "undo")
        assert re.fullmatch(r"Undone \(turn-\S+\): removed people/sister\.md\.", undone), undone
        assert _command(pet.root, "memory") == "I keep nothing about you yet."
        pet.say("my brother is called Tom")
        assert _command(pet.root, "forget", "1").startswith("Forgotten:")
        back = _command(pet.root, "undo")
        assert back.endswith(": brought back people/brother.md."), back
    finally:
        assert pet.stop() == 0, pet.log


def test_help_names_the_model_when_one_is_configured(tmp_path: Path) -> None:
    root = DataRoot.resolve(tmp_path / "home")
    root.home.mkdir()
    stores = Stores.open(root)
    try:
        assert command_help(CommandContext(stores), "").endswith(MODEL_HELP)
        root.config.write_text(
            '[[provider]]\nname = "claude"\nkind = "anthropic"\n'
            'base_url = "https://api.anthropic.com"\nmodel = "claude-x"\nkey = "anthropic"\n'
        )
        text = command_help(CommandContext(stores), "")
    finally:
        stores.history.close()
    assert "Without a model" not in text
    assert text.endswith(
        "I think with a model (claude, from shelldon.toml); when it cannot answer, simple "
        "offline rules step in, and `shelldon status` says which answered last."
    )
