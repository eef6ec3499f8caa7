#!/usr/bin/env python3
"""`just image-test`: the built image booted under qemu-system-aarch64, as an owner's card lives.

    imagetest.py all  [IMG]      the whole test (below); exit 0 only when every phase passed
    imagetest.py first [IMG]     phase 1 alone
    imagetest.py boot [IMG LOG]  one self-test boot of a copy of the image (image/boottest.sh)
    imagetest.py field [IMG]     phases 5-8 alone, on a fresh card after one self-test boot
    imagetest.py watchdog [IMG]  phase 1, then phase 8 on that card
    imagetest.py security [IMG]  two security-update runs on a card with a network (not in `all`)

The phases of `all`, each on a sparse copy of the image (a "card"; the image stays as built):
  1. first boot: shelldon.toml ($SHELLDON_BOOT_TOML) on the FAT partition, and the root file system
     marked not clean with one wrong link count (debugfs) as a power cut could leave it. The
     self-test inside must PASS, and its output must show the initramfs checking and repairing the
     root, the boot timeline with no device or network timeout, when the first `shelldon say`
     answered (reported), each unit's start within $SHELLDON_START_RATIO times a bare `python3 -c
     pass` in the same guest (gated), the kernel command line's cma= and MemTotal/CmaTotal.
  2. power-cut drill: the same card booted $SHELLDON_POWERCUT_KILLS times with a guest client
     (shelldon-drill.service) talking to core nonstop; each reply it gets is printed on the serial
     console, and a reply the host read is an acknowledged turn. At a random moment after a few of
     them the host SIGKILLs qemu itself (the whole machine goes, not the guest's processes).
  3. the card booted once more (the self-test; core replays what the last cut left), which also
     writes a `shelldon backup` onto the FAT partition. After that clean power-off the host checks
     the root file system (e2fsck -fn: clean) and reads the card's data root (debugfs rdump): every
     acknowledged turn is in history.db word for word, no torn file, every audit line parses
     (tests/support/drill.py's verify, the same as the kill drill's).
  4. upgrade: a freshly flashed card gets that backup on its FAT partition; its first boot's
     self-test restores it (shelldon.selftest=restore) and the pet answers; the host then finds
     every acknowledged turn in the new card's history: it still remembers.

  5. update: a signed bundle of the image's own release under a new version on the FAT partition,
     with a tampered and an unsigned one beside it; the boot applies it (shelldon-update-fat), its
     trial keeps it, the two others are refused with /opt/shelldon unchanged; the pet remembers
     (every history row the card had is still there).
  6. a bundle whose core cannot start: its trial fails, the card goes back by itself; remembers.
  7. power cut mid-update: qemu killed at a step of the switch ($SHELLDON_UPDATE_CUTS, the
     updater's `step` lines on the console); the next boot passes its self-test on one of the
     two versions, no update left half done; remembers.
  8. watchdog: PID 1 frozen after the self-test; the emulated i6300esb must reset the machine
     (every boot has it, with the timeout the card ships: a boot that resets by surprise fails,
     -no-reboot).
The gate is on what is stable across machines (each unit's start against `python3 -c pass` in the
same guest, $SHELLDON_START_RATIO); boot and update times are reported, not gated.

Needs root (debugfs and e2fsck on the copies), qemu-system-aarch64, mtools, and the repo's .venv
(phase 3 verifies with shelldon's own code). Serial lines go to image/out/imagetest-*.log.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

IMAGE_DIR = Path(__file__).resolve().parent
REPO = IMAGE_DIR.parent
OUT = Path(os.environ.get("SHELLDON_IMAGE_OUT", IMAGE_DIR / "out"))
BOOT_TIMEOUT_S = float(os.environ.get("SHELLDON_BOOT_TIMEOUT", "1200"))
KILLS = int(os.environ.get("SHELLDON_POWERCUT_KILLS", "3"))
# Each unit's CPU to READY=1 against a bare `python3 -c pass`'s, both in the guest: about 10x on an
# idle x86 host (scripts/start_cost.py); the gate leaves room for the emulated CPU's other mix.
START_RATIO = os.environ.get("SHELLDON_START_RATIO", "50")
# Where the cuts land: 0-1 s after the updater printed that step. After `verified` it is writing the
# release (24 s under emulation): the cut lands before the switch. After `restarted`, on trial.
# (`staged` is followed by the switch within a second: a cut there landed after it.)
CUTS = [c for c in os.environ.get("SHELLDON_UPDATE_CUTS", "verified,restarted").split(",") if c]
SIGNING_KEY = Path(
    os.environ.get("SHELLDON_UPDATE_SIGNING_KEY")
    or Path(os.environ.get("SHELLDON_IMAGE_CACHE", "/var/cache/shelldon-image"))
    / "update-signing.pem"
)
MASK_GETTY = "systemd.mask=serial-getty@ttyAMA0.service"  # a getty hangs up the console
# The test boots run the card's own watchdog (system.conf.d/shelldon-watchdog.conf): the timeout
# the card ships is the one proven here (the self-test's "hardware watchdog armed" must say it).
# SHELLDON_TEST_WATCHDOG_SEC=N overrides it on the kernel command line (systemd.watchdog_sec=),
# for experiments only: a run with it proves nothing about the shipped value.
WATCHDOG_OVERRIDE = os.environ.get("SHELLDON_TEST_WATCHDOG_SEC", "")
MEASURE_SCRIPT = REPO / "scripts/measure_processes.py"  # the self-test prints the units' mappings
DAMAGED_FILE = "/usr/share/doc/shelldon/image.md"


def log(msg: str) -> None:
    print(f"[image-test {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Failed(Exception):
    pass


def run(*cmd: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(list(cmd), capture_output=True, text=True, errors="replace")
    if check and r.returncode != 0:
        raise Failed(f"{' '.join(cmd)}: exit {r.returncode}: {(r.stderr or r.stdout)[-500:]}")
    return r


@dataclass
class Card:
    """A sparse copy of the image, as an SD card: its FAT and root partitions by offset."""

    path: Path
    fat: int = 0
    root: int = 0
    scratch_fsck: tuple[int, str] = (0, "")

    @classmethod
    def flash(cls, image: Path, path: Path) -> Card:
        run("cp", "--sparse=always", str(image), str(path))
        return cls.open(path)

    @classmethod
    def open(cls, path: Path) -> Card:
        table = json.loads(run("sfdisk", "-J", str(path)).stdout)["partitiontable"]
        fat, root = (p["start"] * 512 for p in table["partitions"][:2])
        return cls(path, fat, root)

    def fat_spec(self) -> str:
        return f"{self.path}@@{self.fat}"

    def root_spec(self) -> str:
        return f"{self.path}?offset={self.root}"

    def put(self, local: Path, name: str) -> None:
        run("mcopy", "-o", "-i", self.fat_spec(), str(local), f"::{name}")

    def get(self, name: str, local: Path) -> None:
        run("mcopy", "-o", "-i", self.fat_spec(), f"::{name}", str(local))

    def debugfs(self, *requests: str, write: bool = False) -> str:
        script = self.path.with_suffix(".debugfs")
        script.write_text("\n".join(requests) + "\n")
        try:
            r = run("debugfs", *(["-w"] if write else []), "-f", str(script), self.root_spec())
        finally:
            script.unlink()
        errors = [ln for ln in r.stderr.splitlines() if not ln.startswith("debugfs ")]
        if errors:
            raise Failed(f"debugfs {requests}: {'; '.join(errors)}")
        return r.stdout

    def fsck(self, fix: bool) -> tuple[int, str]:
        r = run("e2fsck", "-f", "-y" if fix else "-n", self.root_spec(), check=False)
        return r.returncode, (r.stdout + r.stderr).strip()

    def data_root(self, dest: Path) -> Path:
        """The card's /var/lib/shelldon, read cold. A card cut mid-write has its journal replayed
        on a scratch copy of the root partition first (as the next boot would): the card itself
        is not touched. (A copy of the partition alone: e2fsck re-opens the file system after a
        journal replay without the `?offset=` it was given.) `self.scratch_fsck` keeps what
        e2fsck -fy said there (exit code, last line)."""
        scratch = self.path.with_suffix(".scratch")
        mib = 1024 * 1024
        run("dd", f"if={self.path}", f"of={scratch}", f"bs={mib}", f"skip={self.root // mib}",
            "conv=sparse", "status=none")  # fmt: skip
        try:
            r = run("e2fsck", "-f", "-y", str(scratch), check=False)
            last = (r.stdout.strip() or r.stderr.strip()).splitlines()[-1:]
            self.scratch_fsck = (r.returncode, last[0] if last else "")
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir(parents=True)
            run("debugfs", "-R", f"rdump /var/lib/shelldon {dest}", str(scratch))
        finally:
            scratch.unlink(missing_ok=True)
        return dest / "shelldon"


def kernel_cmdline(extra: list[str]) -> str:
    """The image's own cmdline.txt (what the Pi's firmware hands the kernel: root, cma=,
    fsck.repair, ...) with qemu's serial console instead of the Pi's, plus `extra`."""
    given = (OUT / "root/boot/firmware/cmdline.txt").read_text().split()
    kept = [a for a in given if not a.startswith("console=")]
    watchdog = [f"systemd.watchdog_sec={WATCHDOG_OVERRIDE}"] if WATCHDOG_OVERRIDE else []
    return " ".join([*kept, "console=ttyAMA0", *watchdog, *extra])


def shipped_watchdog_s() -> int:
    """RuntimeWatchdogSec= of the image's own system.conf.d file, in seconds."""
    conf = OUT / "root/usr/lib/systemd/system.conf.d/shelldon-watchdog.conf"
    m = re.search(r"^RuntimeWatchdogSec=(\d+)(s|min)?\s*$", conf.read_text(), re.M)
    if not m:
        raise Failed(f"no RuntimeWatchdogSec=N[s|min] in {conf}")
    return int(m.group(1)) * (60 if m.group(2) == "min" else 1)


