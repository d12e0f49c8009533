"""The round clock of the big screen: how long a round has left, and its last minutes.

Pure: plain values in, a plain value out. The last minutes are the rule set's (seed 000 §九.1: in
the last 5 minutes a deal in hand is finished and no new one starts; seed 002 §二.2: the last 10
minutes allow one minute a play).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


class ClockPhase(StrEnum):
    UPCOMING = "upcoming"  # not started yet: the screen shows the start time
    RUNNING = "running"
    FINAL_MINUTES = "final_minutes"  # the rule set's last minutes: the screen warns
    TIME_UP = "time_up"  # the limit has passed; deals in hand may still be finished
    FINISHED = "finished"  # the referee finished the round
    UNTIMED = "untimed"  # started, without a time limit or an end time


@dataclass(frozen=True, slots=True)
class RoundTimes:
    starts_at: datetime | None
    started_at: datetime | None
    ends_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class RoundClock:
    phase: ClockPhase
    deadline: datetime | None
    seconds_left: int | None
    warning_minutes: int


def deadline_of(times: RoundTimes, *, time_limit_minutes: int | None) -> datetime | None:
    """The limit counts from the actual start (seed 000 §九.1 每轮比赛限时50分钟); before the start,
    or without a limit, the scheduled end stands."""
    if times.started_at is not None and time_limit_minutes is not None:
        return times.started_at + timedelta(minutes=time_limit_minutes)
    return times.ends_at


def round_clock(
    times: RoundTimes, *, time_limit_minutes: int | None, warning_minutes: int, now: datetime
) -> RoundClock:
    deadline = deadline_of(times, time_limit_minutes=time_limit_minutes)
    seconds_left = None if deadline is None else max(0, int((deadline - now).total_seconds()))
    if times.finished_at is not None:
        phase = ClockPhase.FINISHED
    elif times.started_at is None:
        phase = ClockPhase.UPCOMING
    elif seconds_left is None:
        phase = ClockPhase.UNTIMED
    elif seconds_left == 0:
        phase = ClockPhase.TIME_UP
    elif seconds_left <= warning_minutes * 60:
        phase = ClockPhase.FINAL_MINUTES
    else:
        phase = ClockPhase.RUNNING
    return RoundClock(
        phase=phase, deadline=deadline, seconds_left=seconds_left, warning_minutes=warning_minutes
    )


@dataclass(frozen=True, slots=True)
class RoundMark:
    """What choosing the current round needs of a round."""

    round_id: int
    number: int
    state: str
    starts_at: datetime | None


def current_round(rounds: list[RoundMark]) -> RoundMark | None:
    """The round the hall is playing: a started one; else the next published one; else the last
    finished one. Rounds whose pairing is not published are not the hall's business yet."""
    ordered = sorted(rounds, key=lambda r: (r.starts_at is None, r.starts_at or datetime.min, r.number))
    started = [r for r in ordered if r.state == "started"]
    if started:
        return started[-1]
    upcoming = [r for r in ordered if r.state == "published"]
    if upcoming:
        return upcoming[0]
    finished = [r for r in ordered if r.state == "finished"]
    return finished[-1] if finished else None
