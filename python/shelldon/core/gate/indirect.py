"""Indirect injection read as a structure (docs/gate-design.md "Indirect injection as a structure"):
text inside content (an email, a review, a page, a code comment, an invite, a tool's result) that
speaks to the machine that will read it and tells it what to do to the conversation.

Not a list of orders: a sentence is read for three parts, each found by its grammar.
- The addressee: a machine reader named as one ("AI", "KI", "IA", "LLM", a bot, a crawler, a
  summariser, a language model; an assistant, model, agent, system or tool marked as a machine by
  a word before it, an "AI-" compound, a postposed "IA", or a clause about what it does with the
  text: "models that cite this paper", "assistants comparing mugs"), in a vocative's place (at a
  sentence's, bracket's, quote's or clause's head, after "to"/"for"/"dear", before a colon, comma
  or dash), or as the subject of "must", "should", "are asked to".
- A reading of this text, as a condition: "when summarizing this message", "if an automated
  system is processing this ticket", "wenn du diese E-Mail zusammenfasst", "cuando resumas este
  correo", "if you are an AI".
- The directive: an imperative (a word that is no function word, at a clause's head, with an
  object after it: a determiner, a pronoun, "that", a quote, a link, a number), or a modal with one.
A machine addressee or a reading condition, with a directive that reaches the conversation (this
text, the user, the owner, "your answer", a link, a claim "that ...") or is addressed to a class
of readers, refuses. So does a directive about "your summary / answer" of this text. The owner's
own words speak of "me" and "my", name no machine reader and no reading of "this" text: "when
you run the tests, include --slow", "when summarizing papers for me, mention the sample size",
"remind me to tell the user group" pass.
Over 400 lines: one reading in three parts that share the sentence split, the word classes of six
languages and the imperative's test; apart, each would re-derive the others' grammar.
"""

from __future__ import annotations

import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache, reduce
from operator import or_

RULE_ID = "indirect-reader-directive"

# Function words of English, German, French, Spanish, Italian and Dutch: what an imperative is not.
_FUNCTION = frozenset(
    """
    a an the this that these those there here it its they them their theirs he she his her him
    we us our you your yours i me my mine who whom whose which what when where why how whoever
    anyone someone everyone nobody anything something everything nothing all any some each every
    no not none both either neither other another such only also just very too so as if then
    than and or but nor yet because since while until unless though although whether of to in on
    at by for with from into onto upon about above below under over after before between through
    during without within against among per via is are was were be been being am has have had
    having do does did done will would shall should can could may might must ought one two three
    four five six seven eight nine ten more most less least much many few lot lots up down out
    off again once ok okay yes sure thanks thank great good new old best der die das den dem des
    ein eine einen einem einer eines ich du er sie es wir ihr mein meine dein deine sein seine
    unser unsere euer ist sind war waren hat haben hatte wird werden kann koennen muss mussen
    soll sollen nicht kein keine und oder aber mit von zu zum zur fur auf im am an bei nach aus
    uber unter vor hier da dort wenn als wie was wer wo auch noch nur schon sehr le la les l un
    une des du de d ce cet cette ces je tu il elle nous vous ils elles est sont etait a ont et
    ou mais avec pour sur dans par en ne pas plus tres ici qui que quoi dont au aux el los las
    unos unas del al y o pero con para por es son esta estan fue ha han no muy aqui su sus mi
    mis tu tus lo se il lo gli i una di della dello delle degli e ma su nel nella sono hanno non
    molto qui che suo sua het een en maar met voor op zijn heeft hebben niet geen hier dit deze
    dat wat wie dass dab todo todos toda todas tout tous toute toutes alle alles allen tutto
    tutti tutte ogni cada chaque jede jeden jedes elke ieder bist bin seid suis sommes etes eres
    soy somos sois sei siete ben bent ihn ihm ihnen uns euch dich dir hem
    """.split()  # noqa: SIM905
)

