"""Hashes, random tokens and the constant-time compare the pet's processes need, without OpenSSL.

`hashlib`, `hmac` and `secrets` each load `_hashlib`, which maps OpenSSL's libcrypto: ~3.4 MB
resident per process, ~0.6 MB of it private (the library's relocated data), for a sha256 of an
audit line and a token's compare. Core, the fork-server and the supervisor never need OpenSSL,
and the broker only when it speaks TLS to a provider (it imports `ssl` then). CPython's own
SHA-256 (the module `hashlib` falls back to when OpenSSL is missing: `_sha2` from 3.12, `_sha256`
before) gives the same digests; docs/performance.md has the figures. Where neither is built, the
standard modules are used and only the memory is lost.
"""

from __future__ import annotations

import os

# What `hmac.compare_digest` is on a Python without OpenSSL (with it, OpenSSL's CRYPTO_memcmp):
# time independent of where the two first differ. `operator` keeps it private.
from _operator import _compare_digest as equal_in_constant_time
from collections.abc import Callable
from typing import Protocol


class _Hash(Protocol):
    def update(self, data: bytes, /) -> None: ...
    def hexdigest(self) -> str: ...


def _builtin_sha256() -> Callable[..., _Hash]:
    # Which of the two exists depends on the Python (typeshed knows each for its own versions).
    try:
        from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            from hashlib import sha256  # type: ignore[assignment,no-redef,unused-ignore]
    return sha256  # type: ignore[no-any-return,unused-ignore]


sha256: Callable[..., _Hash] = _builtin_sha256()


def sha256_hex(data: bytes) -> str:
    return sha256(data).hexdigest()


def token_hex(nbytes: int) -> str:
    """`nbytes` from the kernel's CSPRNG as hex (what `secrets.token_hex` returns)."""
    return os.urandom(nbytes).hex()


def choice(alphabet: str) -> str:
    """One character of `alphabet`, each equally likely, from the kernel's CSPRNG (what
    `secrets.choice` does, without `random`: ~0.1 MB of core and the fork-server). An index is
    drawn with just enough bits and drawn again when past the end, so none is favoured."""
    if not alphabet:
        raise IndexError("cannot choose from an empty alphabet")
    bits = (len(alphabet) - 1).bit_length()
    while True:
        index = int.from_bytes(os.urandom((bits + 7) // 8), "big") & ((1 << bits) - 1)
        if index < len(alphabet):
            return alphabet[index]


def fraction() -> float:
    """A float in [0, 1) from the kernel's CSPRNG, 53 bits as `random.random` gives: a retry's
    jitter, without the `random` module in a process (~0.1 MB)."""
    return (int.from_bytes(os.urandom(7), "big") >> 3) / (1 << 53)


__all__ = ["choice", "equal_in_constant_time", "fraction", "sha256", "sha256_hex", "token_hex"]
