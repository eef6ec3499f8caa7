"""ProviderChain: fallback order, bounded retries, backoff and Retry-After, cooldown, exhaustion.

These use in-process scripted providers (the chain's logic has no I/O); the same paths through real
HTTP are in test_http_providers.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from shelldon.broker.chain import ChainExhausted, ProviderChain
from shelldon.broker.providers.base import ProviderError, RawCompletion, RetryPolicy
from shelldon.contracts.brain import CompletionRequest, PromptSection, Usage

REQUEST = CompletionRequest(
    purpose="turn",
    sections=(
        PromptSection(kind="system", text="be nice"),
        PromptSection(kind="message", text="hi"),
    ),
)


def answer(reply: str) -> RawCompletion:
    return RawCompletion(
        json.dumps({"reply": reply, "ops": []}), Usage(prompt_tokens=1, completion_tokens=2)
    )


class Scripted:
    """A provider that plays back a script: RawCompletion to answer, ProviderError to raise."""

    def __init__(self, name: str, script: Iterable[RawCompletion | Exception]) -> None:
        self.name = name
        self.script = list(script)
        self.calls = 0
        self.max_reply_chars: int | None = None
        self.budget_s: float | None = None
        self.retry_policy: RetryPolicy | None = None
        self.rule_based = name == "offline"

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion:
        self.calls += 1
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        return step


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def chain(
    *providers: Scripted, policy: RetryPolicy | None = None, time: FakeTime | None = None
) -> ProviderChain:
    time = time or FakeTime()
    return ProviderChain(
        list(providers),
        default_policy=policy or RetryPolicy(retries=2, backoff=0.5, backoff_cap=4.0),
        clock=time.clock,
        sleep=time.sleep,
        jitter=lambda: 1.0,
    )


def test_each_answer_logs_its_usage(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="shelldon.broker.chain")
    down = Scripted("a", [ProviderError("client")])
    chain(down, Scripted("b", [answer("hi")])).complete(REQUEST)
    assert "provider a failed: client" in caplog.text
    assert (
        "turn answered by b: prompt_tokens=1 completion_tokens=2 failed_attempts=1" in caplog.text
    )


def test_first_provider_answers() -> None:
    first, second = Scripted("a", [answer("from a")]), Scripted("b", [answer("from b")])
    reply = chain(first, second).complete(REQUEST)
    assert (reply.text, reply.provider, second.calls) == ("from a", "a", 0)
    assert reply.usage == Usage(prompt_tokens=1, completion_tokens=2)


@pytest.mark.parametrize("kind", ["connect", "timeout", "server", "rate_limited"])
def test_transient_failures_are_retried_with_backoff(kind: str) -> None:
    time = FakeTime()
    flaky = Scripted("a", [ProviderError(kind), ProviderError(kind), answer("third time")])  # type: ignore[arg-type]
    reply = chain(flaky, time=time).complete(REQUEST)
    assert reply.text == "third time"
    assert flaky.calls == 3
    assert time.slept == [0.5, 1.0]


def test_retries_are_bounded_then_the_next_provider_answers() -> None:
    time = FakeTime()
    down = Scripted("a", [ProviderError("server")] * 3)
    backup = Scripted("b", [answer("backup")])
    reply = chain(down, backup, time=time).complete(REQUEST)
    assert (reply.text, reply.provider, down.calls) == ("backup", "b", 3)


@pytest.mark.parametrize("kind", ["client", "malformed"])
def test_client_errors_and_malformed_answers_move_on_without_retry(kind: str) -> None:
    time = FakeTime()
    bad = Scripted("a", [ProviderError(kind, status=401)])  # type: ignore[arg-type]
    backup = Scripted("b", [answer("backup")])
    reply = chain(bad, backup, time=time).complete(REQUEST)
    assert (reply.provider, bad.calls, time.slept) == ("b", 1, [])


def test_retry_after_is_honoured_within_its_cap() -> None:
    time = FakeTime()
    limited = Scripted("a", [ProviderError("rate_limited", retry_after=3.0), answer("ok")])
    chain(limited, time=time, policy=RetryPolicy(retries=1, retry_after_cap=10)).complete(REQUEST)
    assert time.slept == [3.0]


def test_a_long_retry_after_skips_the_provider_and_cools_it_down() -> None:
    time = FakeTime()
    limited = Scripted("a", [ProviderError("rate_limited", retry_after=120.0), answer("later")])
    backup = Scripted("b", [answer("b1"), answer("b2")])
    the_chain = chain(limited, backup, time=time, policy=RetryPolicy(retries=3, retry_after_cap=10))
    assert the_chain.complete(REQUEST).provider == "b"
    assert time.slept == []  # never waited two minutes inside a turn
    assert the_chain.complete(REQUEST).provider == "b"
    assert limited.calls == 1  # skipped while cooling down
    time.now += 121
    assert the_chain.complete(REQUEST).provider == "a"


def test_the_backoff_is_capped() -> None:
    policy = RetryPolicy(retries=5, backoff=1.0, backoff_cap=3.0)
    pauses = [policy.pause(n, ProviderError("server"), jitter=1.0) for n in range(5)]
    assert pauses == [1.0, 2.0, 3.0, 3.0, 3.0]
    assert (
        policy.pause(0, ProviderError("server", retry_after=99.0), jitter=1.0)
        == policy.retry_after_cap
    )


def test_no_retry_sleep_past_the_deadline() -> None:
    time = FakeTime()
    down = Scripted("a", [ProviderError("timeout")] * 3)
    backup = Scripted("b", [answer("b")])
    reply = chain(down, backup, time=time).complete(REQUEST, deadline=time.now + 0.2)
    assert (reply.provider, down.calls, time.slept) == ("b", 1, [])


def test_an_empty_answer_falls_through() -> None:
    empty = Scripted("a", [RawCompletion('{"reply": "", "ops": []}')])
    reply = chain(empty, Scripted("b", [answer("b")])).complete(REQUEST)
    assert reply.provider == "b"


def test_a_provider_bug_does_not_escape_the_chain_nor_leak_into_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken = Scripted("a", [ValueError("Invalid header value 'sk-live-abcdef0123456789'")])
    assert chain(broken, Scripted("b", [answer("b")])).complete(REQUEST).provider == "b"
    assert "raised unexpectedly" in caplog.text and "ValueError" in caplog.text
    assert "sk-live-abcdef0123456789" not in caplog.text


def test_everything_failing_raises_chain_exhausted_with_each_attempt() -> None:
    a = Scripted("a", [ProviderError("client", "HTTP 401: bad key", status=401)])
    b = Scripted("b", [ProviderError("server", "HTTP 500")] * 3)
    with pytest.raises(ChainExhausted) as caught:
        chain(a, b).complete(REQUEST)
    kinds = [(x.provider, x.kind) for x in caught.value.attempts]
    assert kinds == [("a", "client"), ("b", "server"), ("b", "server"), ("b", "server")]
    assert "HTTP 401" in str(caught.value)


def test_an_empty_chain_is_exhausted() -> None:
    with pytest.raises(ChainExhausted):
        ProviderChain([]).complete(REQUEST)


def test_the_reply_is_bounded_by_the_request_and_the_provider() -> None:
    long = Scripted("a", [answer("x" * 500)])
    long.max_reply_chars = 100
    reply = chain(long).complete(REQUEST)
    assert len(reply.text) <= 100


class Hung:
    """A provider whose server never answers: each call waits out the deadline it was given
    (on the fake clock), then times out, as the HTTP client does."""

    max_reply_chars: int | None = None
    retry_policy: RetryPolicy | None = None
    rule_based = False

    def __init__(self, name: str, time: FakeTime, budget_s: float | None = None) -> None:
        self.name = name
        self.time = time
        self.budget_s = budget_s
        self.calls = 0

    def complete(
        self, request: CompletionRequest, *, deadline: float | None = None
    ) -> RawCompletion:
        self.calls += 1
        assert deadline is not None, "a hung provider with no deadline would hang the turn"
        self.time.now = max(self.time.now, deadline)
        raise ProviderError("timeout", "no answer within the deadline")


def test_a_hung_provider_leaves_the_rest_of_the_chain_its_time() -> None:
    """[a server that never answers, offline]: the turn's deadline is shared, so the offline
    brain still answers within the turn, however long the hung provider's own timeout is."""
    time = FakeTime()
    hung = Hung("hung", time, budget_s=600.0)
    offline = Scripted("offline", [answer("I'm here")])
    the_chain = chain(hung, offline, time=time, policy=RetryPolicy(retries=1))
    turn_deadline = time.now + 60.0
    reply = the_chain.complete(REQUEST, deadline=turn_deadline)
    assert (reply.text, reply.provider) == ("I'm here", "offline")
    assert time.now <= turn_deadline - 3.0  # the reserve for the one provider behind it
    assert [(f.provider, f.kind) for f in reply.failures] == [("hung", "timeout")]