def unfed_at_start(console: list[str]) -> str:
    """PID 1's stretch without feeding the watchdog as it starts, from its own kernel-log lines on
    the console (the first boot in them): it arms the watchdog, then runs the generators and loads
    its units; its main loop feeds it from the moment the boot's job is queued."""

    def stamp(what: str) -> float | None:
        for ln in console:
            m = re.match(rf"^\[\s*([0-9.]+)\] systemd\[1\]: {what}", ln)
            if m:
                return float(m.group(1))
        return None

    armed = stamp("Watchdog running with a hardware timeout")
    queued = stamp("Queued start job for default target")
    if armed is None or queued is None:
        return "PID 1's start-up lines are not on the console"
    return (
        f"armed at {armed:.1f} s of uptime, the boot's job queued at {queued:.1f} s: "
        f"{queued - armed:.1f} s unfed at start-up"
    )


def watchdog_as_shipped(lines: list[str], console: list[str]) -> str:
    """The self-test's armed line; raises unless the device runs the timeout the card ships."""
    armed = need(lines, r"^selftest ok   hardware watchdog armed", "watchdog armed")
    want = int(WATCHDOG_OVERRIDE) if WATCHDOG_OVERRIDE else shipped_watchdog_s()
    if f", timeout {want} s," not in armed:
        raise Failed(f"the watchdog does not run the card's {want} s: {armed}")
    log(f"watchdog: {unfed_at_start(console)} (timeout {want} s)")
    return armed


