"""From one provider's raw answer to the BrainReply the chain hands on, or to a refusal that sends
the chain to the next provider.

In order:
1. the reply parser takes the JSON protocol's envelope apart (or leaves plain text as it is);
2. native tool calls become raw ops (shelldon.broker.tools), after the parser's, under the cap;
3. each op in a near-miss shape a small model writes ("Facts", `{"remember": {…}}`, "title"
   for `name`) is put in the contract's shape (shelldon.broker.op_shapes), and its strings
   mended (half an emoji); an op with a number past 64 bits is dropped; a reply the token
   budget cut is kept up to its last whole sentence, or refused; in a turn or a check-in, an op
   the model proposed twice (the same tool called again with the same arguments) is kept once (a
   dream's repeats reach core, which stops a dream that loops);
4. the reply check (shelldon.broker.reply_check): an envelope, a placeholder, a digit flood, a
   language the owner never used (request.owner_languages) is refused — for a turn or a
   check-in the owner would read it. When the model proposed an op that fits the contract
   beside such text (a tool call whose follow-up gave no words), the ops are kept and the
   words are a plain acknowledgement of them instead; a dream's or a reflection's note is
   blanked and its ops kept. Refused text is logged cut short and scrubbed, never handed on;
5. the backstop, for an owner turn answered by a model: a clear "remind me …" the model did not
   turn into a reminder is read by the offline rules (the owner is told the reminder was set, in
   the rules' words), and when the model proposed no op at all, the rules' remember and
   capture_learning ops for the owner's statements are proposed instead, so a weak model's pet
   still learns and dreams.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from shelldon.broker import offline, offline_proactive
from shelldon.broker.op_shapes import reshaped
from shelldon.broker.protocol import parse_reply
from shelldon.broker.providers.base import RawCompletion
from shelldon.broker.reply_check import loggable, unusable_reason, whole_part
from shelldon.broker.tools import ops_from_calls
from shelldon.contracts import relayed
from shelldon.contracts.brain import BrainReply, CompletionRequest
from shelldon.contracts.json_in import mend_strings
from shelldon.contracts.ops import OpDecodeError, decode_op, op_name
from shelldon.contracts.reply_format import for_tools
from shelldon.contracts.text import repair_surrogates
from shelldon.contracts.wire import encodable

log = logging.getLogger(__name__)

# Said for ops when the model gave no usable words: by the kind of the first valid op.
_ACK_BY_OP = {
    "remind": "Okay, I'll remind you.",
    "forget": "Okay, I'll let that go.",
}
_ACK = "Got it, I'll keep that in mind."
# What the rules may add when the model proposed nothing (the owner's own statements).
_BACKSTOP_OPS = frozenset({"remember", "capture_learning"})


class Unusable(Exception):
    """A provider's answer that must not be shown: the chain asks the next one."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_answer(
    raw: RawCompletion,
    request: CompletionRequest,
    *,
    provider: str,
    max_reply_chars: int,
    max_ops: int,
    offline_provider: bool = False,
) -> BrainReply:
    """The BrainReply for one answer. Raises Unusable."""
    reply = parse_reply(
        raw.text,
        max_reply_chars=max_reply_chars,
        max_ops=max_ops,
        provider=provider,
        usage=raw.usage,
        tools=raw.tools,
    )
    ops = list(reply.ops)
    dropped = list(reply.dropped)
    if raw.tool_calls:
        call_ops, call_dropped = ops_from_calls(raw.tool_calls, request.purpose)
        room = max(0, max_ops - len(ops))
        if len(call_ops) > room:
            dropped.append(f"tool calls: {len(call_ops) - room} over the cap of {max_ops} dropped")
        ops += call_ops[:room]
        dropped += call_dropped
    if raw.requests > 1:
        dropped.append("tool calls only: asked the model again for its words")
    sound: list[Any] = []
    for index, op in enumerate(ops):
        op, changes = reshaped(op)  # "Facts", {"remember": {…}}, "title": a small model's spelling
        if changes:  # logged, not audited as a drop: nothing was refused (names only, no text)
            log.info("provider %s: op %d reshaped: %s", provider, index, "; ".join(changes))
        # The reply protocol's own JSON (broker.protocol) may hold half an emoji a small model
        # cut ("\ud83d"): mended as in the reply. A number past 64 bits cannot be mended.
        try:
            mended = mend_strings(op)
        except ValueError:
            mended = None
        if mended is not None and encodable(mended):
            sound.append(mended)
        else:
            dropped.append(f"op {index}: a number too large for any field; dropped")
    # A dream's repeats stay: core stops a dream that repeats an op (core.dream.apply).
    ops = _distinct(sound, dropped) if request.purpose in ("turn", "checkin") else sound
    text = repair_surrogates(reply.text)  # "\ud83d" alone: half an emoji, valid JSON, no UTF-8
    if raw.cut and text:
        whole = whole_part(text)
        if whole is None:
            _log_refused(provider, "cut mid-sentence by the token budget", text)
            text = ""
            dropped.append("reply: cut mid-sentence by the token budget; blanked")
        elif whole != text:
            text = whole
            dropped.append("reply: cut by the token budget; kept its whole sentences")
    # The offline brain is the last resort and its words are the rules' own: never refused.
    reason = None
    if not offline_provider:
        view = offline.PromptView.of(request)
        message = view.message
        # The system instruction as either protocol shows it (tools mode swaps its JSON ask).
        # A check-in's own instruction (its section, not the system's) is echoed the same way.
        system = "\n".join(s.text for s in request.sections if s.kind in ("system", "checkin"))
        instructions = f"{system}\n{for_tools(system)}" if system else ""
        reason = unusable_reason(
            text,
            request.owner_languages,
            message,
            instructions,
            cut=raw.cut,
            owner=offline.owner_name(view) if text else "",
            owner_said=offline.owner_said(view) if text else (),
            spoken=request.purpose in ("turn", "checkin"),
        )
    if reason is not None and text:
        _log_refused(provider, reason, text)
        dropped.append(f"reply: {reason}; blanked")
        text = ""
    if not text:
        text = _words_without_text(request, ops, reason or "empty reply")
    if request.purpose == "turn" and not offline_provider:
        text, ops = _backstop(request, text, ops, dropped)
    return BrainReply(
        text=text,
        ops=tuple(ops),
        provider=provider,
        usage=reply.usage,
        dropped=tuple(dropped),
    )


