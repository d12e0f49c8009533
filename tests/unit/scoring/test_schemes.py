"""Each points scheme on small events whose standings are worked out by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.errors import InvalidInput
from domain.scoring.results import Entry, EventResults, GameResult
from domain.scoring.standings import GroupStandings, compute_standings


def game(round_no: int, one: str, two: str | None, points: tuple[int, int], **extra: Any) -> GameResult:
    """A game won by the side with more points (a draw when level)."""
    winner = one if points[0] > points[1] else two if points[1] > points[0] else None
    plain = GameResult(
        round_no=round_no,
        side_one=one,
        side_two=two,
        points_one=points[0],
        points_two=points[1],
        winner=winner,
    )
    return replace(plain, **extra)


def event(ids: str, games: list[GameResult]) -> EventResults:
    return EventResults(
        entries=tuple(Entry(entry_id=entry_id, display_name=f"pair {entry_id}") for entry_id in ids),
        games=tuple(games),
    )


def event_teams(games: list[GameResult], *, bonus: dict[str, int]) -> EventResults:
    return EventResults(
        entries=(Entry(entry_id="T1", branch="Maths"), Entry(entry_id="T2", branch="Physics")),
        games=tuple(games),
        bonus_counts=bonus,
    )


def order(table: GroupStandings) -> list[tuple[int, str, int]]:
    return [(row.rank, row.entry.entry_id, row.points) for row in table.rows]


def test_level_points_team_total_is_the_sum_of_five_pair_games_plus_capped_bonus() -> None:
    # seed 000 §九.2: a team's points are its five pairs' points; §七: +1 per dean, +2 at most
    t1 = [14, 10, 6, 15, 2]  # 47
    t2 = [8, 12, 14, 5, 15]  # 54
    games = [game(1, "T1", "T2", (a, b), pair_no=k + 1) for k, (a, b) in enumerate(zip(t1, t2, strict=True))]
    (table,) = compute_standings(
        event_teams(games, bonus={"T1": 3, "T2": 1}),
        scheme="level_points",
        chain=["sub_score", "lot"],
        bonus_cap=2,
    )
    assert order(table) == [(1, "T2", 55), (2, "T1", 49)]
    by_id = {row.entry.entry_id: row for row in table.rows}
    assert by_id["T1"].bonus == 2
    assert by_id["T2"].bonus == 1
    # the bonus is added to the final total only, never to the sub-score: 47 - 54 = -7
    assert by_id["T1"].figures["sub_score"] == -7
    # five pair games: T1 won pairs 1 and 4
    assert (by_id["T1"].wins, by_id["T1"].losses, by_id["T1"].games) == (2, 3, 5)


def test_three_deans_count_two_and_no_cap_counts_all() -> None:
    games = [game(1, "T1", "T2", (10, 10))]
    (capped,) = compute_standings(
        event_teams(games, bonus={"T1": 3}), scheme="level_points", chain=[], bonus_cap=2
    )
    (uncapped,) = compute_standings(event_teams(games, bonus={"T1": 3}), scheme="level_points", chain=[])
    assert order(capped) == [(1, "T1", 12), (2, "T2", 10)]
    assert order(uncapped) == [(1, "T1", 13), (2, "T2", 10)]


def test_wins_then_points_three_wins_rank_above_two_wins_with_more_points() -> None:
    # seed 001 补充说明 3: 先看胜场次数，相同胜场次数，在看积分; forfeit 14 v 0 (补充说明 9)
    games = [
        game(1, "A", "P", (14, 10)),
        game(2, "A", "Q", (13, 2)),
        game(3, "A", "R", (13, 12)),
        game(4, "A", "S", (0, 14), forfeit=True),
        game(1, "B", "S", (15, 2)),
        game(2, "B", "R", (15, 3)),
        game(3, "B", "Q", (14, 15)),
        game(4, "B", "P", (14, 15)),
    ]
    (table,) = compute_standings(event("ABPQRS", games), scheme="wins_then_points", chain=["lot"])
    rows = {row.entry.entry_id: row for row in table.rows}
    assert (rows["A"].wins, rows["A"].points) == (3, 40)
    assert (rows["B"].wins, rows["B"].points) == (2, 58)
    assert rows["A"].rank < rows["B"].rank
    # P: won 15-14, lost 10-14 -> 1 win 25; Q: 2+15=17, 1 win; R: 12+3=15, 0 wins; S: 14+2=16, 1 win
    assert [row.entry.entry_id for row in table.rows] == ["A", "B", "P", "Q", "S", "R"]
    assert rows["P"].tie is not None
    assert rows["P"].tie.text == "tied on wins 1 with pair Q, pair S; separated by points 25 vs 17"


def test_match_points_win_two_draw_one_and_level_difference_as_sub_score() -> None:
    games = [
        GameResult(
            round_no=1,
            side_one="A",
            side_two="B",
            points_one=10,
            points_two=7,
            level_one=10,
            level_two=7,
            winner="A",
        ),
        GameResult(
            round_no=2, side_one="A", side_two="C", points_one=9, points_two=9, level_one=9, level_two=9
        ),
        GameResult(
            round_no=3,
            side_one="B",
            side_two="C",
            points_one=12,
            points_two=5,
            level_one=12,
            level_two=5,
            winner="B",
        ),
    ]
    (table,) = compute_standings(event("ABC", games), scheme="match_points", chain=["points", "sub_score"])
    assert order(table) == [(1, "A", 3), (2, "B", 2), (3, "C", 1)]
    assert [row.figures["sub_score"] for row in table.rows] == [3, 4, -7]
    assert [(row.wins, row.draws, row.losses) for row in table.rows] == [(1, 1, 0), (1, 0, 1), (0, 1, 1)]


def test_match_points_follow_the_rule_sets_values() -> None:
    games = [game(1, "A", "B", (3, 1)), game(2, "A", "C", (1, 1))]
    (table,) = compute_standings(event("ABC", games), scheme="match_points", chain=[], match_points=(3, 1, 0))
    assert order(table) == [(1, "A", 4), (2, "C", 1), (3, "B", 0)]


def test_round_robin_chess_best_of_three_sub_score_is_the_games_difference() -> None:
    # seed 004 §三.1: 三局两胜; a cycle A>B>C>A leaves all on 2 match points
    games = [game(1, "A", "B", (2, 1)), game(2, "B", "C", (2, 0)), game(3, "C", "A", (2, 1))]
    (table,) = compute_standings(
        event("ABC", games), scheme="match_points", chain=["head_to_head", "sub_score"]
    )
    assert order(table) == [(1, "B", 2), (2, "A", 2), (3, "C", 2)]
    assert [row.figures["sub_score"] for row in table.rows] == [1, 0, -1]
    # the cycle leaves head-to-head level, so the sub-score separated them
    assert [row.tie.separated_by for row in table.rows if row.tie] == ["sub_score"] * 3


def test_unknown_scheme_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        compute_standings(event("AB", []), scheme="swiss", chain=[])
    assert (caught.value.rule, caught.value.field) == ("points-scheme-unknown", "scheme")


def test_entries_without_games_rank_together_at_zero() -> None:
    (table,) = compute_standings(event("AB", []), scheme="level_points", chain=[])
    assert order(table) == [(1, "A", 0), (1, "B", 0)]


def test_a_team_met_in_five_pair_games_counts_once_in_opponents_score() -> None:
    # round 1: T1 v T2 in five pair games (T2 scores 5 x 6 = 30); round 2: T1 v T3 in one game
    entries = tuple(Entry(entry_id=team) for team in ("T1", "T2", "T3"))
    games = [game(1, "T1", "T2", (10, 6), pair_no=k) for k in range(1, 6)]
    games.append(game(2, "T1", "T3", (9, 7), pair_no=1))
    results = EventResults(entries=entries, games=tuple(games))
    (table,) = compute_standings(results, scheme="level_points", chain=["opponents_score"])
    by_id = {row.entry.entry_id: row for row in table.rows}
    assert by_id["T1"].points == 59
    assert by_id["T1"].figures["opponents_score"] == 30 + 7
    assert by_id["T2"].figures["opponents_score"] == 59
