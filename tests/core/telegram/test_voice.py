"""core.telegram.voice: one plain line for each reason a voice note was not heard."""

from __future__ import annotations

import typing

from shelldon.contracts.wire import VoiceFailure
from shelldon.core.telegram.state import HEARD_ECHO_CHARS, heard_echo
from shelldon.core.telegram.voice import HOW_TO_TURN_ON, not_heard


def test_every_reason_has_its_own_line() -> None:
    reasons = typing.get_args(VoiceFailure)
    lines = {reason: not_heard(reason, 42) for reason in reasons}
    assert lines["off"] == HOW_TO_TURN_ON and "[voice] transcribe" in HOW_TO_TURN_ON
    assert len(set(lines.values())) == len(reasons)  # the owner can tell them apart
    assert "42 s long" in lines["too_long"]
    assert "7 min 05 s" in not_heard("too_long", 425)
    for reason in ("slow", "unreachable", "busy", "server", "corrupt", "silent"):
        assert lines[reason].endswith("send it again in a minute, or type it?")


def test_the_echo_shows_what_was_heard_and_cuts_a_long_note() -> None:
    assert heard_echo("  call   Ana\ntomorrow ") == "I heard: “call Ana tomorrow”"
    long = heard_echo("word " * 200)
    assert long.endswith("…”") and len(long) <= HEARD_ECHO_CHARS + 20
