"""http.py: TLS verification, proxies from the environment (CONNECT and absolute-URI), NO_PROXY,
Retry-After parsing and scrubbing. Real sockets throughout: a TLS server with a self-signed
certificate and a small CONNECT proxy, both on 127.0.0.1."""

from __future__ import annotations

import base64
import select
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from fakes.fake_provider import FakeProvider, reply
from shelldon.broker.providers.base import ProviderError, scrub
from shelldon.broker.providers.http import (
    Proxy,
    post_json,
    proxy_for,
    retry_after_seconds,
)

PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture(autouse=True)
def _no_ambient_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


class ConnectProxy:
    """A tiny HTTP proxy: CONNECT tunnels, and records each request line and its headers."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.seen: list[str] = []
        self.deny = False  # answer every CONNECT with 407
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    def _handle(self, client: socket.socket) -> None:
        with client:
            head = b""
            while b"\r\n\r\n" not in head:
                data = client.recv(4096)
                if not data:
                    return
                head += data
            text = head.split(b"\r\n\r\n", 1)[0].decode("latin-1")
            self.seen.append(text)
            method, target, _ = text.split("\r\n", 1)[0].split(" ", 2)
            if self.deny:
                client.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")
                return
            if method != "CONNECT":
                client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            host, port = target.rsplit(":", 1)
            with socket.create_connection((host, int(port)), timeout=5) as upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                sockets = [client, upstream]
                while True:
                    readable, _, _ = select.select(sockets, [], [], 5)
                    if not readable:
                        return
                    for sock in readable:
                        try:
                            data = sock.recv(65536)
                            if data:
                                (upstream if sock is client else client).sendall(data)
                        except OSError:  # the client gave up on the handshake: done
                            return
                        if not data:
                            return

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def connect_proxy() -> Iterator[ConnectProxy]:
    proxy = ConnectProxy()
    yield proxy
    proxy.close()


@pytest.fixture
def self_signed_tls_server(tmp_path: Path) -> Iterator[int]:
    """A TLS listener whose certificate no CA signed: a verifying client must refuse it."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a self-signed certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            try:
                with context.wrap_socket(conn, server_side=True) as tls:
                    tls.recv(1024)
            except (OSError, ssl.SSLError):
                pass

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    stop.set()
    server.close()


def post(url: str, **kwargs: object) -> object:
    return post_json(
        url,
        {"ping": 1},
        {},
        timeout=5,
        connect_timeout=5,
        max_bytes=1 << 20,
        **kwargs,  # type: ignore[arg-type]
    )


def test_tls_verification_is_on(self_signed_tls_server: int) -> None:
    with pytest.raises(ProviderError) as caught:
        post(f"https://127.0.0.1:{self_signed_tls_server}/v1/chat/completions")
    assert caught.value.kind == "connect"
    assert "TLS verification failed" in caught.value.message


