"""The check root booted by systemd in a container: the units start as the appliance starts them
(Type=notify, sandboxing, users, the fork-server's capabilities) and a turn gets a reply from a real
dropped worker. The appliance's own self-test runs inside; its report (every check and the verdict)
is read from a host directory bind-mounted at /run/shelldon-selftest after the container stops, so
a console hung up by a getty cannot lose it."""

from __future__ import annotations

import re
import subprocess

import pytest
from imagetools import NATIVE, machine_name, need_tools

# Builds the check root (mmdebstrap; minutes the first time): `-m "not debian_root"` skips.
pytestmark = pytest.mark.debian_root

# Checks of the self-test that mean something in a container. (The root is not remounted and not
# noatime there: those are checked by the qemu boot of the real image, `just image-test`.)
MUST_PASS = (
    "shelldon-core active",
    "shelldon-broker active",
    "shelldon-forkserver active",
    "users",
    "vault 0700 shelldon",
    "worker cannot read vault",
    "native module matches x86_64",
    "say hello",
    "dream",
    "undo dream",
    "wal reset",
    "third uid refused",
    "worker reads its files",
    "worker reads history",
    "nothing unreadable",
    "journald volatile",
    "no swap",
    "doctor",
)


@pytest.fixture(scope="module")
def selftest(check_root, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    need_tools("systemd-nspawn")
    if not NATIVE.exists():
        pytest.skip(f"no amd64 build of the extension at {NATIVE}: run `just dev`")
    report_dir = tmp_path_factory.mktemp("selftest")
    # --volatile=overlay: the boot writes to a tmpfs over the root, which stays as built; the report
    # directory is the host's. console-getty is masked: it hangs up /dev/console ~5 s into the boot,
    # and under load the self-test is still writing then (the report file does not depend on it).
    # The self-test powers the container off; the timeout only bounds a hung boot.
    r = subprocess.run(
        [
            "systemd-nspawn", "--register=no", "--keep-unit", "--volatile=overlay", "-q",
            f"--machine={machine_name('check')}", f"--bind={report_dir}:/run/shelldon-selftest",
            "-D", str(check_root), "-b", "--",
            "systemd.wants=shelldon-selftest.service", "systemd.mask=console-getty.service",
        ],
        capture_output=True, text=True, errors="replace", timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    console = (r.stdout + r.stderr)[-4000:]
    report_file = report_dir / "report"
    assert report_file.exists(), f"no self-test report (exit {r.returncode}); console:\n{console}"
    out = report_file.read_text(errors="replace")
    assert "SHELLDON-SELFTEST:" in out, f"report without a verdict:\n{out}\nconsole:\n{console}"
    lines = {}
    for m in re.finditer(r"^selftest (ok  |FAIL) (.+?)(?: ?: (.*))?$", out, re.M):
        lines[m.group(2).strip()] = (m.group(1).strip(), (m.group(3) or "").strip())
    lines["status"] = ("", "\n".join(re.findall(r"^selftest status (.*)$", out, re.M)))
    lines["doctor output"] = ("", "\n".join(re.findall(r"^selftest doctor (.*)$", out, re.M)))
    return lines


@pytest.mark.parametrize("check", MUST_PASS)
def test_selftest_check_passes(selftest, check):
    assert check in selftest, sorted(selftest)
    verdict, detail = selftest[check]
    assert verdict == "ok", f"{check}: {detail}"


def test_turn_ran_isolated_and_the_offline_brain_answered(selftest):
    """`shelldon status` inside: the worker dropped to shelldon-worker; the turn not degraded."""
    _, status = selftest["status"]
    assert re.search(r"^vault isolation: on", status, re.M), status
    assert re.search(r"^last turn: \S+ turn ok via offline", status, re.M), status


def test_doctor_shows_the_kernel_refusing_a_real_worker(selftest):
    _, doctor = selftest["doctor output"]
    assert re.search(r"ok\s+isolation vault read\s+worker uid 901: \d+/\d+ refused", doctor), doctor
    assert re.search(r"ok\s+modes\s+home 2750, memory 2750, vault 0700", doctor), doctor
    assert not re.search(r"FAIL", doctor), doctor


def test_the_data_root_is_closed_to_a_third_uid_under_the_real_units(selftest):
    """After turns, a dream, its undo and a restart of core, with the card's users, tmpfiles and
    units (the fork-server root without CAP_DAC_OVERRIDE): `nobody` is refused every path of the
    data root, the worker reads every file a turn needs (docs/reliability.md has the figures)."""
    _, refused = selftest["third uid refused"]
    m = re.fullmatch(r"(\d+)/(\d+) refused", refused)
    assert m and m.group(1) == m.group(2) and int(m.group(2)) > 10, refused
    _, read = selftest["worker reads its files"]
    w = re.fullmatch(r"(\d+)/(\d+) read", read)
    assert w and w.group(1) == w.group(2), read
    _, rows = selftest["worker reads history"]
    print(f"\ncard: third uid {refused} (EACCES), worker {read}, history {rows}")
