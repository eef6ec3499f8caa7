"""Frames and peers over real Unix sockets: bad frames are refused and logged; serving goes on."""

from __future__ import annotations

import contextlib
import errno
import itertools
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shelldon import ipc
from shelldon.contracts import wire
from shelldon.contracts.brain import BrainReply, CompletionRequest, PromptSection


@pytest.fixture
def echo_server(run_dir: Path) -> Iterator[ipc.ThreadedServer]:
    """A real ThreadedServer that answers Ping with its peer's pid."""

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg | None:
        if isinstance(message, wire.Ping):
            return wire.Pong(name="echo", pid=peer.pid, detail=f"uid {peer.uid}")
        return wire.Refused(reason="echo only answers Ping")

    server = ipc.ThreadedServer("echo", run_dir / "echo.sock", handle, mode=0o600, idle_timeout=5.0)
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()


def _raw(server: ipc.ThreadedServer, data: bytes, *, close_write: bool = True) -> bytes:
    """Send raw bytes, then read whatever the server answers until it closes."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(server.path))
        sock.sendall(data)
        if close_write:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _decode_answer(data: bytes) -> wire.Message:
    (length,) = struct.unpack(">I", data[:4])
    assert len(data) == 4 + length
    return wire.decode(data[4:])


def test_every_message_round_trips() -> None:
    request = CompletionRequest(
        purpose="turn", sections=(PromptSection(kind="message", text="hi"),)
    )
    samples: list[wire._Msg] = [
        wire.Say(text="hello"),
        wire.Reply(text="hi", turn_id="t1", degraded=True, provider="offline"),
        wire.SpawnTurn(turn_id="t1", purpose="dream", message="", dream_directive="- [id=1] x"),
        wire.TurnResult(turn_id="t1", reply="r", ops=({"op": "remember"},), prompt=request),
        wire.TurnFailed(turn_id="t1", stage="timeout", reason="late"),
        wire.Complete(turn_id="t1", request=request, deadline_s=3.5),
        wire.Completion(reply=BrainReply(text="x", ops=({"op": "log_episode", "content": "c"},))),
        wire.VaultRead(key="api"),
        wire.VaultValue(key="api", value=None),
        wire.Status(processes=(), last_turn=None, memory_counts={"facts": 1}, vault_isolation=True),
    ]
    for message in samples:
        assert wire.decode(wire.encode(message)) == message


def test_another_wire_version_is_refused() -> None:
    payload = msgspec.msgpack.encode({"t": "say", "v": 2, "text": "hi"})
    with pytest.raises(wire.WireError, match="version 2"):
        wire.decode(payload)


def test_unknown_tag_and_unknown_field_are_refused() -> None:
    with pytest.raises(wire.WireError):
        wire.decode(msgspec.msgpack.encode({"t": "format_disk", "v": 1}))
    with pytest.raises(wire.WireError):
        wire.decode(msgspec.msgpack.encode({"t": "say", "v": 1, "text": "hi", "sudo": True}))


def test_a_good_frame_is_answered_with_the_peers_credentials(
    echo_server: ipc.ThreadedServer,
) -> None:
    answer = ipc.request(echo_server.path, wire.Ping())
    assert isinstance(answer, wire.Pong)
    assert answer.pid == os.getpid()
    assert answer.detail == f"uid {os.getuid()}"


@pytest.mark.parametrize(
    ("name", "data", "logged"),
    [
        ("oversized", struct.pack(">I", ipc.MAX_FRAME + 1) + b"x" * 16, "exceeds"),
        ("malformed", struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1", "undecodable"),
        ("truncated", struct.pack(">I", 100) + b"\x81" * 10, "stream ended inside a frame"),
        (
            "not msgpack of a message",
            struct.pack(">I", 3) + msgspec.msgpack.encode([1, 2]),
            "undecodable",
        ),
    ],
)
def test_bad_frames_are_refused_logged_and_the_server_keeps_serving(
    echo_server: ipc.ThreadedServer,
    caplog: pytest.LogCaptureFixture,
    name: str,
    data: bytes,
    logged: str,
) -> None:
    caplog.set_level(logging.WARNING, logger="shelldon.ipc")
    answer = _decode_answer(_raw(echo_server, data))
    assert isinstance(answer, wire.Refused), name
    assert answer.reason.startswith("bad frame")
    assert any(
        logged in r.getMessage() and "refused a frame" in r.getMessage() for r in caplog.records
    )
    # The server is still there for the next, well-formed request.
    assert isinstance(ipc.request(echo_server.path, wire.Ping()), wire.Pong)


def test_a_silent_peer_times_out_on_the_read_deadline() -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        with pytest.raises(ipc.FrameTimeout):
            ipc.recv(left, deadline=time.monotonic() + 0.05)
        right.sendall(struct.pack(">I", 10) + b"abc")  # a frame that never completes
        with pytest.raises(ipc.FrameTimeout):
            ipc.recv(left, deadline=time.monotonic() + 0.05)


def test_clean_close_between_frames_is_not_an_error_but_mid_frame_is() -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left:
        right.close()
        with pytest.raises(ipc.PeerClosed):
            ipc.recv(left, deadline=time.monotonic() + 5)
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left:
        right.sendall(ipc.frame(wire.Ping())[:-1])
        right.close()
        with pytest.raises(ipc.FrameTruncated):
            ipc.recv(left, deadline=time.monotonic() + 5)


def test_sending_an_oversized_frame_is_refused_before_it_leaves() -> None:
    with pytest.raises(ipc.FrameTooLarge):
        ipc.frame(wire.Say(text="x" * (ipc.MAX_FRAME + 1)))


def test_peer_credentials_and_parent_pid_come_from_the_kernel() -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        peer = ipc.peer_of(left)
    assert (peer.pid, peer.uid, peer.gid) == (os.getpid(), os.getuid(), os.getgid())
    assert ipc.parent_pid(os.getpid()) == os.getppid()
    assert ipc.parent_pid(2**22 + 12345) is None


def test_binding_refuses_to_replace_a_file_that_is_not_a_socket(tmp_path: Path) -> None:
    path = tmp_path / "core.sock"
    path.write_text("precious")
    with pytest.raises(FileExistsError):
        ipc.bind_unix(path, mode=0o600)
    assert path.read_text() == "precious"


def test_an_idle_client_is_let_go_quietly_and_a_chat_reconnects(
    run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import select

    from shelldon.paths import DataRoot
    from shelldon.transport.terminal import Session

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        return wire.Pong(name="core", pid=peer.pid)

    root = DataRoot.resolve()
    server = ipc.ThreadedServer("core", root.socket("core"), handle, idle_timeout=0.3)
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    caplog.set_level(logging.DEBUG, logger="shelldon.ipc")
    try:
        session = Session(root)
        first = session.sock
        readable, _, _ = select.select([first], [], [], 10)  # the server's close is the event
        assert readable and first.recv(1, socket.MSG_PEEK) == b""  # closed, no Refused frame
        answer = session.ask(wire.Ping())
        assert isinstance(answer, wire.Pong) and answer.pid == os.getpid()
        assert session.sock is not first
        session.close()
    finally:
        server.stop()
        thread.join(timeout=10)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("closing idle connection" in r.getMessage() for r in caplog.records)


def _refused_or_closed(path: Path) -> str:
    """What a newcomer reads: a refused-at-accept peer reads Refused, even when the server's close
    beat its request (the frame waits in its receive queue); "closed" if it read nothing."""
    with ipc.connect(path) as sock:
        with contextlib.suppress(ipc.PeerClosed):
            ipc.send(sock, wire.Ping())
        try:
            answer = ipc.recv(sock, deadline=time.monotonic() + 10)
        except ipc.PeerClosed:
            return "closed"
    return answer.reason if isinstance(answer, wire.Refused) else type(answer).__name__


def _serving(server: ipc.ThreadedServer) -> threading.Thread:
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread


def _served(path: Path) -> socket.socket:
    """An open connection, proven served (so its thread exists), then left idle."""
    sock = ipc.connect(path)
    ipc.send(sock, wire.Ping())
    assert isinstance(ipc.recv(sock, deadline=time.monotonic() + 10), wire.Pong)
    return sock


def _closed_by_server(sock: socket.socket) -> bool:
    import select

    readable, _, _ = select.select([sock], [], [], 10)  # the server's close is the event
    return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""


def test_at_the_uid_cap_its_longest_idle_connection_makes_room_for_a_newcomer(
    run_dir: Path,
) -> None:
    """Sixteen open chats of one uid used to lock that uid out for the idle timeout (an hour)."""

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        return wire.Pong(name="capped", pid=peer.pid)

    server = ipc.ThreadedServer("capped", run_dir / "capped.sock", handle, max_per_uid=2)
    thread = _serving(server)
    held = []
    try:
        held = [_served(server.path), _served(server.path)]
        assert server.open_connections(os.geteuid()) == 2
        newcomer = _served(server.path)  # served, not refused
        held.append(newcomer)
        assert _closed_by_server(held[0])  # the longest idle gave its place
        assert server.evicted == 1
        ipc.send(held[1], wire.Ping())  # the other one is untouched
        assert isinstance(ipc.recv(held[1], deadline=time.monotonic() + 10), wire.Pong)
    finally:
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)


def test_a_connection_not_yet_heard_is_closed_for_room_after_the_ones_already_heard(
    run_dir: Path,
) -> None:
    """A newcomer that has connected and not yet sent is closed last, though it is the longest
    idle: under a same-uid storm reconnecting as fast as it was closed, the owner's `say`,
    accepted a moment before its request came, was chosen ("lost core")."""

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        return wire.Pong(name="capped", pid=peer.pid)

    server = ipc.ThreadedServer("capped", run_dir / "capped.sock", handle, max_per_uid=2)
    thread = _serving(server)
    held: list[socket.socket] = []
    try:
        unheard = ipc.connect(server.path)  # accepted first: the longest idle
        held.append(unheard)
        deadline = time.monotonic() + 10
        while server.open_connections(os.geteuid()) < 1 and time.monotonic() < deadline:
            threading.Event().wait(0.01)  # accepted (a state polled, bounded by the deadline)
        heard = _served(server.path)
        held.append(heard)
        held.append(_served(server.path))  # the newcomer, at the cap
        assert _closed_by_server(heard)  # the heard one gave its place
        assert server.evicted == 1
        ipc.send(unheard, wire.Ping())  # the unheard one is still there to be heard
        assert isinstance(ipc.recv(unheard, deadline=time.monotonic() + 10), wire.Pong)
    finally:
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)


def test_a_request_on_a_connection_closed_before_it_was_taken_goes_again_on_a_new_one(
    run_dir: Path,
) -> None:
    """With every heard connection of the uid busy, a newcomer's room is the one not yet heard:
    the owner's `say`, connected a moment before it sent, was closed for a ping storm's next
    connection and the owner read "lost core (… Broken pipe)" (a clean-clone CI run, "pings at
    the cap"). Core never took it, so it goes again (frames.exchange_on) and is answered."""
    release = threading.Event()
    busy = threading.Semaphore(0)
    held_one = threading.Event()

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        if not held_one.is_set():  # the first request holds its connection busy
            held_one.set()
            busy.release()
            release.wait(30)
        return wire.Pong(name="capped", pid=peer.pid)

    server = ipc.ThreadedServer("capped", run_dir / "capped.sock", handle, max_per_uid=2)
    thread = _serving(server)
    held: list[socket.socket] = []
    try:
        busy_one = ipc.connect(server.path)
        held.append(busy_one)
        ipc.send(busy_one, wire.Ping())
        assert busy.acquire(timeout=10)  # its request is in the handler
        owners = ipc.connect(server.path)  # connected, nothing sent yet
        held.append(owners)
        deadline = time.monotonic() + 10
        while server.open_connections(os.geteuid()) < 2 and time.monotonic() < deadline:
            threading.Event().wait(0.01)  # accepted (a state polled, bounded by the deadline)
        held.append(_served(server.path))  # the storm's next connection, at the cap
        assert _closed_by_server(owners)  # the owner's gave its place
        with pytest.raises(ipc.NotTaken):  # alone, its exchange breaks: nothing to read
            ipc.exchange(owners, wire.Ping(), deadline=time.monotonic() + 10)
        opened: list[socket.socket] = []

        def open_connection() -> socket.socket:
            opened.append(owners if not opened else ipc.connect(server.path))
            return opened[-1]

        payload = ipc.exchange_on(
            open_connection,
            ipc.frame(wire.Ping()),
            deadline=time.monotonic() + 10,
            taken_within=time.monotonic() + 10,
        )
        assert isinstance(wire.decode(payload), wire.Pong)
        assert len(opened) == 2  # sent once more, on a new connection
    finally:
        release.set()
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)


