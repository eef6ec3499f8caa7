"""Voice notes through the real pet (`shelldon run`: the poller in the broker, core, workers), a
fake Bot API playing the owner's phone (getFile, the file download, sendVoice) and a fake OpenAI
audio server transcribing (the multipart request parsed as a server parses it). The notes are real
OGG/Opus, spoken by espeak-ng and encoded by opusenc in the test."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.fake_audio import FakeAudio
from fakes.fake_telegram import FakeTelegram
from shelldon.core.telegram.chat import REFUSAL
from shelldon.core.telegram.state import heard_echo
from shelldon.core.telegram.voice import not_heard
from shelldon.core.vault import set_secret
from shelldon.paths import DataRoot
from support.audio import need_tools, note, read_ogg
from support.pet import Pet, running_pet
from support.telegram import OWNER, STRANGER, configure, pair, turns

STT_KEY = "sk-fakeSttKey0123456789abcdef"
SISTER = "my sister is called Ana"


def _voice_config(
    audio: FakeAudio, *, speak: str = "", timeout: float = 3.0, reminders: bool = False
) -> str:
    return (
        "\n[[provider]]\n"
        'name = "stt"\n'
        'kind = "openai"\n'
        f'base_url = "{audio.base_url}"\n'
        'model = "whisper"\n'
        'key = "stt_key"\n'
        "chat = false\n"
        f"timeout = {timeout}\n"
        "retries = 0\n"
        "\n[voice]\n"
        'transcribe = "stt"\n'
        'transcribe_model = "whisper-large-v3-turbo"\n'
        "max_seconds = 120\n"
        "max_bytes = 200000\n"
        f'speak = "{speak}"\n'
        f"speak_reminders = {'true' if reminders else 'false'}\n"
    )


@pytest.fixture
def audio_server() -> Iterator[FakeAudio]:
    with FakeAudio(key=STT_KEY) as server:
        yield server


@pytest.fixture(scope="module")
def sister_note() -> bytes:
    return note(SISTER)


def _pet(fake: FakeTelegram, audio: FakeAudio, **settings: object) -> Iterator[Pet]:
    root = configure(fake, extra=_voice_config(audio, **settings))  # type: ignore[arg-type]
    set_secret(root.vault, "stt_key", STT_KEY)
    with running_pet() as pet:
        pair(pet, fake)
        yield pet


@pytest.fixture
def voice_pet(run_dir: Path, fake: FakeTelegram, audio_server: FakeAudio) -> Iterator[Pet]:
    yield from _pet(fake, audio_server)


def _voice_rows(root: DataRoot) -> list[tuple[str, str, int]]:
    """(owner's words, kind, seconds) of every turn history marks as a voice note."""
    conn = sqlite3.connect(f"{root.history_db.as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT m.content, v.kind, v.seconds FROM voice_notes v "
            "JOIN messages m ON m.turn_id = v.turn_id AND m.role = 'owner' ORDER BY m.id"
        ).fetchall()
    finally:
        conn.close()


def _new(fake: FakeTelegram, sent: int, count: int) -> list[str]:
    """The messages sent to the owner after the first `sent`, once there are `count` of them."""
    assert fake.wait_until(lambda f: len(f.sent_to(OWNER)) >= sent + count), fake.sent_to(OWNER)
    return fake.sent_to(OWNER)[sent:]


def _files_holding(root: DataRoot, needle: bytes) -> list[Path]:
    return [
        path
        for path in root.home.rglob("*")
        if path.is_file() and not path.is_symlink() and needle in path.read_bytes()
    ]


def test_a_note_is_answered_like_the_typed_words_and_recalled_by_text(
    voice_pet: Pet, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    audio_server.knows(sister_note, "My sister is called Ana.")
    sent = len(fake.sent_to(OWNER))
    fake.voice(OWNER, sister_note, 2)
    heard, reply = _new(fake, sent, 2)
    assert heard == heard_echo("My sister is called Ana.")
    (request,) = audio_server.requests
    assert request.sha256 == hashlib.sha256(sister_note).hexdigest()  # the note, byte for byte
    assert request.fields["model"] == "whisper-large-v3-turbo"
    assert ("owner", "My sister is called Ana.") in turns(voice_pet.root)
    assert ("pet", reply) in turns(voice_pet.root)
    assert _voice_rows(voice_pet.root) == [("My sister is called Ana.", "voice", 2)]

    # The same words typed get the same kind of answer from the same brain: it learnt them.
    fake.text(OWNER, "/memory")
    memory = _new(fake, sent, 3)[2]
    assert "1. sister (people)" in memory
    fake.text(OWNER, "what is my sister called?")
    answer = _new(fake, sent, 4)[3]
    assert "Ana" in answer
    assert len(_voice_rows(voice_pet.root)) == 1  # the typed turn is not a voice note

    # The audio was never written to the data root, and never logged; nor were its words.
    assert _files_holding(voice_pet.root, b"OpusHead") == []
    assert _files_holding(voice_pet.root, sister_note[-48:-16]) == []  # coded audio
    assert "sister is called" not in voice_pet.log.lower()
    assert STT_KEY not in voice_pet.log
    assert fake.voices == []  # speak is off: text replies only


def test_a_forwarded_note_is_heard_as_someone_elses_words(
    voice_pet: Pet, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    """A voice note the owner forwarded is someone else's voice (contracts.relayed): its words
    are a turn marked with their origin, and nothing in it is filed as the owner's."""
    audio_server.knows(sister_note, "My sister is called Ana.")
    sent = len(fake.sent_to(OWNER))
    anna = {"forward_origin": {"type": "hidden_user", "date": 1, "sender_user_name": "Anna"}}
    fake.voice(OWNER, sister_note, 2, origin=anna)
    _new(fake, sent, 2)
    said = "[forwarded from Anna] My sister is called Ana."
    assert ("owner", said) in turns(voice_pet.root)
    assert _voice_rows(voice_pet.root) == [(said, "voice", 2)]
    fake.text(OWNER, "/memory")
    assert "sister" not in _new(fake, sent, 3)[2]


def test_a_strangers_note_is_refused_unheard(
    voice_pet: Pet, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    fake.voice(STRANGER, sister_note, 2)
    fake.voice(STRANGER, sister_note, 2, kind="audio", mime_type="audio/ogg")
    fake.voice(OWNER, sister_note, 2, user_id=STRANGER)  # someone else in the owner's chat
    assert fake.wait_until(lambda f: REFUSAL in f.sent_to(STRANGER))
    last = fake.text(STRANGER, "hello?")
    assert fake.wait_until(
        lambda f: any(c.payload.get("offset", 0) > last for c in f.calls_of("getUpdates"))
    )
    assert fake.calls_of("getFile") == [] and fake.downloads == []  # never fetched
    assert audio_server.requests == []  # never transcribed
    assert fake.sent_to(STRANGER) == [REFUSAL]
    assert fake.sent_to(OWNER)[1:] == []  # not answered in the owner's chat either
    assert _voice_rows(voice_pet.root) == []


def test_notes_over_the_caps_are_refused_and_the_owner_told(
    voice_pet: Pet, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    sent = len(fake.sent_to(OWNER))
    fake.voice(OWNER, sister_note, 121)  # over max_seconds = 120: not even getFile
    fake.voice(OWNER, sister_note, 2, file_size=300_000)  # the update says it is over max_bytes
    assert _new(fake, sent, 2) == [not_heard("too_long", 121), not_heard("too_big", 2)]
    assert fake.calls_of("getFile") == [] and fake.downloads == []
    # A file larger than it claimed: the download stops at the cap.
    big = note("one two three", pad_seconds=60, noise=True, bitrate=32)
    assert len(big) > 200_000
    fake.voice(OWNER, big, 61, file_size=1000)
    assert _new(fake, sent, 3)[2] == not_heard("too_big", 61)
    assert audio_server.requests == []
    assert _voice_rows(voice_pet.root) == []


def test_a_note_whose_numbers_no_wire_carries_is_told_and_the_phone_still_reaches_the_pet(
    voice_pet: Pet, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    """Before: a duration past 64 bits went into the update core records, which could not be
    sent; the poll failed on that update at every poll, and the owner was cut off."""
    sent = len(fake.sent_to(OWNER))
    fake.voice(OWNER, sister_note, 10**30)
    fake.voice(OWNER, sister_note, 2, file_size=10**30)
    assert _new(fake, sent, 2) == [not_heard("too_long", 2**31 - 1), not_heard("too_big", 2)]
    assert "more than a day" in not_heard("too_long", 2**31 - 1)
    fake.text(OWNER, "are you still there?")
    assert len(_new(fake, sent, 3)) == 3
    assert fake.calls_of("getFile") == [] and audio_server.requests == []
    assert "Traceback" not in voice_pet.log


def test_a_corrupt_note_is_told_and_nothing_is_kept(
    voice_pet: Pet, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    sent = len(fake.sent_to(OWNER))
    fake.voice(OWNER, b"ID3\x04 this is not an ogg stream" * 10, 3)  # a voice note must be OGG
    assert _new(fake, sent, 1) == [not_heard("corrupt", 3)]
    assert audio_server.requests == []  # refused before the transcriber
    damaged = sister_note[:4] + bytes(64) + sister_note[68:]  # OggS, then the OpusHead wiped
    fake.voice(OWNER, damaged, 2, kind="audio", file_name="memo.ogg")
    assert _new(fake, sent, 2)[1] == not_heard("corrupt", 2)
    assert [r.filename for r in audio_server.requests] == ["audio.ogg"]  # the server refused it
    assert _voice_rows(voice_pet.root) == []
    # The pet goes on: a typed message is answered.
    fake.text(OWNER, "hello again")
    assert len(_new(fake, sent, 3)) == 3


def test_a_transcriber_down_or_slow_is_told_and_the_next_note_is_heard(
    run_dir: Path, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    for pet in _pet(fake, audio_server, timeout=2.0):
        sent = len(fake.sent_to(OWNER))
        audio_server.down()
        fake.voice(OWNER, sister_note, 2)
        assert _new(fake, sent, 1) == [not_heard("unreachable", 2)]
        audio_server.up()
        audio_server.hold()
        fake.voice(OWNER, sister_note, 2)
        assert _new(fake, sent, 2)[1] == not_heard("slow", 2)
        audio_server.release()
        audio_server.knows(sister_note, "My sister is called Ana.")
        fake.voice(OWNER, sister_note, 2)  # sent again, as the owner was asked: heard now
        replies = _new(fake, sent, 4)
        assert replies[2] == heard_echo("My sister is called Ana.")
        assert _voice_rows(pet.root) == [("My sister is called Ana.", "voice", 2)]
        pet.wait_for_log("voice: transcriber stt failed: timeout")


def test_with_speak_offline_the_reply_is_also_a_real_voice_note(
    run_dir: Path, fake: FakeTelegram, audio_server: FakeAudio, sister_note: bytes
) -> None:
    for _pet_running in _pet(fake, audio_server, speak="offline"):
        audio_server.knows(sister_note, "My sister is called Ana.")
        sent = len(fake.sent_to(OWNER))
        fake.voice(OWNER, sister_note, 2)
        _heard, reply = _new(fake, sent, 2)
        assert fake.wait_until(lambda f: len(f.voices) == 1), fake.voices
        (spoken,) = fake.voices
        assert spoken["chat_id"] == OWNER and spoken["filename"] == "reply.ogg"
        assert spoken["content_type"] == "audio/ogg"
        ogg = read_ogg(spoken["data"])
        assert ogg.head.startswith(b"OpusHead") and ogg.head[8:10] == b"\x01\x01"  # v1, mono
        assert len(ogg.serials) == 1 and ogg.seconds > 0.5
        # A typed message gets text only.
        fake.text(OWNER, "hello there")
        _new(fake, sent, 3)
        assert len(fake.voices) == 1 and reply


def test_reminders_are_spoken_when_the_owner_asks_for_it(
    run_dir: Path, fake: FakeTelegram, audio_server: FakeAudio
) -> None:
    need_tools()  # no note is made here, but the pet's own voice needs espeak-ng and opusenc
    for pet in _pet(fake, audio_server, speak="offline", reminders=True):
        assert pet.say("remind me in 2 seconds to stretch").startswith("Okay, I'll remind you")
        assert fake.wait_until(lambda f: "Reminder: stretch" in f.sent_to(OWNER))
        assert fake.wait_until(lambda f: len(f.voices) == 1), fake.voices
        assert read_ogg(fake.voices[0]["data"]).seconds > 0.3
