"""Long encoded runs that are not credentials (payloads.py): inline media and base64 of prose
pass the secret screen; base64 of a key, of binary, or of prose holding a key does not."""

from __future__ import annotations

import base64
import random
import string

import pytest

from shelldon.core import gate
from shelldon.core.gate.payloads import decoded_prose, inline_media


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _random_key(rng: random.Random, length: int = 40) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(length))


def test_an_inline_image_is_content_not_a_key() -> None:
    rng = random.Random(5)
    payload = _b64(bytes(rng.randrange(256) for _ in range(60)))
    text = f"The avatar is data:image/png;base64,{payload} for the chat."
    assert inline_media(text, text.index(payload))
    assert gate.find_secrets(text) == []
    # The same bytes without a media type (or with a text one) are a credential-shaped run.
    assert gate.find_secrets(f"The value is {payload} for the chat.")
    assert gate.find_secrets(f"The value is data:text/plain;base64,{payload} ok.")


@pytest.mark.parametrize(
    "prose",
    [
        "The garden party moved to Saturday afternoon at four.",
        "Quarterly numbers look fine and the team is happy with them.",
    ],
)
def test_base64_of_prose_passes(prose: str) -> None:
    encoded = _b64(prose.encode())
    assert decoded_prose(encoded) == prose
    assert gate.find_secrets(f"Attachment preview: {encoded}") == []


def test_base64_of_a_key_or_of_prose_holding_a_key_is_refused() -> None:
    rng = random.Random(11)
    for _ in range(20):
        key = _random_key(rng)
        for raw in (key, f"the api token for the build server is {key} keep it safe"):
            text = f"Note: {_b64(raw.encode())}"
            assert gate.find_secrets(text), raw
    binary = _b64(bytes(rng.randrange(256) for _ in range(48)))
    assert decoded_prose(binary) is None
    assert gate.find_secrets(f"blob {binary}")
