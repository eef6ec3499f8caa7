#!/usr/bin/env python3
"""Train the gate's learned credential model from ../shared/data/gate (the training part only).

Writes python/shelldon/core/gate/gate_rules/credentials.bin (the weights rust/src/credential.rs
scores with) and credentials.toml (its threshold, how it was made, the out-of-fold figures the
report shows). Reproducible: the split (scripts/gate_split.py), the seed, the order and the
arithmetic are fixed, so the same data gives the same bytes.

Each text becomes its candidates (`shelldon._native.credential_candidates`: values after an
assignment, quoted strings, long tokens of mixed characters), each a set of named features
hashed into 2^14 buckets. A row of secrets.jsonl says that the row holds a credential, not
which candidate it is, so the positives are learned as bags: each epoch a labelled row's
candidate that the model scores highest is its positive (the first epoch: the candidate a
credential rule found, else the one of most entropy times length), its other candidates
unlabelled. Every candidate of a benign text is a negative: LoCoMo's training conversation,
a seeded sample of MSRP sentences, the training part's prompts (benign and attacks: they are
not credentials), and coding lines this script makes from its own templates (commit SHAs,
digests, UUIDs, versions, paths, URLs without credentials, placeholders given to key names).
Rows labelled 0 in secrets.jsonl are not trained on: they are "not matched by that tool's
rule", and several are real credentials in other shapes.

The threshold is chosen out of fold (4 folds by origin): the lowest probability at which the
model alone refuses no memory-like text (LoCoMo, MSRP), at most 0.1 % of the generated coding
lines and at most 1 % of benign prompts.

Usage: train_gate_credentials.py [--data DIR] [--check]
(--check: train, compare with the stored weights' sha256, write nothing; exit 1 when they differ)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import string
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gate_split  # noqa: E402

from shelldon._native import Scanner, credential_candidates, shannon_entropy  # noqa: E402
from shelldon.core.gate.normalise import strip_invisible  # noqa: E402
from shelldon.core.gate.rules import read_rules  # noqa: E402

OUT_DIR = REPO / "python" / "shelldon" / "core" / "gate" / "gate_rules"
BITS = 14
SEED = 16
EPOCHS = 10
LEARNING_RATE = 0.3
L2 = 1e-4
FOLDS = 4
MSRP_SAMPLE = 2500
CODING_LINES = 3000
# A feature seen in fewer training rows than this carries no weight.
MIN_ROWS = 3
# Out of fold, what the model alone may refuse: no memory-like text, at most this share of the
# generated coding lines and of benign prompts.
MEMORY_FP = 0.0
CODE_FP = 0.001
PROMPT_FP = 0.01
QUANT = 32767
# Credential rules that do not pick a labelled row's candidate in the first epoch (the teacher):
# issue 23's seventh pass added them after the model was fitted, and teaching with them moved its
# threshold (0.914 to 0.927) and cost it three noseyparker credentials out of fold. The rules
# find those credentials themselves; the model stays byte for byte what it was. The eleventh
# pass's rules likewise.
UNTAUGHT_RULES: tuple[str, ...] = (
    "labelled-next-line",
    "salesforce-access-token",
    "cli-user-password",
    "dsl-credentials-block",
    "env-fallback-literal",
    "facebook-app-token",
    "grafana-api-key",
    "atlassian-pat",
    # the creds3 round (docs/gate-design.md, "Credentials never seen: the creds3 round")
    "creds3-vendor-token",
    "creds3-key-word-then-value",
    "creds3-value-as-key",
    "creds3-code-in-prose",
    # the leftovers pass: a password-shaped hashtag the line calls a login
    "password-shaped-hashtag",
    "password-labelled-colon",
    "password-shaped-dashed",
    "password-new-one-is",
    "password-label-short-value",
    "creds3-otp-seed",
    "creds3-recovery-codes",
    "creds3-password-other-scripts",
    "creds3-pin-other-scripts",
    "creds3-url-password-hash",
    "creds3-cli-password-flag",
    # the open classes pass: key names and "the new one is" in other languages
    "password-key-other-language",
    "secret-key-other-language",
    "password-new-one-more-languages",
    # the tenth session: a password-shaped value after a short label ("login:", "admin pass is")
    "short-label-mixed-value",
)

Bag = list[list[int]]  # a row's candidates, each its buckets


class Row(NamedTuple):
    text: str
    label: int
    kind: str  # the class it is reported under
    group: str  # its origin: rows of one origin share a fold
    memory_like: bool


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def fnv1a(data: bytes) -> int:
    value = 0x811C9DC5
    for byte in data:
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def bucket(feature: str) -> int:
    return fnv1a(feature.encode()) & ((1 << BITS) - 1)


# ---- the generated coding lines (negatives) ------------------------------------------------

_HEX = "0123456789abcdef"
_B64 = string.ascii_letters + string.digits + "+/"
_LOWER = string.ascii_lowercase + string.digits


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = _pick(rng, _HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _version(rng: random.Random) -> str:
    core = ".".join(str(rng.randint(0, 30)) for _ in range(rng.choice((2, 3, 3, 4))))
    suffix = rng.choice(("", "", "", "-rc1", "-beta.2", "+build.7", "a1", ".post1", "-alpha"))
    return rng.choice(("", "v")) + core + suffix


_WORDS = [
    "parser",
    "lexer",
    "cache",
    "worker",
    "router",
    "scheduler",
    "billing",
    "auth",
    "search",
    "index",
    "queue",
    "upload",
    "session",
    "profile",
    "invoice",
    "report",
    "metrics",
    "gateway",
    "storage",
    "backup",
    "loader",
    "config",
    "client",
]


def _path(rng: random.Random) -> str:
    parts = [rng.choice(_WORDS) for _ in range(rng.randint(1, 4))]
    name = rng.choice(_WORDS) + rng.choice(("", "_test", "_v2", "-utils", "s"))
    ext = rng.choice(("py", "rs", "go", "ts", "toml", "yaml", "json", "md", "sh", "c", "lock"))
    lead = rng.choice(("", "", "./", "/srv/", "~/", "src/", "/etc/"))
    return lead + "/".join(parts) + f"/{name}.{ext}"


def _url(rng: random.Random) -> str:
    host = (
        rng.choice(("docs", "api", "git", "ci", "status", "registry"))
        + "."
        + rng.choice(("example.com", "internal.net", "corp.local", "example.org"))
    )
    path = "/".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 3)))
    tail = rng.choice(("", f"?page={rng.randint(1, 9)}", f"#{rng.choice(_WORDS)}", ""))
    return f"https://{host}/{path}{tail}"


_PLACEHOLDERS = (
    "${API_KEY}",
    "<your-token-here>",
    "changeme",
    "xxxxxxxxxxxxxxxx",
    "YOUR_SECRET_HERE",
    "os.environ['TOKEN']",
    "process.env.API_KEY",
    "********",
    "{{ secrets.DEPLOY_KEY }}",
    "$TOKEN",
    "%PASSWORD%",
    "replace-me",
    "null",
    "TODO",
)


def coding_lines(count: int, seed: int) -> list[str]:
    """Benign coding-agent lines in this script's own templates (the report measures other,
    hand-written ones in scripts/gate_credential_examples.toml)."""
    rng = random.Random(seed)
    makers = [
        lambda: f"Fixed in {_pick(rng, _HEX, rng.choice((7, 8, 9, 10, 12)))}, see the changelog.",
        lambda: f"git cherry-pick {_pick(rng, _HEX, 40)}",
        lambda: f"HEAD is at {_pick(rng, _HEX, 7)} ({rng.choice(_WORDS)}: tidy imports)",
        lambda: f"sha1sum says {_pick(rng, _HEX, 40)}  {_path(rng)}",
        lambda: f"Expected digest: {_pick(rng, _HEX, 64)}",
        lambda: f"image: registry.example.com/{rng.choice(_WORDS)}@sha256:{_pick(rng, _HEX, 64)}",
        lambda: f"md5 of the export was {_pick(rng, _HEX, 32)} before the re-run.",
        lambda: f"job_id: {_uuid(rng)}",
        lambda: f"correlation id {_uuid(rng)} appears in both logs.",
        lambda: f"INFO request_id={_uuid(rng)} status=200 took={rng.randint(1, 900)}ms",
        lambda: f"The {rng.choice(_WORDS)} service was upgraded to {_version(rng)}.",
        lambda: f"requires {rng.choice(_WORDS)}>={_version(rng)},<{rng.randint(2, 9)}.0",
        lambda: f"Bump {rng.choice(_WORDS)} from {_version(rng)} to {_version(rng)}",
        lambda: f"Edit {_path(rng)} and run the tests in {_path(rng)}.",
        lambda: f"The log rotates into {_path(rng)}.{rng.randint(1, 9)}",
        lambda: f"See {_url(rng)} for the runbook.",
        lambda: f"curl -s {_url(rng)} | jq .{rng.choice(_WORDS)}",
        lambda: f"Deployed build {rng.randint(100, 99999)} to {rng.choice(_WORDS)}-prod.",
        lambda: f"{rng.choice(_WORDS).upper()}_TIMEOUT_MS={rng.randint(100, 60000)}",
        lambda: f'{rng.choice(_WORDS)}_url = "{_url(rng)}"',
        lambda: (
            f"The branch fix/{rng.choice(_WORDS)}-{rng.choice(_WORDS)}-{rng.randint(1, 99)} "
            "is merged."
        ),
        lambda: f"Container {_pick(rng, _HEX, 12)} restarted {rng.randint(2, 9)} times.",
        lambda: (
            f"Run id {_pick(rng, _LOWER, 10)} on the nightly pipeline failed at step "
            f"{rng.randint(1, 9)}."
        ),
        lambda: (
            f"def {rng.choice(_WORDS)}_{rng.choice(_WORDS)}_v{rng.randint(2, 4)}(self, "
            f"{rng.choice(_WORDS)}_id):"
        ),
        lambda: f"The {rng.choice(_WORDS)}Handler class moved to {_path(rng)}.",
        lambda: (
            f"Timestamp 20{rng.randint(10, 29)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T"
            f"0{rng.randint(0, 9)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}Z in the header."
        ),
        lambda: (
            f"Listening on 10.{rng.randint(0, 255)}.{rng.randint(0, 255)}."
            f"{rng.randint(0, 255)}:{rng.randint(1024, 65535)}"
        ),
        lambda: f"The object key is {rng.choice(_WORDS)}/{_pick(rng, _HEX, 24)}.json",
        lambda: f"The fingerprint is {':'.join(_pick(rng, _HEX, 2) for _ in range(16))}",
        lambda: (
            f"pod/{rng.choice(_WORDS)}-{_pick(rng, _LOWER, 10)}-{_pick(rng, _LOWER, 5)} is Running"
        ),
        lambda: (
            f"{rng.choice(('API_KEY', 'SECRET_KEY', 'DB_PASSWORD', 'AUTH_TOKEN', 'token'))}"
            f"{rng.choice(('=', ': ', ' = ', '='))}{rng.choice(_PLACEHOLDERS)}"
        ),
        lambda: (
            f"Set {rng.choice(('GITHUB_TOKEN', 'OPENAI_API_KEY', 'SMTP_PASSWORD'))} in the "
            f"CI secrets, never in {_path(rng)}."
        ),
        lambda: f"Tests ran with seed {rng.randint(1, 2**31)} and PYTHONHASHSEED=0.",
        lambda: f"Issue #{rng.randint(1, 9999)} and PR #{rng.randint(1, 9999)} are linked.",
        lambda: (
            f"Rust {_version(rng)}, cargo {_version(rng)}, target "
            f"{rng.choice(('x86_64-unknown-linux-gnu', 'aarch64-unknown-linux-gnu'))}"
        ),
    ]
    # Code that names a credential without holding one: a getter, a config lookup, a key name,
    # a selector, a secret's path in a vault.
    key_names = ("password", "api_key", "secret", "token", "access_key", "client_secret")
    makers += [
        lambda: (
            f"{rng.choice(key_names)} = {rng.choice(('get', 'load', 'fetch', 'read'))}_"
            f"{rng.choice(key_names)}({rng.choice(_WORDS)}_id)"
        ),
        lambda: (
            f'self.{rng.choice(key_names)} = config["{rng.choice(_WORDS)}_{rng.choice(key_names)}"]'
        ),
        lambda: (
            f"const {rng.choice(key_names).upper()}_FIELD = "
            f'"{rng.choice(_WORDS)}{rng.choice(key_names).title().replace("_", "")}";'
        ),
        lambda: f'this.{rng.choice(_WORDS)}Password = "#{rng.choice(_WORDS)}-password";',
        lambda: (
            f"secret_path: {rng.choice(('secret/data', 'kv/prod', 'vault/ci'))}/"
            f"{rng.choice(_WORDS)}/{rng.choice(key_names)}"
        ),
        lambda: (
            f"if not user.check_{rng.choice(key_names)}("
            f"{rng.choice(_WORDS)}_{rng.choice(key_names)}):"
        ),
        lambda: f'<input name="{rng.choice(_WORDS)}_{rng.choice(key_names)}" type="password">',
        lambda: (
            f"{rng.choice(key_names).upper()}_ENV_VAR = "
            f'"{rng.choice(_WORDS).upper()}_{rng.choice(key_names).upper()}"'
        ),
        lambda: f'token_url = "{_url(rng)}"',
        lambda: (
            f"The {rng.choice(key_names)} rotates every {rng.randint(2, 90)} days "
            f"({rng.choice(_WORDS)}-{rng.choice(_WORDS)} policy v{rng.randint(1, 5)})."
        ),
    ]
    return [rng.choice(makers)() for _ in range(count)]


# ---- the rows -------------------------------------------------------------------------------


def training_rows(data: Path) -> list[Row]:
    rows: list[Row] = []
    for row in read_jsonl(data / "secrets.jsonl"):
        if gate_split.secret_part(row) == gate_split.TRAIN and row["label"] == 1:
            rows.append(Row(row["text"], 1, gate_split.secret_group(row), row["source"], False))
    for name in ("observations", "dialog_turns", "session_summaries"):
        for row in read_jsonl(data / f"benign_locomo_{name}.jsonl"):
            if gate_split.locomo_part(row) == gate_split.TRAIN:
                rows.append(Row(row["text"], 0, "LoCoMo", f"locomo|{row['session']}", True))
    sentences: list[tuple[str, str]] = []
    with (data / "neardup_msr_paraphrase_train.txt").open(encoding="utf-8-sig") as handle:
        next(handle)
        for line in handle:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 5 and gate_split.paraphrase_part(parts[1]) == gate_split.TRAIN:
                sentences += [(parts[3], parts[1]), (parts[4], parts[1])]
    rng = random.Random(SEED)
    unique = sorted(dict(sentences).items())
    for sentence, pair in rng.sample(unique, min(MSRP_SAMPLE, len(unique))):
        rows.append(Row(sentence, 0, "MSRP sentences", f"msrp|{pair}", True))
    for row in read_jsonl(data / "injection.jsonl"):
        if gate_split.injection_part(row) == gate_split.TRAIN:
            kind = "benign prompts" if row["label"] == 0 else "attack prompts"
            rows.append(Row(row["text"], 0, kind, gate_split.injection_group_key(row), False))
    for index, line in enumerate(coding_lines(CODING_LINES, SEED)):
        rows.append(Row(line, 0, "coding lines (generated)", f"coding|{index % 97}", True))
    return rows


def label0_rows(data: Path) -> list[Row]:
    """secrets.jsonl rows labelled 0 in the training part: scored for the report, not trained."""
    return [
        Row(row["text"], 0, gate_split.secret_group(row), row["source"], False)
        for row in read_jsonl(data / "secrets.jsonl")
        if gate_split.secret_part(row) == gate_split.TRAIN and row["label"] == 0
    ]


class Featurised(NamedTuple):
    bags: list[Bag]
    spans: list[list[tuple[int, int]]]
    values: list[list[str]]
    keyword: list[list[bool]]  # whether a key word is in a candidate's name or before it
    teacher: list[int]  # the first epoch's positive candidate of each row (-1: none)


def featurise(rows: list[Row]) -> Featurised:
    rules = read_rules("secrets")
    taught = [r.as_native() for r in rules.rules if r.id not in UNTAUGHT_RULES]
    scanner = Scanner(taught, list(rules.placeholders))
    bags: list[Bag] = []
    spans: list[list[tuple[int, int]]] = []
    values: list[list[str]] = []
    keyword: list[list[bool]] = []
    teacher: list[int] = []
    for row in rows:
        text = strip_invisible(row.text)
        found = credential_candidates(text)
        bags.append([sorted({bucket(f) for f in features}) for _, _, features in found])
        spans.append([(s, e) for s, e, _ in found])
        values.append([text[s:e] for s, e, _ in found])
        keyword.append([any(f.startswith("kw1|") for f in features) for _, _, features in found])
        choice = -1
        if row.label == 1 and found:
            hits = scanner.scan(text)
            for index, (s, e, _) in enumerate(found):
                if any(s < he and hs < e for _, hs, he in hits):
                    choice = index
                    break
            if choice < 0:
                weight = [shannon_entropy(text[s:e]) * math.log2(e - s) for s, e, _ in found]
                choice = max(range(len(found)), key=lambda i: (weight[i], -i))
        teacher.append(choice)
    return Featurised(bags, spans, values, keyword, teacher)


def logistic(margin: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, margin))))


def margin_of(weights: list[float], bias: float, buckets: list[int]) -> float:
    return bias + sum(weights[b] for b in buckets)


def fit(rows: list[Row], data: Featurised, keep: list[int]) -> tuple[list[float], float]:
    """Logistic regression with AdaGrad over the rows `keep`: each negative row's candidates
    negatives, each positive row's best candidate its positive; classes weighted equal."""
    size = 1 << BITS
    seen = [0] * size
    for i in keep:
        for b in {b for cand in data.bags[i] for b in cand}:
            seen[b] += 1
    bags = {i: [[b for b in cand if seen[b] >= MIN_ROWS] for cand in data.bags[i]] for i in keep}
    positives = [i for i in keep if rows[i].label == 1 and bags[i]]
    negatives = [(i, k) for i in keep if rows[i].label == 0 for k in range(len(bags[i]))]
    total = len(positives) + len(negatives)
    weight = {1: total / (2 * max(1, len(positives))), 0: total / (2 * max(1, len(negatives)))}
    weights = [0.0] * size
    squares = [1e-8] * size
    bias, bias_square = 0.0, 1e-8
    rng = random.Random(SEED)
    for epoch in range(EPOCHS):
        steps: list[tuple[list[int], int]] = []
        for i in positives:
            if epoch == 0:
                k = data.teacher[i]
            else:
                scores = [margin_of(weights, bias, cand) for cand in bags[i]]
                k = max(range(len(scores)), key=lambda j: (scores[j], -j))
            steps.append((bags[i][k], 1))
        steps += [(bags[i][k], 0) for i, k in negatives]
        rng.shuffle(steps)
        for buckets, label in steps:
            probability = logistic(margin_of(weights, bias, buckets))
            gradient = (probability - label) * weight[label]
            for b in buckets:
                g = gradient + L2 * weights[b]
                squares[b] += g * g
                weights[b] -= LEARNING_RATE * g / math.sqrt(squares[b])
            bias_square += gradient * gradient
            bias -= LEARNING_RATE * gradient / math.sqrt(bias_square)
    return weights, bias


