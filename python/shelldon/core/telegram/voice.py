"""What the owner is told about a voice note the pet could not hear (docs/telegram.md, "Voice
notes"). The broker's poller downloads and transcribes only the paired chat's notes; it sends core
the words, or a `wire.VoiceFailure` code, and core answers with one of these lines (no turn).

A note that was not heard is not retried by the pet: the owner is asked to send it again or type
it. The note itself stays in the owner's chat, and a transcriber that is back answers the next
one; keeping audio to retry later would mean keeping the owner's voice on the pet.
"""

from __future__ import annotations

from shelldon.contracts.wire import VoiceFailure

HOW_TO_TURN_ON = (
    "I can't listen to voice notes yet: my owner can name a transcriber in shelldon.toml "
    '([voice] transcribe = "<an openai-kind provider>", see docs/telegram.md). Could you type it?'
)
AGAIN_OR_TYPE = "Could you send it again in a minute, or type it?"


def _length(seconds: int) -> str:
    if seconds >= 86_400:  # no note is: a duration a broken update claimed
        return "more than a day"
    if seconds < 90:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60:02d} s"


def not_heard(reason: VoiceFailure | str, seconds: int) -> str:
    """The one reply to a voice note that did not become words."""
    if reason in ("", "off"):
        return HOW_TO_TURN_ON
    if reason == "too_long":
        return (
            f"That voice note is {_length(seconds)} long, longer than I listen to "
            "([voice] max_seconds). Could you split it, or type it?"
        )
    if reason == "too_big":
        return "That file is larger than I listen to ([voice] max_bytes). Could you type it?"
    if reason == "corrupt":
        return "I couldn't play that voice note (the file looks damaged). " + AGAIN_OR_TYPE
    if reason == "silent":
        return "I heard no words in that voice note. " + AGAIN_OR_TYPE
    if reason == "no_key":
        return (
            "I can't listen right now: my transcriber's key is missing or refused "
            "(`shelldon doctor` says which). Could you type it?"
        )
    if reason == "download":
        return "Telegram would not give me that voice note. " + AGAIN_OR_TYPE
    why = {
        "unreachable": "my transcriber can't be reached",
        "slow": "my transcriber did not answer in time",
        "busy": "my transcriber is busy (rate-limited)",
        "server": "my transcriber is failing",
    }.get(reason, "my transcriber failed")
    return f"I couldn't listen to that voice note: {why}. " + AGAIN_OR_TYPE