@dataclass
class Boot:
    """One power-on of a card: qemu's serial console read line by line, as it comes."""

    card: Path
    log_path: Path
    cmdline: str
    reboot: bool = False  # let a reset reboot the machine (the watchdog phase) instead of exiting
    net: bool = False  # qemu's user-mode network (the security-update run); else no network
    lines: list[str] = field(default_factory=list)
    acks: list[dict[str, str]] = field(default_factory=list)
    garbled: int = 0
    stamps: list[float] = field(default_factory=list)  # when the host read each line

    def __post_init__(self) -> None:
        self._cond = threading.Condition()
        machine = os.environ.get("SHELLDON_QEMU_MACHINE", "virt")
        mem = os.environ.get("SHELLDON_QEMU_MEM", "416")
        if machine == "virt":
            hw = ["-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", mem,
                  "-drive", f"if=none,id=sd,file={self.card},format=raw",
                  "-device", "virtio-blk-pci,drive=sd",
                  "-device", "i6300esb"]  # fmt: skip  # the board's watchdog, as the Pi has one
        elif machine == "raspi3b":  # the SD card's size must be a power of two
            run("truncate", "-s", "2G", str(self.card))
            hw = ["-M", "raspi3b", "-dtb", str(OUT / "root/boot/firmware/bcm2837-rpi-3-b.dtb"),
                  "-drive", f"if=sd,file={self.card},format=raw"]  # fmt: skip
        else:
            raise Failed("SHELLDON_QEMU_MACHINE is virt or raspi3b")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            ["qemu-system-aarch64", *hw, "-kernel", str(OUT / "vmlinuz"),
             "-initrd", str(OUT / "initrd.img"), "-append", self.cmdline,
             *(["-netdev", "user,id=n0", "-device", "virtio-net-pci,netdev=n0,romfile="]
               if self.net else ["-nic", "none"]),
             "-nographic", *([] if self.reboot else ["-no-reboot"]),
             "-serial", "mon:stdio"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with self.log_path.open("w") as out:
            for raw in self.proc.stdout:
                line = raw.decode("utf-8", "replace").replace("\r", "").rstrip("\n")
                out.write(line + "\n")
                out.flush()
                with self._cond:
                    self.lines.append(line)
                    self.stamps.append(time.monotonic())
                    m = re.search(r"DRILL-ACK (\{.*\})\s*$", line)
                    if m:
                        try:
                            self.acks.append(json.loads(m.group(1)))
                        except ValueError:
                            self.garbled += 1  # not counted: the host did not read it whole
                    self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def wait_acks(self, count: int) -> None:
        deadline = self.started + BOOT_TIMEOUT_S
        with self._cond:
            while len(self.acks) < count:
                if self.proc.poll() is not None and not self._reader.is_alive():
                    raise Failed(f"the machine stopped before {count} acknowledged turns")
                if not self._cond.wait(timeout=max(0.0, deadline - time.monotonic())):
                    raise Failed(f"no {count} acknowledged turns in {BOOT_TIMEOUT_S:.0f} s")

    def wait_line(self, pattern: str, after: int = 0) -> int:
        """The index of the first console line from `after` on matching `pattern`."""
        deadline = self.started + BOOT_TIMEOUT_S
        seen = after
        with self._cond:
            while True:
                for i in range(seen, len(self.lines)):
                    if re.search(pattern, self.lines[i]):
                        return i
                seen = len(self.lines)
                if self.proc.poll() is not None and not self._reader.is_alive():
                    raise Failed(f"the machine stopped before a line matching {pattern!r}")
                if not self._cond.wait(timeout=max(0.0, deadline - time.monotonic())):
                    raise Failed(f"no line matching {pattern!r} in {BOOT_TIMEOUT_S:.0f} s")

    def cut_power(self) -> None:
        self.proc.kill()  # SIGKILL to qemu: the machine's RAM and caches are gone
        self.proc.wait()
        self._reader.join()

    def wait_off(self) -> int:
        try:
            rc = self.proc.wait(timeout=BOOT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.cut_power()
            raise Failed(
                f"no power-off within {BOOT_TIMEOUT_S:.0f} s; see {self.log_path}"
            ) from None
        self._reader.join()
        return rc

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def selftest(self) -> list[str]:
        """The self-test's lines; raises unless its verdict is PASS."""
        rc = self.wait_off()
        found = [ln for ln in self.lines if ln.startswith(("selftest", "SHELLDON-SELFTEST"))]
        log(f"qemu exited ({rc}) after {self.seconds:.0f} s; log in {self.log_path}")
        for ln in found:
            print(ln, file=sys.stderr)
        if "SHELLDON-SELFTEST: PASS" not in found:
            raise Failed(f"the self-test did not pass (see {self.log_path})")
        return found


def selftest_boot(card: Path, name: str, extra: list[str]) -> list[str]:
    cmdline = kernel_cmdline(
        ["systemd.wants=shelldon-selftest.service", "systemd.show_status=1", MASK_GETTY,
         f"shelldon.start_ratio={START_RATIO}", *extra]
    )  # fmt: skip
    return Boot(card, OUT / f"imagetest-{name}.log", cmdline).selftest()


def need(lines: list[str], pattern: str, what: str) -> str:
    for ln in lines:
        if re.search(pattern, ln):
            return ln
    raise Failed(f"{what}: no line matching {pattern!r}")


def first_boot(image: Path, toml: Path | None) -> Card:
    card = Card.flash(image, OUT / "imagetest-card.img")
    card.put(MEASURE_SCRIPT, MEASURE_SCRIPT.name)
    if toml is not None:
        card.put(toml, "shelldon.toml")
        log(f"card: {toml.name} on its FAT partition")
    # What a power cut can leave: the root not cleanly unmounted, a link count wrong.
    card.debugfs("ssv state 0", f"sif {DAMAGED_FILE} links_count 7", write=True)
    log(f"card: root marked not clean, {DAMAGED_FILE} given a wrong link count")
    lines = selftest_boot(card.path, "first", [])
    boot_log = (OUT / "imagetest-first.log").read_text(errors="replace")
    # e2fsck -y (fsck.repair=yes) says "Fix? yes", -p (preen) "FIXED".
    if not re.search(r"ref count is 7, should be 1\.\s+(Fix\? yes|FIXED)", boot_log):
        raise Failed("the initramfs did not repair the root's link count")
    need(lines, r"^selftest ok   root checked at boot", "fsck at boot")
    need(lines, r"^selftest ok   no device or network timeouts", "boot timeouts")
    said = need(lines, r"^selftest time first shelldon say answered ", "the first say")
    seconds = float(said.split()[-2])
    # Reported, not gated: an emulated boot's wall clock varies 2-3x between hosts, and a unit's
    # wall start counts its waits on the others. The gate is the CPU start ratios the self-test
    # checked against shelldon.start_ratio.
    log(f"first boot: the first `shelldon say` answered at {seconds:.1f} s of uptime")
    for ln in lines:
        if re.match(r"^selftest time (python3 -c pass|shelldon-\S+ started (in|on))", ln):
            log(f"first boot: {ln.removeprefix('selftest time ')}")
    watchdog_as_shipped(lines, boot_log.splitlines())
    for ln in lines:
        if ln.startswith("selftest memory "):
            log(f"first boot: {ln.removeprefix('selftest ')}")
    need(lines, r"^selftest ok   CMA pool as the command line says", "CMA")
    need(lines, r"^selftest meminfo MemTotal:", "MemTotal")
    if toml is not None:
        need(lines, r"^selftest ok   vault entries : boottest$", "the FAT key reached the vault")
        need(lines, r"^selftest ok   no API key on FAT", "the FAT key was wiped")
    rc, out = card.fsck(fix=False)
    if rc != 0:
        raise Failed(f"the root does not check clean after the repairing boot:\n{out[-800:]}")
    log("first boot: the initramfs repaired the damaged root; it now checks clean; PASS")
    return card


def powercut_drill(card: Card, kills: int, rng: random.Random) -> list[dict[str, str]]:
    from shelldon.paths import DataRoot
    from support.drill import Report, probe_leftovers  # the repo's .venv (see main)

    acked: list[dict[str, str]] = []
    leftovers = Report()
    garbled = 0
    for n in range(1, kills + 1):
        cmdline = kernel_cmdline(
            ["systemd.wants=shelldon-drill.service", "quiet", "loglevel=0",
             "systemd.show_status=0", MASK_GETTY]
        )  # fmt: skip
        boot = Boot(card.path, OUT / f"imagetest-drill{n}.log", cmdline)
        boot.wait_acks(rng.randint(1, 4))
        time.sleep(rng.uniform(0.0, 2.5))  # picks where the cut lands; nothing waits on it
        boot.cut_power()
        acked += boot.acks
        garbled += boot.garbled
        root = DataRoot.resolve(str(card.data_root(OUT / "imagetest-data")))
        if root.history_db.exists():  # sqlite's read-only open of a WAL file wants its -shm
            conn = sqlite3.connect(root.history_db)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.close()
        probe_leftovers(root, leftovers)
        fsck_rc, fsck_last = card.scratch_fsck
        log(
            f"power cut {n}/{kills} after {boot.seconds:.0f} s: {len(boot.acks)} turns "
            f"acknowledged this boot ({len(acked)} in all); e2fsck -fy of the cut card: exit "
            f"{fsck_rc} ({fsck_last})"
        )
    log(
        f"drill: {kills} power cuts, {len(acked)} acknowledged turns ({garbled} console lines "
        f"garbled, not counted); left for the next boot: {leftovers.left_journaled} journaled "
        f"turns to replay, {leftovers.left_temp_files} temp files, {leftovers.left_torn_tails} "
        "torn tails"
    )
    return acked


LINK_NOTE = re.compile(r"\n\(my model link is down: [^\n]*\)\Z")


def stored_reply(reply: str) -> str:
    """The reply as history keeps it: core appends a down provider's note to the reply the owner
    gets, not to history (core.server: "the owner is told in the reply (not in history)"). The
    test's first provider is a closed port, so the first turn after each start carries it."""
    return LINK_NOTE.sub("", reply)


def acked_in_logs() -> list[dict[str, str]]:
    """The acknowledged turns as the host read them, from the drill boots' serial logs (resume)."""
    acked = []
    for path in sorted(OUT.glob("imagetest-drill*.log")):
        for line in path.read_text(errors="replace").splitlines():
            m = re.search(r"DRILL-ACK (\{.*\})\s*$", line)
            if m:
                with contextlib.suppress(ValueError):
                    acked.append(json.loads(m.group(1)))
    return acked


def remembers(card: Card, acked: list[dict[str, str]], what: str) -> None:
    from shelldon.paths import DataRoot
    from support.drill import Acked, Report, verify

    root = DataRoot.resolve(str(card.data_root(OUT / "imagetest-data")))
    owed = [Acked(a["turn_id"], a["text"], stored_reply(a["reply"])) for a in acked]
    noted = sum(1 for a in acked if stored_reply(a["reply"]) != a["reply"])
    log(f"{what}: {noted} of the replies carried the link note, which history does not keep")
    report = verify(root, owed, Report())
    log(
        f"{what}: {report.acked} acknowledged turns ({report.not_saved} said not saved), "
        f"{len(report.lost)} lost, {len(report.torn)} torn files, {report.audit_lines} audit "
        f"lines ({len(report.bad_audit_lines)} unparsable), journal rows left "
        f"{report.journal_left}, integrity {report.integrity}"
    )
    problems = [
        *(f"lost: {a.turn_id} {a.text!r}" for a in report.lost[:5]),
        *report.torn[:5],
        *report.bad_audit_lines[:5],
    ]
    if report.integrity != "ok":
        problems.append(f"integrity: {report.integrity}")
    if report.journal_left:
        problems.append(f"{report.journal_left} journal rows not applied")
    if problems:
        raise Failed(f"{what}: " + "; ".join(problems))


# --- Step 20: updates, roll-back, power cut mid-update, the watchdog -------------------------


def history_rows(card: Card) -> set[tuple[str, str, str]]:
    """Every message row of the card's history.db, read cold (turn id, role, content)."""
    from shelldon.paths import DataRoot

    root = DataRoot.resolve(str(card.data_root(OUT / "imagetest-data")))
    conn = sqlite3.connect(root.history_db)
    try:
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise Failed("history.db does not pass its integrity check")
        return set(conn.execute("SELECT turn_id, role, content FROM messages"))
    finally:
        conn.close()


def still_remembers(
    card: Card, before: set[tuple[str, str, str]], what: str
) -> set[tuple[str, str, str]]:
    after = history_rows(card)
    lost = before - after
    log(f"{what}: {len(before)} history rows before, {len(after)} after, {len(lost)} lost")
    if lost:
        raise Failed(f"{what}: {len(lost)} history rows lost, e.g. {sorted(lost)[:2]}")
    return after


def image_release() -> tuple[str, Path]:
    """The image's own release (its name and tree in the build's root)."""
    current = OUT / "root/opt/shelldon/current"
    name = Path(os.readlink(current)).name
    return name, OUT / "root/opt/shelldon/releases" / name


def bundle_of(version: str, *, broken: bool = False) -> Path:
    """A signed bundle of the image's release named `version`; `broken`: core exits at import."""
    from shelldon.appliance import bundle

    _, tree = image_release()
    out = OUT / f"imagetest-{version}.bundle"
    if not broken:
        return bundle.make(tree, version, "aarch64", SIGNING_KEY, out)
    work = OUT / "imagetest-broken-tree"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(tree, work, symlinks=True)
    server = work / "lib/shelldon/core/server.py"
    server.write_text(
        server.read_text() + '\nraise SystemExit("image-test: a release whose core cannot start")\n'
    )
    try:
        return bundle.make(work, version, "aarch64", SIGNING_KEY, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def spoiled_copies(good: Path) -> tuple[Path, Path]:
    """A tampered copy (one payload byte flipped, the signature kept) and an unsigned one."""
    import tarfile

    from shelldon.appliance import bundle

    with tarfile.open(good) as tar:
        parts = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    payload = bytearray(parts["payload.tar.gz"])
    payload[len(payload) // 3] ^= 0x01
    tampered, unsigned = OUT / "imagetest-tampered.bundle", OUT / "imagetest-unsigned.bundle"
    bundle.write_container(tampered, parts["manifest.json"], parts["manifest.sig"], bytes(payload))
    bundle.write_container(unsigned, parts["manifest.json"], None, parts["payload.tar.gz"])
    return tampered, unsigned


def update_figures(lines: list[str], what: str) -> None:
    for ln in lines:
        if ln.startswith("selftest update figures "):
            d = json.loads(ln.removeprefix("selftest update figures "))
            log(
                f"{what}: {d.get('result')} {d.get('from')} -> {d.get('version')} in "
                f"{d.get('seconds', '?')} s (from `shelldon update` to the trial's verdict), "
                f"{d.get('bytes_written', '?')} bytes written to the root meanwhile"
                + (f"; reason: {d['reason']}" if d.get("reason") else "")
            )


def watchdog_phase(card: Card, rows: set[tuple[str, str, str]]) -> None:
    """Phase 8: the self-test (the card's own watchdog timeout armed), then PID 1 frozen: the
    emulated i6300esb must reset the machine; the host times the freeze to the next boot."""
    cmdline = kernel_cmdline(
        ["systemd.wants=shelldon-selftest.service", "systemd.show_status=1", MASK_GETTY,
         "shelldon.selftest=watchdog"]
    )  # fmt: skip
    boot = Boot(card.path, OUT / "imagetest-watchdog.log", cmdline, reboot=True)
    frozen = boot.wait_line(r"SHELLDON-WATCHDOG: freezing PID 1")
    how = boot.wait_line(r"SHELLDON-WATCHDOG: PID 1 (frozen|still answers)", frozen)
    again = boot.wait_line(r"Booting Linux on physical CPU", frozen)
    seconds = boot.stamps[again] - boot.stamps[frozen]
    boot.cut_power()
    armed = watchdog_as_shipped(boot.lines, boot.lines)
    log(f"watchdog: {armed.split(': ', 1)[-1]}")
    log(
        f"watchdog: {boot.lines[how].strip()}; the machine reset itself {seconds:.1f} s after "
        "PID 1 was frozen"
    )
    still_remembers(card, rows, "after the watchdog's reset")


def field_phases(card: Card, rng: random.Random) -> None:
    if not SIGNING_KEY.is_file():
        raise Failed(f"no signing key at {SIGNING_KEY} (made by `just image`)")
    base, _ = image_release()
    rows = history_rows(card)
    log(f"field: the card runs {base}; {len(rows)} history rows on it")

    # 5. an update applied from the FAT partition; tampered and unsigned ones refused
    good = f"{base}.u1"
    bundle = bundle_of(good)
    tampered, unsigned = spoiled_copies(bundle)
    card.put(bundle, "shelldon-update.bundle")
    card.put(tampered, "tampered.bundle")
    card.put(unsigned, "unsigned.bundle")
    log(
        f"update: {bundle.name} ({bundle.stat().st_size} bytes) on the FAT partition, with a "
        "tampered and an unsigned copy"
    )
    lines = selftest_boot(
        card.path, "update", ["shelldon.selftest=update", f"shelldon.expect_version={good}"]
    )
    need(lines, r"^selftest ok   update kept", "the update kept")
    need(lines, r"^selftest ok   tampered bundle refused, nothing written", "tampered refused")
    need(lines, r"^selftest ok   unsigned bundle refused, nothing written", "unsigned refused")
    update_figures(lines, "update")
    rows = still_remembers(card, rows, "after the update")

    # 6. an update whose self-test fails goes back by itself
    bad = f"{base}.bad"
    card.put(bundle_of(bad, broken=True), "shelldon-update.bundle")
    lines = selftest_boot(
        card.path, "update-bad", ["shelldon.selftest=update-bad", f"shelldon.expect_version={good}"]
    )
    need(lines, r"^selftest ok   update rolled back", "the roll-back")
    update_figures(lines, "failing update")
    rows = still_remembers(card, rows, "after the roll-back")

    # 7. the power cut in the middle of an update
    running = good
    for n, cut in enumerate(CUTS, 1):
        version = f"{base}.c{n}"
        card.put(bundle_of(version), "shelldon-update.bundle")
        cmdline = kernel_cmdline(["systemd.show_status=1", MASK_GETTY])
        boot = Boot(card.path, OUT / f"imagetest-cut{n}.log", cmdline)
        at = boot.wait_line(rf"shelldon-update: step {re.escape(cut)}\b")
        time.sleep(rng.uniform(0.0, 1.0))  # picks where the cut lands; nothing waits on it
        boot.cut_power()
        steps = [ln for ln in boot.lines[at:] if "shelldon-update: step " in ln]
        log(
            f"power cut {n}: 0-1 s after the update's step {cut!r} ({boot.seconds:.0f} s after "
            f"power-on); the last step the console showed: {steps[-1].split('step ')[-1].strip()}"
        )
        lines = selftest_boot(card.path, f"after-cut{n}", [])
        versions = [ln for ln in lines if ln.startswith("selftest status version: ")]
        on = versions[0].split()[3] if versions else "?"
        if on not in (running, version):
            raise Failed(f"after the cut the card runs {on}, neither {running} nor {version}")
        log(
            f"power cut {n}: the next boot passed its self-test on {on} "
            f"({'the new' if on == version else 'the old'} version)"
        )
        running = on
        rows = still_remembers(card, rows, f"after power cut {n}")

    # 8. the watchdog resets a machine whose PID 1 is frozen
    watchdog_phase(card, rows)
    log("field phases: PASS")


def security_run(image: Path) -> None:
    """Two runs of the security updates on a fresh card with a network (qemu's user mode): what
    each writes to the card and the memory it needs beside the pet."""
    card = Card.flash(image, OUT / "imagetest-security.img")
    toml_env = os.environ.get("SHELLDON_BOOT_TOML")
    if toml_env:
        card.put(Path(toml_env), "shelldon.toml")
    cmdline = kernel_cmdline(
        ["systemd.wants=shelldon-selftest.service", "systemd.show_status=1", MASK_GETTY,
         "shelldon.selftest=security"]
    )  # fmt: skip
    lines = Boot(card.path, OUT / "imagetest-security.log", cmdline, net=True).selftest()
    for ln in lines:
        if ln.startswith("selftest security "):
            log(ln.removeprefix("selftest "))
    card.path.unlink(missing_ok=True)


def field_only(image: Path) -> None:
    sys.path.insert(0, str(REPO / "tests"))
    card = Card.flash(image, OUT / "imagetest-card.img")
    card.put(MEASURE_SCRIPT, MEASURE_SCRIPT.name)
    toml_env = os.environ.get("SHELLDON_BOOT_TOML")
    if toml_env:
        card.put(Path(toml_env), "shelldon.toml")
    started = time.monotonic()
    lines = selftest_boot(card.path, "first", [])
    console = (OUT / "imagetest-first.log").read_text(errors="replace").splitlines()
    watchdog_as_shipped(lines, console)
    field_phases(card, random.Random(os.environ.get("SHELLDON_POWERCUT_SEED")))
    card.path.unlink(missing_ok=True)
    log(f"image-test field: PASS in {time.monotonic() - started:.0f} s")


def watchdog_only(image: Path) -> None:
    """Phase 1 (its figures: boot, start ratios, memory, the watchdog armed as shipped) on a fresh
    card, then phase 8 on it."""
    sys.path.insert(0, str(REPO / "tests"))
    toml_env = os.environ.get("SHELLDON_BOOT_TOML")
    started = time.monotonic()
    card = first_boot(image, Path(toml_env) if toml_env else None)
    watchdog_phase(card, history_rows(card))
    card.path.unlink(missing_ok=True)
    log(f"image-test watchdog: PASS in {time.monotonic() - started:.0f} s")


def all_phases(image: Path) -> None:
    sys.path.insert(0, str(REPO / "tests"))
    toml_env = os.environ.get("SHELLDON_BOOT_TOML")
    toml = Path(toml_env) if toml_env else None
    rng = random.Random(os.environ.get("SHELLDON_POWERCUT_SEED"))
    started = time.monotonic()
    # Resuming on the card an earlier run left: "drill" (phases 2-4) or "check" (the checks of
    # phase 3 and phase 4; the acknowledged turns from the drill boots' serial logs).
    resume = os.environ.get("SHELLDON_IMAGETEST_RESUME", "")
    if resume:
        card = Card.open(OUT / "imagetest-card.img")
        log(f"resuming ({resume}) with {card.path}")
    else:
        card = first_boot(image, toml)
    acked = acked_in_logs() if resume == "check" else powercut_drill(card, KILLS, rng)
    if not acked:
        raise Failed("the drill acknowledged no turn")
    if resume != "check":
        lines = selftest_boot(card.path, "after-drill", ["shelldon.selftest=backup"])
        need(lines, r"^selftest ok   backup onto FAT", "backup")
    rc, out = card.fsck(fix=False)
    if rc != 0:
        raise Failed(f"the root does not check clean after the drill:\n{out[-800:]}")
    log("after the drill: the root checks clean (e2fsck -fn)")
    remembers(card, acked, "after the power cuts")
    backup = OUT / "imagetest-backup.tar"
    card.get("shelldon-backup.tar", backup)
    new = Card.flash(image, OUT / "imagetest-newcard.img")
    new.put(MEASURE_SCRIPT, MEASURE_SCRIPT.name)
    if toml is not None:
        new.put(toml, "shelldon.toml")
    new.put(backup, "shelldon-backup.tar")
    size = backup.stat().st_size
    log(f"upgrade: a freshly flashed card with the old card's backup ({size} bytes)")
    lines = selftest_boot(new.path, "upgraded", ["shelldon.selftest=restore"])
    need(lines, r"^selftest ok   restore ", "restore")
    remembers(new, acked, "the upgraded card")
    card.path.unlink(missing_ok=True)
    field_phases(new, rng)  # the upgraded card, with the old card's memory on it
    new.path.unlink(missing_ok=True)
    log(f"image-test: PASS in {time.monotonic() - started:.0f} s")


def one_boot(image: Path, log_path: Path) -> None:
    card = Card.flash(image, OUT / "boottest-copy.img")
    toml_env = os.environ.get("SHELLDON_BOOT_TOML")
    if toml_env:
        card.put(Path(toml_env), "shelldon.toml")
    try:
        cmdline = kernel_cmdline(
            ["systemd.wants=shelldon-selftest.service", "systemd.show_status=1", MASK_GETTY]
        )
        Boot(card.path, log_path, cmdline).selftest()
    finally:
        card.path.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    image = Path(argv[1]) if len(argv) > 1 else OUT / "shelldon-arm64.img"
    if not image.exists():
        print(f"imagetest: no image at {image}: run `just image` first", file=sys.stderr)
        return 1
    missing = [t for t in ("qemu-system-aarch64", "mcopy", "debugfs") if not shutil.which(t)]
    if missing:
        print(f"imagetest: {', '.join(missing)} missing: run `image/deps.sh test`", file=sys.stderr)
        return 1
    try:
        if what == "all":
            all_phases(image)
        elif what == "first":  # phase 1 alone
            sys.path.insert(0, str(REPO / "tests"))
            toml_env = os.environ.get("SHELLDON_BOOT_TOML")
            card = first_boot(image, Path(toml_env) if toml_env else None)
            card.path.unlink(missing_ok=True)
        elif what == "field":
            field_only(image)
        elif what == "watchdog":
            watchdog_only(image)
        elif what == "security":  # needs the host's network
            security_run(image)
        elif what == "boot":
            one_boot(image, Path(argv[2]) if len(argv) > 2 else OUT / "boot.log")
        else:
            print(
                "usage: imagetest.py all|first|field|watchdog|security|boot [IMG [LOG]]",
                file=sys.stderr,
            )
            return 2
    except Failed as exc:
        log(f"FAIL: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
