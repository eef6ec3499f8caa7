"""The owner's languages, as the reply check needs them: which scripts the owner writes in, and
their most frequent words and character trigrams, learned from their own messages (history.db).

The worker builds the profile (`owner_profile`) from the owner's recent rows and sends it with
the prompt (`CompletionRequest.owner_languages`); the broker's reply check asks `foreign_reason`
whether a model's reply is in a language the owner never used. Both halves live here because the
profile's normalisation is the contract between them: the same words must make the same
trigrams on both sides. No language is named or bundled: the only data is the owner's own text.

Two signals, both cheap:
- **script**: each letter's Unicode script (from its character name: LATIN, CYRILLIC, CJK,
  HANGUL, ARABIC, …). A reply mostly in scripts the owner never typed is foreign.
- **words and trigrams**: within a script the owner does use, the share of the reply's words that
  are among the owner's most frequent words (their function words: "the", "and", "my", or "que",
  "não", "eu"), and the share of its character trigrams (words padded with spaces, case-folded)
  among the owner's most frequent ones. A reply low on both is in another language: an English
  owner's words cover an English reply's by a third or more and a German one's hardly at all.
  An owner who writes in two languages has both in the profile, so either passes; a reply that
  mixes in the owner's language (a translation with a line in theirs) has their words.

What is never judged (it would misfire): code (fenced or inline), URLs, e-mail addresses,
@handles; capitalised words inside a sentence (names: "Ana", "Lisbon", "Радиохед"); a reply too
short to tell; an owner with too little text to tell; a turn whose message asks for a
translation. Figures and thresholds: docs/brain.md
(`scripts/language_check_report.py` measures them on held-out data).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from itertools import chain

import msgspec

# The owner's most frequent trigrams and words kept in the profile (a few KB in each request).
PROFILE_TRIGRAMS = 600
PROFILE_WORDS = 150
# The owner's text read for a profile, newest first: past ~100 chat messages more text changes
# nothing the check decides (docs/brain.md), and each turn pays for reading it.
PROFILE_CHARS = 10_000
PROFILE_MESSAGES = 400  # the owner's last messages read for it (history.db), newest first
# Owner letters (in the reply's script) before the word signal is trusted: ~20 chat messages.
MIN_OWNER_LETTERS = 1500
# Reply letters and words (judged ones: names, code, URLs left out) before either signal is; a
# letter of a script without spaces (a Chinese character is a word) counts for three.
MIN_REPLY_LETTERS = 24
UNSPACED_WEIGHT = 3
MIN_REPLY_WORDS = 4
# A reply is foreign when fewer of its words than FOREIGN_WORDS are among the owner's frequent
# ones and fewer of its trigrams than FOREIGN_TRIGRAMS, or when almost none of its words are
# theirs (RARE_WORDS: the trigrams of an owner who writes two languages cover a third one well).
# Tuned on held-out data (docs/brain.md: English replies to English owners are 0.24 and up).
FOREIGN_WORDS = 0.15
FOREIGN_TRIGRAMS = 0.55
RARE_WORDS = 0.1
# A reply is in a foreign script when more than this share of its letters are in scripts the owner
# never typed.
FOREIGN_SCRIPT_SHARE = 0.5
# Scripts written without spaces between words: no word trigrams; the script signal alone.
_UNSPACED = frozenset({"CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR"})
# Character-name prefixes that are not the script itself ("FULLWIDTH LATIN CAPITAL LETTER A").
_NAME_PREFIXES = frozenset({"FULLWIDTH", "HALFWIDTH", "MATHEMATICAL", "CIRCLED", "PARENTHESIZED"})

_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
_URLISH = re.compile(r"(?:https?://|www\.)\S+|[^\s@]+@\S+|[@#]\w+|[\w.-]+\.(?:com|org|net|io)\b\S*")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
# A turn that asks for another language: the reply may rightly be in it.
_TRANSLATION_ASK = re.compile(
    r"translat|tradu[cçz]|übersetz|vertaal|переве|翻[译譯訳]|번역|in (?:another|other) language",
    re.IGNORECASE,
)


class OwnerLanguages(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the owner writes in: letters per script, and their most frequent word trigrams."""

    scripts: dict[str, int] = {}
    trigrams: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