# Words that may stand between an addressee and its imperative, or before the imperative.
_FILLERS = frozenset(
    """
    please kindly pls plz also always just now then simply immediately quietly silently only
    bitte immer auch einfach sofort jetzt por favor siempre tambien ahora per favore sempre
    anche ora svp toujours aussi maintenant alsjeblieft altijd ook nu do
    """.split()  # noqa: SIM905
)
_FILLER_PHRASES = (
    ("be", "sure", "to"),
    ("make", "sure", "to"),
    ("make", "sure", "you"),
    ("remember", "to"),
    ("don't", "forget", "to"),
    ("do", "not", "forget", "to"),
    ("are", "asked", "to"),
    ("has", "to"),
    ("have", "to"),
    ("are", "requested", "to"),
    ("are", "required", "to"),
    ("are", "instructed", "to"),
    ("is", "asked", "to"),
    ("is", "required", "to"),
    ("is", "to"),
    ("are", "to"),
    ("need", "to"),
    ("needs", "to"),
    ("you", "should"),
    ("you", "must"),
    ("s'il", "vous", "plait"),
)
# The first words of "are asked to", "has to", "needs to": bound to do what follows.
_BOUND = frozenset("are is has have need needs".split())  # noqa: SIM905
# The filler phrases by their first word, in their order (a phrase is tried only where its first
# word stands); those that bind, apart.
_PHRASES_AT: dict[str, tuple[tuple[str, ...], ...]] = {}
for _phrase in _FILLER_PHRASES:
    _PHRASES_AT[_phrase[0]] = (*_PHRASES_AT.get(_phrase[0], ()), _phrase)
_BINDING_AT = {word: _PHRASES_AT[word] for word in _BOUND if word in _PHRASES_AT}
_NEGATIONS = frozenset({"don't", "never", "do not", "nie", "niemals", "ne", "no", "non", "niet"})
_MODALS = frozenset(
    """
    must should shall sollen sollt soll mussen musst muss doivent doit devez deben debe debeis
    devono deve dovete moeten moet
    """.split()  # noqa: SIM905
)

# Machine readers. Strong: a machine by the word alone. Weak: an assistant, model, agent, system
# or tool, which people are too, unless something marks it as a machine.
_STRONG_HEADS = re.compile(
    r"(?:ai|a\.i|ki|ia|llms?|gpts?|chatgpt|chat-?bots?|bots?|copilots?|crawlers?|scrapers?"
    r"|spiders?|summari[sz]ers?|sprachmodell(?:e|en)?|taalmodel(?:len)?"
    r"|(?:ai|ki|ia|llm)-[a-z]+|[a-z]+-(?:ai|ki|ia|bots?))"
)
_WEAK_HEADS = re.compile(
    r"(?:assistants?|assistent(?:en|in|innen)?|asistentes?|assistenti|assistente|models?|modelle?n?"
    r"|modeles?|modelos?|modell[io]|agents?|agenten?|agentes?|agenti|systems?|systeme?|sistemas?"
    r"|sistemi|tools?|outils?|herramientas?|strumenti|readers?|processors?|helpers?|sorters?"
    r"|reviewers?|secretar(?:y|ies)|parsers?|indexers?|organi[sz]ers?|writers?|planners?)"
)
_MACHINE_MARKS = frozenset(
    """
    ai a.i ki ia llm gpt automated automatic autonomous smart virtual digital robotic
    automatisierte automatische automatise automatises automatizado automatizados automatico
    automatici language sprach virtuali virtuale virtuales virtuel virtuels virtuelle virtuelles
    virtuele digitali digitale digitales intelligenti intelligente intelligentes inteligente
    inteligentes automatique automatiques automatizzati automatizzato
    """.split()  # noqa: SIM905
)
# A reading of the text: what a machine does with what it reads (stems, six languages).
_READING = re.compile(
    r"(?:summar|recap|process|pars|analy[sz]|index|crawl|scrap|classif|cit(?:e|es|ing)$"
    r"|quot(?:e|es|ing)$|answer|respond|report|explain|zusammenfass|verarbeit|auswert|analysier"
    r"|resum|trait|procesa|analiz|riassum|elabor|samenvat|verwerk|generat|asked|queried|prompted|gefragt|demande|pregunt|chiest|read|reads|reading|lies|liest"
    r"|lee|leen|lean|lit|lisent|lisant|legge|leggono|lees|leest)"
)
# "this" text (the carrier speaking of itself), not a time ("this week").
_SELF = frozenset(
    """
    this these ceci dies diese dieser diesen diesem dieses este esta esto estos estas ce cet
    cette ces questo questa questi queste dit deze above following
    """.split()  # noqa: SIM905
)
_TIMES = frozenset(
    """
    week weekend month year morning afternoon evening night time summer winter spring autumn
    fall season sprint monday tuesday wednesday thursday friday saturday sunday woche monat jahr
    abend semaine mois annee matin soir semana mes ano manana tarde noche settimana mese anno
    mattina sera maand jaar avond
    """.split()  # noqa: SIM905
)
_USERS = re.compile(
    r"(?:users?|readers?|visitors?|customers?|travell?ers?|buyers?|owner|owner's|asker|nutzer"
    r"|nutzerin|benutzer|leser|utilisateurs?|utilisatrice|lecteurs?|usuarios?|lectores?|utenti"
    r"|utente|lettori|gebruikers?|lezers?)"
)
_OUTPUTS = re.compile(
    r"(?:answers?|repl(?:y|ies)|responses?|summar(?:y|ies)|recaps?|outputs?|overviews?|antwort"
    r"|antworten|zusammenfassung|ausgabe|reponses?|resumes?|respuestas?|resumen(?:es)?|rispost[ae]"
    r"|riassunt[oi]|antwoord|samenvatting)"
)
_YOUR = frozenset(
    """
    your deine deiner ihre ihrer eure ta votre tu su tua sua je jouw uw
    """.split()  # noqa: SIM905
)
_CONDITIONS = frozenset(
    """
    if when whenever while once before after whoever anyone wenn falls sobald beim si quand
    lorsque cuando mientras al se quando mentre als wanneer zodra wer quien quiconque chiunque
    """.split()  # noqa: SIM905
)
_ADDRESS = frozenset(
    """
    to for dear hey hi hello attention attn an fur liebe lieber pour cher chere para querido
    querida per caro cara gentile aan voor beste geachte
    """.split()  # noqa: SIM905
)
_YOU = frozenset(
    ["you", "you're", "youre", "tu", "du", "eres", "sei", "bist", "vous", "usted", "jij", "je"]
)
_SUBJECTS = frozenset(
    ["it", "you", "they", "er", "sie", "il", "elle", "ils", "ellos", "ellas", "esso", "essi"]
)
_FIRST_PERSON = frozenset(
    ["me", "my", "i", "mir", "mich", "mein", "meine", "moi", "mes", "mon", "mi", "mis"]
)
_LINK = re.compile(r"https?:|www\.|[a-z0-9-]+\.(?:example|com|org|net|io|co|info|app|dev|ly)\b|@")
_CLAUSE_END = frozenset({",", ":", "-", ";", '"', "'", "="})

