"""shelldon.quiet: the quiet-spell timer core and the broker share (core.rest's own tests hold
the timer's behaviour through core's `Rest`)."""

from __future__ import annotations

import threading

from shelldon.quiet import Quiet


def test_a_quiet_spell_calls_its_let_go_on_a_thread_of_its_name() -> None:
    seen: list[str] = []
    went = threading.Event()

    def record() -> None:
        seen.append(threading.current_thread().name)
        went.set()

    quiet = Quiet(record, after=0.0, name="broker-rest")
    quiet.turn_started()
    quiet.turn_ended()
    assert went.wait(timeout=30)
    quiet.stop()
    assert seen == ["broker-rest"]
