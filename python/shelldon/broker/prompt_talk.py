"""A small model's talk about its prompt, in the words meant for the owner (docs/brain.md, "Stage
directions and talk about the prompt"). The owner never sees the prompt, so words about it are
either a tic around a good answer, taken off here (broker.weak_text.scrub calls
`without_prompt_talk`), or a sign the model misread whom it talks to, refused by the reply check
(broker.reply_check calls `narrates_prompt`; the chain asks the next provider).

Taken off, the words after them kept:
- a lead-in that cites a part of the prompt as its source, at a sentence's start and up to its
  comma or colon: "Based on the memory provided, …", "According to the conversation history, …",
  "As instructed in the system prompt, …", "Since the instructions say to be brief: …" ("Based on
  what you told me, …" cites the owner, and stays);
- an introduction of the reply: "Here is my response: …", "Here's a friendly reply to the user:
  …" ("Here's a message you could send Ana: …" introduces words for someone else, and stays);
- a note about the reply itself, as a sentence or an aside: "(Note: this response follows the
  system prompt's guidelines.)", "I kept it short, as instructed.", "(carefully making the
  sentence, and using it as a conversation starter)".

Refused (the whole reply: what else it says was written from the same misreading, "their sister"
for "your sister"):
- the owner retold in the third person as the speaker of the message, at a sentence's start:
  "The user says …", "The owner is asking me to …", "The user wants me to …", "The owner last
  wrote …" ("The user manual says …", "The owner of the café …" are other people and things);
- the task described: "You're asked to answer a question", "My task is to reply to …", "I need
  to respond to the owner's message";
- the role play set up: "In this conversation, I am a pet and you are my owner", "I am
  responding as shelldon", "As an AI …";
- the owner's message marked as writing when they did not ask for that: "What a well-written
  sentence!", "The sentence reads well, add a comma", "Here's a revised version: …", "I would
  rephrase it as …", "a small grammar mistake" (SmolLM2-135M answered "my mum lives in Galway"
  with "The sentence is in the correct order …"). A message that asks about writing (a
  sentence, grammar, an email, an essay, a poem, wording) may be answered so.
"""

from __future__ import annotations

import re

# The parts of the prompt a model names (shelldon.worker.prompt's sections, in a model's words).
_PROMPT_PART = (
    r"(?:the\s+|my\s+|your\s+)?(?:(?:provided|given|supplied)\s+(?:information|data|details"
    r"|notes|facts|context|memor(?:y|ies)|instructions)|system\s+prompt|prompt"
    r"|instructions?|guidelines|directive|memory\s+(?:file|notes|entries|section)"
    r"|memor(?:y|ies)\s+(?:provided|given|entries|section|above|shown|supplied)"
    r"|(?:curated|stored)\s+memor(?:y|ies)|conversation\s+history|chat\s+history"
    r"|(?:recent|recalled)\s+conversation|context(?:\s+(?:provided|given|above))?"
    r"|(?:information|data|details|notes|facts)\s+(?:provided|given|above|supplied)"
    r"|sections?\s+(?:above|provided|below))"
)
_SOURCE_VERB = (
    r"(?:based\s+on|according\s+to|from|going\s+by|judging\s+by|per|as\s+per|following|given"
    r"|using|looking\s+at|drawing\s+on|in\s+line\s+with|as\s+(?:stated|mentioned|noted|specified"
    r"|requested|described|shown|given|instructed|directed|asked|written|outlined)\s+(?:in|by)"
    r"|since|because|as)"
)
# A lead-in at a sentence's start, up to its comma or colon: the part named, and at most what
# it says ("Since the instructions say to be brief:"); "the instructions on the box say …" names
# something else, and stays.
_PART_SAYS = (
    r"(?:\s+(?:says?|said|asks?|asked|states?|mentions?|tells?\s+me|wants?|shows?)\b"
    r"[^,:.!?\n]{0,60})?"
)
_LEAD_IN = re.compile(
    rf"(?:(?<=^)|(?<=[.!?…]\s)|(?<=\n))[ \t]*(?:{_SOURCE_VERB}\s+{_PROMPT_PART}{_PART_SAYS}"
    rf"|as\s+instructed(?:\s+(?:in|by)\s+{_PROMPT_PART})?)[ \t]*[,:][ \t]*",
    re.IGNORECASE | re.MULTILINE,
)
_INTRO = re.compile(
    r"(?:(?<=^)|(?<=[.!?…]\s)|(?<=\n))[ \t]*here(?:'s|’s|\s+is)\s+(?:my|a|an|the)"
    r"(?:\s+(?:short|brief|warm|friendly|possible|suggested|final|kind|cheerful|good|quick"
    r"|simple|polite|caring))*\s+(?:response|reply|answer)"
    r"(?:\s+(?:to|for)\s+(?:the|my)\s+(?:user|owner)(?:['’]s\s+message)?)?\s*:[ \t]*",
    re.IGNORECASE | re.MULTILINE,
)
# A note about the reply itself: as an aside in parentheses, or as a sentence.
_META = (
    r"(?:system\s+prompt|as\s+instructed|(?:follow(?:s|ed|ing)?|meets?|adhere(?:s|d)?\s+to|fits?"
    r"|within|per)\s+the\s+(?:instructions|guidelines|requirements)"
    r"|this\s+(?:response|reply)\s+(?:follows|meets|adheres|keeps|stays|fits|is\s+(?:warm|brief"
    r"|short|friendly|concise|kind)))"
)
# An aside on how the reply was written: "(carefully making the sentence, and using it as a
# conversation starter, without the need for a response)", as SmolLM2-135M wrote in the live run.
_WRITING = (
    r"(?:\b(?:making|writing|crafting|composing|keeping|phrasing|wording)\b[^()\n]*\b(?:sentence"
    r"|response|reply|message|answer)\b|\bconversation\s+starter\b)"
)
_META_ASIDE = re.compile(
    rf"[ \t]*\((?:note:\s*)?[^()\n]*(?:{_META}|{_WRITING})[^()\n]*\)", re.IGNORECASE
)
_META_SENTENCE = re.compile(_META, re.IGNORECASE)

