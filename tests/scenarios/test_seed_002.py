"""Seed 002 (AHUT 2017 pairs knockout, groups A and B) end to end through HTTP.

The leaders' lots are recorded as a physical draw; two 60-minute rounds halve each group's bracket;
a game stopped by time at equal levels goes to the side that reached the level first; a missed card
report costs a level; the top 8 of each group — the pairs still unbeaten — are awarded.
"""

from __future__ import annotations

import pytest

from tests.scenarios.driver import Driver
from tests.scenarios.expect import outcome, winner_entry
from tests.scenarios.simulate import AHUT_2017
from zhisai.scenarios import seed_002
from zhisai.scenarios.common import GameRecord, Record


@pytest.fixture(scope="module")
def played(module_driver: Driver) -> Record:
    return seed_002.run(module_driver, seed=2017)


def _groups(record: Record) -> dict[str, list[int]]:
    """The lots as the leaders drew them (the draw's stored result must say the same)."""
    lots: dict[str, list[int]] = record.notes["lots"]
    return lots


def _winners(record: Record, number: int) -> set[int]:
    found = {winner_entry(g, AHUT_2017) for g in record.games if g.round_no == number}
    assert None not in found
    return {w for w in found if w is not None}


def test_the_quota_table_and_the_recorded_lots(played: Record) -> None:
    assert len(played.entries) == sum(seed_002.QUOTAS.values()) == 64
    over = played.refusals["over_quota"]
    assert over.status in (409, 422) and over.rule is not None and "quota" in over.rule, over
    assert played.draw["method"] == "physical"
    groups = _groups(played)
    assert played.draw["result"]["groups"] == groups
    assert [b["slots"] for b in played.draw["result"]["brackets"]] == [groups["A"], groups["B"]]


def test_round_one_follows_the_lots_and_round_two_the_winners(played: Record) -> None:
    groups = _groups(played)
    first = played.rounds[1]["matches"]
    for name, slots in groups.items():
        pairs = {frozenset(e["entry_id"] for e in m["entries"]) for m in first if m["group"] == name}
        assert pairs == {frozenset(slots[i : i + 2]) for i in range(0, 32, 2)}
    second = played.rounds[2]["matches"]
    assert {e["entry_id"] for m in second for e in m["entries"]} == _winners(played, 1)
    assert len(second) == 16


def test_games_end_as_the_seed_scores_them(played: Record) -> None:
    for game in played.games:
        result = outcome(game, AHUT_2017)
        assert game.answer["state"] == "final"
        assert (game.answer["ns"]["level"], game.answer["ew"]["level"]) == (
            result.levels["NS"],
            result.levels["EW"],
        ), game.game_id
        assert game.answer["winner"] == result.winner, game.game_id


def _game(record: Record, key: str) -> GameRecord:
    return next(g for g in record.games if g.game_id == record.notes[key])


def test_equal_levels_at_time_go_to_the_side_that_reached_them_first(played: Record) -> None:
    game = _game(played, "first_to_reach_game")
    result = outcome(game, AHUT_2017)
    assert result.levels["NS"] == result.levels["EW"]
    first = "NS" if result.reached_at["NS"] < result.reached_at["EW"] else "EW"
    assert game.answer["winner"] == first
    assert game.answer["reason"] == "first-to-reach"


def test_a_missed_card_report_costs_a_level(played: Record) -> None:
    game = _game(played, "missed_report_game")
    assert game.play is not None
    unpunished = outcome(
        type(game)(**{**game.__dict__, "play": type(game.play)(game.play.orders, game.play.ending)}),
        AHUT_2017,
    )
    punished = outcome(game, AHUT_2017)
    assert punished.deals[1][1] == unpunished.deals[1][1] - 1
    assert game.answer["deals"][1]["ew_level"] == punished.deals[1][1]
    assert [p["kind"] for p in game.answer["penalties"]] == ["missed_report"]


def test_the_top_eight_of_each_group_are_awarded(played: Record) -> None:
    groups = _groups(played)
    unbeaten = _winners(played, 2)
    awards = played.notes["awards"]["awards"]
    for name, members in groups.items():
        awarded = {a["entry_id"] for a in awards if a["group"] == name}
        assert awarded == unbeaten & set(members), name
