"""Best-of-3 chess and Go matches (seed 004 三局两胜制) with 2/1/0 match points."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import Conflict, InvalidInput
from domain.rules.matchplay import MatchStatus, match_result
from domain.rules.ruleset import preset

RULES = preset("hlju-2016-xiangqi")


def play(*games: str) -> tuple[MatchStatus, str | None, tuple[float, float], tuple[int, int] | None]:
    result = match_result(games, RULES, first="li", second="wang")
    points = (result.game_points["li"], result.game_points["wang"])
    match = None if result.match_points is None else (result.match_points["li"], result.match_points["wang"])
    return result.status, result.winner, points, match


def test_two_straight_wins_end_the_match() -> None:
    assert play("win", "win") == (MatchStatus.WON, "li", (2, 0), (2, 0))
    assert play("0-1", "0-1") == (MatchStatus.WON, "wang", (0, 2), (0, 2))


def test_one_all_needs_a_third_game() -> None:
    assert play("win", "loss")[0] is MatchStatus.IN_PROGRESS
    assert play("win", "loss", "loss") == (MatchStatus.WON, "wang", (1, 2), (0, 2))


def test_a_draw_is_half_a_point_each() -> None:
    assert play("win", "draw") == (MatchStatus.IN_PROGRESS, None, (1.5, 0.5), None)
    assert play("win", "draw", "draw") == (MatchStatus.WON, "li", (2, 1), (2, 0))
    assert play("win", "draw", "loss") == (MatchStatus.DRAWN, None, (1.5, 1.5), (1, 1))
    assert play("½-½", "1/2-1/2", "draw") == (MatchStatus.DRAWN, None, (1.5, 1.5), (1, 1))


def test_no_game_after_the_match_is_decided() -> None:
    with pytest.raises(Conflict) as error:
        play("1-0", "1-0", "0-1")
    assert (error.value.rule, error.value.field) == ("match-already-decided", "games[2]")
    with pytest.raises(Conflict):
        play("draw", "draw", "draw", "win")


def test_unreadable_results_and_players() -> None:
    with pytest.raises(InvalidInput) as error:
        play("win", "2-0")
    assert (error.value.rule, error.value.field) == ("game-result", "games[1]")
    with pytest.raises(InvalidInput):
        match_result(["win"], RULES, first="li", second="li")


def test_a_single_game_match() -> None:
    single = match_result(["draw"], preset("default"), first="a", second="b")
    assert (single.status, single.match_points) == (MatchStatus.DRAWN, {"a": 1, "b": 1})


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["win", "draw", "loss"]), min_size=3, max_size=3))
def test_every_three_game_sequence_is_decided_by_the_points(games: list[str]) -> None:
    points = {"win": (1.0, 0.0), "draw": (0.5, 0.5), "loss": (0.0, 1.0)}
    for played in range(1, 4):
        result = match_result(games[:played], RULES, first="li", second="wang")
        if result.status is not MatchStatus.IN_PROGRESS:
            break
    if played < 3:
        with pytest.raises(Conflict):
            match_result(games[: played + 1], RULES, first="li", second="wang")
    li = sum(points[g][0] for g in games[:played])
    wang = sum(points[g][1] for g in games[:played])
    assert result.status is not MatchStatus.IN_PROGRESS
    assert result.winner == ("li" if li > wang else "wang" if wang > li else None)
    assert result.match_points is not None
    assert sum(result.match_points.values()) == 2
    # once decided, the remaining games could not have changed the winner
    assert abs(li - wang) > 3 - played or played == 3
