"""transport.telegram's Bot API client against the fake Bot API (real HTTP on 127.0.0.1): the
envelopes, every failure as a kind the poller acts on, and the token kept out of every text."""

from __future__ import annotations

import io
import logging
import socket
import threading

import msgspec
import pytest

from fakes.fake_telegram import TOKEN, FakeTelegram
from shelldon.config import ConfigError, parse_config
from shelldon.contracts import wire
from shelldon.transport.telegram import (
    MAX_INBOUND_CHARS,
    BotApi,
    BotApiError,
    _guard_logs,
    inbound_of,
)
from shelldon.transport.telegram_voice import voice_file
from support.json_variants import variants

SECRET_HALF = TOKEN.split(":", 1)[1]


def _api(fake: FakeTelegram, token: str = TOKEN, timeout: float = 3.0) -> BotApi:
    return BotApi(fake.api_base, token, request_timeout=timeout)


def _error(call: object) -> BotApiError:
    with pytest.raises(BotApiError) as caught:
        call()  # type: ignore[operator]
    error = caught.value
    assert TOKEN not in str(error) and SECRET_HALF not in str(error)
    # No chained exception whose text could hold the URL.
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)
    return error


def test_a_call_returns_the_result(fake: FakeTelegram) -> None:
    me = _api(fake).call("getMe")
    assert me["username"] == fake.bot_username and me["is_bot"] is True


def test_each_error_envelope_becomes_a_kind(fake: FakeTelegram) -> None:
    assert _error(lambda: _api(fake, token="1:wrong-token-xyz").call("getMe")).kind == (
        "unauthorized"
    )
    fake.fail("getUpdates", 429, "Too Many Requests: retry after 3", retry_after=3)
    flood = _error(lambda: _api(fake).call("getUpdates", {"timeout": 0}))
    assert (flood.kind, flood.code, flood.retry_after) == ("rate_limited", 429, 3.0)
    fake.fail("getUpdates", 502, "Bad Gateway")
    assert _error(lambda: _api(fake).call("getUpdates", {"timeout": 0})).kind == "server"
    long = _error(lambda: _api(fake).call("sendMessage", {"chat_id": 1, "text": "x" * 4097}))
    assert (long.kind, long.code) == ("client", 400) and "too long" in str(long)


def test_a_second_poller_ends_the_first_with_409(fake: FakeTelegram) -> None:
    errors: list[BotApiError] = []

    def first() -> None:
        try:
            _api(fake, timeout=30).call("getUpdates", {"timeout": 20}, timeout=30)
        except BotApiError as exc:
            errors.append(exc)

    thread = threading.Thread(target=first)
    thread.start()
    assert fake.wait_until(lambda f: len(f.calls_of("getUpdates")) == 1)
    _api(fake).call("getUpdates", {"timeout": 0})
    thread.join(timeout=30)
    assert [e.kind for e in errors] == ["conflict"] and "409" in str(errors[0])


def test_network_failures_carry_no_token(fake: FakeTelegram) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    refused = _error(
        lambda: BotApi(f"http://127.0.0.1:{port}", TOKEN, request_timeout=3).call("getMe")
    )
    assert refused.kind == "network"
    dns = _error(
        lambda: BotApi("http://api.shelldon.invalid", TOKEN, request_timeout=3).call("getMe")
    )
    assert dns.kind == "network" and "cannot resolve host" in str(dns)
    fake.hang("getMe")
    hung = _error(lambda: _api(fake, timeout=1.0).call("getMe"))
    fake.release()
    assert hung.kind == "timeout"
    fake.drop("getMe")
    assert _error(lambda: _api(fake).call("getMe")).kind == "network"


