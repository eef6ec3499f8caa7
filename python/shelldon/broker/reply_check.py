"""Is a model's reply fit to show the owner? The check every answer passes before the chain
hands it on, so nothing raw is ever shown or stored as the pet's words.

Unusable (the chain then asks the next provider, the offline brain last):
- an envelope: the text is (or holds) a JSON object or array, after the reply parser took what
  the protocol's own envelope carried — `{"answer": "hi"}`, `{"id": 1234…}`, `[…]`;
- a template placeholder echoed from a prompt, or invented: `<what you say to your owner>`,
  `[YourName]`, `[Time]` (a capitalised word or two in square brackets, not a markdown link), a
  made-up link of the same kind (`www.your-hotel-address.com`, `example.com`);
- a digit flood: a long run of digits, or a text that is mostly digits;
- a reply the token budget cut mid-sentence, when little of it is whole;
- a transcript: lines in the prompt's own row format (`owner: …`, `pet: …`) or a chat's role
  labels (`User:`, `Assistant:`, `You:`), which a small model copies from the recent window;
- a repetition loop: one sentence said three times or more, or a phrase that keeps coming back
  (a run of four words said three times, and repeats making a fifth of the text; or a few words
  turned round and round, fewer than 45 % of any 24 words in a row distinct: the loop a small
  model runs until `max_tokens`, in words that differ a little each time) in a reply the token
  budget cut (`cut`) or a short one (a long answer that ended on its own may be a list of like
  lines);
- a prompt echo: a section's title ("The owner says", "Recent conversation", …) or the "# Now"
  line's clock (a markdown heading alone is not: a good answer to a how-to may have some), a
  memory entry's own heading (`## sister [people, owner]`, `- sister [people]`), or eight words
  in a row of the system instruction (`instructions`: never words for the owner);
- the pet speaking as its owner: "I'm Sam", "my name is Sam" when Sam is the owner's name, or
  "I live in Lisbon", "I work at the city library" when that is what the owner said of
  themselves (a small model that mixes up who is who; "I'm Sam's pet", "I live in your
  pocket" are not that);
- narration: the owner named in the third person twice or more ("The owner says…", "the
  owner's response…"): the pet talks to its owner, never about them, and a small model that
  narrates is retelling the prompt;
- talk about its prompt: the owner retold as the message's speaker ("The user says …"), the task
  described ("You're asked to answer …"), the role play set up, the owner's message marked as
  writing when they did not ask for that (broker.prompt_talk; its lead-ins and notes around
  good words were taken off before, by the scrub);
- a request for a secret: the owner asked for a password, a PIN, a one-time code, a card number
  (broker.reply_secrets; the pet never needs one, and the vault is filled by hand);
- a language the owner never used: mostly in a script they never typed, or, in their script, in
  words and letter patterns that are not theirs (shelldon.contracts.languages, learned from the
  owner's own messages; never judged without enough of them).

A reply cut at the token budget after at least half of it was whole sentences is kept up to its
last whole sentence: a long, good answer loses its tail, not the turn.

`loggable` is how unusable text reaches the log: cut short and scrubbed of anything key-shaped,
never whole (it may quote a secret the model saw).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shelldon.broker.prompt_talk import marks_the_writing, narrates_prompt
from shelldon.broker.providers.base import scrub
from shelldon.broker.reply_secrets import asks_for_secret
from shelldon.contracts.languages import OwnerLanguages, foreign_reason
from shelldon.contracts.ops import COLLECTION_NAMES

# A placeholder: angle brackets around a few lower-case words ("<one short sentence for your
# owner>", "<short title>"); "<3", "<b>" and "a < b > c" are not.
_PLACEHOLDER = re.compile(r"<[a-z][a-z'’ ,/_-]{2,80}[a-z]>")
_PLACEHOLDER_WORDS = re.compile(r"<[^<>]*\s[^<>]*>")  # at least two words inside
_SQUARE_PLACEHOLDER = re.compile(r"\[(?:[A-Z][a-z']*\s?){1,3}\](?!\()")
# A link made up as a template's: "www.your-hotel-address.com", "yourwebsite.com", "example.com".
_PLACEHOLDER_LINK = re.compile(
    r"\b(?:https?://)?(?:www\.)?(?:your|insert|enter)(?:[-_][a-z0-9-]+|website|site|domain|company"
    r"|business|name|link|url|page|blog|shop|store)\.(?:com|org|net|io)\b"
    r"|\b(?:https?://)?(?:www\.)?example\.(?:com|org|net)\b",
    re.IGNORECASE,
)
_DIGIT_RUN = re.compile(r"\d{40,}")
_SENTENCE_END = re.compile(r"[.!?…)\]\"'”’»。！？]\s*$")
_LAST_SENTENCE_END = re.compile(r"[.!?…。！？][\"'”’»)\]]*(?=\s|$)")
_JSON_PAIR = re.compile(r'\{\s*"[^"\n]{1,60}"\s*:')
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_ROLE_LINE = re.compile(
    r"^\s*(?:owner|pet|user|assistant|you|the owner|shelldon|system)\s*(?:\([^)]*\))?\s*:",
    re.IGNORECASE | re.MULTILINE,
)
# The titles of the prompt's sections (shelldon.worker.prompt; tests/broker/test_reply_check.py
# checks the list against them), as a model echoes them without the "#".
PROMPT_TITLES = (
    "Owner's directive (DIRECTIVE.md",
    "About me (about.md)",
    "Conversation so far",
    "Memory (curated entries",
    "Recent conversation (oldest first)",
    "Recalled from earlier conversation",
    "The owner says",
    "Check-in: you speak first",
)
_TITLE = re.compile("|".join(re.escape(t) for t in PROMPT_TITLES), re.IGNORECASE)
# The "# Now" line (shelldon.contracts.localtime.now_line): "Tuesday 2026-12-01 22:06, time zone".
_NOW_LINE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}, time zone ")
_THE_OWNER = re.compile(r"\bthe owner\b", re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?\n]+[.!?]*")
_WORDS = re.compile(r"[\w']+")
# How the prompt shows a memory entry (shelldon.worker.prompt: `## title [collection,
# provenance]`, `- title [collection]` when shown by title).
_ENTRY_HEAD = re.compile(
    r"^\s*(?:#{1,3}|-)\s+\S[^\n]{0,160}\[(?:"
    + "|".join(COLLECTION_NAMES)
    + r")(?:,\s*[a-z][a-z ]*)*\]\s*$",
    re.MULTILINE | re.IGNORECASE,
)
_ECHO_WORDS = 8  # words in a row of the system instruction that make an echo
_LOOP_GRAM = 4
_LOOP_SHARE = 0.2
_LOOP_SHORT = 80  # words: a reply this short that loops is a loop, cut or not
# A loop in words that differ each time ("I'll miss you. You're going to miss me. I'm going to
# miss you …"): any run of this many words with fewer than this share of distinct words. Words
# an owner reads (a list, a recipe, a schedule) stay well over it; a loop of a few words turned
# round and round falls well under it.
_LOOP_WINDOW = 24
_LOOP_MIN_WORDS = 10
_LOOP_DISTINCT = 0.45
_LOG_CHARS = 120


def unusable_reason(
    text: str,
    languages: OwnerLanguages | None = None,
    message: str = "",
    instructions: str = "",
    cut: bool = False,
    owner: str = "",
    owner_said: Sequence[str] = (),
    spoken: bool = True,
) -> str | None:
    """Why `text` must not be shown to the owner, or None when it may. `languages` is what the
    owner writes in and `message` what they asked (None, "": no language is judged);
    `instructions` the prompt's system instruction ("": no echo of it is looked for); `cut`: the
    token budget cut the answer; `owner` the owner's name ("": none known) and `owner_said`
    what the owner said of themselves (their message, memory's statements about them);
    `spoken`: the owner reads the text (a turn, a check-in; a dream's note is about the owner,
    and may retell what they said)."""
    stripped = text.strip()
    if not stripped:
        return "empty reply"
    if _looks_like_json(stripped):
        return "a JSON envelope, not words"
    for match in _PLACEHOLDER.finditer(stripped):
        if _PLACEHOLDER_WORDS.fullmatch(match.group(0)):
            return "a template placeholder"
    if _SQUARE_PLACEHOLDER.search(stripped) or _PLACEHOLDER_LINK.search(stripped):
        return "a template placeholder"
    if _DIGIT_RUN.search(stripped):
        return "a digit flood"
    digits = sum(ch.isdigit() for ch in stripped)
    if len(stripped) >= 40 and digits * 2 > len(stripped):
        return "mostly digits"
    if len(_ROLE_LINE.findall(stripped)) >= 2 or _ROLE_LINE.match(stripped):
        return "a transcript, not a reply"
    if _repeats(stripped) or _looping(stripped, cut):
        return "a repetition loop"
    if _TITLE.search(stripped) or _NOW_LINE.search(stripped) or _ENTRY_HEAD.search(stripped):
        return "a prompt echo"
    if instructions and _shares_run(stripped, instructions, _ECHO_WORDS):
        return "a prompt echo"
    if (owner and _claims_name(stripped, owner)) or _claims_life(stripped, owner_said):
        return "the pet speaking as its owner"
    if len(_THE_OWNER.findall(stripped)) >= 2:
        return "narration about the owner, not words to them"
    if spoken and narrates_prompt(stripped):
        return "talk about its prompt, not words to the owner"
    if spoken and marks_the_writing(stripped, message):
        return "marks the owner's writing, which they did not ask for"
    if asks_for_secret(stripped):
        return "asks the owner for a secret"
    return foreign_reason(stripped, languages, message)


_I_AM = r"(?:\bI(?:'m|’m| am)|\b[Mm]y name(?:'s|’s| is)|\b[Cc]all me)"


def _claims_name(text: str, owner: str) -> bool:
    """ "I'm Sam" or "my name is Sam" with Sam the owner's name (not "I'm Sam's pet")."""
    said = re.search(rf"{_I_AM}\s+{re.escape(owner)}\b(?!['’]s)", text)
    return said is not None


# Where someone lives, works, studies or comes from, said in the first person (the pet's words)
# or of the owner (memory's "The owner lives in Lisbon", the message's "I live in Lisbon").
_LIFE = (
    r"(?:(?P<verb>live|lives|living|work|works|working|study|studies|studying|grew up)"
    r"\s+(?:in|at|as|for)|(?P<origin>come|comes|am|is|'m)\s+from)\s+(?P<place>[^.,!?;:\n]{2,60})"
)
_I_LIFE = re.compile(rf"\bI(?:\s+(?:also|still|now))?(?:\s+|(?='m)){_LIFE}")
_THEIR_LIFE = re.compile(rf"(?:\bI|\b[Tt]he owner)(?:\s+(?:also|still|now))?(?:\s+|(?='m)){_LIFE}")
_LIFE_STEM = {
    "lives": "live",
    "living": "live",
    "works": "work",
    "working": "work",
    "studies": "study",
    "studying": "study",
}
_PLACE_WORDS = re.compile(r"[^\W\d_]{3,}")
_NOT_PLACE = frozenset({"the", "and", "your", "with", "too", "also", "here", "there", "now"})


def _lives(found: re.Match[str]) -> tuple[str, frozenset[str]]:
    verb = "from" if found.group("origin") else found.group("verb")
    words = {w.casefold() for w in _PLACE_WORDS.findall(found.group("place"))} - _NOT_PLACE
    return _LIFE_STEM.get(verb, verb), frozenset(words)


def _claims_life(text: str, owner_said: Sequence[str]) -> bool:
    """ "I live in Lisbon" in the pet's words when the owner said they live in Lisbon."""
    if not owner_said:
        return False
    theirs = [_lives(m) for said in owner_said for m in _THEIR_LIFE.finditer(said)]
    for found in _I_LIFE.finditer(text):
        verb, place = _lives(found)
        if place and any(v == verb and place & p for v, p in theirs):
            return True
    return False


def _repeats(text: str, times: int = 3) -> bool:
    seen: dict[str, int] = {}
    for match in _SENTENCES.finditer(text):
        sentence = " ".join(match.group(0).casefold().split())
        if len(sentence) < 4:
            continue
        seen[sentence] = seen.get(sentence, 0) + 1
        if seen[sentence] >= times:
            return True
    return False


def _looping(text: str, cut: bool) -> bool:
    """A phrase that keeps coming back: one run of words three times, repeats a fifth of all;
    in a cut reply, or a short one."""
    words = _WORDS.findall(text.casefold())
    if not cut and len(words) > _LOOP_SHORT:
        return False
    if _few_words_over_and_over(words):
        return True
    counts: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - _LOOP_GRAM + 1):
        gram = tuple(words[i : i + _LOOP_GRAM])
        counts[gram] = counts.get(gram, 0) + 1
    if not counts or max(counts.values()) < 3:
        return False
    repeats = sum(n - 1 for n in counts.values())
    return repeats >= _LOOP_SHARE * sum(counts.values())


