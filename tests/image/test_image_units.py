"""Unit files, users, modes and the vault in an amd64 root built like the appliance's."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from imagetools import ALL_UNITS, OVERLAY, UNITS, in_root, need_tools, run

from shelldon.daemon import PET_TUNABLES
from shelldon.worker import drop

# Builds the check root (mmdebstrap; minutes the first time): `-m "not debian_root"` skips.
pytestmark = pytest.mark.debian_root

SYSTEMD = "usr/lib/systemd/system"
# Exposure levels of `systemd-analyze security` (0 = locked down, 10 = exposed). The scores measured
# are in docs/image.md; these bounds fail the check if a change loosens a unit.
MAX_EXPOSURE = {
    "shelldon-core.service": 0.6,
    "shelldon-broker.service": 1.5,
    "shelldon-forkserver.service": 1.3,
}


def unit_settings(name: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (OVERLAY / SYSTEMD / name).read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            k, v = line.split("=", 1)
            out.setdefault(k.strip(), []).append(v.strip())
    return out


def test_units_verify_clean(check_root):
    paths = [f"/{SYSTEMD}/{u}" for u in ALL_UNITS]
    r = in_root(check_root, "systemd-analyze", "verify", *paths)
    # Unknown keys and bad values only warn (exit 0): any output on stderr fails the check.
    assert r.returncode == 0 and r.stderr == "", r.stderr


@pytest.mark.parametrize("unit", UNITS)
def test_security_exposure(check_root, unit):
    r = in_root(check_root, "systemd-analyze", "security", "--offline=yes", "--no-pager", unit)
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", r.stdout)
    assert m, r.stdout[-2000:] + r.stderr
    assert float(m.group(1)) <= MAX_EXPOSURE[unit], f"{unit}: exposure {m.group(1)}\n{r.stdout}"


@pytest.mark.parametrize("unit", UNITS)
def test_notify_watchdog_restart(unit):
    s = unit_settings(unit)
    assert s["Type"] == ["notify"]
    assert s["WatchdogSec"] and int(s["WatchdogSec"][0]) > 0
    assert s["Restart"] == ["on-failure"]
    assert s["StartLimitBurst"] and s["StartLimitIntervalSec"]
    assert s["NoNewPrivileges"] == ["yes"] and s["ProtectSystem"] == ["strict"]
    assert s["ProtectHome"] == ["yes"] and s["PrivateTmp"] == ["yes"]


def test_capabilities_only_forkserver_changes_uid():
    assert unit_settings("shelldon-core.service")["CapabilityBoundingSet"] == [""]
    assert unit_settings("shelldon-broker.service")["CapabilityBoundingSet"] == [""]
    fs = unit_settings("shelldon-forkserver.service")
    # CAP_SETPCAP: each worker empties its capability bounding set before the uid drop.
    wanted = ["CAP_SETGID", "CAP_SETPCAP", "CAP_SETUID"]
    assert sorted(fs["CapabilityBoundingSet"][0].split()) == wanted
    assert sorted(fs["AmbientCapabilities"][0].split()) == wanted
    assert fs["Environment"] and any(
        "SHELLDON_WORKER_USER=shelldon-worker" in e for e in fs["Environment"]
    )


def test_sockets_are_born_with_the_groups_that_admit_only_the_pets_uids():
    """docs/processes.md: each socket is 0660 and gets its group from the process that binds it
    (neither the broker nor the fork-server may chown)."""
    broker = unit_settings("shelldon-broker.service")
    assert broker["Group"] == ["shelldon-worker"]  # broker.sock: the workers connect
    assert broker["SupplementaryGroups"] == ["shelldon"]  # writes the run dir through its group
    forkserver = unit_settings("shelldon-forkserver.service")
    assert forkserver["Group"] == ["shelldon"]  # core connects to forkserver.sock
    assert forkserver["SupplementaryGroups"] == [
        "shelldon-worker"
    ]  # it admits workers at the broker
    assert unit_settings("shelldon-core.service")["Group"] == ["shelldon"]


def test_only_broker_reaches_the_network():
    for unit in ("shelldon-core.service", "shelldon-forkserver.service"):
        s = unit_settings(unit)
        assert s["RestrictAddressFamilies"] == ["AF_UNIX"] and s["PrivateNetwork"] == ["yes"], unit
    assert "AF_INET" in unit_settings("shelldon-broker.service")["RestrictAddressFamilies"][0]


def test_nothing_of_the_pet_waits_for_the_network():
    """The broker's poller and providers back off on their own: a card without Wi-Fi must not
    start the pet late (network.target waited 90 s for a wlan0 that never came)."""
    for unit in (*UNITS, "shelldon.target", "shelldon-firstboot.service"):
        after = " ".join(unit_settings(unit).get("After", [])).split()
        wants = " ".join(unit_settings(unit).get("Wants", [])).split()
        for target in ("network.target", "network-online.target", "time-sync.target"):
            assert target not in after + wants, f"{unit} waits for {target}"


def test_core_starts_on_a_restored_clock():
    """time-set.target: timesyncd has set the clock forward to the last saved time."""
    assert "time-set.target" in " ".join(unit_settings("shelldon-core.service")["After"]).split()


def test_first_boot_units_do_not_hold_up_sysinit():
    """Growing the card, SSH host keys and reading the FAT happen beside the boot, not before
    sysinit.target (which everything else waits for)."""
    for unit in (
        "shelldon-growroot.service",
        "shelldon-sshkeys.service",
        "shelldon-firstboot.service",
    ):
        before = " ".join(unit_settings(unit).get("Before", [])).split()
        assert "sysinit.target" not in before, unit


def test_wpa_supplicant_not_enabled_in_the_image(check_root):
    """Only shelldon-wifi-generator pulls it in, when Wi-Fi is configured."""
    etc = check_root / "etc/systemd/system"
    assert not list(etc.glob("*.wants/wpa_supplicant@*"))
    generator = check_root / "usr/lib/systemd/system-generators/shelldon-wifi-generator"
    assert os.access(generator, os.X_OK)


def table(path) -> dict[str, list[str]]:
    """/etc/passwd-style file -> {name: fields}."""
    rows = [line.split(":") for line in path.read_text().splitlines()]
    return {r[0]: r for r in rows}


def test_users_fixed_ids_no_login(check_root):
    pw = table(check_root / "etc/passwd")
    assert pw["shelldon"][2:4] == ["900", "900"]
    assert pw["shelldon-worker"][2:4] == ["901", "901"]
    for u in ("shelldon", "shelldon-worker"):
        assert pw[u][6] == "/usr/sbin/nologin"
    # Not a shared account, so the fork-server takes it as the worker (worker.drop.shared_account).
    assert int(pw["shelldon-worker"][2]) != drop.OVERFLOW_UID
    assert Path(pw["shelldon-worker"][6]).name in drop.NO_LOGIN_SHELLS
    shadow = table(check_root / "etc/shadow")
    for u in ("shelldon", "shelldon-worker"):
        assert shadow[u][1].startswith("!"), f"{u} has a usable password field"
    # The worker is in no group of shelldon's; shelldon is in the worker's (the readers' group,
    # docs/security.md), so core can give its files that group.
    groups = (check_root / "etc/group").read_text().splitlines()
    assert not any(
        line.startswith("shelldon:") and "shelldon-worker" in line.split(":")[3] for line in groups
    )
    members = {line.split(":")[0]: line.split(":")[3].split(",") for line in groups}
    assert members["shelldon-worker"] == ["shelldon"]


def mode_owner(path) -> tuple[str, int, int]:
    st = os.lstat(path)
    return oct(stat.S_IMODE(st.st_mode)), st.st_uid, st.st_gid


def test_data_tree_modes(check_root):
    home = check_root / "var/lib/shelldon"
    assert mode_owner(home) == ("0o2750", 900, 901)
    assert mode_owner(home / "memory") == ("0o2750", 900, 901)
    assert mode_owner(home / "memory/vault") == ("0o700", 900, 900)
    assert mode_owner(check_root / "etc/shelldon/shelldon.toml") == ("0o640", 0, 900)


def test_tmpfiles_reasserts_vault_at_start(check_root):
    """What shelldon-core's ExecStartPre does: a loosened vault is tightened again."""
    vault = check_root / "var/lib/shelldon/memory/vault"
    os.chmod(vault, 0o755)
    os.chown(vault, 901, 901)
    r = in_root(check_root, "systemd-tmpfiles", "--create", "/usr/lib/tmpfiles.d/shelldon.conf")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert mode_owner(vault) == ("0o700", 900, 900)


