#!/usr/bin/python3
"""Apply shelldon.toml from the FAT boot partition to the appliance.

Runs at every boot before the network and shelldon start (shelldon-firstboot.service) and does
work only when the file changed since it was last applied. It sets the hostname, the time zone,
root's SSH public keys, Wi-Fi, and writes the provider chain, `[telegram]` and `[proactive]` to
/etc/shelldon/shelldon.toml (the last two even with no provider configured). API keys found in
the file, and the Telegram bot's `[telegram] token`, are moved into the vault
(<home>/memory/vault/<key>.md, 0600, owned by shelldon) and then wiped from the FAT partition; the
vault entry keeps its name (the bot's is `token_key`, default telegram_token), so everything keeps
working when the file is applied again without them.

Standard library only (tomllib). Paths are injectable so tests run it against a scratch tree:
    firstboot.py [--root DIR] [--boot DIR] [--offline]

Wi-Fi firmware that Debian lacks (the brcmfmac43436 of some Zero 2 W boards): files named
brcmfmac43436* in the FAT partition's `wifi-firmware/` folder are copied into
/usr/lib/firmware/brcm/ at every boot when they differ, and nothing else from there is.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import os
import re
import subprocess
import sys
import tomllib

SERVICE_USER = "shelldon"
WORKER_USER = "shelldon-worker"
HOME = "var/lib/shelldon"
STAMP = "var/lib/shelldon-image/firstboot.sha256"
KEY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
HOSTNAME = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
TZ = re.compile(r"^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$")
COUNTRY = re.compile(r"^[A-Z]{2}$")
KINDS = ("openai", "anthropic", "offline")
TELEGRAM_TOKEN_KEY = "telegram_token"
FIRMWARE_FOLDER = "wifi-firmware"  # on the FAT partition
FIRMWARE_DIR = "usr/lib/firmware/brcm"
FIRMWARE_NAME = re.compile(r"^brcmfmac43436[A-Za-z0-9_.,+-]*$")
FIRMWARE_MAX_BYTES = 4 * 1024 * 1024


class ConfigError(ValueError):
    pass


def log(msg: str) -> None:
    print(f"shelldon-firstboot: {msg}", flush=True)


def ids_of(root: str, user: str) -> tuple[int, int]:
    with open(os.path.join(root, "etc/passwd"), encoding="utf-8") as f:
        for line in f:
            parts = line.split(":")
            if parts[0] == user:
                return int(parts[2]), int(parts[3])
    raise ConfigError(f"user {user!r} does not exist in {root}/etc/passwd")


def write_atomic(path: str, data: str, mode: int, uid: int = 0, gid: int = 0) -> None:
    d = os.path.dirname(path)
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.tmp{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
    try:
        os.fchmod(fd, mode)
        os.fchown(fd, uid, gid)
        os.write(fd, data.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return toml_str(v)
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        return "{ " + ", ".join(f"{toml_str(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise ConfigError(f"unsupported value {v!r}")


def providers_of(cfg: dict, vault: str) -> list[tuple[dict, str | None]]:
    """[(provider table for /etc, api key or None)] in the file's order.

    Every setting but `api_key` passes through (shelldon.config checks them). A provider whose key
    is given, or already in the vault from an earlier boot, names its vault entry in `key`.
    """
    out = []
    for i, p in enumerate(cfg.get("provider", [])):
        if not isinstance(p, dict):
            raise ConfigError(f"provider #{i + 1} is not a table")
        name = p.get("name")
        if not isinstance(name, str) or not KEY_NAME.match(name):
            raise ConfigError(f"provider #{i + 1}: name must match {KEY_NAME.pattern}")
        if p.get("kind") not in KINDS:
            raise ConfigError(f"provider {name!r}: kind must be one of {', '.join(KINDS)}")
        api_key = p.get("api_key")
        if api_key is not None and (not isinstance(api_key, str) or not api_key.strip()):
            raise ConfigError(f"provider {name!r}: api_key must be a non-empty string")
        if api_key is not None and p["kind"] == "offline":
            raise ConfigError(f"provider {name!r}: the offline brain takes no api_key")
        table = {k: v for k, v in p.items() if k != "api_key"}
        if "key" not in table and (
            api_key is not None or os.path.exists(os.path.join(vault, f"{name}.md"))
        ):
            table["key"] = name
        if "key" in table and not KEY_NAME.match(str(table["key"])):
            raise ConfigError(f"provider {name!r}: key must match {KEY_NAME.pattern}")
        out.append((table, api_key.strip() if api_key else None))
    return out


def telegram_of(cfg: dict) -> tuple[dict | None, str | None]:
    """([telegram] for /etc without the token, the bot token or None). Settings pass through
    (shelldon.config checks them); the token's vault entry is named by `token_key`."""
    section = cfg.get("telegram")
    if section is None:
        return None, None
    if not isinstance(section, dict):
        raise ConfigError("[telegram] is not a table")
    token = section.get("token")
    if token is not None and (
        not isinstance(token, str) or not token.strip() or any(c.isspace() for c in token.strip())
    ):
        raise ConfigError("[telegram] token must be the bot token BotFather gave (one word)")
    table = {k: v for k, v in section.items() if k != "token"}
    table.setdefault("token_key", TELEGRAM_TOKEN_KEY)
    if not isinstance(table["token_key"], str) or not KEY_NAME.match(table["token_key"]):
        raise ConfigError(f"[telegram] token_key must match {KEY_NAME.pattern}")
    return table, token.strip() if token else None


