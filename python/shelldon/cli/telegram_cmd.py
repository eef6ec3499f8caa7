"""`shelldon telegram pair | unpair`, and the doctor's Telegram check (token and pairing).

Pairing asks core for a one-time code (core keeps only its hash) and prints it with the bot's deep
link, `https://t.me/<bot>?start=CODE`, also as a QR code in the terminal when Debian's
python3-qrcode is installed (the owner is often on SSH, the phone in hand).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Iterator

from shelldon import ipc
from shelldon.appliance.doctor import CheckResult, DoctorContext
from shelldon.cli.common import add_run_dir, data_root
from shelldon.contracts import wire
from shelldon.transport.terminal import NotRunning, ask_core


def deep_link(bot_username: str, code: str) -> str:
    return f"https://t.me/{bot_username}?start={code}"


def render_qr(text: str) -> str | None:
    """`text` as a QR code of half-block characters; None without the qrcode library."""
    try:
        import qrcode  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    qr = qrcode.QRCode(border=2)
    qr.add_data(text)
    qr.make(fit=True)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def _ask(args: argparse.Namespace, message: wire._Msg) -> wire.Message | None:
    try:
        return ask_core(data_root(args), message, 15.0)
    except NotRunning as exc:
        print(exc, file=sys.stderr)
    except (ipc.IpcError, OSError) as exc:
        print(f"shelldon: lost core ({exc})", file=sys.stderr)
    return None


def _pair(args: argparse.Namespace) -> int:
    answer = _ask(args, wire.TelegramPair())
    if answer is None:
        return 1
    if not isinstance(answer, wire.TelegramPairing):
        reason = answer.reason if isinstance(answer, wire.Refused) else type(answer).__name__
        print(f"shelldon refused: {reason}", file=sys.stderr)
        return 1
    print(f"Pairing code: {answer.code}  (one use, valid until {answer.expires} UTC)")
    print(f"Send this to your bot in Telegram:  /pair {answer.code}")
    if answer.bot_username:
        link = deep_link(answer.bot_username, answer.code)
        print(f"or open this link on your phone:  {link}")
        qr = render_qr(link)
        if qr is not None:
            print(qr, end="")
    else:
        print(
            "(The bot's name is not known yet: is the token in the vault? `shelldon status` "
            "shows what the poller is doing.)"
        )
    print("Any other chat is refused; a wrong code five times closes pairing until a new `pair`.")
    return 0


def _unpair(args: argparse.Namespace) -> int:
    answer = _ask(args, wire.TelegramUnpair())
    if answer is None:
        return 1
    if isinstance(answer, wire.Ack):
        print(answer.detail)
        return 0
    reason = answer.reason if isinstance(answer, wire.Refused) else type(answer).__name__
    print(f"shelldon refused: {reason}", file=sys.stderr)
    return 1


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    # The common options on the group and on each action (as `vault`): the group's copies default
    # to SUPPRESS (cli.common), so `telegram --home X pair` keeps X.
    telegram = sub.add_parser(
        "telegram", parents=[common], help="pair the owner's Telegram chat with the pet"
    )
    tsub = telegram.add_subparsers(dest="telegram_command", metavar="ACTION", required=True)
    pair = tsub.add_parser(
        "pair", parents=[common], help="print a one-time code and link (10 minutes) to pair a chat"
    )
    add_run_dir(pair)
    pair.set_defaults(func=_pair)
    unpair = tsub.add_parser("unpair", parents=[common], help="forget the paired chat")
    add_run_dir(unpair)
    unpair.set_defaults(func=_unpair)


# --- shelldon doctor ---------------------------------------------------------------------------


def check_telegram(ctx: DoctorContext) -> Iterator[CheckResult]:
    """The token (getMe, when the network may be used) and the pairing (history.db, read-only)."""
    if not ctx.config_ok or ctx.config is None:
        return
    spec = ctx.config.telegram
    if not spec.enabled:
        yield CheckResult("skip", "telegram", "[telegram] enabled = false")
        return
    try:
        if ctx.read_secret is not None:
            token = ctx.read_secret(spec.token_key)
        else:
            from shelldon.broker.vault import surface_vault

            token = surface_vault(ctx.root, spec.token_key)
    except PermissionError:
        yield CheckResult(
            "fail",
            "telegram",
            f"cannot read the vault as uid {os.getuid()}: run as the service user",
        )
        return
    if not token:
        yield CheckResult(
            "skip", "telegram", f"not set up (no {spec.token_key} in the vault; docs/telegram.md)"
        )
        return
    ctx.secrets.append(token)
    yield from _check_token(ctx, token)
    yield _check_pairing(ctx)


def _check_token(ctx: DoctorContext, token: str) -> Iterator[CheckResult]:
    from shelldon.transport.telegram import BotApi, BotApiError

    if ctx.config is None:
        return
    spec = ctx.config.telegram
    if not ctx.network:
        yield CheckResult("skip", "telegram token", "present; not contacted (--offline)")
        return
    api = BotApi(spec.api_base, token, request_timeout=min(ctx.timeout, spec.request_timeout))
    try:
        me = api.call("getMe")
    except BotApiError as exc:
        if exc.kind == "unauthorized":
            detail = (
                f"401 Unauthorized: Telegram refused the bot token; set the right one with "
                f"`shelldon vault set --replace {spec.token_key}`"
            )
        else:
            detail = f"{spec.api_base}: {exc.kind}: {exc}"
        yield CheckResult("fail", "telegram token", api.scrub(detail))
        return
    name = me.get("username") if isinstance(me, dict) else None
    yield CheckResult("ok", "telegram token", f"accepted (getMe: @{name or '?'})")


def _check_pairing(ctx: DoctorContext) -> CheckResult:
    # Here, not at the top: every process builds the CLI parser (the broker too), and sqlite
    # costs ~1 MB of RSS to a process that never opens a database.
    import sqlite3

    from shelldon.core.telegram import state as telegram_state

    db = ctx.root.history_db
    try:
        conn = sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return CheckResult("warn", "telegram pairing", f"cannot read {db.name}: {exc}")
    try:
        snap = telegram_state.snapshot(conn)
    except sqlite3.Error as exc:
        return CheckResult(
            "warn", "telegram pairing", f"{db.name} has no Telegram state yet ({exc})"
        )
    finally:
        conn.close()
    if snap.chat_id is None:
        return CheckResult("warn", "telegram pairing", "no chat paired: `shelldon telegram pair`")
    return CheckResult("ok", "telegram pairing", f"paired with chat {snap.chat_id}")
