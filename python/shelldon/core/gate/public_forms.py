"""Random-looking text that is public by its form (issue 23, the creds3 round): a digest written
as a digest, a public key or certificate, an image's bytes in base64, a JWT's header alone (and a
UUID glued to its neighbours by a view). Long, random and often beside the word "key" ("SSH host
key fingerprint", "my public key is ..."), so the generic high-entropy rule and the learned
credential model would call it a credential; a coding agent's memory keeps it. Each form is
checked by its structure, not by the words around it: an SSH public key must parse as the SSH
wire format of the algorithm it names, a PEM block must be a public one closed by its own END
line, an image must start with its format's magic bytes. Only those two generic judges skip a span
found here (gate.screen); a provider's rule or an assignment still reports a key inside one
(`api_key = "SHA256:..."`).

A battery's designation is public by its form too (docs/gate-design.md, "What the gate refused that
it should keep"): IEC 60086's letters for the chemistry and the round shape, then the size in
digits ("CR2032", "LR44", "6LR61", "SR626SW"), where its sentence names a battery or a cell or
a device takes, uses, needs or holds it. Short, but beside "car key" or "key fob" the learned
model read "The key fob takes a CR2025" as a key given its value; "The key is CR2032" names no
battery and is judged as before."""

from __future__ import annotations

import base64
import binascii
import json
import re

# Subresource Integrity and npm's and yarn's `integrity` (sha1-, sha256-, sha384-, sha512- and
# base64 of exactly that digest's length), an OpenSSH fingerprint ("SHA256:" and 43 unpadded
# characters) and a Go module sum ("h1:" and base64 of a SHA-256).
_DIGEST_FORM = re.compile(
    r"(?:^|(?<=[^A-Za-z0-9+/=_-]))(?:sha1-[A-Za-z0-9+/]{27}=|sha256-[A-Za-z0-9+/]{43}="
    r"|sha384-[A-Za-z0-9+/]{64}"
    r"|sha512-[A-Za-z0-9+/]{86}==|SHA256:[A-Za-z0-9+/]{43}|h1:[A-Za-z0-9+/]{43}=)"
    r"(?![A-Za-z0-9+/=_-])"
)

_SSH_KEY = re.compile(
    r"(?<![\w-])(ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)"
    r"|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+(AAAA[A-Za-z0-9+/]+={0,2})"
)

_PEM_PUBLIC = re.compile(
    r"-----BEGIN ((?:RSA |EC )?PUBLIC KEY|CERTIFICATE(?: REQUEST)?|NEW CERTIFICATE REQUEST"
    r"|X509 CRL|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|SSH2 PUBLIC KEY)-----"
    r"([A-Za-z0-9+/=\s:\"-]{16,}?)-----END \1-----"
)

# An image's or a sound's leading bytes in base64: PNG (signature and IHDR), GIF, JPEG, RIFF (WAV,
# WebP). Not an archive or a document (gzip, ZIP, PDF): those carry files, and the training
# part's rows hold a gzipped PEM private key in base64.
_FILE_MAGIC = re.compile(
    r"(?<![A-Za-z0-9+/])(?:iVBORw0KGgoAAAANSUhEUg|R0lGODlh|R0lGODdh|/9j/4|UklGR)[A-Za-z0-9+/]*={0,2}"
)

# A JWT's header alone (no payload after it): base64url of a JSON object of header names only.
# A UUID: alone it is under the entropy rule's floor, but the joined view glues the words beside
# it on ("UUID4998a0a2-...-8310b6f5842amarks").
_UUID = re.compile(
    r"(?<![A-Za-z0-9-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"(?![A-Za-z0-9-])"
)

# IEC 60086: an optional cell count, the chemistry (B, C, E, F, G, L, M, P, S, Z) and R (round),
# then two to four digits of size, and a silver cell's W/SW; the word alone, never glued to others.
_BATTERY = re.compile(r"(?<![A-Za-z0-9_-])[0-9]?[BCEFGLMPSZ]R[0-9]{2,4}(?:SW|W)?(?![A-Za-z0-9_-])")