def proactive_of(cfg: dict) -> dict | None:
    section = cfg.get("proactive")
    if section is not None and not isinstance(section, dict):
        raise ConfigError("[proactive] is not a table")
    return section


def render_config(
    providers: list[tuple[dict, str | None]],
    telegram: dict | None = None,
    proactive: dict | None = None,
) -> str:
    lines = [
        "# Written by shelldon-firstboot from shelldon.toml on the boot partition. Keys are not",
        "# here: each provider's `key` and [telegram] token_key name vault entries",
        "# (<home>/memory/vault/<key>.md).",
        "",
        "[worker]",
        f"user = {toml_str(WORKER_USER)}",
    ]
    for name, section in (("telegram", telegram), ("proactive", proactive)):
        if section is not None:
            lines += ["", f"[{name}]"]
            lines += [f"{k} = {toml_value(v)}" for k, v in section.items() if v is not None]
    for table, _ in providers:
        lines += ["", "[[provider]]"]
        lines += [f"{k} = {toml_value(v)}" for k, v in table.items() if v is not None]
    return "\n".join(lines) + "\n"


def check_with_shelldon(text: str) -> None:
    """shelldon's own loader judges the provider chain when it is importable (on the device)."""
    try:
        from shelldon.config import ConfigError as ShelldonConfigError
        from shelldon.config import parse_config
    except ImportError:
        log("shelldon.config not importable: provider settings checked only in outline")
        return
    try:
        parse_config(text, source="shelldon.toml")
    except ShelldonConfigError as e:
        raise ConfigError(str(e)) from None


def wipe_keys(text: str, when: str) -> str:
    """The FAT file's text with every api_key line, and [telegram]'s token line, replaced by a
    note."""
    out = []
    section = ""
    for line in text.splitlines(keepends=True):
        header = re.match(r"^\s*\[+\s*([A-Za-z0-9_.-]+)\s*\]+", line)
        if header:
            section = header.group(1)
        secret = re.match(r"^(\s*)(api_key|token)\s*=", line)
        if secret and (secret.group(2) == "api_key" or section == "telegram"):
            end = "\n" if line.endswith("\n") else ""
            line = f"{secret.group(1)}# {secret.group(2)}: moved into the shelldon vault on {when}{end}"
        out.append(line)
    return "".join(out)


