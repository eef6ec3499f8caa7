"""How an owner's "no, that's wrong" reaches the learnings of the turn before.

core.turn.apply tells the ledger about every owner turn (`note_turn`); the Dreamer asks it which
pending learnings the owner corrected (`is_corrected`) and holds those back: a corrected learning
is never offered, never promoted, and core prunes it inside the dream's unit. An owner rule
against a learning ("never call me Bobby") holds it back the same way (`rule_contradicts`).
"""

from __future__ import annotations

import logging
import os
import re
import threading
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import msgspec

from shelldon import _native
from shelldon.contracts import relayed
from shelldon.contracts.ops import CaptureLearning
from shelldon.core.learning.pending import PendingLearning
from shelldon.core.storage import layout
from shelldon.core.words import content_words
from shelldon.paths import CORRECTIONS

log = logging.getLogger(__name__)


# An owner message that says the pet got something wrong. Kept short and literal: a false
# positive only keeps a learning from being promoted; it never deletes anything.
_CORRECTION = re.compile(
    r"(?:^|[.!?]\s+)no+[,.!]?\s+(?:that'?s|that is|it'?s|it is)\s+(?:wrong|not\b)"
    r"|\b(?:that'?s|that is|you'?re|you are|this is)\s+(?:wrong|not (?:true|right|correct))"
    r"|\b(?:not true|incorrect|i never said|i didn'?t say|i did not say)\b"
    r"|\b(?:don'?t|do not) (?:remember|keep|learn|store) that\b"
    r"|\bforget (?:that|it)\b",
    re.IGNORECASE,
)
_NEGATIVE_RULE = re.compile(r"^\s*(?:never|don'?t|do not|stop|no more|avoid)\b", re.IGNORECASE)


def detect_correction(owner_text: str) -> bool:
    """Does the owner say the pet got something wrong? Never in someone else's words the owner
    passed on (contracts.relayed): a forwarded "that's wrong" is about another conversation."""
    if relayed.passed_on(owner_text):
        return False
    return bool(_CORRECTION.search(unicodedata.normalize("NFKC", owner_text)))


def rule_contradicts(rule_text: str, observation: str) -> bool:
    """An owner rule against a learning: a negative rule ("never …", "don't …") that names what
    the learning is about (at least two of its content words, or all of the rule's)."""
    negation = _NEGATIVE_RULE.search(rule_text)
    if not negation:
        return False
    rule_words = content_words(rule_text[negation.end() :])
    shared = rule_words & content_words(observation)
    return len(shared) >= 2 or (bool(rule_words) and shared == rule_words)


class _Captured(msgspec.Struct, frozen=True):
    pattern_key: str | None
    observation: str


class _CorrectionState(msgspec.Struct):
    version: int = 1
    previous_turn: str = ""
    previous: list[_Captured] = msgspec.field(default_factory=list)
    keys: list[str] = msgspec.field(default_factory=list)
    observations: list[str] = msgspec.field(default_factory=list)


def _norm_observation(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class CorrectionLedger:
    """Learnings the owner corrected. A correction marks the learnings the previous turn captured
    (by pattern key, else by observation text), so a recurrence of the same key stays corrected
    even after the dream pruned it and capture put it back to pending. Kept in
    `state/corrections.json`, bounded (oldest forgotten first)."""

    MAX_MARKS = 500

    def __init__(self, state_dir: Path) -> None:
        self._path = Path(state_dir) / CORRECTIONS
        self._lock = threading.Lock()
        self._state = self._load()

    def _load(self) -> _CorrectionState:
        try:
            return msgspec.json.decode(self._path.read_bytes(), type=_CorrectionState)
        except FileNotFoundError:
            return _CorrectionState()
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
            log.warning("correction ledger unreadable (%s); starting empty", exc)
            return _CorrectionState()

    def _save(self, *, durable: bool = True) -> None:
        """Atomically replace the file. `durable=False` skips the two fsyncs: for a change of
        `previous` alone, which a power cut may lose at no cost (the next correction would not
        reach the learnings of the turn before the cut); the marks are always written durably."""
        layout.ensure_dir(self._path.parent, layout.DIR_MODE)
        data = msgspec.json.encode(self._state)
        if durable:
            _native.atomic_write(self._path, data, layout.FILE_MODE)
            return
        # Named like the Rust writer's temp files, so a kill's leftover is swept at start.
        temp = self._path.with_name(f".{self._path.name}{_native.TEMP_MARKER}{os.getpid()}-0")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, layout.FILE_MODE)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temp, layout.FILE_MODE)  # the umask may have narrowed it
        os.replace(temp, self._path)

    def note_turn(self, turn_id: str, owner_text: str, captured: Iterable[CaptureLearning]) -> int:
        """After an owner turn: mark the previous turn's learnings if this message corrects the
        pet, then remember this turn's. Returns how many learnings were marked."""
        with self._lock:
            marked = 0
            state = self._state
            if detect_correction(owner_text):
                for item in state.previous:
                    if item.pattern_key and item.pattern_key not in state.keys:
                        state.keys.append(item.pattern_key)
                        marked += 1
                    elif not item.pattern_key:
                        norm = _norm_observation(item.observation)
                        if norm and norm not in state.observations:
                            state.observations.append(norm)
                            marked += 1
                del state.keys[: max(0, len(state.keys) - self.MAX_MARKS)]
                del state.observations[: max(0, len(state.observations) - self.MAX_MARKS)]
                if marked:
                    log.info("owner correction in %s marks %d learning(s)", turn_id, marked)
            previous = [_Captured(_blank_key(op.pattern_key), op.observation) for op in captured]
            # Written only when it changed: most turns capture nothing after a turn that captured
            # nothing, and a rewrite costs two fsyncs (docs/performance.md).
            if marked or previous != state.previous:
                state.previous_turn = turn_id
                state.previous = previous
                self._save(durable=bool(marked))
            return marked

    def is_corrected(self, item: PendingLearning) -> bool:
        with self._lock:
            if item.pattern_key and _blank_key(item.pattern_key) in self._state.keys:
                return True
            return _norm_observation(item.observation) in self._state.observations


def _blank_key(key: str | None) -> str | None:
    return key.strip() or None if key else None
