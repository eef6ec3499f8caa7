"""Every field, every split: the safety screen over all the strings an op carries, and over the
places where pieces of text meet.

A model that knows the content is screened puts a key in an entry's name, its `depends_on` or
an episode's tags (which land in front matter, in entry terms and in episodes.md's headings), or
cuts the key (or an instruction) in halves across two ops of a turn, or across turns, each half
harmless alone. So:

- `op_fields(op)` lists every string an op carries, by field; `screen_fields` screens each one
  as content is screened, then the fields joined (a key cut between the name and the content).
- `screen_junctions(piece, recent)` screens where the new piece meets each of the last accepted
  pieces (both orders, glued and with a space, and runs of up to three short pieces glued), so
  a split secret or instruction is refused when its halves meet; a provider's key in three or
  four parts, one to each of the last writes that carry a key-like run (read with spelling,
  spacing and look-alikes undone), is found by gluing those runs (`gate.glued`), and a seed
  phrase in parts by gluing their runs of listed words. A hit must cross a junction: what
  either piece holds alone was screened already. Bounded: the caller keeps the last
  `RECENT_PIECES` accepted pieces, and only the `JUNCTION_CHARS` either side of a junction
  are read. What a piece holds alone is a pure function of its text: a caller that screens
  turn after turn against the same recent pieces keeps it in one `PieceFacts` (asked once per
  piece while the piece is recent, not once per field, per join and per turn).

Pure functions, like the rest of the gate; core.memory keeps the recent pieces.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shelldon.contracts.ops import (
    CaptureLearning,
    LogEpisode,
    Merge,
    Remember,
    Remind,
    RewriteAbout,
    RewriteSummary,
)
from shelldon.core.gate.glued import MAX_GLUED, fragments, prefixed_crossing
from shelldon.core.gate.rules import instruction_rules
from shelldon.core.gate.screen import (
    Refusal,
    find_secrets,
    instruction_rules_hit,
    instruction_verdict,
    screen_text,
    undisguised,
)
from shelldon.core.gate.seed_words import SEED_RULE_ID, seed_phrases, seed_word_runs

RECENT_PIECES = 8
JUNCTION_CHARS = 160
# A piece this short may sit in the middle of a run of three (a key in three fragments).
SHORT_PIECE = 80
# The fewest listed words a piece must run to carry part of a seed phrase.
SEED_PART = 3
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True, slots=True)
class FieldRefusal:
    """Which field (or "joined fields", or "split across writes") made the op unsafe, and why."""

    field: str
    refusal: Refusal


def op_fields(op: object) -> list[tuple[str, str]]:
    """Every string `op` carries, as (field, text); the content first."""
    fields: list[tuple[str, str]] = []
    if isinstance(op, Remember):
        fields += [("content", op.content), ("name", op.name)]
        fields += [(f"depends_on[{i}]", path) for i, path in enumerate(op.depends_on)]
    elif isinstance(op, LogEpisode):
        fields.append(("content", op.content))
        fields += [(f"tags[{i}]", tag) for i, tag in enumerate(op.tags)]
    elif isinstance(op, RewriteAbout | RewriteSummary):
        fields.append(("content", op.content))
    elif isinstance(op, CaptureLearning):
        fields.append(("observation", op.observation))
        if op.pattern_key:
            fields.append(("pattern_key", op.pattern_key))
    elif isinstance(op, Merge):
        fields.append(("content", op.content))
        fields += [(f"sources[{i}]", source) for i, source in enumerate(op.sources)]
    elif isinstance(op, Remind):
        fields.append(("text", op.text))
    return fields


def screen_fields(
    fields: Sequence[tuple[str, str]], *, skip: Iterable[str] = ()
) -> FieldRefusal | None:
    """Each field screened as content is (except those in `skip`, screened by the caller
    already), then all of them joined: glued, for a key cut between two fields, and with
    spaces, for an instruction."""
    skipped = set(skip)
    for name, text in fields:
        if name in skipped or not text.strip():
            continue
        refusal = screen_text(text)
        if refusal is not None:
            return FieldRefusal(name, refusal)
    texts = [text for _, text in fields if text.strip()]
    if len(texts) > 1:
        refusal = _crossing(texts)
        if refusal is not None:
            return FieldRefusal("joined fields", refusal)
    return None


def screen_junctions(
    piece: str, recent: Sequence[str], facts: PieceFacts | None = None
) -> FieldRefusal | None:
    """A secret or an instruction that only appears where `piece` meets a recent piece.
    `facts`: what each piece holds alone, kept by the caller across screens (None: a fresh one
    for this screen; the verdict is the same either way)."""
    if not piece.strip():
        return None
    alone = facts if facts is not None else PieceFacts()  # each piece is in up to 3 joins
    for other in reversed(recent):
        for pair in ((other, piece), (piece, other)):
            refusal = _crossing(list(pair), alone)
            if refusal is not None:
                return FieldRefusal("split across writes", refusal)
    # Three fragments: the newest two recent pieces and this one, when the middle one is short.
    if len(recent) >= 2 and len(recent[-1]) <= SHORT_PIECE:
        refusal = _crossing([recent[-2], recent[-1], piece], alone)
        if refusal is not None:
            return FieldRefusal("split across writes", refusal)
    # A provider's key in three or four parts, one to each of the newest writes and this one,
    # whatever else the writes say: the last run of the first, the one run of each between, the
    # first run of this one.
    # Writes that carry no key-like run between them ("Mia likes tea.") do not part the chain.
    carriers = [other for other in recent if alone.runs(other)]
    for count in range(3, MAX_GLUED + 1):
        if len(carriers) < count - 1:
            break
        rule_id = _chained([*carriers[-(count - 1) :], piece], alone)
        if rule_id is not None:
            return FieldRefusal("split across writes", _secret_refusal(rule_id))
    return None


def _chained(pieces: list[str], alone: PieceFacts) -> str | None:
    runs = [alone.runs(piece) for piece in pieces]
    if not runs[0] or not runs[-1] or any(len(middle) != 1 for middle in runs[1:-1]):
        return None
    return prefixed_crossing([runs[0][-1], *(middle[0] for middle in runs[1:-1]), runs[-1][0]])


def _secret_refusal(rule_id: str) -> Refusal:
    return Refusal(
        code="secret",
        rule_ids=(rule_id,),
        message=(
            f"looks like a credential cut into pieces (rule {rule_id}); "
            "memory never keeps secrets, whole or in parts"
        ),
    )


class PieceFacts:
    """What each piece holds by itself (secrets, key-like runs, instruction rules), asked once
    per piece across one screen's many joins, and across screens for a caller that keeps it
    (docs/performance.md, "CPU per turn"). Keyed by the exact text: the answers are the pure
    screen's. `keep` bounds it to the pieces still in use."""

    def __init__(self) -> None:
        self._secrets: dict[str, bool] = {}
        self._runs: dict[str, list[str]] = {}
        self._rules: dict[str, list[str]] = {}
        self._seed: dict[str, list[str]] = {}

    def has_secret(self, piece: str) -> bool:
        found = self._secrets.get(piece)
        if found is None:
            found = self._secrets[piece] = bool(find_secrets(piece))
        return found

    def runs(self, piece: str) -> list[str]:
        """The piece's key-like runs that are not a key by themselves, read with its disguise
        undone (a part spelled "golf hotel papa ..." or spaced out is a run too)."""
        found = self._runs.get(piece)
        if found is None:
            runs = fragments(undisguised(piece))
            found = self._runs[piece] = [r for r in runs if not find_secrets(r)]
        return found

    def seed_parts(self, piece: str) -> list[str]:
        """The piece's runs of SEED_PART or more listed words when they make up two thirds of
        its words (a part of a seed phrase, with a label: "more words: worth useful ..."; prose
        runs a few listed words inside a sentence)."""
        found = self._seed.get(piece)
        if found is None:
            runs = [piece[s:e] for s, e in seed_word_runs(piece, SEED_PART)]
            words = len(_WORD.findall(piece))
            listed = sum(len(_WORD.findall(run)) for run in runs)
            found = self._seed[piece] = runs if listed * 3 >= words * 2 else []
        return found

    def rules(self, piece: str) -> list[str]:
        found = self._rules.get(piece)
        if found is None:
            found = self._rules[piece] = instruction_rules_hit(piece)
        return found

    def keep(self, pieces: Iterable[str]) -> None:
        """Forget every piece but these (the caller's recent pieces)."""
        kept = set(pieces)
        for memo in (self._secrets, self._runs, self._rules, self._seed):
            for piece in [p for p in memo if p not in kept]:
                del memo[piece]

    def __len__(self) -> int:
        return len(
            self._secrets.keys() | self._runs.keys() | self._rules.keys() | self._seed.keys()
        )


