"""The obfuscation matrix for docs/gate.md: the report's positives, disguised, screened again.

Each transform disguises text the way a hostile model or a planted document would: letters
spaced out or separated, invisible characters between them, look-alike letters from other
scripts, leetspeak, fullwidth or small-capital letters, accents; a credential fullwidth, hex- or
base64-encoded, split into chunks or spaced out. `measure_matrix` takes the positives the gate
refuses as typed, disguises each, and counts how many it still refuses; and it disguises benign
text the same way and counts what it refuses that it should not. Used by gate_report.py.
"""

from __future__ import annotations

import base64
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from shelldon.core import gate

_WORD = re.compile(r"[A-Za-z]+")
_ZWSP = "\u200b"
_CYRILLIC = str.maketrans("aceopxyiAEOPCXHKMT", "асеорхуіАЕОРСХНКМТ")
_LEET = str.maketrans("aeiostAEIOST", "431057431057")
_SMALL_CAPS = str.maketrans("abcdefghijklmnoprstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ")
_ACCENTED = str.maketrans("aeiouAEIOU", "äëïöüÄËÏÖÜ")


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _letters_joined(sep: str) -> Callable[[str], str]:
    def join(text: str) -> str:
        return _WORD.sub(lambda m: sep.join(m.group(0)), text)

    return join


def _spaced_no_gaps(text: str) -> str:
    # Every character of each line spaced out, word breaks lost: "i g n o r e a l l".
    return "\n".join(" ".join(line.replace(" ", "")) for line in text.split("\n"))


# Transforms of instruction-shaped text: every word disguised.
INJECTION_TRANSFORMS: dict[str, Callable[[str], str]] = {
    "spaced letters": lambda t: _WORD.sub(lambda m: " ".join(m.group(0)), t.replace(" ", "   ")),
    "spaced letters, no word breaks": _spaced_no_gaps,
    "dashes between letters": _letters_joined("-"),
    "dots between letters": _letters_joined("."),
    "underscores between letters": _letters_joined("_"),
    "zero-width characters": _letters_joined(_ZWSP),
    "homoglyphs (Cyrillic)": lambda t: t.translate(_CYRILLIC),
    "leetspeak": lambda t: t.translate(_LEET),
    "fullwidth": _fullwidth,
    "small capitals": lambda t: t.lower().translate(_SMALL_CAPS),
    "accents": lambda t: t.translate(_ACCENTED),
}


def _chunks(value: str, size: int) -> str:
    return " ".join(value[i : i + size] for i in range(0, len(value), size))


