"""Level progression: worked examples from the seeds and laws of the promotion rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import Conflict, InvalidInput
from domain.rules.levels import DealResult, Side, parse_finish_order, promotion, replay
from domain.rules.ruleset import preset

TO_ACE = ["NSEW"] * 4  # NS double-down four times: 2 → 5 → 8 → 11 → A


def deals(*orders: str) -> list[DealResult]:
    return [DealResult(tuple(order)) for order in orders]


@pytest.mark.parametrize(
    ("order", "expected"),
    [("NSEW", 3), ("NESW", 2), ("NEWS", 1), ("EWNS", 3), ("WNES", 2), ("ESNW", 1)],
)
def test_promotion_counts_the_partner_place(order: str, expected: int) -> None:
    # seed 000 附件 六: 同伴二游升3级，同伴三游升2级，同伴下游升1级
    assert promotion(parse_finish_order(tuple(order))) == expected


def test_first_deal_is_played_at_two_without_a_declarer() -> None:
    game = replay(deals("NSEW"), preset("default"))
    first = game.deals[0]
    assert (first.declarer, first.level_played, first.winner) == (None, 2, Side.NS)
    assert (game.ns.level, game.ew.level, game.ns.reached_at, game.ew.reached_at) == (5, 2, 1, 0)
    assert (game.declarer, game.next_level) == (Side.NS, 5)


def test_next_deal_plays_the_declarers_level() -> None:
    game = replay(deals("NSEW", "EWNS", "WSEN"), preset("default"))
    assert [d.level_played for d in game.deals] == [2, 5, 5]
    assert [d.declarer for d in game.deals] == [None, Side.NS, Side.EW]
    # deal 3: W first, E third → EW +2 from 5
    assert (game.ns.level, game.ew.level) == (5, 7)


def test_levels_cap_at_ace() -> None:
    game = replay(deals("NSEW", "NSEW", "NSEW", "NSEW"), preset("default"))
    assert game.ns.level == 14
    assert game.passed_a is None
    assert game.ns.reached_at == 4


def test_passing_a_ends_the_game_and_a_further_deal_is_a_conflict() -> None:
    game = replay(deals(*TO_ACE, "NESW"), preset("default"))
    assert game.passed_a is Side.NS
    assert (game.over, game.passed_a_at) == (True, 5)
    assert game.prefix(4).passed_a_at is None
    assert game.ns.passed_a
    with pytest.raises(Conflict) as error:
        replay(deals(*TO_ACE, "NESW", "EWNS"), preset("default"))
    assert error.value.rule == "deal-after-game-over"
    assert error.value.field == "deals[5]"


def test_reaching_a_in_a_deal_played_at_the_opponents_level_does_not_pass() -> None:
    # NS at A loses its A deal; EW declares at 5; NS wins that deal double-down: still only at A.
    game = replay(deals(*TO_ACE, "EWNS", "NSEW"), preset("default"))
    assert game.passed_a is None
    assert [d.level_played for d in game.deals[4:]] == [14, 5]
    assert game.ns.a_failures == 1
    passed = replay(deals(*TO_ACE, "EWNS", "NSEW", "SNWE"), preset("default"))
    assert passed.passed_a is Side.NS


def test_first_with_partner_last_fails_a_and_keeps_the_stage() -> None:
    game = replay(deals(*TO_ACE, "NEWS"), preset("nsi-2023"))
    last = game.deals[-1]
    assert last.failed_a
    assert (game.ns.level, game.ns.a_failures, game.declarer) == (14, 1, Side.NS)


@pytest.mark.parametrize(
    ("name", "level", "failures"),
    [
        ("nsi-2023", 2, 0),  # seed 001 第四条: 总计三次A打不过去，退到2重打
        ("institute-2021", 2, 0),  # seed 003 §七.5: 三次打A不升级则当局一家回到打2
        ("hlju-2016", 2, 0),  # seed 004 §1: 三次打不过从头开始打2
        ("ahut-2017", 14, 3),  # seed 002 §二.5: A未打过不降级
        ("nuist-2023", 14, 3),  # seed 000 states no limit
    ],
)
def test_three_failed_deals_at_a(name: str, level: int, failures: int) -> None:
    game = replay(deals(*TO_ACE, "NEWS", "NEWS", "NEWS"), preset(name))
    assert (game.ns.level, game.ns.a_failures, game.passed_a) == (level, failures, None)
    assert game.ew.level == 2
    if level == 2:
        assert game.ns.reached_at == 7
        # back at 2 and on stage: the next deal is played at 2
        assert (game.declarer, game.next_level) == (Side.NS, 2)


def test_two_failures_then_a_pass_under_a_limit_of_three() -> None:
    game = replay(deals(*TO_ACE, "NEWS", "ENWS", "NSEW", "NWSE"), preset("nsi-2023"))
    assert game.passed_a is Side.NS
    assert game.ns.a_failures == 2


def test_seed_004_reads_no_last_on_the_side_literally() -> None:
    # E first, N second, S third, W last: NS, declaring at A, has no last finisher.
    literal = replay(deals(*TO_ACE, "ENSW"), preset("hlju-2016"))
    assert literal.passed_a is Side.NS
    usual = replay(deals(*TO_ACE, "ENSW"), preset("nsi-2023"))
    assert usual.passed_a is None
    assert (usual.ns.a_failures, usual.ew.level, usual.declarer) == (1, 3, Side.EW)


def test_missed_card_report_costs_a_level() -> None:
    # seed 002 §二.4: 手中牌剩余7张时应主动报牌，否则扣一级
    penalised = [DealResult(tuple("NSEW")), DealResult(tuple("EWNS"), level_adjustments={"NS": -1})]
    game = replay(penalised, preset("ahut-2017"))
    assert (game.ns.level, game.ew.level, game.ns.reached_at) == (4, 5, 2)


def test_adjustments_stay_between_two_and_ace() -> None:
    game = replay([DealResult(tuple("NSEW"), level_adjustments={"EW": -1, "NS": 20})], preset("default"))
    assert (game.ns.level, game.ew.level) == (14, 2)


def test_seats_may_be_given_in_chinese_or_lower_case() -> None:
    game = replay([DealResult(("东", "西", "北", "南")), DealResult(("n", "s", "e", "w"))], preset("default"))
    assert (game.ns.level, game.ew.level, game.declarer) == (5, 5, Side.NS)


@pytest.mark.parametrize(
    "order", [("N", "S", "E"), ("N", "N", "E", "W"), ("N", "S", "E", "X"), ("N", "S", "E", "W", "N")]
)
def test_finish_order_must_name_the_four_seats(order: tuple[str, ...]) -> None:
    with pytest.raises(InvalidInput) as error:
        replay([DealResult(tuple("NSEW")), DealResult(order)], preset("default"))
    assert error.value.field == "deals[1].finish_order"
    assert error.value.rule == "finish-order-seats"


def test_level_adjustments_must_name_a_side() -> None:
    with pytest.raises(InvalidInput) as error:
        replay([DealResult(tuple("NSEW"), level_adjustments={"N": -1})], preset("default"))
    assert error.value.field == "deals[0].level_adjustments"


def test_prefix_is_the_game_as_it_stood() -> None:
    game = replay(deals("NSEW", "EWNS", "WSEN"), preset("default"))
    before = game.prefix(2)
    assert (before.ns.level, before.ew.level, before.declarer, len(before.deals)) == (5, 5, Side.EW, 2)
    start = game.prefix(0)
    assert (start.ns.level, start.ew.level, start.declarer) == (2, 2, None)


SEAT_PERMUTATIONS = st.permutations(list("NESW"))
SIDE = {"N": Side.NS, "S": Side.NS, "E": Side.EW, "W": Side.EW}


@settings(max_examples=150, deadline=None)
@given(st.lists(SEAT_PERMUTATIONS, max_size=40))
def test_without_demotion_a_level_is_two_plus_its_promotions_capped(orders: list[list[str]]) -> None:
    rules = preset("ahut-2017")  # no demotion: levels only go up
    climbed = {Side.NS: 0, Side.EW: 0}
    posted: list[DealResult] = []
    game = replay([], rules)
    for order in orders:
        game = replay([*posted, DealResult(tuple(order))], rules)
        posted.append(DealResult(tuple(order)))
        partner_place = [SIDE[seat] for seat in order].index(SIDE[order[0]], 1)
        climbed[SIDE[order[0]]] += 4 - partner_place
        assert game.deals[-1].declarer == (SIDE[posted[-2].finish_order[0]] if len(posted) > 1 else None)
        if game.over:
            break
    assert game.ns.level == min(14, 2 + climbed[Side.NS])
    assert game.ew.level == min(14, 2 + climbed[Side.EW])


@settings(max_examples=150, deadline=None)
@given(st.lists(SEAT_PERMUTATIONS, max_size=60), st.sampled_from(["nsi-2023", "hlju-2016", "nuist-2023"]))
def test_levels_stay_in_range_and_only_a_deal_at_a_passes(orders: list[list[str]], name: str) -> None:
    rules = preset(name)
    posted: list[DealResult] = []
    for order in orders:
        posted.append(DealResult(tuple(order)))
        game = replay(posted, rules)
        for record in game.deals:
            assert 2 <= record.ns.level <= 14
            assert 2 <= record.ew.level <= 14
            assert record.ns.a_failures < 3 or rules.a_attempts_limit is None
        if game.over:
            assert game.deals[-1].level_played == 14
            assert game.deals[-1].declarer is game.passed_a
            break