def _few_words_over_and_over(words: list[str]) -> bool:
    """A run of `_LOOP_WINDOW` words (the whole reply, when shorter) with few distinct ones."""
    if len(words) < _LOOP_MIN_WORDS:
        return False
    window = min(_LOOP_WINDOW, len(words))
    for start in range(len(words) - window + 1):
        if len(set(words[start : start + window])) < _LOOP_DISTINCT * window:
            return True
    return False


def _shares_run(text: str, source: str, length: int) -> bool:
    """`length` words in a row of `source` appear in `text` (case and punctuation aside)."""
    theirs = _WORDS.findall(source.casefold())
    runs = {tuple(theirs[i : i + length]) for i in range(len(theirs) - length + 1)}
    ours = _WORDS.findall(text.casefold())
    return any(tuple(ours[i : i + length]) in runs for i in range(len(ours) - length + 1))


def _looks_like_json(text: str) -> bool:
    """A reply that opens with an object or array, or carries a `{"key":` pair outside a code
    fence (JSON inside a fence was shown on purpose)."""
    if text[0] in "{[" and (text[-1] in "}]" or '":' in text[:200]):
        return True
    return bool(_JSON_PAIR.search(_FENCED.sub("", text)))


def whole_part(text: str) -> str | None:
    """A reply cut at the token budget, up to its last whole sentence; None when less than half
    of it is whole (then it is unusable)."""
    stripped = text.rstrip()
    if _SENTENCE_END.search(stripped):
        return stripped
    ends = list(_LAST_SENTENCE_END.finditer(stripped))
    if not ends:
        return None
    kept = stripped[: ends[-1].end()].rstrip()
    return kept if len(kept) * 2 >= len(stripped) else None


def loggable(text: str) -> str:
    """Unusable model output as it may be logged: one line, cut short, scrubbed."""
    flat = " ".join(text.split())
    flat = scrub(flat)
    return flat if len(flat) <= _LOG_CHARS else flat[: _LOG_CHARS - 1] + "…"
