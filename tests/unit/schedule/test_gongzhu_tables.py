import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.entrants import Entrant
from domain.schedule.gongzhu_tables import advancing, draw_tables, next_round


def departments(n, per_department=2):
    return [Entrant(f"p{k:03d}", branch=f"d{k // per_department}") for k in range(n)]


def test_sixteen_players_two_per_department_never_share_a_table():
    first = draw_tables(departments(16), "2016")
    assert len(first.tables) == 4
    assert first.byes == ()
    assert first.same_branch == ()
    assert all([s.seat for s in t.seats] == ["N", "E", "S", "W"] for t in first.tables)


def test_five_players_one_table_one_bye_and_the_third_completes_the_final():
    first = draw_tables(departments(5), "s")
    assert len(first.tables) == 1
    assert len(first.byes) == 1
    table = first.tables[0]
    ranks = {1: list(table.players)}
    through = advancing(first, ranks)
    assert set(through) == {*first.byes, *table.players[:3]}
    final = next_round(departments(5), first, ranks, "t")
    assert final.final
    assert final.byes == ()


def test_ranks_must_name_the_table_players():
    first = draw_tables(departments(8), "s")
    with pytest.raises(InvalidInput):
        advancing(first, {1: ["x", "y", "z", "w"], 2: list(first.tables[1].players)})


def test_too_few_players_for_a_table():
    with pytest.raises(RuleViolation):
        draw_tables(departments(3), "s")


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 90), st.integers(0, 10**6))
def test_event_runs_down_to_one_final_table(n, seed):
    rng = random.Random(seed)
    players = departments(n, per_department=rng.choice([1, 2, 3]))
    current = draw_tables(players, f"r1-{seed}")
    in_play = {e.entry_id for e in players}
    had_bye: set[str] = set()
    for _ in range(20):
        seated = [p for t in current.tables for p in t.players] + list(current.byes)
        assert sorted(seated) == sorted(in_play)
        assert len(current.byes) == len(in_play) % 4
        # a second bye only when every player at a table has had one
        if set(current.byes) & had_bye:
            assert all(p in had_bye for t in current.tables for p in t.players)
        if current.final:
            assert len(current.tables) == 1
            return
        ranks = {t.table_no: rng.sample(list(t.players), 4) for t in current.tables}
        expected = set(current.byes) | {ranks[t][k] for t in ranks for k in range(2)}
        if len(expected) < 4:
            expected.add(ranks[1][2])
        had_bye |= set(current.byes)
        current = next_round(
            players, current, ranks, f"r{current.round_no + 1}-{seed}", had_bye=frozenset(had_bye)
        )
        in_play = expected
    pytest.fail("no final table after 20 rounds")


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(0, 10**6))
def test_departments_spread_over_tables(tables, seed):
    rng = random.Random(seed)
    players = [Entrant(f"p{k}", branch=f"d{rng.randrange(tables + 2)}") for k in range(4 * tables)]
    result = draw_tables(players, str(seed))
    totals = Counter(e.branch for e in players)
    for t in result.tables:
        for d, count in Counter(e.branch for e in players if e.entry_id in t.players).items():
            assert count <= -(-totals[d] // tables)
