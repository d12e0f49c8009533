from __future__ import annotations

import pytest

from domain.errors import Conflict, InvalidInput, RuleViolation
from domain.rules.cards import Card, parse_card, parse_cards
from domain.rules.levels import Seat
from domain.rules.tribute import (
    Transfer,
    TributeRules,
    next_seat,
    partner,
    previous_seat,
    settle_tribute,
    tribute_payers,
    tribute_refused,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
SINGLE_LOSS = (N, E, S, W)  # N first, partner S third: W pays N
DOUBLE_DOWN = (N, S, E, W)  # N and S first and second: E and W both pay


def cards(**by_seat: str) -> dict[Seat, Card]:
    return {Seat(seat): parse_card(text) for seat, text in by_seat.items()}


def test_seats_counterclockwise() -> None:
    assert [next_seat(seat) for seat in (N, W, S, E)] == [W, S, E, N]
    assert [previous_seat(seat) for seat in (N, W, S, E)] == [E, N, W, S]
    assert partner(N) == S
    assert partner(E) == W


def test_payers() -> None:
    assert tribute_payers(SINGLE_LOSS) == (W,)
    assert tribute_payers((N, E, W, S)) == (S,)  # partner last: still one payer, the last
    assert tribute_payers(DOUBLE_DOWN) == (E, W)


def test_single_loss_last_pays_first_and_leads() -> None:
    outcome = settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SA"), returned=cards(N="D9"), big_jokers={})
    assert not outcome.refused
    assert outcome.tributes == (Transfer(W, N, parse_card("SA")),)
    assert outcome.returns == (Transfer(N, W, parse_card("D9")),)
    assert outcome.leader == W


def test_return_limit_is_ten_by_default() -> None:
    settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SA"), returned=cards(N="ST"), big_jokers={})
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SA"), returned=cards(N="SJ"), big_jokers={})
    assert error.value.rule == "tribute-return-too-high"
    assert error.value.field == "returned.N"
    assert "10" in error.value.detail
    assert "SJ" in error.value.detail
    with pytest.raises(RuleViolation):
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SA"), returned=cards(N="SB"), big_jokers={})


def test_seed_003_return_excludes_level_card_and_ace() -> None:
    rules = TributeRules(return_excludes_level_and_ace=True)
    settle_tribute(
        SINGLE_LOSS, level=5, paid=cards(W="SK"), returned=cards(N="S6"), big_jokers={}, rules=rules
    )
    with pytest.raises(RuleViolation) as error:
        settle_tribute(
            SINGLE_LOSS, level=5, paid=cards(W="SK"), returned=cards(N="D5"), big_jokers={}, rules=rules
        )
    assert error.value.rule == "tribute-return-level-or-ace"
    # without the seed 003 option a level card of 10 or lower may be returned
    settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SK"), returned=cards(N="D5"), big_jokers={})


def test_seed_004_returns_any_card() -> None:
    rules = TributeRules(return_max_rank=None)
    outcome = settle_tribute(
        SINGLE_LOSS, level=5, paid=cards(W="SB"), returned=cards(N="HR"), big_jokers={}, rules=rules
    )
    assert outcome.returns[0].card == parse_card("HR")


def test_heart_level_card_is_never_tribute() -> None:
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="H5"), returned=cards(N="S3"), big_jokers={})
    assert error.value.rule == "tribute-heart-level-card"
    assert error.value.field == "paid.W"
    # a level card of another suit is fine
    settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="S5"), returned=cards(N="S3"), big_jokers={})


def test_tribute_must_be_the_highest_card_of_the_hand() -> None:
    hand = parse_cards(["H5", "H5", "S5", "SA", "S3"])  # level 5: hearts 5 are wildcards
    outcome = settle_tribute(
        SINGLE_LOSS, level=5, paid=cards(W="S5"), returned=cards(N="S3"), hands={W: hand}
    )
    assert outcome.leader == W
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SA"), returned=cards(N="S3"), hands={W: hand})
    assert error.value.rule == "tribute-not-highest"
    assert "S5" in error.value.detail
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SK"), returned=cards(N="S3"), hands={W: hand})
    assert error.value.rule == "tribute-card-not-in-hand"


def test_a_payer_with_one_big_joker_pays_it() -> None:
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SB"), returned=cards(N="S3"), big_jokers={W: 1})
    assert error.value.rule == "tribute-not-highest"
    settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="HR"), returned=cards(N="S3"), big_jokers={W: 1})


def test_double_down_higher_tribute_to_first_and_larger_payer_leads() -> None:
    outcome = settle_tribute(
        DOUBLE_DOWN,
        level=5,
        paid=cards(E="SK", W="S5"),  # the level card 5 outranks K
        returned=cards(N="S2", S="S3"),
        big_jokers={},
    )
    assert set(outcome.tributes) == {Transfer(W, N, parse_card("S5")), Transfer(E, S, parse_card("SK"))}
    assert set(outcome.returns) == {Transfer(N, W, parse_card("S2")), Transfer(S, E, parse_card("S3"))}
    assert outcome.leader == W