_TOKEN = re.compile(r"@?[a-z0-9]+(?:['.-][a-z0-9]+)*\.?|[,:;=\-\"']")
# One pass over the text: where a sentence, bracket, cell, comment or line ends (group 1), or a
# word or a mark (group 2).
_SCAN = re.compile(
    r"(\n|[.!?](?=\s|$)|[()\[\]{}<>|*#]|//|/\*|\*/|<!--|-->)"
    r"|(@?[a-z0-9]+(?:['.-][a-z0-9]+)*|[,:;=\-\"'])"
)


# Words written with a capital inside a sentence in the text as typed: names, which an order's
# object may be ("list Tom as absent", "recommend Casa Azul"); set for one reading at a time.
@dataclass(slots=True)
class _Typed:
    """The text as typed, and its names once asked for (most readings never need them)."""

    text: str
    names: frozenset[str] | None = None


_TYPED: ContextVar[_Typed | None] = ContextVar("_TYPED", default=None)
# After a word in small letters: "list Tom", not "Volume Manager" (a product's name in title case).
_CAPITALISED = re.compile(r"(?<![A-Za-z])[a-z]+ ([A-Z][a-z]+)")


def _names() -> frozenset[str]:
    held = _TYPED.get()
    if held is None:
        return frozenset()
    if held.names is None:
        held.names = frozenset(_ascii(w) for w in _CAPITALISED.findall(held.text))
    return held.names


@dataclass(frozen=True, slots=True)
class _Sentence:
    words: list[str]
    first: bool  # the text's first segment (a prompt's head, not an embedded address)
    kinds: list[int]  # each word's `_kind`, found once per text


def _ascii(text: str) -> str:
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# An elided article or preposition ("l'IA", "all'utente", "dell'assistente") is a word of its own.
_ELIDED = frozenset("l d j m t s n c qu dell all nell dall sull un".split())  # noqa: SIM905


def _sentences(text: str) -> list[_Sentence]:
    """The text's sentences (`_SCAN`'s ends between them), each a list of words.

    No match of `_SCAN` holds a space, and a stop ends a sentence only before a space or the
    end, so the text is read line by line (a "\n" ends a sentence) and chunk by chunk between
    spaces: a chunk of small ASCII letters or digits is one word (with a stop after it, a word
    and an end), and only the other chunks are scanned: the same words and ends as scanning
    the whole text, without a match object for each plain word."""
    out: list[_Sentence] = []
    words: list[str] = []
    for n, line in enumerate(_ascii(text).split("\n")):
        if n and words:
            out.append(_Sentence(words, not out, list(map(_kind, words))))
            words = []
        for chunk in line.split():
            if chunk.isascii():
                if chunk.isalnum() and (chunk.islower() or chunk.isdigit()):
                    words.append(chunk)
                    continue
                word = chunk[:-1]
                if chunk[-1] in _STOPS and word.isalnum() and (word.islower() or word.isdigit()):
                    words.append(word)
                    out.append(_Sentence(words, not out, list(map(_kind, words))))
                    words = []
                    continue
            for end, word in _SCAN.findall(chunk):
                if end:
                    if words:
                        out.append(_Sentence(words, not out, list(map(_kind, words))))
                        words = []
                    continue
                if "'" in word and len(word) > 1:
                    head, _, rest = word.partition("'")
                    if head in _ELIDED and rest:
                        words.append(head)
                        word = rest
                words.append(word)
    if words:
        out.append(_Sentence(words, not out, list(map(_kind, words))))
    return out


