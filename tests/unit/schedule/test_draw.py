import hashlib
import hmac
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.draw import (
    DrawStream,
    commitment,
    draw_groups,
    draw_order,
    new_seed,
    record_groups,
    verify_commitment,
)
from domain.schedule.entrants import Entrant, Group


def reference_order(seed: str, ids: list[str]) -> list[str]:
    """The module's documented algorithm, written again from its text."""
    message = "\n".join(sorted(ids)).encode()
    stream = b"".join(
        hmac.new(seed.encode(), message + b"\n" + c.to_bytes(8, "big"), hashlib.sha256).digest()
        for c in range(64)
    )
    pos = 0
    out = sorted(ids)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            u = int.from_bytes(stream[pos : pos + 8], "big")
            pos += 8
            if u < 2**64 - 2**64 % n:
                break
        j = u % n
        out[i], out[j] = out[j], out[i]
    return out


def test_commitment_is_sha256_of_the_seed():
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert verify_commitment("abc", commitment("abc").upper())
    assert not verify_commitment("abd", commitment("abc"))


def test_new_seeds_are_long_and_fresh():
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(s) == 64 for s in seeds)


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=20), st.sets(st.text("abcxyz0123", min_size=1, max_size=5), max_size=25))
def test_draw_order_follows_the_published_algorithm(seed, ids):
    entrants = [Entrant(i) for i in sorted(ids, reverse=True)]
    assert list(draw_order(entrants, seed)) == reference_order(seed, list(ids))


def test_order_depends_only_on_seed_and_ids_not_input_order():
    a = [Entrant(f"e{i}") for i in range(10)]
    assert draw_order(a, "s") == draw_order(list(reversed(a)), "s")
    assert draw_order(a, "s") != draw_order(a, "t")


def test_shuffle_is_roughly_uniform():
    counts = Counter(tuple(DrawStream(f"seed-{k}", ["x"]).shuffle("abc")) for k in range(3000))
    assert len(counts) == 6
    assert all(400 < n < 600 for n in counts.values())


def test_below_rejects_an_empty_range():
    with pytest.raises(InvalidInput):
        DrawStream("s", []).below(0)


branches = st.lists(st.sampled_from([None, "b1", "b2", "b3", "b4", "b5"]), min_size=2, max_size=40)


@settings(max_examples=60, deadline=None)
@given(branches, st.integers(2, 5), st.text(min_size=1, max_size=8))
def test_groups_are_balanced_and_keep_branches_apart(branch_list, n_groups, seed):
    if len(branch_list) < n_groups:
        return
    entrants = [Entrant(f"e{i}", branch=b) for i, b in enumerate(branch_list)]
    names = [chr(ord("A") + k) for k in range(n_groups)]
    draw = draw_groups(entrants, seed, group_names=names)
    members = [i for g in draw.groups for i in g.entry_ids]
    assert sorted(members) == sorted(e.entry_id for e in entrants)
    sizes = [len(g.entry_ids) for g in draw.groups]
    assert max(sizes) - min(sizes) <= 1
    branch_of = {e.entry_id: e.branch for e in entrants}
    totals = Counter(b for b in branch_list if b)
    for g in draw.groups:
        for b, n in Counter(branch_of[i] for i in g.entry_ids if branch_of[i]).items():
            assert n <= math.ceil(totals[b] / n_groups)


def test_group_draw_reports_forced_shared_branches():
    entrants = [Entrant(f"e{i}", branch="same") for i in range(3)]
    draw = draw_groups(entrants, "seed")
    assert len(draw.same_branch) == 1
    assert len(draw.same_branch[0].entry_ids) == 2


def test_record_groups_accepts_a_valid_physical_draw():
    entrants = [Entrant(f"e{i}") for i in range(5)]
    draw = record_groups(entrants, [Group("B", ("e0", "e1")), Group("A", ("e2", "e3", "e4"))])
    assert [g.name for g in draw.groups] == ["A", "B"]


@pytest.mark.parametrize(
    ("groups", "error", "rule"),
    [
        ([Group("A", ("e0", "e1")), Group("B", ("e2",))], InvalidInput, "draw-coverage"),
        ([Group("A", ("e0", "e1", "e1")), Group("B", ("e2", "e3"))], InvalidInput, "draw-coverage"),
        ([Group("A", ("e0", "e9")), Group("B", ("e2", "e3", "e1"))], InvalidInput, "draw-coverage"),
        ([Group("A", ("e0",)), Group("B", ("e1", "e2", "e3"))], RuleViolation, "draw-groups-unbalanced"),
        ([Group("A", ("e0", "e1")), Group("C", ("e2", "e3"))], InvalidInput, "draw-group-names"),
    ],
)
def test_record_groups_refuses_bad_draws(groups, error, rule):
    entrants = [Entrant(f"e{i}") for i in range(4)]
    with pytest.raises(error) as caught:
        record_groups(entrants, groups)
    assert caught.value.rule == rule


def test_duplicate_entry_ids_are_refused():
    with pytest.raises(InvalidInput) as caught:
        draw_order([Entrant("a"), Entrant("a")], "s")
    assert caught.value.rule == "duplicate-entry"


def test_tie_lots_are_a_reproducible_permutation_apart_from_the_draw_order() -> None:
    from domain.schedule.draw import lot_numbers

    ids = [str(n) for n in range(1, 17)]
    seed = "a3" * 32
    lots = lot_numbers(ids, seed)
    assert sorted(lots.values()) == list(range(1, 17))
    assert lot_numbers(list(reversed(ids)), seed) == lots  # only the seed and the set of entries count
    assert lot_numbers(ids, "b4" * 32) != lots
    drawn = draw_order([Entrant(entry_id=i) for i in ids], seed)
    assert [entry for entry, _ in sorted(lots.items(), key=lambda item: item[1])] != list(drawn)
