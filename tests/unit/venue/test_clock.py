"""The round clock: the limit runs from the actual start, the rule set's last minutes warn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.venue.clock import ClockPhase, RoundMark, RoundTimes, current_round, round_clock

START = datetime(2023, 12, 29, 5, 30, tzinfo=UTC)  # 13:30 in Asia/Shanghai (seed 000 §五)
SCHEDULED = RoundTimes(
    starts_at=START, started_at=None, ends_at=START + timedelta(minutes=50), finished_at=None
)


def _at(minutes: float, *, started_late: int = 0) -> tuple[ClockPhase, int | None]:
    times = RoundTimes(
        starts_at=START,
        started_at=START + timedelta(minutes=started_late),
        ends_at=START + timedelta(minutes=50),
        finished_at=None,
    )
    clock = round_clock(
        times, time_limit_minutes=50, warning_minutes=5, now=START + timedelta(minutes=minutes)
    )
    return clock.phase, clock.seconds_left


def test_seed_000_fifty_minutes_with_the_last_five_a_warning() -> None:
    assert _at(10) == (ClockPhase.RUNNING, 40 * 60)
    assert _at(44.5) == (ClockPhase.RUNNING, 5 * 60 + 30)
    assert _at(45) == (ClockPhase.FINAL_MINUTES, 5 * 60)
    assert _at(49.9)[0] is ClockPhase.FINAL_MINUTES
    assert _at(50) == (ClockPhase.TIME_UP, 0)
    assert _at(70) == (ClockPhase.TIME_UP, 0)


def test_a_late_start_keeps_the_full_limit() -> None:
    assert _at(50, started_late=3) == (ClockPhase.FINAL_MINUTES, 3 * 60)


def test_before_the_start_and_after_the_finish() -> None:
    upcoming = round_clock(SCHEDULED, time_limit_minutes=50, warning_minutes=5, now=START)
    assert (upcoming.phase, upcoming.deadline) == (ClockPhase.UPCOMING, SCHEDULED.ends_at)
    finished = RoundTimes(START, START, START + timedelta(minutes=50), START + timedelta(minutes=48))
    assert (
        round_clock(finished, time_limit_minutes=50, warning_minutes=5, now=START).phase
        is ClockPhase.FINISHED
    )
    untimed = RoundTimes(START, START, None, None)
    assert (
        round_clock(untimed, time_limit_minutes=None, warning_minutes=0, now=START).phase
        is ClockPhase.UNTIMED
    )


def test_without_last_minutes_the_clock_never_warns() -> None:
    times = RoundTimes(START, START, START + timedelta(minutes=45), None)
    clock = round_clock(times, time_limit_minutes=45, warning_minutes=0, now=START + timedelta(minutes=44))
    assert clock.phase is ClockPhase.RUNNING


def test_the_current_round_is_the_started_one_else_the_next_published_else_the_last_finished() -> None:
    def mark(number: int, state: str) -> RoundMark:
        return RoundMark(
            round_id=number, number=number, state=state, starts_at=START + timedelta(hours=number)
        )

    assert current_round([mark(1, "finished"), mark(2, "started"), mark(3, "published")]) == mark(
        2, "started"
    )
    assert current_round([mark(1, "finished"), mark(2, "published"), mark(3, "published")]) == mark(
        2, "published"
    )
    assert current_round([mark(1, "finished"), mark(2, "finished"), mark(3, "scheduled")]) == mark(
        2, "finished"
    )
    assert current_round([mark(1, "scheduled")]) is None
