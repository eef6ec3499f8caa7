"""The shapes of a Telegram message that carry more than its words: what the poller reads from them
before the update goes to core (transport.telegram's `inbound_of`).

- A link whose visible words hide its address (a `text_link` entity: "my bank" pointing at
  evil.example): the address is written after the words, "my bank (link: https://…)", so the pet
  sees what the owner's phone hides.
- A quote block (`blockquote`, `expandable_blockquote`): words the owner set apart as quoted, so
  someone else's; the message is relayed (contracts.relayed), from `QUOTE_ORIGIN`.
- A reply to someone else's words (a forwarded message, a message another chat quoted through
  `external_reply` and `quote`): those words reach the turn first, framed as theirs, then the
  owner's. A reply to the owner's own message or to the pet's adds nothing (the history has it).
- An update of a kind that is not a message (`kind_of`, for the poller's log line).

Offsets in entities count UTF-16 code units, as the Bot API counts them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

QUOTE_ORIGIN = "a quote"
MAX_LINK_CHARS = 300
QUOTE_KINDS = ("blockquote", "expandable_blockquote")

RelayedFrom = Callable[[dict[str, Any], int | None], str | None]


def _entities(entities: Any) -> list[dict[str, Any]]:
    """The well-formed entities (offset and length non-negative ints), others passed over."""
    if not isinstance(entities, list):
        return []
    kept = []
    for item in entities:
        if not isinstance(item, dict):
            continue
        offset, length = item.get("offset"), item.get("length")
        if (
            isinstance(offset, int)
            and isinstance(length, int)
            and not isinstance(offset, bool)
            and not isinstance(length, bool)
            and offset >= 0
            and length > 0
        ):
            kept.append(item)
    return kept


def with_links(text: str, entities: Any) -> str:
    """`text` with the address of each `text_link` written after its visible words, unless the
    words already show it."""
    links = [e for e in _entities(entities) if e.get("type") == "text_link"]
    if not links:
        return text
    try:
        units = text.encode("utf-16-le", "surrogatepass")
    except UnicodeError:
        return text
    for entity in sorted(links, key=lambda e: int(e["offset"]) + int(e["length"]), reverse=True):
        url = entity.get("url")
        end = (int(entity["offset"]) + int(entity["length"])) * 2
        if not isinstance(url, str) or end > len(units):
            continue
        url = " ".join(url.split())[:MAX_LINK_CHARS]
        shown = units[int(entity["offset"]) * 2 : end].decode("utf-16-le", "replace")
        if not url or url in shown:
            continue
        units = units[:end] + f" (link: {url})".encode("utf-16-le", "surrogatepass") + units[end:]
    return units.decode("utf-16-le", "surrogatepass")


def quoted_block(text: str, entities: Any) -> bool:
    """Does the owner's message hold a quote block (words they set apart as someone else's)?"""
    return bool(text.strip()) and any(e.get("type") in QUOTE_KINDS for e in _entities(entities))


def _quote_text(message: dict[str, Any]) -> str:
    quote = message.get("quote")  # the part of the replied message the owner quoted
    text = quote.get("text") if isinstance(quote, dict) else None
    return text.strip() if isinstance(text, str) else ""


def _words(message: dict[str, Any]) -> str:
    for key in ("text", "caption"):
        value = message.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def replied_to(
    message: dict[str, Any], sender_id: int | None, relayed_from: RelayedFrom
) -> tuple[str, str] | None:
    """(whose, words) when the message replies to someone else's words; None for a reply to the
    owner's own message or the pet's, and for no reply at all."""
    external = message.get("external_reply")  # a message of another chat, quoted here
    if isinstance(external, dict):
        whose = relayed_from({"forward_origin": external.get("origin")}, sender_id)
        words = _quote_text(message)
        if whose is not None and words:
            return whose, words
        return None
    replied = message.get("reply_to_message")
    if not isinstance(replied, dict):
        return None
    whose = relayed_from(replied, sender_id)  # a forwarded message, or an inline bot's
    author = replied.get("from")
    if whose is None and isinstance(author, dict) and author.get("is_bot") is not True:
        author_id = author.get("id")
        if author_id != sender_id:  # another person's message (a group's)
            whose = relayed_from({"forward_from": author}, sender_id)
    words = _quote_text(message) or _words(replied)
    if whose is None or not words:
        return None
    return whose, words


def kind_of(update: Any) -> str:
    """The Update's kind (`callback_query`, `business_message`…), for a log line."""
    if isinstance(update, dict):
        for key in update:
            if key != "update_id" and isinstance(key, str):
                return key[:40]
    return "empty"