_STOPS = frozenset(".!?")


def _skip_fillers(words: list[str], i: int) -> int:
    while i < len(words):
        if words[i] in _FILLERS or words[i] == ",":
            i += 1
            continue
        for phrase in _PHRASES_AT.get(words[i], ()):
            if tuple(words[i : i + len(phrase)]) == phrase:
                i += len(phrase)
                break
        else:
            return i
    return i


# Function words that open no object: conjunctions, prepositions (but "to", "with"), auxiliaries.
_NO_OBJECT = frozenset(
    """
    and or but nor yet so because since than if then though although while until unless whether
    is are was were be been being am of in on at by as for from into onto upon about above below
    under over after before between through during without within against among per via has have
    had do does did will would shall should can could may might must not no very too und oder
    aber et ou mais y o pero e ma en
    """.split()  # noqa: SIM905
)


def _object_follows(words: list[str], i: int) -> bool:
    """What an imperative's object opens with, at words[i] (fillers and a comma skipped)."""
    i = _skip_fillers(words, i)
    if i >= len(words):
        return False
    word = words[i]
    return (
        word in _names()
        or word in _FUNCTION
        or word in _SELF
        or bool(_USERS.fullmatch(word))
        or word in {'"', "'"}
        or word[0].isdigit()
        or bool(_LINK.search(word))
        # a command and its flag: "run rm -rf ~/backups"
        or (i + 2 < len(words) and words[i + 1] == "-" and len(words[i + 2]) <= 3)
        or (word.endswith("ing") and len(word) > 5)
    ) and word not in _NO_OBJECT


def _imperative_at(words: list[str], i: int) -> int | None:
    """The index of an imperative opening the clause at words[i], or None."""
    i = _skip_fillers(words, i)
    if i < len(words) and words[i] in _NEGATIONS:
        i = _skip_fillers(words, i + 1)
        if i < len(words) and words[i] == "not":
            i += 1
    if i >= len(words):
        return None
    verb = words[i]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    # Spanish "di" / "da" (say, give) are Italian's "of" / "from" too: an order before "a", "que".
    homograph = verb in {"di", "da"} and nxt in {"a", "al", "que", "le", "les"}
    if (
        (verb in _FUNCTION and not homograph)
        or verb in _CLAUSE_END
        or verb == '"'
        or not verb.isalpha()
        or len(verb) < 2
        or (verb.endswith("ed") and not verb.endswith("eed"))
        or (verb.endswith("ly") and not verb.endswith("ply"))
        or (verb.endswith("ing") and len(verb) > 5)
    ):
        return None
    if not _object_follows(words, i + 1):
        return None
    after = words[_skip_fillers(words, i + 1)]
    # An English third person ("Maria, the office assistant, books the flights") is no order.
    english_object = after in {"the", "an", "that", "this", "all", "every", "it", "them"}
    if english_object and verb.endswith("s") and not verb.endswith(("ss", "us")):
        return None
    return i


def _modal_directive_at(words: list[str], i: int) -> int | None:
    """An imperative after a modal or "are asked to" at words[i]: "must describe it as ..."."""
    if i < len(words) and words[i] in _MODALS:
        i += 1
    elif i >= len(words) or not any(
        tuple(words[i : i + len(p)]) == p for p in _BINDING_AT.get(words[i], ())
    ):
        return None
    if i < len(words) and words[i] in {"not", "never", "nicht", "pas", "niet"}:
        i += 1
    i = _skip_fillers(words, i)
    if i >= len(words) or words[i] in _FUNCTION or not words[i].isalpha():
        return None
    return i


def _self_reference(words: list[str], start: int, end: int) -> bool:
    for j in range(start, min(end, len(words))):
        if words[j] in _SELF:
            nxt = words[j + 1] if j + 1 < len(words) else ""
            if nxt not in _TIMES and not nxt.isdigit():
                return True
    return False


