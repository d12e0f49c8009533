"""Round robin (循环赛) for chess and Go (seed 004 三.1).

Group stage by lot (``draw.draw_groups``: balanced sizes, branches apart where possible); an
entry's drawn number in its group is its Berger number, so the order of meetings is drawn too
(对阵顺序抽签决定). Rounds follow the FIDE Berger tables; with an odd count the number n+1 is
the bye. The top ``advance`` of each group play a final round robin, numbered by a new lot.

Every meeting is a match of ``games`` games (三局两胜制: best of 3). The first-named entry of a
Berger pairing (the one with white in the tables) moves first in game 1 — red in chess, black
in Go — and the first move alternates game by game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.draw import draw_order
from domain.schedule.entrants import Entrant, Group


def berger_pairings(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """FIDE Berger tables for numbers 1..n (n even): per round, (first, second) per table.

    Round r lists 1..n-1 cyclically from s = 1 + (r-1)·n/2 (mod n-1); table 1 is s against n
    (n first in even rounds); table k pairs the k-th and the (n+1-k)-th of that list.
    For n = 6, round 2: 6–4, 5–3, 1–2.
    """
    if n < 2 or n % 2:
        raise InvalidInput(f"Berger tables need an even count, not {n}", rule="berger-count")
    rounds = []
    for r in range(1, n):
        start = (r - 1) * (n // 2) % (n - 1)
        cycle = [(start + k) % (n - 1) + 1 for k in range(n - 1)]
        first_table = (cycle[0], n) if r % 2 else (n, cycle[0])
        rest = tuple((cycle[k], cycle[n - 1 - k]) for k in range(1, n // 2))
        rounds.append((first_table, *rest))
    return tuple(rounds)


@dataclass(frozen=True)
class RoundRobinMatch:
    table_no: int
    first: str
    second: str
    first_movers: tuple[str, ...]
    """Who moves first in each game of the match."""


@dataclass(frozen=True)
class RoundRobinRound:
    round_no: int
    matches: tuple[RoundRobinMatch, ...]
    bye: str | None


@dataclass(frozen=True)
class RoundRobinSchedule:
    group: str
    rounds: tuple[RoundRobinRound, ...]


def round_robin(group: Group, *, games: int = 3) -> RoundRobinSchedule:
    """All rounds of one group; positions in ``group.entry_ids`` are the Berger numbers."""
    members = group.entry_ids
    if len(members) < 2 or len(set(members)) != len(members):
        raise RuleViolation(
            f"group {group.name} needs at least 2 distinct entries, has {len(members)}",
            rule="round-robin-entries",
            field="entry_ids",
        )
    if games < 1 or games % 2 == 0:
        raise InvalidInput(
            f"a match of {games} games has no majority", rule="round-robin-games", field="games"
        )
    size = len(members) + len(members) % 2
    by_number = dict(enumerate(members, start=1))
    rounds = []
    for round_no, tables in enumerate(berger_pairings(size), start=1):
        matches: list[RoundRobinMatch] = []
        bye = None
        for a, b in tables:
            if a not in by_number or b not in by_number:
                bye = by_number.get(a) or by_number.get(b)
                continue
            first, second = by_number[a], by_number[b]
            movers = tuple(first if g % 2 == 0 else second for g in range(games))
            matches.append(RoundRobinMatch(len(matches) + 1, first, second, movers))
        rounds.append(RoundRobinRound(round_no, tuple(matches), bye))
    return RoundRobinSchedule(group=group.name, rounds=tuple(rounds))


def qualifiers(standings: Mapping[str, Sequence[tuple[str, int]]], *, advance: int) -> tuple[Group, ...]:
    """Each group in standing order from its (entry id, rank) rows, as ``final_group`` reads it.

    Seed 004 §三.1 取前两名: the cut must fall between two ranks; entries sharing the rank at the
    cut (their tie-break chain left them level) are refused, for the referee to separate.
    """
    groups = []
    for name, rows in standings.items():
        level = [entry for entry, rank in rows if rank <= advance]
        if len(level) > advance:
            raise RuleViolation(
                f"group {name}: {len(level)} entries ({', '.join(level)}) rank {advance} or better "
                f"for {advance} places: the tie at the cut must be separated first",
                rule="advance-tie",
                field="advance",
            )
        groups.append(Group(name, tuple(entry for entry, _ in rows)))
    return tuple(groups)


def final_group(
    group_standings: Sequence[Group], seed: str, *, advance: int = 2, name: str = "final"
) -> Group:
    """The top ``advance`` of each group (each given in standing order), numbered by lot."""
    short = [g.name for g in group_standings if len(g.entry_ids) < advance]
    if advance < 1 or short:
        raise RuleViolation(
            f"{advance} must advance from every group; too small: {', '.join(short) or 'none'}",
            rule="round-robin-advance",
            field="advance",
        )
    qualified = [Entrant(entry) for g in group_standings for entry in g.entry_ids[:advance]]
    return Group(name, draw_order(qualified, seed))
