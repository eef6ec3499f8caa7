"""Pure-Python reference of rust/src/credential.rs: the same candidates, features, hashes and
score, written plainly, for the differential test and the benchmark's ratio."""

from __future__ import annotations

import itertools
import math
import re
import struct

MIN_LEN, MAX_LEN = 6, 256
CONTEXT_CHARS, CONTEXT_WORDS, NEXT_CHARS = 60, 6, 24
STEMS = [
    "access",
    "account",
    "api",
    "auth",
    "bearer",
    "build",
    "cert",
    "checksum",
    "client",
    "code",
    "commit",
    "cred",
    "digest",
    "email",
    "file",
    "hash",
    "host",
    "id",
    "key",
    "login",
    "md5",
    "name",
    "pass",
    "path",
    "pin",
    "port",
    "private",
    "pwd",
    "salt",
    "secret",
    "session",
    "sha",
    "sign",
    "token",
    "url",
    "user",
    "uuid",
    "version",
]
KEY_STEMS = frozenset(
    [
        "auth",
        "bearer",
        "cred",
        "key",
        "pass",
        "private",
        "pwd",
        "secret",
        "session",
        "sign",
        "token",
    ]
)
_TOKEN_SYMBOLS = "+/_-.~!@#$%^&*=?:"


def _ascii_alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _token_char(c: str) -> bool:
    return _ascii_alnum(c) or c in _TOKEN_SYMBOLS or (not c.isascii() and c.isalpha())


def _name_char(c: str) -> bool:
    return _ascii_alnum(c) or c in "_.-"


def fnv1a(data: bytes) -> int:
    value = 0x811C9DC5
    for byte in data:
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def bucket(feature: str, bits: int) -> int:
    return fnv1a(feature.encode()) & ((1 << bits) - 1)


def _class_of(c: str) -> int:
    if "a" <= c <= "z":
        return 0
    if "A" <= c <= "Z":
        return 1
    if "0" <= c <= "9":
        return 2
    return 3


def words_of(chars: str) -> list[str]:
    out: list[str] = []
    word = ""
    previous_lower = False
    for c in chars:
        if c.isascii() and c.isalpha():
            if c.isupper() and previous_lower and word:
                out.append(word)
                word = ""
            word += c.lower()
            previous_lower = c.islower()
        else:
            if word:
                out.append(word)
                word = ""
            previous_lower = False
    if word:
        out.append(word)
    return [w for w in out if 2 <= len(w) <= 16]


def _length_bin(n: int) -> str:
    for top, name in (
        (7, "6-7"),
        (11, "8-11"),
        (15, "12-15"),
        (19, "16-19"),
        (23, "20-23"),
        (31, "24-31"),
        (32, "32"),
        (39, "33-39"),
        (40, "40"),
        (63, "41-63"),
        (64, "64"),
    ):
        if n <= top:
            return name
    return "65+"


def entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for c in value:
        counts[c] = counts.get(c, 0) + 1
    n = float(len(value))
    total = 0.0
    for c in sorted(counts.values()):
        p = c / n
        total += -p * math.log2(p)
    return total


def _hex(value: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in value)


def _uuid(value: str) -> bool:
    parts = value.split("-")
    return len(parts) == 5 and all(
        len(p) == n and _hex(p) for p, n in zip(parts, (8, 4, 4, 4, 12), strict=True)
    )


def _version(value: str) -> bool:
    body = value[1:] if value[:1] in ("v", "V") else value
    cut = min((i for i in (body.find("-"), body.find("+")) if i >= 0), default=len(body))
    parts = body[:cut].split(".")
    return len(parts) >= 2 and all(p and all("0" <= c <= "9" for c in p) for p in parts)


