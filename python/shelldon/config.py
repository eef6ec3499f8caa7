"""Load and check `shelldon.toml`: `<home>/shelldon.toml`, or the path in SHELLDON_CONFIG.

A missing file is the default configuration (no providers: the offline brain). A file that
exists but is wrong (bad TOML, an unknown setting, an unknown provider kind, a provider without a
model) is a ConfigError naming the file and the setting, raised at start-up. Nothing here reads a
key: the broker does, once, when it builds the chain (`shelldon.broker.server.build_chain`).

Environment overrides: SHELLDON_CONFIG (the file's path), SHELLDON_OFFLINE=1 (ignore the configured
providers and use the offline brain alone, e.g. on a plane or while debugging a provider),
SHELLDON_WORKER_USER (the `[worker] user`).
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

import msgspec

from shelldon.contracts.config import (
    CLOCK_TIME_PATTERN,
    PROTOCOLS,
    PROVIDER_KINDS,
    RESERVE_PER_PROVIDER_S,
    RESPONSE_FORMATS,
    SPEAK_OFFLINE,
    ProviderConfig,
    ShelldonConfig,
    TelegramConfig,
)
from shelldon.paths import DataRoot

OFFLINE_ENV = "SHELLDON_OFFLINE"
WORKER_USER_ENV = "SHELLDON_WORKER_USER"
MAX_CONFIG_BYTES = 256 * 1024

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_KEY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
_HEADER_NAME = re.compile(r"[A-Za-z0-9-]{1,64}")
# Headers that carry credentials are set by the provider from the vault, never from the file.
_RESERVED_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "proxy-authorization"})
DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com/v1",
}
DEFAULT_PROTOCOL = {"openai": "tools", "anthropic": "tools", "offline": "plain"}
# `response_format`, the older setting, names three of the protocols.
_PROTOCOL_OF_RESPONSE_FORMAT = {
    "json_schema": "json_schema",
    "json_object": "json_object",
    "none": "plain",
}


class ConfigError(ValueError):
    """shelldon.toml is unusable: the message names the file and the setting, never a key."""


def config_path(root: DataRoot | None = None) -> Path:
    return (root if root is not None else DataRoot.resolve()).config


def load_config(root: DataRoot | None = None, *, path: Path | None = None) -> ShelldonConfig:
    """The checked configuration. Raises ConfigError with a message a person can act on."""
    path = path if path is not None else config_path(root)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        config = ShelldonConfig()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    else:
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"{path}: larger than {MAX_CONFIG_BYTES} bytes; is it the right file?"
            )
        config = parse_config(data, source=str(path))
    if os.environ.get(OFFLINE_ENV, "").strip() not in ("", "0"):
        config = msgspec.structs.replace(config, providers=())
    return config


def configured_worker_user(root: DataRoot) -> str | None:
    """SHELLDON_WORKER_USER, else `[worker] user` in shelldon.toml, else None (dev mode).

    Read by the fork-server (whom workers become), the broker (whom it serves) and the doctor.
    Raises ConfigError if the file is unusable.
    """
    env = os.environ.get(WORKER_USER_ENV)
    if env:
        return env
    return load_config(root).worker.user or None


def parse_config(data: bytes | str, *, source: str = "shelldon.toml") -> ShelldonConfig:
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        table = tomllib.loads(text)
    except UnicodeDecodeError:
        raise ConfigError(f"{source}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    try:
        config = msgspec.convert(table, ShelldonConfig, strict=True)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{source}: {_friendly(str(exc))}") from None
    check_config(config, source=source)
    return _with_defaults(config)


def _friendly(message: str) -> str:
    """msgspec's "Expected `int` >= 0 - at `$.scheduler.dream_cost`" as the owner wrote it, with
    the setting's bounds read from its type: "[scheduler] dream_cost must be 0..1000";
    `$.provider[0]` is `[[provider]]` #1."""
    message = re.sub(
        r"\$\.provider\[(\d+)\]", lambda m: f"[[provider]] #{int(m.group(1)) + 1}", message
    )
    where = re.fullmatch(r"(.*) - at `\$\.(\w+)\.(\w+)`", message)
    if not where:
        return message
    what, section, name = where.groups()
    rule = _rule_of(section, name)
    if rule and "Expected" in what and "`bool`" not in what:
        return f"[{section}] {name} must be {rule}"
    return f"[{section}] {name}: {what[:1].lower()}{what[1:]}"


def _rule_of(section: str, name: str) -> str | None:
    """The bounds a setting's type carries (contracts.config), in words; None when it has none."""
    fields = {f.name: f for f in msgspec.inspect.type_info(ShelldonConfig).fields}  # type: ignore[attr-defined]
    table = fields.get(section)
    if table is None or not isinstance(table.type, msgspec.inspect.StructType):
        return None
    field = next((f for f in table.type.fields if f.name == name), None)
    kind = field.type if field else None
    if isinstance(kind, msgspec.inspect.StrType) and kind.pattern == CLOCK_TIME_PATTERN:
        return "a time like 22:00"
    if isinstance(kind, (msgspec.inspect.IntType, msgspec.inspect.FloatType)):
        low, high = kind.ge, kind.le
        if low is not None and high is not None:
            return f"{low}..{high}"
        if low is not None:
            return f"at least {low}"
    return None