class Placeholders:
    def __init__(self) -> None:
        self.patterns = [re.compile(p) for p in read_rules("secrets").placeholders]

    def __call__(self, value: str) -> bool:
        return any(p.search(value) for p in self.patterns)


def row_score(
    weights: list[float],
    bias: float,
    bag: Bag,
    values: list[str],
    keyword: list[bool],
    placeholder: Placeholders,
) -> float:
    """The row's highest candidate probability, placeholders and candidates with no key word
    near them skipped (as the gate scans)."""
    best = 0.0
    for cand, value, near in zip(bag, values, keyword, strict=True):
        if not near:
            continue
        p = logistic(margin_of(weights, bias, cand))
        if p > best and not placeholder(value):
            best = p
    return best


def out_of_fold(
    rows: list[Row], data: Featurised, extra: list[Row], extra_data: Featurised
) -> tuple[list[float], list[float]]:
    """Each training row's score from the model fitted without its fold (by origin), and each
    label-0 row's from the model of its own fold."""
    placeholder = Placeholders()
    folds = [gate_split.fold_of(row.group, FOLDS) for row in rows]
    extra_folds = [gate_split.fold_of(row.group, FOLDS) for row in extra]
    scores = [0.0] * len(rows)
    extra_scores = [0.0] * len(extra)
    for fold in range(FOLDS):
        keep = [i for i, f in enumerate(folds) if f != fold]
        weights, bias = fit(rows, data, keep)
        for i, f in enumerate(folds):
            if f == fold:
                scores[i] = row_score(
                    weights, bias, data.bags[i], data.values[i], data.keyword[i], placeholder
                )
        for i, f in enumerate(extra_folds):
            if f == fold:
                extra_scores[i] = row_score(
                    weights,
                    bias,
                    extra_data.bags[i],
                    extra_data.values[i],
                    extra_data.keyword[i],
                    placeholder,
                )
    return scores, extra_scores


