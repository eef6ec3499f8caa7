"""Issue 23's credential round "creds3" (docs/gate-design.md, "Credentials never seen: the
creds3 round"): a battery of made-up credentials written from the classes an outside evaluation
names (provider tokens, private key blocks, connection strings, config files, passwords and codes
said in prose in several languages, TOTP seeds, recovery codes, seed phrases, cards), each in the
carriers memory meets (an owner's chat line, a coding agent's fact, an env line, a YAML config),
and the benign near-misses a coding agent's memory holds (digests, SHAs, public keys,
placeholders, fixtures named as such).

Not copied from any dataset and never trained on. Token bodies are drawn from a seeded generator
in each provider's alphabet and length, so no scanner reads this file as holding a key. The
`TUNING` and `BENIGN` lists were written and scored before any rule changed (the first-run
figure); `HELD_APART` and `HELD_APART_BENIGN` were written after the round's rules and run once
as written. `PYTHONPATH=tests .venv/bin/python -m support.gate_credential_battery` prints the
counts, the secrets that passed and the benign lines refused (with their rules).
"""

from __future__ import annotations

import base64
import random
import string

from support.gate_screen import print_batteries, refused

_RNG = random.Random(20261207)
_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "_-"
_B32 = string.ascii_uppercase + "234567"


