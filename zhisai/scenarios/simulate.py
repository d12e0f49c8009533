"""A seeded generator of realistic Guandan games, and the level arithmetic of the seeds themselves.

Written from the notices (seeds/000–003), not from ``domain.rules``: the scenarios use it both to
decide what the scorers post and to compute, independently of the service, what each game is
worth. Seats N/E/S/W; N–S and E–W are partners.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

SEATS = ("N", "E", "S", "W")
SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
ACE = 14


@dataclass(frozen=True)
class Variant:
    """What differs between the seeds' level rules.

    ``a_attempts_limit``: failed deals at A that send the side back to 2 (None: never, seeds
    000 and 002 'A未打过不降级'); ``tie_at_time``: ``points_only`` (seed 000: each pair scores its
    level), ``draw`` (seed 001: nobody leads), ``first_to_reach`` (seed 002 §二.5), ``declarer``
    (seed 003 §六: 在台上的一方)."""

    a_attempts_limit: int | None
    tie_at_time: str


NUIST_2023 = Variant(a_attempts_limit=None, tie_at_time="points_only")  # seed 000 §九
NSI_2023 = Variant(a_attempts_limit=3, tie_at_time="draw")  # seed 001 第四条, 补充说明 3
AHUT_2017 = Variant(a_attempts_limit=None, tie_at_time="first_to_reach")  # seed 002 §二.5
INSTITUTE_2021 = Variant(a_attempts_limit=3, tie_at_time="declarer")  # seed 003 §六, §七.5


@dataclass
class Play:
    """A game as the table plays it: the deals' finishing orders, penalties, how it ended."""

    orders: list[tuple[str, ...]]
    ending: str  # "passed_a" or "time_up"
    level_penalties: dict[int, str] = field(default_factory=dict)
    """deal number → the side that lost a level after it (seed 002: a missed card report)."""


@dataclass
class Outcome:
    """What the seeds make of a played game."""

    levels: dict[str, int]
    passed_a: str | None
    winner: str | None  # None: no winner (equal levels under points_only / draw)
    declarer: str | None  # the side on stage after the last deal
    reached_at: dict[str, int]  # deal number at which each side reached its final level
    deals: list[tuple[int, int]] = field(default_factory=list)  # (ns, ew) after each deal


def promotion(order: Sequence[str]) -> tuple[str, int]:
    """The first finisher's side and its levels up: partner 2nd +3, 3rd +2, last +1."""
    winner = SIDE_OF[order[0]]
    partner_place = next(i for i, seat in enumerate(order[1:], start=1) if SIDE_OF[seat] == winner)
    return winner, {1: 3, 2: 2, 3: 1}[partner_place]


def replay(play: Play, variant: Variant) -> Outcome:
    """Levels deal by deal (seed 000 附件 六, seed 001 第四条): both sides start at 2, the first
    deal plays 2, then the last winner's level; a side at A passes when it declares, finishes
    first and its partner is not last."""
    levels = {"NS": 2, "EW": 2}
    failures = {"NS": 0, "EW": 0}
    reached = {"NS": 0, "EW": 0}
    declarer: str | None = None
    passed: str | None = None
    history: list[tuple[int, int]] = []
    for deal_no, order in enumerate(play.orders, start=1):
        if passed is not None:
            raise ValueError(f"deal {deal_no} posted after the game was won")
        winner, up = promotion(order)
        at_a = declarer is not None and levels[declarer] == ACE
        if at_a and declarer is not None:
            if winner == declarer and SIDE_OF[order[3]] != declarer:
                passed = declarer
            else:
                failures[declarer] += 1
                if variant.a_attempts_limit is not None and failures[declarer] >= variant.a_attempts_limit:
                    levels[declarer], failures[declarer], reached[declarer] = 2, 0, deal_no
        if passed is None:
            before = levels[winner]
            levels[winner] = min(ACE, levels[winner] + up)
            if levels[winner] != before:
                reached[winner] = deal_no
        penalised = play.level_penalties.get(deal_no)
        if penalised is not None and levels[penalised] > 2:
            levels[penalised] -= 1
            reached[penalised] = deal_no
        declarer = winner
        history.append((levels["NS"], levels["EW"]))
    if passed is not None:
        return Outcome(dict(levels), passed, passed, declarer, reached, history)
    if levels["NS"] != levels["EW"]:
        top = "NS" if levels["NS"] > levels["EW"] else "EW"
        return Outcome(dict(levels), None, top, declarer, reached, history)
    tie_winner: str | None = None
    if variant.tie_at_time == "first_to_reach":
        tie_winner = "NS" if reached["NS"] < reached["EW"] else "EW"
    elif variant.tie_at_time == "declarer":
        tie_winner = declarer
    return Outcome(dict(levels), None, tie_winner, declarer, reached, history)


def random_order(rng: random.Random, *, favour: str | None = None, bias: float = 0.5) -> tuple[str, ...]:
    """A finishing order; with ``favour`` that side's player finishes first with probability
    ``bias``, and its partner tends to finish well (double-downs are common among good pairs)."""
    seats = list(SEATS)
    rng.shuffle(seats)
    if favour is None:
        return tuple(seats)
    own = [s for s in SEATS if SIDE_OF[s] == favour]
    other = [s for s in SEATS if SIDE_OF[s] != favour]
    rng.shuffle(own)
    rng.shuffle(other)
    if rng.random() < bias:
        rest = [own[1], *other]
        rng.shuffle(rest)
        return (own[0], *rest)
    rest = [own[0], own[1], other[1]]
    rng.shuffle(rest)
    return (other[0], *rest)


def simulate(
    rng: random.Random,
    variant: Variant,
    *,
    pass_a: bool,
    max_deals: int = 14,
    level_penalties: Mapping[int, str] | None = None,
) -> Play:
    """A game that either passes A (a strong side) or runs to time after a few deals."""
    penalties = dict(level_penalties or {})
    favour = rng.choice(("NS", "EW"))
    orders: list[tuple[str, ...]] = []
    limit = 40 if pass_a else rng.randint(3, max_deals)
    while len(orders) < limit:
        orders.append(random_order(rng, favour=favour, bias=0.85 if pass_a else 0.55))
        outcome = replay(Play(orders, "time_up", penalties), variant)
        if outcome.passed_a is not None:
            return Play(orders, "passed_a", penalties)
    if pass_a:
        return simulate(rng, variant, pass_a=True, max_deals=max_deals, level_penalties=penalties)
    return Play(orders, "time_up", penalties)


def find(
    rng: random.Random,
    variant: Variant,
    wanted: Callable[[Play, Outcome], bool],
    *,
    pass_a: bool = False,
    max_deals: int = 14,
    level_penalties: Mapping[int, str] | None = None,
    tries: int = 5000,
) -> Play:
    """The first simulated game the scenario wants (e.g. equal levels at time)."""
    for _ in range(tries):
        play = simulate(rng, variant, pass_a=pass_a, max_deals=max_deals, level_penalties=level_penalties)
        if wanted(play, replay(play, variant)):
            return play
    raise RuntimeError("no simulated game matched; raise tries or loosen the wish")


def level_points(outcome: Outcome, side: str) -> int:
    """Seed 000 §九.2: a pair scores the level it reached, A = 14, passed A = 15."""
    return 15 if outcome.passed_a == side else outcome.levels[side]