def check_config(config: ShelldonConfig, *, source: str = "shelldon.toml") -> None:
    for name, value in config.prompt.overrides().items():
        if not 0 <= value <= 1_000_000:
            raise ConfigError(f"{source}: [prompt] {name} must be 0..1000000, not {value}")
    if not 1 <= config.worker.turn_timeout <= 3600:
        raise ConfigError(f"{source}: [worker] turn_timeout must be 1..3600 seconds")
    _check_telegram(config.telegram, f"{source}: [telegram]")
    seen: set[str] = set()
    for index, spec in enumerate(config.providers):
        where = f"{source}: [[provider]] #{index + 1}"
        if not _NAME.fullmatch(spec.name):
            raise ConfigError(f"{where}: name must be 1-64 letters, digits, '_', '.', '-'")
        where = f"{source}: provider {spec.name!r}"
        if spec.name in seen:
            raise ConfigError(f"{where}: the name is used twice")
        seen.add(spec.name)
        _check_provider(spec, where)
        if not spec.chat and spec.kind != "openai":
            raise ConfigError(
                f"{where}: chat = false is for an openai-kind server [voice] uses alone"
            )
        if spec.kind == "offline" and spec is not config.chain[-1]:
            raise ConfigError(
                f"{where}: the offline brain never fails, so providers after it would never be "
                "asked; put it last"
            )
    _check_timeouts(config, source)
    _check_voice(config, f"{source}: [voice]")


def _check_voice(config: ShelldonConfig, where: str) -> None:
    """`transcribe` and a provider `speak` must name openai-kind providers (the audio endpoints
    are OpenAI's): anything else is a typo the owner would otherwise meet only at the first note."""
    kinds = {spec.name: spec.kind for spec in config.providers}
    voice = config.voice
    named = [("transcribe", name) for name in voice.transcribers]
    if voice.speak and voice.speak != SPEAK_OFFLINE:
        named.append(("speak", voice.speak))
    for setting, name in named:
        kind = kinds.get(name)
        if kind is None:
            known = ", ".join(repr(n) for n, k in kinds.items() if k == "openai") or "none"
            extra = ' (or "offline")' if setting == "speak" else ""
            raise ConfigError(
                f"{where} {setting} = {name!r} names no [[provider]]; openai-kind providers: "
                f"{known}{extra}"
            )
        if kind != "openai":
            raise ConfigError(
                f"{where} {setting} = {name!r} is a provider of kind {kind!r}; the audio "
                'endpoints are OpenAI-compatible: name a provider of kind "openai"'
            )
    if voice.transcribers and not voice.transcribe_model.strip():
        raise ConfigError(f"{where} transcribe_model must name the transcriber's model")
    if voice.language and not re.fullmatch(r"[a-z]{2,3}", voice.language):
        raise ConfigError(f'{where} language must be an ISO-639-1 code such as "en"')


def _check_timeouts(config: ShelldonConfig, source: str) -> None:
    """A provider's `timeout` must fit in the turn, with the chain's reserve for the providers
    after it: else the setting cannot take effect, and the owner would not know why."""
    turn = config.worker.turn_timeout
    count = len(config.chain)
    for index, spec in enumerate(config.chain):
        if spec.kind == "offline":
            continue
        reserve = RESERVE_PER_PROVIDER_S * (count - index - 1)
        if spec.timeout + reserve > turn:
            after = f" plus {reserve:g} s kept for the providers after it" if reserve else ""
            raise ConfigError(
                f"{source}: provider {spec.name!r}: timeout = {spec.timeout:g} s{after} does not "
                f"fit in [worker] turn_timeout = {turn:g} s; raise turn_timeout to at least "
                f"{spec.timeout + reserve:g} or lower timeout"
            )