def _crossing(pieces: list[str], alone: PieceFacts | None = None) -> Refusal | None:
    """A credential or instruction in the pieces joined that lies across a junction."""
    alone = alone if alone is not None else PieceFacts()
    # Joined with a space: the gate's own views rejoin a key cut into chunks.
    joined, junctions = _join(pieces, " ")
    if not any(alone.has_secret(piece) for piece in pieces):
        for hit in find_secrets(joined):
            # Across a junction, or a value that starts one: its label ("wifi-pass") ends the
            # piece before (a tag, then a tag; a name, then the content).
            if any(hit.start < at < hit.end or hit.start == at for at in junctions):
                return _secret_refusal(hit.rule_id)
    # The key-like runs of neighbouring pieces glued: halves inside sentences.
    # (A run that is a key by itself is the screen's to refuse, in its own field.)
    runs = [alone.runs(piece) for piece in pieces]
    for left, right in itertools.pairwise(runs):
        for a in left:
            for b in right:
                for hit in find_secrets(a + b):
                    if hit.start < len(a) < hit.end:
                        return _secret_refusal(hit.rule_id)
    # A seed phrase in parts, each part introduced by its own words ("words: legal winner ...",
    # "more words: worth useful ..."): the last run of listed words of each piece but the last,
    # and the first of the last, glued.
    parts = [alone.seed_parts(piece) for piece in pieces]
    if all(parts) and not any(alone.has_secret(piece) for piece in pieces):
        glued = " ".join([*(p[-1] for p in parts[:-1]), parts[-1][0]])
        if seed_phrases(glued):
            return _secret_refusal(SEED_RULE_ID)
    # Instructions: a strong rule that fires on the pieces joined and on none alone. Weak
    # families from different pieces ("from now on, call me Sam" beside "act as a tutor") are
    # two facts, not one instruction.
    verdict = instruction_verdict(instruction_rules_hit(joined))
    if verdict:
        held: set[str] = set()
        for piece in pieces:
            held.update(alone.rules(piece))
        strong = {r.id for r in instruction_rules().values() if r.strength == "strong"}
        verdict = tuple(r for r in verdict if r in strong and r not in held)
    if verdict:
        return Refusal(
            code="instruction",
            rule_ids=verdict,
            message=(
                f"reads like instructions aimed at the assistant once its pieces meet "
                f"(rule {', '.join(verdict)}), not something to remember"
            ),
        )
    return None


def _join(pieces: list[str], separator: str) -> tuple[str, list[int]]:
    """The pieces joined, each trimmed to JUNCTION_CHARS around its junctions (a middle piece
    kept whole when short), and where each junction falls in the result."""
    parts: list[str] = []
    junctions: list[int] = []
    length = 0
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        text = piece.strip()
        if index == 0:
            text = text[-JUNCTION_CHARS:]
        elif index == last:
            text = text[:JUNCTION_CHARS]
        elif len(text) > SHORT_PIECE:
            text = text[:JUNCTION_CHARS] + " " + text[-JUNCTION_CHARS:]
        if index:
            parts.append(separator)
            length += len(separator)
            junctions.append(length)
        parts.append(text)
        length += len(text)
    return "".join(parts), junctions
