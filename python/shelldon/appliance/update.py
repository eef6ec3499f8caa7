"""The card's updater: `shelldon update FILE|URL` and the units that finish what it starts.

    update.py apply FILE|URL   verify, stage, switch, restart the pet, wait for the trial's verdict
    update.py fat              apply /boot/firmware/shelldon-update.bundle if the owner dropped one
    update.py boot             before the pet starts: finish or undo what a power cut left
    update.py trial            the candidate's self-test; keep it or roll back by itself
    update.py status           the running version, the last update, the security updates
    update.py make-bundle DIR --version V --key PEM --out FILE [--arch A]   (build side)
    update.py keygen PRIVATE PUBLIC                                          (build side)

On the card it runs as /usr/lib/shelldon/update-agent, from a copy of appliance/{bundle,releases,
update}.py and paths.py under /usr/lib/shelldon/updater that no bundle replaces (`python3 -I -S`),
so a release that cannot even import still has a working updater to roll it back. Exit codes: 0
done (or kept), 1 rolled back, 2 refused (nothing written), 3 usage. Each step is one line on
stderr (`shelldon-update: step NAME`); the boot test cuts the power on them (image/imagetest.py),
the host tests stop the process there (SHELLDON_UPDATE_STOP_AT=NAME: SIGSTOP at that step).
"""

from __future__ import annotations

# Only what `boot` needs at the top: it runs before the pet's units at every boot where an update
# is pending (the unit's conditions skip it otherwise), and under emulation the imports of the
# bundle's side (tarfile, urllib, ssl) cost it seconds.
import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from shelldon.appliance.releases import BundleError, ReleaseError, Releases, read_json, write_json

# The card's paths; the environment moves them for the host tests.
KEY_ENV, FAT_ENV = "SHELLDON_UPDATE_KEY", "SHELLDON_FAT_BUNDLE"


def public_key() -> Path:
    return Path(os.environ.get(KEY_ENV) or "/etc/shelldon/update-key.pem")


def fat_bundle() -> Path:
    return Path(os.environ.get(FAT_ENV) or "/boot/firmware/shelldon-update.bundle")


UNITS = ("shelldon-forkserver.service", "shelldon-broker.service", "shelldon-core.service")
TRIAL_UNIT = "shelldon-update-trial.service"
STOP_AT_ENV = "SHELLDON_UPDATE_STOP_AT"
TRIAL_TIMEOUT_S = float(os.environ.get("SHELLDON_TRIAL_TIMEOUT", "420"))
EXIT_ROLLED_BACK, EXIT_REFUSED, EXIT_USAGE = 1, 2, 3
# The updater's own copy (install_updater): these modules of the package, standard library only.
# (bundle.py hashes with hashlib, not shelldon.digests: the copy stays these files, and a run of
# the updater is short-lived, so OpenSSL costs it nothing that lasts.)
UPDATER_FILES = (
    "__init__.py", "paths.py", "appliance/__init__.py", "appliance/bundle.py",
    "appliance/field_status.py", "appliance/releases.py", "appliance/update.py",
)  # fmt: skip
AGENT = """#!/usr/bin/python3 -IS
# shelldon's updater (appliance/update.py), from the copy beside it: no bundle replaces it.
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "updater"))
from shelldon.appliance.update import main
sys.exit(main(sys.argv[1:]))
"""


def say(line: str) -> None:
    print(f"shelldon-update: {line}", file=sys.stderr, flush=True)


def step(name: str) -> None:
    say(f"step {name}")
    if os.environ.get(STOP_AT_ENV) == name:
        os.kill(os.getpid(), signal.SIGSTOP)


def card_arch() -> str:
    import platform

    return platform.machine()


def root_sectors_written() -> int | None:
    """Sectors written to the root's partition since boot (the kernel's block stats), or None."""
    try:
        source = subprocess.run(
            ["findmnt", "-no", "SOURCE", "/"], capture_output=True, text=True, check=True
        ).stdout.strip()
        fields = Path(f"/sys/class/block/{Path(source).name}/stat").read_text().split()
        return int(fields[6])
    except (OSError, subprocess.CalledProcessError, IndexError, ValueError):
        return None


