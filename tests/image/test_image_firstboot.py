"""shelldon-firstboot against a scratch tree: shelldon.toml on 'FAT' -> system settings,
provider chain in /etc, API keys into the vault (0600, shelldon) and wiped from the boot
partition."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from imagetools import OVERLAY, need_root

FIRSTBOOT = OVERLAY / "usr/lib/shelldon/firstboot.py"
SECRET = "sk-test-0123456789abcdefSECRET"
CONFIG = f"""
[system]
hostname = "pet-one"
timezone = "Europe/London"
ssh_authorized_keys = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO2 owner@laptop"]

[wifi]
country = "GB"
ssid = "HomeNet"
psk = "correct horse battery"

[[provider]]
name = "openrouter"
kind = "openai"
base_url = "https://example.invalid/api/v1"
model = "some-model"
timeout = 30
api_key = "{SECRET}"

[[provider]]
name = "offline"
kind = "offline"
"""


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    need_root()
    root, boot = tmp_path / "root", tmp_path / "boot"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text(
        "root:x:0:0:root:/root:/bin/sh\n"
        "shelldon:x:900:900::/var/lib/shelldon:/usr/sbin/nologin\n"
        "shelldon-worker:x:901:901::/:/usr/sbin/nologin\n"
    )
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\tshelldon\n")
    for zone in ("Europe/London", "Etc/UTC"):
        src = Path("/usr/share/zoneinfo") / zone
        if not src.exists():
            pytest.skip("host has no tzdata")
        (root / "usr/share/zoneinfo" / zone).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, root / "usr/share/zoneinfo" / zone)
    boot.mkdir()
    (boot / "shelldon.toml").write_text(CONFIG)
    return root, boot


def firstboot(root: Path, boot: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(FIRSTBOOT), "--root", str(root), "--boot", str(boot), "--offline"],
        capture_output=True,
        text=True,
    )


def refused(root: Path, boot: Path, config: str) -> str:
    """firstboot on `config`: refused, the FAT file left as it was and nothing installed. Its
    output."""
    (boot / "shelldon.toml").write_text(config)
    r = firstboot(root, boot)
    assert r.returncode == 1, r.stdout
    assert (boot / "shelldon.toml").read_text() == config
    assert not (root / "var/lib/shelldon").exists()
    return r.stdout


def vault_entry(root: Path, name: str, secret: str) -> Path:
    """The vault's entry `name`: 0600, the shelldon user's (900), holding `secret`."""
    entry = root / f"var/lib/shelldon/memory/vault/{name}.md"
    st = entry.stat()
    assert (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) == (0o600, 900, 900)
    assert entry.read_text().strip() == secret
    return entry


def everything_under(p: Path) -> str:
    out = []
    for f in p.rglob("*"):
        if f.is_file() and not f.is_symlink():
            out.append(f.read_text(errors="replace"))
    return "\n".join(out)


def test_keys_move_into_vault_and_leave_fat(tree):
    root, boot = tree
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout + r.stderr
    entry = vault_entry(root, "openrouter", SECRET)
    vault = entry.parent.stat()
    assert (stat.S_IMODE(vault.st_mode), vault.st_uid) == (0o700, 900)
    fat = (boot / "shelldon.toml").read_text()
    assert SECRET not in fat and "moved into the shelldon vault" in fat
    assert tomllib.loads(fat)["provider"][0].get("api_key") is None
    # The secret is nowhere but the vault, and never printed.
    assert SECRET not in everything_under(root / "etc") and SECRET not in r.stdout + r.stderr


def test_provider_chain_written_in_order_with_vault_key(tree):
    root, boot = tree
    assert firstboot(root, boot).returncode == 0
    conf = root / "etc/shelldon/shelldon.toml"
    st = conf.stat()
    assert (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) == (0o640, 0, 900)
    cfg = tomllib.loads(conf.read_text())
    assert [p["name"] for p in cfg["provider"]] == ["openrouter", "offline"]
    assert cfg["provider"][0] == {
        "name": "openrouter",
        "kind": "openai",
        "base_url": "https://example.invalid/api/v1",
        "model": "some-model",
        "timeout": 30,
        "key": "openrouter",
    }
    assert cfg["provider"][1] == {"name": "offline", "kind": "offline"}
    assert cfg["worker"]["user"] == "shelldon-worker"


def test_system_settings(tree):
    root, boot = tree
    assert firstboot(root, boot).returncode == 0
    assert (root / "etc/hostname").read_text() == "pet-one\n"
    hosts = (root / "etc/hosts").read_text()
    assert "127.0.1.1\tpet-one" in hosts and "shelldon" not in hosts
    assert os.readlink(root / "etc/localtime") == "/usr/share/zoneinfo/Europe/London"
    ak = root / "root/.ssh/authorized_keys"
    assert ak.read_text().startswith("ssh-ed25519 ") and stat.S_IMODE(ak.stat().st_mode) == 0o600
    wpa = root / "etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
    assert stat.S_IMODE(wpa.stat().st_mode) == 0o600
    text = wpa.read_text()
    assert "country=GB" in text and 'ssid="HomeNet"' in text


def test_applied_once_then_again_after_an_edit(tree):
    root, boot = tree
    assert firstboot(root, boot).returncode == 0
    again = firstboot(root, boot)
    assert again.returncode == 0 and "unchanged" in again.stdout
    # The owner edits the file (keys already gone): the provider keeps its vault entry.
    fat = boot / "shelldon.toml"
    fat.write_text(fat.read_text().replace('model = "some-model"', 'model = "other-model"'))
    r = firstboot(root, boot)
    assert r.returncode == 0 and "unchanged" not in r.stdout
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert (
        cfg["provider"][0]["model"] == "other-model" and cfg["provider"][0]["key"] == "openrouter"
    )
    assert (root / "var/lib/shelldon/memory/vault/openrouter.md").read_text().strip() == SECRET


@pytest.mark.parametrize(
    "bad",
    [
        'kind = "openai"\nname = "x"\nbogus = 1',
        'kind = "telepathy"\nname = "x"',
        'kind = "offline"\nname = "x"\napi_key = "sk-nope-12345"',
        'kind = "openai"\nname = "../etc"',
    ],
)
def test_bad_provider_refused_and_nothing_moved(tree, bad):
    root, boot = tree
    assert "not applied" in refused(root, boot, f"[[provider]]\n{bad}\n")
    assert not (root / "etc/shelldon/shelldon.toml").exists()
    assert (root / "etc/hosts").read_text() == "127.0.0.1\tlocalhost\n127.0.1.1\tshelldon\n"


def test_bad_system_setting_changes_nothing(tree):
    root, boot = tree
    assert "unknown time zone" in refused(
        root, boot, CONFIG.replace("Europe/London", "Mars/Olympus")
    )
    assert not (root / "etc/hostname").exists()


def test_template_on_fat_parses_and_applies(tree):
    root, boot = tree
    shutil.copy(OVERLAY.parent / "boot/shelldon.toml", boot / "shelldon.toml")
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert [p["kind"] for p in cfg["provider"]] == ["offline"]


def test_shelldon_judges_provider_settings(tree):
    """Settings pass through to shelldon's own loader, which names a typo'd one."""
    root, boot = tree
    out = refused(
        root,
        boot,
        '[[provider]]\nname = "groq"\nkind = "openai"\nbase_url = "https://example.invalid"\n'
        'model = "m"\ntimout = 3\napi_key = "gsk-abcdef123456"\n',
    )
    assert "timout" in out


def test_keyless_provider_and_extra_settings(tree):
    """A local server needs no key: no `key` is invented; other settings pass through."""
    root, boot = tree
    (boot / "shelldon.toml").write_text(
        '[[provider]]\nname = "ollama"\nkind = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\n'
        'model = "llama3.2"\nretries = 2\nheaders = { "X-Title" = "shelldon" }\n\n'
        '[[provider]]\nname = "offline"\nkind = "offline"\n'
    )
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    first = cfg["provider"][0]
    assert (
        "key" not in first and first["retries"] == 2 and first["headers"] == {"X-Title": "shelldon"}
    )


BOT_TOKEN = "987654321:AAFbotTokenFromBotFather_q1w2e3r4t5y6u7"
TELEGRAM_ONLY = f"""
[system]
hostname = "pet-two"