def test_tmpfiles_closes_a_data_root_an_earlier_release_made(check_root):
    """0755/0644 and group shelldon, as the earlier release left them: before core starts, tmpfiles
    gives directories 2750 and files 0640 in the readers' group, and leaves the vault's entries, the
    undo store and the locks the service user's alone (core may neither chown nor set setgid)."""
    home = check_root / "var/lib/shelldon"
    made = {
        "history.db": 0o644,
        "history.db-wal": 0o644,
        "memory/about.md": 0o644,
        "memory/history.jsonl": 0o644,
        "memory/facts/tea.md": 0o644,
        "state/scheduler.json": 0o644,
        "memory/.write.lock": 0o600,
        "memory/.undo/ab12": 0o600,
        "memory/vault/probe.md": 0o600,
    }
    dirs = ["memory/facts", "state", "memory/.undo"]
    try:
        for d in dirs:
            (home / d).mkdir(parents=True, exist_ok=True)
            os.chown(home / d, 900, 900)
            os.chmod(home / d, 0o755 if d != "memory/.undo" else 0o700)
        for name, mode in made.items():
            (home / name).write_text("x\n")
            os.chown(home / name, 900, 900)
            os.chmod(home / name, mode)
        os.chmod(home, 0o755)
        os.chown(home, 900, 900)
        r = in_root(check_root, "systemd-tmpfiles", "--create", "/usr/lib/tmpfiles.d/shelldon.conf")
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert mode_owner(home) == ("0o2750", 900, 901)
        for d in ("memory/facts", "state"):
            assert mode_owner(home / d) == ("0o2750", 900, 901), d
        assert mode_owner(home / "memory/.undo") == ("0o700", 900, 900)
        for name, mode in made.items():
            want = ("0o640", 900, 901) if mode == 0o644 else ("0o600", 900, 900)
            assert mode_owner(home / name) == want, name
    finally:
        for name in made:
            (home / name).unlink(missing_ok=True)
        in_root(check_root, "systemd-tmpfiles", "--create", "/usr/lib/tmpfiles.d/shelldon.conf")