_BATTERY_WORD = re.compile(r"(?i)batter|(?<![a-z])(?:cells?|akku|piles?|pilas?|pilhas?)(?![a-z])")
_BATTERY_USE = re.compile(
    r"(?i)(?<![a-z])(?:takes?|uses?|needs?|fits?|with|has|have|holds?)\s+(?:(?:a|an|one|two|three|four|[0-9])\s+)?$"
)


def _a_battery(text: str, start: int, end: int) -> bool:
    """The designation at `start` names a battery: its sentence says so, or a device takes it."""
    head = re.split(r"[.;!?\n]\s", text[:start])[-1]
    tail = re.split(r"[.;!?\n](?:\s|$)", text[end:])[0]
    return bool(_BATTERY_WORD.search(head + " " + tail) or _BATTERY_USE.search(head))


_JOSE_HEADER = re.compile(r"(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{10,200}={0,2}(?![A-Za-z0-9_.-])")
_JOSE_NAMES = frozenset(
    {"alg", "typ", "kid", "cty", "enc", "zip", "crit", "x5t", "x5u", "jku", "x5t#S256"}
)


def _b64(text: str, *, urlsafe: bool = False) -> bytes | None:
    data = re.sub(r"\s+", "", text)
    data += "=" * (-len(data) % 4)
    try:
        if urlsafe:
            return base64.urlsafe_b64decode(data)
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def _ssh_wire(algorithm: str, blob: bytes) -> bool:
    """`blob` is the SSH wire format of a public key of `algorithm`: length-prefixed strings,
    the first the algorithm's name, that use up every byte."""
    fields: list[bytes] = []
    at = 0
    while at < len(blob):
        if at + 4 > len(blob):
            return False
        size = int.from_bytes(blob[at : at + 4], "big")
        at += 4
        if size > len(blob) - at:
            return False
        fields.append(blob[at : at + size])
        at += size
    if not fields or fields[0] != algorithm.encode():
        return False
    if algorithm == "ssh-ed25519":
        return len(fields) == 2 and len(fields[1]) == 32
    return len(fields) >= 2


def _jose_header(token: str) -> bool:
    raw = _b64(token, urlsafe=True)
    if raw is None:
        return False
    try:
        header = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(header, dict) and bool(header) and set(header) <= _JOSE_NAMES


def public_spans(text: str, *, ids: bool = False) -> list[tuple[int, int]]:
    """The spans of `text` that are public by their form (see the module's docstring); with
    `ids`, UUIDs too (for a view's glued hits only: a UUID given to a key name may be a key, and
    the learned model judges it)."""
    spans: list[tuple[int, int]] = []
    if "sha" in text or "SHA" in text or "h1:" in text:
        spans += [m.span() for m in _DIGEST_FORM.finditer(text)]
    if "AAAA" in text:
        for m in _SSH_KEY.finditer(text):
            blob = _b64(m.group(2))
            if blob is not None and _ssh_wire(m.group(1), blob):
                spans.append(m.span())
    if "-----BEGIN " in text:
        for m in _PEM_PUBLIC.finditer(text):
            body = m.group(2)
            if "PGP" in m.group(1) or "SSH2" in m.group(1):
                spans.append(m.span())
                continue
            der = _b64(body)
            if der is not None and der[:1] == b"\x30":
                spans.append(m.span())
    for m in _FILE_MAGIC.finditer(text):
        if _b64(m.group(0)) is not None:
            spans.append(m.span())
    if ids and "-" in text:
        spans += [m.span() for m in _UUID.finditer(text)]
    if "eyJ" in text:
        spans += [m.span() for m in _JOSE_HEADER.finditer(text) if _jose_header(m.group(0))]
    if "R" in text:
        spans += [m.span() for m in _BATTERY.finditer(text) if _a_battery(text, *m.span())]
    return spans