def _user_reference(words: list[str], start: int, end: int) -> bool:
    for j in range(start, min(end, len(words))):
        if _USERS.fullmatch(words[j].strip("'")) and (j == 0 or words[j - 1] != "my"):
            nxt = words[j + 1] if j + 1 < len(words) else ""
            # "the user group", "user id": a compound, not the person ("the owner's card" is).
            if (
                words[j].endswith("'s")
                or not nxt
                or nxt in _FUNCTION
                or nxt in _CLAUSE_END
                or nxt == "know"
            ):
                return True
    return False


def _output_reference(words: list[str], start: int, end: int) -> bool:
    return any(
        words[j] in _YOUR and j + 1 < len(words) and bool(_OUTPUTS.fullmatch(words[j + 1]))
        for j in range(start, min(end, len(words)))
    )


def _reaches_conversation(words: list[str], start: int, verb: int) -> bool:
    """The directive's payload reaches the conversation: this text, the user or owner, the
    reader's answer, a link, a claim ("say that ..."), a quote (from the addressee on)."""
    end = min(len(words), verb + 20)
    nxt = words[_skip_fillers(words, verb + 1)] if verb + 1 < len(words) else ""
    return (
        _self_reference(words, verb, end)
        or _user_reference(words, start, end)
        or _output_reference(words, start, end)
        or any(_LINK.search(w) for w in words[verb:end])
        or nxt in {"that", "dass", "que", "che", "dat", '"'}
    )


_DOER = re.compile(r"[a-z-]+(?:er|or)s?")
_MACHINE_KINDS = frozenset("ia ki ai lenguaje langage linguaggio".split())  # noqa: SIM905
_RELATIVES = frozenset(
    ["that", "who", "which", "whoever", "que", "qui", "die", "der", "das", "welche", "che", "dat"]
)


def _machine_head(words: list[str], j: int) -> tuple[bool, int] | None:
    """Whether words[j] heads a machine reader's name: (marked as a machine, index after the
    name), or None. A noun after it makes it a modifier ("AI summary", "bot detection"), except
    a reader's noun ("AI calendar agents" is read at "agents")."""
    word = words[j]
    kind = _kind(word)
    # A doer's noun after a machine word is a machine's trade: "AI note-takers", "AI schedulers",
    # also with a noun between ("AI pair programmer", "AI code reviewer").
    trade = (
        not kind & (_STRONG | _WEAK)
        and j > 0
        and bool(_DOER.fullmatch(word))
        and (
            bool(_kind(words[j - 1]) & _STRONG)
            or (
                j > 1
                and bool(_kind(words[j - 2]) & _STRONG)
                and words[j - 1].isalpha()
                and words[j - 1] not in _FUNCTION
            )
        )
    )
    if not kind & (_STRONG | _WEAK) and not trade:
        return None
    after = words[j + 1] if j + 1 < len(words) else ""
    then = words[j + 2] if j + 2 < len(words) else ""
    noun_after = (
        after.replace("-", "").isalpha()
        and then not in _SELF  # "whichever AI model processes this PDF": a verb
        and after not in _FUNCTION
        and after not in _RELATIVES
        and after not in _CONDITIONS
        and not after.endswith("ing")
    )
    if kind & _STRONG:
        if noun_after:
            return None
        return True, j + 1
    before = words[max(0, j - 3) : j]
    marked = any(w in _MACHINE_MARKS or _kind(w) & _STRONG for w in before)
    if (
        after in {"ia", "ai", "ki"} or after in _MACHINE_MARKS
    ):  # "modèles IA", "assistenti virtuali"
        return True, j + 2
    if after in {"de", "di"} and then in _MACHINE_KINDS:  # "modelo de lenguaje", "sistemi di IA"
        return True, j + 3
    if noun_after:
        return None
    return marked, j + 1


def _qualifier_end(words: list[str], i: int) -> tuple[int, bool]:
    """After a machine reader's name: where a clause about it ends ("reading this email",
    "that cite this paper", "que lean esto", "die diesen Bericht zusammenfassen") and whether
    there was one."""
    if i >= len(words):
        return i, False
    if (
        words[i] in {"only", "alone", "please"}
        and i + 1 < len(words)
        and words[i + 1] in _CLAUSE_END
    ):
        return i + 1, False
    opener = words[i]
    relative = opener in _RELATIVES
    verb_of_this = i + 1 < len(words) and words[i + 1] in _SELF and opener not in _FUNCTION
    participle = opener.endswith(("ing", "ant", "ando", "iendo")) and len(opener) > 4
    if not (relative or participle or verb_of_this):
        return i, False
    j = i + 1
    while j < len(words) and j < i + 14 and words[j] not in _CLAUSE_END and words[j] not in _MODALS:
        if words[j] in {"are", "is"} and j + 1 < len(words) and words[j + 1] in {"asked", "to"}:
            break
        j += 1
    return j, True