def test_a_root_without_cap_dac_override_reads_the_tree_only_through_the_group(check_root):
    """The fork-server's case: uid 0 with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH out of its
    bounding set is an other uid to the 2750 data root; its unit's SupplementaryGroups= lets it
    check the tree the worker will read, and a third uid (nobody) is refused."""
    need_tools("chroot")
    no_dac = ["--bounding-set", "-dac_override,-dac_read_search"]
    r = in_root(check_root, "setpriv", *no_dac, "--groups=901", "ls", "/var/lib/shelldon/memory")
    assert r.returncode == 0 and "vault" in r.stdout, r.stderr
    r = in_root(check_root, "setpriv", *no_dac, "--clear-groups", "ls", "/var/lib/shelldon")
    assert r.returncode != 0 and "Permission denied" in r.stderr, r.stdout + r.stderr
    nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    for path in ("/var/lib/shelldon", "/var/lib/shelldon/memory"):
        r = in_root(check_root, *nobody, "ls", path)
        assert r.returncode != 0 and "Permission denied" in r.stderr, (path, r.stdout)


def test_sysusers_and_tmpfiles_parse_clean(check_root):
    r = in_root(check_root, "systemd-sysusers", "/usr/lib/sysusers.d/shelldon.conf")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = in_root(check_root, "systemd-tmpfiles", "--create", "/usr/lib/tmpfiles.d/shelldon.conf")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    # A malformed line is reported: the check above can fail.
    bad = check_root / "etc/tmpfiles.d/zz-probe.conf"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text("d /var/lib/shelldon/x 0999 nobody-such-user - -\n")
    try:
        r = in_root(check_root, "systemd-tmpfiles", "--create", "/etc/tmpfiles.d/zz-probe.conf")
        assert r.stderr != ""
    finally:
        bad.unlink()