def test_https_goes_through_the_environment_proxy_with_connect(
    monkeypatch: pytest.MonkeyPatch, connect_proxy: ConnectProxy, self_signed_tls_server: int
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", f"http://alice:s3cret@127.0.0.1:{connect_proxy.port}")
    with pytest.raises(ProviderError) as caught:
        post(f"https://127.0.0.1:{self_signed_tls_server}/v1/messages")
    # Tunnelled through the proxy, and TLS was still verified end to end.
    assert "TLS verification failed" in caught.value.message
    (request,) = connect_proxy.seen
    assert request.startswith(f"CONNECT 127.0.0.1:{self_signed_tls_server} ")
    auth = base64.b64encode(b"alice:s3cret").decode()
    assert f"Proxy-Authorization: Basic {auth}" in request


def test_a_proxy_refusing_the_tunnel_is_a_connect_error(
    monkeypatch: pytest.MonkeyPatch, connect_proxy: ConnectProxy
) -> None:
    connect_proxy.deny = True
    monkeypatch.setenv("https_proxy", f"127.0.0.1:{connect_proxy.port}")
    with pytest.raises(ProviderError) as caught:
        post("https://api.example.org/v1/chat/completions")
    assert caught.value.kind == "connect"
    assert "407" in caught.value.message


def test_plain_http_through_a_proxy_uses_the_absolute_uri(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeProvider(default=reply("via proxy")) as proxy_like:
        monkeypatch.setenv("http_proxy", proxy_like.url)
        response = post_json(
            "http://llm.invalid:8080/v1/chat/completions", {"x": 1}, {},
            timeout=5, connect_timeout=5, max_bytes=1 << 20,
        )  # fmt: skip
        assert response.status == 200
        assert proxy_like.requests[0].path == "http://llm.invalid:8080/v1/chat/completions"


def test_no_proxy_sends_it_direct(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeProvider(default=reply("direct")) as direct, FakeProvider() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("NO_PROXY", "example.org,127.0.0.1")
        post(f"{direct.openai_base_url}/chat/completions")
        assert len(direct.requests) == 1 and proxy.requests == []


@pytest.mark.parametrize(
    ("url", "no_proxy", "proxied"),
    [
        ("https://api.openai.com/v1", "", True),
        ("https://api.openai.com/v1", "openai.com", False),
        ("https://api.openai.com/v1", ".openai.com", False),
        ("https://api.openai.com/v1", "*.openai.com", False),
        ("https://notopenai.com/v1", "openai.com", True),
        ("https://api.openai.com/v1", "*", False),
        ("https://api.openai.com/v1", "api.openai.com:8443", True),
        ("https://api.openai.com:8443/v1", "api.openai.com:8443", False),
        ("http://localhost:11434/v1", "localhost", False),
    ],
)
def test_proxy_choice(url: str, no_proxy: str, proxied: bool) -> None:
    env = {
        "HTTPS_PROXY": "proxy.lan:3128",
        "http_proxy": "http://proxy.lan:3128",
        "NO_PROXY": no_proxy,
    }
    expected = Proxy("proxy.lan", 3128, None) if proxied else None
    assert proxy_for(url, env) == expected


def test_all_proxy_is_the_fallback_and_odd_schemes_are_refused() -> None:
    assert proxy_for("https://a.b/v1", {"ALL_PROXY": "http://p:1"}) == Proxy("p", 1, None)
    assert proxy_for("https://a.b/v1", {}) is None
    with pytest.raises(ProviderError):
        proxy_for("https://a.b/v1", {"https_proxy": "socks5://p:1080"})


def test_retry_after_forms() -> None:
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds(" 120 ") == 120.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert retry_after_seconds("99999999999") == 86_400.0
    for junk in (None, "", "soon", "-5", "1.5e9"):
        assert retry_after_seconds(junk) is None


def test_scrub_removes_the_key_and_token_shapes() -> None:
    text = scrub("bad key sk-abcdefgh12345678 and ZZZ and gsk_0123456789abc", ["ZZZ"])
    assert text == "bad key [redacted] and [redacted] and [redacted]"
    assert scrub("model gpt-4o-mini not found") == "model gpt-4o-mini not found"


def test_server_sent_events_are_read_as_the_format_defines_them() -> None:
    """CRLF or LF lines, `event:` names, several `data:` lines joined, comments skipped, reading
    stopped at the end marker, and a last event the server did not close with a blank line."""
    bodies = [
        b": keep-alive\r\nevent: a\r\ndata: one\r\ndata: two\r\n\r\ndata:{}\r\n\r\n"
        b"data: [DONE]\r\n\r\ndata: after the end\n\n",
        b"event: message_start\ndata: x\n\nevent: message_stop\ndata: {}\n\n",
        b"data: first\n\ndata: last, unterminated",
    ]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.end_headers()
            self.wfile.write(bodies.pop(0))

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"
        got = [
            post_json(url, {}, {}, timeout=5, connect_timeout=5, max_bytes=10_000) for _ in range(3)
        ]
    finally:
        server.shutdown()
        server.server_close()
    assert [(e.event, e.data) for e in got[0].events or ()] == [("a", "one\ntwo"), ("", "{}")]
    assert [(e.event, e.data) for e in got[1].events or ()] == [("message_start", "x")]
    assert [e.data for e in got[2].events or ()] == ["first", "last, unterminated"]
    assert all(r.complete for r in got)
