"""Issue 23's eleventh pass: credential classes the training part's rows showed the gate missing,
and benign coding facts it refused (docs/gate-design.md, "Eleventh pass").

Each class is written here with made-up values (built by concatenation, so no scanner reads
this file as holding a key); none is a row of the data. Each test failed before the pass.
"""

from __future__ import annotations

import base64
import json

import pytest

from shelldon.core.gate import blank_secrets, find_secrets, screen_text


def _refused(text: str) -> bool:
    refusal = screen_text(text)
    return refusal is not None and refusal.code == "secret"


# --- a password given after its user on a Windows command line (PsExec, PAExec, sqlcmd) -----

WINDOWS_COMMAND_LINES = [
    "psexec.exe \\\\build-07 -u CORP\\deploy -p " + "mypass" + " cmd /c whoami",
    "PsExec64 \\\\10.1.2.3 -u admin -p " + "root" + " -i 2 -c run.bat",
    "paexec \\\\kiosk -u kiosk\\svc -p " + "letmein" + " -s notepad",
    'sqlcmd -S db01 -U sa -P "' + "qwerty1" + '" -Q "select 1"',
]


@pytest.mark.parametrize("text", WINDOWS_COMMAND_LINES)
def test_a_password_after_its_user_on_a_windows_command_line_is_refused(text: str) -> None:
    # Low-entropy passwords: the generic `-u ... -p` flag rule's 2.5-bit floor let them pass.
    assert _refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "psexec \\\\host -u CORP\\deploy -p %DEPLOY_PW% cmd",
        "mysql -u root -p mydb",  # a spaced -p prompts; the word after it is the database
        "sqlcmd -S db01 -U sa -P",
    ],
)
def test_a_command_line_without_a_typed_password_is_kept(text: str) -> None:
    assert not find_secrets(text)


# --- a Groovy/Gradle DSL credentials block: `password 'value'` with no operator ------------

GRADLE_BLOCKS = [
    "maven {\n  url 'https://repo.example.org/releases'\n  credentials {\n"
    "    username 'ci'\n    password '" + "sunshine" + "'\n  }\n}",
    'credentials {\n    username "deploy"\n    password "' + "password" + '"\n}',
    "username('bot')\npassword('" + "s3cr3t" + "')",
]


@pytest.mark.parametrize("text", GRADLE_BLOCKS)
def test_a_password_in_a_gradle_credentials_block_is_refused(text: str) -> None:
    assert _refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "credentials {\n    username 'ci'\n    password \"${repoPassword}\"\n}",
        "credentials {\n  username mavenUser\n  password mavenPassword\n}",
        "The credentials { } block takes a username and a password property.",
    ],
)
def test_a_gradle_block_that_reads_its_password_elsewhere_is_kept(text: str) -> None:
    assert not find_secrets(text)


# --- a credential name given an environment lookup with a literal fallback -----------------

FALLBACKS = [
    'PASSWORD = os.environ.get("PASSWORD") or "' + "at5G6zi!m" + '"',
    'if SECRET := getenv("APP_S", "' + "GEHE1MN1S" + '"):',
    'const apiToken = process.env.API_TOKEN || "' + "hunter22" + '";',
    'db_password = ENV.fetch("DB_PASSWORD", "' + "p4ss-Wq91" + '")',
]


@pytest.mark.parametrize("text", FALLBACKS)
def test_a_literal_fallback_of_an_environment_lookup_is_refused(text: str) -> None:
    assert _refused(text)
    value = text.split('"')[-2]
    assert value not in blank_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        'PASSWORD = os.environ.get("PASSWORD")',
        'TOKEN = os.getenv("TOKEN", "")',
        'SECRET = os.environ.get("SECRET") or "changeme"',
        'LOG_LEVEL = os.getenv("LOG_LEVEL", "warning")',
        'const password = process.env.APP_PASSWORD || "not-set"',  # a sentinel, not a password
    ],
)
def test_an_environment_lookup_without_a_typed_secret_is_kept(text: str) -> None:
    assert not find_secrets(text)


# --- provider shapes: Facebook app tokens, Grafana API keys, Atlassian PATs -----------------

FACEBOOK = "1527194624358" + "273|" + "qbBf2-fdB9zZpqLA" + "0_2nNzZDw2M"
# A Grafana key is base64 of compact JSON; this one's "k" is no key-like string once decoded.
GRAFANA = base64.b64encode(
    json.dumps({"k": "0" * 32, "n": "ci", "id": 7}, separators=(",", ":")).encode()
).decode()
# base64 of a 12-digit id, a colon and 20 random bytes, as Atlassian's PATs are.
ATLASSIAN = base64.b64encode(
    b"583920174655:" + bytes.fromhex("9f3ac217e40b5d886c19a7f2e3b4c5d6a7b8c9d0")
).decode()


