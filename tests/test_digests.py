"""shelldon.digests: the same digests and tokens as hashlib and secrets, and no OpenSSL in the
pet's processes (the reason the module exists)."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import string
from pathlib import Path

import pytest

from shelldon import digests
from support.pet import Pet
from support.processes import fresh_python


@pytest.mark.parametrize("data", [b"", b"abc", "ключ – 🐢".encode(), bytes(range(256)) * 300])
def test_sha256_is_hashlib_s(data: bytes) -> None:
    assert digests.sha256_hex(data) == hashlib.sha256(data).hexdigest()
    incremental = digests.sha256()
    for start in range(0, len(data), 1000):
        incremental.update(data[start : start + 1000])
    assert incremental.hexdigest() == hashlib.sha256(data).hexdigest()


def test_tokens_are_fresh_hex_of_the_length_asked() -> None:
    tokens = {digests.token_hex(16) for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(t) == 32 and set(t) <= set(string.hexdigits.lower()) for t in tokens)
    assert len(digests.token_hex(3)) == 6


def test_choice_draws_from_the_alphabet_only_and_all_of_it() -> None:
    drawn = [digests.choice("ABCD") for _ in range(2000)]
    assert set(drawn) == set("ABCD")
    assert digests.choice("Z") == "Z"
    with pytest.raises(IndexError):
        digests.choice("")


def test_choice_draws_again_past_the_end_so_no_character_is_favoured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Five characters take three bits (0-7); 5, 6 and 7 are drawn again, not folded onto 0-2."""
    draws = iter([b"\x07", b"\x05", b"\xfe", b"\x02", b"\xf9", b"\x04"])
    monkeypatch.setattr(digests.os, "urandom", lambda n: next(draws))
    assert digests.choice("ABCDE") == "C"  # 7, 5 and 6 (0xfe & 7) drawn again; then 2
    assert digests.choice("ABCDE") == "B"  # 0xf9 & 7 is 1
    assert digests.choice("ABCDE") == "E"


def test_digests_bring_no_random_module() -> None:
    assert fresh_python("import sys, shelldon.digests; print('random' in sys.modules)") == "False"


@pytest.mark.parametrize(
    ("a", "b"), [(b"token", b"token"), (b"token", b"tokem"), (b"token", b"toke"), ("ab", "ab")]
)
def test_the_compare_answers_as_hmac_s(a: bytes | str, b: bytes | str) -> None:
    assert digests.equal_in_constant_time(a, b) == hmac.compare_digest(a, b)


def _maps_libcrypto(pid: int) -> bool:
    return "libcrypto" in Path(f"/proc/{pid}/maps").read_text()


def test_the_offline_pet_never_loads_openssl(pet: Pet) -> None:
    # Skip only where the interpreter itself lacks CPython's own SHA-256 (asked here, not of
    # digests: a digests that wrongly fell back to hashlib must fail this test, not skip it).
    if importlib.util.find_spec("_sha2") is None and importlib.util.find_spec("_sha256") is None:
        pytest.skip("this Python was built without its own SHA-256 module (_sha2 / _sha256)")
    assert digests.sha256 is not hashlib.sha256
    # A turn that writes memory: the audit's units, the undo store's sha256, the op hashes.
    assert pet.say("I like green tea with honey.")
    assert pet.say("My sister is called Mia and she lives in Porto.")
    pet.settled()
    pids = {name: pet.pid_of(name) for name in ("core", "broker", "forkserver")}
    pids["supervisor"] = pet.proc.pid
    loaded = [name for name, pid in pids.items() if _maps_libcrypto(pid)]
    assert loaded == [], f"{loaded} mapped libcrypto:\n{pet.log}"


def test_fraction_is_in_the_unit_interval_at_random_random_s_grain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = [digests.fraction() for _ in range(1000)]
    assert all(0.0 <= x < 1.0 for x in drawn) and len(set(drawn)) > 990
    for raw, expected in (
        (b"\x00" * 7, 0.0),
        (b"\xff" * 7, 1 - 2**-53),
        (b"\x80" + b"\0" * 6, 0.5),
    ):
        monkeypatch.setattr(digests.os, "urandom", lambda n, raw=raw: raw[:n])
        assert digests.fraction() == expected