# Transforms of a credential's value (the span the gate found in the text as typed).
SECRET_TRANSFORMS: dict[str, Callable[[str], str]] = {
    "fullwidth": _fullwidth,
    "hex": lambda v: v.encode().hex(),
    "base64": lambda v: base64.b64encode(v.encode()).decode(),
    "split into chunks of 6": lambda v: _chunks(v, 6),
    "split on a line break": lambda v: v[: len(v) // 2] + "\n" + v[len(v) // 2 :],
    "spaced out": lambda v: " ".join(v),
    "dashes between characters": lambda v: "-".join(v),
    "homoglyphs (Cyrillic)": lambda v: v.translate(_CYRILLIC),
    "zero-width characters": lambda v: _ZWSP.join(v),
}


@dataclass
class Rate:
    """hits out of total, with a few example texts kept for tuning (gate_report.py's misses)."""

    hits: int = 0
    total: int = 0
    # Kept out of the repr: a failed floor in tests/core/gate/test_gate_report.py prints the
    # Rate, and its examples may be held-out rows, which are measured, never read.
    examples: list[str] = field(default_factory=list, repr=False)

    def add(self, hit: bool, text: str = "", keep_if: bool = False) -> None:
        self.total += 1
        self.hits += int(hit)
        if keep_if and len(self.examples) < 200:
            self.examples.append(text)

    @property
    def rate(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def cell(self) -> str:
        return f"{self.rate:.3f} ({self.hits}/{self.total})"


def is_instruction(text: str) -> bool:
    return gate.is_instruction_shaped(text)


def _covered(text: str, start: int, end: int) -> bool:
    """Every visible character of text[start:end] lies in a credential the gate finds."""
    clean = gate.strip_invisible(text)
    # Offsets move when invisible characters go: find the value again in the cleaned text.
    value = gate.strip_invisible(text[start:end])
    at = clean.find(value, max(0, start - (len(text) - len(clean))))
    if at < 0:
        return False
    spans = [(h.start, h.end) for h in gate.find_secrets(text)]
    return all(
        any(s <= i < e for s, e in spans)
        for i in range(at, at + len(value))
        if not clean[i].isspace()
    )


def measure_matrix(
    injections: Iterable[str],
    secrets: Iterable[str],
    benign: dict[str, tuple[list[str], Callable[[str], bool]]],
) -> dict[str, Any]:
    """Recall per transform on the positives refused as typed; refusals of disguised benign text
    (`benign`: group name -> (texts, the check whose refusal is a false positive there))."""
    refuses = {group: check for group, (_, check) in benign.items()}
    caught = [t for t in injections if is_instruction(t)]
    injection = {name: Rate() for name in INJECTION_TRANSFORMS}
    for text in caught:
        for name, transform in INJECTION_TRANSFORMS.items():
            injection[name].add(is_instruction(transform(text)))

    secret = {name: Rate() for name in SECRET_TRANSFORMS}
    found = 0
    for text in secrets:
        hits = gate.find_secrets(text)
        clean = gate.strip_invisible(text)
        if not hits:
            continue
        found += 1
        first = min(hits, key=lambda h: (h.start, -h.end))
        value = clean[first.start : first.end]
        for name, transform in SECRET_TRANSFORMS.items():
            disguised = transform(value)
            rewritten = clean[: first.start] + disguised + clean[first.end :]
            secret[name].add(_covered(rewritten, first.start, first.start + len(disguised)))

    refused: dict[str, dict[str, Rate]] = {}
    every = {**{f"text: {k}": v for k, v in INJECTION_TRANSFORMS.items()}}
    every |= {f"value: {k}": v for k, v in SECRET_TRANSFORMS.items()}
    rng = random.Random(7)
    for name, transform in every.items():
        refused[name] = {}
        for group, (texts, _) in benign.items():
            cell = refused[name].setdefault(group, Rate())
            for text in texts:
                if name.startswith("value: "):
                    # A benign word disguised as a value would be: the rest stays as typed.
                    words = list(_WORD.finditer(text))
                    if not words:
                        continue
                    word = rng.choice(words)
                    text = text[: word.start()] + transform(word.group(0)) + text[word.end() :]
                else:
                    text = transform(text)
                cell.add(refuses[group](text))
    return {
        "injection": injection,
        "injection_plain": len(caught),
        "secret": secret,
        "secret_plain": found,
        "benign": refused,
    }


def render_matrix(matrix: dict[str, Any]) -> list[str]:
    groups = sorted({g for cells in matrix["benign"].values() for g in cells})
    lines = [
        "## Disguised positives (the obfuscation matrix)",
        "",
        "Generated by `scripts/gate_obfuscation.py`: the positives above that the gate refuses as",
        "typed, disguised by each transform, screened again. Instruction-shaped text has every",
        "word disguised; a credential has the value the gate found disguised in place. Benign",
        "text is disguised the same way (a credential transform hits one random word) and",
        "anything refused there is a false positive. The undoing was tuned against this matrix,",
        "so these too are training-set figures; `tests/core/gate/test_gate_obfuscation.py` draws"
        " its",
        "own variants (other separators, partial look-alikes, random keys and cards).",
        "",
        f"Instruction-shaped text ({matrix['injection_plain']} refused as typed):",
        "",
        "| transform | still refused |",
        "|---|---|",
        *(f"| {name} | {cell.cell()} |" for name, cell in matrix["injection"].items()),
        "",
        f"Credentials ({matrix['secret_plain']} found as typed; a hit must blank every character"
        " of the disguised value):",
        "",
        "| transform | still blanked |",
        "|---|---|",
        *(f"| {name} | {cell.cell()} |" for name, cell in matrix["secret"].items()),
        "",
        "Benign text under the same transforms, refused as the headline counts it (memory text:",
        "anything `screen_text` refuses; prompts with trigger words: instruction-shaped):",
        "",
        "| transform | " + " | ".join(groups) + " |",
        "|---|" + "---|" * len(groups),
    ]
    for name, cells in matrix["benign"].items():
        lines.append(f"| {name} | " + " | ".join(cells[g].cell() for g in groups) + " |")
    return lines
