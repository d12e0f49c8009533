"""Seed 001 (NSI 2023 pairs, four Swiss rounds) end to end through HTTP.

Quotas by member count, school leaders outside the quota, the 4 pm deadline, a computer draw for
round 1 and pairing by standing without rematches after it, every deal recorded, a 14:0 forfeit;
standings by wins then points and the top 8 pairs, computed here from what the scorers posted.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from tests.scenarios.driver import Driver
from tests.scenarios.expect import consistent_order, outcome, tally, top
from tests.scenarios.simulate import NSI_2023
from zhisai.scenarios import seed_001
from zhisai.scenarios.common import GameRecord, Record


@pytest.fixture(scope="module")
def played(module_driver: Driver) -> Record:
    return seed_001.run(module_driver, seed=2023)


def _keys(record: Record, games: list[GameRecord]) -> dict[int, tuple[int, int]]:
    # seed 001 §三, 补充说明 3: wins first, then total points
    expected = tally(games, NSI_2023, forfeit=(14, 0))
    return {entry: (expected.wins[entry], expected.points[entry]) for entry in record.entries}


def test_quotas_by_member_count_leaders_outside_them_and_the_deadline(played: Record) -> None:
    fielded = Counter(played.branches.values())
    assert {code: fielded[code] for code, *_ in seed_001.BRANCHES} == {
        code: pairs for code, _, _, pairs in seed_001.BRANCHES
    }
    assert fielded["LEAD"] == 2
    fifth = played.refusals["fifth_pair"]
    assert fifth.status in (409, 422), fifth
    assert fifth.rule is not None and "quota" in fifth.rule, fifth
    late = played.refusals["after_deadline"]
    assert late.status in (409, 422), late
    assert late.rule is not None and ("window" in late.rule or "closed" in late.rule), late


def test_every_deal_must_be_recorded(played: Record) -> None:
    refused = played.refusals["final_result_only"]
    assert (refused.status, refused.rule) == (422, "per-deal-record-required")


def test_round_one_is_the_draw_and_nobody_meets_twice(played: Record) -> None:
    draw = played.draw
    assert hashlib.sha256(draw["seed"].encode()).hexdigest() == draw["commitment"]
    assert draw["commitment"] == played.notes["commitment_before_draw"]
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, 5):
        matches = played.rounds[number]["matches"]
        assert sorted(e["entry_id"] for m in matches for e in m["entries"]) == sorted(played.entries)
        for match in matches:
            met[frozenset(e["entry_id"] for e in match["entries"])] += 1
    assert max(met.values()) == 1, [pair for pair, n in met.items() if n > 1]


def test_later_rounds_pair_entries_by_standing(played: Record) -> None:
    for number in range(2, 5):
        before = [g for g in played.games if g.round_no < number]
        wins = {entry: key[0] for entry, key in _keys(played, before).items()}
        gaps = [abs(wins[g.ns_entry] - wins[g.ew_entry]) for g in played.games if g.round_no == number]
        # pairing by standing: opponents sit in the same score group or the next one
        assert max(gaps) <= 1, (number, gaps)
        assert sum(gaps) <= len(gaps) // 2, (number, gaps)


def test_games_end_as_the_seed_scores_them(played: Record) -> None:
    forfeits = [g for g in played.games if g.forfeit]
    assert len(forfeits) == 1
    answer = forfeits[0].answer
    assert (answer["ns"]["points"], answer["ew"]["points"]) == (0, 14)
    for game in played.games:
        assert game.answer["state"] == "final"
        if game.forfeit:
            continue
        result = outcome(game, NSI_2023)
        assert (game.answer["ns"]["level"], game.answer["ew"]["level"]) == (
            result.levels["NS"],
            result.levels["EW"],
        ), game.game_id
        assert game.answer["winner"] == result.winner, game.game_id


def test_standings_rank_by_wins_then_points(played: Record) -> None:
    keys = _keys(played, played.games)
    expected = tally(played.games, NSI_2023, forfeit=(14, 0))
    rows = [row for group in played.notes["standings"]["groups"] for row in group["rows"]]
    assert {row["entry_id"]: (row["wins"], row["points"]) for row in rows} == keys
    assert {row["entry_id"]: row["points"] for row in rows} == dict(expected.points)
    assert consistent_order([row["entry_id"] for row in rows], keys)


def test_the_top_eight_pairs_are_awarded(played: Record) -> None:
    sure, possible = top(_keys(played, played.games), 8)
    awarded = {award["entry_id"] for award in played.notes["awards"]["awards"]}
    assert len(awarded) == 8
    assert sure <= awarded <= possible
