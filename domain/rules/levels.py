"""Guandan level progression: from the finishing order of each deal to both sides' levels.

``replay`` rebuilds a whole game from its deals; the scoring service calls it on every posted
deal, so it stays a single cheap pass (see bench/bench_levels.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from domain.errors import Conflict, InvalidInput
from domain.rules.ruleset import ACE, LOWEST_LEVEL, PassACondition, RuleSet


class Seat(StrEnum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"


class Side(StrEnum):
    NS = "NS"
    EW = "EW"


SIDE_OF: Mapping[Seat, Side] = {Seat.N: Side.NS, Seat.S: Side.NS, Seat.E: Side.EW, Seat.W: Side.EW}
OPPONENT: Mapping[Side, Side] = {Side.NS: Side.EW, Side.EW: Side.NS}

_SEAT_NAMES: Mapping[str, Seat] = {
    **{seat.value: seat for seat in Seat},
    **{seat.value.lower(): seat for seat in Seat},
    "北": Seat.N,
    "东": Seat.E,
    "南": Seat.S,
    "西": Seat.W,
}

FinishOrder = tuple[Seat, Seat, Seat, Seat]


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal as posted: seats from first to last, and level changes from penalties."""

    finish_order: Sequence[str]
    level_adjustments: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SideState:
    level: int = LOWEST_LEVEL
    reached_at: int = 0
    """Number of the deal after which the side stood at ``level`` (0: from the start)."""
    a_failures: int = 0
    passed_a: bool = False


@dataclass(frozen=True, slots=True)
class DealRecord:
    number: int
    finish_order: FinishOrder
    declarer: Side | None
    """Side whose level was played; None for the first deal, played at 2 by both."""
    level_played: int
    winner: Side
    promotion: int
    failed_a: bool
    ns: SideState
    ew: SideState


@dataclass(frozen=True, slots=True)
class Trajectory:
    deals: tuple[DealRecord, ...]
    ns: SideState
    ew: SideState
    declarer: Side | None
    """The side on stage: it declares the next deal (the last deal's first finisher's side)."""
    passed_a: Side | None

    @property
    def over(self) -> bool:
        return self.passed_a is not None

    @property
    def passed_a_at(self) -> int | None:
        """Number of the deal in which a side passed A: always the last one."""
        return len(self.deals) if self.passed_a is not None else None

    @property
    def next_level(self) -> int:
        return LOWEST_LEVEL if self.declarer is None else self.state(self.declarer).level

    def state(self, side: Side) -> SideState:
        return self.ns if side is Side.NS else self.ew

    def prefix(self, count: int) -> Trajectory:
        """The game as it stood after its first ``count`` deals."""
        if count == 0:
            return Trajectory(deals=(), ns=SideState(), ew=SideState(), declarer=None, passed_a=None)
        last = self.deals[count - 1]
        passed = Side.NS if last.ns.passed_a else Side.EW if last.ew.passed_a else None
        return Trajectory(
            deals=self.deals[:count], ns=last.ns, ew=last.ew, declarer=last.winner, passed_a=passed
        )


def promotion(order: FinishOrder) -> int:
    """Levels the first finisher's side goes up: partner second +3, third +2, last +1."""
    side = SIDE_OF[order[0]]
    if SIDE_OF[order[1]] is side:
        return 3
    return 2 if SIDE_OF[order[2]] is side else 1


def passes_a(order: FinishOrder, side: Side, condition: PassACondition) -> bool:
    """Whether ``side``, declaring at its A, passes A in a deal finished in ``order``."""
    no_last = SIDE_OF[order[3]] is not side
    if condition is PassACondition.NO_LAST_ON_SIDE:
        return no_last
    return no_last and SIDE_OF[order[0]] is side


def parse_finish_order(raw: Sequence[str], *, field_name: str = "finish_order") -> FinishOrder:
    seats = [_SEAT_NAMES[name] for name in raw if isinstance(name, str) and name in _SEAT_NAMES]
    if len(raw) != 4 or len(set(seats)) != 4:
        raise InvalidInput(
            f"a finishing order names the four seats N, E, S, W once each, got {list(raw)!r}",
            rule="finish-order-seats",
            field=field_name,
        )
    return (seats[0], seats[1], seats[2], seats[3])


_CANONICAL_ORDERS: Mapping[tuple[str, ...], FinishOrder] = {
    (a, b, c, d): (a, b, c, d) for a, b, c, d in itertools.permutations(Seat)
}


def _order_at(raw: Sequence[str], *, index: int) -> FinishOrder:
    # The canonical spelling is looked up; any other goes through the full parser.
    try:
        return _CANONICAL_ORDERS[tuple(raw)]
    except (KeyError, TypeError):
        return parse_finish_order(raw, field_name=f"deals[{index}].finish_order")


def _adjustments(raw: Mapping[str, int], *, index: int) -> list[tuple[Side, int]]:
    try:
        return [(Side(name), int(delta)) for name, delta in raw.items()]
    except (ValueError, TypeError):
        raise InvalidInput(
            f"level adjustments are keyed by side NS or EW with whole numbers, got {dict(raw)!r}",
            rule="level-adjustment-side",
            field=f"deals[{index}].level_adjustments",
        ) from None


def _moved(state: SideState, level: int, number: int) -> SideState:
    if level == state.level:
        return state
    # Leaving A (a penalty, a reset) ends the side's attempts there.
    failures = state.a_failures if level == ACE else 0
    return SideState(level=level, reached_at=number, a_failures=failures, passed_a=state.passed_a)


def replay(deals: Sequence[DealResult], rules: RuleSet) -> Trajectory:
    """Replay a game's deals in order; a deal after a side passed A is a Conflict."""
    states = {Side.NS: SideState(), Side.EW: SideState()}
    declarer: Side | None = None
    passed: Side | None = None
    records: list[DealRecord] = []
    for index, deal in enumerate(deals):
        number = index + 1
        if passed is not None:
            raise Conflict(
                f"deal {number} was posted after {passed} passed A in deal {index}; the game is over",
                rule="deal-after-game-over",
                field=f"deals[{index}]",
            )
        order = _order_at(deal.finish_order, index=index)
        winner = SIDE_OF[order[0]]
        up = promotion(order)
        level_played = LOWEST_LEVEL if declarer is None else states[declarer].level
        failed = False
        if declarer is not None and level_played == ACE:
            held = states[declarer]
            if passes_a(order, declarer, rules.pass_a_condition):
                passed = declarer
                states[declarer] = replace(held, passed_a=True)
            else:
                failed = True
                states[declarer] = replace(held, a_failures=held.a_failures + 1)
        if passed is None:
            states[winner] = _moved(states[winner], min(ACE, states[winner].level + up), number)
            limit = rules.a_attempts_limit
            if failed and declarer is not None and limit is not None and states[declarer].a_failures >= limit:
                states[declarer] = _moved(states[declarer], rules.a_failure_reset_level, number)
        for side, delta in (
            _adjustments(deal.level_adjustments, index=index) if deal.level_adjustments else ()
        ):
            level = max(LOWEST_LEVEL, min(ACE, states[side].level + delta))
            states[side] = _moved(states[side], level, number)
        records.append(
            DealRecord(
                number=number,
                finish_order=order,
                declarer=declarer,
                level_played=level_played,
                winner=winner,
                promotion=up,
                failed_a=failed,
                ns=states[Side.NS],
                ew=states[Side.EW],
            )
        )
        declarer = winner
    return Trajectory(
        deals=tuple(records), ns=states[Side.NS], ew=states[Side.EW], declarer=declarer, passed_a=passed
    )
