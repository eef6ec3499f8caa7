"""`shelldon chat`, `shelldon say "…"`, `shelldon status`: the owner's side of core's socket."""

from __future__ import annotations

import argparse
import json
import select
import socket
import sys
import time

from shelldon import ipc
from shelldon.cli.run_cmd import add_run_dir, data_root
from shelldon.contracts import wire
from shelldon.paths import DataRoot

SAY_TIMEOUT_S = (
    120.0  # beyond any turn deadline: core always answers, with the degrade reply at worst
)


class NotRunning(Exception):
    pass


class Session:
    """One connection to core, kept open for a whole chat."""

    def __init__(self, root: DataRoot) -> None:
        self.path = root.socket("core")
        self.sock = self._connect()

    def _connect(self) -> socket.socket:
        try:
            return ipc.connect(self.path, timeout=5.0)
        except OSError as exc:
            raise NotRunning(
                f"shelldon is not running (no core at {self.path}: {exc.strerror}); "
                "start it with `shelldon run`"
            ) from None

    def _closed_by_core(self) -> bool:
        """Core lets a chat idle past its timeout go; a quiet EOF here means: connect again."""
        readable, _, _ = select.select([self.sock], [], [], 0)
        if not readable:
            return False
        try:
            return self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except OSError:
            return True

    def ask(self, message: wire._Msg, timeout: float = SAY_TIMEOUT_S) -> wire.Message:
        deadline = time.monotonic() + timeout
        if self._closed_by_core():  # nothing was sent yet, so asking again is safe
            self.sock.close()
            self.sock = self._connect()
        ipc.send(self.sock, message, deadline=deadline)
        return ipc.recv(self.sock, deadline=deadline)

    def close(self) -> None:
        self.sock.close()


def ask_core(root: DataRoot, message: wire._Msg, timeout: float = SAY_TIMEOUT_S) -> wire.Message:
    session = Session(root)
    try:
        return session.ask(message, timeout)
    finally:
        session.close()


def _print_reply(answer: wire.Message) -> int:
    if isinstance(answer, wire.Reply):
        print(answer.text, flush=True)
        return 0
    if isinstance(answer, wire.Refused):
        print(f"shelldon refused: {answer.reason}", file=sys.stderr)
        return 1
    print(f"shelldon: unexpected answer {type(answer).__name__}", file=sys.stderr)
    return 1


def chat_loop(root: DataRoot) -> int:
    """Read a line, print the pet's reply, until EOF or /quit."""
    try:
        session = Session(root)
    except NotRunning as exc:
        print(exc, file=sys.stderr)
        return 1
    print("Talk to your pet. /status shows how it is, /quit (or Ctrl-D) leaves.", flush=True)
    try:
        while True:
            try:
                line = input("you> ")
            except EOFError:
                print()
                return 0
            text = line.strip()
            if not text:
                continue
            if text in ("/quit", "/exit"):
                return 0
            try:
                if text == "/status":
                    answer = session.ask(wire.StatusRequest(), 10.0)
                    if isinstance(answer, wire.Status):
                        print(format_status(answer), flush=True)
                    continue
                answer = session.ask(wire.Say(text=text))
            except (ipc.IpcError, OSError) as exc:
                print(f"shelldon: lost core ({exc})", file=sys.stderr)
                return 1
            if isinstance(answer, wire.Reply):
                print(f"shelldon> {answer.text}", flush=True)
            else:
                _print_reply(answer)
    finally:
        session.close()


def format_status(status: wire.Status) -> str:
    lines = []
    for proc in status.processes:
        state = "up" if proc.up else "DOWN"
        detail = f"  {proc.detail}" if proc.detail else ""
        lines.append(
            f"{proc.name:<11} {state:<5} pid {proc.pid if proc.pid is not None else '-'}{detail}"
        )
    iso = "on" if status.vault_isolation else "OFF (dev mode)"
    lines.append(f"vault isolation: {iso} ({status.isolation_detail})")
    if status.last_turn is None:
        lines.append("last turn: none yet")
    else:
        t = status.last_turn
        via = f" via {t.provider}" if t.provider else ""
        lines.append(
            f"last turn: {t.turn_id} {t.purpose} {t.outcome}{via} at {t.at} ({t.elapsed_ms} ms)"
        )
    counts = ", ".join(f"{k} {v}" for k, v in status.memory_counts.items())
    lines.append(f"memory: {counts}")
    lines.extend(status.extra_lines)
    return "\n".join(lines)


def _chat(args: argparse.Namespace) -> int:
    return chat_loop(data_root(args))


def _say(args: argparse.Namespace) -> int:
    text = " ".join(args.text).strip()
    if not text:
        print("shelldon say: nothing to say", file=sys.stderr)
        return 2
    try:
        answer = ask_core(data_root(args), wire.Say(text=text))
    except NotRunning as exc:
        print(exc, file=sys.stderr)
        return 1
    except (ipc.IpcError, OSError) as exc:
        print(f"shelldon: lost core ({exc})", file=sys.stderr)
        return 1
    return _print_reply(answer)


def _status(args: argparse.Namespace) -> int:
    try:
        answer = ask_core(data_root(args), wire.StatusRequest(), 15.0)
    except NotRunning as exc:
        print(exc, file=sys.stderr)
        return 1
    except (ipc.IpcError, OSError) as exc:
        print(f"shelldon: lost core ({exc})", file=sys.stderr)
        return 1
    if not isinstance(answer, wire.Status):
        return _print_reply(answer)
    if args.json:
        import msgspec

        print(json.dumps(msgspec.to_builtins(answer), indent=2))
    else:
        print(format_status(answer))
    return 0 if all(p.up for p in answer.processes) else 1


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    chat = sub.add_parser("chat", parents=[common], help="talk to the running pet in this terminal")
    add_run_dir(chat)
    chat.set_defaults(func=_chat)
    say = sub.add_parser(
        "say", parents=[common], help='send one message and print the reply: shelldon say "hi"'
    )
    add_run_dir(say)
    say.add_argument("text", nargs="+")
    say.set_defaults(func=_say)
    status = sub.add_parser(
        "status", parents=[common], help="processes, last turn, memory counts, vault isolation"
    )
    add_run_dir(status)
    status.add_argument("--json", action="store_true", help="machine-readable")
    status.set_defaults(func=_status)
