"""Stage directions a small model writes around its words, taken off (broker.weak_text.scrub
calls `without_directions` after the frames are off; docs/brain.md, "Stage directions and talk
about the prompt").

A role-played chat teaches a model to act as well as speak: "(smiles warmly) Ana is a lovely
name!", "*wags tail*", "[laughs]", "_nods slowly_", "**beams**". The owner reads the pet's words,
never its script's directions, so a direction is removed and the words kept; a reply that is
only directions is left empty, and the chain asks the next provider (the offline brain last).

A direction is read as a class, by where it stands and what it says, never by a list of replies:
- it stands apart: in parentheses, square brackets, asterisks (one or two) or underscores, at
  the reply's start or end or between two sentences (after a sentence's end or a line break, and
  before the next sentence or the end); an aside inside a sentence ("Add salt [to taste] and
  stir", "a *really* lovely name", "Porto (where Ana lives)") is the words themselves;
- it says an action, not a sentence: at most ten words, no digit, no "?", "!" or ":" (a note,
  "(Optional: lemon.)", "**Tip:**"), no first person as its subject ("(I'm kidding.)" is the
  pet talking; "*curls up in my shell*" is a direction);
- and it names a gesture or a sound (`GESTURES`, by stem: "smiles", "Smiling", "giggles",
  "happy beeping noises"), a manner alone ("[softly]", "(warmly)"), a voice ("(in a cheerful
  voice)", "(with a grin)"), a body's part or the owner after an action word ("taking the
  owner's hand"), or a verb in the third person, lower-case, alone or with a person after it
  ("*salutes*", "(tucks you in)").
"""

from __future__ import annotations

import re

from shelldon.core.words import stem

# Body language and sounds, by their stems (`core.words.stem`: "smiles", "Smiling" and "smile"
# meet): what a direction acts out.
GESTURES: frozenset[str] = frozenset(
    stem(word)
    for word in re.findall(
        r"\S+",
        """
        smile grin laugh giggle chuckle snicker nod wink hug sigh purr wag blush shrug clap pause
        whisper beam gasp lean tilt wave bounce hop jump snuggle cuddle nuzzle yawn stretch blink
        squeal chirp beep boop whir meow woof bark hum cheer sniff pout frown cough gulp spin
        wiggle curl scurry scuttle peek glance gaze stare noise sound dance salute kiss
        """,
    )
)
# A manner said alone, as a direction for the voice: "[softly]", "(warmly)".
MANNERS: frozenset[str] = frozenset(
    re.findall(
        r"\S+",
        """
        softly warmly gently quietly happily excitedly cheerfully playfully sadly nervously shyly
        proudly sleepily brightly eagerly thoughtfully tenderly fondly sheepishly dreamily
        curiously enthusiastically slowly loudly wistfully knowingly teasingly
        """,
    )
)
# What a direction acts on, after an action word: "taking the owner's hand", "wagging its tail".
_BODY = frozenset(
    re.findall(
        r"\S+",
        """
        hand hands head tail paw paws ear ears eye eyes shoulder shoulders arm arms nose shell
        claws claw feet foot whiskers owner owner's
        """,
    )
)
_THIRD_PERSON = re.compile(r"[a-z]{2,}[^su'’\W]s")
_PERSONS = frozenset({"you", "your", "his", "her", "its", "their", "my", "me", "them", "him"})
_VOICES = frozenset({"voice", "tone", "whisper", "smile", "grin", "wink", "laugh", "sigh"})
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we'll"})
_MAX_WORDS = 10