@functools.lru_cache(maxsize=4096)
def script_of(ch: str) -> str | None:
    """The script of a letter by its Unicode name's first word (LATIN, CYRILLIC, CJK, …)."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    if not name:
        return None
    words = name.split()
    if words[0] in _NAME_PREFIXES and len(words) > 1:
        return words[1]
    return words[0]


def _judged(text: str) -> str:
    """The text less what is never judged: code, URLs and addresses. Each pattern needs one of
    its characters to match (_CODE a backtick; _URLISH "://", "www.", "@", "#" or a dot), and
    most chat messages hold none: the owner's profile judges hundreds of them a turn."""
    if "`" in text:
        text = _CODE.sub(" ", text)
    if "." in text or ":" in text or "@" in text or "#" in text:
        text = _URLISH.sub(" ", text)
    return text


def _words(sentence: str) -> list[str]:
    """The sentence's words, less the capitalised ones after its first (names)."""
    found = _WORD.findall(sentence)
    out = found[:1]
    for word in found[1:]:
        if word[:1].isupper() and script_of(word[0]) not in _UNSPACED:
            continue
        out.append(word)
    return out


def _trigrams(words: Iterable[str]) -> Iterable[str]:
    for word in words:
        if script_of(word[0]) in _UNSPACED:
            continue
        padded = f" {word.casefold()} "
        for i in range(len(padded) - 2):
            yield padded[i : i + 3]


def _letters_by_script(words: Iterable[str]) -> Counter[str]:
    return _scripts(Counter("".join(words)))