def _check_provider(spec: ProviderConfig, where: str) -> None:
    if spec.kind not in PROVIDER_KINDS:
        raise ConfigError(
            f"{where}: unknown provider kind {spec.kind!r} (known: {', '.join(PROVIDER_KINDS)})"
        )
    if spec.response_format and spec.response_format not in RESPONSE_FORMATS:
        raise ConfigError(
            f"{where}: unknown response_format {spec.response_format!r} "
            f"(known: {', '.join(RESPONSE_FORMATS)})"
        )
    if spec.protocol and spec.protocol not in PROTOCOLS:
        raise ConfigError(
            f"{where}: unknown protocol {spec.protocol!r} (known: {', '.join(PROTOCOLS)})"
        )
    if spec.protocol and spec.response_format:
        raise ConfigError(f"{where}: set protocol or the older response_format, not both")
    if spec.kind == "anthropic" and spec.resolved_protocol() not in ("tools", "plain"):
        raise ConfigError(
            f"{where}: the Anthropic messages format has no JSON mode; "
            "use protocol = 'tools' or 'plain'"
        )
    if spec.max_tokens_field not in ("max_tokens", "max_completion_tokens"):
        raise ConfigError(
            f"{where}: max_tokens_field must be 'max_tokens' or 'max_completion_tokens'"
        )
    if spec.key and not _KEY_NAME.fullmatch(spec.key):
        raise ConfigError(f"{where}: key must name a vault entry (letters, digits, '_', '.', '-')")
    _positive(where, "timeout", spec.timeout, 600)
    _positive(where, "connect_timeout", spec.connect_timeout, 120)
    _positive(where, "backoff", spec.backoff, 60, allow_zero=True)
    _positive(where, "backoff_cap", spec.backoff_cap, 300, allow_zero=True)
    _positive(where, "retry_after_cap", spec.retry_after_cap, 600, allow_zero=True)
    if not 0 <= spec.retries <= 5:
        raise ConfigError(f"{where}: retries must be 0..5, not {spec.retries}")
    if not 1 <= spec.max_tokens <= 200_000:
        raise ConfigError(f"{where}: max_tokens must be 1..200000")
    if not 1 <= spec.dream_max_tokens <= 200_000:
        raise ConfigError(f"{where}: dream_max_tokens must be 1..200000")
    if not 1 <= spec.max_reply_chars <= 100_000:
        raise ConfigError(f"{where}: max_reply_chars must be 1..100000")
    if not 1024 <= spec.max_response_bytes <= 64 * 1024 * 1024:
        raise ConfigError(f"{where}: max_response_bytes must be 1 KiB..64 MiB")
    if spec.temperature is not None and not 0 <= spec.temperature <= 2:
        raise ConfigError(f"{where}: temperature must be 0..2")
    for header, value in spec.headers.items():
        if not _HEADER_NAME.fullmatch(header) or header.lower() in _RESERVED_HEADERS:
            raise ConfigError(
                f"{where}: header {header!r} is not allowed (credentials come from the vault)"
            )
        if "\n" in value or "\r" in value:
            raise ConfigError(f"{where}: header {header!r} holds a line break")
    if spec.kind == "offline":
        return
    if not spec.model:
        raise ConfigError(f"{where}: model is required for a {spec.kind} provider")
    base_url = spec.base_url or DEFAULT_BASE_URLS[spec.kind]
    parts, host = _http_url(f"{where}: base_url", base_url)
    if parts.username or parts.password:
        raise ConfigError(f'{where}: base_url must not carry credentials; use key = "..."')
    if parts.query or parts.fragment:
        raise ConfigError(f"{where}: base_url must not have a query or fragment")
    if parts.scheme == "http" and spec.key and not spec.allow_plain_http and not _is_loopback(host):
        raise ConfigError(
            f"{where}: refusing to send a key over plain http to {parts.hostname}; use https "
            "(or set allow_plain_http = true if this network is yours)"
        )


def _http_url(label: str, url: str) -> tuple[SplitResult, str]:
    """`url` split, and its host; refused unless http(s) with a host and a valid port (`label`
    names it)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{label} must be an http(s) URL, not {url!r}")
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when asked
    except ValueError:
        raise ConfigError(f"{label} has an invalid port: {url!r}") from None
    return parts, parts.hostname


def _check_telegram(spec: TelegramConfig, where: str) -> None:
    if not _KEY_NAME.fullmatch(spec.token_key):
        raise ConfigError(f"{where} token_key must name a vault entry (letters, digits, '_.-')")
    if not 0 <= spec.poll_timeout <= 300:
        raise ConfigError(f"{where} poll_timeout must be 0..300 seconds, not {spec.poll_timeout}")
    _positive(where, "request_timeout", spec.request_timeout, 300)
    _positive(where, "backoff_cap", spec.backoff_cap, 3600)
    parts, host = _http_url(f"{where} api_base", spec.api_base)
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ConfigError(f"{where} api_base must not carry credentials, a query or a fragment")
    if parts.scheme == "http" and not spec.allow_plain_http and not _is_loopback(host):
        raise ConfigError(
            f"{where} refusing to send the bot token over plain http to {parts.hostname}; use "
            "https (or set allow_plain_http = true if this network is yours)"
        )


def _positive(
    where: str, name: str, value: float, upper: float, *, allow_zero: bool = False
) -> None:
    low_ok = value >= 0 if allow_zero else value > 0
    if not (low_ok and value <= upper):
        bound = ">= 0" if allow_zero else "> 0"
        raise ConfigError(f"{where}: {name} must be {bound} and <= {upper}, not {value}")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _with_defaults(config: ShelldonConfig) -> ShelldonConfig:
    providers = tuple(
        msgspec.structs.replace(
            spec,
            base_url=(spec.base_url or DEFAULT_BASE_URLS.get(spec.kind, "")).rstrip("/"),
            protocol=spec.resolved_protocol(),
        )
        for spec in config.providers
    )
    telegram = msgspec.structs.replace(
        config.telegram, api_base=config.telegram.api_base.rstrip("/")
    )
    return msgspec.structs.replace(config, providers=providers, telegram=telegram)
