"""sd_notify against a real datagram socket, as systemd listens: the states arrive as sent, the
watchdog interval is read the way systemd sets it, and outside systemd every call is a no-op."""

from __future__ import annotations

import os
import re
import socket
import time
from pathlib import Path

import pytest

from shelldon import sdnotify


@pytest.fixture
def listener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> socket.socket:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_the_states_reach_the_notify_socket(listener: socket.socket) -> None:
    assert sdnotify.ready("serving")
    ready = listener.recv(4096).decode()
    status = re.fullmatch(r"READY=1\nSTATUS=serving, started on (\d+\.\d{3}) s of CPU", ready)
    assert status is not None, ready
    # The CPU this process has spent so far, not a wall clock: at most what it has used by now
    # (rounded to the millisecond it prints).
    assert 0 < float(status.group(1)) <= time.process_time() + 0.0005  # printed to 1 ms
    assert sdnotify.extend_timeout(1.5)
    assert listener.recv(4096) == b"EXTEND_TIMEOUT_USEC=1500000"
    assert sdnotify.stopping()
    assert listener.recv(4096) == b"STOPPING=1"


def test_without_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.ready() is False


def test_a_socket_that_is_gone_is_a_logged_false(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens.sock"))
    assert sdnotify.notify("READY=1") is False


def test_the_watchdog_interval_is_half_the_period_for_this_process_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert sdnotify.watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert sdnotify.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    monkeypatch.setenv("WATCHDOG_USEC", "soon")
    assert sdnotify.watchdog_interval() is None
