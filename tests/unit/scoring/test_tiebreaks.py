"""Tie-break criteria one by one, on hand-computed ties, and the chain's own checks."""

from __future__ import annotations

import pytest

from domain.errors import Conflict, InvalidInput
from domain.scoring.results import Entry, EventResults, GameResult
from domain.scoring.standings import GroupStandings, StandingRow, compute_standings
from domain.scoring.tiebreaks import resolve_chain


def game(round_no: int, one: str, two: str, points: tuple[int, int]) -> GameResult:
    winner = one if points[0] > points[1] else two if points[1] > points[0] else None
    return GameResult(
        round_no=round_no,
        side_one=one,
        side_two=two,
        points_one=points[0],
        points_two=points[1],
        winner=winner,
    )


def rank_level_points(
    ids: str, games: list[GameResult], chain: list[str], lots: dict[str, int] | None = None
) -> GroupStandings:
    results = EventResults(
        entries=tuple(Entry(entry_id=entry_id) for entry_id in ids), games=tuple(games), lots=lots or {}
    )
    (table,) = compute_standings(results, scheme="level_points", chain=chain)
    return table


def rows(table: GroupStandings) -> dict[str, StandingRow]:
    return {row.entry.entry_id: row for row in table.rows}


def ranks(table: GroupStandings) -> list[tuple[int, str]]:
    return [(row.rank, row.entry.entry_id) for row in table.rows]


# A: 14-5 v E, 13-10 v F -> 27 points, sub-score +12; B: 15-9 v F, 12-9 v E -> 27, +9
SUB_SCORE_GAMES = [
    game(1, "A", "E", (14, 5)),
    game(2, "A", "F", (13, 10)),
    game(1, "B", "F", (15, 9)),
    game(2, "B", "E", (12, 9)),
]


def test_sub_score_separates_equal_points_and_says_so() -> None:
    table = rank_level_points("ABEF", SUB_SCORE_GAMES, ["sub_score"])
    assert ranks(table) == [(1, "A"), (2, "B"), (3, "F"), (4, "E")]
    a, b, f = rows(table)["A"], rows(table)["B"], rows(table)["F"]
    assert (a.points, a.figures["sub_score"], b.points, b.figures["sub_score"]) == (27, 12, 27, 9)
    assert a.tie is not None
    assert a.tie.text == "tied on points 27 with B; separated by sub_score 12 vs 9"
    assert (a.tie.tied_group, a.tie.separated_by) == (("A", "B"), "sub_score")
    assert b.tie is not None
    assert b.tie.text == "tied on points 27 with A; separated by sub_score 9 vs 12"
    # F (19) shares its points with nobody, so it carries no tie note
    assert f.tie is None


def test_head_to_head_among_three_tied_is_reapplied_to_the_two_still_tied() -> None:
    # A, B, C all finish on 30. Among the three: A 10+7=17, B 6+9=15, C 8+9=17 -> B third;
    # between A and C alone: C 9 v A 7 -> C first, although the lot would favour A.
    games = [
        game(1, "A", "B", (10, 6)),
        game(2, "B", "C", (9, 8)),
        game(3, "A", "C", (7, 9)),
        game(4, "A", "D", (13, 2)),
        game(5, "B", "D", (15, 3)),
        game(6, "C", "D", (13, 4)),
    ]
    table = rank_level_points("ABCD", games, ["head_to_head", "lot"], lots={"A": 1, "B": 2, "C": 3, "D": 4})
    assert ranks(table) == [(1, "C"), (2, "A"), (3, "B"), (4, "D")]
    by_id = rows(table)
    assert [by_id[entry_id].points for entry_id in "ABCD"] == [30, 30, 30, 9]
    assert {entry_id: by_id[entry_id].figures["head_to_head"] for entry_id in "ABC"} == {
        "A": 7,
        "B": 15,
        "C": 9,
    }
    assert by_id["B"].tie is not None
    assert by_id["B"].tie.text == "tied on points 30 with A, C; separated by head_to_head 15 vs 17"
    assert by_id["C"].tie is not None
    assert by_id["C"].tie.text == "tied on points 30 with A, B; separated by head_to_head 9 vs 7"


def test_opponents_score_prefers_the_entry_that_met_stronger_opponents() -> None:
    # A and B on 19; A met C (15) and E (2) = 17, B met D (4) and C (15) = 19
    games = [
        game(1, "A", "C", (10, 8)),
        game(1, "B", "D", (10, 4)),
        game(2, "A", "E", (9, 2)),
        game(2, "B", "C", (9, 7)),
    ]
    table = rank_level_points("ABCDE", games, ["opponents_score"])
    assert ranks(table) == [(1, "B"), (2, "A"), (3, "C"), (4, "D"), (5, "E")]
    assert rows(table)["B"].figures["opponents_score"] == 19
    assert rows(table)["A"].figures["opponents_score"] == 17


