"""The end of a game: worked examples of each seed's time-up, forfeit and penalty rules."""

from __future__ import annotations

import pytest

from domain.errors import Conflict, InvalidInput
from domain.rules.levels import DealResult, Side, replay
from domain.rules.ruleset import preset
from domain.rules.timeup import (
    GameStatus,
    deal_in_hand_counts,
    deal_may_start,
    forfeit_outcome,
    game_outcome,
    penalty_loss_due,
    penalty_loss_outcome,
)


def deals(*orders: str) -> list[DealResult]:
    return [DealResult(tuple(order)) for order in orders]


TO_ACE = ("NSEW",) * 4
EQUAL_AT_FIVE = ("NSEW", "EWNS")  # NS 5, then EW 5; EW on stage


def test_seed_000_ace_against_nine_at_time() -> None:
    # NS reach A, fail once (no demotion), EW climb 2 → 5 → 8 → 9.
    rules = preset("nuist-2023")
    game = replay(deals(*TO_ACE, "EWNS", "EWSN", "ENSW"), rules)
    assert (game.ns.level, game.ew.level) == (14, 9)
    outcome = game_outcome(game, rules, time_up_after=7)
    assert (outcome.status, outcome.winner, outcome.reason) == (GameStatus.WON, Side.NS, "higher-level")
    # seed 000 §九.2: 打到A记14分
    assert outcome.points == {Side.NS: 14, Side.EW: 9}


def test_seed_000_passed_a_scores_fifteen() -> None:
    rules = preset("nuist-2023")
    outcome = game_outcome(replay(deals(*TO_ACE, "NWSE"), rules), rules)
    assert (outcome.status, outcome.winner, outcome.reason) == (GameStatus.WON, Side.NS, "passed-a")
    assert outcome.points == {Side.NS: 15, Side.EW: 2}


def test_seed_000_equal_levels_at_time_need_no_winner() -> None:
    rules = preset("nuist-2023")
    outcome = game_outcome(replay(deals(*EQUAL_AT_FIVE), rules), rules, time_up_after=2)
    assert (outcome.status, outcome.winner) == (GameStatus.POINTS_ONLY, None)
    assert outcome.points == {Side.NS: 5, Side.EW: 5}


def test_seed_000_no_new_deal_in_the_last_five_minutes() -> None:
    rules = preset("nuist-2023")
    assert deal_may_start(rules, minutes_left=5.5)
    assert not deal_may_start(rules, minutes_left=5)
    assert not deal_may_start(rules, minutes_left=1)
    assert deal_in_hand_counts(rules)


@pytest.mark.parametrize(("name", "winner", "loser"), [("nuist-2023", 15, 2), ("nsi-2023", 14, 0)])
def test_forfeit_points(name: str, winner: int, loser: int) -> None:
    # seed 000 §九.3: 对手直接判负得2分，本家获胜得15分; seed 001 补充说明 9: 对方计14分，弃权方计0分
    outcome = forfeit_outcome(preset(name), forfeiting=Side.EW)
    assert (outcome.status, outcome.winner, outcome.reason) == (GameStatus.WON, Side.NS, "forfeit")
    assert outcome.points == {Side.NS: winner, Side.EW: loser}


def test_seed_001_leader_wins_and_equal_levels_draw() -> None:
    rules = preset("nsi-2023")
    ahead = game_outcome(replay(deals("NSEW", "NESW"), rules), rules, time_up_after=2)
    assert (ahead.status, ahead.winner, ahead.points) == (GameStatus.WON, Side.NS, {Side.NS: 7, Side.EW: 2})
    level = game_outcome(replay(deals(*EQUAL_AT_FIVE), rules), rules, time_up_after=2)
    assert (level.status, level.winner) == (GameStatus.DRAWN, None)
    assert not deal_in_hand_counts(rules)


def test_seed_002_equal_levels_go_to_the_side_that_reached_first() -> None:
    # seed 002 §二.5: 同时打8，则先打8的队伍获胜
    rules = preset("ahut-2017")
    ns_first = replay(deals("NSEW", "NSEW", "EWNS", "EWNS"), rules)
    assert (ns_first.ns.level, ns_first.ew.level) == (8, 8)
    outcome = game_outcome(ns_first, rules, time_up_after=4)
    assert (outcome.status, outcome.winner, outcome.reason) == (GameStatus.WON, Side.NS, "first-to-reach")
    ew_first = replay(deals("EWNS", "EWNS", "NSEW", "NSEW"), rules)
    assert game_outcome(ew_first, rules, time_up_after=4).winner is Side.EW


def test_seed_002_eight_beats_seven() -> None:
    rules = preset("ahut-2017")
    game = replay(deals("EWNS", "EWNS", "NSEW", "NWSE"), rules)  # EW 8, NS 5 then +2 = 7
    assert (game.ns.level, game.ew.level) == (7, 8)
    assert game_outcome(game, rules, time_up_after=4).winner is Side.EW