def copy_wifi_firmware(root: str, boot: str) -> list[str]:
    """Copy brcmfmac43436* regular files from <boot>/wifi-firmware/ into the firmware directory
    when they differ; every other name there is left alone. The names copied."""
    folder = os.path.join(boot, FIRMWARE_FOLDER)
    if not os.path.isdir(folder):
        return []
    copied = []
    target = os.path.join(root, FIRMWARE_DIR)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not FIRMWARE_NAME.match(name) or os.path.islink(path) or not os.path.isfile(path):
            if not name.startswith("."):
                log(f"wifi-firmware: {name} ignored (only regular brcmfmac43436* files are copied)")
            continue
        if os.path.getsize(path) > FIRMWARE_MAX_BYTES:
            log(f"wifi-firmware: {name} ignored (larger than {FIRMWARE_MAX_BYTES} bytes)")
            continue
        data = open(path, "rb").read()
        dest = os.path.join(target, name)
        if os.path.isfile(dest) and not os.path.islink(dest) and open(dest, "rb").read() == data:
            continue
        os.makedirs(target, mode=0o755, exist_ok=True)
        tmp = os.path.join(target, f".{name}.tmp{os.getpid()}")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
        copied.append(name)
    if copied:
        log(f"wifi-firmware: copied {', '.join(copied)} into /{FIRMWARE_DIR}")
    return copied


def reload_wifi_driver() -> None:
    """The driver gave up on wlan0 at boot for want of firmware: load it again to find it."""
    subprocess.run(["modprobe", "-r", "brcmfmac"], check=False)
    subprocess.run(["modprobe", "brcmfmac"], check=False)


