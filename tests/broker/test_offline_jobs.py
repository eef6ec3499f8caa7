"""Where the owner lives and what they do, said in one line (shelldon.broker.offline_jobs
through broker.offline). Before the thirteenth pass "I just moved to Leeds for a new job at the
hospital, I'm a radiographer" kept only "lives in Leeds for a new job at the hospital", and the
radiographer, answered "good to know", was not where "what do you know about me?" looks."""

from __future__ import annotations

import pytest

from shelldon.broker.offline_jobs import is_work
from shelldon.contracts.ops import Remember
from support.offline_pet import Pet


@pytest.mark.parametrize(
    ("said", "home", "work"),
    [
        (
            "I just moved to Bath for a new job at the university, I'm a sonographer",
            "Bath",
            "sonographer",
        ),
        ("we moved to Hull in march and I'm a part-time bookkeeper", "Hull", "bookkeeper"),
        ("I live in Derby and I'm a cellist", "Derby", "cellist"),
        ("just started as a warehouse supervisor, we live in Crewe now", "Crewe", "supervisor"),
        ("moved to York for work, I'm a dietician", "York", "dietician"),
    ],
)
def test_the_home_and_the_work_are_two_facts_both_kept(said: str, home: str, work: str) -> None:
    pet = Pet()
    pet.say("hi, I'm Sol")
    pet.say(said)
    kept = [op.content for op in pet.ops if isinstance(op, Remember)]
    homes = [k for k in kept if k.startswith("The owner lives in")]
    assert homes == [f"The owner lives in {home}."], kept  # no month, no job in the home
    assert any(work in k and "works" in k for k in kept), kept
    about = pet.say("what do you know about me?")
    assert home in about and work in about, about


def test_a_move_for_a_job_somewhere_keeps_where_the_work_is() -> None:
    pet = Pet()
    pet.say("I just moved to Leeds for a new job at the hospital, I'm a radiographer")
    kept = [op.content for op in pet.ops if isinstance(op, Remember)]
    assert "The owner works as a radiographer at the hospital." in kept, kept


@pytest.mark.parametrize(
    ("what", "message", "job"),
    [
        ("radiographer", "I'm a radiographer", True),
        ("part-time cleaner", "I'm a part-time cleaner", True),
        ("bus inspector", "I'm a bus inspector", True),
        ("welder", "started a new job, I'm a welder", True),
        ("big eater", "I'm a big eater", False),
        ("night owl", "I'm a night owl", False),
        ("optimist", "I'm an optimist", False),
        ("vegetarian", "I'm a vegetarian", False),
        ("morning person", "I'm a morning person", False),
        ("worrier", "I'm a worrier at work", False),
    ],
)
def test_a_job_the_list_lacks_is_read_by_how_it_is_made(what: str, message: str, job: bool) -> None:
    assert is_work(what, message) is job
