"""Could the pet hear voice notes with no service at all? Debian's pocketsphinx, measured.

Downloads (never installs) Debian's pocketsphinx, its English model and the libraries it needs
with `apt-get download`, unpacks them into a temporary directory, and runs
`pocketsphinx_continuous` on
- sentences an owner might say, spoken by espeak-ng (two voices) and passed through the voice-note
  path: opusenc (a Telegram voice note is OGG/Opus), then opusdec at 16 kHz (what the recogniser
  reads);
- the real recorded human speech a Debian package ships: alsa-utils' /usr/share/sounds/alsa
  ("Front Left", "Rear Center", …), through the same path.
For each: the word error rate (edit distance over the reference's words), the wall time and the
peak RSS of the recogniser. Prints one table (docs/telegram.md, "Offline speech recognition").

    .venv/bin/python scripts/offline_stt_findings.py

Needs apt-get (Debian's lists), espeak-ng and opus-tools.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PACKAGES = (
    "pocketsphinx",
    "pocketsphinx-en-us",
    "libpocketsphinx3",
    "libsphinxbase3",
    "libblas3",
    "liblapack3",
    "libgfortran5",
    "alsa-utils",
)
SENTENCES = (
    "remind me to call my sister tomorrow at nine",
    "my sister is called Ana",
    "I have a meeting with the doctor on Friday",
    "please remember that I like green tea",
    "what is the weather like today",
    "I am going to the shop to buy some bread",
    "my brother lives in Lisbon",
    "tell me a short story about a turtle",
    "I feel tired today",
    "do not forget to water the plants",
    "where did I put my keys",
    "good morning how are you",
)
ALSA = {
    "Front_Center.wav": "front center",
    "Front_Left.wav": "front left",
    "Front_Right.wav": "front right",
    "Rear_Center.wav": "rear center",
    "Rear_Left.wav": "rear left",
    "Rear_Right.wav": "rear right",
    "Side_Left.wav": "side left",
    "Side_Right.wav": "side right",
}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def wer(reference: str, heard: str) -> tuple[int, int]:
    """(edits, reference words): Levenshtein distance over words."""
    ref, hyp = words(reference), words(heard)
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r != h))
    return row[-1], len(ref)


def unpack(work: Path) -> Path:
    debs = work / "debs"
    debs.mkdir()
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=debs, check=True, capture_output=True)
    root = work / "root"
    for deb in debs.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def voice_note_16k(wav: Path, out: Path) -> None:
    """`wav` as Telegram would carry it (OGG/Opus), decoded to 16 kHz for the recogniser."""
    opus = out.with_suffix(".opus")
    subprocess.run(["opusenc", "--quiet", str(wav), str(opus)], check=True)
    subprocess.run(["opusdec", "--quiet", "--rate", "16000", str(opus), str(out)], check=True)


def recognise(root: Path, wav: Path) -> tuple[str, float, int]:
    """(what pocketsphinx heard, seconds, peak RSS in KiB of that run)."""
    arch = next((root / "usr" / "lib").glob("*-linux-gnu"))
    env = {
        **os.environ,
        "LD_LIBRARY_PATH": ":".join(str(p) for p in (arch, arch / "blas", arch / "lapack")),
    }
    model = root / "usr/share/pocketsphinx/model/en-us"
    command = [
        str(root / "usr/bin/pocketsphinx_continuous"),
        "-infile",
        str(wav),
        "-hmm",
        str(model / "en-us"),
        "-lm",
        str(model / "en-us.lm.bin"),
        "-dict",
        str(model / "cmudict-en-us.dict"),
        "-logfn",
        "/dev/null",
    ]
    wrapped = ["/usr/bin/time", "-f", "%M", *command]
    started = time.monotonic()
    done = subprocess.run(wrapped, env=env, capture_output=True, text=True, check=True)
    elapsed = time.monotonic() - started
    peak = int(done.stderr.strip().splitlines()[-1])
    return " ".join(done.stdout.split()), elapsed, peak


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        root = unpack(work)
        model_mb = (
            sum(
                p.stat().st_size
                for p in (root / "usr/share/pocketsphinx").rglob("*")
                if p.is_file()
            )
            / 2**20
        )
        rows: list[tuple[str, str, str, int, int, float, int]] = []
        for voice in ("en-us", "en"):
            for index, sentence in enumerate(SENTENCES):
                wav = work / f"{voice}-{index}.wav"
                subprocess.run(
                    ["espeak-ng", "-v", voice, "--stdin", "-w", str(wav)],
                    input=sentence.encode(),
                    check=True,
                )
                heard16 = work / f"{voice}-{index}-16k.wav"
                voice_note_16k(wav, heard16)
                heard, seconds, peak = recognise(root, heard16)
                edits, total = wer(sentence, heard)
                rows.append((f"espeak-ng {voice}", sentence, heard, edits, total, seconds, peak))
        for name, said in ALSA.items():
            heard16 = work / f"alsa-{name}"
            voice_note_16k(root / "usr/share/sounds/alsa" / name, heard16)
            heard, seconds, peak = recognise(root, heard16)
            edits, total = wer(said, heard)
            rows.append(("alsa-utils (a person)", said, heard, edits, total, seconds, peak))
        print(f"pocketsphinx model files: {model_mb:.1f} MiB")
        print("| source | said | heard | WER |")
        print("|---|---|---|---|")
        for source, said, heard, edits, total, _, _ in rows:
            print(f"| {source} | {said} | {heard or '(nothing)'} | {edits}/{total} |")
        for source in dict.fromkeys(r[0] for r in rows):
            mine = [r for r in rows if r[0] == source]
            edits = sum(r[3] for r in mine)
            total = sum(r[4] for r in mine)
            exact = sum(1 for r in mine if r[3] == 0)
            print(
                f"{source}: WER {edits / total:.0%} ({edits}/{total} words), "
                f"{exact}/{len(mine)} notes exactly right, "
                f"median {sorted(r[5] for r in mine)[len(mine) // 2]:.2f} s, "
                f"peak RSS {max(r[6] for r in mine) / 1024:.0f} MiB"
            )
        print(f"children's CPU: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