def test_kernel_refuses_worker_vault_read(check_root):
    """The real thing: inside the root, uid shelldon-worker cannot list or open the vault."""
    need_tools("chroot")
    secret = check_root / "var/lib/shelldon/memory/vault/probe.md"
    secret.write_text("not for workers\n")
    os.chown(secret, 900, 900)
    os.chmod(secret, 0o600)
    try:
        as_worker = ["chroot", "--userspec=901:901", "--groups=901", str(check_root)]
        r = run(*as_worker, "ls", "/var/lib/shelldon/memory/vault")
        assert r.returncode != 0 and "Permission denied" in r.stderr
        r = run(*as_worker, "cat", "/var/lib/shelldon/memory/vault/probe.md")
        assert r.returncode != 0 and "Permission denied" in r.stderr
        # ... while the memory tree around it stays readable to the worker,
        r = run(*as_worker, "ls", "/var/lib/shelldon/memory")
        assert r.returncode == 0 and "vault" in r.stdout
        # and the service uid reads the entry.
        r = run(
            "chroot",
            "--userspec=900:900",
            "--groups=900",
            str(check_root),
            "cat",
            "/var/lib/shelldon/memory/vault/probe.md",
        )
        assert r.returncode == 0 and r.stdout == "not for workers\n"
    finally:
        secret.unlink()


def test_units_enabled(check_root):
    etc = check_root / "etc/systemd/system"
    assert (etc / "multi-user.target.wants/shelldon.target").is_symlink()
    for u in UNITS:
        assert (etc / "shelldon.target.wants" / u).is_symlink(), u
    for u in (
        "shelldon-firstboot.service",
        "shelldon-growroot.service",
        "shelldon-sshkeys.service",
    ):
        assert (etc / "sysinit.target.wants" / u).is_symlink(), u
    assert not (etc / "multi-user.target.wants/shelldon-selftest.service").exists()


def test_no_identity_baked_in(check_root):
    assert not list((check_root / "etc/ssh").glob("ssh_host_*_key"))
    assert (check_root / "etc/machine-id").read_text().strip() in ("", "uninitialized")


def test_update_units_enabled_and_ordered(check_root):
    etc = check_root / "etc/systemd/system"
    assert (etc / "shelldon.target.wants/shelldon-update-boot.service").is_symlink()
    for u in ("shelldon-update-trial.service", "shelldon-update-fat.service"):
        assert (etc / "multi-user.target.wants" / u).is_symlink(), u
    before = " ".join(unit_settings("shelldon-update-boot.service")["Before"]).split()
    assert set(UNITS) <= set(before)  # a cut update is finished or undone before the pet starts
    # The three start side by side: none of them is ordered after another.
    for unit in UNITS:
        after = " ".join(unit_settings(unit).get("After", [])).split()
        assert not set(UNITS) & set(after), (unit, after)


def test_hardware_watchdog_is_set_for_pid1(check_root):
    conf = check_root / "usr/lib/systemd/system.conf.d/shelldon-watchdog.conf"
    settings = dict(
        line.split("=", 1)
        for line in conf.read_text().splitlines()
        if "=" in line and line[0] != "#"
    )
    # 60 s: PID 1's start-up (armed, not yet fed) must fit with room on a slow card; the image
    # test boots with exactly this file and times the reset (docs/image.md, "Watchdog").
    assert settings == {"RuntimeWatchdogSec": "60s", "RebootWatchdogSec": "60s"}
    r = in_root(check_root, "systemd-analyze", "cat-config", "systemd/system.conf")
    assert "RuntimeWatchdogSec=60s" in r.stdout, r.stderr