def test_seed_002_a_penalty_makes_the_level_count_as_reached_again() -> None:
    # NS reach 8 at deal 2, lose a level for a missed report at deal 4 (EW reach 8),
    # and regain 8 at deal 5: EW stood at 8 first.
    rules = preset("ahut-2017")
    posted = [
        *deals("NSEW", "NSEW", "EWNS"),
        DealResult(tuple("EWNS"), level_adjustments={"NS": -1}),
        *deals("NEWS"),
    ]
    game = replay(posted, rules)
    assert (game.ns.level, game.ns.reached_at, game.ew.level, game.ew.reached_at) == (8, 5, 8, 4)
    assert game_outcome(game, rules, time_up_after=5).winner is Side.EW


def test_seed_003_equal_levels_go_to_the_declarer() -> None:
    # seed 003 §六: 若级数相同，在台上的一方获胜 — EW won the last deal, so EW is on stage.
    rules = preset("institute-2021")
    outcome = game_outcome(replay(deals(*EQUAL_AT_FIVE), rules), rules, time_up_after=2)
    assert (outcome.status, outcome.winner, outcome.reason) == (GameStatus.WON, Side.EW, "declarer")
    nobody_on_stage = game_outcome(replay([], rules), rules, time_up_after=0)
    assert (nobody_on_stage.status, nobody_on_stage.winner) == (GameStatus.DRAWN, None)
    assert not deal_in_hand_counts(rules)


def test_seed_003_a_deal_after_time_is_a_conflict() -> None:
    rules = preset("institute-2021")
    with pytest.raises(Conflict) as error:
        game_outcome(replay(deals(*EQUAL_AT_FIVE, "NSEW"), rules), rules, time_up_after=2)
    assert (error.value.rule, error.value.field) == ("deal-after-time", "deals[2]")


def test_seed_004_equal_levels_play_one_extra_deal() -> None:
    # seed 004 §2: 若时间到，同级加赛一次，先升级的为获胜方
    rules = preset("hlju-2016")
    pending = game_outcome(replay(deals(*EQUAL_AT_FIVE), rules), rules, time_up_after=2)
    assert (pending.status, pending.winner) == (GameStatus.EXTRA_DEAL_REQUIRED, None)
    decided = game_outcome(replay(deals(*EQUAL_AT_FIVE, "SENW"), rules), rules, time_up_after=2)
    assert (decided.status, decided.winner, decided.reason) == (GameStatus.WON, Side.NS, "extra-deal")
    assert decided.points == {Side.NS: 7, Side.EW: 5}  # S first, N third: +2


def test_seed_004_only_one_extra_deal_and_only_at_equal_levels() -> None:
    rules = preset("hlju-2016")
    with pytest.raises(Conflict) as twice:
        game_outcome(replay(deals(*EQUAL_AT_FIVE, "SENW", "EWNS"), rules), rules, time_up_after=2)
    assert twice.value.field == "deals[3]"
    with pytest.raises(Conflict):
        game_outcome(replay(deals("NSEW", "NSEW"), rules), rules, time_up_after=1)


def test_time_up_after_more_deals_than_played_is_invalid() -> None:
    rules = preset("default")
    with pytest.raises(InvalidInput) as error:
        game_outcome(replay(deals("NSEW"), rules), rules, time_up_after=2)
    assert error.value.field == "time_up_after"


def test_in_progress_without_time_up() -> None:
    rules = preset("default")
    outcome = game_outcome(replay(deals("NSEW"), rules), rules)
    assert (outcome.status, outcome.winner, outcome.points) == (
        GameStatus.IN_PROGRESS,
        None,
        {Side.NS: 5, Side.EW: 2},
    )


def test_seed_002_second_warning_or_second_missed_report_loses() -> None:
    rules = preset("ahut-2017")
    assert penalty_loss_due(rules, warnings=1, missed_reports=1) is None
    assert penalty_loss_due(rules, warnings=2) == "warnings-to-lose"
    assert penalty_loss_due(rules, missed_reports=2) == "missed-reports-to-lose"
    assert penalty_loss_due(rules, fouls=9) is None


def test_seed_003_third_foul_loses_and_a_missed_report_is_a_foul() -> None:
    rules = preset("institute-2021")
    assert penalty_loss_due(rules, fouls=2) is None
    assert penalty_loss_due(rules, fouls=3) == "fouls-to-lose"
    assert penalty_loss_due(rules, fouls=2, missed_reports=1) == "fouls-to-lose"
    assert penalty_loss_due(rules, warnings=5) is None


def test_penalty_loss_scores_like_a_forfeit() -> None:
    outcome = penalty_loss_outcome(preset("nuist-2023"), losing=Side.NS)
    assert (outcome.winner, outcome.reason, outcome.points) == (
        Side.EW,
        "penalty-loss",
        {Side.EW: 15, Side.NS: 2},
    )