def _scripts(letters: Counter[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for ch, n in letters.items():  # each distinct letter named once
        script = script_of(ch)
        if script is not None:
            counts[script] += n
    return counts


def _sentences(judged: str) -> list[list[str]]:
    """The words of each sentence of text already rid of what is never judged."""
    return [words for m in _SENTENCE.finditer(judged) if (words := _words(m.group(0)))]


def owner_profile(messages: Iterable[str]) -> OwnerLanguages:
    """The profile of what the owner wrote, newest first (the message being answered, then their
    history rows), up to PROFILE_CHARS. Names count here too: the owner typed them, so their
    script is the owner's.

    Core builds one every turn (a worker only when it is not given core's: a check-in's, or a
    message it cuts); docs/performance.md, "CPU per turn". Each message is judged alone and no
    sentence or word spans two; each distinct word is walked once (ProfileCache, here with
    nothing kept from an earlier call): the counts and the first-seen order (ties in
    `most_common` keep it) of a pass over every occurrence (tests/reference/languages.py)."""
    return ProfileCache().profile(messages)


def _profile(
    grams: Counter[str], vocabulary: Counter[str], scripts: Counter[str]
) -> OwnerLanguages:
    """The profile from the counts of the owner's trigrams, words and letters by script
    (first-seen order: `most_common` keeps it among equal counts)."""
    return OwnerLanguages(
        scripts=dict(scripts),
        trigrams=tuple(gram for gram, _ in grams.most_common(PROFILE_TRIGRAMS)),
        words=tuple(word for word, _ in vocabulary.most_common(PROFILE_WORDS)),
    )


class ProfileCache:
    """`owner_profile` for a process that builds one every turn over mostly the same messages
    (core, for each turn's worker: docs/performance.md, "CPU per turn"). Each message's judged
    length and words (every occurrence, in order: the judged ones, and all of them for the
    letters) are kept, and so are each word's trigrams and letters by script, so a turn judges
    only its new messages, counts the words in C (`Counter` over them chained) and walks each
    distinct word once. Messages are judged one by one and no sentence or word spans two (a
    newline ends both), and a trigram, a word, a letter or a script is first seen at the first
    occurrence of the first word that holds it whichever way the words are walked: the same
    counts in the same order as owner_profile, so the same profile
    (tests/contracts/test_languages.py compares them). It keeps only what the last profile read
    (its messages, their words): the next turn's window is that one moved by a message or two,
    and what slid out of it is never read again, so what it holds is bounded by one window
    (PROFILE_CHARS), not by the pet's age. Not thread-safe: one caller (core's turn, under its
    one-worker gate)."""

    def __init__(self) -> None:
        self._messages: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
        self._grams: dict[str, tuple[str, ...]] = {}
        self._scripts: dict[str, tuple[tuple[str, int], ...]] = {}

    def profile(self, messages: Iterable[str]) -> OwnerLanguages:
        words: list[tuple[str, ...]] = []
        letters: list[tuple[str, ...]] = []
        budget = PROFILE_CHARS
        read: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
        for message in messages:
            if budget <= 0:
                break
            if len(message) <= budget:  # whole: the same counts every turn it is read
                known = self._messages.get(message) or read.get(message)
                if known is None:
                    known = _read(message)
                read[message] = known
            else:  # the oldest one read, cut to what is left of the budget: not kept
                known = _read(message[:budget])
            budget -= known[0]
            words.append(known[1])
            letters.append(known[2])
        grams: Counter[str] = Counter()
        vocabulary: Counter[str] = Counter()
        kept_grams: dict[str, tuple[str, ...]] = {}
        for word, n in Counter(chain.from_iterable(words)).items():
            vocabulary[word.casefold()] += n
            held = self._grams.get(word)
            if held is None:
                held = tuple(_trigrams((word,)))
            kept_grams[word] = held
            for gram in held:
                grams[gram] += n
        scripts: Counter[str] = Counter()
        kept_scripts: dict[str, tuple[tuple[str, int], ...]] = {}
        for word, n in Counter(chain.from_iterable(letters)).items():
            written = self._scripts.get(word)
            if written is None:
                written = tuple(_letters_by_script((word,)).items())
            kept_scripts[word] = written
            for script, count in written:
                scripts[script] += count * n
        # What this window read, and nothing older (the cut message's words included: few).
        self._messages, self._grams, self._scripts = read, kept_grams, kept_scripts
        return _profile(grams, vocabulary, scripts)

    def held(self) -> tuple[int, int]:
        """How many messages and distinct words it keeps counts for now."""
        return len(self._messages), len(self._grams.keys() | self._scripts.keys())


def _read(message: str) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """One message as owner_profile reads it: its judged length, its judged words (each
    occurrence, in order) and all its words (whose letters count, names too)."""
    piece = _judged(message)
    said = tuple(word for sentence in _SENTENCE.findall(piece) for word in _words(sentence))
    return len(piece), said, tuple(_WORD.findall(piece))


def coverage(words: Iterable[str], owner: frozenset[str]) -> float | None:
    """The share of the words' trigrams among the owner's; None when there are none."""
    grams = list(_trigrams(words))
    if not grams:
        return None
    return sum(gram in owner for gram in grams) / len(grams)


def foreign_reason(reply: str, profile: OwnerLanguages | None, message: str = "") -> str | None:
    """Why `reply` is in a language the owner never used, or None (see the module docstring)."""
    if profile is None or not profile.scripts or _TRANSLATION_ASK.search(message):
        return None
    sentences = _sentences(_judged(reply))
    letters = _letters_by_script(w for words in sentences for w in words)
    total = sum(letters.values())
    weighted = total + (UNSPACED_WEIGHT - 1) * sum(
        n for script, n in letters.items() if script in _UNSPACED
    )
    if weighted < MIN_REPLY_LETTERS:
        return None
    foreign_letters = sum(n for script, n in letters.items() if not profile.scripts.get(script))
    if foreign_letters > FOREIGN_SCRIPT_SHARE * total:
        return "a script the owner never writes in"
    main = letters.most_common(1)[0][0]
    if main in _UNSPACED or profile.scripts.get(main, 0) < MIN_OWNER_LETTERS:
        return None
    words = [w for each in sentences for w in each]
    if len(words) < MIN_REPLY_WORDS:
        return None
    vocabulary = frozenset(profile.words)
    word_share = sum(w.casefold() in vocabulary for w in words) / len(words)
    gram_share = coverage(words, frozenset(profile.trigrams))
    low_grams = gram_share is not None and gram_share < FOREIGN_TRIGRAMS
    if word_share < RARE_WORDS or (word_share < FOREIGN_WORDS and low_grams):
        return "a language the owner never used"
    return None