def fetch(source: str, workdir: Path) -> Path:
    """A local path as it is; a URL downloaded into `workdir` (RAM: /run), bounded."""
    import urllib.request

    from shelldon.appliance.bundle import MAX_PAYLOAD

    if not source.startswith(("https://", "http://")):
        path = Path(source)
        if not path.is_file():
            raise BundleError(f"no bundle at {source}")
        return path
    dest = workdir / "download.bundle"
    try:
        with urllib.request.urlopen(source, timeout=60) as response, dest.open("wb") as out:
            got = 0
            while chunk := response.read(1024 * 1024):
                got += len(chunk)
                if got > MAX_PAYLOAD + 1024 * 1024:
                    raise BundleError(f"{source} is larger than a bundle can be")
                out.write(chunk)
    except OSError as exc:
        raise BundleError(f"cannot fetch {source}: {exc}") from None
    return dest


def apply(releases: Releases, source: str, *, restart: bool = True) -> int:
    """Verify (nothing written), stage, switch, then the trial decides (module docstring)."""
    import shutil
    import tempfile

    from shelldon.appliance.bundle import extract, verify

    started = time.monotonic()
    sectors = root_sectors_written()
    if releases.trial() is not None:
        raise ReleaseError("an update is already on trial: wait for its verdict (shelldon status)")
    work_parent = Path("/run") if os.access("/run", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="shelldon-update-", dir=work_parent) as work:
        bundle = fetch(source, Path(work))
        manifest = verify(bundle, public_key(), card_arch())
        step("verified")
        say(f"{bundle}: shelldon {manifest.version}, signed, made {manifest.made}")
        if manifest.version == releases.current():
            raise ReleaseError(f"{manifest.version} is the running version")
        target = releases.release(manifest.version)
        if target.exists():  # the fallback release: updating to it would leave none
            raise ReleaseError(f"release {manifest.version} is already on the card")
        staged = releases.staging(manifest.version)
        releases.mark_updating(manifest.version)
        try:
            size = extract(bundle, manifest, staged)
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            raise
    step("staged")
    releases.install(staged, manifest.version)
    step("installed")
    before = releases.begin_trial(manifest.version, checkpoint=step)
    say(f"switched from {before} to {manifest.version} ({size} bytes of release); on trial")
    if not restart:
        return 0
    trial_id = (releases.trial() or {}).get("started")
    _systemctl("reset-failed", *UNITS)  # a unit past its start limit would refuse the restart
    _systemctl("restart", "--no-block", *UNITS)
    step("restarted")
    _systemctl("start", TRIAL_UNIT)  # blocks until the trial's verdict
    outcome = read_json(releases.outcome_file) or {}
    if outcome.get("id") != trial_id:
        print(f"{manifest.version} is on trial; no verdict yet (`shelldon status` will say)")
        return 0
    seconds = time.monotonic() - started
    after = root_sectors_written()
    written = (after - sectors) * 512 if after is not None and sectors is not None else None
    outcome.update({"seconds": round(seconds, 1)})
    if written is not None:
        outcome["bytes_written"] = written
    write_json(releases.outcome_file, outcome)
    figures = (
        f"{seconds:.0f} s, {written if written is not None else '?'} bytes written to the root"
    )
    if outcome.get("result") == "kept":
        print(f"updated to {outcome.get('version')} (from {before}); self-test passed; {figures}")
        return 0
    print(
        f"the update to {manifest.version} failed its self-test "
        f"({outcome.get('reason', 'no verdict')}); back on {releases.current()}; {figures}"
    )
    return EXIT_ROLLED_BACK


def _systemctl(*args: str) -> None:
    subprocess.run(["systemctl", *args], check=False)


def _units_state() -> dict[str, str]:
    r = subprocess.run(
        ["systemctl", "show", "-P", "ActiveState", *UNITS], capture_output=True, text=True
    )
    return dict(zip(UNITS, r.stdout.split(), strict=False))


def self_test() -> str | None:
    """None if the running candidate is healthy: its three units active, core answering its
    status (which reads the stores) with every process up. Else why not."""
    deadline = time.monotonic() + TRIAL_TIMEOUT_S
    states: dict[str, str] = {}
    while time.monotonic() < deadline:
        states = _units_state()
        if all(states.get(u) == "active" for u in UNITS):
            break
        if any(states.get(u) == "failed" for u in UNITS):
            return "a unit failed: " + ", ".join(f"{u} {s}" for u, s in states.items())
        time.sleep(2)  # polling systemd for a state; nothing else to wait on
    else:
        return f"units not active in {TRIAL_TIMEOUT_S:.0f} s: " + ", ".join(
            f"{u} {s}" for u, s in states.items()
        )
    r = subprocess.run(
        ["/usr/bin/shelldon", "status", "--json"], capture_output=True, text=True, timeout=120
    )
    if r.returncode != 0:
        return f"shelldon status exit {r.returncode}: {(r.stderr or r.stdout).strip()[-200:]}"
    import json

    try:
        json.loads(r.stdout)
    except ValueError:
        return "shelldon status did not answer in JSON"
    return None


