"""Seed 000 (NUIST 2023 team event, rotating seats) end to end through HTTP.

The union system registers 16 branch teams, the draw splits them into A and B, four rounds are
played at their fixed times with the leaders' lineups, and the standings and the top-8 awards are
checked against the notice's own rule computed here: level points (A 14, passed A 15), forfeit
15:2, +1 per dean or party secretary who plays (+2 at most), then sub-score, then lot.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import pytest

from tests.scenarios.driver import Driver
from tests.scenarios.expect import consistent_order, outcome, tally, top
from tests.scenarios.simulate import NUIST_2023
from zhisai.scenarios import seed_000
from zhisai.scenarios.common import Record


@pytest.fixture(scope="module")
def played(module_driver: Driver) -> Record:
    return seed_000.run(module_driver, seed=2023)


def _bonus(record: Record) -> dict[int, int]:
    # seed 000 §七: +1 per dean or party secretary who plays, +2 at most
    return {entry: min(seed_000.DEANS.get(code, 0), 2) for entry, code in record.branches.items()}


def _expected(record: Record) -> Any:
    return tally(record.games, NUIST_2023, forfeit=(15, 2), bonus=_bonus(record))


def test_rosters_outside_10_to_15_and_late_lineups_are_refused(played: Record) -> None:
    refusals = played.refusals
    assert refusals["roster_of_9"].status == 422, refusals["roster_of_9"]
    assert refusals["roster_of_16"].status == 422, refusals["roster_of_16"]
    assert refusals["lineup_after_start"].status == 409, refusals["lineup_after_start"]
    assert len(played.entries) == 16


def test_the_draw_was_committed_before_and_splits_a_and_b(played: Record) -> None:
    draw = played.draw
    assert played.notes["seed_before_draw"] is None
    assert draw["commitment"] == played.notes["commitment_before_draw"]
    assert hashlib.sha256(draw["seed"].encode()).hexdigest() == draw["commitment"]
    groups = draw["result"]["groups"]
    assert sorted(groups) == ["A", "B"]
    assert sorted(groups["A"] + groups["B"]) == sorted(played.entries)
    assert len(groups["A"]) == len(groups["B"]) == 8


def test_four_rotating_rounds_at_their_times_and_no_two_teams_meet_twice(played: Record) -> None:
    groups = played.draw["result"]["groups"]
    meetings: Counter[frozenset[int]] = Counter()
    for number, (start, end) in enumerate(seed_000.ROUND_TIMES, start=1):
        body = played.rounds[number]
        assert body["starts_at"].startswith(f"2023-12-29T{int(start[:2]) - 8:02d}:{start[3:]}")
        assert body["ends_at"].startswith(f"2023-12-29T{int(end[:2]) - 8:02d}:{end[3:]}")
        matches = body["matches"]
        assert len(matches) == 8
        seen = [e["entry_id"] for m in matches for e in m["entries"]]
        assert sorted(seen) == sorted(played.entries)  # every team plays every round once
        for match in matches:
            a, b = (e["entry_id"] for e in match["entries"])
            assert (a in groups["A"]) != (b in groups["A"])  # A meets B
            meetings[frozenset((a, b))] += 1
            assert len(match["table_nos"]) == 5
        games = [g for g in played.games if g.round_no == number]
        assert len(games) == 40
        for game in games:  # A sits N–S, B sits E–W, pair k meets pair k
            assert game.ns_entry in groups["A"] and game.ew_entry in groups["B"]
        by_match = Counter(g.match_no for g in games)
        assert set(by_match.values()) == {5}
    assert max(meetings.values()) == 1, [pair for pair, n in meetings.items() if n > 1]
    # seed 000 §八.2 round 1: A_i meets B_i
    first = {frozenset(e["entry_id"] for e in m["entries"]) for m in played.rounds[1]["matches"]}
    assert first == {frozenset(pair) for pair in zip(groups["A"], groups["B"], strict=True)}


def test_every_game_ends_as_the_seed_scores_it(played: Record) -> None:
    forfeits = [g for g in played.games if g.forfeit]
    assert len(forfeits) == 1
    passed = timed = 0
    for game in played.games:
        answer = game.answer
        assert answer["state"] == "final", answer
        if game.forfeit:
            points = (answer["ns"]["points"], answer["ew"]["points"])
            assert points == ((2, 15) if game.forfeit == "NS" else (15, 2))
            continue
        result = outcome(game, NUIST_2023)
        assert (answer["ns"]["level"], answer["ew"]["level"]) == (result.levels["NS"], result.levels["EW"]), (
            game.game_id
        )
        assert (answer["ns"]["passed_a"], answer["ew"]["passed_a"]) == (
            result.passed_a == "NS",
            result.passed_a == "EW",
        )
        passed += result.passed_a is not None
        timed += result.passed_a is None
    assert passed >= 5 and timed >= 5  # both kinds of ending were played


def test_a_correction_inside_the_window_counts_and_a_late_one_is_refused(played: Record) -> None:
    assert played.notes["correction"]["window"] == "entry_error"
    late = played.refusals["correction_after_window"]
    assert (late.status, late.rule) == (409, "correction-window-closed")


def test_standings_rank_all_teams_by_total_then_sub_score(played: Record, module_driver: Driver) -> None:
    expected = _expected(played)
    standings = played.notes["standings"]
    rows = [row for group in standings["groups"] for row in group["rows"]]
    assert {row["entry_id"]: row["points"] for row in rows} == dict(expected.points)
    assert {row["entry_id"]: row["bonus"] for row in rows} == expected.bonus
    keys = {entry: (expected.points[entry], expected.sub_score[entry]) for entry in played.entries}
    # seed 000 §七 取团体前八名: one table of all 16 teams, not one per draw group
    assert len(standings["groups"]) == 1, [g["group"] for g in standings["groups"]]
    assert consistent_order([row["entry_id"] for row in rows], keys)


def test_the_dean_bonus_is_capped_at_two(played: Record) -> None:
    rows = {row["entry_id"]: row for g in played.notes["standings"]["groups"] for row in g["rows"]}
    by_code = {code: entry for entry, code in played.branches.items()}
    assert rows[by_code["ATM"]]["bonus"] == 2  # three deans played
    assert rows[by_code["CS"]]["bonus"] == 1
    assert rows[by_code["MATH"]]["bonus"] == 0


def test_the_top_eight_are_awarded(played: Record) -> None:
    expected = _expected(played)
    keys = {entry: (expected.points[entry], expected.sub_score[entry]) for entry in played.entries}
    sure, possible = top(keys, 8)
    awarded = {award["entry_id"] for award in played.notes["awards"]["awards"]}
    assert len(awarded) == 8
    assert sure <= awarded <= possible