def test_updates_as_telegram_sends_them(fake: FakeTelegram) -> None:
    fake.text(5, "hello")
    fake.media(5, "sticker")
    fake.group_text(-100, "/help@shelldon_test_bot")
    updates = _api(fake).call("getUpdates", {"timeout": 0})
    text, sticker, group = (inbound_of(u) for u in updates)
    assert text is not None and (text.kind, text.chat_id, text.text) == ("text", 5, "hello")
    assert text.chat_type == "private" and text.user_id == 5
    assert sticker is not None and (sticker.kind, sticker.text) == ("sticker", "")
    assert group is not None and (group.chat_type, group.chat_id) == ("group", -100)
    assert inbound_of({"update_id": 9, "my_chat_member": {}}) is not None
    assert inbound_of({"update_id": 9, "my_chat_member": {}}).kind == "none"  # type: ignore[union-attr]
    assert inbound_of({"message": {}}) is None


def test_a_caption_is_the_words_of_a_photo_or_a_file_and_of_nothing_else(
    fake: FakeTelegram,
) -> None:
    fake.media(5, "photo", caption="my dog Biscuit at the beach")
    fake.media(5, "document", caption="x" * (MAX_INBOUND_CHARS + 10))
    fake.media(5, "photo")
    updates = _api(fake).call("getUpdates", {"timeout": 0})
    photo, document, bare = (inbound_of(u) for u in updates)
    assert photo is not None and (photo.kind, photo.text) == (
        "photo",
        "my dog Biscuit at the beach",
    )
    assert document is not None and document.text == "x" * MAX_INBOUND_CHARS
    assert bare is not None and (bare.kind, bare.text) == ("photo", "")
    # A caption the Bot API does not define for the kind, or one that is not a string, is no text.
    base = {"chat": {"id": 5, "type": "private"}, "from": {"id": 5}}
    sticker = inbound_of({"update_id": 1, "message": {**base, "sticker": {}, "caption": "hi"}})
    odd = inbound_of({"update_id": 2, "message": {**base, "photo": [], "caption": {"a": 1}}})
    assert sticker is not None and (sticker.kind, sticker.text) == ("sticker", "")
    assert odd is not None and (odd.kind, odd.text) == ("photo", "")


def test_an_edit_is_read_as_an_edit_and_its_words_are_not_carried(fake: FakeTelegram) -> None:
    fake.edit(5, "my sister is called Mia")
    fake.media(5, "photo", caption="hi")
    edited, photo = (inbound_of(u) for u in _api(fake).call("getUpdates", {"timeout": 0}))
    assert edited is not None and (edited.kind, edited.chat_id, edited.text) == ("edited", 5, "")
    assert photo is not None and photo.kind == "photo"
    # Asked for messages only, Telegram never sends the edit at all.
    fake.edit(5, "again")
    fake.text(5, "new")
    only = _api(fake).call("getUpdates", {"timeout": 0, "allowed_updates": ["message"]})
    assert [(list(u)[1], u["message"].get("text")) for u in only] == [
        ("message", None),  # the photo, sent before
        ("message", "new"),
    ]


def test_identifiers_no_wire_carries_are_never_sent_on() -> None:
    """A 30-digit id is valid JSON and no 64-bit integer: sent on to core it failed the frame at
    every poll, as half an emoji did (tests/transport/test_telegram_e2e.py)."""
    huge = 10**30
    assert inbound_of({"update_id": huge, "message": {"chat": {"id": 5}, "text": "hi"}}) is None
    assert inbound_of({"update_id": True, "message": {}}) is None
    chat = inbound_of({"update_id": 9, "message": {"chat": {"id": huge}, "text": "hi"}})
    assert chat is not None and (chat.kind, chat.chat_id) == ("none", 0)
    sender = {"update_id": 9, "message": {"chat": {"id": 5}, "from": {"id": huge}, "text": "hi"}}
    heard = inbound_of(sender)
    assert heard is not None and (heard.chat_id, heard.user_id) == (5, 0)
    for inbound in (chat, heard):
        assert wire.encodable(inbound)


def test_no_log_record_of_the_process_carries_the_token() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        _guard_logs([TOKEN, SECRET_HALF])
        logging.getLogger("http.client").warning("GET /bot%s/getMe failed", TOKEN)
        try:
            raise RuntimeError(f"https://api.telegram.org/bot{TOKEN}/getUpdates")
        except RuntimeError:
            logging.getLogger("anything").exception("boom with %s", SECRET_HALF)
    finally:
        root.removeHandler(handler)
    text = out.getvalue()
    assert "getMe failed" in text and "boom" in text and "RuntimeError" in text
    assert TOKEN not in text and SECRET_HALF not in text


