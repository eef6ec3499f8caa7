"""shelldon.toml: defaults, the path and its override, clear start-up errors, build_chain's keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from shelldon.broker.offline import OfflineBrain
from shelldon.broker.server import build_chain
from shelldon.config import ConfigError, load_config, parse_config
from shelldon.paths import DataRoot

OPENAI = "[[provider]]\nname = 'x'\nkind = 'openai'\nmodel = 'm'\n"
GOOD = """
[[provider]]
name = "groq"
kind = "openai"
base_url = "https://api.groq.com/openai/v1/"
model = "llama-3.1-8b-instant"
key = "groq_key"
retries = 2

[[provider]]
name = "claude"
kind = "anthropic"
model = "claude-3-5-haiku-latest"
key = "anthropic_key"

[[provider]]
name = "offline"
kind = "offline"

[worker]
user = "pet-worker"

[prompt]
max_prompt_chars = 12000
recent_window = 20
"""


def test_no_file_is_the_default_configuration(home: Path) -> None:
    config = load_config(DataRoot.resolve())
    assert config.providers == ()
    assert config.worker.user == ""  # unconfigured: dev mode, no drop


def test_a_long_provider_timeout_fits_a_longer_turn() -> None:
    config = parse_config(OPENAI + "timeout = 90\n[worker]\nturn_timeout = 120\n")
    assert config.providers[0].timeout == 90


def test_the_older_response_format_names_a_protocol() -> None:
    assert parse_config(OPENAI + "response_format = 'json_schema'\n").providers[0].protocol == (
        "json_schema"
    )
    assert parse_config(OPENAI + "response_format = 'none'\n").providers[0].protocol == "plain"


def test_the_file_in_the_home_is_read_with_defaults_filled(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "shelldon.toml").write_text(GOOD)
    config = load_config(DataRoot.resolve())
    assert [p.name for p in config.providers] == ["groq", "claude", "offline"]
    groq, claude, _ = config.providers
    assert groq.base_url == "https://api.groq.com/openai/v1"
    assert groq.protocol == "tools"  # the default for every HTTP kind
    assert groq.retries == 2
    assert claude.base_url == "https://api.anthropic.com/v1"
    assert claude.protocol == "tools"
    assert config.worker.user == "pet-worker"
    assert config.prompt.overrides() == {"recent_window": 20, "max_prompt_chars": 12000}


def test_shelldon_config_overrides_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere.toml"
    elsewhere.write_text('[[provider]]\nname = "local"\nkind = "openai"\nmodel = "m"\n')
    monkeypatch.setenv("SHELLDON_CONFIG", str(elsewhere))
    assert [p.name for p in load_config(DataRoot.resolve()).providers] == ["local"]


def test_shelldon_offline_ignores_the_providers(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home.mkdir(parents=True)
    (home / "shelldon.toml").write_text(GOOD)
    monkeypatch.setenv("SHELLDON_OFFLINE", "1")
    assert load_config(DataRoot.resolve()).providers == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[provider]]\nname = "x"\nkind = "gpt"\n', "unknown provider kind 'gpt'"),
        ('[[provider]]\nname = "x"\nkind = "openai"\n', "model is required"),
        (
            '[[provider]]\nname = "x"\nkind = "openai"\nmodel = "m"\nmodle = "m"\n',
            "unknown field `modle`",
        ),
        (
            '[[provider]]\nname = "x"\nkind = "openai"\nmodel = "m"\ntimeout = "5"\n',
            "[[provider]] #1.timeout",
        ),
        (
            "[[provider]]\nname = 'y'\nkind = 'offline'\n" + OPENAI,
            "put it last",
        ),
        (OPENAI * 2, "used twice"),
        (OPENAI + "base_url = 'https://h:99999/v1'\n", "invalid port"),
        (
            OPENAI + "base_url = 'ftp://h'\n",
            "http(s) URL",
        ),
        (
            OPENAI + "base_url = 'https://u:p@h/v1'\n",
            "must not carry credentials",
        ),
        (
            OPENAI + "key = 'k'\nbase_url = 'http://10.0.0.5/v1'\n",
            "refusing to send a key over plain http",
        ),
        (
            OPENAI + "response_format = 'yaml'\n",
            "unknown response_format",
        ),
        (
            OPENAI.replace("openai", "anthropic") + "response_format = 'json_object'\n",
            "no JSON mode",
        ),
        (
            OPENAI.replace("openai", "anthropic") + "protocol = 'json_schema'\n",
            "no JSON mode",
        ),
        (OPENAI + "protocol = 'xml'\n", "unknown protocol"),
        (
            OPENAI + "timeout = 90\n",
            "provider 'x': timeout = 90 s does not fit in [worker] turn_timeout = 60 s; raise "
            "turn_timeout to at least 90 or lower timeout",
        ),
        (
            OPENAI + "timeout = 58\n[[provider]]\nname = 'o'\nkind = 'offline'\n",
            "timeout = 58 s plus 3 s kept for the providers after it does not fit",
        ),
        (
            OPENAI + "protocol = 'tools'\nresponse_format = 'none'\n",
            "set protocol or the older response_format, not both",
        ),
        (
            OPENAI + "headers = { Authorization = 'Bearer k' }\n",
            "not allowed",
        ),
        (
            OPENAI + "key = '../../etc/passwd'\n",
            "vault entry",
        ),
        (
            OPENAI + "retries = 50\n",
            "retries must be 0..5",
        ),
        ("[[provider]\n", "not valid TOML"),
        ("[wroker]\nuser = 'x'\n", "unknown field `wroker`"),
        ("[prompt]\nrecent_window = -3\n", "[prompt] recent_window must be 0..1000000"),
        ("[prompt]\nrecent_windows = 3\n", "unknown field `recent_windows`"),
        # inf is valid TOML: it used to load, and the dream scheduler failed at every check.
        ("[scheduler]\nidle_after_hours = inf\n", "[scheduler] idle_after_hours must be 0..8760"),
        ("[scheduler]\ncooldown_hours = 1e308\n", "[scheduler] cooldown_hours must be 0..8760"),
        ("[scheduler]\ndaily_budget = 9223372036854775807\n", "daily_budget must be 0..1000000"),
        ("[scheduler]\ndream_cost = 5000\n", "[scheduler] dream_cost must be 0..1000"),
    ],
)
def test_bad_configuration_fails_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="/etc/shelldon.toml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("/etc/shelldon.toml: ")


def test_plain_http_is_fine_for_loopback_and_keyless_hosts() -> None:
    config = parse_config(
        "[[provider]]\nname = 'ollama'\nkind = 'openai'\nmodel = 'llama3'\n"
        "base_url = 'http://192.168.1.5:11434/v1'\n"
        "[[provider]]\nname = 'llamacpp'\nkind = 'openai'\nmodel = 'm'\nkey = 'k'\n"
        "base_url = 'http://127.0.0.1:8080/v1'\n"
    )
    assert [p.name for p in config.providers] == ["ollama", "llamacpp"]


def test_a_missing_key_skips_its_provider_naming_the_entry_not_a_value() -> None:
    """It stopped the pet before (a dead end: `vault set` needed the pet running)."""
    config = parse_config(GOOD)
    chain = build_chain(config, read_secret=lambda name: None)
    assert chain.names == ("offline",)  # the rest of the chain still answers
    assert [(a.provider, a.kind, a.message) for a in chain.skipped] == [
        ("groq", "no_key", "shelldon vault set groq_key"),
        ("claude", "no_key", "shelldon vault set anthropic_key"),
    ]
    no_offline = GOOD.replace('[[provider]]\nname = "offline"\nkind = "offline"\n', "")
    alone = build_chain(parse_config(no_offline), read_secret=lambda name: None)
    assert alone.names == ("offline",)  # no provider left: the offline brain, never a dead pet


def test_a_vault_refusal_is_a_config_error_without_details() -> None:
    def refuse(name: str) -> str | None:
        raise ValueError("traversal rejected: sk-SECRET-should-not-show")

    with pytest.raises(ConfigError) as caught:
        build_chain(parse_config(GOOD), read_secret=refuse)
    assert "sk-SECRET" not in str(caught.value)


def test_a_vault_the_user_may_not_read_says_whom_to_run_as() -> None:
    def denied(name: str) -> str | None:
        raise PermissionError(13, "Permission denied")

    with pytest.raises(ConfigError) as caught:
        build_chain(parse_config(GOOD), read_secret=denied)
    assert "run as the service user" in str(caught.value)


def test_build_chain_reads_each_key_once_and_keeps_the_order() -> None:
    asked: list[str] = []

    def secrets(name: str) -> str:
        asked.append(name)
        return f"value-of-{name}"

    without_offline = GOOD.replace(
        'name = "offline"\nkind = "offline"', 'name = "local"\nkind = "openai"\nmodel = "m"'
    )
    chain = build_chain(parse_config(without_offline), read_secret=secrets)
    assert chain.names == ("groq", "claude", "local")
    assert asked == ["groq_key", "anthropic_key"]
    assert chain.providers[0].retry_policy.retries == 2  # type: ignore[attr-defined]
    assert "value-of" not in repr(chain.providers)


def test_no_configuration_builds_the_offline_brain_alone() -> None:
    chain = build_chain(None)
    assert len(chain.providers) == 1
    assert isinstance(chain.providers[0], OfflineBrain)
    chain_from_default = build_chain(load_config(DataRoot.resolve()))
    assert isinstance(chain_from_default.providers[0], OfflineBrain)