def test_the_release_layout_and_the_updater(check_root):
    opt = check_root / "opt/shelldon"
    current = os.readlink(opt / "current")
    assert current.startswith("releases/") and os.readlink(opt / "previous") == current
    assert (opt / current / "lib/shelldon/__init__.py").is_file()
    assert (
        (check_root / "etc/shelldon/update-key.pem").read_text().startswith("-----BEGIN PUBLIC KEY")
    )
    r = in_root(check_root, "/usr/lib/shelldon/update-agent", "status")
    assert r.returncode == 0, r.stderr
    assert (
        r.stdout.splitlines()[0] == f"version: {Path(current).name} (fallback {Path(current).name})"
    )
    # The updater's copy holds no more than itself: a release that cannot import leaves it whole.
    copied = {p.relative_to(check_root / "usr/lib/shelldon/updater").as_posix()
              for p in (check_root / "usr/lib/shelldon/updater").rglob("*.py")}  # fmt: skip
    assert "shelldon/appliance/update.py" in copied and not any("core" in c for c in copied)


def test_python_package_installed(check_root):
    pth = check_root / "usr/lib/python3/dist-packages/shelldon.pth"
    assert pth.read_text().strip() == "/opt/shelldon/current/lib"
    r = run("chroot", str(check_root), "python3", "-c", "import msgspec, tomllib; print('ok')")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


@pytest.mark.parametrize("unit", UNITS)
def test_the_pets_processes_keep_no_column_tables_and_no_docstrings(unit):
    """As `shelldon run` gives its children (app.Supervisor.start): -0.25 MB across the three for
    the column tables, -2 MB for the docstrings (-OO)."""
    environment = " ".join(unit_settings(unit)["Environment"]).split()
    assert "PYTHONNODEBUGRANGES=1" in environment
    assert "PYTHONOPTIMIZE=2" in environment


@pytest.mark.parametrize("unit", UNITS)
def test_the_pets_processes_run_with_the_pets_malloc(unit):
    """As `shelldon run` gives its children: glibc's per-thread malloc cache off and a fixed mmap
    threshold (shelldon.daemon.PET_MALLOC)."""
    environment = " ".join(unit_settings(unit)["Environment"]).split()
    assert f"GLIBC_TUNABLES={PET_TUNABLES}" in environment


# What the three import before their first turn (cli.run_cmd.process_command's modules).
SERVICE_MODULES = (
    "shelldon.core.server",
    "shelldon.broker.server",
    "shelldon.transport.telegram_start",
    "shelldon.worker.forkserver",
)


def test_every_module_the_services_import_is_compiled_at_their_level(check_root):
    """The services run at -OO with PYTHONDONTWRITEBYTECODE=1 on a root they cannot write: a module
    with no opt-2 .pyc would be compiled from source at every start (image/layer.sh compiles the
    release, the stdlib and msgspec at that level)."""
    probe = (
        "import importlib.util, os, sys\n"
        f"for name in {SERVICE_MODULES!r}: __import__(name)\n"
        "files = [getattr(m, '__file__', None) or '' for m in list(sys.modules.values())]\n"
        "sources = [f for f in files if f.endswith('.py')]\n"
        "cached = importlib.util.cache_from_source\n"
        "missing = [f for f in sources if not os.path.exists(cached(f))]\n"
        "print(sys.flags.optimize, len(sources), *missing)"
    )
    r = in_root(
        check_root, "env", "PYTHONDONTWRITEBYTECODE=1", "PYTHONOPTIMIZE=2", "python3", "-c", probe
    )
    assert r.returncode == 0, r.stderr
    level, count, *missing = r.stdout.split()
    assert level == "2" and int(count) > 150, r.stdout
    assert missing == [], missing
