import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.rotation import rotation_schedule

A = ["A1", "A2", "A3", "A4"]
B = ["B1", "B2", "B3", "B4"]


def opponents_of(schedule, team):
    out = []
    for rnd in schedule.rounds:
        for m in rnd.matches:
            if team in (m.ns_entry, m.ew_entry):
                out.append(m.ew_entry if m.ns_entry == team else m.ns_entry)
    return out


def test_seed_000_four_rounds_by_hand():
    schedule = rotation_schedule(A, B, rounds=4)
    # round 1 A_i–B_i; round 2 B one block on; round 3 A one block back; round 4 B on again
    assert opponents_of(schedule, "A1") == ["B1", "B4", "B3", "B2"]
    assert opponents_of(schedule, "A3") == ["B3", "B2", "B1", "B4"]
    round2 = {m.block: (m.ns_entry, m.ew_entry) for m in schedule.rounds[1].matches}
    assert round2 == {1: ("A1", "B4"), 2: ("A2", "B1"), 3: ("A3", "B2"), 4: ("A4", "B3")}
    # round 3: B stays, A moves one block back: A1 leaves block 1 for block 4
    round3 = {m.block: (m.ns_entry, m.ew_entry) for m in schedule.rounds[2].matches}
    assert round3 == {4: ("A1", "B3"), 1: ("A2", "B4"), 2: ("A3", "B1"), 3: ("A4", "B2")}


def test_tables_are_numbered_by_block_and_pair():
    schedule = rotation_schedule(A, B, rounds=1)
    block2 = next(m for m in schedule.rounds[0].matches if m.block == 2)
    assert [t.table_no for t in block2.tables] == [6, 7, 8, 9, 10]
    assert [t.pair_no for t in block2.tables] == [1, 2, 3, 4, 5]


def test_lineup_fills_seats_a_north_south_b_east_west():
    lineups = {
        (1, "A1"): {k: (f"a{k}n", f"a{k}s") for k in range(1, 6)},
        (1, "B1"): {k: (f"b{k}e", f"b{k}w") for k in range(1, 6)},
    }
    schedule = rotation_schedule(A, B, rounds=1, lineups=lineups)
    table = schedule.rounds[0].matches[0].tables[2]
    assert [(s.seat, s.entry_id, s.pair_no, s.player_id) for s in table.seats] == [
        ("N", "A1", 3, "a3n"),
        ("E", "B1", 3, "b3e"),
        ("S", "A1", 3, "a3s"),
        ("W", "B1", 3, "b3w"),
    ]
    other = schedule.rounds[0].matches[1].tables[0]
    assert [s.player_id for s in other.seats] == [None] * 4


def test_more_rounds_than_blocks_is_a_rematch():
    with pytest.raises(RuleViolation) as caught:
        rotation_schedule(A, B, rounds=5)
    assert caught.value.rule == "rotation-rematch"
    assert "5 rounds with 4 blocks" in caught.value.detail


def test_bad_lineup_is_refused():
    with pytest.raises(InvalidInput):
        rotation_schedule(
            A, B, rounds=1, lineups={(1, "A1"): {1: ("x", "y"), 2: ("x", "z")}}, pairs_per_team=2
        )


def test_odd_count_gives_one_bye_a_round_to_different_teams():
    schedule = rotation_schedule(["A1", "A2", "A3"], ["B1", "B2"], rounds=3)
    byes = [r.bye for r in schedule.rounds]
    assert None not in byes
    assert len(set(byes)) == 3
    assert all(len(r.matches) == 2 for r in schedule.rounds)


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 81), st.data())
def test_no_team_meets_another_twice(n_teams, data):
    size_a = (n_teams + 1) // 2
    group_a = [f"A{i}" for i in range(size_a)]
    group_b = [f"B{i}" for i in range(n_teams - size_a)]
    blocks = max(len(group_a), len(group_b))
    rounds = data.draw(st.integers(1, blocks))
    schedule = rotation_schedule(group_a, group_b, rounds=rounds, pairs_per_team=3)
    met = set()
    for rnd in schedule.rounds:
        playing = [t for m in rnd.matches for t in (m.ns_entry, m.ew_entry)]
        if rnd.bye:
            playing.append(rnd.bye)
        assert sorted(playing) == sorted(group_a + group_b)
        tables = [t.table_no for m in rnd.matches for t in m.tables]
        assert len(set(tables)) == len(tables)
        assert all(1 <= t <= blocks * 3 for t in tables)
        for m in rnd.matches:
            assert m.ns_entry in group_a
            meeting = frozenset((m.ns_entry, m.ew_entry))
            assert meeting not in met
            met.add(meeting)
    byes = [r.bye for r in schedule.rounds if r.bye]
    assert len(byes) == len(set(byes))
