"""The owner's language profile as `shelldon.contracts.languages.owner_profile` computed it before
it read the messages as one text and counted each distinct word's trigrams once: every message
judged, split and counted on its own, every occurrence's trigrams counted. For the test that the
two agree (tests/contracts/test_languages.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from shelldon.contracts import languages
from shelldon.contracts.languages import OwnerLanguages


def _judged(text: str) -> str:
    return languages._URLISH.sub(" ", languages._CODE.sub(" ", text))


def _words(sentence: str) -> list[str]:
    out: list[str] = []
    for index, match in enumerate(languages._WORD.finditer(sentence)):
        word = match.group(0)
        if (
            index > 0
            and word[:1].isupper()
            and languages.script_of(word[0]) not in languages._UNSPACED
        ):
            continue
        out.append(word)
    return out


def _sentences(judged: str) -> list[list[str]]:
    return [words for m in languages._SENTENCE.finditer(judged) if (words := _words(m.group(0)))]


def owner_profile(messages: Iterable[str]) -> OwnerLanguages:
    scripts: Counter[str] = Counter()
    grams: Counter[str] = Counter()
    vocabulary: Counter[str] = Counter()
    budget = languages.PROFILE_CHARS
    for message in messages:
        if budget <= 0:
            break
        judged = _judged(message[:budget])
        budget -= len(judged)
        for words in _sentences(judged):
            grams.update(languages._trigrams(words))
            vocabulary.update(w.casefold() for w in words)
        scripts.update(languages._letters_by_script(languages._WORD.findall(judged)))
    return OwnerLanguages(
        scripts=dict(scripts),
        trigrams=tuple(gram for gram, _ in grams.most_common(languages.PROFILE_TRIGRAMS)),
        words=tuple(word for word, _ in vocabulary.most_common(languages.PROFILE_WORDS)),
    )
