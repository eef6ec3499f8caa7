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


# --- the pet asked when: the owner's answer, or "never mind" -------------------------------------


def _after_asking(request: str, answer: str, *, recall: tuple[Any, ...] = ()) -> dict[str, Any]:
    """`answer` sent after `request` got the pet's "When/At what time should I remind you …?"."""
    from shelldon.worker.prompt import HistoryRow

    asked = ask(request)["reply"]
    assert "should I remind you to" in asked, asked
    recent = (HistoryRow(1, "owner", "hello"), HistoryRow(2, "pet", "Hello!"))
    recent += (HistoryRow(3, "owner", request), HistoryRow(4, "pet", asked))
    ctx = PromptContext(now=T0, zone=ZONE, recent=recent, recall=recall)
    return dict(json.loads(OfflineBrain().complete(assemble_prompt(ctx, answer)).text))


@pytest.mark.parametrize(
    ("request_", "answer", "said"),
    [
        ("remind me to call the bank", "tomorrow at 9", "tomorrow at 09:00 to call the bank"),
        ("remind me to stretch", "at 6pm", "today at 18:00 to stretch"),
        ("remind me to stretch", "6pm", "today at 18:00 to stretch"),
        ("remind me to pay rent", "in 20 minutes", "in 20 minutes to pay rent"),
        ("remind me to feed the cat", "on friday at 8", "to feed the cat"),
        ("can you remind me every monday to water the plants?", "at 8am", "every Monday at 08:00"),
        ("remind me every friday to take the bins out", "7:30pm", "every Friday at 19:30"),
    ],
)
def test_a_time_given_to_the_pets_question_completes_the_request(
    request_: str, answer: str, said: str
) -> None:
    """Before: "at 8am" answered "I hope the at goes well!", and no reminder was set."""
    got = _after_asking(request_, answer)
    assert said in got["reply"], got["reply"]
    only_op(got)


@pytest.mark.parametrize("answer", ["never mind", "nvm", "cancel that", "forget it", "no thanks"])
def test_never_mind_to_the_pets_question_sets_nothing(answer: str) -> None:
    got = _after_asking("remind me to call the bank", answer)
    assert got["reply"] == "Okay, no reminder then." and got["ops"] == [], got


def test_an_old_recalled_question_is_not_the_one_just_asked() -> None:
    """Recall's rows follow the window in the prompt: an old "When should I remind you …?" there
    was read as the pet's last line, so a plain "tomorrow at 9" became that old reminder."""
    from shelldon.worker.prompt import HistoryRow

    old = (
        HistoryRow(90, "owner", "remind me to renew the passport", "2026-01-02T10:00:00+00:00"),
        HistoryRow(91, "pet", "When should I remind you to renew the passport? Say: …", ""),
    )
    recent = (HistoryRow(100, "owner", "hello"), HistoryRow(101, "pet", "Hello!"))
    ctx = PromptContext(now=T0, zone=ZONE, recent=recent, recall=old)
    got = json.loads(OfflineBrain().complete(assemble_prompt(ctx, "tomorrow at 9")).text)
    assert got["ops"] == [] and "passport" not in got["reply"], got


@pytest.mark.parametrize(
    ("said", "when"),
    [
        ("remind me on thursday evening to call the dentist", "on Thursday 7 May at 19:00"),
        ("remind me tomorrow morning to take the bins out", "tomorrow at 09:00"),
        ("remind me tonight to call mum", "today at 19:00"),
    ],
)
def test_a_part_of_the_day_is_its_hour(said: str, when: str) -> None:
    """Before: "thursday evening" left "evening" in the task ("to it evening") at 09:00, and
    "tonight" alone was 09:00, already passed."""
    got = ask(said)
    assert when in got["reply"] and "evening" not in got["reply"].split(" to ", 1)[-1], got
    only_op(got)


@pytest.mark.parametrize("said", ["remind me about it on thursday evening", "remind me about that"])
def test_a_reminder_of_it_asks_which_thing(said: str) -> None:
    got = ask(said)
    assert got["ops"] == [] and "of what" in got["reply"], got


@pytest.mark.parametrize(
    ("message", "at", "task"),
    [
        (
            "Would you be so kind as to remind me to telephone the surgery at ten o'clock "
            "tomorrow?",
            "2026-05-06T10:00",
            "telephone the surgery",
        ),
        ("could you kindly remind me to water the plants at 8pm", "2026-05-05T20:00", None),
        ("would you mind reminding me to call mum at seven pm", "2026-05-05T19:00", "call mum"),
    ],
)
def test_a_reminder_asked_politely_or_with_the_hour_in_words_is_set(
    message: str, at: str, task: str | None
) -> None:
    """The eleventh pass: "Would you be so kind as to remind me …" was "I don't know that yet.
    Tell me and I'll remember.", and "at ten o'clock" no time."""
    op = only_op(ask(message))
    assert op.at == at, op
    assert task is None or op.text == task, op


