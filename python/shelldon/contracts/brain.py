"""What a worker sends the broker's provider chain, and what comes back.

The prompt travels as ordered sections (the binding order of worker.prompt) so an HTTP provider
can render them into its wire format and the offline brain can read them without parsing prose.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from shelldon.contracts.languages import OwnerLanguages

SectionKind = Literal[
    "system",  # SYSTEM_INSTRUCTION
    "directive",  # DIRECTIVE.md, the owner's constitution
    "about",  # about.md
    "summary",  # summary.md, shown as "# Conversation so far"
    "memory",  # ranked curated entries (full, titles, count of the rest)
    "recent",  # the recent window, oldest -> newest
    "recall",  # FTS recall, de-duplicated against the window
    "dream",  # the dream directive built by core (pending learnings with ids)
    "checkin",  # a check-in: the pet speaks first (core's note on the silence)
    "reflect",  # a reflection: the digest of a turn of real work (contracts.digest.render_digest)
    "time",  # the owner's local time and zone (shelldon.contracts.localtime)
    "message",  # the current owner message, always last
]


class PromptSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: SectionKind
    text: str


class CompletionRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    purpose: Literal["turn", "dream", "checkin", "reflect"]
    sections: tuple[PromptSection, ...]
    max_reply_chars: int = 4000
    # What the owner writes in, learned from their messages: the reply check refuses a reply in
    # a language they never used (contracts.languages). None: not known (a dream, the doctor).
    owner_languages: OwnerLanguages | None = None

    def rendered(self) -> str:
        """The whole prompt as one text, sections in order (what a single-message provider gets)."""
        return "\n\n".join(s.text for s in self.sections if s.text)


class Usage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class LinkFailure(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One provider of the chain that did not answer a turn (or was skipped), log-safe: core tells
    the owner in plain words (core.status.links) and `shelldon status` shows the latest.

    `kind` is a ProviderError kind (connect, timeout, rate_limited, server, client, malformed),
    "auth" (the key was refused: 401/403), "no_key" (its vault entry is not stored yet, so the
    broker skipped it) or "cooldown"."""

    provider: str
    kind: str
    status: int | None = None  # the HTTP status, when there was one
    detail: str = ""  # short, scrubbed: never a key, a prompt or a reply body


class BrainReply(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The owner-facing text and the raw proposed ops (decoded one by one by core)."""

    text: str
    ops: tuple[Any, ...] = ()
    provider: str = ""
    usage: Usage | None = None
    dropped: tuple[str, ...] = ()  # reasons the reply parser dropped parts, for the audit log
    failures: tuple[LinkFailure, ...] = ()  # providers before this one that did not answer