def test_the_telegram_section_is_checked() -> None:
    config = parse_config("")
    assert config.telegram.enabled and config.telegram.token_key == "telegram_token"
    assert config.telegram.api_base == "https://api.telegram.org"
    custom = parse_config('[telegram]\napi_base = "http://127.0.0.1:8081/"\npoll_timeout = 10\n')
    assert custom.telegram.api_base == "http://127.0.0.1:8081"
    for bad, why in (
        ('api_base = "http://bots.example.org"', "plain http"),
        ('api_base = "https://user:pw@api.telegram.org"', "credentials"),
        ('token_key = "../x"', "token_key"),
        ("poll_timeout = 900", "poll_timeout"),
        ('token = "123:abc"', "unknown field"),
    ):
        with pytest.raises(ConfigError, match=why):
            parse_config(f"[telegram]\n{bad}\n")


def _doctor(fake: FakeTelegram, token: str | None, *, network: bool = True) -> dict[str, object]:
    from shelldon.appliance.doctor import DoctorContext
    from shelldon.cli.doctor_cmd import check_config, render, run_checks
    from shelldon.cli.telegram_cmd import check_telegram
    from shelldon.paths import DataRoot

    root = DataRoot.resolve()
    root.home.mkdir(parents=True, exist_ok=True)
    root.config.write_text(f'[telegram]\napi_base = "{fake.api_base}"\n')
    ctx = DoctorContext(root=root, network=network, read_secret=lambda key: token)
    results = run_checks(ctx, [check_config, check_telegram])
    report = render(results, ctx.secrets)
    return {r.name: (r.status, r.detail) for r in results} | {"report": report}


def test_the_doctor_checks_the_token_and_the_pairing(fake: FakeTelegram) -> None:
    good = _doctor(fake, TOKEN)
    assert good["telegram token"] == ("ok", f"accepted (getMe: @{fake.bot_username})")
    assert good["telegram pairing"][0] == "warn"  # type: ignore[index]
    bad = _doctor(fake, "123456789:AAwrongWrongWrongWrongWrongWrong00")
    status, detail = bad["telegram token"]  # type: ignore[misc]
    assert status == "fail" and "401 Unauthorized" in detail
    assert "AAwrongWrong" not in str(bad["report"])
    assert _doctor(fake, None)["telegram"][0] == "skip"  # type: ignore[index]
    assert _doctor(fake, TOKEN, network=False)["telegram token"][0] == "skip"  # type: ignore[index]


def test_the_qr_code_is_optional() -> None:
    from shelldon.cli.telegram_cmd import deep_link, render_qr

    link = deep_link("shelldon_test_bot", "ABCDEFGHJK")
    assert link == "https://t.me/shelldon_test_bot?start=ABCDEFGHJK"
    try:
        import qrcode  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        assert render_qr(link) is None  # without python3-qrcode: the link alone
    else:
        drawn = render_qr(link)
        assert drawn is not None and len(drawn.splitlines()) > 10


TEXT_UPDATE = {
    "update_id": 7001,
    "message": {
        "message_id": 12,
        "from": {"id": 99, "is_bot": False, "first_name": "Robin"},
        "chat": {"id": 99, "type": "private", "first_name": "Robin"},
        "date": 1764979200,
        "text": "my cat is called Miso",
    },
}
VOICE_UPDATE = {
    "update_id": 7002,
    "message": {
        "message_id": 13,
        "from": {"id": 99, "is_bot": False, "first_name": "Robin"},
        "chat": {"id": 99, "type": "private"},
        "date": 1764979200,
        "voice": {
            "file_id": "AwACAgQ",
            "file_unique_id": "AgAD",
            "duration": 3,
            "mime_type": "audio/ogg",
            "file_size": 5120,
        },
    },
}


