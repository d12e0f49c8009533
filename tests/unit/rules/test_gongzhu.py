"""Gongzhu scoring (seed 004 拱猪比赛规则), one test per clause with hand-computed figures."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from domain.errors import Conflict, InvalidInput, RuleViolation
from domain.rules.cards import Card, parse_card
from domain.rules.gongzhu import (
    HEART_ACE,
    HEARTS,
    PIG,
    SCORING_CARDS,
    SHEEP,
    TRANSFORMER,
    exposed_cards,
    gongzhu_game,
    order_table,
    player_score,
    score_hand,
)
from domain.rules.ruleset import preset

ALL_HEARTS = [f"H{rank}" for rank in "23456789TJQKA"]


def score(*cards: str, exposed: tuple[str, ...] = ()) -> int:
    return player_score(
        frozenset(parse_card(card) for card in cards),
        exposed_cards(parse_card(card) for card in exposed),
    )


def test_pig_and_sheep() -> None:
    assert score("SQ") == -100
    assert score("SQ", exposed=("SQ",)) == -200
    assert score("DJ") == 100
    assert score("DJ", exposed=("DJ",)) == 200
    assert score("SQ", "DJ") == 0


def test_the_sheep_is_the_jack_of_diamonds_not_of_hearts() -> None:
    assert score("HJ") == -20
    assert score("HJ", exposed=("DJ",)) == -20


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (("H2", "H3", "H4"), 0),
        (("H5", "H6", "H7", "H8", "H9", "HT"), -60),
        (("HJ",), -20),
        (("HQ",), -30),
        (("HK",), -40),
        (("HA",), -50),
        (tuple(ALL_HEARTS[:-1]), -150),  # every heart but the A: 0·3 − 60 − 20 − 30 − 40
    ],
)
def test_heart_values(cards: tuple[str, ...], expected: int) -> None:
    assert score(*cards) == expected


def test_an_exposed_heart_ace_doubles_every_heart() -> None:
    assert score("H5", "HK", exposed=("HA",)) == -100
    assert score("HA", exposed=("HA",)) == -100


def test_transformer_doubles_the_rest() -> None:
    assert score("CT", "SQ") == -200
    assert score("CT", "SQ", exposed=("CT",)) == -400
    assert score("CT", "DJ", "HJ", "SQ") == -40  # (100 − 20 − 100) × 2
    assert score("CT", "SQ", "HA", exposed=("SQ", "HA")) == -600  # (−200 − 100) × 2


def test_transformer_alone() -> None:
    assert score("CT") == 50
    assert score("CT", "S2", "D9") == 50  # cards without points do not count
    assert score("CT", exposed=("CT",)) == 100


def test_a_zero_point_heart_is_a_scoring_card_for_the_transformer() -> None:
    assert score("CT", "H2") == 0


def test_all_hearts() -> None:
    assert score(*ALL_HEARTS) == 200
    assert score(*ALL_HEARTS, exposed=("HA",)) == 400
    assert score(*ALL_HEARTS, "SQ") == 100
    assert score(*ALL_HEARTS, "CT") == 400


def test_grand_slam() -> None:
    everything = (*ALL_HEARTS, "SQ", "DJ", "CT")
    assert score(*everything) == 800
    assert score(*everything, exposed=("SQ",)) == 1000  # (200 + 200 + 100) × 2
    assert score(*everything, exposed=("SQ", "DJ", "CT", "HA")) == 3200  # (400 + 200 + 200) × 4


def test_three_exposed_specials_expose_the_fourth() -> None:
    assert exposed_cards([PIG, SHEEP, TRANSFORMER]) == {PIG, SHEEP, TRANSFORMER, HEART_ACE}
    assert exposed_cards([PIG, SHEEP]) == {PIG, SHEEP}
    assert score("HA", exposed=("SQ", "DJ", "CT")) == -100


def _deal(*piles: list[str]) -> list[list[str]]:
    return [list(pile) for pile in piles]


def test_score_a_hand_from_four_piles() -> None:
    piles = _deal(["♠Q", "H5", "H6"], ["DJ", "C10"], ALL_HEARTS[5:], ["H2", "H3", "H4", "S2"])
    # with A♥ exposed: −100 + (−10 − 10) × 2; 100 × 2; (−40 − 20 − 30 − 40 − 50) × 2; 0
    assert score_hand(piles, exposed=["HA"]) == (-140, 200, -360, 0)


@pytest.mark.parametrize(
    ("piles", "exposed", "field", "rule"),
    [
        (_deal(["SQ"], ["DJ"], ["CT"]), [], "captured", "gongzhu-players"),
        (
            _deal(["SQ", "H2"], ["DJ", "H2"], ["CT"], ALL_HEARTS[1:]),
            [],
            "captured[1][1]",
            "card-captured-twice",
        ),
        (_deal(["SQ"], ["DJ"], ["CT"], ALL_HEARTS[1:]), [], "captured", "scoring-card-missing"),
        (_deal(["SQ", "HR"], ["DJ"], ["CT"], ALL_HEARTS), [], "captured[0][1]", "gongzhu-no-jokers"),
        (_deal(["SQ", "X9"], ["DJ"], ["CT"], ALL_HEARTS), [], "captured[0][1]", "card-notation"),
        (_deal(["SQ"], ["DJ"], ["CT"], ALL_HEARTS), ["SQ", "HK"], "exposed[1]", "not-exposable"),
    ],
)
def test_hand_validation(piles: list[list[str]], exposed: list[str], field: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as error:
        score_hand(piles, exposed=exposed)
    assert (error.value.field, error.value.rule) == (field, rule)


OTHER_SCORING = sorted(SCORING_CARDS - {TRANSFORMER}, key=str)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=len(OTHER_SCORING), max_size=len(OTHER_SCORING)))
def test_totals_when_the_transformer_holder_takes_nothing_else(owners: list[int]) -> None:
    piles = [
        frozenset(c for c, owner in zip(OTHER_SCORING, owners, strict=True) if owner == p) for p in range(3)
    ]
    assume(all(len(pile & HEARTS) < 13 for pile in piles))
    piles.append(frozenset({TRANSFORMER}))
    # hearts −200, pig −100, sheep +100, transformer alone +50
    assert sum(player_score(pile, frozenset()) for pile in piles) == -150
    # exposing the heart A doubles the hearts only
    assert sum(player_score(pile, frozenset({HEART_ACE})) for pile in piles) == -350


@settings(max_examples=200, deadline=None)
@given(st.sets(st.sampled_from(OTHER_SCORING), min_size=1, max_size=14))
def test_the_transformer_doubles_any_partial_pile(pile: set[Card]) -> None:
    cards = frozenset(pile)
    assert player_score(cards | {TRANSFORMER}, frozenset()) == 2 * player_score(cards, frozenset())


def test_game_runs_to_a_thousand_and_the_top_two_advance() -> None:
    rules = preset("hlju-2016-gongzhu")
    hands = [(-300, 100, 50, 150), (-400, 300, -100, 200), (-350, 100, 0, 250)]
    standing = gongzhu_game(hands, rules)
    assert standing.totals == (-1050, 500, -50, 600)
    assert standing.over
    assert standing.ranking == (3, 1, 2, 0)
    assert standing.advancing == (3, 1)
    assert standing.tied_at_cut == ()
    assert standing.totals_after[0] == (-300, 100, 50, 150)


def test_game_goes_on_below_the_target() -> None:
    standing = gongzhu_game([(-300, 100, 50, 150), (-400, 300, -100, 200)], preset("hlju-2016-gongzhu"))
    assert (standing.over, standing.advancing) == (False, ())
    assert standing.totals == (-700, 400, -50, 350)


def test_plus_a_thousand_also_ends_the_game() -> None:
    standing = gongzhu_game([(1000, -300, -300, -400)], preset("hlju-2016-gongzhu"))
    assert standing.over
    assert (standing.advancing, standing.tied_at_cut) == ((0,), (1, 2))


def test_a_hand_after_the_end_is_a_conflict() -> None:
    with pytest.raises(Conflict) as error:
        gongzhu_game([(-1000, 0, 0, 0), (0, 0, 0, 0)], preset("hlju-2016-gongzhu"))
    assert (error.value.rule, error.value.field) == ("hand-after-game-over", "hands[1]")


def test_a_hand_scores_four_players() -> None:
    with pytest.raises(InvalidInput) as error:
        gongzhu_game([(0, 0, 0)], preset("hlju-2016-gongzhu"))
    assert error.value.field == "hands[0]"


def test_the_referee_orders_a_tie_at_the_cut() -> None:
    rules = preset("hlju-2016-gongzhu")
    tied = gongzhu_game([(1000, 500, 500, -500)], rules)
    assert (tied.advancing, tied.tied_at_cut) == ((0,), (1, 2))
    ordered = order_table(tied, (0, 2, 1, 3), rules)
    assert (ordered.ranking, ordered.advancing, ordered.tied_at_cut) == ((0, 2, 1, 3), (0, 2), ())
    assert ordered.totals == tied.totals


@pytest.mark.parametrize(
    ("ranking", "rule"),
    [((0, 3, 1, 2), "gongzhu-ranking-totals"), ((0, 1, 1, 3), "gongzhu-ranking-players")],
)
def test_an_order_only_swaps_equal_totals(ranking: tuple[int, ...], rule: str) -> None:
    rules = preset("hlju-2016-gongzhu")
    with pytest.raises((InvalidInput, RuleViolation)) as error:
        order_table(gongzhu_game([(1000, 500, 500, -500)], rules), ranking, rules)
    assert error.value.rule == rule  # type: ignore[union-attr]


def test_a_table_still_playing_is_not_ordered() -> None:
    rules = preset("hlju-2016-gongzhu")
    with pytest.raises(Conflict) as error:
        order_table(gongzhu_game([(100, 0, 0, -100)], rules), (0, 1, 2, 3), rules)
    assert error.value.rule == "gongzhu-game-not-over"