# --- narration: refused -----------------------------------------------------------------------
_START = r"(?:^|(?<=[.!?…]\s)|(?<=[.!?…]\s\s))[ \t]*"
_SPEECH = (
    r"(?:says?|said|asks?|asked|is\s+asking|was\s+asking|wants?|wanted|would\s+like|mentions?"
    r"|mentioned|tells?|told|shares?|shared|is\s+(?:telling|sharing|saying|talking|greeting)"
    r"|writes?|wrote|greets?|greeted|has\s+(?:said|asked|told|mentioned|shared|written|greeted"
    r"|not\s+written)|hasn['’]t\s+written|informs?|informed|states?|stated)"
)
_NARRATION = re.compile(
    # the owner retold as the speaker of the message
    rf"{_START}the\s+(?:user|owner)(?:['’]s\s+(?:message|question|request|words|input|prompt))?"
    rf"\s+(?:(?:just|also|last|already|now)\s+)?{_SPEECH}\b"
    rf"|{_START}the\s+(?:user|owner)['’]s\s+(?:message|question|request|input|prompt)\b"
    # the task described
    rf"|{_START}you(?:['’]re|\s+are)\s+(?:being\s+)?(?:asked|instructed|told|supposed|expected"
    r"|required)\s+to\s+(?:answer|reply|respond|write|act|play|greet|speak|continue|generate)\b"
    rf"|{_START}my\s+(?:task|instructions?|assignment)\s+(?:is|are|says?)\b"
    r"|\bI\s+(?:need|have|am\s+supposed|am\s+asked|should|must|will\s+now)\s+(?:to\s+)?(?:reply"
    r"|respond|answer|write|generate)\s+(?:to\s+)?(?:the|this|their)\s+(?:user|owner|message"
    r"|question|prompt)"
    # the role play set up
    rf"|{_START}in\s+this\s+(?:conversation|chat|scenario|role-?play|exchange|dialogue),?\s+"
    r"(?:I(?:['’]m|\s+am)|you(?:['’]re|\s+are)|I\s+play)"
    r"|\bI(?:['’]m|\s+am)\s+playing\s+(?:the\s+role\s+of|a\s+pet|the\s+pet)"
    r"|\bI(?:['’]m|\s+am|\s+will\s+be)\s+(?:responding|replying|answering|speaking|writing)\s+as\b"
    rf"|{_START}as\s+an\s+AI\b",
    re.IGNORECASE | re.MULTILINE,
)


