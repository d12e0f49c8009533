"""Standings and awards of a Gongzhu event (seed 004 拱猪): tables of four, the top two go on, the
final table's ranking gives places 1–4, the others follow by the round reached then their total."""

from __future__ import annotations

import pytest

from domain.errors import Conflict
from domain.scoring.awards import top_n_awards
from domain.scoring.results import Entry, EventResults, GameResult, TableResult
from domain.scoring.standings import compute_standings

PLAYERS = [f"p{n}" for n in range(10)]


def table(
    round_no: int, totals: dict[str, int], *, final_table: bool = False, final: bool = True
) -> TableResult:
    ranking = tuple(sorted(totals, key=lambda player: -totals[player]))
    return TableResult(
        round_no=round_no,
        ranking=ranking,
        totals=totals,
        advancing=() if final_table else ranking[:2],
        final_table=final_table,
        final=final,
    )


def bye(round_no: int, player: str) -> GameResult:
    return GameResult(round_no=round_no, side_one=player, side_two=None, points_one=0, winner=player)


# ten players: round 1 two tables and two byes (p8, p9); round 2 one table and two byes (p2, p4);
# round 3 the final table
TABLES = (
    table(1, {"p0": 300, "p1": -1000, "p2": 500, "p3": 200}),
    table(1, {"p4": 1000, "p5": -100, "p6": 400, "p7": -600}),
    table(2, {"p0": -1020, "p6": 100, "p8": 700, "p9": 220}),
    table(3, {"p8": -1000, "p2": 600, "p9": 650, "p4": -250}, final_table=True),
)
BYES = (bye(1, "p8"), bye(1, "p9"), bye(2, "p2"), bye(2, "p4"))


def standings(tables: tuple[TableResult, ...] = TABLES) -> list[tuple[int, str, int]]:
    results = EventResults(
        entries=tuple(Entry(entry_id=player) for player in PLAYERS), games=BYES, tables=tables
    )
    (group,) = compute_standings(results, scheme="placement", chain=["points"])
    return [(row.rank, row.entry.entry_id, row.points) for row in group.rows]


def test_the_final_table_places_one_to_four_then_by_round_reached_and_total() -> None:
    assert standings() == [
        # the final table by its own totals (seed 004 三: 名次 1–4)
        (1, "p9", 650),
        (2, "p2", 600),
        (3, "p4", -250),
        (4, "p8", -1000),
        # out in round 2, by the total of that table: every table is a new game from 0
        (5, "p6", 100),
        (6, "p0", -1020),
        # out in round 1
        (7, "p3", 200),
        (8, "p5", -100),
        (9, "p7", -600),
        (10, "p1", -1000),
    ]


def test_awards_are_the_final_table() -> None:
    results = EventResults(entries=tuple(Entry(entry_id=p) for p in PLAYERS), games=BYES, tables=TABLES)
    (group,) = compute_standings(results, scheme="placement", chain=["points"])
    awards = top_n_awards(group, n=4, prize="top 4")
    assert [(award.rank, award.entry.entry_id) for award in awards] == [
        (1, "p9"),
        (2, "p2"),
        (3, "p4"),
        (4, "p8"),
    ]


def test_a_referee_order_on_the_final_table_decides_equal_totals() -> None:
    level = TableResult(
        round_no=3,
        ranking=("p2", "p9", "p4", "p8"),  # p2 and p9 level on 600, ordered by the referee
        totals={"p2": 600, "p9": 600, "p4": -250, "p8": -1000},
        advancing=(),
        final_table=True,
    )
    assert standings((*TABLES[:3], level))[:2] == [(1, "p2", 600), (2, "p9", 600)]


def test_a_table_not_confirmed_counts_only_provisionally() -> None:
    live = (
        *TABLES[:3],
        table(3, {"p8": -1000, "p2": 600, "p9": 650, "p4": -250}, final_table=True, final=False),
    )
    assert [entry for rank, entry, _ in standings(live) if rank <= 4] != ["p9", "p2", "p4", "p8"]


def test_a_player_seated_twice_in_a_round_is_refused() -> None:
    twice = (*TABLES, table(1, {"p0": 0, "p8": 0, "p9": 0, "p5": -1000}))
    with pytest.raises(Conflict) as error:
        standings(twice)
    assert error.value.rule == "table-double-booked"