def _distinct(ops: list[Any], dropped: list[str]) -> list[Any]:
    """The ops without repeats: a small model calls the same tool with the same arguments again
    and again (the first is kept; each repeat is a drop with its reason, never its text)."""
    kept: list[Any] = []
    seen: dict[str, int] = {}
    for index, op in enumerate(ops):
        key = json.dumps(op, sort_keys=True, ensure_ascii=False, default=str)
        if key in seen:
            dropped.append(f"op {index}: the same as op {seen[key]}; dropped")
            continue
        seen[key] = index
        kept.append(op)
    return kept


def _valid_op_names(ops: list[Any]) -> list[str]:
    names: list[str] = []
    for raw in ops:
        try:
            names.append(op_name(decode_op(raw)))
        except OpDecodeError:
            continue
    return names


def _words_without_text(request: CompletionRequest, ops: list[Any], reason: str) -> str:
    """The text of an answer whose own words were unusable, or Unusable."""
    if request.purpose in ("dream", "reflect"):
        if not ops:
            raise Unusable(reason)
        return ""  # the note is blanked; the ops go on to core's checks
    valid = _valid_op_names(ops)
    if not valid:
        raise Unusable(reason)
    return _ACK_BY_OP.get(valid[0], _ACK)


def _backstop(
    request: CompletionRequest, text: str, ops: list[Any], dropped: list[str]
) -> tuple[str, list[Any]]:
    """What the model forgot, done by the offline rules (see the module's docstring)."""
    view = offline.PromptView.of(request)
    if not view.message or relayed.passed_on(view.message):
        return text, ops  # nothing to do for the owner in words they passed on
    valid = _valid_op_names(ops)
    ops = list(ops)
    if "remind" not in valid:
        now = offline_proactive.find_now(request)
        for sentence in offline.split_sentences(view.message):
            answer = offline_proactive.reminder(sentence.strip(), now)
            if answer is None or answer.op is None:
                continue  # not a reminder, or one the rules cannot place: the model's words stand
            ops.append(answer.op)
            dropped.append("backstop: the model set no reminder; the rules set it")
            text = f"{text}\n({answer.reply})" if text else answer.reply
    if not valid:
        rules = offline.respond(request)
        learned = [op for op in rules.get("ops", []) if op.get("op") in _BACKSTOP_OPS]
        if learned:
            ops += learned
            dropped.append(f"backstop: the model proposed no op; the rules proposed {len(learned)}")
    return text, ops


def _log_refused(provider: str, reason: str, text: str) -> None:
    log.warning("provider %s: unusable reply (%s), not shown: %s", provider, reason, loggable(text))