def test_when_every_connection_of_the_uid_is_busy_a_newcomer_reads_how_many_are_open(
    run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Not "Broken pipe": the Refused frame the server left in the queue is the answer, and the
    refusals of a burst are one log line."""
    release = threading.Event()
    busy = threading.Semaphore(0)

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        busy.release()
        release.wait(30)
        return wire.Pong(name="capped", pid=peer.pid)

    server = ipc.ThreadedServer("capped", run_dir / "capped.sock", handle, max_per_uid=2)
    thread = _serving(server)
    held = []
    caplog.set_level(logging.INFO, logger="shelldon.ipc")
    try:
        for _ in range(2):
            sock = ipc.connect(server.path)
            ipc.send(sock, wire.Ping())
            held.append(sock)
            assert busy.acquire(timeout=10)  # its request is in the handler
        answers = [ipc.request(server.path, wire.Ping()) for _ in range(5)]
        expected = f"too many connections (2 open by uid {os.geteuid()})"
        assert [getattr(a, "reason", a) for a in answers] == [expected] * 5
        lines = [r.getMessage() for r in caplog.records if "too many connections" in r.getMessage()]
        assert len(lines) == 1, lines
        release.set()
        for sock in held:
            assert isinstance(ipc.recv(sock, deadline=time.monotonic() + 10), wire.Pong)
    finally:
        release.set()
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)


def _held_by_another_pid(path: Path, count: int) -> tuple[int, int]:
    """A forked child of this uid that opens `count` served connections to `path` and holds
    them until its release pipe closes; (its pid, the release pipe's write end), once served."""
    told_r, told_w = os.pipe()
    release_r, release_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - reports through its pipe
        os.close(told_r)
        os.close(release_w)
        try:
            held = [_served(path) for _ in range(count)]
            os.write(told_w, b"ok")
            os.read(release_r, 1)
            for sock in held:
                sock.close()
        finally:
            os._exit(0)
    os.close(told_w)
    os.close(release_r)
    assert os.read(told_r, 2) == b"ok"
    os.close(told_r)
    return pid, release_w


def test_the_pets_own_processes_are_not_counted_against_their_uids_cap(run_dir: Path) -> None:
    """This process is `reserved`; a child of the same uid is not. The reserved connections are
    not counted with the child's, nor closed for its room."""

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        return wire.Pong(name="reserved", pid=peer.pid)

    me = os.getpid()
    server = ipc.ThreadedServer(
        "reserved", run_dir / "r.sock", handle, max_per_uid=2, reserved=lambda p: p.pid == me
    )
    thread = _serving(server)
    held: list[socket.socket] = []
    child, release = 0, -1
    try:
        held = [_served(server.path) for _ in range(2)]
        assert server.open_connections(os.geteuid()) == 0
        child, release = _held_by_another_pid(server.path, 2)
        assert server.open_connections(os.geteuid()) == 2
        assert server.evicted == 0
        for sock in held:  # every one still served: none was closed for the child's room
            ipc.send(sock, wire.Ping())
            assert isinstance(ipc.recv(sock, deadline=time.monotonic() + 10), wire.Pong)
    finally:
        if release >= 0:
            os.close(release)
            os.waitpid(child, 0)
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)


def test_one_of_the_pets_own_processes_is_capped_per_pid(run_dir: Path) -> None:
    """A reserved peer (an admitted worker, the likeliest hostile one) is not unbounded: past the
    cap its own longest-idle connection makes room, and when every one of its connections is
    busy it is refused with how many it holds (tests/test_ipc_storm_shapes.py: 400 held before)."""
    release = threading.Event()
    busy = threading.Semaphore(0)

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        if isinstance(message, wire.StatusRequest):
            busy.release()
            release.wait(30)
        return wire.Pong(name="reserved", pid=peer.pid)

    server = ipc.ThreadedServer(
        "reserved", run_dir / "r.sock", handle, max_per_uid=2, reserved=lambda peer: True
    )
    thread = _serving(server)
    held: list[socket.socket] = []
    try:
        held = [_served(server.path) for _ in range(3)]
        assert _closed_by_server(held[0])  # its own longest idle gave its place
        assert server.evicted == 1
        for sock in held[1:]:
            ipc.send(sock, wire.StatusRequest())
            assert busy.acquire(timeout=10)  # its request is in the handler
        expected = f"too many connections (2 open by pid {os.getpid()})"
        assert _refused_or_closed(server.path) == expected
    finally:
        release.set()
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)