# --- the owner's message marked as writing: refused unless they asked ----------------------------
_TEXT_NOUN = r"(?:sentence|text|phrase|wording|paragraph|message|passage)"
_MARKS_THE_WRITING = re.compile(
    rf"\b(?:well|badly|nicely|clearly|poorly)[- ]written\s+{_TEXT_NOUN}"
    r"|\b(?:un)?grammatical(?:ly)?\s+(?:correct|incorrect|fine|right|wrong|sound)"
    r"|\bgrammar\s+(?:error|mistake|issue|problem|slip)s?\b|\bthe\s+grammar\s+is\b"
    r"|\bin\s+formal\s+writing\b|\bpractis?c?e\s+your\s+writing\b"
    rf"|\b(?:the|this|that|your)\s+(?:original\s+|first\s+|last\s+)?{_TEXT_NOUN}\s+(?:is|was"
    r"|reads|sounds|flows|could|can|should|needs|would|might|has)\b[^.!?\n]{0,60}?\b(?:written"
    r"|long|longer|short|shorter|clear|clearer|correct|incorrect|improved|better|rephrased"
    r"|rewritten|revised|broken|shortened|comma|order|formal|informal|punctuat\w*|spell\w*"
    r"|well|flows?|detail)\b"
    r"|\bhere(?:'s|’s|\s+is)\s+(?:a|an|the|my)\s+(?:revised|rewritten|corrected|improved"
    rf"|edited|shorter|clearer|rephrased|broken[- ]up|polished)\s+(?:version|{_TEXT_NOUN})"
    r"|\bI(?:['’]d|\s+would|\s+will|['’]ll)\s+(?:suggest\s+)?(?:rephras|rewrit|revis|reword)\w*"
    r"|\b(?:clearer|better|simpler|shorter)\s+way\s+to\s+(?:write|phrase|word)\b",
    re.IGNORECASE,
)
# The owner asked about writing: then marking it is the answer.
_ASKS_ABOUT_WRITING = re.compile(
    r"\b(?:sentences?|grammar|grammatical\w*|spell\w*|rephras\w*|rewrit\w*|reword\w*"
    r"|proofread\w*|wording|phrases?|punctuat\w*|essays?|e-?mails?|letters?|cv|r[eé]sum[eé]"
    r"|poems?|story|stories|paragraphs?|texts?|messages?|write|writing|wrote|written|edit\w*"
    r"|novels?|books?|articles?|blog|posts?|reports?|thesis|speech|lyrics|songs?|script"
    r"|translat\w*|correct|check\s+(?:this|my|it))\b",
    re.IGNORECASE,
)


def marks_the_writing(text: str, message: str) -> bool:
    """Does the reply mark the owner's message as writing (its grammar, its wording, a revised
    version) when the message asked nothing about writing?"""
    return _MARKS_THE_WRITING.search(text) is not None and not _ASKS_ABOUT_WRITING.search(message)


def without_prompt_talk(text: str) -> tuple[str, int]:
    """`text` without the lead-ins, introductions and notes about the prompt (see the module's
    docstring), and how many were taken off. A sentence left after a lead-in starts with a
    capital; a reply that was only notes about itself is left empty."""
    text, count = _META_ASIDE.subn("", text)
    kept: list[str] = []
    for sentence in sentences(text):
        if _META_SENTENCE.search(sentence) and not _LEAD_IN.match(sentence.lstrip()):
            count += 1
            continue
        kept.append(sentence)
    text = "".join(kept)
    for pattern in (_LEAD_IN, _INTRO):
        text, n = _cut(pattern, text)
        count += n
    return (text.strip(), count) if count else (text, 0)


_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)]*(?=\s|\Z)[ \t]*|\n+")


def sentences(text: str) -> list[str]:
    """`text` cut after each sentence's end (its spaces and line breaks kept with it): joined,
    the pieces are `text` again."""
    pieces: list[str] = []
    pos = 0
    for end in _SENTENCE_END.finditer(text):
        pieces.append(text[pos : end.end()])
        pos = end.end()
    if pos < len(text):
        pieces.append(text[pos:])
    return pieces


def _cut(pattern: re.Pattern[str], text: str) -> tuple[str, int]:
    """`text` without `pattern`'s matches, the letter after each one capitalised."""
    out: list[str] = []
    pos = 0
    count = 0
    for match in pattern.finditer(text):
        rest = text[match.end() :]
        if not rest.strip():
            continue  # nothing after the lead-in: it is the words, odd as they are
        out.append(text[pos : match.start()])
        pos = match.end()
        if rest[:1].islower():
            out.append(rest[0].upper())
            pos += 1
        count += 1
    out.append(text[pos:])
    return "".join(out), count


def narrates_prompt(text: str) -> bool:
    """Does the reply retell its prompt: the owner in the third person as the message's speaker,
    the task, the role play (see the module's docstring)?"""
    return _NARRATION.search(text) is not None