def threshold_for(scores: list[float], share: float) -> float:
    ranked = sorted(scores, reverse=True)
    allowed = int(len(ranked) * share)
    return max(0.5, ranked[allowed] + 1e-6) if allowed < len(ranked) else 0.5


def choose_threshold(rows: list[Row], scores: list[float]) -> float:
    memory = [
        s
        for r, s in zip(rows, scores, strict=True)
        if r.label == 0 and r.memory_like and not r.kind.startswith("coding")
    ]
    code = [s for r, s in zip(rows, scores, strict=True) if r.kind.startswith("coding")]
    prompts = [s for r, s in zip(rows, scores, strict=True) if r.kind == "benign prompts"]
    print(
        f"thresholds: memory {threshold_for(memory, MEMORY_FP):.4f}, code "
        f"{threshold_for(code, CODE_FP):.4f}, prompts {threshold_for(prompts, PROMPT_FP):.4f}"
    )
    return max(
        threshold_for(memory, MEMORY_FP),
        threshold_for(code, CODE_FP),
        threshold_for(prompts, PROMPT_FP),
    )


def counts(
    rows: list[Row], scores: list[float], threshold: float, also: list[bool] | None = None
) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for index, (row, score) in enumerate(zip(rows, scores, strict=True)):
        key = f"{row.label}|{row.kind}"
        hit = score >= threshold or (also is not None and also[index])
        hits, total = out.get(key, (0, 0))
        out[key] = (hits + hit, total + 1)
    return dict(sorted(out.items()))


