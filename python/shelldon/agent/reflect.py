"""`memory_reflect`: a turn's digest, the facts proposed from it, and the gate's verdicts.

What a reflection proposes comes from a `Proposer` (digest, existing entries → facts):

- `facts_carried` takes the facts the digest itself carries (the host, which ran the turn, wrote
  them; no model is asked);
- `ChainProposer` asks the configured provider chain in-process (a workstation has no broker
  process and no scheduler): the broker's `build_chain` over the data root's shelldon.toml, the
  offline brain when none is configured. The agent package sits above broker/ in the layers, so
  it imports the chain directly (tests/test_layering.py); the pet's reflection goes through the
  broker process instead (core.learning.service). Limits: 30 s and 1,500 output tokens per
  attempt, at most three attempts, all of them within 50 s (an MCP host's tool call gets 60).

Whichever proposes, `core.learning.reflection.apply_reflection` keeps at most five, each through the
gate (`observed` when it cites a command the digest saw run, marked unverified when the turn ended
unverified), under one audit unit, and notes each procedure for the skills ledger.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from shelldon.broker.chain import ChainExhausted, ProviderChain
from shelldon.contracts.digest import (
    AGENT_REFLECT_BUDGET_S,
    MIN_ATTEMPT_S,
    REFLECT_DEADLINE_S,
    REFLECT_MAX_ATTEMPTS,
    Digest,
    ProposedFact,
    facts_from_ops,
    reflect_request,
    render_digest,
)
from shelldon.core.learning.reflection import Reflection, apply_reflection, existing_titles
from shelldon.core.learning.skills import SkillBook
from shelldon.core.memory.entry import Entry
from shelldon.core.memory.lifecycle import CuratedMemory

log = logging.getLogger(__name__)

Proposer = Callable[[Digest, Sequence[Entry]], Sequence[ProposedFact]]


def facts_carried(digest: Digest, existing: Sequence[Entry]) -> Sequence[ProposedFact]:
    """The facts the digest carries, as the host wrote them."""
    return digest.facts


@dataclass
class ChainProposer:
    """Facts drawn from the digest by the provider chain, in this process."""

    chain: ProviderChain
    attempts: int = REFLECT_MAX_ATTEMPTS
    deadline_s: float = REFLECT_DEADLINE_S
    budget_s: float = AGENT_REFLECT_BUDGET_S  # all attempts together: the MCP host's 60 s

    def __call__(self, digest: Digest, existing: Sequence[Entry]) -> Sequence[ProposedFact]:
        if digest.facts:  # the host already proposed: no model call
            return digest.facts
        request = reflect_request(render_digest(digest))
        ends = self.chain.clock() + self.budget_s
        for attempt in range(1, self.attempts + 1):
            now = self.chain.clock()
            if ends - now < MIN_ATTEMPT_S:
                log.warning(
                    "reflection: %d attempt(s) used the %.0f s budget", attempt - 1, self.budget_s
                )
                break
            try:
                reply = self.chain.complete(request, deadline=min(now + self.deadline_s, ends))
            except ChainExhausted as exc:
                log.warning("reflection attempt %d: no provider answered (%s)", attempt, exc)
                continue
            facts, dropped = facts_from_ops(reply.ops)
            if dropped:
                log.info("reflection attempt %d dropped: %s", attempt, "; ".join(dropped))
            if facts or not reply.ops:
                return facts
        return ()


def reflect(
    memory: CuratedMemory,
    digest: Digest,
    *,
    unit: str,
    propose: Proposer = facts_carried,
    skills: SkillBook | None = None,
) -> Reflection:
    """Propose facts from `digest` (with what memory already holds) and let the gate decide."""
    shown = msgspec.structs.replace(digest, existing=existing_titles(memory))
    started = time.monotonic()
    proposed = list(propose(shown, memory.entries()))
    log.debug("reflection proposed %d fact(s) in %.1f s", len(proposed), time.monotonic() - started)
    return apply_reflection(memory, digest, proposed, unit=unit, skills=skills)