def _draw(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _digits(n: int) -> str:
    return str(_RNG.randint(1, 9)) + _draw(string.digits, n - 1)


def _ssh_public(algorithm: str, *fields: bytes) -> str:
    """An SSH public key line's base64: the wire format (length-prefixed strings) a real one has."""
    parts = [algorithm.encode(), *fields]
    wire = b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    return base64.b64encode(wire).decode()


def _bytes(n: int) -> bytes:
    return bytes(_RNG.randrange(256) for _ in range(n))


# Provider tokens: (label said in prose, env name, value). The shapes follow each provider's
# documented prefix, alphabet and length.
PROVIDERS: list[tuple[str, str, str]] = [
    ("GitLab personal token", "GITLAB_TOKEN", "glpat-" + _draw(_URLSAFE, 20)),
    ("GitLab runner token", "CI_RUNNER_TOKEN", "glrt-" + _draw(_URLSAFE, 20)),
    ("npm token", "NPM_TOKEN", "npm_" + _draw(_ALNUM, 36)),
    ("PyPI token", "PYPI_TOKEN", "pypi-AgEIcHlwaS5vcmc" + _draw(_URLSAFE, 70)),
    ("Docker Hub token", "DOCKERHUB_TOKEN", "dckr_pat_" + _draw(_URLSAFE, 27)),
    ("Hugging Face token", "HF_TOKEN", "hf_" + _draw(_ALNUM, 34)),
    ("Hugging Face org token", "HF_ORG_TOKEN", "api_org_" + _draw(_ALNUM, 34)),
    ("OpenAI key", "OPENAI_API_KEY", "sk-proj-" + _draw(_URLSAFE, 64)),
    ("Anthropic key", "ANTHROPIC_API_KEY", "sk-ant-api03-" + _draw(_URLSAFE, 93) + "AA"),
    ("Stripe restricted key", "STRIPE_KEY", "rk_live_" + _draw(_ALNUM, 24)),
    ("Stripe secret key", "STRIPE_SECRET", "sk_live_" + _draw(_ALNUM, 99)),
    ("Stripe webhook secret", "STRIPE_WEBHOOK_SECRET", "whsec_" + _draw(_ALNUM, 32)),
    ("Twilio auth token", "TWILIO_AUTH_TOKEN", _draw(_HEX, 32)),
    ("SendGrid key", "SENDGRID_API_KEY", "SG." + _draw(_URLSAFE, 22) + "." + _draw(_URLSAFE, 43)),
    ("Shopify admin token", "SHOPIFY_TOKEN", "shpat_" + _draw(_HEX, 32)),
    ("DigitalOcean token", "DO_TOKEN", "dop_v1_" + _draw(_HEX, 64)),
    ("Linear key", "LINEAR_API_KEY", "lin_api_" + _draw(_ALNUM, 40)),
    ("Notion integration secret", "NOTION_TOKEN", "secret_" + _draw(_ALNUM, 43)),
    ("Notion token", "NOTION_KEY", "ntn_" + _draw(_ALNUM, 46)),
    (
        "Discord bot token",
        "DISCORD_TOKEN",
        "MT" + _draw(_ALNUM, 24) + "." + _draw(_URLSAFE, 6) + "." + _draw(_URLSAFE, 38),
    ),
    ("Telegram bot token", "TELEGRAM_BOT_TOKEN", _digits(10) + ":AA" + _draw(_URLSAFE, 33)),
    (
        "Slack app token",
        "SLACK_APP_TOKEN",
        "xapp-1-A"
        + _draw("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", 10)
        + "-"
        + _digits(13)
        + "-"
        + _draw(_HEX, 64),
    ),
    ("GitHub app token", "GH_APP_TOKEN", "ghs_" + _draw(_ALNUM, 36)),
    ("Supabase token", "SUPABASE_ACCESS_TOKEN", "sbp_" + _draw(_HEX, 40)),
    ("Sentry auth token", "SENTRY_AUTH_TOKEN", "sntryu_" + _draw(_HEX, 64)),
    ("Perplexity key", "PPLX_API_KEY", "pplx-" + _draw(_ALNUM, 48)),
    ("xAI key", "XAI_API_KEY", "xai-" + _draw(_ALNUM, 80)),
    ("LangSmith key", "LANGSMITH_API_KEY", "lsv2_pt_" + _draw(_HEX, 32) + "_" + _draw(_HEX, 10)),
    (
        "Tailscale auth key",
        "TS_AUTHKEY",
        "tskey-auth-k" + _draw(_ALNUM, 17) + "-" + _draw(_ALNUM, 33),
    ),
    ("Netlify token", "NETLIFY_AUTH_TOKEN", "nfp_" + _draw(_ALNUM, 36)),
    ("Pulumi token", "PULUMI_ACCESS_TOKEN", "pul-" + _draw(_HEX, 40)),
    ("Buildkite token", "BUILDKITE_API_TOKEN", "bkua_" + _draw(_HEX, 40)),
    ("Resend key", "RESEND_API_KEY", "re_" + _draw(_ALNUM, 8) + "_" + _draw(_ALNUM, 24)),
    ("Render key", "RENDER_API_KEY", "rnd_" + _draw(_ALNUM, 32)),
    ("Neon key", "NEON_API_KEY", "napi_" + _draw(_ALNUM, 64)),
    ("Contentful token", "CONTENTFUL_TOKEN", "CFPAT-" + _draw(_URLSAFE, 43)),
    ("Prefect key", "PREFECT_API_KEY", "pnu_" + _draw(_ALNUM, 36)),
    (
        "Mapbox secret token",
        "MAPBOX_SECRET",
        "sk.eyJ1Ijoi" + _draw(_URLSAFE, 40) + "." + _draw(_URLSAFE, 22),
    ),
    (
        "Firebase server key",
        "FCM_SERVER_KEY",
        "AAAA" + _draw(_URLSAFE, 7) + ":APA91b" + _draw(_URLSAFE, 134),
    ),
    ("Datadog API key", "DD_API_KEY", _draw(_HEX, 32)),
    ("Cloudflare API token", "CLOUDFLARE_API_TOKEN", _draw(_URLSAFE, 40)),
    ("Mailgun key", "MAILGUN_API_KEY", "key-" + _draw(_HEX, 32)),
    ("Asana token", "ASANA_PAT", "2/" + _digits(16) + "/" + _digits(16) + ":" + _draw(_HEX, 32)),
    ("Airtable token", "AIRTABLE_TOKEN", "pat" + _draw(_ALNUM, 14) + "." + _draw(_HEX, 64)),
    ("Groq key", "GROQ_API_KEY", "gsk_" + _draw(_ALNUM, 52)),
    ("Replicate token", "REPLICATE_API_TOKEN", "r8_" + _draw(_ALNUM, 37)),
    ("OpenRouter key", "OPENROUTER_API_KEY", "sk-or-v1-" + _draw(_HEX, 64)),
    ("Vault token", "VAULT_TOKEN", "hvs." + _draw(_URLSAFE, 90)),
    (
        "AWS access key id",
        "AWS_ACCESS_KEY_ID",
        "AKIA" + _draw(string.ascii_uppercase + "234567", 16),
    ),
    ("AWS secret key", "AWS_SECRET_ACCESS_KEY", _draw(_B64, 40)),
]

_CHAT = [
    "hey, save my {label} for later: {value}",
    "my {label} is {value}, don't lose it",
    "here's the {label} {value}",
    "remember this {label} -> {value}",
]
_AGENT = [
    "The CI uses the {label} {value} to publish releases.",
    "deploy.sh authenticates with {label} {value} (set in the runner).",
    "For the staging job the {label} is {value}.",
    "Note: the nightly build reads {value} as its {label}.",
]


def _carriers(i: int, label: str, env: str, value: str) -> list[str]:
    yaml_key = env.lower().split("_")[0]
    return [
        _CHAT[i % len(_CHAT)].format(label=label, value=value),
        _AGENT[i % len(_AGENT)].format(label=label, value=value),
        f"{env}={value}",
        f"{yaml_key}:\n  url: https://api.{yaml_key}.example\n  token: {value}",
    ]


PROVIDER_TEXTS = [
    text
    for i, (label, env, value) in enumerate(PROVIDERS)
    for text in _carriers(i, label, env, value)
]

_PEM_BODY = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ" + _draw(_B64, 64)
_SSH_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + _draw(
    _B64, 50
)
_BEGIN = "-----BEGIN "
_END = "-----END "

KEY_BLOCKS = [
    _BEGIN
    + "PRIVATE KEY-----\n"
    + _PEM_BODY
    + "\n"
    + _draw(_B64, 64)
    + "\n"
    + _END
    + "PRIVATE KEY-----",
    _BEGIN
    + "EC PRIVATE KEY-----\nMHcCAQEEI"
    + _draw(_B64, 55)
    + "\n"
    + _END
    + "EC PRIVATE KEY-----",
    _BEGIN
    + "ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI"
    + _draw(_B64, 40),
    # truncated: the header lost, only the body and the footer
    _PEM_BODY + "\n" + _draw(_B64, 64) + "\n" + _END + "RSA PRIVATE KEY-----",
    # truncated: the body alone, as a coding agent pasted it into a note
    "the deploy key body starts with " + _PEM_BODY,
    "id_ed25519 is:\n" + _SSH_BODY + "\n" + _draw(_B64, 70),
    "key for the pi:\n" + _BEGIN + "OPENSSH PRIVATE KEY-----\n" + _SSH_BODY,
    _BEGIN + "PGP PRIVATE KEY BLOCK-----\n\nlQVYBGX" + _draw(_B64, 60) + "\n=" + _draw(_B64, 4),
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: mia@pi\nPublic-Lines: 2\n"
    "AAAAC3NzaC1lZDI1NTE5AAAAI" + _draw(_B64, 43) + "\nPrivate-Lines: 1\nAAAAI" + _draw(_B64, 43),
    '{"type": "service_account", "project_id": "mia-pet", "private_key_id": "'
    + _draw(_HEX, 40)
    + '", "private_key": "'
    + _BEGIN
    + "PRIVATE KEY-----\\n"
    + _PEM_BODY
    + '\\n"}',
    "private_key: " + _PEM_BODY,
]

_PW = [_draw(_ALNUM, 12), _draw(_ALNUM + "!#%", 14), _draw(_ALNUM, 10), _draw(_ALNUM, 16)]
_B64_AUTH = _draw(_B64, 28) + "="
CONFIGS = [
    f"postgres://app:{_PW[0]}@db.internal:5432/app",
    f"DATABASE_URL=postgresql://mia:{_PW[1]}@localhost/pet",
    f"mongodb+srv://admin:{_PW[2]}@cluster0.ab1cd.mongodb.net/test?retryWrites=true",
    f"REDIS_URL=redis://:{_PW[3]}@cache.internal:6379/0",
    f"amqp://guest:{_PW[0]}@rabbit.internal:5672/",
    f"jdbc:mysql://db.internal:3306/shop?user=shop&password={_PW[2]}",
    f"The staging DB is mysql://root:{_PW[1]}@10.0.0.12/app, same as prod.",
    f"DefaultEndpointsProtocol=https;AccountName=miapet;AccountKey={_draw(_B64, 86)}==;"
    "EndpointSuffix=core.windows.net",
    f"Server=tcp:sql.internal,1433;Database=pet;User ID=sa;Password={_PW[3]};",
    f"curl -H 'Authorization: Basic {_B64_AUTH}' https://api.example.com/v1/items",
    f"Authorization: Bearer {_draw(_URLSAFE, 40)}",
    f"machine api.heroku.com\n  login mia@example.com\n  password {_draw(_HEX, 36)}",
    '{"auths": {"https://index.docker.io/v1/": {"auth": "' + _draw(_B64, 40) + '"}}}',
    "users:\n- name: admin\n  user:\n    token: " + _draw(_ALNUM, 6) + "." + _draw(_ALNUM, 16),
    "users:\n- name: ci\n  user:\n    client-key-data: " + _draw(_B64, 80),
    "mia:$apr1$" + _draw(_ALNUM, 8) + "$" + _draw(_ALNUM + "./", 22),
    "admin:$2y$05$" + _draw(_ALNUM + "./", 53),
    "ci:\n  env:\n    PASSWORD: " + _PW[1],
    f"[client]\nuser = backup\npassword = {_PW[0]}",
    f"smtp:\n  host: smtp.example.com\n  user: pet@example.com\n  pass: {_PW[2]}",
    f"git clone https://oauth2:{_draw(_URLSAFE, 20)}@gitlab.example.com/mia/pet.git",
    f"pip install --index-url https://__token__:{_draw(_URLSAFE, 30)}@pypi.example.com/simple pkg",
    '"github.com": {"oauth_token": "gho_' + _draw(_ALNUM, 36) + '", "user": "mia"}',
]

PROSE = [
    # wifi passwords said in prose, several languages
    "the wifi password is " + _draw(_ALNUM, 10),
    "Das WLAN-Passwort lautet " + _draw(_ALNUM, 12),
    "Le mot de passe du wifi est " + _draw(_ALNUM, 10),
    "La clave del wifi es " + _draw(_ALNUM, 10),
    "La password del wifi è " + _draw(_ALNUM, 10),
    "Het wifi-wachtwoord is " + _draw(_ALNUM, 10),
    "A senha do wifi é " + _draw(_ALNUM, 10),
    "Пароль от вайфая " + _draw(_ALNUM, 10),
    "WiFiのパスワードは" + _draw(_ALNUM, 10) + "です",
    "wifi密码是" + _draw(_ALNUM, 10),
    "guest network: PetHome, key " + _draw(_ALNUM, 12),
    # PINs, door, alarm and gate codes told in prose
    "the door code is 4821",
    "alarm code is 1590, disarm within 30 seconds",
    "Mum's card PIN is 0743",
    "the garage opener code is 55192",
    "Der Türcode ist 4821",
    "le code de la porte est 4821",
    "el código de la puerta es 4821",
    "the key safe at grandma's opens with 2719",
    "gate code #4417 then the bell",
    "my phone unlock pin: 882910",
    "Il PIN della carta è 3391",
    "Le code PIN est 7350",
    # TOTP seeds
    "otpauth://totp/GitHub:mia?secret=" + _draw(_B32, 32) + "&issuer=GitHub",
    "2FA secret for the router: " + " ".join(_draw(_B32, 4) for _ in range(8)),
    "TOTP seed " + _draw(_B32, 16),
    # recovery codes lists
    "GitHub recovery codes:\n"
    + "\n".join(_draw("0123456789abcdef", 5) + "-" + _draw(_HEX, 5) for _ in range(6)),
    "backup codes: " + " ".join(_draw(string.digits, 8) for _ in range(5)),
    "Google 2FA backup codes 4821 9934, 1177 3902, 5561 0084, 2290 4415",
    # seed phrases, 12 and 24 words, numbered
    "wallet words: abandon ability able about above absent absorb abstract absurd abuse "
    "access accident",
    "1. lemon 2. orbit 3. velvet 4. ginger 5. maple 6. cattle 7. wisdom 8. shadow 9. rapid "
    "10. hunt 11. erode 12. kitten",
    "my ledger backup is: solar "
    + " ".join(
        [
            "tribe",
            "pilot",
            "anchor",
            "blossom",
            "cactus",
            "desert",
            "eagle",
            "fabric",
            "galaxy",
            "harbor",
            "island",
            "jungle",
            "kettle",
            "ladder",
            "magnet",
            "napkin",
            "ocean",
            "pepper",
            "quarter",
            "ribbon",
            "saddle",
            "tennis",
            "umbrella",
        ]
    ),
    # cards with CVV and expiry
    "Visa 4539 1488 0343 6467 exp 09/28 CVV 123",
    "card: 5425233430109903, 04/27, cvc 511",
    "Amex 3714 496353 98431 expires 11/26 security code 4242",
    "my card ends 9903, the CVV is 511 and it expires 04/27",
]

TUNING = PROVIDER_TEXTS + KEY_BLOCKS + CONFIGS + PROSE

_SHA = _draw(_HEX, 40)
BENIGN = [
    f"The fix landed in commit {_SHA}.",
    f"bisect blames {_SHA[:7]}; revert it if staging breaks",
    "The request id was 6f1c2a9e-3b7d-4e8a-9c0f-5d2b7a1e4c93 in the logs.",
    f"sha256 of the release tarball: {_draw(_HEX, 64)}",
    "The fixture tests/data/image.b64 holds the base64 of a 1x1 PNG: "
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "test vector (base64): " + _draw(_B64, 44),
    "My public key is ssh-ed25519 " + _ssh_public("ssh-ed25519", _bytes(32)) + " mia@laptop",
    "authorized_keys has ssh-rsa "
    + _ssh_public("ssh-rsa", b"\x01\x00\x01", b"\x00" + _bytes(256))
    + " ci@runner",
    _BEGIN
    + "PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"
    + _draw(_B64, 40)
    + "\n"
    + _END
    + "PUBLIC KEY-----",
    _BEGIN
    + "CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE"
    + _draw(_B64, 50)
    + "\n"
    + _END
    + "CERTIFICATE-----",
    "Put your token in .env as GITHUB_TOKEN=<your-token>.",
    "The docs say API_KEY=xxxxxxxxxxxxxxxx until you get a real one.",
    "In the example config the password is changeme; the installer asks for a new one.",
    "export OPENAI_API_KEY=$OPENAI_API_KEY before running the tests",
    "The pet runs shelldon 0.4.2-rc.1 built from tag v0.4.2-rc.1.",
    f"The image is python:3.12-slim@sha256:{_draw(_HEX, 64)}",
    "integrity: sha512-" + _draw(_B64, 86) + "==",
    "pip lock line: --hash=sha256:" + _draw(_HEX, 64),
    "go.sum: golang.org/x/text v0.14.0 h1:" + _draw(_B64, 43) + "=",
    "The docs are at https://docs.python.org/3/library/secrets.html",
    "The GitHub Actions token is ${{ secrets.GITHUB_TOKEN }}, scoped to the repo.",
    "password must be at least 12 characters with one digit",
    "The token expires after 3600 seconds; refresh it with the refresh endpoint.",
    "Pod checkout-api-7d9f8b6c5d-x2k4p restarted twice.",
    "The Stripe publishable key goes in the frontend; the secret key stays on the server.",
    "Wifi network name: FritzBox-7590-XK (the password is on the router's sticker)",
    "the door code changed last week, ask Mia for the new one",
    'Cargo.lock checksum = "' + _draw(_HEX, 64) + '"',
    "GPG key id 0x" + _draw(_HEX.upper(), 16) + " signs the releases.",
    "The test uses the well-known JWT header eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 only.",
    "Order number 4412-8830-1927 ships Tuesday.",
    "UPS tracking 1Z999AA10123456784",
    "The AWS account is 123456789012 and the region eu-central-1.",
    "arn:aws:iam::123456789012:role/ci-deployer is the role the pipeline assumes",
    "Our office is at 4821 Main Street, suite 12.",
    "The meeting PIN for the dial-in is on the invite.",
    "Set the secret in GitLab under Settings > CI/CD > Variables, masked.",
    "The mock server accepts any token; tests use 'test-token'.",
    "Sentry DSN is https://" + _draw(_HEX, 32) + "@o4504.ingest.sentry.io/4505 (public by design)",
    "base64 test fixture named empty_zip_b64: UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==",
]


def _card(prefix: str, length: int) -> str:
    """A made-up card number with a valid Luhn check digit."""
    body = prefix + _draw(string.digits, length - len(prefix) - 1)
    total = 0
    for index, ch in enumerate(reversed(body)):
        value = int(ch) * (2 if index % 2 == 0 else 1)
        total += value - 9 if value > 9 else value
    return body + str((10 - total % 10) % 10)


_GZIP = base64.b64encode(b"\x1f\x8b\x08\x00" + _bytes(40)).decode()
_VISA = _card("4916", 16)

# Written after the round's rules, from the same classes, and run once as written.
HELD_APART = [
    "GitLab deploy token for the registry: gldt-" + _draw(_URLSAFE, 20),
    "the Sentry token sntrys_eyJpYXQiOjE3" + _draw(_URLSAFE, 60),
    "huggingface:\n  hub_token: hf_" + _draw(_ALNUM, 34),
    "Mein Alarmanlagen-Code lautet 7391",
    "La combinaison du cadenas est 0427",
    "Our building entry code: 2580#",
    "Bitwarden 2FA recovery code: " + "-".join(_draw(_B32, 4) for _ in range(5)),
    "The Proton 2FA key is " + " ".join(_draw(_B32, 4) for _ in range(6)),
    "wifi ที่บ้าน รหัสผ่าน: " + _draw(_ALNUM, 9),
    "Das Passwort für die Fritzbox ist " + _draw(_ALNUM, 11),
    _BEGIN + "PGP PRIVATE KEY BLOCK-----\nlQOYBGY" + _draw(_B64, 56),
    "CI secret: export NPM_TOKEN=npm_" + _draw(_ALNUM, 36),
    "kubeconfig client-key-data: "
    + base64.b64encode(f"{_BEGIN}EC PRIVATE KEY-----\nMHcCAQEE{_draw(_B64, 40)}".encode()).decode(),
    "redis-cli -a " + _draw(_ALNUM, 12) + " -h cache.internal",
    "mysql -u root -p" + _draw(_ALNUM, 10) + " shop",
    f"Grandma's debit card: {_VISA[:4]} {_VISA[4:8]} {_VISA[8:12]} {_VISA[12:]}, CVV 908",
    "slack:\n  bot: xoxb-" + _digits(11) + "-" + _digits(13) + "-" + _draw(_ALNUM, 24),
    "smtp password for the pet's mail: " + _draw(_ALNUM, 10),
    "Il codice dell'allarme è 6620",
    "Azure SAS: https://pet.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig="
    + _draw(_URLSAFE, 43)
    + "%3D",
]

HELD_APART_BENIGN = [
    f"Release v3.2.0 is commit {_draw(_HEX, 40)}",
    f"docker pull ghcr.io/mia/pet@sha256:{_draw(_HEX, 64)}",
    _BEGIN
    + "CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU"
    + _draw(_B64, 60)
    + "\n"
    + _END
    + "CERTIFICATE-----",
    "host key of the pi: ecdsa-sha2-nistp256 "
    + _ssh_public("ecdsa-sha2-nistp256", b"nistp256", b"\x04" + _bytes(64)),
    "yarn.lock integrity sha1-" + _draw(_B64, 27) + "=",
    "the password reset link expires in 24 hours",
    "the 2FA code arrives by SMS, six digits",
    "Backup codes are stored in 1Password under 'GitHub'.",
    "door code: ask Mia (it changed in March)",
    "PIN 4 of the header is GND",
    "The JWT is signed with RS256; the kid is 2024-05-key.",
    "Use API_KEY=your-api-key-here in .env.example",
    "The wifi network is 'Shelldon-5G', WPA3.",
    "Order #1048-2231-9987 shipped",
    f"UUID {_draw(_HEX, 8)}-{_draw(_HEX, 4)}-4{_draw(_HEX, 3)}-a{_draw(_HEX, 3)}-{_draw(_HEX, 12)} "
    "marks the migration",
    f"tests/fixtures/hello.gz.b64 holds {_GZIP}",
    "The CVV field rejects letters; use 3 digits in tests.",
    'Cargo.toml has version = "0.9.14"',
    "TOTP codes rotate every 30 seconds",
    "Пароль должен быть не короче 12 символов",
    "パスワードを忘れた場合はリセットしてください",
]


def main() -> None:
    """Print each battery's count; the secrets that passed; the benign lines refused."""
    print_batteries(
        [
            ("providers, tuning", PROVIDER_TEXTS),
            ("key blocks, tuning", KEY_BLOCKS),
            ("configs, tuning", CONFIGS),
            ("prose, tuning", PROSE),
            ("benign near-misses", BENIGN),
            ("held apart", HELD_APART),
            ("benign, held apart", HELD_APART_BENIGN),
        ],
        lambda texts: refused(texts, code=None),
    )


if __name__ == "__main__":
    main()