def rules_find(rows: list[Row]) -> list[bool]:
    from shelldon.core.gate import find_secrets

    return [bool(find_secrets(row.text, model=False)) for row in rows]


def quantise(weights: list[float]) -> tuple[list[int], float]:
    largest = max(abs(w) for w in weights) or 1.0
    scale = largest / QUANT
    return [round(w / scale) for w in weights], scale


def encode(quantised: list[int], bias: float, scale: float) -> bytes:
    return (
        b"SHLXCRD1"
        + struct.pack("<Iff", BITS, bias, scale)
        + struct.pack(f"<{len(quantised)}h", *quantised)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="the gate data directory (default: ../shared/data/gate)")
    parser.add_argument("--check", action="store_true", help="train and compare; write nothing")
    args = parser.parse_args(argv)
    from gate_report import find_data

    data_dir = find_data(args.data)
    if data_dir is None or not data_dir.is_dir():
        print(
            f"train-gate-credentials: no gate data at {data_dir}: it lives outside the "
            "repository (../shared/data/gate beside the clone, or $SHELLDON_SHARED_DATA/gate)"
        )
        return 1
    rows = training_rows(data_dir)
    data = featurise(rows)
    extra = label0_rows(data_dir)
    extra_data = featurise(extra)
    oof, extra_oof = out_of_fold(rows, data, extra, extra_data)
    threshold = choose_threshold(rows, oof)
    weights, bias = fit(rows, data, list(range(len(rows))))
    quantised, scale = quantise(weights)
    blob = encode(quantised, bias, scale)
    digest = hashlib.sha256(blob).hexdigest()
    by_rules = rules_find(rows)
    model_alone = counts(rows, oof, threshold)
    combined = counts(rows, oof, threshold, by_rules)
    label0 = counts(extra, extra_oof, threshold)
    label0_combined = counts(extra, extra_oof, threshold, rules_find(extra))
    positives = sum(row.label for row in rows)
    print(
        f"trained on {len(rows)} rows ({positives} labelled credentials), "
        f"{sum(len(b) for b in data.bags)} candidates, {1 << BITS} buckets, "
        f"{sum(1 for q in quantised if q)} non-zero; threshold {threshold:.4f}; sha256 {digest}"
    )
    print("out of fold: model alone | rules and model")
    for key in model_alone:
        (a, n), (c, _) = model_alone[key], combined[key]
        print(f"  {key}: {a / n:.3f} ({a}/{n}) | {c / n:.3f} ({c}/{n})")
    for key in label0:
        (a, n), (c, _) = label0[key], label0_combined[key]
        print(f"  label 0 {key}: {a / n:.3f} ({a}/{n}) | {c / n:.3f} ({c}/{n})")
    if args.check:
        path = OUT_DIR / "credentials.bin"
        stored = path.read_bytes() if path.exists() else b""
        same = hashlib.sha256(stored).hexdigest() == digest
        print("the stored weights are these" if same else "the stored weights differ")
        return 0 if same else 1
    (OUT_DIR / "credentials.bin").write_bytes(blob)
    lines = [
        "# Written by scripts/train_gate_credentials.py; do not edit (retrain instead).",
        f"threshold = {threshold:.6f}",
        f"bits = {BITS}",
        f"seed = {SEED}",
        f"epochs = {EPOCHS}",
        f"l2 = {L2}",
        f"min_rows = {MIN_ROWS}",
        f"folds = {FOLDS}",
        f"training_rows = {len(rows)}",
        f"training_positives = {positives}",
        f"coding_lines = {CODING_LINES}",
        f'sha256 = "{digest}"',
        "",
        "# Out of fold (each row scored by the fold model that never saw its origin), as",
        "# 'label|class' = [flagged, rows]: the model alone, and the rules and the model together.",
        "[model_out_of_fold]",
        *(f'"{k}" = [{h}, {n}]' for k, (h, n) in model_alone.items()),
        "",
        "[combined_out_of_fold]",
        *(f'"{k}" = [{h}, {n}]' for k, (h, n) in combined.items()),
        "",
        "# secrets.jsonl rows labelled 0 (not trained on), out of fold.",
        "[label0_model_out_of_fold]",
        *(f'"{k}" = [{h}, {n}]' for k, (h, n) in label0.items()),
        "",
        "[label0_combined_out_of_fold]",
        *(f'"{k}" = [{h}, {n}]' for k, (h, n) in label0_combined.items()),
    ]
    (OUT_DIR / "credentials.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT_DIR / 'credentials.bin'} and credentials.toml", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