def test_double_down_equal_tributes_go_to_the_left() -> None:
    # 贡左还右: N first; its 下家 W pays N, E pays its 上家 S; W (who paid the first) leads
    outcome = settle_tribute(
        DOUBLE_DOWN, level=5, paid=cards(E="DA", W="SA"), returned=cards(N="S2", S="S3"), big_jokers={}
    )
    assert set(outcome.tributes) == {Transfer(W, N, parse_card("SA")), Transfer(E, S, parse_card("DA"))}
    assert set(outcome.returns) == {Transfer(N, W, parse_card("S2")), Transfer(S, E, parse_card("S3"))}
    assert outcome.leader == W
    # E first: its 下家 N pays E
    outcome = settle_tribute(
        (E, W, S, N), level=5, paid=cards(S="SB", N="SB"), returned=cards(E="S2", W="S3"), big_jokers={}
    )
    assert Transfer(N, E, parse_card("SB")) in outcome.tributes
    assert outcome.leader == N


def test_seed_004_last_leads_after_double_down() -> None:
    rules = TributeRules(return_max_rank=None, double_down_last_leads=True)
    outcome = settle_tribute(
        DOUBLE_DOWN,
        level=5,
        paid=cards(E="SK", W="S4"),
        returned=cards(N="S2", S="S3"),
        big_jokers={},
        rules=rules,
    )
    assert outcome.leader == W
    assert Transfer(E, N, parse_card("SK")) in outcome.tributes


@pytest.mark.parametrize(
    ("order", "big_jokers"),
    [(SINGLE_LOSS, {W: 2}), (DOUBLE_DOWN, {E: 1, W: 1}), (DOUBLE_DOWN, {W: 2})],
)
def test_two_big_jokers_refuse_the_tribute(order: tuple[Seat, ...], big_jokers: dict[Seat, int]) -> None:
    assert tribute_refused(order, big_jokers=big_jokers)
    outcome = settle_tribute(order, level=5, paid={}, returned={}, big_jokers=big_jokers)
    assert outcome.refused
    assert outcome.tributes == outcome.returns == ()
    assert outcome.leader == N
    with pytest.raises(RuleViolation) as error:
        settle_tribute(order, level=5, paid=cards(W="HR"), returned={}, big_jokers=big_jokers)
    assert error.value.rule == "tribute-refused"


def test_one_big_joker_each_refuses_only_after_double_down() -> None:
    # the first's partner holding a big joker does not count: only the paying side's
    assert not tribute_refused(SINGLE_LOSS, big_jokers={W: 1, S: 1})
    assert tribute_refused(DOUBLE_DOWN, big_jokers={E: 1, W: 1})


def test_refusal_read_from_hands() -> None:
    hand = parse_cards(["HR", "HR", "S3"])
    assert settle_tribute(SINGLE_LOSS, level=5, paid={}, returned={}, hands={W: hand}).refused
    with pytest.raises(Conflict) as conflict:
        settle_tribute(SINGLE_LOSS, level=5, paid={}, returned={}, hands={W: hand}, big_jokers={W: 1})
    assert conflict.value.rule == "big-joker-count-mismatch"
    with pytest.raises(InvalidInput) as invalid:
        settle_tribute(SINGLE_LOSS, level=5, paid={}, returned={})
    assert invalid.value.rule == "big-jokers-unknown"


def test_missing_and_unexpected_cards() -> None:
    with pytest.raises(RuleViolation) as error:
        settle_tribute(DOUBLE_DOWN, level=5, paid=cards(E="SK"), returned={}, big_jokers={})
    assert (error.value.rule, error.value.field) == ("tribute-missing", "paid.W")
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SK", E="SQ"), returned={}, big_jokers={})
    assert (error.value.rule, error.value.field) == ("tribute-unexpected", "paid.E")
    with pytest.raises(RuleViolation) as error:
        settle_tribute(SINGLE_LOSS, level=5, paid=cards(W="SK"), returned={}, big_jokers={})
    assert (error.value.rule, error.value.field) == ("return-missing", "returned.N")
    with pytest.raises(RuleViolation) as error:
        settle_tribute(
            SINGLE_LOSS, level=5, paid=cards(W="SK"), returned=cards(N="S3", S="S4"), big_jokers={}
        )
    assert (error.value.rule, error.value.field) == ("return-unexpected", "returned.S")


def test_bad_finish_order() -> None:
    with pytest.raises(InvalidInput) as error:
        settle_tribute((N, E, S, S), level=5, paid={}, returned={}, big_jokers={})
    assert error.value.field == "finish_order"


def test_a_recorded_tribute_stands_for_the_payers_joker_count() -> None:
    """A score sheet records the card paid, not the hand: paying a big joker means holding one."""
    order = [Seat.N, Seat.E, Seat.S, Seat.W]
    plain = settle_tribute(
        order, level=5, paid={Seat.W: parse_card("HA")}, returned={Seat.N: parse_card("C3")}
    )
    assert plain.leader is Seat.W
    joker = settle_tribute(
        order, level=5, paid={Seat.W: parse_card("HR")}, returned={Seat.N: parse_card("C3")}
    )
    assert [str(move.card) for move in joker.tributes] == ["HR"]
