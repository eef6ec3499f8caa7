"""Issue 23's creds3 round (docs/gate-design.md, "Credentials never seen: the creds3 round"):
credentials in classes the rules had not met, and the public text a coding agent's memory holds
beside them. Each class through the screen the writer uses (`screen_text`), with the rule that
closes it; then the whole battery (tests/support/gate_credential_battery.py): the tuning lists,
and the held-apart lists written after the rules and run as written.

Keys are made up and built by concatenation or drawn from a seeded generator, so no scanner reads
this file as holding one."""

from __future__ import annotations

import base64

import pytest

from shelldon.core.gate import find_secrets, screen_text
from support import gate_credential_battery as battery


def _refused_by(text: str) -> tuple[str, ...]:
    refusal = screen_text(text)
    assert refusal is not None and refusal.code == "secret", text
    return refusal.rule_ids


HEX40 = "6b1e0c9d2f4a8e3b7c5d1f0a9e2b4c6d8f0e1a3b"
ALNUM36 = "Qm7Rk2Xv9Lp4Tz8Wn3Bc6Yh1Jd5Fg0Sa2Eu7K"

VENDOR = {
    "supabase": "sbp_" + HEX40,
    "buildkite": "bkua_" + HEX40,
    "pulumi": "pul-" + HEX40,
    "langsmith": "lsv2_sk_" + HEX40[:32] + "_" + HEX40[:10],
    "netlify": "nfp_" + ALNUM36[:36],
    "prefect": "pnu_" + ALNUM36[:36],
    "stripe webhook": "whsec_" + ALNUM36[:32],
    "asana": "1/" + "1201938475610293" + ":" + HEX40[:32],
}


@pytest.mark.parametrize("token", VENDOR.values(), ids=VENDOR.keys())
def test_a_vendor_token_said_in_a_chat_line_is_refused(token: str) -> None:
    # In a sentence with no key word next to it: only the prefix tells.
    assert "creds3-vendor-token" in _refused_by(f"ok, saved {token} for the deploy later")


@pytest.mark.parametrize(
    "text",
    [
        "the Datadog API key 0f3a9c2e7b1d4f8a6c0e5b9d2f7a1c4e",
        "Twilio auth token -> 4c8e1a7f3b9d2e6c0a5f8b1d7e3c9a2f",
        "here is the client secret 9f2c7e1b4d8a3f6c0e5b2d7a1f4c8e3b",
    ],
)
def test_a_key_word_then_a_hex_value_with_no_verb_is_refused(text: str) -> None:
    assert "creds3-key-word-then-value" in _refused_by(text)


def test_a_value_then_as_its_key_is_refused() -> None:
    text = "The cron job passes 7e3c9a2f4c8e1a7f3b9d2e6c0a5f8b1d as its New Relic token."
    assert "creds3-value-as-key" in _refused_by(text)


CODES = [
    "the shed padlock code is 3318",
    "Grandpa's bank card PIN is 6021",
    "the front door code is 7704#",
    "Le code du portail est 1942",
    "El código de la alarma es 5530",
    "Il codice della cassaforte è 8812",
    "Der Garagentorcode ist 2468",
    "the lock box by the back door opens with 4179",
    "CVC 618, expiry 03/29",
]


@pytest.mark.parametrize("text", CODES)
def test_a_code_that_opens_something_told_in_prose_is_refused(text: str) -> None:
    assert "creds3-code-in-prose" in _refused_by(text)


@pytest.mark.parametrize(
    "text",
    [
        "2FA seed: KZXW 6YTB OI2G 4ZLQ",
        "the Authenticator setup key is MFRGGZDFMZTWQ2LK",
        "MFA secret for the NAS = GEZDGNBVGY3TQOJQ",
    ],
)
def test_a_one_time_password_seed_is_refused(text: str) -> None:
    assert "creds3-otp-seed" in _refused_by(text)


@pytest.mark.parametrize(
    "text",
    [
        "Dropbox backup codes: 8821 4471 0093 5520 7718",
        "recovery codes 7f3k2 9qx81 m4n7z2 p0w9e3",
    ],
)
def test_a_list_of_recovery_codes_is_refused(text: str) -> None:
    assert "creds3-recovery-codes" in _refused_by(text)