def trial(releases: Releases) -> int:
    state = releases.trial()
    if state is None:
        say("no update on trial")
        return 0
    step("trial")
    problem = self_test()
    if problem is None:
        outcome = releases.keep()
        say(f"{outcome['version']} passed its self-test: kept")
        return 0
    outcome = releases.roll_back(problem)
    step("rolled-back")
    say(f"{state['candidate']} failed its self-test ({problem}): back on {outcome['version']}")
    _systemctl("reset-failed", *UNITS)  # the candidate's crash loop hit the units' start limit
    _systemctl("restart", *UNITS)
    return EXIT_ROLLED_BACK


def apply_fat(releases: Releases) -> int:
    """The owner's dropped bundle, applied once: renamed to .done or .refused whatever happens."""
    dropped = fat_bundle()
    if not dropped.is_file():
        return 0
    applying = dropped.with_name(dropped.name + ".applying")
    os.replace(dropped, applying)
    try:
        rc = apply(releases, str(applying))
    except (BundleError, ReleaseError) as exc:
        say(f"refused {dropped.name}: {exc}")
        os.replace(applying, dropped.with_name(dropped.name + ".refused"))
        return EXIT_REFUSED
    os.replace(applying, dropped.with_name(dropped.name + ".done"))
    return rc


def install_updater(dest: Path) -> Path:
    """The updater outside every release: dest/updater/shelldon/... and dest/update-agent (build
    side; the card's dest is /usr/lib/shelldon). Returns the agent's path."""
    import shutil

    package = Path(__file__).resolve().parents[1]
    for name in UPDATER_FILES:
        target = dest / "updater" / "shelldon" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(package / name, target)
    agent = dest / "update-agent"
    agent.write_text(AGENT)
    agent.chmod(0o755)
    return agent


def main(argv: list[str]) -> int:
    summary = (__doc__ or "").split("\n")[0] or None  # None at -OO
    parser = argparse.ArgumentParser(prog="shelldon update", description=summary)
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("apply", help="verify and apply a bundle (a file or an http(s) URL)")
    a.add_argument("source")
    a.add_argument("--no-restart", action="store_true", help="switch only (tests)")
    sub.add_parser("fat", help="apply the bundle on the FAT partition, once")
    sub.add_parser("boot", help="finish or undo what a power cut left (before the pet starts)")
    sub.add_parser("trial", help="the candidate's self-test and verdict")
    sub.add_parser("status", help="version, last update, security updates")
    m = sub.add_parser("make-bundle", help="sign a release tree into a bundle (build side)")
    m.add_argument("release_dir", type=Path)
    m.add_argument("--version", required=True)
    m.add_argument("--key", type=Path, required=True)
    m.add_argument("--out", type=Path, required=True)
    m.add_argument("--arch", default="aarch64")
    i = sub.add_parser("install-updater", help="copy the updater into DEST (build side)")
    i.add_argument("dest", type=Path)
    k = sub.add_parser("keygen", help="an Ed25519 key pair (build side)")
    k.add_argument("private", type=Path)
    k.add_argument("public", type=Path)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_USAGE if exc.code else 0
    releases = Releases.on_card()
    try:
        if args.what == "apply":
            if os.geteuid() != 0 and not os.environ.get("SHELLDON_RELEASES"):
                raise ReleaseError("run it as root (it replaces the running shelldon)")
            return apply(releases, args.source, restart=not args.no_restart)
        if args.what == "fat":
            return apply_fat(releases)
        if args.what == "boot":
            say(releases.recover())
            return 0
        if args.what == "trial":
            return trial(releases)
        if args.what == "status":
            from shelldon.appliance.field_status import status_lines

            print("\n".join(status_lines(releases.root)))
            return 0
        from shelldon.appliance.bundle import make, make_keypair

        if args.what == "make-bundle":
            print(make(args.release_dir, args.version, args.arch, args.key, args.out))
            return 0
        if args.what == "install-updater":
            print(install_updater(args.dest))
            return 0
        make_keypair(args.private, args.public)
        return 0
    except BundleError as exc:
        say(f"refused: {exc} (nothing was written)")
        return EXIT_REFUSED
    except ReleaseError as exc:
        say(f"refused: {exc}")
        return EXIT_REFUSED
    except OSError as exc:
        say(f"failed: {exc.filename or ''} {exc.strerror or exc}".strip())
        return EXIT_REFUSED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
