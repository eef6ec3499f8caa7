"""A reply in the pet's voice: text in, one OGG/Opus voice note out (bytes in memory).

- `OfflineVoice` (`[voice] speak = "offline"`): Debian's espeak-ng speaks the text as WAV on its
  stdout, opusenc (opus-tools) encodes that stdin to OGG/Opus on its stdout. Both run as
  subprocesses joined by a pipe; the text goes in on stdin (never on a command line another user
  could read in /proc), nothing touches the disk.
- `ProviderVoice` (`speak = "<provider>"`): the OpenAI-compatible `POST {base_url}/audio/speech`
  with `{"model", "input", "voice", "response_format": "opus"}`, answered with the audio itself
  (OGG/Opus), with the provider's key, timeouts and response cap.

Either raises `SpeechFailed` (log-safe): the reply has already gone as text, so a voice that fails
costs the owner nothing but the voice.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable
from typing import Protocol

from shelldon.broker.providers import read_api_key
from shelldon.broker.providers.base import ProviderError
from shelldon.broker.providers.http import post_json, raise_for_status
from shelldon.contracts.config import ProviderConfig

OGG_MAGIC = b"OggS"
OFFLINE_TIMEOUT_S = 60.0  # a 600-character reply takes ~1 s on x86, ~15 s on a Pi Zero 2 W
OPUS_BITRATE_KBPS = 24  # speech; Telegram's own voice notes are about 30 kbit/s
MAX_SPEECH_BYTES = 8 * 1024 * 1024


class SpeechFailed(Exception):
    pass


class Voice(Protocol):
    def speak(self, text: str) -> bytes: ...


def missing_offline_tools() -> list[str]:
    return [tool for tool in ("espeak-ng", "opusenc") if shutil.which(tool) is None]


class OfflineVoice:
    def __init__(self, voice: str = "en", *, timeout: float = OFFLINE_TIMEOUT_S) -> None:
        self.voice = voice
        self.timeout = timeout

    def speak(self, text: str) -> bytes:
        missing = missing_offline_tools()
        if missing:
            raise SpeechFailed(
                f"{' and '.join(missing)} not installed (Debian: apt install espeak-ng opus-tools)"
            )
        espeak = subprocess.Popen(
            ["espeak-ng", "-v", self.voice, "--stdin", "--stdout"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        opus = subprocess.Popen(
            ["opusenc", "--quiet", "--bitrate", str(OPUS_BITRATE_KBPS), "-", "-"],
            stdin=espeak.stdout,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert espeak.stdin is not None and espeak.stdout is not None
        espeak.stdout.close()  # opusenc holds the pipe now: espeak-ng sees SIGPIPE if it exits

        def feed() -> None:
            try:
                assert espeak.stdin is not None
                espeak.stdin.write(text.encode("utf-8"))
                espeak.stdin.close()
            except (BrokenPipeError, OSError):
                pass

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            audio, errors = opus.communicate(timeout=self.timeout)
            espeak.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            for process in (espeak, opus):
                process.kill()
                process.wait()
            raise SpeechFailed(f"espeak-ng/opusenc took over {self.timeout:.0f} s") from None
        finally:
            feeder.join(timeout=1.0)
        if espeak.returncode != 0 or opus.returncode != 0:
            detail = errors.decode("utf-8", "replace").strip()[:160]
            raise SpeechFailed(
                f"espeak-ng exited {espeak.returncode}, opusenc {opus.returncode}: {detail}"
            )
        if not audio.startswith(OGG_MAGIC):
            raise SpeechFailed("opusenc wrote no OGG stream")
        return audio


class ProviderVoice:
    def __init__(
        self,
        spec: ProviderConfig,
        *,
        model: str,
        voice: str,
        read_secret: Callable[[str], str | None],
    ) -> None:
        self.spec = spec
        self.model = model
        self.voice = voice
        self.read_secret = read_secret

    def speak(self, text: str) -> bytes:
        spec = self.spec
        try:
            key = read_api_key(spec, self.read_secret)
        except Exception as exc:  # MissingKey, ConfigError: log-safe messages
            raise SpeechFailed(str(exc)) from None
        headers = {**spec.headers, "Accept": "audio/ogg, */*"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        secrets = (key,) if key else ()
        payload = {"model": self.model, "input": text, "voice": self.voice}
        payload["response_format"] = "opus"
        try:
            response = post_json(
                f"{spec.base_url}/audio/speech",
                payload,
                headers,
                timeout=spec.timeout,
                connect_timeout=spec.connect_timeout,
                max_bytes=MAX_SPEECH_BYTES,
                secrets=secrets,
            )
            raise_for_status(response, secrets)
        except ProviderError as exc:
            raise SpeechFailed(f"{spec.name}: {exc}") from None
        if not response.body.startswith(OGG_MAGIC):
            raise SpeechFailed(f"{spec.name}: the answer is not OGG/Opus audio")
        return response.body