@pytest.mark.parametrize(
    "text",
    [
        "ルーターのパスワードは Kq7v92mLp です",
        "家里的WiFi密码：Xp3k9Lm2Qz",
        "Пароль от почты: Zr82kLmq7",
        "Гасло до роутера Kx92mLq7w",
        "סיסמה: Tz4m8Kq2x",
    ],
)
def test_a_password_in_another_script_is_refused(text: str) -> None:
    rules = _refused_by(text)
    assert "creds3-password-other-scripts" in rules or "password-colon" in rules, rules


@pytest.mark.parametrize("text", ["キャッシュカードの暗証番号は6028", "ПИН-код карты 8841"])
def test_a_pin_in_another_script_is_refused(text: str) -> None:
    assert "creds3-pin-other-scripts" in _refused_by(text)


# Written after the held-apart run, which missed an Italian elided article ("dell'allarme"), a
# German hyphenated compound ("Alarmanlagen-Code") and redis-cli's `-a`.
@pytest.mark.parametrize(
    "text",
    [
        "Il codice dell'antifurto è 4417",
        "La combinazione dell'armadietto è 0912",
        "Der Tresor-Code lautet 5803",
        "Der Fahrradschloss-Code ist 1408",
    ],
)
def test_a_code_behind_an_elided_article_or_a_hyphenated_compound_is_refused(text: str) -> None:
    assert "creds3-code-in-prose" in _refused_by(text)


@pytest.mark.parametrize(
    "text",
    [
        "keydb-cli -h 10.0.0.7 -a Vq8mK2rX7pL ping",
        "sshpass -p 'Nw4k9Qz2' scp photo.jpg pi@shelldon:",
        "unzip -P Hk29xQm7 secrets.zip",
        "ldapwhoami -x -D uid=mia,ou=people -w Lp8x2Kq9",
        "lftp -u mia,Zx7Qk2m9 ftp.example.net",
    ],
)
def test_a_password_given_by_a_tools_own_flag_is_refused(text: str) -> None:
    assert "creds3-cli-password-flag" in _refused_by(text)


def test_a_url_password_holding_a_hash_sign_is_refused() -> None:
    assert "creds3-url-password-hash" in _refused_by("mongodb://app:Kq7#vT2mX@db.local/app")


# ------------------------------------------------------------------ what a coding agent keeps


def _ssh(algorithm: str, *fields: bytes) -> str:
    parts = [algorithm.encode(), *fields]
    return base64.b64encode(b"".join(len(p).to_bytes(4, "big") + p for p in parts)).decode()


PUBLIC = {
    "ed25519 public key": "deploy key on the pi: ssh-ed25519 "
    + _ssh("ssh-ed25519", bytes(range(7, 39)))
    + " pi@shelldon",
    "rsa public key": "ssh-rsa "
    + _ssh("ssh-rsa", b"\x01\x00\x01", b"\x00" + bytes((i * 37) % 256 for i in range(256))),
    "pem public key": "-----BEGIN PUBLIC KEY-----\n"
    "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1L7VLPHCgcP4kQ3\n"
    "Zk9Xn2Rq8Lm4Vt7Yw1Bc6Dh0Fj5Gs\n-----END PUBLIC KEY-----",
    "certificate": "-----BEGIN CERTIFICATE-----\nMIIC+zCCAeOgAwIBAgIJAKp3Qm9Xn2Rq8Lm4Vt7Yw1Bc6Dh0"
    "Fj5Gs2Ka\n-----END CERTIFICATE-----",
    "go module sum": "go.sum pins github.com/pkg/errors v0.9.1 h1:"
    + base64.b64encode(bytes(range(100, 132))).decode(),
    "png fixture": "tests/data/dot.png.b64 is "
    + base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(60))).decode(),
    "sri sha1": "yarn.lock keeps integrity sha1-" + base64.b64encode(bytes(range(20))).decode(),
    "uuid between words": "UUID 9d3f7a21-6c4b-4e8f-b2a9-7f1e6d5c4b3a marks the run",
    "jwt header": "every token starts with the header "
    + base64.urlsafe_b64encode(b'{"alg":"ES256","typ":"JWT","kid":"k1"}').decode().rstrip("="),
}