# One aside: its opener, its words, its closer (a markdown link's `[text](url)` is not one).
_ASIDE = re.compile(
    r"\((?P<p>[^()\n]{1,120})\)"
    r"|\[(?P<b>[^\[\]\n]{1,120})\](?!\()"
    r"|\*\*(?P<s2>[^*\n]{1,120})\*\*"
    r"|\*(?P<s1>[^*\n]{1,120})\*"
    r"|(?<![\w_])_(?P<u>[^_\n]{1,120})_(?![\w_])"
)
_WORD = re.compile(r"[\w'’]+")
_NOT_ACTION = re.compile(r"[\d?!:;]")
_SENTENCE_END = ".!?…\n"
_CLOSING_QUOTES = "\"'”’»)"
# What may follow a direction: the end, a line break, the next sentence, or its own stop.
_AFTER_OK = re.compile(r"[ \t]*(?:\n|\Z|[A-Z\"“'‘¡¿(*\[_])|[.!?…]")
_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
_STRAY_STOP = re.compile(r"\A[ \t]*[.,]")  # "(smiles). Hi" leaves ". Hi"


def without_directions(text: str) -> tuple[str, int]:
    """`text` without its stage directions (see the module's docstring), and how many there
    were. The spaces around one are closed up, and a stop it left alone is dropped."""
    pieces: list[str] = []
    pos = 0
    last_end = -1
    for match in _ASIDE.finditer(text):
        words = next(g for g in match.groups() if g is not None)
        if not (_stands_apart(text, match, last_end) and is_direction(words)):
            continue
        pieces.append(text[pos : match.start()])
        pos = last_end = match.end()
    if not pieces:
        return text, 0
    pieces.append(text[pos:])
    joined = pieces[0].rstrip(" \t")
    for piece in pieces[1:]:
        if not joined.strip() or joined.rstrip()[-1] in _SENTENCE_END:
            piece = _STRAY_STOP.sub("", piece)
        piece = piece.strip(" \t") if piece.strip(" \t") else ""
        if joined and piece and not joined[-1].isspace() and piece[0] not in ".!?…,":
            joined += " "
        joined += piece
    return _BLANK_LINES.sub("\n\n", joined).strip(), len(pieces) - 1


def _stands_apart(text: str, match: re.Match[str], last_end: int) -> bool:
    """At the start, after a sentence's end, a line break or another direction; before the end,
    a line break or the next sentence."""
    before = text[: match.start()].rstrip(" \t")
    apart = (
        not before
        or len(before) == last_end
        or before[-1] in _SENTENCE_END
        or (len(before) > 1 and before[-1] in _CLOSING_QUOTES and before[-2] in _SENTENCE_END)
    )
    return apart and _AFTER_OK.match(text, match.end()) is not None


def is_direction(words: str) -> bool:
    """Do the words inside an aside say an action (a gesture, a sound, a manner, a voice)?"""
    words = words.strip().rstrip(".").strip()
    if not words or _NOT_ACTION.search(words):
        return False
    said = [w.casefold().replace("’", "'") for w in _WORD.findall(words)]
    if not said or len(said) > _MAX_WORDS or any(w in _FIRST_PERSON for w in said):
        return False
    stems = [stem(w) for w in said]
    if said[0] in MANNERS:
        rest = stems[1:]
        return not rest or any(s in GESTURES for s in rest)
    if stems[0] in GESTURES or (len(stems) > 1 and said[0].endswith("ly") and stems[1] in GESTURES):
        return True
    if said[0] in ("in", "with") and len(said) >= 3 and said[1] in ("a", "an"):
        return any(w in _VOICES for w in said[2:])
    addressed = any(w in ("you", "your", "you're") for w in said)
    if not addressed and any(s in GESTURES for s in stems):
        return True
    acting = said[0].endswith(("ing", "s")) and len(said) > 1
    if acting and any(w in _BODY for w in said[1:]):
        return True
    # A verb in the third person, lower-case, alone or with a person after it ("*salutes*",
    # "(tucks you in)"); "Notes", "(takes a while)" are not one.
    first = words.split()[0]
    verb = first.islower() and _THIRD_PERSON.fullmatch(first) is not None
    return verb and (len(said) == 1 or said[1] in _PERSONS)
