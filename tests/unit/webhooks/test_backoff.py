"""Backoff: base × 2^(n−1) after the n-th failure, capped, jittered into the upper half."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from domain.webhooks.backoff import RetryPolicy

POLICY = RetryPolicy(max_attempts=8, base_seconds=30, cap_seconds=3600)


def test_waits_double_up_to_the_cap() -> None:
    waits = [POLICY.delay(n, jitter=1.0).total_seconds() for n in range(1, 10)]
    assert waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]


def test_jitter_spreads_a_wait_over_its_upper_half() -> None:
    assert POLICY.delay(3, jitter=0.0) == timedelta(seconds=60)
    assert POLICY.delay(3, jitter=0.5) == timedelta(seconds=90)
    assert POLICY.delay(3, jitter=1.0) == timedelta(seconds=120)


def test_exhausted_after_max_attempts() -> None:
    assert [POLICY.exhausted(n) for n in (1, 7, 8, 9)] == [False, False, True, True]


@given(
    attempts=st.integers(min_value=1, max_value=1000),
    jitter=st.floats(min_value=0, max_value=1),
    base=st.floats(min_value=0.01, max_value=600),
    cap=st.floats(min_value=0.01, max_value=86_400),
)
def test_a_wait_is_positive_bounded_and_never_shorter_than_the_previous_ceiling(
    attempts: int, jitter: float, base: float, cap: float
) -> None:
    policy = RetryPolicy(base_seconds=base, cap_seconds=cap)
    wait = policy.delay(attempts, jitter=jitter).total_seconds()
    ceiling = min(cap, base * 2.0 ** (attempts - 1))
    slack = 1e-6 + ceiling * 1e-9  # timedelta keeps whole microseconds
    assert 0 < wait <= cap + slack
    assert ceiling / 2 - slack <= wait <= ceiling + slack
    # the shortest next wait is at least the shortest wait now: retries never speed up
    assert (
        policy.delay(attempts + 1, jitter=0).total_seconds()
        >= policy.delay(attempts, jitter=0).total_seconds()
    )
