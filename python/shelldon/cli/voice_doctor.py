"""`shelldon doctor`'s voice lines: the `[voice]` transcribers (each sent half a second of silence,
a real OGG/Opus stream, through the same client a voice note uses) and the voice replies
(`speak = "offline"`: are espeak-ng and opusenc installed; a provider: its key is there).
With `--offline` nothing is contacted."""

from __future__ import annotations

import base64
import shutil
import time
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import msgspec

from shelldon.contracts.config import SPEAK_OFFLINE

if TYPE_CHECKING:
    from shelldon.appliance.doctor import CheckResult, DoctorContext

# 0.5 s of silence at 16 kHz, encoded by opusenc (zlib, base64): what a transcriber is sent as a
# probe. Whisper-family servers answer it with "" or a word or two; any 200 with JSON text is fine.
SILENCE_OGG = zlib.decompress(
    base64.b64decode(
        "eNrzT08PZmBigIJjhrwcIPpjh1Qto7B/QWmxR2piCiOjBWODHViBP0g5A7JyRiD9efaLcub///+BNIQkphfLA8VyMp"
        "PygVwFQz1jPUMdBSg3NS9ZwUDPSM8QZKUyELv6Ofu7uAbZwiTTivJzFUAc3ZL8/JxikGJphLJ4/4AQT3+/YFtd3aTM"
        "kqLEklQFM4ZRMAoGHoBzBsuPOETOACXxnZm3S6TY2XABDu5n1sqrEzg41mzmOzbYSAC5UnSk"
    )
)


def check_voice(ctx: DoctorContext) -> Iterator[CheckResult]:
    from shelldon.appliance.doctor import CheckResult, recording_reader

    if not ctx.config_ok or ctx.config is None:
        return
    config = ctx.config
    voice = config.voice
    by_name = {spec.name: spec for spec in config.providers}
    if not voice.transcribers:
        yield CheckResult("ok", "voice", "off: voice notes get how to turn them on ([voice])")
    for name in voice.transcribers:
        spec = by_name[name]
        spec = msgspec.structs.replace(spec, retries=0, timeout=min(ctx.timeout, spec.timeout))
        label = f"voice {name}"
        if not ctx.network:
            yield CheckResult("skip", label, "not contacted (--offline)")
            continue
        from shelldon.broker.transcribe import Audio, TranscribeFailed, Transcriber

        transcriber = Transcriber(
            (spec,), model=voice.transcribe_model, read_secret=recording_reader(ctx)
        )
        started = time.monotonic()
        try:
            transcriber.transcribe(Audio(SILENCE_OGG, "voice.ogg", "audio/ogg"))
        except TranscribeFailed as exc:
            yield CheckResult("fail", label, f"{spec.base_url}/audio/transcriptions: {exc}")
            continue
        elapsed = (time.monotonic() - started) * 1000
        yield CheckResult(
            "ok", label, f"transcribes with {voice.transcribe_model} ({elapsed:.0f} ms)"
        )
    if voice.speak == SPEAK_OFFLINE:
        missing = [tool for tool in ("espeak-ng", "opusenc") if shutil.which(tool) is None]
        if missing:
            yield CheckResult(
                "fail",
                "voice replies",
                f"speak = offline, but {' and '.join(missing)} is not installed "
                "(apt install espeak-ng opus-tools)",
            )
        else:
            yield CheckResult("ok", "voice replies", "offline: espeak-ng and opusenc found")
    elif voice.speak:
        yield CheckResult("ok", "voice replies", f"spoken by {voice.speak} ({voice.speak_model})")
