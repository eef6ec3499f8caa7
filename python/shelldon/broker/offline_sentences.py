"""What the offline brain and its dream both need to tell of the owner's sentences: is it a
question? (A question is never a fact: the dream must not summarise "where does my sister live?"
as something the owner told it.)"""

from __future__ import annotations

import re

_QUESTION_START = re.compile(
    r"^(?:what|what's|whats|who|who's|whom|whose|where|where's|when|which|why|how|do you|did you|"
    r"can you|could you|would you|will you|have you|are you|is|are|does|did i|do i|have i|am i|"
    r"tell me|remind me)\b",
    re.IGNORECASE,
)


def is_question(sentence: str) -> bool:
    """A sentence that asks: it ends with "?" or opens like one ("where does my sister live")."""
    return sentence.rstrip().endswith("?") or bool(_QUESTION_START.match(sentence.strip()))
