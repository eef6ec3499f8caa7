"""Real voice notes for the tests: espeak-ng speaks a sentence as WAV, opusenc makes it the OGG/Opus
stream Telegram's voice notes are; and a reader of OGG pages to check what the pet sent.

espeak-ng and opus-tools are Debian packages: under CI as root they are installed through
image/deps.sh (as strace is); elsewhere a test that needs them is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOLS = ("espeak-ng", "opusenc")


def need_tools() -> None:
    """Skip (with the reason) unless espeak-ng and opusenc are there; CI installs them."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing and os.environ.get("CI") == "true" and os.geteuid() == 0:
        subprocess.run([str(REPO / "image" / "deps.sh"), "check"], check=True)
        missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (apt install espeak-ng opus-tools)")


def speak_wav(
    text: str, *, voice: str = "en", pad_seconds: float = 0.0, noise: bool = False
) -> bytes:
    need_tools()
    wav = subprocess.run(
        ["espeak-ng", "-v", voice, "--stdin", "--stdout"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout
    if pad_seconds:
        wav = pad_wav(wav, pad_seconds, noise=noise)
    return wav


def pad_wav(wav: bytes, seconds: float, *, noise: bool = False) -> bytes:
    """`wav` with `seconds` of silence (or of white noise: a street) after it."""
    channels, rate, bits = struct.unpack_from("<HIxxxxxxH", wav, 22)
    at = wav.index(b"data") + 8
    size = int(seconds * rate) * channels * (bits // 8)
    silence = os.urandom(size) if noise else b"\0" * size
    data = wav[at:] + silence
    header = bytearray(wav[:at])
    struct.pack_into("<I", header, 4, len(header) - 8 + len(data))
    struct.pack_into("<I", header, at - 4, len(data))
    return bytes(header) + data


def note(text: str, *, pad_seconds: float = 0.0, noise: bool = False, bitrate: int = 24) -> bytes:
    """`text` spoken, as a real OGG/Opus voice note."""
    wav = speak_wav(text, pad_seconds=pad_seconds, noise=noise)
    return subprocess.run(
        ["opusenc", "--quiet", "--bitrate", str(bitrate), "-", "-"],
        input=wav,
        capture_output=True,
        check=True,
    ).stdout


@dataclass(frozen=True)
class OggOpus:
    packets: list[bytes]
    serials: set[int]
    last_granule: int

    @property
    def head(self) -> bytes:
        return self.packets[0]

    @property
    def seconds(self) -> float:
        """From the last granule position (48 kHz) less the pre-skip OpusHead gives."""
        pre_skip = struct.unpack_from("<H", self.head, 10)[0]
        return (self.last_granule - pre_skip) / 48_000


def read_ogg(data: bytes) -> OggOpus:
    """Parse OGG pages (RFC 3533) into packets; raises ValueError on anything that is not one."""
    packets: list[bytes] = []
    serials: set[int] = set()
    granule = 0
    at = 0
    partial = b""
    while at < len(data):
        if data[at : at + 4] != b"OggS":
            raise ValueError(f"no OggS capture pattern at byte {at}")
        version, _flags, granule_pos, serial, _seq, _crc, count = struct.unpack_from(
            "<BBqIIIB", data, at + 4
        )
        if version != 0:
            raise ValueError("unknown OGG version")
        serials.add(serial)
        lacing = data[at + 27 : at + 27 + count]
        body = at + 27 + count
        for size in lacing:
            partial += data[body : body + size]
            body += size
            if size < 255:
                packets.append(partial)
                partial = b""
        if granule_pos >= 0:
            granule = granule_pos
        at = body
    if not packets or not packets[0].startswith(b"OpusHead"):
        raise ValueError("the first packet is not OpusHead")
    if len(packets) < 2 or not packets[1].startswith(b"OpusTags"):
        raise ValueError("the second packet is not OpusTags")
    return OggOpus(packets, serials, granule)
