from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.entrants import Group
from domain.schedule.roundrobin import berger_pairings, final_group, round_robin


def test_fide_berger_tables_for_eight():
    tables = berger_pairings(8)
    assert tables[0] == ((1, 8), (2, 7), (3, 6), (4, 5))
    assert tables[1] == ((8, 5), (6, 4), (7, 3), (1, 2))
    assert tables[2] == ((2, 8), (3, 1), (4, 7), (5, 6))
    assert tables[6] == ((4, 8), (5, 3), (6, 2), (7, 1))


def test_odd_group_gives_the_bye_to_whoever_meets_the_phantom():
    schedule = round_robin(Group("1", ("a", "b", "c")))
    assert [r.bye for r in schedule.rounds] == ["a", "c", "b"]
    assert [(m.first, m.second) for r in schedule.rounds for m in r.matches] == [
        ("b", "c"),
        ("a", "b"),
        ("c", "a"),
    ]


def test_first_move_alternates_within_a_best_of_three():
    match = round_robin(Group("1", ("a", "b")), games=3).rounds[0].matches[0]
    assert (match.first, match.first_movers) == ("a", ("a", "b", "a"))


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 21))
def test_every_pair_meets_exactly_once_and_nobody_plays_twice_a_round(n):
    members = tuple(f"p{k}" for k in range(n))
    schedule = round_robin(Group("g", members))
    meetings = Counter()
    for r in schedule.rounds:
        playing = [e for m in r.matches for e in (m.first, m.second)]
        assert len(playing) == len(set(playing))
        assert (r.bye is not None) == (n % 2 == 1)
        meetings.update(frozenset((m.first, m.second)) for m in r.matches)
    assert set(meetings) == {frozenset(p) for p in combinations(members, 2)}
    assert set(meetings.values()) == {1}


def test_final_takes_the_top_two_of_each_group_by_lot():
    groups = [Group("1", ("a", "b", "c")), Group("2", ("d", "e", "f", "g"))]
    final = final_group(groups, "seed")
    assert sorted(final.entry_ids) == ["a", "b", "d", "e"]
    assert final == final_group(groups, "seed")


def test_invalid_settings_are_refused():
    with pytest.raises(RuleViolation):
        final_group([Group("1", ("a",))], "seed")
    with pytest.raises(InvalidInput):
        round_robin(Group("1", ("a", "b")), games=2)
    with pytest.raises(RuleViolation):
        round_robin(Group("1", ("a",)))
