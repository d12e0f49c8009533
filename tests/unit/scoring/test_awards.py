"""Groups, provisional results, knockout placement and awards (top N and prize tiers)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInput, RuleViolation
from domain.scoring.awards import tier_awards, top_n_awards
from domain.scoring.results import Entry, EventResults, GameResult, PrizeTier
from domain.scoring.standings import compute_standings


def game(
    round_no: int, one: str, two: str | None, points: tuple[int, int], *, final: bool = True
) -> GameResult:
    winner = one if points[0] > points[1] else two if points[1] > points[0] else None
    return GameResult(
        round_no=round_no,
        side_one=one,
        side_two=two,
        points_one=points[0],
        points_two=points[1],
        winner=winner,
        final=final,
    )


def entries(ids: list[str], group: str | None = None) -> tuple[Entry, ...]:
    return tuple(Entry(entry_id=entry_id, group=group) for entry_id in ids)


def test_groups_are_ranked_separately() -> None:
    # seed 002 §二: groups A and B each play their own draw
    results = EventResults(
        entries=entries(["a1", "a2"], "A") + entries(["b1", "b2"], "B"),
        games=(game(1, "a1", "a2", (8, 14)), game(1, "b1", "b2", (15, 3))),
    )
    group_a, group_b = compute_standings(results, scheme="level_points", chain=[])
    assert (group_a.group, [(r.rank, r.entry.entry_id) for r in group_a.rows]) == (
        "A",
        [(1, "a2"), (2, "a1")],
    )
    assert (group_b.group, [(r.rank, r.entry.entry_id) for r in group_b.rows]) == (
        "B",
        [(1, "b1"), (2, "b2")],
    )


def test_provisional_results_count_only_when_asked() -> None:
    results = EventResults(
        entries=entries(["A", "B", "C", "D"]),
        games=(game(1, "A", "B", (10, 6)), game(1, "C", "D", (13, 4), final=False)),
    )
    (settled,) = compute_standings(results, scheme="level_points", chain=[])
    assert [(r.entry.entry_id, r.points, r.provisional_games) for r in settled.rows] == [
        ("A", 10, 0),
        ("B", 6, 0),
        ("C", 0, 0),
        ("D", 0, 0),
    ]
    (live,) = compute_standings(results, scheme="level_points", chain=[], provisional=True)
    assert [(r.entry.entry_id, r.points, r.provisional_games) for r in live.rows] == [
        ("C", 13, 1),
        ("A", 10, 0),
        ("B", 6, 0),
        ("D", 4, 1),
    ]
    with pytest.raises(RuleViolation) as caught:
        top_n_awards(live, n=2, prize="top 2")
    assert caught.value.rule == "awards-provisional"


def test_top_eight_teams_and_a_tie_at_the_cut() -> None:
    # seed 000 §七: 团体前八名; ten teams T0..T9, T7 and T8 level on points with no tie-break
    teams = [f"T{k}" for k in range(10)]
    points = [30, 29, 28, 27, 26, 25, 24, 20, 20, 10]
    games = tuple(game(1, teams[k], teams[k + 1], (points[k], points[k + 1])) for k in range(0, 10, 2))
    results = EventResults(entries=entries(teams), games=games)
    (table,) = compute_standings(results, scheme="level_points", chain=[])
    awarded = top_n_awards(table, n=8, prize="团体前八名")
    assert [(a.rank, a.entry.entry_id) for a in awarded] == [
        (1, "T0"),
        (2, "T1"),
        (3, "T2"),
        (4, "T3"),
        (5, "T4"),
        (6, "T5"),
        (7, "T6"),
        (8, "T7"),
        (8, "T8"),
    ]
    assert {a.prize for a in awarded} == {"团体前八名"}


# seed 003 §十: 第三轮获胜方为一等奖，负方为二等奖，第二轮负方为三等奖
SEED_003_TIERS = (
    PrizeTier(name="一等奖", round_no=3, outcome="winners"),
    PrizeTier(name="二等奖", round_no=3, outcome="losers"),
    PrizeTier(name="三等奖", round_no=2, outcome="losers"),
)


def knockout_results() -> EventResults:
    """Seven pairs p2..p8; p2 has a bye in round 1, which advances it like a win."""
    games = (
        GameResult(round_no=1, side_one="p2", side_two=None, points_one=0, winner="p2"),
        game(1, "p3", "p4", (14, 9)),
        game(1, "p5", "p6", (8, 12)),
        game(1, "p7", "p8", (15, 6)),
        game(2, "p2", "p3", (11, 10)),
        game(2, "p6", "p7", (7, 13)),
        game(3, "p2", "p7", (9, 15)),
    )
    return EventResults(entries=entries([f"p{k}" for k in range(2, 9)]), games=games)


def test_seed_003_prize_tiers_from_the_rounds_lost() -> None:
    awarded = tier_awards(knockout_results(), SEED_003_TIERS)
    assert [(a.prize, a.entry.entry_id) for a in awarded] == [
        ("一等奖", "p7"),
        ("二等奖", "p2"),
        ("三等奖", "p3"),
        ("三等奖", "p6"),
    ]


def test_tier_awards_ignore_live_games() -> None:
    results = knockout_results()
    live_final = (*results.games[:-1], game(3, "p2", "p7", (9, 15), final=False))
    awarded = tier_awards(EventResults(entries=results.entries, games=live_final), SEED_003_TIERS)
    assert [(a.prize, a.entry.entry_id) for a in awarded] == [("三等奖", "p3"), ("三等奖", "p6")]


def test_placement_standings_rank_by_tier_then_round_reached() -> None:
    (table,) = compute_standings(knockout_results(), scheme="placement", chain=[], tiers=SEED_003_TIERS)
    assert [(r.rank, r.entry.entry_id) for r in table.rows] == [
        (1, "p7"),
        (2, "p2"),
        (3, "p3"),
        (3, "p6"),
        (5, "p4"),
        (5, "p5"),
        (5, "p8"),
    ]
    # round 1 losers meet no tier and reached round 1
    assert table.rows[-1].figures == {"placement": 0, "round_reached": 1}


def test_placement_without_tiers_ranks_by_round_reached_and_a_third_place_match() -> None:
    # seed 004: 最后角逐一、二、三、四名 — a third-place match beside the final
    games = (
        game(1, "a", "b", (14, 3)),
        game(1, "c", "d", (5, 13)),
        game(2, "a", "d", (12, 9)),
        GameResult(
            round_no=2,
            side_one="b",
            side_two="c",
            points_one=10,
            points_two=7,
            winner="b",
            bracket="third_place",
        ),
    )
    results = EventResults(entries=entries(["a", "b", "c", "d"]), games=games)
    places = (
        PrizeTier(name="第一名", round_no=2, outcome="winners"),
        PrizeTier(name="第二名", round_no=2, outcome="losers"),
        PrizeTier(name="第三名", round_no=2, outcome="winners", bracket="third_place"),
        PrizeTier(name="第四名", round_no=2, outcome="losers", bracket="third_place"),
    )
    assert [(a.prize, a.entry.entry_id) for a in tier_awards(results, places)] == [
        ("第一名", "a"),
        ("第二名", "d"),
        ("第三名", "b"),
        ("第四名", "c"),
    ]
    (by_round,) = compute_standings(results, scheme="placement", chain=[])
    # the third-place match is not the main draw: b and c both went out in round 1
    assert [(r.rank, r.entry.entry_id) for r in by_round.rows] == [(1, "a"), (2, "d"), (3, "b"), (3, "c")]


SEED_004_PLACES = (
    PrizeTier(name="第一名", round_no=3, outcome="winners"),
    PrizeTier(name="第二名", round_no=3, outcome="losers"),
    PrizeTier(name="第三名", round_no=3, outcome="winners", bracket="third_place"),
    PrizeTier(name="第四名", round_no=3, outcome="losers", bracket="third_place"),
)


def eight_pair_bracket() -> EventResults:
    """p1..p8 by slot: p1, p4, p6, p7 win round 1; p4 and p7 the semi-finals; p7 the final; the
    semi-final losers p1 and p6 meet for third place, which p6 wins."""
    third_place = GameResult(
        round_no=3,
        side_one="p1",
        side_two="p6",
        points_one=9,
        points_two=13,
        winner="p6",
        bracket="third_place",
    )
    games = (
        game(1, "p1", "p2", (13, 5)),
        game(1, "p3", "p4", (6, 12)),
        game(1, "p5", "p6", (8, 14)),
        game(1, "p7", "p8", (15, 4)),
        game(2, "p1", "p4", (7, 11)),
        game(2, "p6", "p7", (10, 12)),
        game(3, "p4", "p7", (9, 15)),
        third_place,
    )
    return EventResults(entries=entries([f"p{k}" for k in range(1, 9)]), games=games)


def test_the_final_gives_first_and_second_and_the_third_place_match_third_and_fourth() -> None:
    # seed 004 掼蛋 §1: 逐局淘汰，最后角逐一、二、三、四名
    results = eight_pair_bracket()
    (table,) = compute_standings(results, scheme="placement", chain=[], tiers=SEED_004_PLACES)
    assert [(r.rank, r.entry.entry_id) for r in table.rows] == [
        (1, "p7"),
        (2, "p4"),
        (3, "p6"),
        (4, "p1"),
        (5, "p2"),
        (5, "p3"),
        (5, "p5"),
        (5, "p8"),
    ]
    # the third-place match is no main-draw round: its winner reached the semi-finals, not beyond
    assert {r.entry.entry_id: r.figures["round_reached"] for r in table.rows[:4]} == {
        "p7": 4,
        "p4": 3,
        "p6": 2,
        "p1": 2,
    }
    assert [(a.rank, a.prize, a.entry.entry_id) for a in tier_awards(results, SEED_004_PLACES)] == [
        (1, "第一名", "p7"),
        (2, "第二名", "p4"),
        (3, "第三名", "p6"),
        (4, "第四名", "p1"),
    ]


def test_tier_prizes_rank_after_every_entry_of_the_better_tiers() -> None:
    # seed 003 §十 over seven pairs: one first prize, one second, two third
    awarded = tier_awards(knockout_results(), SEED_003_TIERS)
    assert [(a.rank, a.entry.entry_id) for a in awarded] == [(1, "p7"), (2, "p2"), (3, "p3"), (3, "p6")]


def test_top_n_needs_a_positive_count_and_tiers_must_be_given() -> None:
    (table,) = compute_standings(knockout_results(), scheme="placement", chain=[])
    with pytest.raises(InvalidInput):
        top_n_awards(table, n=0, prize="none")
    with pytest.raises(InvalidInput):
        tier_awards(knockout_results(), ())