def test_refusals_are_logged_once_per_uid_and_reason_per_interval_with_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    refusals = ipc.RefusalLog(
        logging.getLogger("shelldon.ipc"), interval=60.0, clock=lambda: now[0]
    )
    caplog.set_level(logging.WARNING, logger="shelldon.ipc")
    for pid in range(1000):
        refusals.refused("broker", ipc.Peer(pid, 901, 901), "not a live turn's worker")
    refusals.refused("broker", ipc.Peer(5, 902, 902), "not a live turn's worker")
    now[0] = 61.0
    refusals.refused("broker", ipc.Peer(7, 901, 901), "not a live turn's worker")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "broker: refused pid 0 uid 901 unheard: not a live turn's worker",
        "broker: refused pid 5 uid 902 unheard: not a live turn's worker",
        "broker: refused pid 7 uid 901 unheard: not a live turn's worker"
        " (999 more since the last such line)",
    ]


def _full_backlog(path: Path) -> tuple[socket.socket, list[socket.socket]]:
    """A listener that accepts nobody, its backlog filled until the kernel queues no more."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.fspath(path))
    listener.listen(1)
    queued = []
    for _ in range(64):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(os.fspath(path))
        except BlockingIOError:
            sock.close()
            return listener, queued
        queued.append(sock)
    pytest.fail("the backlog never filled")


def test_a_connect_waits_for_room_in_a_full_backlog_instead_of_failing_at_once(
    run_dir: Path,
) -> None:
    path = run_dir / "full.sock"
    listener, queued = _full_backlog(path)
    outcome: list[object] = []
    waiting = threading.Thread(target=lambda: outcome.append(ipc.connect(path, timeout=30)))
    try:
        waiting.start()
        conn, _ = listener.accept()  # room for one: the waiting connect takes it
        waiting.join(timeout=30)
        assert outcome and isinstance(outcome[0], socket.socket), outcome
        conn.close()
    finally:
        for sock in [*queued, *[o for o in outcome if isinstance(o, socket.socket)]]:
            sock.close()
        listener.close()


def test_a_connect_to_a_backlog_that_stays_full_says_so_by_the_deadline(run_dir: Path) -> None:
    path = run_dir / "full.sock"
    listener, queued = _full_backlog(path)
    try:
        with pytest.raises(ipc.ConnectBusy, match="no room in its queue"):
            ipc.connect(path, timeout=0.2)
    finally:
        for sock in queued:
            sock.close()
        listener.close()


def test_a_connect_to_a_server_between_bind_and_listen_is_tried_again(run_dir: Path) -> None:
    path = run_dir / "starting.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(os.fspath(path))  # bound, not listening: ECONNREFUSED
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe,
        pytest.raises(ConnectionRefusedError),
    ):
        probe.connect(os.fspath(path))
    outcome: list[object] = []

    def try_connect() -> None:
        try:
            outcome.append(ipc.connect(path, timeout=30, starting_grace=30))
        except OSError as exc:
            outcome.append(exc)

    waiting = threading.Thread(target=try_connect)
    try:
        waiting.start()
        server.listen(4)
        conn, _ = server.accept()
        waiting.join(timeout=30)
        assert outcome and isinstance(outcome[0], socket.socket), outcome
        conn.close()
    finally:
        for sock in outcome:
            if isinstance(sock, socket.socket):
                sock.close()
        server.close()


def test_a_refused_peer_is_refused_before_the_cap_and_holds_nothing(run_dir: Path) -> None:
    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        return wire.Pong(name="gated", pid=peer.pid)

    strangers = threading.Event()  # while set, every newcomer is a stranger

    def admit(peer: ipc.Peer) -> str | None:
        return "a stranger" if strangers.is_set() else None

    server = ipc.ThreadedServer("gated", run_dir / "gated.sock", handle, max_per_uid=1, admit=admit)
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with ipc.connect(server.path) as held:  # the uid's one connection, proven served
            ipc.send(held, wire.Ping())
            assert isinstance(ipc.recv(held, deadline=time.monotonic() + 10), wire.Pong)
            strangers.set()
            # Refused for who it is, not for the cap it would have hit.
            assert _refused_or_closed(server.path) == "a stranger"
            assert server.open_connections(os.geteuid()) == 1
            strangers.clear()
            # At the cap, the uid's idle connection makes room for its newcomer.
            assert _refused_or_closed(server.path) == "Pong"
            assert _closed_by_server(held)
    finally:
        server.stop()
        thread.join(timeout=10)


def test_connections_one_after_another_reuse_a_few_threads_which_end_on_stop(
    run_dir: Path,
) -> None:
    """A turn's short connections do not each start a thread: a thread whose connection ended
    waits for the next (at most POOL_IDLE wait), and stop() ends the waiting ones."""
    threads: list[threading.Thread] = []

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> None:
        threads.append(threading.current_thread())
        respond(wire.Pong(name="pooled", pid=peer.pid))
        return None  # the server closes the connection: its thread is free once the client sees it

    server = ipc.ThreadedServer("pooled", run_dir / "pooled.sock", handle)
    thread = _serving(server)
    try:
        for _ in range(20):
            with ipc.connect(server.path) as sock:
                answer = ipc.exchange(sock, wire.Ping(), deadline=time.monotonic() + 10)
                assert isinstance(answer, wire.Pong)
                assert _closed_by_server(sock)
        distinct = {id(t): t for t in threads}.values()
        # One new thread a connection would be 20; a thread that has not yet gone back to wait
        # when the next connection comes costs one more, up to the POOL_IDLE kept waiting.
        assert len(threads) == 20 and len(distinct) <= ipc.POOL_IDLE + 1
    finally:
        server.stop()
        thread.join(timeout=10)
    for pooled in distinct:
        pooled.join(timeout=10)
        assert not pooled.is_alive()


def test_a_request_on_a_connection_still_open_at_the_stop_is_refused_not_served(
    run_dir: Path,
) -> None:
    """Core closes its stores once serving ended; a client whose connection was open then (an
    open chat) must read a refusal in words, and the handler must not run against closed stores."""
    handled: list[str] = []

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        handled.append(type(message).__name__)
        return wire.Pong(name="stopping", pid=peer.pid)

    server = ipc.ThreadedServer("stopping", run_dir / "stopping.sock", handle)
    thread = _serving(server)
    try:
        sock = _served(server.path)  # its thread waits in recv for the next request
        server.stop()
        thread.join(timeout=10)
        with sock:
            try:
                ipc.send(sock, wire.Ping())
                answer: wire.Message | None = ipc.recv(sock, deadline=time.monotonic() + 10)
            except ipc.PeerClosed:
                # Its thread saw the stop before it went back to wait (the client was quicker
                # than its loop): closed unserved, which is as good.
                answer = None
    finally:
        server.stop()
    assert answer is None or (
        isinstance(answer, wire.Refused) and "stopping is stopping" in answer.reason
    ), answer
    assert handled == ["Ping"]  # the first request only


def test_a_handlers_own_oserror_is_told_in_words_not_a_silent_close(run_dir: Path) -> None:
    """A handler that fails on a file of its own (EMFILE, a full disk) is not the client leaving:
    the client gets Refused naming the error. It used to be logged as "lost pid … mid-answer" and
    the connection closed without a word (the CLI said "lost core")."""

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg | None:
        raise OSError(errno.EMFILE, "Too many open files")

    server = ipc.ThreadedServer("own-files", run_dir / "own.sock", handle)
    server.bind()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        answer = ipc.request(server.path, wire.StatusRequest())
    finally:
        server.stop()
        thread.join(timeout=10)
    assert isinstance(answer, wire.Refused), answer
    assert answer.reason == "own-files could not serve this: Too many open files"


def test_an_answer_its_client_does_not_read_never_holds_what_the_handler_holds(
    run_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A handler answers through `respond` while holding a lock (core answers a Say under its
    one-turn gate). A client that does not read (its socket full: here an answer larger than the
    socket's buffer) made that send wait its whole deadline with the lock held: 10 s for every
    such connection, the owner's next turn waiting behind each. The answer now waits for the
    client after the handler is done, and is whole once the client reads."""
    gate = threading.Lock()
    entered = threading.Event()
    big = "x" * (ipc.MAX_FRAME // 2)  # far over a Unix socket's send buffer (~200 KB)

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg | None:
        with gate:
            if isinstance(message, wire.Say):
                entered.set()
                respond(wire.Pong(name="gated", pid=peer.pid, detail=big))
                return ipc.ANSWERED
            return wire.Pong(name="gated", pid=peer.pid, detail="small")

    server = ipc.ThreadedServer("gated", run_dir / "gated.sock", handle)
    thread = _serving(server)
    try:
        with ipc.connect(server.path) as slow, caplog.at_level(logging.INFO, "shelldon.ipc"):
            ipc.send(slow, wire.Say(text="answer me, I will not read"))
            assert entered.wait(10)
            # Another client needs the gate while the first has not read a byte.
            served = ipc.request(server.path, wire.Ping(), timeout=5)
            assert isinstance(served, wire.Pong) and served.detail == "small", served
            late = ipc.recv(slow, deadline=time.monotonic() + 10)  # now it reads: all of it
        assert isinstance(late, wire.Pong) and late.detail == big
        assert any("was not reading its answers" in r.getMessage() for r in caplog.records)
    finally:
        server.stop()
        thread.join(timeout=10)


def test_a_request_that_comes_as_its_connection_is_chosen_for_room_is_still_answered(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The choice of whom to close for room and the close are two steps: the owner's `say`,
    chosen while it had sent nothing, wrote its request in between; the request was read and its
    answer then failed on the closed socket ("lost core (peer closed the connection)", a
    clean-clone CI run, "pings at the cap"). The race is forced here: the choice itself sends the
    chosen one's request and waits until the server has read it."""
    order = itertools.count()
    read_late = threading.Event()
    newcomer_served = threading.Event()
    release_busy = threading.Event()

    def handle(peer: ipc.Peer, message: wire.Message, respond: ipc.Respond) -> wire._Msg:
        turn = next(order)
        if turn == 0:  # the busy one: not idle, so never chosen
            release_busy.wait(10)
        elif turn == 1:  # the chosen one's request, read between the choice and the close
            read_late.set()
            newcomer_served.wait(10)  # answered only once the close has been done
        return wire.Pong(name="capped", pid=peer.pid)

    server = ipc.ThreadedServer("capped", run_dir / "capped.sock", handle, max_per_uid=2)
    thread = _serving(server)
    held: list[socket.socket] = []
    chosen: list[socket.socket] = []
    real_order = ipc._eviction_order

    def choose_then_send(connections: list[Any]) -> list[Any]:
        idle = real_order(connections)
        if idle and chosen:
            ipc.send(chosen[0], wire.Ping())  # the owner's request, just after the choice
            assert read_late.wait(10)
        return idle

    monkeypatch.setattr(ipc, "_eviction_order", choose_then_send)
    try:
        busy = ipc.connect(server.path)
        held.append(busy)
        ipc.send(busy, wire.Ping())
        deadline = time.monotonic() + 10
        while server.open_connections(os.geteuid()) < 1 and time.monotonic() < deadline:
            threading.Event().wait(0.01)  # accepted (a state polled, bounded by the deadline)
        late = ipc.connect(server.path)
        held.append(late)
        chosen.append(late)
        while server.open_connections(os.geteuid()) < 2 and time.monotonic() < deadline:
            threading.Event().wait(0.01)
        newcomer = _served(server.path)  # at the cap: `late`, idle and unheard, is chosen
        held.append(newcomer)
        newcomer_served.set()
        assert server.evicted == 1
        assert isinstance(ipc.recv(late, deadline=time.monotonic() + 10), wire.Pong)
    finally:
        release_busy.set()
        newcomer_served.set()
        for sock in held:
            sock.close()
        server.stop()
        thread.join(timeout=10)
