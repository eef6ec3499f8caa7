"""What core lets go when the owner has been quiet for a while: the gate's compiled rules.

The gate compiles a rule on the first text that needs it (every text, for the ~20 rules without
a prefilter literal; a text naming its literal, for the rest) and keeps the automata and their
search caches (rust/src/scanner.rs): after one ordinary turn ~1.5 MB of core for the rules that
run on every text (their NFAs, the caches ~0.9 MB of it), more as other rules' literals occur, so
without a release a pet that once heard many rules' words would hold them all for good. Dropped
after every turn they would cost core ~13-16 ms of CPU (x86) each turn to compile again; kept, a
pet at rest holds them. So they go after `REST_AFTER_S` without a turn, and then the C heap is
trimmed: a conversation keeps them warm, a pet at rest holds only the rules' text, their literal
prefilter and the models' weights (the placeholder patterns' regexes go too; docs/performance.md,
"Memory at rest"). The first text after a rest pays the compile once. The matches are the same
either way (a rule compiles to the same automaton each time), and a turn that is searching keeps
its automaton until it is done.
"""

from __future__ import annotations

from collections.abc import Callable

from shelldon._native import trim_heap
from shelldon.core.gate.rules import release_scanner_automata
from shelldon.core.gate.secret_model import release_secret_model
from shelldon.quiet import REST_AFTER_S, Quiet

__all__ = ["REST_AFTER_S", "Rest", "let_go"]


def let_go() -> None:
    """Drop the gate's compiled rules and give the freed pages back to the kernel."""
    release_scanner_automata()
    release_secret_model()
    trim_heap()


class Rest(Quiet):
    """Core's quiet spell: `let_go` after `after` seconds without a turn (shelldon.quiet)."""

    def __init__(self, after: float = REST_AFTER_S, let_go: Callable[[], None] = let_go) -> None:
        super().__init__(let_go, after, name="core-rest")
