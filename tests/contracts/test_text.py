"""contracts.text: the one sanitiser for owner text, the one message limit, argv repair."""

from __future__ import annotations

import pytest

from shelldon.contracts.text import (
    MAX_MESSAGE_BYTES,
    clean_text,
    message_size_error,
    repair_surrogates,
    small_number,
)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("call me \x1b[5mBlinky\x1b[0m", "call me Blinky"),  # CSI (SGR blink)
        ("a\x1b[2J\x1b[Hb", "ab"),  # clear screen, cursor home
        ("t\x1b]0;pwned title\x07ext", "text"),  # OSC ended by BEL
        ("\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink, ST
        ("x\x1bP1$r\x1b\\y", "xy"),  # DCS
        ("a\x1b_apc\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d", "abcd"),  # APC, PM, SOS
        ("8-bit \x9b31mred\x9d0;t\x9c!", "8-bit red!"),  # C1 CSI and OSC
        ("reset\x1bc!", "reset!"),  # RIS
        ("charset\x1b(B!", "charset!"),  # nF escape
        ("open \x1b]2;never closed", "open "),  # an unterminated OSC takes the rest with it
        ("bell\x07 nul\x00 bs\x08 del\x7f c1\x85", "bell nul bs del c1"),
        ("over\rwrite", "over\nwrite"),  # a carriage return cannot rewrite a line
        ("crlf\r\nline", "crlf\nline"),
    ],
)
def test_escape_sequences_and_controls_are_stripped(typed: str, kept: str) -> None:
    assert clean_text(typed) == kept


def test_newline_tab_and_format_characters_are_kept() -> None:
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # ZWJ sequence
    text = f"line one\n\tindented {family} zwnj\u200cok soft\u00adhyphen bidi\u200f"
    assert clean_text(text) == text


def test_clean_text_is_idempotent_on_its_own_output() -> None:
    messy = "\x1b[1mhi\x1b[0m\x9b\x1b"
    assert clean_text(clean_text(messy)) == clean_text(messy) == "hi"


def test_the_message_limit_counts_utf8_bytes() -> None:
    assert message_size_error("a" * MAX_MESSAGE_BYTES) is None
    error = message_size_error("a" * (MAX_MESSAGE_BYTES + 1))
    assert error is not None and "16,384 bytes" in error
    # 4 bytes each: fewer characters than the limit, more bytes.
    assert message_size_error("\U0001f600" * (MAX_MESSAGE_BYTES // 4 + 1)) is not None


def test_argv_bytes_that_are_not_utf8_become_replacement_characters() -> None:
    assert repair_surrogates("caf\udce9") == "caf\ufffd"  # what Python makes of b"caf\xe9"
    assert repair_surrogates("lone \ud800 high") == "lone \ufffd high"
    assert repair_surrogates("half \ud83d and \udfff") == "half \ufffd and \ufffd"
    assert repair_surrogates("caf\u00e9") == "caf\u00e9"


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        ("3", 3),
        (" 12 ", 12),
        ("٣", 3),  # Arabic-Indic: a decimal digit, a number to int()
        ("³", None),  # a digit to str.isdigit, and no number to int()
        ("9" * 30, None),  # no sqlite INTEGER
        ("", None),
        ("-1", None),
        ("1.5", None),
        ("3a", None),
    ],
)
def test_small_number_takes_decimal_digits_only_and_within_bounds(
    typed: str, number: int | None
) -> None:
    assert small_number(typed) == number


def test_small_number_keeps_to_its_bound() -> None:
    assert small_number("100", most=99) is None and small_number("99", most=99) == 99