[telegram]
token = "{BOT_TOKEN}"
poll_timeout = 30
"""


def test_telegram_token_moves_into_the_vault_with_no_provider(tree):
    root, boot = tree
    (boot / "shelldon.toml").write_text(TELEGRAM_ONLY)
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout + r.stderr
    entry = vault_entry(root, "telegram_token", BOT_TOKEN)
    fat = (boot / "shelldon.toml").read_text()
    assert BOT_TOKEN not in fat and "# token: moved into the shelldon vault" in fat
    assert "token" not in tomllib.loads(fat)["telegram"]
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert cfg["telegram"] == {"poll_timeout": 30, "token_key": "telegram_token"}
    assert "provider" not in cfg
    assert BOT_TOKEN not in everything_under(root / "etc") and BOT_TOKEN not in r.stdout + r.stderr
    # Applied again after an edit (the token gone from FAT): the section keeps its vault entry.
    (boot / "shelldon.toml").write_text(fat.replace("poll_timeout = 30", "poll_timeout = 40"))
    assert firstboot(root, boot).returncode == 0
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert cfg["telegram"] == {"poll_timeout": 40, "token_key": "telegram_token"}
    assert entry.read_text().strip() == BOT_TOKEN


def test_telegram_beside_providers_keeps_both_and_a_named_token_key(tree):
    root, boot = tree
    text = CONFIG + f'\n[telegram]\ntoken = "{BOT_TOKEN}"\ntoken_key = "my_bot"\n'
    (boot / "shelldon.toml").write_text(text)
    assert firstboot(root, boot).returncode == 0
    vault = root / "var/lib/shelldon/memory/vault"
    assert (vault / "my_bot.md").read_text().strip() == BOT_TOKEN
    assert (vault / "openrouter.md").read_text().strip() == SECRET
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert cfg["telegram"] == {"token_key": "my_bot"}
    assert [p["name"] for p in cfg["provider"]] == ["openrouter", "offline"]
    fat = (boot / "shelldon.toml").read_text()
    assert BOT_TOKEN not in fat and SECRET not in fat


def test_a_bad_telegram_section_changes_nothing(tree):
    root, boot = tree
    out = refused(root, boot, f'[telegram]\ntoken = "{BOT_TOKEN}"\npoll_timout = 5\n')
    assert "poll_timout" in out


def test_proactive_section_is_carried_even_with_no_provider(tree):
    root, boot = tree
    (boot / "shelldon.toml").write_text("[proactive]\nenabled = false\n")
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert cfg["proactive"] == {"enabled": False}


def test_telegram_and_proactive_are_carried_together_and_checked(tree):
    root, boot = tree
    # shelldon's own loader knows [proactive]'s fields
    bad = f'[telegram]\ntoken = "{BOT_TOKEN}"\n\n[proactive]\nquiet_strat = "23:00"\n'
    assert "quiet_strat" in refused(root, boot, bad)
    (boot / "shelldon.toml").write_text(
        f'[telegram]\ntoken = "{BOT_TOKEN}"\n\n[proactive]\nquiet_start = "23:00"\n'
    )
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout
    cfg = tomllib.loads((root / "etc/shelldon/shelldon.toml").read_text())
    assert cfg["telegram"] == {"token_key": "telegram_token"}
    assert cfg["proactive"] == {"quiet_start": "23:00"}
    assert BOT_TOKEN not in (boot / "shelldon.toml").read_text()


def test_wifi_firmware_only_brcmfmac43436_files_are_copied(tree):
    """The FAT's wifi-firmware/ folder: brcmfmac43436* regular files land in the firmware
    directory; other names, symlinks and directories there do not."""
    root, boot = tree
    folder = boot / "wifi-firmware"
    folder.mkdir()
    (folder / "brcmfmac43436-sdio.bin").write_bytes(b"\x00firmware\xff")
    (folder / "brcmfmac43436-sdio.txt").write_text("nvram\n")
    (folder / "brcmfmac43430-sdio.bin").write_bytes(b"not this one")
    (folder / "evil.sh").write_text("#!/bin/sh\n")
    (folder / "brcmfmac43436-link.bin").symlink_to("/etc/passwd")
    (folder / "brcmfmac43436-dir").mkdir()
    r = firstboot(root, boot)
    assert r.returncode == 0, r.stdout + r.stderr
    brcm = root / "usr/lib/firmware/brcm"
    assert sorted(p.name for p in brcm.iterdir()) == [
        "brcmfmac43436-sdio.bin",
        "brcmfmac43436-sdio.txt",
    ]
    assert (brcm / "brcmfmac43436-sdio.bin").read_bytes() == b"\x00firmware\xff"
    assert stat.S_IMODE((brcm / "brcmfmac43436-sdio.txt").stat().st_mode) == 0o644
    assert "copied brcmfmac43436-sdio.bin, brcmfmac43436-sdio.txt" in r.stdout
    assert "evil.sh ignored" in r.stdout
    # Unchanged files are not copied again; a changed one is.
    r = firstboot(root, boot)
    assert "wifi-firmware: copied" not in r.stdout
    (folder / "brcmfmac43436-sdio.txt").write_text("nvram v2\n")
    r = firstboot(root, boot)
    assert "copied brcmfmac43436-sdio.txt into" in r.stdout
    assert (brcm / "brcmfmac43436-sdio.txt").read_text() == "nvram v2\n"


GENERATOR = OVERLAY / "usr/lib/systemd/system-generators/shelldon-wifi-generator"


def test_wifi_generator_wants_wpa_supplicant_only_when_configured(tmp_path):
    """No Wi-Fi configuration: no wpa_supplicant@wlan0 in the boot (no 90 s wait for wlan0)."""
    unit = tmp_path / "wpa_supplicant@.service"
    unit.write_text("[Unit]\n")
    conf = tmp_path / "wpa_supplicant-wlan0.conf"
    out = tmp_path / "gen"
    env = {**os.environ, "SHELLDON_WIFI_CONF": str(conf), "SHELLDON_WPA_UNIT": str(unit)}
    r = subprocess.run([str(GENERATOR), str(out)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert not out.exists() or not any(out.rglob("*"))
    conf.write_text('network={\n\tssid="x"\n}\n')
    r = subprocess.run([str(GENERATOR), str(out)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    link = out / "multi-user.target.wants/wpa_supplicant@wlan0.service"
    assert os.readlink(link) == str(unit)
