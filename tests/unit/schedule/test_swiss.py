import random
from functools import cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.schedule.entrants import Entrant
from domain.schedule.swiss import SwissStanding, check_rounds, pair_first_round, pair_round


def standing(entry_id, wins, points, opponents=(), *, branch=None, had_bye=False):
    return SwissStanding(entry_id, wins, points, frozenset(opponents), had_bye, branch)


def test_top_pair_that_already_met_is_split_across_the_cheapest_pairing():
    # places A1 B2 C3 D4; A and B met: A–C + B–D costs 2² + 2² = 8, A–D + B–C costs 9 + 1 = 10
    field = [
        standing("A", 2, 30, ["B"]),
        standing("B", 2, 20, ["A"]),
        standing("C", 1, 25),
        standing("D", 0, 10),
    ]
    result = pair_round(field, round_no=2)
    assert [(t.ew_entry, t.ns_entry) for t in result.tables] == [("A", "C"), ("B", "D")]
    assert result.report.total_cost == 8
    assert result.report.rematches_avoided == 1
    assert result.bye is None


def test_first_named_sits_east_west_and_players_fill_the_seats():
    field = [standing("X", 1, 10), standing("Y", 0, 5)]
    table = pair_round(field, round_no=2, players={"X": ("x1", "x2"), "Y": ("y1", "y2")}).tables[0]
    assert (table.ew_entry, table.ns_entry) == ("X", "Y")
    assert [(s.seat, s.player_id) for s in table.seats] == [
        ("N", "y1"),
        ("E", "x1"),
        ("S", "y2"),
        ("W", "x2"),
    ]


def test_same_branch_is_avoided_even_at_a_standing_cost():
    field = [
        standing("A", 3, 0, branch="art"),
        standing("B", 2, 0, branch="art"),
        standing("C", 1, 0),
        standing("D", 0, 0),
    ]
    result = pair_round(field, round_no=2)
    assert {(t.ew_entry, t.ns_entry) for t in result.tables} == {("A", "C"), ("B", "D")}
    assert result.report.same_branch == ()


def test_unavoidable_same_branch_meeting_is_reported():
    field = [
        standing("A", 1, 0, ["C", "D"], branch="art"),
        standing("B", 1, 0, branch="art"),
        standing("C", 0, 0, ["A"]),
        standing("D", 0, 0, ["A"]),
    ]
    # A has met C and D: A–B (same branch) + C–D is the only pairing
    result = pair_round(field, round_no=2)
    assert result.report.same_branch == (("A", "B"),)


def test_bye_goes_to_the_lowest_entry_without_one():
    field = [standing("A", 2, 0), standing("B", 1, 0), standing("C", 0, 0, had_bye=True)]
    result = pair_round(field, round_no=2)
    assert result.bye == "B"
    assert [(t.ew_entry, t.ns_entry) for t in result.tables] == [("A", "C")]


def test_bye_skips_an_entry_whose_bye_would_force_a_rematch():
    # a bye for C would leave A–B, who have met
    field = [standing("A", 2, 0, ["B"]), standing("B", 1, 0, ["A"]), standing("C", 0, 0)]
    assert pair_round(field, round_no=2).bye == "B"


@pytest.mark.parametrize(("n", "rounds"), [(6, 3), (7, 4), (2, 1), (40, 20)])
def test_check_rounds_accepts_safe_counts(n, rounds):
    check_rounds(n, rounds)


@pytest.mark.parametrize(("n", "rounds"), [(6, 4), (7, 5), (1, 1), (10, 0), (40, 21)])
def test_check_rounds_refuses_counts_that_can_stall(n, rounds):
    with pytest.raises(RuleViolation) as caught:
        check_rounds(n, rounds)
    assert "rounds" in caught.value.detail or "entries" in caught.value.detail


def test_first_round_is_reproducible_and_keeps_branches_apart():
    entrants = [Entrant(f"p{i}", branch=f"b{i % 4}") for i in range(8)]
    first = pair_first_round(entrants, "seed-1")
    assert first == pair_first_round(list(reversed(entrants)), "seed-1")
    assert first.report.same_branch == ()
    assert sorted(i for t in first.tables for i in (t.ew_entry, t.ns_entry)) == sorted(
        e.entry_id for e in entrants
    )