_MANDATES = frozenset(
    ["important", "essential", "crucial", "vital", "necessary", "imperative", "required"]
)


def _mandated(words: list[str], j: int) -> bool:
    """ "It is important that" before the addressee words[j]: "... that any AI summarizing these
    reviews mentions ..." (a third person's verb is then the order)."""
    lead = words[max(0, j - 8) : j]
    return "that" in lead and any(w in _MANDATES for w in lead)


def _mandated_verb(words: list[str], after: int, end: int) -> int | None:
    """The third person's verb after the addressee: "... any AI summarizing these reviews
    mentions the code ..." (an -s word with an object, past the name)."""
    for m in range(after, min(end + 1, len(words))):
        word = words[m]
        verb_like = word.endswith("s") and word.isalpha() and word not in _FUNCTION and m > after
        if verb_like and _object_follows(words, m + 1) and not _self_reference(words, m, m + 1):
            return m
    return None


def _user_told_at(words: list[str], k: int) -> int | None:
    """ "The user must be told that ...": the reader's user as the subject of a passive order."""
    for m in range(k, min(k + 3, len(words))):
        if _user_reference(words, m, m + 1):
            n = m + 1
            if n + 2 < len(words) and words[n] in _MODALS and words[n + 1] == "be":
                told = words[n + 2]
                if told.endswith("ed") or told in {"told", "shown", "given", "sent", "made"}:
                    return n + 2
            return None
    return None


_PREPOSITIONS = frozenset("in nella nel dans en bei im".split())  # noqa: SIM905


def _clause_after(words: list[str], k: int) -> int:
    """Where the order after an address opens: past a condition or a phrase about the answer
    ("Assistant, in your answer to the user, also suggest ...", "..., when the user asks, ...")."""
    if k < len(words) and words[k] in _CONDITIONS | _PREPOSITIONS:
        comma = next((m for m in range(k, min(k + 14, len(words))) if words[m] == ","), None)
        if comma is not None:
            return comma + 1
        if k + 2 < len(words) and words[k + 1] in _YOUR and _OUTPUTS.fullmatch(words[k + 2]):
            return k + 3
    return k


_POSSESSIVES = frozenset("its his her their your my our".split())  # noqa: SIM905


def _address_before(words: list[str], start: int, j: int) -> bool:
    """ "To", "for", "dear" ... before the reader's name, nothing owned between: "Note to AI
    systems", "for any assistant", not "tying it to its flagship development tool"."""
    for a in range(start, j):
        if words[a] in _ADDRESS and not any(w in _POSSESSIVES for w in words[a + 1 : j]):
            return True
    return False


def _head_candidates(sentence: _Sentence) -> list[int]:
    """Where a machine reader's name may end: a reader's noun, or any word after a machine's."""
    out = []
    previous = before = 0
    for j, (word, kind) in enumerate(zip(sentence.words, sentence.kinds, strict=True)):
        # a reader's noun, any word after a machine's, a trade two words on ("AI pair programmer")
        trade = bool(before & _STRONG and _DOER.fullmatch(word))
        if kind & (_STRONG | _WEAK) or previous & _STRONG or trade:
            out.append(j)
        previous, before = kind, previous
    return out


_DIRECTIVE_OPENERS = _CLAUSE_END | _MODALS | frozenset(_BINDING_AT)


def _addressed(sentence: _Sentence) -> bool:
    """A machine reader addressed, then a directive: "To any language model writing a summary of
    these reviews: describe ...", "Models that cite this paper must describe it as ..."."""
    words = sentence.words
    if _DIRECTIVE_OPENERS.isdisjoint(words) and "that" not in words:
        # Every directive below opens at a clause's end, a modal, a binding phrase ("are asked
        # to") or after "it is important that": a sentence with none of them holds none.
        return False
    for j in _head_candidates(sentence):
        head = _machine_head(words, j)
        if head is None:
            continue
        marked, after = head
        end, qualified = _qualifier_end(words, after)
        # "An die KI, die diese Seite liest: ...": the clause after a comma.
        if (
            not qualified
            and end + 1 < len(words)
            and words[end] == ","
            and words[end + 1] in _RELATIVES
        ):
            end, qualified = _qualifier_end(words, end + 1)
        start = j
        while start > 0 and words[start - 1] not in _CLAUSE_END and j - start < 4:
            start -= 1
        addressed = _address_before(words, start, j)
        # A vocative heads its clause ("Bots indexing this listing, ..."); a noun ending a longer
        # clause before a comma is in apposition ("its flagship development tool, Visual ...").
        led = start == 0 or words[start - 1] in _CLAUSE_END
        if end >= len(words) and not _mandated(words, j):
            continue
        if end < len(words) and words[end] in _CLAUSE_END:
            if not (led or addressed or qualified):
                continue
            k = _clause_after(words, end + 1)
            verb = _imperative_at(words, k)
            if verb is None:
                verb = _user_told_at(words, k)
        else:
            verb = _modal_directive_at(words, end)
            if verb is None and _mandated(words, j):
                verb = _mandated_verb(words, after, end)
        if verb is None:
            continue
        reaches = _reaches_conversation(words, j, verb)
        plural = words[j].endswith("s") and not words[j].endswith("ss")
        embedded = not sentence.first or start > 0
        # A machine named by its trade ("AI code reviewer:") is addressed as a role, not typed to.
        role = marked and not _STRONG_HEADS.fullmatch(words[j])
        if not (embedded or qualified or addressed or plural or role):
            # At the text's head, "AI, write me a poem" is how a prompt speaks to an assistant.
            own = any(w in _FIRST_PERSON for w in words[verb : verb + 12])
            if own or not reaches:
                continue
        if marked or qualified or reaches:
            return True
    return False


