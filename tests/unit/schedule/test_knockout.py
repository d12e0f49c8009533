import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import Conflict, InvalidInput, RuleViolation
from domain.schedule.entrants import Entrant
from domain.schedule.knockout import (
    SEED_003_TIERS,
    SEED_004_TIERS,
    bracket_rounds,
    bracket_size,
    draw_bracket,
    placements,
    record_bracket,
    standard_order,
)


def test_standard_order_matches_the_usual_tables():
    assert standard_order(2) == (1, 2)
    assert standard_order(4) == (1, 4, 2, 3)
    assert standard_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert standard_order(16)[:4] == (1, 16, 8, 9)


def test_bracket_size_is_the_next_power_of_two():
    assert [bracket_size(n) for n in (2, 3, 5, 8, 9, 32, 33)] == [2, 4, 8, 8, 16, 32, 64]
    with pytest.raises(RuleViolation):
        bracket_size(1)


def test_byes_face_the_top_seeds():
    entrants = [Entrant(f"s{k}", seed=k) for k in range(1, 4)] + [Entrant(f"u{k}") for k in range(3)]
    slots = draw_bracket(entrants, "seed").slots
    # 6 entries in 8 slots: ranks 7 and 8 are byes, facing seeds 2 and 1
    assert slots[0:2] == ("s1", None)
    assert slots[4:6] == ("s2", None)
    assert slots[6] == "s3"


def play(slots, rng, *, rounds=None, third_place=False):
    winners = {}
    while True:
        bracket = bracket_rounds(slots, winners, rounds=rounds, third_place=third_place)
        open_ = [m for r in bracket for m in r.matches if m.winner is None and m.top and m.bottom]
        if not open_:
            return bracket
        for m in open_:
            winners[(m.round_no, m.match_no)] = rng.choice([m.top, m.bottom])


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 70), st.integers(0, 10**6), st.booleans())
def test_full_bracket_places_everyone_once_and_byes_only_in_round_one(n, seed, third):
    rng = random.Random(seed)
    entrants = [
        Entrant(f"e{k}", branch=f"b{rng.randrange(6)}", seed=k if k <= 4 else None) for k in range(1, n + 1)
    ]
    slots = draw_bracket(entrants, str(seed)).slots
    assert sorted(s for s in slots if s) == sorted(e.entry_id for e in entrants)
    third = third and n >= 4
    bracket = play(slots, rng, third_place=third)
    for r in bracket[1:]:
        assert not any(m.bye for m in r.matches if not m.third_place)
    for m in bracket[0].matches:
        assert m.top is not None or m.bottom is not None
    final = bracket[-1].matches[0]
    assert final.winner is not None
    # seeds 1 and 2 only meet in the final
    for r in bracket[:-1]:
        for m in r.matches:
            assert {m.top, m.bottom} != {"e1", "e2"}
    tiers = SEED_004_TIERS if third else ()
    result = placements(slots, bracket, tiers)
    everyone = [i for p in result for i in p.entry_ids]
    assert sorted(everyone) == sorted(e.entry_id for e in entrants)
    assert "undecided" not in [p.tier for p in result]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([8, 16, 32, 64]), st.integers(0, 10**6))
def test_branches_spread_over_quarters(n, seed):
    rng = random.Random(seed)
    branch = {f"e{k}": f"b{rng.randrange(n // 4)}" for k in range(n)}
    slots = draw_bracket([Entrant(i, branch=b) for i, b in branch.items()], str(seed)).slots
    totals = Counter(branch.values())
    width = n // 4
    for q in range(4):
        for b, count in Counter(branch[s] for s in slots[q * width : (q + 1) * width]).items():
            assert count <= math.ceil(totals[b] / 4)


def test_seed_003_prize_tiers_after_three_rounds_of_32():
    entrants = [Entrant(f"p{k:02d}") for k in range(32)]
    slots = draw_bracket(entrants, "2021").slots
    bracket = play(slots, random.Random(1), rounds=3)
    tiers = {p.tier: p.entry_ids for p in placements(slots, bracket, SEED_003_TIERS)}
    assert [len(tiers[t]) for t in ("first-prize", "second-prize", "third-prize", "lost-round-1")] == [
        4,
        4,
        8,
        16,
    ]
    assert set(tiers["first-prize"]) == {m.winner for m in bracket[2].matches}


def test_seed_004_places_one_to_four_with_a_third_place_match():
    slots = ("a", "b", "c", "d")
    winners = {(1, 1): "a", (1, 2): "d", (2, 1): "d", (2, 2): "b"}
    bracket = bracket_rounds(slots, winners, third_place=True)
    third = bracket[1].matches[1]
    assert (third.top, third.bottom, third.third_place) == ("b", "c", True)
    tiers = [(p.tier, p.entry_ids) for p in placements(slots, bracket, SEED_004_TIERS)]
    assert tiers == [("1", ("d",)), ("2", ("a",)), ("3", ("b",)), ("4", ("c",))]


def test_next_round_fills_as_results_arrive():
    slots = ("a", "b", "c", "d", "e", "f", "g", "h")
    bracket = bracket_rounds(slots, {(1, 1): "b", (1, 3): "e"})
    round2 = [(m.top, m.bottom) for m in bracket[1].matches]
    assert round2 == [("b", None), ("e", None)]
    assert bracket[2].matches[0].top is None


def test_results_that_do_not_fit_are_refused():
    slots = ("a", "b", "c", "d")
    with pytest.raises(Conflict):
        bracket_rounds(slots, {(1, 1): "c"})
    with pytest.raises(Conflict):
        bracket_rounds(slots, {(2, 1): "a"})
    with pytest.raises(InvalidInput):
        bracket_rounds(slots, {(3, 1): "a"})


def test_record_bracket_checks_a_physical_draw():
    entrants = [Entrant(x) for x in "abc"]
    assert record_bracket(entrants, ["a", None, "b", "c"]).slots == ("a", None, "b", "c")
    with pytest.raises(InvalidInput):
        record_bracket(entrants, ["a", "a", "b", "c"])
    with pytest.raises(RuleViolation):
        record_bracket([Entrant(x) for x in "abcde"], ["a", "b", None, None, "c", "d", "e", None])
