"""tests/ mirrors python/shelldon/: every product module has a test named after it, in the mirrored
folder (`shelldon/core/gate/decide.py` -> `tests/core/gate/test_decide.py`, or
`test_gate_decide*.py`), or an explicit home below: the test file that proves it, usually through
the processes or the module that drives it. A new module with neither fails here; so does a home
that is stale."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "shelldon"
TESTS = ROOT / "tests"

HOMES: dict[str, str] = {
    "appliance/doctor.py": "tests/cli/test_doctor.py",
    "appliance/doctor_checks.py": "tests/image/test_image_doctor.py",
    "broker/chain.py": "tests/broker/test_provider_chain.py",
    "broker/offline_forget.py": "tests/broker/test_offline_memory_talk.py",
    "broker/offline_checkin.py": "tests/core/proactive/test_checkins.py",
    "broker/offline_proactive.py": "tests/broker/test_offline_reminders.py",
    "broker/offline_sentences.py": "tests/broker/test_offline_brain.py",
    "broker/protocol.py": "tests/broker/test_reply_protocol.py",
    "broker/providers/anthropic.py": "tests/broker/test_http_providers.py",
    "broker/providers/base.py": "tests/broker/test_provider_chain.py",
    "broker/providers/http.py": "tests/broker/test_http_client.py",
    "broker/providers/json_http.py": "tests/broker/test_http_providers.py",
    "broker/providers/openai.py": "tests/broker/test_http_providers.py",
    "broker/providers/scope.py": "tests/broker/test_call_scope.py",
    "broker/providers/streams.py": "tests/broker/test_streams.py",
    "broker/server.py": "tests/broker/test_egress_e2e.py",
    "broker/tools.py": "tests/broker/test_tool_calls.py",
    "broker/vault.py": "tests/worker/test_isolation.py",
    "cli/agent_cmd.py": "tests/cli/test_agent_cli.py",
    "cli/backup_cmd.py": "tests/core/upkeep/test_backup.py",
    "cli/chat_cmd.py": "tests/cli/test_cli_start.py",
    "cli/common.py": "tests/cli/test_cli_errors.py",
    "cli/doctor_cmd.py": "tests/cli/test_doctor.py",
    "cli/dream_cmd.py": "tests/core/dream/test_dream_replay_e2e.py",
    "cli/memory_cmd.py": "tests/cli/test_memory_cli.py",
    "cli/memory_skills.py": "tests/core/learning/test_skills.py",
    "cli/procs_doctor.py": "tests/cli/test_doctor.py",
    "cli/reminders_cmd.py": "tests/cli/test_reminders_cli.py",
    "cli/restart_cmd.py": "tests/test_app.py",
    "cli/run_cmd.py": "tests/cli/test_cli_start.py",
    "cli/telegram_cmd.py": "tests/transport/test_telegram.py",
    "cli/vault_cmd.py": "tests/cli/test_vault_cli.py",
    "contracts/brain.py": "tests/worker/test_prompt_assembly.py",
    "contracts/commands.py": "tests/transport/test_telegram_e2e.py",
    "contracts/config.py": "tests/test_config.py",
    "contracts/digest.py": "tests/agent/test_agent_reflect.py",
    "contracts/dream.py": "tests/core/dream/test_dream_directive.py",
    "contracts/localtime.py": "tests/core/proactive/test_owner_time.py",
    "contracts/reply_format.py": "tests/broker/test_tool_calls.py",
    "core/dream/cycle.py": "tests/core/dream/test_dream_apply.py",
    "core/dream/model.py": "tests/core/dream/test_dream_apply.py",
    "core/dream/service.py": "tests/core/dream/test_dream_replay_e2e.py",
    "core/dream/undo.py": "tests/core/dream/test_dream_apply.py",
    "core/gate/foreign_lexicons.py": "tests/core/gate/test_gate_foreign_orders.py",
    "core/gate/model.py": "tests/core/gate/test_gate_decide.py",
    "core/gate/identifiers.py": "tests/core/gate/test_gate_decide.py",
    "core/gate/glued.py": "tests/core/gate/test_gate_redteam_secrets.py",
    "core/gate/spelled.py": "tests/core/gate/test_gate_redteam_secrets.py",
    "core/gate/normalise.py": "tests/core/gate/test_gate_obfuscation.py",
    "core/gate/records.py": "tests/core/memory/test_episode_record.py",
    "core/gate/views.py": "tests/core/gate/test_gate_obfuscation.py",
    "core/history/store.py": "tests/core/history/test_history.py",
    "core/learning/corrections.py": "tests/core/learning/test_learning_e2e.py",
    "core/learning/pending.py": "tests/core/dream/test_dream_directive.py",
    "core/learning/service.py": "tests/core/learning/test_reflect_service.py",
    "core/memory/archive.py": "tests/core/memory/test_memory_room.py",
    "core/memory/lifecycle.py": "tests/core/memory/test_memory.py",
    "core/memory/plan.py": "tests/core/memory/test_memory.py",
    "core/memory/reader.py": "tests/core/memory/test_readonly_uid.py",
    "core/memory/writer.py": "tests/core/memory/test_memory_gate.py",
    "core/outcome.py": "tests/core/turn/test_turns.py",
    "core/proactive/service.py": "tests/core/proactive/test_proactive_e2e.py",
    "core/retrieval/names.py": "tests/core/retrieval/test_recall_names.py",
    "core/retrieval/rank.py": "tests/core/retrieval/test_retrieval.py",
    "core/retrieval/terms.py": "tests/core/retrieval/test_entry_terms.py",
    "core/status/links.py": "tests/transport/test_telegram_failures.py",
    "core/status/text.py": "tests/core/test_server_status.py",
    "core/storage/check.py": "tests/core/storage/test_storage_faults.py",
    "core/stores.py": "tests/core/test_server_store.py",
    "core/turn/apply.py": "tests/core/turn/test_turns.py",
    "core/vault.py": "tests/cli/test_vault_cli.py",
    "transport/telegram_start.py": "tests/transport/test_telegram_e2e.py",
    "transport/terminal_console.py": "tests/transport/test_terminal_chat.py",
    "worker/admission.py": "tests/broker/test_admission.py",
    "worker/forkserver.py": "tests/worker/test_worker_stderr.py",
}


def _product_modules() -> list[Path]:
    return [
        p for p in sorted(PACKAGE.rglob("*.py")) if p.name not in ("__init__.py", "__main__.py")
    ]


def named_tests(module: Path) -> list[Path]:
    """Test files named after `module` in the mirrored folder."""
    relative = module.relative_to(PACKAGE).with_suffix("")
    folder = TESTS / relative.parent
    name, package = relative.name, relative.parent.name
    prefixes = (name, f"{package}_{name}") if package else (name,)
    return [
        t
        for t in sorted(folder.glob("test_*.py"))
        if any(t.stem[5:] == p or t.stem[5:].startswith(p + "_") for p in prefixes)
    ]


def test_every_module_has_a_test_named_after_it_or_a_home() -> None:
    homeless = [
        m.relative_to(PACKAGE).as_posix()
        for m in _product_modules()
        if not named_tests(m) and m.relative_to(PACKAGE).as_posix() not in HOMES
    ]
    assert homeless == [], "add a test named after it, or its home in HOMES"


def test_every_home_is_a_test_that_exists_for_a_module_that_needs_one() -> None:
    modules = {m.relative_to(PACKAGE).as_posix(): m for m in _product_modules()}
    stale = [name for name in HOMES if name not in modules or named_tests(modules[name])]
    missing = [home for home in HOMES.values() if not (ROOT / home).is_file()]
    assert (stale, missing) == ([], [])


def test_the_naming_rule_reads_the_mirrored_folder() -> None:
    assert named_tests(PACKAGE / "core" / "gate" / "decide.py") == [
        TESTS / "core" / "gate" / "test_gate_decide.py"
    ]
    assert named_tests(PACKAGE / "paths.py") == [TESTS / "test_paths.py"]
    assert named_tests(PACKAGE / "core" / "memory" / "writer.py") == []
