"""Team rotation (轮转换位赛制, seed 000 §八.2).

Teams are drawn into A (sits N–S) and B (sits E–W); A_i and B_i start in block (区) i. Each
block has one table per pair number, numbered globally: block b, pair k → table (b-1)·pairs + k.
From round 2 the groups move in turn (seed 000 §八.2): round 2 B moves one block forward,
round 3 A moves one block back, round 4 B moves forward, and so on. Moving A back rather than
forward is the direction that does not recreate a meeting: after round r A_i meets
B_{i-(r-1)} (indices mod m), so the offset grows by one each round and no two teams meet twice
while r <= m, the number of blocks. Pair k of one team meets pair k of the other at its own
table, the A pair at N–S and the B pair at E–W.

An odd number of teams: the smaller group gets an empty place at its end; the team due to meet
it sits out (the bye). The empty place moves like a team, so it meets a different team of the
larger group each round — nobody sits out twice within the m rounds a rotation can have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.entrants import SeatAssignment, pair_seats

Lineup = Mapping[int, tuple[str, str]]
"""pair_no → the pair's two players, chosen by the team leader for one round (seed 000 §八.2)."""


@dataclass(frozen=True)
class RotationTable:
    table_no: int
    block: int
    pair_no: int
    seats: tuple[SeatAssignment, ...]


@dataclass(frozen=True)
class TeamMatch:
    block: int
    ns_entry: str
    ew_entry: str
    tables: tuple[RotationTable, ...]


@dataclass(frozen=True)
class RotationRound:
    round_no: int
    matches: tuple[TeamMatch, ...]
    bye: str | None


@dataclass(frozen=True)
class RotationSchedule:
    blocks: int
    pairs_per_team: int
    rounds: tuple[RotationRound, ...]


def block_of(index: int, *, group: Literal["A", "B"], round_no: int, blocks: int) -> int:
    """The block (1-based) where team ``index`` (0-based) of group A or B sits in a round."""
    # seed 000 §八.2: B moves forward in rounds 2, 4, …; A moves back in rounds 3, 5, …
    shift = round_no // 2 if group == "B" else -((round_no - 1) // 2)
    return (index + shift) % blocks + 1


def rotation_schedule(
    group_a: Sequence[str],
    group_b: Sequence[str],
    *,
    rounds: int,
    pairs_per_team: int = 5,
    lineups: Mapping[tuple[int, str], Lineup] | None = None,
) -> RotationSchedule:
    """Every round's team matches and tables; ``lineups`` by (round_no, entry_id) where known.

    Without a lineup a seat names the team and pair number only.
    """
    lineups = lineups or {}
    _check(group_a, group_b, pairs_per_team=pairs_per_team, lineups=lineups)
    blocks = max(len(group_a), len(group_b))
    if rounds < 1 or rounds > blocks:
        raise RuleViolation(
            f"{rounds} rounds with {blocks} blocks: a team would meet an opponent twice after round {blocks}",
            rule="rotation-rematch",
            field="rounds",
        )
    # the empty place of an odd count, at the end of the smaller group
    padded_a: list[str | None] = [*group_a, *[None] * (blocks - len(group_a))]
    padded_b: list[str | None] = [*group_b, *[None] * (blocks - len(group_b))]
    out = []
    for round_no in range(1, rounds + 1):
        at_block: dict[int, list[str | None]] = {b: [None, None] for b in range(1, blocks + 1)}
        sides: tuple[tuple[Literal["A", "B"], list[str | None]], ...] = (("A", padded_a), ("B", padded_b))
        for group, members in sides:
            for index, entry in enumerate(members):
                block = block_of(index, group=group, round_no=round_no, blocks=blocks)
                at_block[block][0 if group == "A" else 1] = entry
        matches = []
        bye = None
        for block, (ns, ew) in sorted(at_block.items()):
            if ns is None or ew is None:
                bye = ns or ew
                continue
            tables = tuple(
                RotationTable(
                    table_no=(block - 1) * pairs_per_team + pair_no,
                    block=block,
                    pair_no=pair_no,
                    seats=pair_seats(
                        (ns, pair_no, lineups.get((round_no, ns), {}).get(pair_no)),
                        (ew, pair_no, lineups.get((round_no, ew), {}).get(pair_no)),
                    ),
                )
                for pair_no in range(1, pairs_per_team + 1)
            )
            matches.append(TeamMatch(block=block, ns_entry=ns, ew_entry=ew, tables=tables))
        out.append(RotationRound(round_no=round_no, matches=tuple(matches), bye=bye))
    return RotationSchedule(blocks=blocks, pairs_per_team=pairs_per_team, rounds=tuple(out))


def _check(
    group_a: Sequence[str],
    group_b: Sequence[str],
    *,
    pairs_per_team: int,
    lineups: Mapping[tuple[int, str], Lineup],
) -> None:
    teams = [*group_a, *group_b]
    if len(set(teams)) != len(teams) or not group_a or not group_b:
        raise InvalidInput(
            f"groups A ({len(group_a)}) and B ({len(group_b)}) must be non-empty and share no team",
            rule="rotation-groups",
            field="groups",
        )
    if abs(len(group_a) - len(group_b)) > 1:
        raise RuleViolation(
            f"groups A ({len(group_a)}) and B ({len(group_b)}) differ by more than one team",
            rule="rotation-groups-unbalanced",
            field="groups",
        )
    if pairs_per_team < 1:
        raise InvalidInput(f"{pairs_per_team} pairs per team", rule="rotation-pairs", field="pairs_per_team")
    for (round_no, entry_id), lineup in lineups.items():
        players = [p for pair in lineup.values() for p in pair]
        if (
            entry_id not in teams
            or sorted(lineup) != list(range(1, pairs_per_team + 1))
            or any(len(pair) != 2 for pair in lineup.values())
            or len(set(players)) != len(players)
        ):
            raise InvalidInput(
                f"lineup of {entry_id} in round {round_no} must name pairs 1..{pairs_per_team}, "
                f"each two distinct players, nobody twice",
                rule="rotation-lineup",
                field="lineups",
            )