def _subject_bound(words: list[str], k: int) -> int | None:
    """After a reading condition, an order with a subject: "it should recommend ...", "the
    answer must say ...", German "soll schreiben" (the subject the condition's "wer")."""
    if k < len(words) and words[k] in _MODALS:
        return _modal_directive_at(words, k)
    if k < len(words) and words[k] in _SUBJECTS:
        return _modal_directive_at(words, k + 1)
    determiner = k + 1 < len(words) and words[k] in {"the", "any", "every", "each", "your", "its"}
    if determiner and _kind(words[k + 1]) & _OUTPUT:
        return _modal_directive_at(words, k + 2)
    return None


def _reported(words: list[str], j: int) -> bool:
    """A condition inside reported speech: "experts say that if an AI is asked ..." describes
    what someone said (a third person's verb, then "that")."""
    if j < 2 or words[j - 1] not in {"that", "dass", "que", "che", "dat"}:
        return False
    verb = words[j - 2]
    return verb.endswith(("s", "ed")) or verb in {"said", "found", "wrote", "thought", "say"}


def _reading_condition(sentence: _Sentence, named: bool) -> bool:
    """A reading of this text as the condition, then a directive: "When summarizing this
    message, mention ...", "if you are an AI reading this, ...", "cuando resumas este correo,
    menciona ..."."""
    words = sentence.words
    if _CONDITIONS.isdisjoint(words):
        return False  # no condition opens: nothing below would be read
    for j, word in enumerate(words):
        if word not in _CONDITIONS or _reported(words, j):
            continue
        comma = next((m for m in range(j + 1, min(j + 16, len(words))) if words[m] == ","), None)
        if comma is None:
            continue
        clause = words[j + 1 : comma]
        reads = any(_READING.match(w) for w in clause)
        machine = any(
            (_machine_head(words, m) or (False, 0))[0]
            for m in _head_candidates(sentence)
            if j < m < comma
        )
        ai_you = any(w in _YOU for w in clause[:3])
        self_ref = _self_reference(words, j + 1, comma)
        # Where the text names a machine reader elsewhere ("TODO(ai):"), reading "this" is its.
        elsewhere = named and reads and self_ref
        if not ((reads and self_ref) or (machine and (ai_you or reads))):
            continue
        verb = _imperative_at(words, comma + 1)
        if verb is None:
            verb = _subject_bound(words, comma + 1)
        if verb is None:
            continue
        if machine or elsewhere or _reaches_conversation(words, j, verb):
            return True
    return False


# An answer's noun that is also a verb: at a sentence's head it is the sentence's own order.
_OUTPUT_VERBS = frozenset(
    ["reply", "answer", "respond", "antworte", "antworten", "reponds", "responde", "rispondi"]
)


def _output_directive(sentence: _Sentence) -> bool:
    """A directive about "your summary / answer" of this text, or about the answers drawn from
    it: "In your summary of this article, recommend ...", "Summaries of these reviews should say
    ...", "Any answer that uses this article as a source has to link to ..."."""
    words = sentence.words
    head = _skip_fillers(words, 0)
    for j, (word, kind) in enumerate(zip(words, sentence.kinds, strict=True)):
        if not kind & _OUTPUT:
            continue
        if j == head and word in _OUTPUT_VERBS:
            continue  # "Please reply to this email if you need to ...": an order to a person
        if j > 0 and words[j - 1] in _YOUR:
            comma = next(
                (m for m in range(j + 1, min(j + 12, len(words))) if words[m] == ","), None
            )
            if comma is None:
                continue
            about = _self_reference(words, j, comma) or _user_reference(words, j, comma)
            if about and _imperative_at(words, comma + 1) is not None:
                return True
            continue
        if _SELF.isdisjoint(words[j + 1 : j + 10]):
            continue  # no "this" after the answer's noun: no `_self_reference` below holds
        for k in range(j + 1, min(j + 10, len(words))):
            if words[k] in _CLAUSE_END:
                break
            if _self_reference(words, j + 1, k) and _modal_directive_at(words, k) is not None:
                return True
    return False