def apply(root: str, boot: str, live: bool) -> bool:
    src = os.path.join(boot, "shelldon.toml")
    raw = open(src, "rb").read()
    digest = hashlib.sha256(raw).hexdigest()
    stamp = os.path.join(root, STAMP)
    if os.path.exists(stamp) and open(stamp).read().strip() == digest:
        log("shelldon.toml unchanged since it was applied")
        return False
    try:
        cfg = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"shelldon.toml does not parse: {e}") from None
    system = cfg.get("system", {})
    wifi = cfg.get("wifi", {})
    vault = os.path.join(root, HOME, "memory/vault")
    providers = providers_of(cfg, vault)
    telegram, bot_token = telegram_of(cfg)
    proactive = proactive_of(cfg)
    wanted = providers or telegram is not None or proactive is not None
    rendered = render_config(providers, telegram, proactive) if wanted else None
    if rendered is not None:
        check_with_shelldon(rendered)

    # Validate everything before changing anything: a bad file changes nothing.
    hostname = system.get("hostname")
    if hostname is not None and (not isinstance(hostname, str) or not HOSTNAME.match(hostname)):
        raise ConfigError("system.hostname must be a lower-case DNS label")
    tz = system.get("timezone")
    if tz is not None:
        if not isinstance(tz, str) or not TZ.match(tz) or ".." in tz:
            raise ConfigError("system.timezone must be a zone name such as Europe/London")
        if not os.path.isfile(os.path.join(root, "usr/share/zoneinfo", tz)):
            raise ConfigError(f"unknown time zone {tz!r}")
    keys = system.get("ssh_authorized_keys")
    if isinstance(keys, str):
        keys = [keys]
    if keys is not None and not (
        isinstance(keys, list)
        and all(isinstance(k, str) and re.match(r"^(ssh-|ecdsa-|sk-)\S+ \S+", k.strip()) for k in keys)
    ):
        raise ConfigError("system.ssh_authorized_keys must be OpenSSH public keys")
    wpa = None
    if wifi.get("ssid"):
        ssid, psk, country = wifi["ssid"], wifi.get("psk"), wifi.get("country", "")
        if not isinstance(ssid, str) or not 1 <= len(ssid.encode()) <= 32:
            raise ConfigError("wifi.ssid must be 1 to 32 bytes")
        if country and (not isinstance(country, str) or not COUNTRY.match(country)):
            raise ConfigError("wifi.country must be a two-letter code such as GB")
        if psk is not None and (not isinstance(psk, str) or not 8 <= len(psk) <= 63):
            raise ConfigError("wifi.psk must be 8 to 63 characters")
        net = [f"\tssid={toml_str(ssid)}"]
        net.append(f"\tpsk={toml_str(psk)}" if psk else "\tkey_mgmt=NONE")
        wpa = "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\nupdate_config=0\n"
        if country:
            wpa += f"country={country}\n"
        wpa += "network={\n" + "\n".join(net) + "\n}\n"
    uid, gid = ids_of(root, SERVICE_USER)

    if hostname is not None:
        write_atomic(os.path.join(root, "etc/hostname"), hostname + "\n", 0o644)
        hosts = os.path.join(root, "etc/hosts")
        old = open(hosts).read() if os.path.exists(hosts) else "127.0.0.1\tlocalhost\n"
        new = re.sub(r"^127\.0\.1\.1\s.*\n?", "", old, flags=re.M).rstrip("\n")
        write_atomic(hosts, f"{new}\n127.0.1.1\t{hostname}\n", 0o644)
        if live:
            subprocess.run(["hostname", hostname], check=False)
        log(f"hostname {hostname}")
    if tz is not None:
        lt = os.path.join(root, "etc/localtime")
        tmp = lt + ".tmp"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(f"/usr/share/zoneinfo/{tz}", tmp)
        os.replace(tmp, lt)
        write_atomic(os.path.join(root, "etc/timezone"), tz + "\n", 0o644)
        log(f"time zone {tz}")
    if keys is not None:
        ssh = os.path.join(root, "root/.ssh")
        os.makedirs(ssh, mode=0o700, exist_ok=True)
        os.chmod(ssh, 0o700)
        write_atomic(os.path.join(ssh, "authorized_keys"), "".join(k.strip() + "\n" for k in keys), 0o600)
        log(f"{len(keys)} SSH key(s) for root")
    if wpa is not None:
        write_atomic(os.path.join(root, "etc/wpa_supplicant/wpa_supplicant-wlan0.conf"), wpa, 0o600)
        log(f"Wi-Fi {wifi['ssid']!r}")
        if live:
            # shelldon-wifi-generator wants it from the next boot on; this boot, start it now
            # (without waiting: nothing else in the boot depends on wlan0).
            subprocess.run(
                ["systemctl", "--no-block", "restart", "wpa_supplicant@wlan0.service"], check=False
            )

    # Keys into the vault first, then the config that names them, then wipe the FAT.
    secrets = [(table["key"], api_key) for table, api_key in providers if api_key is not None]
    if telegram is not None and bot_token is not None:
        secrets.append((telegram["token_key"], bot_token))
    for key, value in secrets:
        os.makedirs(vault, mode=0o700, exist_ok=True)
        os.chown(vault, uid, gid)
        os.chmod(vault, 0o700)
        write_atomic(os.path.join(vault, f"{key}.md"), value + "\n", 0o600, uid, gid)
    moved = len(secrets)
    if rendered is not None:
        write_atomic(os.path.join(root, "etc/shelldon/shelldon.toml"), rendered, 0o640, 0, gid)
        if providers:
            log(f"provider chain: {', '.join(t['name'] for t, _ in providers)}")
        if telegram is not None:
            log(f"telegram: token in the vault as {telegram['token_key']!r}" if bot_token else "telegram settings")
    text = raw.decode("utf-8")
    if moved:
        when = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")
        text = wipe_keys(text, when)
        write_atomic(src, text, 0o600)
        log(f"{moved} key(s) moved into the vault and wiped from the boot partition")
    write_atomic(stamp, hashlib.sha256(text.encode()).hexdigest() + "\n", 0o600)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="/")
    ap.add_argument("--boot", default="/boot/firmware")
    ap.add_argument("--offline", action="store_true", help="change files only (tests, image build)")
    a = ap.parse_args(argv)
    try:
        if copy_wifi_firmware(a.root, a.boot) and not a.offline:
            reload_wifi_driver()
    except OSError as e:
        log(f"wifi-firmware not copied: {e}")
    try:
        apply(a.root, a.boot, live=not a.offline)
    except (ConfigError, OSError) as e:
        log(f"not applied: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
