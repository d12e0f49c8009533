"""Gongzhu (拱猪) tables of four (seed 004 拱猪比赛规则 7: 前两名进入下一轮).

Each round draws the players still in to tables of four, one department's players at different
tables where possible (``draw.spread``); the top two of each table go through, until four are
left for the final table.

A count that is not a multiple of four: Gongzhu is dealt to exactly four (52 cards, 13 each),
so there are no tables of three. Instead ``count mod 4`` players — the fewest possible — get a
bye and go through without playing: the last drawn among those who have not had one (then the
last drawn at all). Five players would leave three (one table's two plus the bye), too few for
a final table, so then the third of table 1 goes through as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.draw import DrawStream, spread
from domain.schedule.entrants import (
    Entrant,
    Seat,
    SeatAssignment,
    SharedBranch,
    entry_ids,
    shared_branches,
)

TABLE = 4
SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")


@dataclass(frozen=True)
class GongzhuTable:
    table_no: int
    seats: tuple[SeatAssignment, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.entry_id for s in self.seats)


@dataclass(frozen=True)
class GongzhuRound:
    round_no: int
    tables: tuple[GongzhuTable, ...]
    byes: tuple[str, ...]
    final: bool
    same_branch: tuple[SharedBranch, ...]


def draw_tables(
    entrants: Sequence[Entrant], seed: str, *, round_no: int = 1, had_bye: frozenset[str] = frozenset()
) -> GongzhuRound:
    """One round's tables by lot, byes as in the module text."""
    ids = entry_ids(entrants)
    if len(ids) < TABLE:
        raise RuleViolation(
            f"{len(ids)} players cannot fill a Gongzhu table of {TABLE}",
            rule="gongzhu-too-few",
            field="entrants",
        )
    stream = DrawStream(seed, ids)
    by_id = {e.entry_id: e for e in entrants}
    order = stream.shuffle(sorted(ids))
    n_byes = len(ids) % TABLE
    # stable sort: players who had a bye first, each part in drawn order; byes from the end
    queue = sorted(order, key=lambda i: i not in had_bye)
    byes = queue[len(queue) - n_byes :]
    playing = [by_id[i] for i in order if i not in byes]
    dealt = spread(playing, [TABLE] * (len(playing) // TABLE), stream)
    tables = tuple(
        GongzhuTable(
            no,
            tuple(
                SeatAssignment(seat, player)
                for seat, player in zip(SEATS, stream.shuffle(members), strict=True)
            ),
        )
        for no, members in enumerate(dealt, start=1)
    )
    return GongzhuRound(
        round_no=round_no,
        tables=tables,
        byes=tuple(sorted(byes)),
        final=len(ids) == TABLE,
        same_branch=tuple(
            s for t in tables for s in shared_branches(f"table {t.table_no}", t.players, by_id)
        ),
    )


def advancing(played: GongzhuRound, ranks: Mapping[int, Sequence[str]]) -> tuple[str, ...]:
    """Who goes on: the byes and the top two of each table (``ranks``: table_no → 1st..4th)."""
    if played.final:
        raise RuleViolation("the final table ends the event", rule="gongzhu-final", field="round_no")
    for table in played.tables:
        if sorted(ranks.get(table.table_no, ())) != sorted(table.players):
            raise InvalidInput(
                f"table {table.table_no}: ranks must order exactly its players {sorted(table.players)}",
                rule="gongzhu-ranks",
                field="ranks",
            )
    through = [*played.byes, *(ranks[t.table_no][k] for t in played.tables for k in range(2))]
    # five players leave three: the third of table 1 completes the final table
    thirds = [ranks[t.table_no][2] for t in played.tables]
    return tuple(through + thirds[: max(0, TABLE - len(through))])


def next_round(
    entrants: Sequence[Entrant],
    played: GongzhuRound,
    ranks: Mapping[int, Sequence[str]],
    seed: str,
    *,
    had_bye: frozenset[str] = frozenset(),
) -> GongzhuRound:
    """The next round's tables from a round's results; ``entrants`` may hold every player."""
    through = set(advancing(played, ranks))
    return draw_tables(
        [e for e in entrants if e.entry_id in through],
        seed,
        round_no=played.round_no + 1,
        had_bye=had_bye | set(played.byes),
    )