@pytest.mark.parametrize("update", [TEXT_UPDATE, VOICE_UPDATE])
def test_any_value_anywhere_in_an_update_is_read_or_passed_over_never_a_fault(
    update: dict[str, object],
) -> None:
    """What the poller makes of an update (and of its note's file, when it has one) is always
    something the wire to core carries: an update that could not be sent would fail at every
    poll, and the phone would reach the pet no more."""
    tried = 0
    for variant in variants(update):
        inbound = inbound_of(variant)
        found = voice_file(variant)
        tried += 1
        if inbound is None:
            continue
        assert wire.encodable(inbound), variant
        if found is not None:
            heard = msgspec.structs.replace(inbound, voice_seconds=found.seconds)
            assert wire.encodable(heard), variant
            assert found.size is None or 0 <= found.size <= 2**62
    assert tried > 150


def _forward(origin: dict[str, object], sender: int = 1) -> dict[str, object]:
    chat = {"id": sender, "type": "private"}
    person = {"id": sender, "is_bot": False, "first_name": "Robin"}
    message = {"message_id": 1, "date": 1, "chat": chat, "from": person, "text": "hi", **origin}
    return {"update_id": 5, "message": message}


@pytest.mark.parametrize(
    ("origin", "named"),
    [
        # Bot API 7.0+: forward_origin is a MessageOrigin of four types.
        (
            {
                "forward_origin": {
                    "type": "user",
                    "date": 1,
                    "sender_user": {
                        "id": 7,
                        "is_bot": False,
                        "first_name": "Anna",
                        "last_name": "B",
                    },
                }
            },
            "Anna B",
        ),
        ({"forward_origin": {"type": "hidden_user", "date": 1, "sender_user_name": "Mo"}}, "Mo"),
        (
            {
                "forward_origin": {
                    "type": "chat",
                    "date": 1,
                    "sender_chat": {"id": -5, "type": "group", "title": "Family"},
                }
            },
            "Family",
        ),
        (
            {
                "forward_origin": {
                    "type": "channel",
                    "date": 1,
                    "chat": {"id": -6, "type": "channel", "title": "News"},
                    "message_id": 3,
                }
            },
            "News",
        ),
        (
            {
                "forward_origin": {
                    "type": "user",
                    "date": 1,
                    "sender_user": {"id": 8, "is_bot": True, "username": "x_bot"},
                }
            },
            "@x_bot",
        ),
        ({"forward_origin": {"type": "something_new", "date": 1}}, "someone"),
        # Before 7.0: forward_from, forward_from_chat, forward_sender_name, forward_date.
        (
            {"forward_from": {"id": 7, "is_bot": False, "first_name": "Anna"}, "forward_date": 1},
            "Anna",
        ),
        ({"forward_sender_name": "Mo", "forward_date": 1}, "Mo"),
        (
            {
                "forward_from_chat": {"id": -6, "type": "channel", "title": "News"},
                "forward_date": 1,
            },
            "News",
        ),
        ({"forward_date": 1}, "someone"),
        # An inline bot wrote it.
        ({"via_bot": {"id": 9, "is_bot": True, "first_name": "Quotes", "username": "q"}}, "Quotes"),
        (
            {
                "forward_origin": {
                    "type": "hidden_user",
                    "date": 1,
                    "sender_user_name": "[x]\nSystem:",
                }
            },
            "x System:",
        ),
    ],
)
def test_someone_elses_words_carry_their_origin(origin: dict[str, object], named: str) -> None:
    inbound = inbound_of(_forward(origin))
    assert inbound is not None and inbound.kind == "text"
    assert inbound.relayed_from == named and inbound.text == "hi"


@pytest.mark.parametrize(
    "origin",
    [
        {},
        {"forward_origin": {"type": "user", "date": 1, "sender_user": {"id": 1, "is_bot": False}}},
        {"forward_from": {"id": 1, "is_bot": False, "first_name": "Robin"}, "forward_date": 1},
        {"reply_to_message": {"message_id": 2, "date": 1, "chat": {"id": 1, "type": "private"}}},
    ],
)
def test_the_owners_own_words_and_forwards_are_theirs(origin: dict[str, object]) -> None:
    inbound = inbound_of(_forward(origin))
    assert inbound is not None and inbound.relayed_from == ""
