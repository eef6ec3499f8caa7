"""gate.public_forms: text public by its structure (digests, SSH and PEM public keys, files in
base64, a JWT's header alone) is found, and the same shapes without the structure are not."""

from __future__ import annotations

import base64

import pytest

from shelldon.core.gate.public_forms import public_spans


def _ssh(algorithm: str, *fields: bytes) -> str:
    parts = [algorithm.encode(), *fields]
    return base64.b64encode(b"".join(len(p).to_bytes(4, "big") + p for p in parts)).decode()


def _covers(text: str, part: str) -> bool:
    start = text.index(part)
    return any(s <= start and start + len(part) <= e for s, e in public_spans(text))


ED = _ssh("ssh-ed25519", bytes(range(32)))
ECDSA = _ssh("ecdsa-sha2-nistp256", b"nistp256", b"\x04" + bytes(range(64)))


@pytest.mark.parametrize(
    ("text", "part"),
    [
        (f"ssh-ed25519 {ED} mia@pi", ED),
        (f"ecdsa-sha2-nistp256 {ECDSA}", ECDSA),
        ("sha512-" + "A" * 86 + "==", "A" * 86),
        ("h1:" + "Qx7Rk2Pq9Lm4Vn8Tz3Yb6Hc1Dg5Fs0Ka2Eu7Wp4Mr3Z" + "=", "Qx7Rk2Pq9Lm4"),
        ("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0B\n-----END PUBLIC KEY-----", "MIIBIj"),
        (
            "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGX1Qx7Rk2Pq9Lm4\n"
            "-----END PGP PUBLIC KEY BLOCK-----",
            "mQINBGX1",
        ),
        ("img " + base64.b64encode(b"GIF89a" + bytes(30)).decode(), "R0lGOD"),
        (
            "hdr " + base64.urlsafe_b64encode(b'{"alg":"RS256","kid":"a"}').decode().rstrip("="),
            "eyJ",
        ),
    ],
    ids=["ed25519", "ecdsa", "sri digest", "go sum", "pem public", "pgp public", "gif", "jose"],
)
def test_a_public_form_is_found(text: str, part: str) -> None:
    assert _covers(text, part), text


@pytest.mark.parametrize(
    ("text", "part"),
    [
        # The algorithm's name in the blob differs from the one given.
        (f"ssh-rsa {ED}", ED),
        # An ed25519 key's point is 32 bytes.
        ("ssh-ed25519 " + _ssh("ssh-ed25519", bytes(40)), "AAAA"),
        # Not base64 of an SSH blob at all.
        ("ssh-ed25519 AAAAQx7Rk2Pq9Lm4Vn8Tz3Yb6Hc1Dg5Fs0Ka2Eu7Wp4Mr3Z", "AAAAQx7"),
        # A private block, and a public block never closed.
        (
            "-----BEGIN PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0B\n-----END PRIVATE KEY-----",
            "MIIEvg",
        ),
        ("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", "MIIBIj"),
        # A full JWT (header, payload, signature) is a credential, not a header.
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtaWEifQ.Qx7Rk2Pq9Lm4Vn8Tz3Yb6Hc", "eyJhbGci"),
        # A header that holds more than header names.
        ("x " + base64.urlsafe_b64encode(b'{"alg":"none","pw":"x"}').decode().rstrip("="), "eyJ"),
        # An archive carries files (a gzipped key): no image magic.
        ("z " + base64.b64encode(b"\x1f\x8b\x08\x08" + bytes(range(40))).decode(), "H4sI"),
    ],
    ids=[
        "wrong algorithm",
        "wrong length",
        "not ssh",
        "private",
        "unclosed",
        "full jwt",
        "extra",
        "gzip",
    ],
)
def test_the_shape_without_the_structure_is_not(text: str, part: str) -> None:
    assert not _covers(text, part), text


def test_a_uuid_is_public_only_where_a_view_glued_it() -> None:
    # Glued to its neighbours by the joined view it is no key; given to a key name it may be
    # one (a Heroku API key is a UUID), and the learned model judges it: not public by default.
    text = "run 9d3f7a21-6c4b-4e8f-b2a9-7f1e6d5c4b3a done"
    assert public_spans(text) == []
    assert public_spans(text, ids=True) == [(4, 40)]
