#!/usr/bin/env python3
"""Figures for docs/telegram.md: the broker's memory with the Telegram poller running, what idle
polling costs (requests and bytes per hour), and the time from a message reaching the Bot API to
the reply being sent, with the offline brain.

    just telegram-figures     (= .venv/bin/python scripts/measure_telegram.py)
    options: --messages 30 --idle-polls 6

Everything runs for real: `shelldon run --no-chat` (core, broker with the poller, fork-server)
against the fake Bot API of tests/fakes on 127.0.0.1. The fake serves HTTPS with a throwaway
self-signed certificate (trusted through SSL_CERT_FILE, the way the broker's TLS client reads an
override), and every byte between the broker and the fake passes through a counting TCP proxy, so
the byte figures include TLS handshakes. Idle cost per hour is measured per long poll with a short
`poll_timeout` and scaled to the production default (50 s): an idle long poll is one request
whatever its length.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "python"))

from pet_process import start_run  # noqa: E402

from fakes.fake_telegram import FakeTelegram  # noqa: E402

PRODUCTION_POLL_TIMEOUT = 50
OWNER = 5550001


class CountingProxy:
    """127.0.0.1:<port> -> the fake, counting every byte each way (TLS records included)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.up = 0
        self.down = 0
        self.connections = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._pump, args=(client, upstream, "up"), daemon=True).start()
            threading.Thread(
                target=self._pump, args=(upstream, client, "down"), daemon=True
            ).start()

    def _pump(self, src: socket.socket, dst: socket.socket, way: str) -> None:
        try:
            while chunk := src.recv(65536):
                dst.sendall(chunk)
                with self._lock:
                    if way == "up":
                        self.up += len(chunk)
                    else:
                        self.down += len(chunk)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def totals(self) -> tuple[int, int, int]:
        with self._lock:
            return self.up, self.down, self.connections


def self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def rss_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, Pss) of `pid` in KiB."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            pss = int(line.split()[1])
    return rss, pss


class Pet:
    def __init__(self, home: Path, env: dict[str, str]) -> None:
        self.home, self.env = home, env
        self.proc = start_run(env)

    def pid(self, name: str) -> int:
        run = Path(self.env["SHELLDON_RUN_DIR"])
        return int((run / f"{name}.pid").read_text())

    def cli(self, *args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "shelldon", *args],
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)


def start(workdir: Path, name: str, config: str, token: str, extra_env: dict[str, str]) -> Pet:
    from shelldon.core.vault import set_secret
    from shelldon.paths import DataRoot

    home = workdir / name
    run = Path(tempfile.mkdtemp(prefix="shd-", dir="/tmp"))
    home.mkdir()
    (home / "shelldon.toml").write_text(config)
    set_secret(DataRoot(home).vault, "telegram_token", token)
    env = dict(os.environ, SHELLDON_HOME=str(home), SHELLDON_RUN_DIR=str(run), **extra_env)
    return Pet(home, env)


def settle(seconds: float) -> None:
    time.sleep(seconds)  # a measurement window, not synchronisation


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=30)
    parser.add_argument("--idle-polls", type=int, default=6)
    parser.add_argument("--poll-timeout", type=int, default=5)
    args = parser.parse_args()
    import ssl

    workdir = Path(tempfile.mkdtemp(prefix="tg-figures-"))
    cert, key = self_signed(workdir)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    env = {"SSL_CERT_FILE": str(cert)}

    with FakeTelegram(tls=tls) as fake:
        proxy = CountingProxy(fake.port)
        base = f"https://127.0.0.1:{proxy.port}"

        # 1. The broker's memory: poller off, then on (idle, polling).
        off = start(workdir, "off", "[telegram]\nenabled = false\n", fake.token, env)
        settle(3)
        rss_off = rss_kib(off.pid("broker"))
        off.stop()
        config = f'[telegram]\napi_base = "{base}"\npoll_timeout = {args.poll_timeout}\n'
        pet = start(workdir, "on", config, fake.token, env)
        assert fake.wait_until(lambda f: len(f.calls_of("getUpdates")) >= 2, 60)
        rss_on = rss_kib(pet.pid("broker"))

        # 2. Idle polling: bytes per long poll that ends empty.
        polls = len(fake.calls_of("getUpdates"))
        up0, down0, conn0 = proxy.totals()
        http0 = fake.traffic
        target = polls + args.idle_polls
        assert fake.wait_until(
            lambda f: len(f.calls_of("getUpdates")) > target,
            args.poll_timeout * (args.idle_polls + 4),
        )
        done = len(fake.calls_of("getUpdates")) - 1 - polls  # the last one is still waiting
        up1, down1, conn1 = proxy.totals()
        http1 = fake.traffic
        per_poll_wire = (up1 - up0 + down1 - down0) / max(done, 1)
        per_poll_http = (http1[0] - http0[0] + http1[1] - http0[1]) / max(done, 1)
        per_hour = 3600 / PRODUCTION_POLL_TIMEOUT

        # 3. Message -> reply, the offline brain.
        code = pet.cli("telegram", "pair").split("/pair ")[1].split()[0]
        fake.text(OWNER, f"/start {code}")
        assert fake.wait_until(lambda f: len(f.sent_to(OWNER)) == 1, 60)
        latencies = []
        for n in range(args.messages):
            before = len(fake.sent_to(OWNER))
            pushed = time.monotonic()
            fake.text(OWNER, f"message {n}: my favourite colour is green")
            assert fake.wait_until(lambda f, b=before: len(f.sent_to(OWNER)) > b, 60)
            sent_at = fake.calls_of("sendMessage")[-1].at
            latencies.append((sent_at - pushed) * 1000)
        rss_after = rss_kib(pet.pid("broker"))
        pet.stop()
        proxy_conns = conn1 - conn0

    latencies.sort()

    def mib(pair: tuple[int, int]) -> str:
        return f"{pair[0] / 1024:.1f} MiB (PSS {pair[1] / 1024:.1f})"

    print(f"broker RSS, poller off:        {mib(rss_off)}")
    print(f"broker RSS, poller on, idle:   {mib(rss_on)}")
    print(f"broker RSS, after {args.messages} turns:    {mib(rss_after)}")
    print(
        f"idle polls measured: {done} ({proxy_conns} connections), poll_timeout {args.poll_timeout}"
    )
    print(f"per idle poll: {per_poll_wire:.0f} bytes on the wire (TLS), {per_poll_http:.0f} HTTP")
    print(
        f"per hour at poll_timeout {PRODUCTION_POLL_TIMEOUT}: {per_hour:.0f} requests, "
        f"{per_poll_wire * per_hour / 1024:.0f} KiB on the wire, "
        f"{per_poll_http * per_hour / 1024:.0f} KiB HTTP"
    )
    p90 = latencies[max(0, int(len(latencies) * 0.9) - 1)]
    print(
        f"message -> reply sent (offline brain, {len(latencies)} messages): median "
        f"{statistics.median(latencies):.0f} ms, p90 {p90:.0f} ms, max {latencies[-1]:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
