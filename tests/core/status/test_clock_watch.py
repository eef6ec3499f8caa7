"""The clock in `shelldon status` (core.status.clock_watch): timesyncd's flag read from its run
directory, and a provider's TLS certificate refused as "not yet valid" shown as a clock problem,
from a real TLS handshake against a certificate that starts in 2099."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shelldon.broker.providers import http
from shelldon.broker.providers.base import ProviderError
from shelldon.contracts import wire
from shelldon.contracts.brain import LinkFailure
from shelldon.core.status.clock_watch import clock_lines, synchronised
from shelldon.core.status.links import LinkWatch

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_no_timesyncd_counts_as_synchronised(tmp_path: Path) -> None:
    assert synchronised(tmp_path / "absent") is True


def test_timesyncd_running_without_its_flag_is_unsynchronised(tmp_path: Path) -> None:
    run_dir = tmp_path / "timesync"
    run_dir.mkdir()
    assert synchronised(run_dir) is False
    (run_dir / "synchronized").touch()
    assert synchronised(run_dir) is True


def test_status_lines_say_unsynchronised_and_what_it_means() -> None:
    (line,) = clock_lines(False, [], NOW)
    assert line.startswith("clock: 2026-11-30T12:00:00Z, NOT synchronised yet")
    assert "reminders" in line
    (line,) = clock_lines(True, ["I could not reach it"], NOW)
    assert "NOT" not in line and "synchronised" in line


def _ca_and_future_cert(tmp: Path) -> tuple[Path, Path, Path]:
    """A CA, and a certificate for 127.0.0.1 it signed that is valid only from 2099 on."""
    ossl = ["openssl"]
    ca_key, ca_cert = tmp / "ca.key", tmp / "ca.pem"
    key, csr, cert = tmp / "srv.key", tmp / "srv.csr", tmp / "srv.pem"
    # Extensions as a strict verifier wants them (Python 3.13 sets VERIFY_X509_STRICT): a CA
    # with key usage, a leaf with its CA's key id; else the refusal is not about the date.
    (tmp / "req.cnf").write_text(
        "[req]\ndistinguished_name = dn\nx509_extensions = v3_ca\n[dn]\n"
        "[v3_ca]\nbasicConstraints = critical, CA:TRUE\n"
        "keyUsage = critical, keyCertSign, cRLSign\nsubjectKeyIdentifier = hash\n"
    )
    subprocess.run(
        [*ossl, "req", "-x509", "-config", str(tmp / "req.cnf"), "-newkey", "rsa:2048", "-nodes",
         "-days", "2", "-subj", "/CN=test CA", "-keyout", str(ca_key), "-out", str(ca_cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [*ossl, "req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
         "-keyout", str(key), "-out", str(csr)],
        check=True, capture_output=True,
    )  # fmt: skip
    (tmp / "index.txt").write_text("")
    (tmp / "serial").write_text("01\n")
    (tmp / "ca.cnf").write_text(
        "[ca]\ndefault_ca = test\n[test]\n"
        f"dir = {tmp}\ndatabase = {tmp}/index.txt\nserial = {tmp}/serial\n"
        f"new_certs_dir = {tmp}\ndefault_md = sha256\npolicy = any\n"
        "copy_extensions = none\nx509_extensions = ext\n"
        "[any]\ncommonName = supplied\n[ext]\nsubjectAltName = IP:127.0.0.1\n"
        "basicConstraints = CA:FALSE\nkeyUsage = critical, digitalSignature, keyEncipherment\n"
        "extendedKeyUsage = serverAuth\nsubjectKeyIdentifier = hash\n"
        "authorityKeyIdentifier = keyid\n"
    )
    subprocess.run(
        [*ossl, "ca", "-batch", "-config", str(tmp / "ca.cnf"), "-cert", str(ca_cert),
         "-keyfile", str(ca_key), "-startdate", "20990101000000Z", "-enddate", "20991231000000Z",
         "-in", str(csr), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return ca_cert, cert, key


@pytest.fixture
def future_tls_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the certificates")
    ca_cert, cert, key = _ca_and_future_cert(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
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
    yield server.getsockname()[1], ca_cert
    server.close()


def test_a_certificate_not_yet_valid_is_told_as_a_clock_problem(
    monkeypatch: pytest.MonkeyPatch, future_tls_server: tuple[int, Path]
) -> None:
    port, ca_cert = future_tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(ca_cert))
    monkeypatch.setattr(http, "_SSL_CONTEXT", None)
    with pytest.raises(ProviderError) as caught:
        http.post_json(
            f"https://127.0.0.1:{port}/v1/chat/completions", {"ping": 1}, {},
            timeout=5, connect_timeout=5, max_bytes=1 << 20,
        )  # fmt: skip
    assert "not yet valid" in caught.value.message
    # As the broker reports it and core takes it in:
    failure = LinkFailure("openrouter", caught.value.kind, None, caught.value.message)
    links = LinkWatch()
    note = links.observe(
        wire.TurnFailed(turn_id="t1", stage="brain", reason="x", failures=(failure,))
    )
    assert note is not None and "my clock is probably behind" in note
    lines = clock_lines(True, links.details(), NOW)
    assert any("'not yet valid' by this clock: the clock is behind" in line for line in lines)
    # A certificate refused for another reason is not blamed on the clock.
    other = LinkFailure("openrouter", "connect", None, "TLS verification failed: self-signed")
    assert len(clock_lines(True, [other.detail], NOW)) == 1