@pytest.mark.parametrize(
    "text",
    [
        "fb app " + FACEBOOK,
        "curl 'https://graph.example.com/debug?access_token=" + FACEBOOK + "'",
        "grafana = '" + GRAFANA + "'",
        "GET https://jira.example.org/rest/api/2/token/" + ATLASSIAN,
        "curl -H 'Authorization: Bearer " + ATLASSIAN + "' https://jira.example.org/rest",
    ],
)
def test_provider_shaped_tokens_are_refused(text: str) -> None:
    assert _refused(text)


def test_the_atlassian_shape_wants_the_colon_after_twelve_digits() -> None:
    # The same id and bytes with a dash where the colon is: base64 of digits, no token.
    other = base64.b64encode(
        b"583920174655-" + bytes.fromhex("9f3ac217e40b5d886c19a7f2e3b4c5d6a7b8c9d0")
    ).decode()
    assert "atlassian-pat" in {h.rule_id for h in find_secrets("JIRA_PAT=" + ATLASSIAN)}
    assert "atlassian-pat" not in {h.rule_id for h in find_secrets("JIRA_PAT=" + other)}


# --- a key in a terminal's coloured output ---------------------------------------------------

DEEPSEEK = "sk-" + "615ef152bf865a131f88b23571dc4ee6"


@pytest.mark.parametrize(
    "text",
    [
        ">>>\x1b[93m" + DEEPSEEK + "\x1b[0m<<<",
        "found: \x1b[1;31m" + DEEPSEEK + "\x1b[m in .env",
    ],
)
def test_a_key_in_coloured_terminal_output_is_blanked(text: str) -> None:
    assert _refused(text)
    blanked = blank_secrets(text)
    assert DEEPSEEK not in blanked
    assert "\x1b[" in blanked  # only the key is blanked


def test_coloured_terminal_output_without_a_key_is_kept() -> None:
    assert screen_text("\x1b[32mPASSED\x1b[0m tests/test_api.py::test_login (0.42s)") is None


# --- digests written as digests, and version numbers in file names (our own coding facts) ---

# base64 of a SHA-512 digest (88 characters with its padding), and of a SHA-256 one unpadded as
# OpenSSH prints a key's fingerprint (43).
SRI = "sha512-" + base64.b64encode(bytes(range(7, 71))).decode()
SSH_FP = "SHA256:" + base64.b64encode(bytes(range(101, 133))).decode().rstrip("=")


@pytest.mark.parametrize(
    "text",
    [
        "the lockfile's integrity for left-pad is " + SRI,
        '<script src="app.js" integrity="sha384-'
        + "oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K"
        + "/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"
        + '"></script>',
        "The SSH host key fingerprint is " + SSH_FP + ".",
        "The wheel is shelldon-0.1.0-cp311-abi3-linux_x86_64.whl.",
        "Install torch-2.3.1-cp312-cp312-manylinux1_x86_64.whl from the cache.",
    ],
)
def test_digests_and_file_names_in_coding_facts_are_kept(text: str) -> None:
    assert screen_text(text) is None


def test_a_fingerprint_shaped_value_given_to_a_key_name_is_still_refused() -> None:
    assert _refused('api_key = "' + SSH_FP + '"')


# --- the same classes disguised (the obfuscation matrix's transforms, on these shapes) -------

GHP = "ghp_" + "R7kQ2mX9vL4pT8wZ3nB6yH1cJ5dF0gS2aE7u"


@pytest.mark.parametrize(
    "text",
    [
        # a Gradle password cut in two or in chunks between its quotes
        "credentials {\n  username 'ci'\n  password 'sun\nshine'\n}",
        "credentials {\n  username 'ci'\n  password 'orange 42-lem on'\n}",
        # an environment fallback cut in chunks
        'PASSWORD = os.environ.get("PASSWORD") or "at5G6z i!m"',
        # a key spaced out between markers, as a scanner's output frames a finding
        ">>>" + " ".join(DEEPSEEK) + "<<<",
        # base64 of a key as one segment of a URL's path, padding and all
        "GET https://api.example.org/v1/" + base64.b64encode(GHP.encode()).decode() + "/events",
        "GET https://api.example.org/v1/"
        + base64.b64encode((GHP + "x").encode()).decode()
        + "/events",
    ],
)
def test_the_classes_disguised_are_refused(text: str) -> None:
    assert _refused(text)
