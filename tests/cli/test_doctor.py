"""`shelldon doctor`: what works and what does not, against real HTTP, never printing a key."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from fakes.fake_provider import FAKE_KEY, FakeProvider, raw, reply, status
from shelldon.appliance.doctor import CheckResult, DoctorContext
from shelldon.cli.doctor_cmd import render, run_checks
from shelldon.paths import DataRoot

REPO = Path(__file__).resolve().parents[2]


def write_config(home: Path, fake: FakeProvider, extra: str = "") -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        fake.provider_table(name="primary", model="fake-small", key="primary_key")
        + "\n"
        + fake.provider_table(
            name="claude", kind="anthropic", model="fake-claude", key="claude_key"
        )
        + f"\n{extra}"
    )


def provider_keys(name: str) -> str | None:
    """A vault holding every provider's key, and no Telegram token (the doctor would call it)."""
    return None if name == "telegram_token" else FAKE_KEY


def by_name(results: Iterable[CheckResult]) -> dict[str, CheckResult]:
    return {r.name: r for r in results}


def test_every_provider_reached_and_reported(home: Path, fake: FakeProvider) -> None:
    write_config(home, fake, '[[provider]]\nname = "offline"\nkind = "offline"\n')
    fake.script(reply("ok", usage=(9, 2)), raw("ok, sure"))
    ctx = DoctorContext(root=DataRoot.resolve(), read_secret=provider_keys)
    results = by_name(run_checks(ctx))
    assert results["config"].status == "ok"
    assert "primary (openai), claude (anthropic), offline (offline)" in results["config"].detail
    assert results["provider primary"].status == "ok"
    assert "fake-small answered" in results["provider primary"].detail
    assert "9+2 tokens" in results["provider primary"].detail
    assert results["provider claude"].status == "ok"  # plain words: what tool mode asks for
    assert "protocol tools: plain words" in results["provider claude"].detail
    assert results["provider offline"].status == "ok"
    assert len(fake.requests) == 2
    assert fake.requests[0].json["max_tokens"] == 64


def test_an_answer_the_owner_could_not_be_shown_is_a_warning(
    home: Path, fake: FakeProvider
) -> None:
    write_config(home, fake)
    fake.script(raw('{"answer": "ok"}'), raw("<what you say to your owner>"))
    results = by_name(run_checks(DoctorContext(root=DataRoot.resolve(), read_secret=provider_keys)))
    for name in ("provider primary", "provider claude"):
        assert results[name].status == "warn"
        assert "words it could not show" in results[name].detail


def test_a_server_that_refuses_tools_is_probed_for_the_protocol_it_honours(
    home: Path, fake: FakeProvider
) -> None:
    write_config(home, fake)
    fake.script(
        status(400, message="tools are not supported by this model"),
        status(400, message="response_format json_schema unknown"),
        reply("ok"),  # json_object
        status(400, message="tools are not supported"),  # claude: tools
        reply("ok"),  # claude: plain
    )
    results = by_name(run_checks(DoctorContext(root=DataRoot.resolve(), read_secret=provider_keys)))
    primary, claude = results["provider primary"], results["provider claude"]
    assert primary.status == "warn" and 'set protocol = "json_object"' in primary.detail
    assert claude.status == "warn" and 'set protocol = "plain"' in claude.detail
    asked = [r.json for r in fake.requests]
    assert "tools" in asked[0] and asked[1]["response_format"]["type"] == "json_schema"
    assert asked[2]["response_format"] == {"type": "json_object"} and "tools" not in asked[2]
    assert "tools" in asked[3] and "tools" not in asked[4]


def test_failures_are_named_and_the_key_never_printed(home: Path, fake: FakeProvider) -> None:
    write_config(home, fake)
    fake.script(status(401, message=f"Incorrect API key provided: {FAKE_KEY}"), status(503))
    ctx = DoctorContext(root=DataRoot.resolve(), read_secret=provider_keys)
    results = run_checks(ctx)
    found = by_name(results)
    assert found["provider primary"].status == "fail"
    assert "client: HTTP 401" in found["provider primary"].detail
    assert "server: HTTP 503" in found["provider claude"].detail
    report = render(results, ctx.secrets)
    assert FAKE_KEY not in report
    assert ctx.secrets == [FAKE_KEY, FAKE_KEY]


