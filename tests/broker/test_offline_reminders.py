"""The offline brain reads "remind me …" against the prompt's local time and proposes one
`remind` op that core accepts; and the prompt carries the owner's local time and zone."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from shelldon.broker.offline import OfflineBrain
from shelldon.broker.offline_proactive import TOO_FAR
from shelldon.contracts.localtime import NOW_HEADER, parse_now
from shelldon.contracts.ops import Remind, decode_op
from shelldon.core.history.store import HistoryStore
from shelldon.core.proactive import owner_time
from shelldon.core.proactive.reminders import resolve
from shelldon.paths import DataRoot
from shelldon.worker.prompt import SYSTEM_INSTRUCTION, PromptContext, assemble_prompt, read_context
from support.proactive import T0, ZONE

# T0: Tuesday 5 May 2026, 14:00 in Lisbon.


def ask(message: str, now: datetime = T0, zone: str = ZONE) -> dict[str, Any]:
    request = assemble_prompt(PromptContext(now=now, zone=zone), message)
    return dict(json.loads(OfflineBrain().complete(request).text))


def only_op(answer: dict[str, Any]) -> Remind:
    [raw] = answer["ops"]
    op = decode_op(raw)
    assert isinstance(op, Remind)
    resolve(op, now=T0, owner_zone=ZONE)  # core accepts what the offline brain proposes
    return op


@pytest.mark.parametrize(
    ("message", "expected", "reply"),
    [
        (
            "remind me in 20 minutes to call mum",
            Remind(text="call mum", in_seconds=1200),
            "Okay, I'll remind you in 20 minutes to call mum.",
        ),
        (
            "Remind me tomorrow at 9 to call mum.",
            Remind(text="call mum", at="2026-05-06T09:00", zone=ZONE),
            "Okay, I'll remind you tomorrow at 09:00 to call mum.",
        ),
        (
            "remind me at 18:30 to take my pills",
            Remind(text="take my pills", at="2026-05-05T18:30", zone=ZONE),
            "Okay, I'll remind you today at 18:30 to take your pills.",
        ),
        (
            "remind me every Monday at 8 to water the plants",
            Remind(text="water the plants", at="2026-05-11T08:00", zone=ZONE, repeat="weekly"),
            "Okay, every Monday at 08:00 I'll remind you to water the plants "
            "(first on Monday 11 May at 08:00).",
        ),
        (
            "remind me on 2026-12-24 at 10 to wrap the presents",
            Remind(text="wrap the presents", at="2026-12-24T10:00", zone=ZONE),
            "Okay, I'll remind you on Thursday 24 December at 10:00 to wrap the presents.",
        ),
        (
            "remind me every day at 7:15 to stretch",
            Remind(text="stretch", at="2026-05-06T07:15", zone=ZONE, repeat="daily"),
            "Okay, every day at 07:15 I'll remind you to stretch (first tomorrow at 07:15).",
        ),
        (
            "could you remind me to call the bank tomorrow at 9am?",
            Remind(text="call the bank", at="2026-05-06T09:00", zone=ZONE),
            "Okay, I'll remind you tomorrow at 09:00 to call the bank.",
        ),
        (
            "remind me on Friday at 5pm to pay the rent",
            Remind(text="pay the rent", at="2026-05-08T17:00", zone=ZONE),
            "Okay, I'll remind you on Friday 8 May at 17:00 to pay the rent.",
        ),
        (
            "remind me in an hour to check the oven",
            Remind(text="check the oven", in_seconds=3600),
            "Okay, I'll remind you in 1 hour to check the oven.",
        ),
        (
            "remind me at 6 to start dinner",  # said at 14:00: this evening, not this morning
            Remind(text="start dinner", at="2026-05-05T18:00", zone=ZONE),
            "Okay, I'll remind you today at 18:00 to start dinner.",
        ),
    ],
)
def test_each_common_form(message: str, expected: Remind, reply: str) -> None:
    answer = ask(message)
    assert only_op(answer) == expected
    assert answer["reply"] == reply


def test_the_zone_comes_from_the_prompt() -> None:
    op = only_op(ask("remind me tomorrow at 9 to call mum", zone="Asia/Tokyo"))
    assert op.zone == "Asia/Tokyo" and op.at == "2026-05-06T09:00"  # 22:00 in Tokyo now


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        (
            "remind me on 2020-01-01 at 10 to do it",
            "On Wednesday 1 January 2020 at 10:00 has already passed, so I can't remind you "
            "then. Give me a later time?",
        ),
        (
            "remind me at 9am to do it",
            "Today at 09:00 has already passed, so I can't remind you then. Give me a later time?",
        ),
        ("remind me to call mum", "When should I remind you to call mum? Say: in 20 minutes, or "
         "tomorrow at 9."),
        ("remind me", "What should I remind you of? Say: remind me tomorrow at 9 to …"),
        # Past what core keeps (contracts.ops): said now, never promised and then refused.
        ("remind me in 9999999 days to stretch", TOO_FAR),
        ("remind me in " + "9" * 30 + " minutes to stretch", TOO_FAR),
        ("remind me on 2099-01-01 at 10 to renew it", TOO_FAR),
    ],
)  # fmt: skip
def test_what_it_cannot_set_it_says_and_proposes_nothing(message: str, reply: str) -> None:
    answer = ask(message)
    assert answer["ops"] == [] and answer["reply"] == reply


def test_other_sentences_still_get_their_usual_answer() -> None:
    answer = ask("My sister is called Ana. Remind me in 10 minutes to text her.")
    assert [op["op"] for op in answer["ops"]] == ["remember", "remind"]
    assert "in 10 minutes to text her" in answer["reply"]


# --- the prompt's clock --------------------------------------------------------------------------


def test_the_prompt_carries_the_local_time_and_the_owners_zone(tmp_path: Path) -> None:
    root = DataRoot(tmp_path / "home")
    root.home.mkdir()
    store = HistoryStore.open(root.history_db)
    store.set_setting(owner_time.TIMEZONE_SETTING, "America/New_York", T0)
    ctx = read_context(root, "hello", now=T0)
    store.close()
    request = assemble_prompt(ctx, "hello")
    [time_section] = [s for s in request.sections if s.kind == "time"]
    assert time_section.text == (
        f"{NOW_HEADER}\nTuesday 2026-05-05 09:00, time zone America/New_York (UTC-04:00)"
    )
    assert request.sections[-1].kind == "message"  # the owner's message stays last
    local = parse_now(time_section.text)
    assert local is not None and local.zone == "America/New_York"
    assert local.local == datetime(2026, 5, 5, 9, 0)


def test_without_a_setting_the_prompt_uses_the_systems_zone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    root = DataRoot(tmp_path / "home")
    ctx = read_context(root, "hello", now=datetime(2026, 5, 5, 12, 0, tzinfo=UTC))
    assert ctx.zone == "Asia/Kolkata"
    text = assemble_prompt(ctx, "hello").rendered()
    assert "Tuesday 2026-05-05 17:30, time zone Asia/Kolkata (UTC+05:30)" in text


def test_the_system_instruction_describes_the_remind_op() -> None:
    assert '{"op": "remind", "text":' in SYSTEM_INSTRUCTION
    assert (
        '"in_seconds"' in SYSTEM_INSTRUCTION
        and '"repeat": "daily" | "weekly"' in SYSTEM_INSTRUCTION
    )
    assert "# Now" in SYSTEM_INSTRUCTION