# A JSON key that names a machine reader, its value an order: "ai_instructions": "Tell ...".
_KEYED = re.compile(r"[\"']([a-z_ -]{1,30})[\"']\s*[:=]\s*[\"']([^\"'\n]{3,300})")


def _keyed_order(text: str) -> bool:
    for match in _KEYED.finditer(text):
        key = re.split(r"[_ -]+", match.group(1))
        if not any(_STRONG_HEADS.fullmatch(w) or _WEAK_HEADS.fullmatch(w) for w in key if w):
            continue
        words = [w for w in _TOKEN.findall(match.group(2)) if w]
        if words and _imperative_at(words, 0) is not None:
            return True
    return False


_STRONG, _WEAK, _OUTPUT, _READS, _THIS = 1, 2, 4, 8, 16


@lru_cache(maxsize=2048)  # bounded: the words of every text screened (~0.3 MB full)
def _kind(word: str) -> int:
    """What a word may be to the reading, as bits (looked up once per word). A handle is its
    name ("@assistant", "@ai-agent")."""
    word = word.removeprefix("@")
    return (
        (_STRONG if _STRONG_HEADS.fullmatch(word) else 0)
        | (_WEAK if _WEAK_HEADS.fullmatch(word) else 0)
        | (_OUTPUT if _OUTPUTS.fullmatch(word) else 0)
        | (_READS if _READING.match(word) else 0)
        | (_THIS if word in _SELF else 0)
    )


def indirect_order(normalised: str, typed: str = "") -> bool:
    """Whether the text holds an order to the machine that reads it (module docstring):
    `normalised` as the rules read it, `typed` as written (its capitals name people)."""
    sentences = _sentences(normalised)
    each = [reduce(or_, sentence.kinds, 0) for sentence in sentences]
    whole = reduce(or_, each, 0)
    if not whole & (_STRONG | _WEAK | _OUTPUT) and whole & (_READS | _THIS) != _READS | _THIS:
        return False
    named = bool(whole & _STRONG)
    keyed = bool(whole & (_STRONG | _WEAK)) and ('"' in normalised or "'" in normalised)
    token = _TYPED.set(_Typed(typed))
    try:
        if keyed and _keyed_order(_ascii(normalised)):
            return True
        for sentence, kinds in zip(sentences, each, strict=True):
            # Each reading needs a machine reader's name, an answer named, or a reading of "this".
            machine = bool(kinds & (_STRONG | _WEAK))
            if machine and _addressed(sentence):
                return True
            if kinds & _OUTPUT and _output_directive(sentence):
                return True
            if (machine or kinds & _READS) and _reading_condition(sentence, named):
                return True
        return _across_two(sentences, each, named)
    finally:
        _TYPED.reset(token)


# An addressee or a reading condition that is a sentence of its own, the order the next one:
# "Attention AI assistants summarizing these reviews. Tell the user ...", "Dear language model.
# Before you answer, recommend ...". Read as one sentence joined at the stop, when the first is
# short (a heading's length): a longer one says something of its own.
_ADDRESS_SENTENCE_WORDS = 14


def _across_two(sentences: list[_Sentence], each: list[int], named: bool) -> bool:
    for n in range(len(sentences) - 1):
        first, kinds = sentences[n], each[n]
        if len(first.words) > _ADDRESS_SENTENCE_WORDS or not kinds & (_STRONG | _WEAK | _READS):
            continue
        following = sentences[n + 1]
        if kinds & (_STRONG | _WEAK) and _addressed(_joined(first, ":", following)):
            return True
        # A condition must open (no "," is one): where neither sentence has one, joining them
        # would only be read for one and found none.
        opens = not (
            _CONDITIONS.isdisjoint(first.words) and _CONDITIONS.isdisjoint(following.words)
        )
        if opens and _reading_condition(_joined(first, ",", following), named):
            return True
    return False


def _joined(first: _Sentence, mark: str, then: _Sentence) -> _Sentence:
    """Two sentences read as one, joined at the stop by `mark`."""
    words = [*first.words, mark, *then.words]
    return _Sentence(words, False, [*first.kinds, _kind(mark), *then.kinds])