def _tenths(part: int, whole: int) -> int:
    return 0 if whole == 0 else min(10, 10 * part // whole)


def features_of(value: str, name: str, op: str, context: list[str], nxt: str) -> list[str]:
    n = len(value)
    out = ["bias"]
    lower = sum("a" <= c <= "z" for c in value)
    upper = sum("A" <= c <= "Z" for c in value)
    digit = sum("0" <= c <= "9" for c in value)
    symbol = sum(c.isascii() and not c.isalnum() for c in value)
    other = sum(not c.isascii() for c in value)
    vowels = sum(c in "aeiouAEIOU" for c in value)
    letters = lower + upper
    classes = "".join(
        mark
        for count, mark in ((lower, "L"), (upper, "U"), (digit, "D"), (symbol, "S"), (other, "N"))
        if count
    )
    length = _length_bin(n)
    ent = min(24, math.floor(entropy(value) * 4.0))
    out += [f"len:{length}", f"cls:{classes}", f"cls:{classes}|len:{length}"]
    out += [f"ent:{ent}", f"ent:{ent}|len:{length}"]
    out += [f"digits:{_tenths(digit, n)}", f"upper:{_tenths(upper, letters)}"]
    out += [f"vowels:{_tenths(vowels, letters)}", f"uniq:{_tenths(len(set(value)), n)}"]
    transitions = sum(_class_of(a) != _class_of(b) for a, b in itertools.pairwise(value))
    out.append(f"trans:{_tenths(transitions, max(1, n - 1))}")
    longest = run = 0
    for c in value:
        run = run + 1 if c.isascii() and c.isalpha() else 0
        longest = max(longest, run)
    out.append(
        "run:"
        + ("0-2" if longest <= 2 else "3-4" if longest <= 4 else "5-7" if longest <= 7 else "8+")
    )
    repeated = streak = 1
    for a, b in itertools.pairwise(value):
        streak = streak + 1 if a == b else 1
        repeated = max(repeated, streak)
    inner = [w for w in words_of(value) if len(w) >= 3]
    out.append(f"words:{min(3, len(inner))}")
    out.append(f"wordy:{_tenths(sum(len(w) for w in inner), n)}")
    lowered = "".join(c.lower() if c.isascii() else c for c in value)
    out += [f"valhas:{stem}" for stem in sorted(KEY_STEMS) if stem in lowered]
    if repeated >= 4:
        out.append("repeat")
    if _hex(value):
        case = "U" if upper else "l"
        exact = 6 <= n <= 12 or n in (32, 40, 64)
        out.append(f"hex{case}:{n}" if exact else f"hex{case}:{length}")
    if digit == n:
        out.append(f"number:{length}")
    if _uuid(value):
        out.append("uuid")
    if _version(value):
        out.append("version")
    if "://" in value:
        out.append("url")
    if value.startswith(("/", "./", "~/")):
        out.append("path")
    at = value.find("@")
    if at > 0 and "." in value[at:]:
        out.append("email")
    if value.startswith(("$", "%")):
        out.append("variable")
    dot = value.rfind(".")
    if dot > 0:
        ext = value[dot + 1 :]
        if 1 <= len(ext) <= 4 and all("a" <= c <= "z" for c in ext):
            out.append("ext")
    for mark, what in ((".", "dots"), ("-", "dashes"), ("_", "unders"), ("/", "slashes")):
        out.append(f"{what}:{min(3, value.count(mark))}")
    if value.endswith("="):
        out.append("padded")
    head = value[:9]
    cuts = [i for i, c in enumerate(head) if c in "_-."]
    if cuts:
        cut = cuts[0]
        if cut >= 2 and all(_ascii_alnum(c) for c in value[:cut]):
            out.append(f"pfx:{value[: cut + 1]}")
    if n >= 3:
        out.append(f"p3:{value[:3]}")
    name_words = words_of(name)
    out.append(f"op:{op or 'none'}")
    out += [f"name:{w}" for w in name_words]
    joined = "".join(name_words)
    keyword = False
    for stem in STEMS:
        in_name = stem in joined
        in_context = any((w == stem) if len(stem) <= 3 else (stem in w) for w in context)
        if in_name:
            out.append(f"namehas:{stem}")
        if in_context:
            out.append(f"ctxhas:{stem}")
        if (in_name or in_context) and stem in KEY_STEMS:
            keyword = True
    out += [f"ctx:{w}" for w in context]
    if context:
        out.append(f"prev:{context[-1]}")
    if nxt:
        out.append(f"next:{nxt}")
    kw = "kw1" if keyword else "kw0"
    out += [f"{kw}|cls:{classes}", f"{kw}|len:{length}", f"{kw}|ent:{ent}"]
    out.append(f"{kw}|assigned:{int(bool(op))}")
    return sorted(set(out), key=lambda f: f.encode())


def _line_start(text: str, start: int) -> int:
    return text.rfind("\n", 0, start) + 1


def _assignment_before(text: str, start: int) -> tuple[str, int, int]:
    line = _line_start(text, start)
    j = start
    while j > line and text[j - 1] in " \t\"'`":
        j -= 1
    op_end = j
    while j > line and text[j - 1] in "=:,>" and op_end - j < 3:
        j -= 1
    if j == op_end:
        return "", start, start
    op = text[j:op_end]
    while j > line and text[j - 1] in " \t\"'`)]}":
        j -= 1
    name_end = j
    while j > line and _name_char(text[j - 1]) and name_end - j < 40:
        j -= 1
    return op, j, name_end


def _context_before(text: str, start: int) -> list[str]:
    line = _line_start(text, start)
    begin = max(line, start - CONTEXT_CHARS)
    while (
        begin > line and begin < start and text[begin - 1].isascii() and text[begin - 1].isalpha()
    ):
        begin += 1
    return words_of(text[begin:start])[-CONTEXT_WORDS:]


def _next_after(text: str, end: int) -> str:
    stop = min(len(text), end + NEXT_CHARS)
    newline = text.find("\n", end, stop)
    words = words_of(text[end : stop if newline < 0 else newline])
    return words[0] if words else ""


def _candidate(text: str, run_start: int, run_end: int) -> tuple[int, int, list[str]] | None:
    run = text[run_start:run_end]
    start = run_start
    name = (run_start, run_start)
    op = ""
    at = next((i for i, c in enumerate(run) if c in "=:"), -1)
    if at >= 0:
        head = run[:at]
        first_ok = bool(head) and (head[0] == "_" or (head[0].isascii() and head[0].isalpha()))
        if first_ok and all(_name_char(c) for c in head):
            v = at
            while v < len(run) and run[v] in "=:>" and v - at < 3:
                v += 1
            url = run[v : v + 2] == "//"
            if not url and v < len(run):
                op = run[at:v]
                name = (run_start, run_start + at)
                start = run_start + v
    if not op:
        v = start
        while v < run_end and text[v] in "=:>" and v - start < 3:
            v += 1
        if v > start:
            op = text[start:v]
            start = v
            j = run_start
            while j > 0 and text[j - 1] in " \t\"'`)]}":
                j -= 1
            name_end = j
            while j > 0 and _name_char(text[j - 1]) and name_end - j < 40:
                j -= 1
            name = (j, name_end)
    after = run_end
    while after < len(text) and text[after] in " \t\"'`)]":
        after += 1
    named = after < len(text) and text[after] in "=:"
    if named or (run[-1] in "=:" and not op):
        return None
    end = run_end
    while end > start and text[end - 1] in ".:?!,":
        end -= 1
    value = text[start:end]
    if not MIN_LEN <= len(value) <= MAX_LEN:
        return None
    if not op:
        op, name_start, name_end = _assignment_before(text, start)
        name = (name_start, name_end)
    word_like = all(
        (c.isalpha() and (k == 0 or not c.isupper())) or c in "-'" for k, c in enumerate(value)
    )
    if word_like and not op:
        return None
    context = _context_before(text, name[0] if name[1] > name[0] else start)
    nxt = _next_after(text, end)
    return start, end, features_of(value, text[name[0] : name[1]], op, context, nxt)


def candidates(text: str) -> list[tuple[int, int, list[str]]]:
    out = []
    i = 0
    while i < len(text):
        if not _token_char(text[i]):
            i += 1
            continue
        run_start = i
        while i < len(text) and _token_char(text[i]):
            i += 1
        found = _candidate(text, run_start, i)
        if found is not None:
            out.append(found)
    return out


_SHOWN = (
    "namehas:",
    "ctxhas:",
    "valhas:",
    "ent:",
    "len:",
    "cls:",
    "trans:",
    "digits:",
    "upper:",
    "hexl:",
    "hexU:",
    "kw1|",
)


def feature_shown(feature: str) -> bool:
    return feature.startswith(_SHOWN)


class ReferenceCredentialModel:
    """The weights file read and scored as credential.rs does."""

    def __init__(self, data: bytes, placeholders: list[str] | tuple[str, ...] = ()) -> None:
        if data[:8] != b"SHLXCRD1":
            raise ValueError("not a SHLXCRD1 weights file")
        self.bits, self.bias, self.scale = struct.unpack("<Iff", data[8:20])
        count = 1 << self.bits
        self.weights = struct.unpack(f"<{count}h", data[20 : 20 + 2 * count])
        self.placeholders = [re.compile(p) for p in placeholders]

    def weight(self, feature: str) -> float:
        return float(
            struct.unpack(
                "<f", struct.pack("<f", self.weights[bucket(feature, self.bits)] * self.scale)
            )[0]
        )

    def probability(self, features: list[str]) -> float:
        buckets = sorted({bucket(f, self.bits) for f in features})
        scale = self.scale
        total = sum(
            struct.unpack("<f", struct.pack("<f", float(self.weights[b]) * scale))[0]
            for b in buckets
        )
        margin = float(self.bias) + total
        return 1.0 / (1.0 + math.exp(-margin))

    def scan(
        self, text: str, threshold: float, top: int = 3
    ) -> list[tuple[int, int, float, list[tuple[str, float]]]]:
        out = []
        for start, end, features in candidates(text):
            if not any(f.startswith("kw1|") for f in features):
                continue
            probability = self.probability(features)
            if probability < threshold:
                continue
            if any(p.search(text[start:end]) for p in self.placeholders):
                continue
            shown = [(f, self.weight(f)) for f in features if feature_shown(f)]
            shown = [(f, w) for f, w in shown if w > 0.0]
            shown.sort(key=lambda fw: (-fw[1], fw[0].encode()))
            out.append((start, end, probability, shown[:top]))
        return out
