from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from domain.rules.cards import (
    BIG_JOKER,
    DECK,
    SMALL_JOKER,
    Card,
    Suit,
    format_cards,
    is_wildcard,
    parse_card,
    parse_cards,
    parse_level,
    parse_rank,
    single_strength,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("H7", 7, Suit.HEARTS),
        ("ST", 10, Suit.SPADES),
        ("S10", 10, Suit.SPADES),
        ("DA", 14, Suit.DIAMONDS),
        ("C2", 2, Suit.CLUBS),
        ("♥7", 7, Suit.HEARTS),
        ("♠10", 10, Suit.SPADES),
        ("♡Q", 12, Suit.HEARTS),
        ("♢K", 13, Suit.DIAMONDS),
        ("♤J", 11, Suit.SPADES),
        ("♧3", 3, Suit.CLUBS),
        ("♥️A", 14, Suit.HEARTS),
        ("SB", SMALL_JOKER, None),
        ("HR", BIG_JOKER, None),
    ],
)
def test_reads_platform_and_unicode_notation(text: str, rank: int, suit: Suit | None) -> None:
    assert parse_card(text) == Card(rank, suit)


def test_canonical_form_round_trips_all_54_cards() -> None:
    assert len(DECK) == 54
    texts = format_cards(DECK)
    assert len(set(texts)) == 54
    assert parse_cards(texts) == DECK
    assert format_cards(parse_cards(["♠10", "♥7", "SB", "HR"])) == ["ST", "H7", "SB", "HR"]


@pytest.mark.parametrize("bad", ["h7", "H1", "H11", "X7", "BJ", "SR", "HB", "", "7H", "S 7", 7, None])
def test_rejects_unreadable_cards_naming_the_index(bad: object) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_cards(["H7", "ST", "SB", bad])
    assert error.value.field == "cards[3]"
    assert error.value.rule == "card-notation"
    assert repr(bad) in error.value.detail


def test_a_card_may_appear_at_most_twice() -> None:
    assert len(parse_cards(["H7", "♥7", "SB", "SB"])) == 4
    with pytest.raises(InvalidInput) as error:
        parse_cards(["H7", "S2", "♥7", "H7"], field="play")
    assert error.value.field == "play[3]"
    assert error.value.rule == "card-copies"
    assert "H7" in error.value.detail


@pytest.mark.parametrize(
    ("value", "level"),
    [
        ("2", 2),
        ("10", 10),
        ("T", 10),
        ("t", 10),
        ("J", 11),
        ("Q", 12),
        ("K", 13),
        ("A", 14),
        (14, 14),
        (2, 2),
    ],
)
def test_parse_level(value: str | int, level: int) -> None:
    assert parse_level(value) == level


@pytest.mark.parametrize("value", ["1", "0", "15", "B", "SB", "HR", "", 1, 15, 16, True])
def test_unknown_level(value: str | int) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_level(value)
    assert error.value.field == "level"
    assert error.value.rule == "unknown-level"


def test_parse_rank_accepts_jokers_but_not_nonsense() -> None:
    assert parse_rank("SB") == SMALL_JOKER
    assert parse_rank("hr") == BIG_JOKER
    assert parse_rank("10") == parse_rank("T") == 10
    with pytest.raises(InvalidInput):
        parse_rank("Z", field="play_as")


def test_heart_level_cards_are_the_wildcards() -> None:
    assert is_wildcard(parse_card("HT"), 10)
    assert not is_wildcard(parse_card("ST"), 10)
    assert not is_wildcard(parse_card("HT"), 9)
    assert not is_wildcard(parse_card("HR"), 10)


def test_singles_order_at_level_10_follows_seed_001() -> None:
    # seed 001 第六条.3: 大王，小王，10，A，K，Q，J，9，8，7，6，5，4，3，2
    expected = ["HR", "SB", "ST", "SA", "SK", "SQ", "SJ", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2"]
    cards = parse_cards(expected)
    by_strength = sorted(cards, key=lambda card: single_strength(card, 10), reverse=True)
    assert format_cards(by_strength) == expected
    assert len({single_strength(card, 10) for card in cards}) == len(cards)