def test_lot_is_the_last_resort_lot_one_first() -> None:
    games = [game(1, "A", "C", (10, 8)), game(1, "B", "D", (10, 8))]
    table = rank_level_points("ABCD", games, ["sub_score", "lot"], lots={"A": 2, "B": 1, "C": 4, "D": 3})
    assert ranks(table) == [(1, "B"), (2, "A"), (3, "D"), (4, "C")]
    assert rows(table)["A"].tie is not None
    assert rows(table)["A"].tie.text == "tied on points 10 with B; separated by lot 2 vs 1"


def test_undrawn_lot_leaves_the_tie_shared_and_says_so() -> None:
    games = [game(1, "A", "C", (10, 8)), game(1, "B", "D", (10, 8))]
    table = rank_level_points("ABCD", games, ["sub_score", "lot"], lots={"A": 2})
    assert ranks(table) == [(1, "A"), (1, "B"), (3, "C"), (3, "D")]
    note = rows(table)["B"].tie
    assert note is not None
    assert note.separated_by is None
    assert (
        note.text == "tied on points 10 with A; still tied after points, sub_score, lot: shares the rank; "
        "lot not yet drawn"
    )


def test_entries_tied_after_the_whole_chain_share_the_rank_competition_style() -> None:
    # A 12+10=22; B 3+6=9; C 3+6=9 (drew 6-6 with B); D 3+2=5
    games = [
        game(1, "A", "B", (12, 3)),
        game(1, "C", "D", (3, 3)),
        game(2, "A", "D", (10, 2)),
        game(2, "B", "C", (6, 6)),
    ]
    table = rank_level_points("ABCD", games, ["head_to_head"])
    assert ranks(table) == [(1, "A"), (2, "B"), (2, "C"), (4, "D")]
    note = rows(table)["C"].tie
    assert note is not None
    assert (note.separated_by, note.tied_group) == (None, ("B", "C"))


def test_wins_as_a_tie_break() -> None:
    # A: 10-8 win and 0-3 loss = 10; B: two 5-4 wins = 10; C: 8+4 = 12; D: 4+3 = 7
    games = [
        game(1, "A", "C", (10, 8)),
        game(1, "B", "D", (5, 4)),
        game(2, "B", "C", (5, 4)),
        game(2, "A", "D", (0, 3)),
    ]
    table = rank_level_points("ABCD", games, ["wins"])
    assert ranks(table) == [(1, "C"), (2, "B"), (3, "A"), (4, "D")]
    assert (rows(table)["B"].wins, rows(table)["A"].wins) == (2, 1)


def test_chain_repeating_the_leading_criteria_as_prefix_is_accepted() -> None:
    assert resolve_chain(("wins", "points"), ["wins", "points", "sub_score", "lot"]) == (
        "wins",
        "points",
        "sub_score",
        "lot",
    )
    assert resolve_chain(("points",), ["sub_score", "lot"]) == ("points", "sub_score", "lot")


@pytest.mark.parametrize(
    ("chain", "error", "rule"),
    [
        (["points", "toss"], InvalidInput, "tiebreak-unknown"),
        (["sub_score", "sub_score"], InvalidInput, "tiebreak-duplicate"),
        (["sub_score", "points"], Conflict, "tiebreak-chain-order"),
    ],
)
def test_bad_chains_are_refused(chain: list[str], error: type[Exception], rule: str) -> None:
    with pytest.raises(error) as caught:
        resolve_chain(("points",), chain)
    assert getattr(caught.value, "rule", None) == rule
    assert getattr(caught.value, "field", None) == "chain"


def test_a_large_tie_names_three_and_counts_the_rest() -> None:
    # five pairs each win 9-4 against five others: all level on points, on sub-score and unseparated
    games = [game(1, winner, loser, (9, 4)) for winner, loser in zip("ABCDE", "VWXYZ", strict=True)]
    table = rank_level_points("ABCDEVWXYZ", games, ["sub_score"])
    note = rows(table)["C"].tie
    assert note is not None
    assert (
        note.text
        == "tied on points 9 with A, B, D and 1 more; still tied after points, sub_score: shares the rank"
    )
    assert [row.rank for row in table.rows] == [1] * 5 + [6] * 5
