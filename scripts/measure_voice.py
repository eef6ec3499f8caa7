#!/usr/bin/env python3
"""Figures for docs/telegram.md, "Voice notes": what a voice note costs against the same words
typed, through the real pet and the offline brain.

    .venv/bin/python scripts/measure_voice.py            (options: --rounds 10 --long 60)

`shelldon run --no-chat` against the fake Bot API and the fake OpenAI audio server of tests/fakes
on 127.0.0.1; the notes are real OGG/Opus made by espeak-ng and opusenc (tests/support/audio.py).
Printed:
- note -> reply and typed message -> reply (from the update reaching the Bot API to the reply's
  sendMessage), median and max over `--rounds` each, and their ratio;
- the broker's peak RSS (VmHWM, reset through /proc/PID/clear_refs before each case) while it
  handles one typed message and one `--long`-second note (speech, then street noise, at 32 kbit/s:
  larger than a real Telegram note of that length);
- bytes each process of the pet had written to storage (/proc/PID/io write_bytes) for one
  typed turn and for one voice turn, and whether any file of the data root holds the audio.
Needs root for clear_refs (else the peak is the process's since start) and espeak-ng, opus-tools.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "scripts"))

from measure_telegram import OWNER, Pet, start  # noqa: E402

from fakes.fake_audio import FakeAudio  # noqa: E402
from fakes.fake_telegram import FakeTelegram  # noqa: E402
from support.audio import note  # noqa: E402

PROCESSES = ("core", "broker", "forkserver")


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def reset_peak(pid: int) -> bool:
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def written(pid: int) -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0


def replies(fake: FakeTelegram) -> int:
    return len(fake.sent_to(OWNER))


def timed(fake: FakeTelegram, send: object, count: int) -> float:
    """ms from the update to the sendMessage that completes `count` new messages."""
    before = replies(fake)
    pushed = time.monotonic()
    send()  # type: ignore[operator]
    assert fake.wait_until(lambda f: replies(f) >= before + count, 120), fake.sent_to(OWNER)[-3:]
    return (fake.calls_of("sendMessage")[-1].at - pushed) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--long", type=int, default=60)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="voice-figures-", dir="/var/tmp"))
    # New facts of the same shape, typed and spoken: the same work for the brain and the memory
    # (saying a typed sentence again would only confirm what the pet already keeps).
    sentences = [f"my favourite colour number {n} is green" for n in range(args.rounds)]
    spoken = [f"my favourite fruit number {n} is a pear" for n in range(args.rounds)]
    notes = [note(s) for s in spoken]
    long_note = note("this is a long note", pad_seconds=args.long - 1, noise=True, bitrate=32)
    with FakeTelegram() as fake, FakeAudio(key="sk-measureKey0123456789") as audio:
        for data, said in zip(notes, spoken, strict=True):
            audio.knows(data, said)
        audio.knows(long_note, "this is a long note")
        config = (
            f'[telegram]\napi_base = "{fake.api_base}"\npoll_timeout = 5\n'
            f'[[provider]]\nname = "stt"\nkind = "openai"\nbase_url = "{audio.base_url}"\n'
            'model = "whisper"\nkey = "stt_key"\nchat = false\n'
            '[voice]\ntranscribe = "stt"\nmax_seconds = 300\n'
        )
        pet: Pet = start(workdir, "pet", config, fake.token, {})
        from shelldon.core.vault import set_secret
        from shelldon.paths import DataRoot

        set_secret(DataRoot(pet.home).vault, "stt_key", "sk-measureKey0123456789")
        assert fake.wait_until(lambda f: bool(f.calls_of("getUpdates")), 60)
        code = pet.cli("telegram", "pair").split("/pair ")[1].split()[0]
        fake.text(OWNER, f"/start {code}")
        assert fake.wait_until(lambda f: replies(f) == 1, 60)
        pids = {name: pet.pid(name) for name in PROCESSES}
        broker = pids["broker"]

        typed_ms, voice_ms = [], []
        typed_bytes: list[int] = []
        voice_bytes: list[int] = []

        def core_written() -> int:
            return written(pids["core"])

        for n in range(args.rounds):  # alternate, so both see the same warm pet
            mark = core_written()
            typed_ms.append(timed(fake, lambda s=sentences[n]: fake.text(OWNER, s), 1))
            typed_bytes.append(core_written() - mark)
            mark = core_written()
            voice_ms.append(
                timed(fake, lambda d=notes[n]: fake.voice(OWNER, d, 3), 2)  # echo + reply
            )
            voice_bytes.append(core_written() - mark)

        cleared = reset_peak(broker)
        base_rss = status_kib(broker, "VmRSS")
        before = {name: written(pid) for name, pid in pids.items()}
        timed(fake, lambda: fake.text(OWNER, "my sister is called Ana"), 1)
        typed_peak = status_kib(broker, "VmHWM")
        typed_io = {name: written(pid) - before[name] for name, pid in pids.items()}

        reset_peak(broker)
        before = {name: written(pid) for name, pid in pids.items()}
        timed(fake, lambda: fake.voice(OWNER, long_note, args.long), 2)
        voice_peak = status_kib(broker, "VmHWM")
        voice_io = {name: written(pid) - before[name] for name, pid in pids.items()}
        holding = [
            str(p.relative_to(pet.home))
            for p in pet.home.rglob("*")
            if p.is_file() and long_note[-48:-16] in p.read_bytes()
        ]
        after_rss = status_kib(broker, "VmRSS")
        pet.stop()

    def summary(values: list[float]) -> str:
        return f"median {statistics.median(values):.0f} ms, max {max(values):.0f} ms"

    print(f"typed -> reply ({args.rounds}): {summary(typed_ms)}")
    print(f"voice note -> reply ({args.rounds}, 3 s notes): {summary(voice_ms)}")
    print(f"ratio of medians: {statistics.median(voice_ms) / statistics.median(typed_ms):.2f}")
    print(f"the {args.long} s note: {len(long_note)} bytes")
    peak = "VmHWM since the reset" if cleared else "VmHWM since start (not root)"
    print(f"broker RSS before: {base_rss / 1024:.1f} MiB; after: {after_rss / 1024:.1f} MiB")
    print(f"broker peak, one typed turn: {typed_peak / 1024:.1f} MiB ({peak})")
    print(f"broker peak, the {args.long} s note: {voice_peak / 1024:.1f} MiB ({peak})")
    print(
        f"core's write_bytes per turn, median of {args.rounds}: typed "
        f"{statistics.median(typed_bytes):,.0f}, voice {statistics.median(voice_bytes):,.0f}"
    )
    print(f"  typed: {typed_bytes}\n  voice: {voice_bytes}")
    print(f"bytes written, typed turn: {typed_io}")
    print(f"bytes written, voice turn: {voice_io}")
    print(f"files of the data root holding the audio: {holding or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