@pytest.mark.parametrize("text", PUBLIC.values(), ids=PUBLIC.keys())
def test_public_forms_are_kept(text: str) -> None:
    assert screen_text(text) is None, text


def test_a_compressed_file_in_base64_is_no_public_form() -> None:
    # An archive carries files: a gzipped private key in base64 is still a credential.
    import gzip

    key = "-----BEGIN " + "PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASC" + "\n"
    packed = base64.b64encode(gzip.compress(key.encode() * 3, mtime=0)).decode()
    assert screen_text(f"pem_key.gz: {packed}") is not None


def test_a_key_inside_a_public_form_is_still_refused() -> None:
    # Only the generic judges skip a public form: a provider's rule still reads a key in one.
    key = "ghp_" + "R7kQ2mX9vL4pT8wZ3nB6yH1cJ5dF0gS2aE7u"
    assert screen_text(f"-----BEGIN CERTIFICATE-----\n{key}\n-----END CERTIFICATE-----")
    # A malformed "public key" (not the SSH wire format of the algorithm named) is no exemption.
    assert screen_text(
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + "zQ7kR2mX9vL4pT8wZ3nB6yH1cJ5dF0gS2aE7uW4tN8b"
    )


@pytest.mark.parametrize(
    "text",
    [
        "export GITHUB_TOKEN=$GITHUB_TOKEN in the job",
        "API_SECRET: '$API_SECRET'",
    ],
)
def test_a_variable_given_as_the_value_is_no_key_name(text: str) -> None:
    # The leetspeak view read "$GITHUB_TOKEN" as "sgithub_token", a key name, and the value
    # after it as a credential.
    assert find_secrets(text) == [], text


def test_a_leetspeak_key_name_starting_with_a_dollar_still_counts() -> None:
    assert screen_text("$ecret_key = Wq4x7Rt2Yp9Zk3Lm8Nv5") is not None


# ------------------------------------------------------------------ the battery


@pytest.mark.parametrize("text", battery.TUNING)
def test_the_battery_secrets_are_refused(text: str) -> None:
    assert screen_text(text) is not None, text


BENIGN_LEFT = {battery.BENIGN[5]}  # "test vector (base64): <44 random characters>"


@pytest.mark.parametrize("text", [t for t in battery.BENIGN if t not in BENIGN_LEFT])
def test_the_battery_benign_lines_are_kept(text: str) -> None:
    assert screen_text(text) is None, text


@pytest.mark.xfail(
    strict=True,
    reason="left alone: a random base64 string of a key's length is read as a key whatever the "
    "words before it call it (a label is no proof)",
)
@pytest.mark.parametrize("text", sorted(BENIGN_LEFT))
def test_a_random_test_vector_is_kept(text: str) -> None:
    assert screen_text(text) is None, text


@pytest.mark.parametrize("text", battery.HELD_APART)
def test_the_held_apart_secrets_are_refused(text: str) -> None:
    # Run once as written: 17 of 20; the three misses' classes were then closed (above).
    assert screen_text(text) is not None, text


HELD_APART_LEFT = {battery.HELD_APART_BENIGN[15]}  # a gzip fixture in base64


@pytest.mark.parametrize("text", [t for t in battery.HELD_APART_BENIGN if t not in HELD_APART_LEFT])
def test_the_held_apart_benign_lines_are_kept(text: str) -> None:
    # Run once as written: 2 of 21 refused (a sha1 integrity, a UUID glued to its neighbours).
    assert screen_text(text) is None, text


@pytest.mark.xfail(
    strict=True,
    reason="left alone: base64 of an archive is refused; it can carry a key (the training part "
    "holds a gzipped PEM private key in base64), so only images are public by their magic",
)
@pytest.mark.parametrize("text", sorted(HELD_APART_LEFT))
def test_a_gzip_fixture_is_kept(text: str) -> None:
    assert screen_text(text) is None, text
