"""Seed 003 (2021 institute pairs knockout) end to end through HTTP.

13 branches and their 32 pairs, three 45-minute knockout rounds stopped at the bell, a tie at the
bell won by the side on stage, and the prize tiers by the round each pair won or lost.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from tests.scenarios.driver import Driver
from tests.scenarios.expect import outcome, winner_entry
from tests.scenarios.simulate import INSTITUTE_2021
from zhisai.scenarios import seed_003
from zhisai.scenarios.common import GameRecord, Record


@pytest.fixture(scope="module")
def played(module_driver: Driver) -> Record:
    return seed_003.run(module_driver, seed=2021)


def _round(record: Record, number: int) -> list[GameRecord]:
    return [g for g in record.games if g.round_no == number]


def _split(record: Record, number: int) -> tuple[set[int], set[int]]:
    """The round's winners and losers, from the seed's rule over the posted deals."""
    winners: set[int] = set()
    losers: set[int] = set()
    for game in _round(record, number):
        won = winner_entry(game, INSTITUTE_2021)
        assert won is not None, game.game_id  # a knockout game always has a winner
        winners.add(won)
        losers.add(game.ew_entry if won == game.ns_entry else game.ns_entry)
    return winners, losers


def test_thirteen_branches_field_thirty_two_pairs(played: Record) -> None:
    fielded = Counter(played.branches.values())
    assert len(fielded) == 13 and len(played.entries) == 32
    assert {code for code, n in fielded.items() if n == 3} == set(seed_003.THREE)
    refused = played.refusals["third_pair_of_a_two_pair_branch"]
    assert refused.status in (409, 422) and refused.rule is not None and "quota" in refused.rule, refused


def test_the_draw_seats_round_one_and_winners_go_on(played: Record) -> None:
    draw = played.draw
    assert hashlib.sha256(draw["seed"].encode()).hexdigest() == draw["commitment"]
    assert draw["commitment"] == played.notes["commitment_before_draw"]
    assert [len(_round(played, n)) for n in (1, 2, 3)] == [16, 8, 4]
    for number in (2, 3):
        winners, _ = _split(played, number - 1)
        entries = {e for g in _round(played, number) for e in (g.ns_entry, g.ew_entry)}
        assert entries == winners, number


def test_games_end_as_the_seed_scores_them(played: Record) -> None:
    for game in played.games:
        result = outcome(game, INSTITUTE_2021)
        assert game.answer["state"] == "final"
        assert (game.answer["ns"]["level"], game.answer["ew"]["level"]) == (
            result.levels["NS"],
            result.levels["EW"],
        ), game.game_id
        assert game.answer["winner"] == result.winner, game.game_id


def test_a_tie_at_the_bell_goes_to_the_side_on_stage(played: Record) -> None:
    game = next(g for g in played.games if g.game_id == played.notes["declarer_game"])
    result = outcome(game, INSTITUTE_2021)
    assert result.levels["NS"] == result.levels["EW"]
    assert game.answer["winner"] == result.declarer
    assert game.answer["reason"] == "declarer"


def test_prizes_by_the_round_won_or_lost(played: Record) -> None:
    first, second = _split(played, 3)
    _, third = _split(played, 2)
    prizes = {a["entry_id"]: a["prize"] for a in played.notes["awards"]["awards"]}
    assert prizes == dict.fromkeys(first, "一等奖") | dict.fromkeys(second, "二等奖") | dict.fromkeys(
        third, "三等奖"
    )
