"""broker.patterns: the offline brain's regexes compile on first use, answer as `re.compile`'s
would, and all at once in the broker's warm-up; importing the broker compiles none of them."""

from __future__ import annotations

import re
import subprocess
import sys

from shelldon.broker.offline import OfflineBrain
from shelldon.broker.patterns import LazyPattern, compile_all, lazy
from shelldon.worker.prompt import PromptContext, assemble_prompt

TEXT = "Ana lives in Porto, Rui lives in Braga; ANA likes tea."


def test_a_lazy_pattern_compiles_on_first_use_and_answers_as_re_does() -> None:
    made = LazyPattern(r"(\w+) lives in (\w+)", re.IGNORECASE)
    assert made._compiled is None
    real = re.compile(r"(\w+) lives in (\w+)", re.IGNORECASE)
    assert made.search(TEXT).group(2) == real.search(TEXT).group(2)  # type: ignore[union-attr]
    assert made._compiled is not None
    assert made.match(TEXT).span() == real.match(TEXT).span()  # type: ignore[union-attr]
    assert made.fullmatch("ana lives in porto") is not None
    assert made.findall(TEXT) == real.findall(TEXT)
    assert [m.span() for m in made.finditer(TEXT)] == [m.span() for m in real.finditer(TEXT)]
    assert made.sub(r"\2", TEXT) == real.sub(r"\2", TEXT)
    assert made.sub(lambda m: m.group(1).upper(), TEXT, 1) == real.sub(
        lambda m: m.group(1).upper(), TEXT, 1
    )
    assert made.split(TEXT) == real.split(TEXT)
    assert made.pattern == real.pattern


def test_compile_all_compiles_every_pattern_made() -> None:
    made = lazy(r"\bwarm\b")
    assert made._compiled is None
    assert compile_all() >= 1
    assert made._compiled is not None


def test_importing_the_broker_compiles_none_of_the_offline_brains_patterns() -> None:
    code = (
        "import shelldon.broker.server\n"
        "from shelldon.broker import patterns\n"
        "print(len(patterns._ALL), sum(p._compiled is not None for p in patterns._ALL))\n"
        "patterns.compile_all()\n"
        "print(sum(p._compiled is not None for p in patterns._ALL))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    made, compiled_at_import, compiled_after = (int(x) for x in done.stdout.split())
    assert made > 50  # the offline brain's own, imported with the broker
    assert compiled_at_import == 0
    assert compiled_after == made


def test_the_broker_lets_the_offline_brains_regexes_go_after_a_quiet_spell() -> None:
    """At rest the broker held all 455 of the offline brain's compiled regexes (~1.2 MB): its
    quiet spell drops them and trims the heap; the next turn compiles what it needs, and the
    brain answers as before."""
    from shelldon.broker import patterns
    from shelldon.broker.patterns import let_go

    brain = OfflineBrain()
    before = brain.complete(assemble_prompt(PromptContext(), "my sister is called Ana")).text
    patterns.compile_all()
    let_go()
    assert all(p._compiled is None for p in patterns._ALL)
    after = brain.complete(assemble_prompt(PromptContext(), "my sister is called Ana")).text
    assert after == before
    assert any(p._compiled is not None for p in patterns._ALL)