def _at(message: str, now: datetime) -> str | None:
    [raw] = ask(message, now=now, zone="UTC")["ops"] or [None]
    op = decode_op(raw) if raw is not None else None
    return op.at if isinstance(op, Remind) else None


_NIGHT = datetime(2027, 1, 13, 3, 40, tzinfo=UTC)  # a Wednesday, before dawn
_MORNING = datetime(2027, 1, 13, 10, 0, tzinfo=UTC)
_EVENING = datetime(2027, 1, 13, 19, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("message", "now", "at"),
    [
        ("remind me pick up leo at 3", _NIGHT, "2027-01-13T15:00"),
        ("remind me at 3 to call the bank", _MORNING, "2027-01-13T15:00"),
        ("remind me at 3 to call the bank", _EVENING, "2027-01-14T15:00"),
        ("remind me at 5:30 to feed the cat", _NIGHT, "2027-01-13T17:30"),
        ("remind me tomorrow at 3 to call", _MORNING, "2027-01-14T15:00"),
        ("remind me at 7 to eat", _NIGHT, "2027-01-13T07:00"),
        ("remind me at 7 to eat", _MORNING, "2027-01-13T19:00"),
        ("remind me at 7 to eat", _EVENING, "2027-01-14T07:00"),
        ("remind me on friday evening at 7 to go out", _MORNING, "2027-01-15T19:00"),
        ("remind me at 3am to check the oven", _NIGHT, None),  # passed: said so, nothing set
        ("remind me tomorrow morning at 6 to run", _MORNING, "2027-01-14T06:00"),
        ("remind me at 03:30 to turn the patient", _NIGHT, None),
        ("remind me to stop revising at midnight", _EVENING, "2027-01-14T00:00"),
        ("remind me tonight to book the train", _EVENING, "2027-01-13T21:00"),
        ("remind me to take my meds after lunch", _NIGHT, "2027-01-13T13:30"),
        ("remind me after dinner to call gran", _MORNING, "2027-01-13T20:00"),
    ],
)
def test_a_bare_hour_is_the_one_a_person_means(message: str, now: datetime, at: str | None) -> None:
    """The twelfth pass: "pick up leo at 3" was 03:00 (said at 17:45, "already passed"), "at
    midnight" said at 23:00 today's 00:00, "tonight" said at 19:00 already passed, and "after
    lunch" no time at all. A bare 1 to 6 is the afternoon, 7 to 11 the next of the two; "3am",
    "03:30" and "morning" keep it early."""
    assert _at(message, now) == at


def test_a_part_of_the_day_beside_a_time_leaves_the_task() -> None:
    got = ask("remind me tomorrow morning at 6 to run", now=_MORNING, zone="UTC")
    assert got["reply"].endswith(" to run."), got


@pytest.mark.parametrize(
    "message",
    [  # the fourteenth pass: a day typed short ("today at 22:00 to email your tutor tmrw")
        "can u remind me to email my tutor tmrw at 10",
        "remind me tmr at 10 to email my tutor",
        "remind me 2moro at 10 to email my tutor",
    ],
)
def test_a_day_typed_short_is_the_day_it_stands_for(message: str) -> None:
    answer = ask(message)
    op = only_op(answer)
    assert op.at == "2026-05-06T10:00" and op.text == "email my tutor", op
    assert "tomorrow at 10:00" in answer["reply"], answer["reply"]


@pytest.mark.parametrize(
    ("said", "at"),
    [
        # a repeating reminder's bare hour said of the evening or the night is that evening's
        ("can you remind me to take my pills at 8 every evening?", "2026-05-05T20:00"),
        ("remind me every night at 10 to lock the door", "2026-05-05T22:00"),
        ("remind me every Monday at 7 in the evening to put the bins out", "2026-05-11T19:00"),
        # other bare hours as said: the morning's, and a night's small hours
        ("remind me every morning at 7 to stretch", "2026-05-06T07:00"),
        ("remind me every day at 6 to feed the cat", "2026-05-06T06:00"),
        ("remind me every night at 1 to check the baby", "2026-05-06T01:00"),
    ],
)
def test_a_repeating_reminders_hour_is_the_part_of_the_day_said(said: str, at: str) -> None:
    op = only_op(ask(said))
    assert op.at == at and op.repeat is not None, op