def test_a_missing_key_and_a_bad_config_are_reported(home: Path, fake: FakeProvider) -> None:
    write_config(home, fake)
    ctx = DoctorContext(
        root=DataRoot.resolve(), read_secret=lambda name: FAKE_KEY if name == "claude_key" else None
    )
    found = by_name(run_checks(ctx))
    assert found["provider primary"].status == "fail"
    assert "vault entry 'primary_key' is missing" in found["provider primary"].detail
    assert found["provider claude"].status == "ok"
    (home / "shelldon.toml").write_text('[[provider]]\nname = "x"\nkind = "gpt5"\n')
    found = by_name(run_checks(DoctorContext(root=DataRoot.resolve())))
    assert (
        found["config"].status == "fail"
        and "unknown provider kind 'gpt5'" in found["config"].detail
    )
    assert found["providers"].status == "skip"


def test_offline_mode_contacts_nothing(home: Path, fake: FakeProvider) -> None:
    write_config(home, fake)
    ctx = DoctorContext(root=DataRoot.resolve(), network=False, read_secret=provider_keys)
    found = by_name(run_checks(ctx))
    assert found["provider primary"].status == "skip"
    assert fake.requests == []


def test_a_crashing_check_is_a_failure_not_a_crash(home: Path) -> None:
    def broken(ctx: DoctorContext) -> list[CheckResult]:
        raise RuntimeError("boom")

    results = run_checks(DoctorContext(root=DataRoot.resolve()), [broken])
    assert results == [CheckResult("fail", "broken", "the check crashed: RuntimeError: boom")]


def test_no_configuration_checks_the_offline_brain(home: Path) -> None:
    found = by_name(run_checks(DoctorContext(root=DataRoot.resolve())))
    assert found["provider offline"].status == "ok"
    assert "no providers" in found["config"].detail


def test_the_command_end_to_end_with_the_real_vault(home: Path, fake: FakeProvider) -> None:
    write_config(home, fake)
    vault = home / "memory" / "vault"
    vault.mkdir(parents=True)
    os.chmod(vault, 0o700)
    (vault / "primary_key.md").write_text(FAKE_KEY + "\n")
    (vault / "claude_key.md").write_text("sk-wrong-key-for-claude-000000\n")
    env = {**os.environ, "SHELLDON_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "shelldon", "doctor", "--timeout", "5"],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=60,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "ok    provider primary" in output
    assert "FAIL  provider claude" in output and "HTTP 401" in output
    assert "1 check(s) failed" in output
    assert FAKE_KEY not in output and "sk-wrong-key" not in output


def test_a_config_error_is_counted_once(home: Path) -> None:
    """The bad file was reported by check_config and again as a crashed check_users."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text('[[provider]]\nname = "x"\nkind = "gpt5"\n')
    results = run_checks(DoctorContext(root=DataRoot.resolve(), network=False))
    failed = [r for r in results if r.status == "fail"]
    assert [r.name for r in failed] == ["config"], failed
    assert not any("crashed" in r.detail for r in results)


def test_a_provider_with_no_key_is_not_shown_as_key_present(home: Path, fake: FakeProvider) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        fake.provider_table(name="local") + "\n" + fake.provider_table(name="hosted", key="k")
    )
    ctx = DoctorContext(root=DataRoot.resolve(), network=False, read_secret=lambda name: FAKE_KEY)
    found = by_name(run_checks(ctx))
    assert "no key configured" in found["provider local"].detail
    assert "key present" not in found["provider local"].detail
    assert "key 'k' present" in found["provider hosted"].detail


def test_a_missing_key_says_how_to_store_it_and_that_the_pet_skips_it(
    home: Path, fake: FakeProvider
) -> None:
    write_config(home, fake)
    ctx = DoctorContext(root=DataRoot.resolve(), network=False, read_secret=lambda name: None)
    found = by_name(run_checks(ctx))
    detail = found["provider primary"].detail
    assert found["provider primary"].status == "fail"
    assert "`shelldon vault set primary_key`" in detail and "skips this provider" in detail
