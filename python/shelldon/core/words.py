"""Words: what a word is, which words say nothing, and how a word's other forms meet.

The one home of the stop words and the stemmer. Retrieval ranks entries on `tokens`; the dream
asks whether two texts are about the same thing (`content_words`, `shares_words`, `near`); the
offline brain matches questions to statements and names what it keeps; the Rust near-duplicate
check (rust/src/similarity.rs) holds its own copy of `SIMILARITY_STOPWORDS`, `NEGATIONS` and
`NUMBER_WORDS`, which tests/core/test_words.py keeps equal to these.
"""

from __future__ import annotations

import re
import unicodedata

from shelldon import _native

# Words that carry a sentence's grammar, not what it is about: articles, pronouns, auxiliaries,
# prepositions, conjunctions, question words, and the fragments a contraction leaves when it is
# split ("it's" -> it, s).
ARTICLES: frozenset[str] = frozenset({"a", "an", "the"})
FUNCTION_WORDS: frozenset[str] = ARTICLES | frozenset(
    re.findall(
        r"\S+",
        """
        i me my mine myself we us our ours you your yours yourself he him his she her it its
        they them their this that these those
        am is are was were be been being do does did done have has having had
        can could will would shall should may might must
        about after again as at before by for from in into of on over to too under up with
        and or but if so than then when where while which who whom whose what whats why how
        here there all any some such more most other only own same also just very still ever
        anything something no not yes
        s t d ll re ve m
        """,
    )
)
# The words of asking and telling ("please tell me what you remember"): they frame a question or
# a statement, they do not say what it is about.
ASKING_WORDS: frozenset[str] = frozenset(
    re.findall(r"\S+", "please really know remember recall say says said tell told")
)
# The stop words: what retrieval, the dream and the offline brain drop before comparing words.
STOPWORDS: frozenset[str] = FUNCTION_WORDS | ASKING_WORDS

# The pet's own nouns, which nearly every memory holds ("The owner ..."). The dream and the offline
# brain compare what is said about the owner and drop them too; retrieval keeps them, so a question
# about the owner ("what does my owner enjoy?") reaches the memories about the owner.
PET_WORDS: frozenset[str] = frozenset({"owner", "owners", "pet", "shelldon"})

# Words that hedge an observation ("The owner *seems* to *usually* ..."): the dream ignores them
# when it compares two observations; the offline brain keeps them ("usually" names a habit).
HEDGES: frozenset[str] = frozenset({"seems", "likely", "often", "usually"})

# Words that flip a statement: the near-duplicate check vetoes "duplicate" when their count's
# parity differs between two texts ("likes coffee" / "doesn't like coffee").
NEGATIONS: frozenset[str] = frozenset(
    re.findall(r"\S+", "cannot neither never no nobody none nor not nothing nowhere without")
)

# Number words the near-duplicate check treats like digits ("two cats" / "three cats").
NUMBER_WORDS: frozenset[str] = frozenset(
    re.findall(
        r"\S+",
        """zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty
        fifty hundred thousand million first second third once twice""",
    )
)

# Words a stored fact turns on though they look like grammar: how far it holds ("only", "still")
# and which way it goes ("up", "over", "under"). The near-duplicate check keeps them as content:
# on the MSRP pairs, dropping them merged more non-paraphrases (docs/gate.md).
QUALIFIERS: frozenset[str] = frozenset({"only", "still", "up", "over", "under"})

# Words that only say that a name follows ("is called Lars", "named Priya"): a text that keeps the
# name and drops them drops nothing ("the brother Lars is a pilot"; gate.identifiers).
NAMING_WORDS: frozenset[str] = frozenset(
    {"called", "named", "name", "names", "nicknamed", "aka", "known"}
)

# The near-duplicate check's stop words: the function words but the negations (it counts those)
# and the qualifiers. Who did something ("the owner" / "the pet") and what was said or known
# are part of a stored fact, so the asking words and the pet's nouns are not in it either.
SIMILARITY_STOPWORDS: frozenset[str] = FUNCTION_WORDS - NEGATIONS - QUALIFIERS

_UNSAID = STOPWORDS | PET_WORDS | HEDGES

_WORD = re.compile(r"\w+")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def words(text: str) -> list[str]:
    """Every word of `text`, in order: NFKC, case-folded, runs of word characters."""
    return _WORD.findall(_fold(text))


# Snowball English (Porter2) in Rust (rust/src/words.rs): camped, camping, camps -> camp; stories,
# story -> stori; passionate, passion -> passion. A word with digits ("2010s") stays as it is.
# History recall's FTS5 index stems with sqlite's own porter tokenizer (core.history.recall), the
# older Porter algorithm: the two meet on most words but not all, and never need to (each side
# compares its own stems only).
_TOKENIZER = _native.Tokenizer(sorted(STOPWORDS))
stem = _TOKENIZER.stem


def tokens(text: str) -> list[str]:
    """The words that carry meaning, stemmed, in order, repeats kept: what the ranker counts.
    Split, stop words and stems in Rust: curated memory tokenises every entry."""
    return _TOKENIZER.tokens(_fold(text))


def content_words(text: str) -> set[str]:
    """The stemmed words of `text` that say what it is about: three letters or more, not a stop
    word, one of the pet's nouns or a hedge. The dream compares observations with these."""
    return {stem(w) for w in words(text) if len(w) >= 3 and w not in _UNSAID}


def shares_words(a: str, b: str, *, at_least: int = 1) -> bool:
    return len(content_words(a) & content_words(b)) >= at_least


def near(text: str, observation: str) -> bool:
    """`text` says most of what `observation` says (at least two of its content words, or half)."""
    wanted = content_words(observation)
    if not wanted:
        return False
    shared = wanted & content_words(text)
    return len(shared) >= max(2, (len(wanted) + 1) // 2)


# History recall's list (core.history.recall): English function words (NLTK's list and the modal
# verbs it leaves out), used with the document frequencies recall keeps; no query word among them
# says what a row is about, and a history too small for its own counts to show that needs the list.
# Larger than STOPWORDS on purpose: recall measured better with it (docs/recall.md).
HISTORY_STOPWORDS: frozenset[str] = frozenset(
    """i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
    yourselves he him his himself she she's her hers herself it it's its itself they them their
    theirs themselves what which who whom this that that'll these those am is are was were be been
    being have has had having do does did doing a an the and but if or because as until while of
    at by for with about against between into through during before after above below to from up
    down in out on off over under again further then once here there when where why how all any
    both each few more most other some such no nor not only own same so than too very s t can will
    just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn
    didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn
    mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn
    wouldn't would could might must shall""".split()  # noqa: SIM905
)