def test_a_hung_provider_is_tried_once_within_its_own_budget() -> None:
    """Its retries share its timeout: a hung server costs `timeout` once, not once per retry."""
    time = FakeTime()
    start = time.now
    hung = Hung("hung", time, budget_s=20.0)
    the_chain = chain(hung, Scripted("offline", [answer("ok")]), time=time)
    the_chain.complete(REQUEST, deadline=start + 60.0)
    assert time.now - start == pytest.approx(20.0)


def test_with_the_defaults_a_hung_first_provider_costs_well_under_the_turn_timeout() -> None:
    from shelldon.broker.providers.json_http import retry_policy
    from shelldon.contracts.config import ProviderConfig, WorkerConfig

    spec, turn = ProviderConfig(name="hung", kind="openai"), WorkerConfig().turn_timeout
    time = FakeTime()
    start = time.now
    hung = Hung("hung", time, budget_s=spec.timeout)
    the_chain = ProviderChain(
        [hung, Scripted("offline", [answer("ok")])],
        policies={"hung": retry_policy(spec)},
        clock=time.clock,
        sleep=time.sleep,
    )
    assert the_chain.complete(REQUEST, deadline=start + turn).provider == "offline"
    assert time.now - start <= turn / 2


def test_a_refused_key_travels_with_the_answer_as_auth() -> None:
    down = Scripted("a", [ProviderError("client", "HTTP 401: invalid api key", status=401)])
    reply = chain(down, Scripted("b", [answer("hi")])).complete(REQUEST)
    (failure,) = reply.failures
    assert (failure.provider, failure.kind, failure.status) == ("a", "auth", 401)
    with pytest.raises(ChainExhausted) as exhausted:
        chain(Scripted("a", [ProviderError("client", status=403)])).complete(REQUEST)
    assert [(f.kind, f.status) for f in exhausted.value.failures] == [("auth", 403)]
