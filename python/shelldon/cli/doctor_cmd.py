"""`shelldon doctor`: check the configuration and reach each provider, printing what works.

The doctor is a list of check functions (`shelldon.appliance.doctor.Check`). Each takes the
DoctorContext and yields CheckResults; a check that raises is reported as failed, never crashes the
doctor. `all_checks` is this module's `CHECKS`, then `shelldon.cli.procs_doctor`'s and
`shelldon.appliance.doctor_checks`'s.

To reach a provider the doctor builds the chain the broker would (same code: `build_chain`, keys
read through `shelldon.broker.vault.surface_vault`), so run it as the service user or root. No key
is ever printed: results are built from names and scrubbed errors, and the whole report is scrubbed
of every key read before it is written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from shelldon.appliance.doctor import Check, CheckResult, DoctorContext, recording_reader
from shelldon.cli.common import data_root, seconds
from shelldon.contracts.brain import CompletionRequest, PromptSection
from shelldon.contracts.config import ProviderConfig, ShelldonConfig

_LABELS = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL", "skip": "skip"}

PROBE_MESSAGE = 'This is a health check. Answer with {"reply": "ok", "ops": []}.'


def check_data_root(ctx: DoctorContext) -> Iterator[CheckResult]:
    home = ctx.root.home
    if not home.exists():
        yield CheckResult(
            "warn", "data root", f"{home} does not exist yet (`shelldon run` makes it)"
        )
    elif not home.is_dir():
        yield CheckResult("fail", "data root", f"{home} is not a directory")
    elif not os.access(home, os.R_OK | os.X_OK):
        yield CheckResult("fail", "data root", f"{home} is not readable by uid {os.getuid()}")
    elif not _writable(home):
        yield CheckResult(
            "fail",
            "data root",
            f"{home} is read-only for uid {os.getuid()}: the pet cannot store anything there",
        )
    else:
        from shelldon.core.storage.check import LOW_SPACE_BYTES, describe_free, free_bytes

        free = free_bytes(home)
        low = free is not None and free < LOW_SPACE_BYTES
        yield CheckResult("warn" if low else "ok", "data root", f"{home} ({describe_free(home)})")
        yield _check_history(ctx.root.history_db)


def _check_history(db: Path) -> CheckResult:
    """history.db as core's start will find it: a regular file in the data root (not a link nor a
    folder, nor its -wal/-shm), and sqlite's quick_check passing (every page read: seconds on a
    Pi for a large file). Before, a damaged or missing history.db was "all good" here."""
    from shelldon.core.storage.check import StorageFault, check_history

    try:
        check_history(db)
    except StorageFault as exc:
        return CheckResult("fail", "history", str(exc))
    if not db.exists():
        return CheckResult("ok", "history", f"{db} absent: the pet starts a new one")
    return CheckResult("ok", "history", f"{db} (quick_check ok)")


def _writable(home: Path) -> bool:
    """Can this uid create a file in `home`? Tried for real: access(2) says yes to root on a
    read-only mount, and a 0555 directory refuses root nothing."""
    probe = home / f".doctor-probe-{os.getpid()}"
    try:
        probe.touch(exist_ok=False)
    except FileExistsError:
        return True
    except OSError:
        return False
    probe.unlink(missing_ok=True)
    return True


def check_config(ctx: DoctorContext) -> Iterator[CheckResult]:
    from shelldon.config import OFFLINE_ENV, ConfigError, load_config

    path = ctx.root.config
    try:
        config = load_config(ctx.root)
    except ConfigError as exc:
        yield CheckResult("fail", "config", str(exc))
        return
    ctx.config, ctx.config_ok = config, True
    where = str(path) if path.exists() else f"{path} (absent: defaults)"
    if os.environ.get(OFFLINE_ENV, "").strip() not in ("", "0"):
        yield CheckResult("warn", "config", f"{where}; {OFFLINE_ENV} is set: offline brain only")
    elif not config.chain:
        yield CheckResult("ok", "config", f"{where}; no providers: the offline brain answers")
    else:
        chain = ", ".join(f"{p.name} ({p.kind})" for p in config.chain)
        yield CheckResult("ok", "config", f"{where}; chain: {chain}")


def check_tls(ctx: DoctorContext) -> Iterator[CheckResult]:
    from shelldon.broker.providers.http import ca_source, proxy_for, ssl_context

    if not ctx.config_ok or not _http_specs(ctx):
        return
    context = ssl_context()
    kind, where = ca_source()
    loaded = context.cert_store_stats().get("x509_ca", 0)
    if kind == "capath":
        yield CheckResult("ok", "tls", f"verification on, CA directory {where} (read on demand)")
    elif loaded == 0:
        yield CheckResult(
            "warn", "tls", "no CA certificates loaded: https providers will fail (ca-certificates)"
        )
    else:
        yield CheckResult("ok", "tls", f"verification on, {loaded} CA certificates from {where}")
    for spec in _http_specs(ctx):
        try:
            proxy = proxy_for(spec.base_url)
        except Exception as exc:  # an unusable proxy setting is the provider check's failure too
            yield CheckResult("warn", f"proxy {spec.name}", str(exc))
            continue
        if proxy is not None:
            yield CheckResult("ok", f"proxy {spec.name}", f"via {proxy.host}:{proxy.port}")


def check_providers(ctx: DoctorContext) -> Iterator[CheckResult]:
    """Build each provider (reading its key) and, with the network on, send it a tiny request."""
    from shelldon.broker.providers.base import ProviderError
    from shelldon.broker.server import build_chain
    from shelldon.config import ConfigError

    if not ctx.config_ok or ctx.config is None:
        yield CheckResult("skip", "providers", "the configuration did not load")
        return
    config = ctx.config
    request = CompletionRequest(
        purpose="turn",
        sections=(PromptSection(kind="message", text=PROBE_MESSAGE),),
        max_reply_chars=200,
    )
    links = config.chain
    if not links:
        yield from _probe_offline(request)
        return
    for spec in links:
        name = f"provider {spec.name}"
        if spec.kind == "offline":
            yield from _probe_offline(request, name)
            continue
        # A tiny budget and no retries: the doctor asks once and reports.
        probe_spec = _probe_spec(spec, ctx.timeout)
        try:
            chain = build_chain(
                ShelldonConfig(providers=(probe_spec,)),
                root=ctx.root,
                read_secret=recording_reader(ctx),
            )
        except ConfigError as exc:
            yield CheckResult("fail", name, str(exc))
            continue
        except PermissionError:
            yield CheckResult(
                "fail", name, f"cannot read the vault as uid {os.getuid()}: run as the service user"
            )
            continue
        if chain.skipped:
            yield CheckResult(
                "fail",
                name,
                f"vault entry {spec.key!r} is missing: `shelldon vault set {spec.key}` "
                "(the pet skips this provider until then)",
            )
            continue
        if not ctx.network:
            key = f"key {spec.key!r} present" if spec.key else "no key configured"
            yield CheckResult("skip", name, f"built ({key}); not contacted (--offline)")
            continue
        provider = chain.providers[0]
        started = time.monotonic()
        try:
            raw = provider.complete(request)
        except ProviderError as exc:
            # A refused key (401/403) says nothing about the protocol; a 400/404/422 may.
            if exc.status not in (400, 404, 422) or spec.resolved_protocol() != "tools":
                yield CheckResult("fail", name, f"{spec.base_url}: {exc.kind}: {exc.message}")
                continue
            # Refused as asked (HTTP 4xx): which protocol does this server honour?
            yield from _fallback_protocols(ctx, spec, probe_spec, request, name, exc)
            continue
        elapsed = (time.monotonic() - started) * 1000
        yield _answered(spec, raw, elapsed, name)


# Tried in order when a server refuses tool calls: the strongest JSON ask first.
FALLBACK_PROTOCOLS = {"openai": ("json_schema", "json_object", "plain"), "anthropic": ("plain",)}


def _fallback_protocols(
    ctx: DoctorContext,
    spec: ProviderConfig,
    probe_spec: ProviderConfig,
    request: CompletionRequest,
    name: str,
    refused: Exception,
) -> Iterator[CheckResult]:
    from shelldon.broker.providers.base import ProviderError
    from shelldon.broker.server import build_chain

    detail = getattr(refused, "message", str(refused))
    for protocol in FALLBACK_PROTOCOLS.get(spec.kind, ()):
        trial = msgspec.structs.replace(probe_spec, protocol=protocol, response_format="")
        chain = build_chain(
            ShelldonConfig(providers=(trial,)), root=ctx.root, read_secret=recording_reader(ctx)
        )
        try:
            chain.providers[0].complete(request)
        except ProviderError:
            continue
        yield CheckResult(
            "warn",
            name,
            f"{spec.model} refused tool calls ({detail}) but answers with protocol "
            f'"{protocol}": set protocol = "{protocol}" for this provider',
        )
        return
    yield CheckResult("fail", name, f"{spec.base_url}: client: {detail}")


def _answered(spec: ProviderConfig, raw: Any, elapsed: float, name: str) -> CheckResult:
    from shelldon.broker.protocol import parse_reply
    from shelldon.broker.reply_check import unusable_reason

    reply = parse_reply(raw.text, max_reply_chars=200)
    usage = ""
    if raw.usage is not None and raw.usage.prompt_tokens is not None:
        usage = f", {raw.usage.prompt_tokens}+{raw.usage.completion_tokens or 0} tokens"
    protocol = spec.resolved_protocol()
    if protocol == "tools" or (protocol == "plain" and not raw.text.lstrip().startswith("{")):
        clean = unusable_reason(reply.text) is None or bool(raw.tool_calls)
        shape = f"protocol {protocol}: " + ("plain words" if clean else "words it could not show")
    else:
        clean = not reply.dropped
        shape = "the reply protocol" if clean else "text the parser had to repair"
    return CheckResult(
        "ok" if clean else "warn",
        name,
        f"{spec.model} answered in {elapsed:.0f} ms with {shape}{usage}",
    )


def _probe_offline(
    request: CompletionRequest, name: str = "provider offline"
) -> Iterator[CheckResult]:
    try:
        from shelldon.broker.offline import OfflineBrain

        raw = OfflineBrain().complete(request)
    except Exception as exc:
        yield CheckResult("fail", name, f"the offline brain failed: {type(exc).__name__}: {exc}")
        return
    yield CheckResult("ok", name, f"the offline brain answers ({len(raw.text)} chars)")


def _probe_spec(spec: ProviderConfig, timeout: float) -> ProviderConfig:
    return msgspec.structs.replace(
        spec, retries=0, max_tokens=64, timeout=min(timeout, spec.timeout)
    )


def _http_specs(ctx: DoctorContext) -> list[ProviderConfig]:
    providers = ctx.config.providers if ctx.config is not None else ()
    return [p for p in providers if p.kind != "offline"]


CHECKS: list[Check] = [check_data_root, check_config, check_tls, check_providers]


def all_checks() -> list[Check]:
    """This module's checks, Telegram's, then the running processes', then the card's."""
    # Imported here: `shelldon --help` (which registers this command) need not load them.
    from shelldon.appliance import doctor_checks
    from shelldon.cli import procs_doctor, telegram_cmd, voice_doctor

    return [
        *CHECKS,
        voice_doctor.check_voice,
        telegram_cmd.check_telegram,
        *procs_doctor.CHECKS,
        *doctor_checks.CHECKS,
    ]


def run_checks(ctx: DoctorContext, checks: Iterable[Check] | None = None) -> list[CheckResult]:
    results: list[CheckResult] = []
    for check in checks if checks is not None else all_checks():
        try:
            results.extend(check(ctx))
        except Exception as exc:  # one broken check must not hide the others
            results.append(
                CheckResult(
                    "fail", check.__name__, f"the check crashed: {type(exc).__name__}: {exc}"
                )
            )
    return results


def render(results: Iterable[CheckResult], secrets: Iterable[str] = ()) -> str:
    from shelldon.broker.providers.base import scrub

    lines = [f"  {_LABELS[r.status]}  {r.name:<20} {r.detail}" for r in results]
    return scrub("\n".join(lines), secrets) + "\n"


def doctor(args: argparse.Namespace) -> int:
    ctx = DoctorContext(
        root=data_root(args),
        network=not args.offline,
        timeout=args.timeout,
    )
    results = run_checks(ctx)
    sys.stdout.write(f"shelldon doctor: {ctx.root.home}\n")
    sys.stdout.write(render(results, ctx.secrets))
    failed = sum(1 for r in results if r.status == "fail")
    sys.stdout.write("all good\n" if not failed else f"{failed} check(s) failed\n")
    return 1 if failed else 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "doctor",
        parents=[common],
        help="check the configuration and reach each provider",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "--offline", action="store_true", help="check the configuration and keys, contact nothing"
    )
    parser.add_argument(
        "--timeout", type=seconds, default=15.0, help="seconds per provider probe (default 15)"
    )
    parser.set_defaults(func=doctor)