def simulate(n, rounds, seed):
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i:02d}", branch=f"b{rng.randrange(max(1, n // 3))}") for i in range(n)]
    state = {e.entry_id: {"wins": 0, "points": 0, "opponents": set(), "bye": False} for e in entrants}
    branch = {e.entry_id: e.branch for e in entrants}
    history = []
    for round_no in range(1, rounds + 1):
        if round_no == 1:
            result = pair_first_round(entrants, f"s{seed}")
        else:
            field = [
                SwissStanding(k, v["wins"], v["points"], frozenset(v["opponents"]), v["bye"], branch[k])
                for k, v in state.items()
            ]
            result = pair_round(field, round_no=round_no)
        history.append(result)
        for t in result.tables:
            a, b = t.ew_entry, t.ns_entry
            assert b not in state[a]["opponents"]
            state[a]["opponents"].add(b)
            state[b]["opponents"].add(a)
            state[rng.choice([a, b])]["wins"] += 1
            state[a]["points"] += rng.randint(2, 15)
            state[b]["points"] += rng.randint(2, 15)
        if result.bye:
            assert not state[result.bye]["bye"]
            state[result.bye]["bye"] = True
            state[result.bye]["wins"] += 1
    return entrants, history


@settings(max_examples=15, deadline=None)
@given(st.integers(16, 40), st.integers(0, 10**6))
def test_eight_rounds_without_rematch_everyone_plays_once(n, seed):
    entrants, history = simulate(n, 8, seed)
    for result in history:
        seated = [i for t in result.tables for i in (t.ew_entry, t.ns_entry)]
        if result.bye:
            seated.append(result.bye)
        assert sorted(seated) == sorted(e.entry_id for e in entrants)
        assert (result.bye is None) == (n % 2 == 0)


def brute_force(order, opponents, branch):
    """Exhaustive minimum of (same-branch meetings, Σ place distance²) over perfect pairings."""

    @cache
    def best(rest):
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        options = []
        for k, other in enumerate(others):
            if order[other] in opponents[order[first]]:
                continue
            sub = best(others[:k] + others[k + 1 :])
            if sub is not None:
                same = int(branch[order[first]] is not None and branch[order[first]] == branch[order[other]])
                options.append((sub[0] + same, sub[1] + (other - first) ** 2))
        return min(options, default=None)

    return best(tuple(range(len(order))))


def random_field(rng, n):
    ids = [f"e{i}" for i in range(n)]
    opponents = {i: set() for i in ids}
    # opponents mostly near in the standing, as in a real Swiss, plus a few far ones
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < (0.45 if b - a <= 3 else 0.05):
                opponents[ids[a]].add(ids[b])
                opponents[ids[b]].add(ids[a])
    branch = {i: rng.choice([None, "x", "y", "z", "w"]) for i in ids}
    field = [standing(i, n - k, 0, opponents[i], branch=branch[i]) for k, i in enumerate(ids)]
    return ids, opponents, branch, field


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(0, 10**6))
def test_pairing_equals_the_exhaustive_optimum_on_small_fields(half, seed):
    ids, opponents, branch, field = random_field(random.Random(seed), 2 * half)
    expected = brute_force(ids, opponents, branch)
    if expected is None:
        with pytest.raises(RuleViolation):
            pair_round(field, round_no=3)
        return
    result = pair_round(field, round_no=3)
    assert (len(result.report.same_branch), result.report.total_cost) == expected


def unrestricted(ids, opponents, branch):
    """Minimum-cost perfect matching over every non-rematch pair (no window, no split)."""
    n = len(ids)
    penalty = 10**9
    graph = nx.Graph()
    for a in range(n):
        for b in range(a + 1, n):
            if ids[b] not in opponents[ids[a]]:
                same = branch[ids[a]] is not None and branch[ids[a]] == branch[ids[b]]
                graph.add_edge(a, b, weight=-((b - a) ** 2 + (penalty if same else 0)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < n:
        return None
    total = -sum(graph[a][b]["weight"] for a, b in matching)
    return divmod(total, penalty)


@settings(max_examples=25, deadline=None)
@given(st.integers(10, 40), st.integers(0, 10**6))
def test_pairing_equals_the_unrestricted_optimum_on_medium_fields(half, seed):
    ids, opponents, branch, field = random_field(random.Random(seed), 2 * half)
    expected = unrestricted(ids, opponents, branch)
    if expected is None:
        with pytest.raises(RuleViolation):
            pair_round(field, round_no=3)
        return
    result = pair_round(field, round_no=3)
    assert (len(result.report.same_branch), result.report.total_cost) == expected
