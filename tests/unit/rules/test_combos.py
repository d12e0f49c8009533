from __future__ import annotations

import itertools

import pytest

from domain.errors import InvalidInput, RuleViolation
from domain.rules.cards import Card, format_cards, parse_cards, parse_rank
from domain.rules.combos import ComboKind, Reading, beats, classify, compare_plays

K = ComboKind


def readings(text: str, level: int) -> set[tuple[ComboKind, str, int]]:
    return {(r.kind, _label(r.rank), r.size) for r in classify(parse_cards(text.split()), level)}


def _label(rank: int) -> str:
    return {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 16: "SB", 17: "HR"}.get(rank, str(rank))


def reading(text: str, level: int, kind: ComboKind, rank: str) -> Reading:
    wanted = parse_rank(rank)
    return next(r for r in classify(parse_cards(text.split()), level) if r.kind is kind and r.rank == wanted)


# --- classification, natural cards -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S7", {(K.SINGLE, "7", 1)}),
        ("HR", {(K.SINGLE, "HR", 1)}),
        ("S7 D7", {(K.PAIR, "7", 2)}),
        ("SB SB", {(K.PAIR, "SB", 2)}),
        ("SB HR", set()),
        ("S7 D7 C7", {(K.TRIPLE, "7", 3)}),
        ("S7 D7 C7 S4 D4", {(K.FULL_HOUSE, "7", 5)}),
        ("S7 D7 C7 HR HR", {(K.FULL_HOUSE, "7", 5)}),
        ("S7 D7 C7 S4 HR", set()),
        ("S3 D4 C5 S6 D7", {(K.STRAIGHT, "7", 5)}),
        ("SA D2 C3 S4 D5", {(K.STRAIGHT, "5", 5)}),
        ("ST DJ CQ SK DA", {(K.STRAIGHT, "A", 5)}),
        ("SJ DQ CK SA D2", set()),
        ("SQ DK CA S2 D3", set()),
        ("S3 S4 S5 S6 S7", {(K.STRAIGHT_FLUSH, "7", 5), (K.STRAIGHT, "7", 5)}),
        ("S3 S3 D4 D4 C5 C5", {(K.THREE_PAIRS, "5", 6)}),
        ("SA SA D2 D2 C3 C3", {(K.THREE_PAIRS, "3", 6)}),
        ("SQ SQ DK DK CA CA", {(K.THREE_PAIRS, "A", 6)}),
        ("SK SK DA DA C2 C2", set()),
        ("S3 S3 D3 D4 C4 C4", {(K.TWO_TRIPLES, "4", 6)}),
        ("SA SA DA D2 C2 C2", {(K.TWO_TRIPLES, "2", 6)}),
        ("SK SK DK DA CA CA", {(K.TWO_TRIPLES, "A", 6)}),
        ("S3 S3 D3 D3 C4 C4 S5 S5", set()),
        ("S9 S9 D9 D9", {(K.BOMB, "9", 4)}),
        ("S9 S9 D9 D9 C9 C9 H9 H9", {(K.BOMB, "9", 8)}),
        ("SB SB HR HR", {(K.FOUR_JOKERS, "HR", 4)}),
        ("S3 S4 S5 S6 S7 S8", set()),
        ("S7 D8", set()),
    ],
)
def test_natural_readings_at_level_2(text: str, expected: set[tuple[ComboKind, str, int]]) -> None:
    assert readings(text, 2) == expected


# --- classification with wildcards (the heart level card) ------------------------------------


@pytest.mark.parametrize(
    ("text", "level", "expected"),
    [
        # seed 002 §二.3: 打10, 2+3+4+红桃10+6 → 23456
        ("S2 S3 D4 HT C6", 10, {(K.STRAIGHT, "6", 5)}),
        # seed 003 §七.2: 主牌为9, 黑桃9、红桃9、10、Q、K → 910JQK; 55677 + 红桃9 → 556677
        ("S9 H9 DT CQ SK", 9, {(K.STRAIGHT, "K", 5)}),
        ("S5 D5 S6 C7 D7 H9", 9, {(K.THREE_PAIRS, "7", 6)}),
        ("S6 S6 D6 D6 C6 C6 H6 H6 H9 H9", 9, {(K.BOMB, "6", 10)}),
        ("S6 S6 D6 D6 C6 C6 H6 H6 H9", 9, {(K.BOMB, "6", 9)}),
        ("S7 H2", 2, {(K.PAIR, "7", 2)}),
        ("SB H2", 2, set()),
        ("S7 S7 H2", 2, {(K.TRIPLE, "7", 3)}),
        ("S7 H2 H2", 2, {(K.TRIPLE, "7", 3)}),
        ("SB SB H2 H2", 2, set()),
        ("S7 D7 C7 H2", 2, {(K.BOMB, "7", 4)}),
        # seed 001 第五条 注: 与两对牌配成三带两 — two full houses
        ("S5 D5 S7 C7 H2", 2, {(K.FULL_HOUSE, "7", 5), (K.FULL_HOUSE, "5", 5)}),
        ("S7 D7 C7 H2 H2", 2, {(K.BOMB, "7", 5), (K.FULL_HOUSE, "7", 5)}),
        ("S7 D7 SB SB H2", 2, {(K.FULL_HOUSE, "7", 5)}),
        # seed 002 §二.1: 打2时 10-J-Q-2-A 与 10-J-Q-K-A 一样大
        ("ST SJ SQ H2 SA", 2, {(K.STRAIGHT_FLUSH, "A", 5), (K.STRAIGHT, "A", 5)}),
        ("ST SJ DQ H2 SA", 2, {(K.STRAIGHT, "A", 5)}),
        (
            "S3 S4 S6 H2 H2",
            2,
            {(K.STRAIGHT_FLUSH, "6", 5), (K.STRAIGHT, "6", 5)}
            | {(K.STRAIGHT_FLUSH, "7", 5), (K.STRAIGHT, "7", 5)},
        ),
        ("SA S3 S4 H2 H2", 2, {(K.STRAIGHT_FLUSH, "5", 5), (K.STRAIGHT, "5", 5)}),
        (
            "SJ SQ SK H2 H2",
            2,
            {
                (K.STRAIGHT_FLUSH, "A", 5),
                (K.STRAIGHT, "A", 5),
                (K.STRAIGHT_FLUSH, "K", 5),
                (K.STRAIGHT, "K", 5),
            },
        ),
        ("S3 S3 D4 D4 H2 H2", 2, {(K.THREE_PAIRS, "4", 6), (K.THREE_PAIRS, "5", 6), (K.TWO_TRIPLES, "4", 6)}),
        ("SA SA D3 D3 H2 H2", 2, {(K.THREE_PAIRS, "3", 6)}),
        ("SK SK DA DA H2 H2", 2, {(K.THREE_PAIRS, "A", 6), (K.TWO_TRIPLES, "A", 6)}),
        # at level 2 the wildcard is not a natural 2: SA SA + 33 → AA2233 via the wildcards
        ("SA SA S3 D3 H2 H2", 2, {(K.THREE_PAIRS, "3", 6)}),
        # the heart level cards alone are just level cards (seed 003 §七.2: 和别的牌一起出)
        ("H9", 9, {(K.SINGLE, "9", 1)}),
        ("H9 H9", 9, {(K.PAIR, "9", 2)}),
        ("H9 S9", 9, {(K.PAIR, "9", 2)}),
    ],
)
def test_wildcard_readings(text: str, level: int, expected: set[tuple[ComboKind, str, int]]) -> None:
    assert readings(text, level) == expected


def test_wildcards_say_what_they_stand_for() -> None:
    straight = reading("S2 S3 D4 HT C6", 10, K.STRAIGHT, "6")
    assert [card.rank for card in straight.wild_as] == [5]
    flush = reading("S3 S4 S6 H2 H2", 2, K.STRAIGHT_FLUSH, "7")
    assert sorted(format_cards(flush.wild_as)) == ["S5", "S7"]
    assert reading("S6 S6 D6 D6 C6 C6 H6 H6 H9 H9", 9, K.BOMB, "6").wild_as[0].rank == 6
    assert reading("S7 D7", 2, K.PAIR, "7").wild_as == ()


def test_readings_come_strongest_first() -> None:
    found = classify(cards("S7 D7 C7 H2 H2"), 2)
    assert [r.kind for r in found] == [K.BOMB, K.FULL_HOUSE]


def test_more_than_ten_cards_or_none_form_no_combo() -> None:
    assert classify((), 2) == ()
    assert classify(cards("S6 S6 D6 D6 C6 C6 H6 H6 H9 H9 S2"), 9) == ()


# --- ordering ------------------------------------------------------------------------------


def read(text: str, level: int = 2) -> Reading:
    return classify(parse_cards(text.split()), level)[0]


@pytest.mark.parametrize(
    ("higher", "lower", "level"),
    [
        ("SB SB HR HR", "S9 S9 D9 D9 C9 C9 H9 H9", 2),
        ("S9 S9 D9 D9 C9 C9 H9 H9", "S8 S8 D8 D8 C8 C8 H8", 2),
        ("S3 S3 D3 D3 C3 C3", "S9 ST SJ SQ SK", 2),  # 6-card bomb over straight flush
        ("S4 S5 S6 S7 S8", "SA SA DA DA CA", 2),  # straight flush over 5-card bomb
        ("S3 S3 D3 D3 C3", "SA SA DA DA", 2),  # 5 cards over 4
        ("S2 S2 D2 D2", "SA SA DA DA", 2),  # level-card bomb over AAAA
        ("SA SA DA DA", "SK SK DK DK", 2),
        ("S3 S3 D3 D3", "HR", 2),
        ("S3 S3 D3 D3", "SQ SQ DK DK CA CA", 2),
    ],
)
def test_bomb_ladder(higher: str, lower: str, level: int) -> None:
    assert beats(read(higher, level), read(lower, level))
    assert not beats(read(lower, level), read(higher, level))


def test_seed_001_singles_pairs_triples_at_level_10() -> None:
    # seed 001 第六条.3
    order = ["HR", "SB", "ST", "SA", "SK", "SQ", "SJ", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2"]
    for high, low in itertools.pairwise(order):
        assert beats(read(high, 10), read(low, 10)), (high, low)
        assert not beats(read(low, 10), read(high, 10))
    assert beats(read("HR HR", 10), read("SB SB", 10))
    assert beats(read("SB SB", 10), read("ST DT", 10))
    assert beats(read("ST DT", 10), read("SA DA", 10))
    assert beats(read("ST DT CT", 10), read("SA DA CA", 10))


def test_straights_and_sequences() -> None:
    # seed 001 第六条.2: 56789 beats 23456
    assert beats(read("S5 D6 C7 S8 D9"), read("S2 D3 C4 S5 D6"))
    # A2345 is the lowest straight, TJQKA the highest
    assert beats(read("S2 D3 C4 S5 D6"), read("SA D2 C3 S4 D5"))
    assert beats(read("ST DJ CQ SK DA"), read("S9 DT CJ SQ DK"))
    # in sequences the level card sits at its natural place: at level 6, 23456 < 34567
    assert beats(read("S3 D4 C5 S6 D7", 6), read("S2 D3 C4 S5 D6", 6))
    assert beats(read("S2 S2 D3 D3 C4 C4"), read("SA SA D2 D2 C3 C3"))
    assert beats(read("SQ SQ DK DK CA CA"), read("SJ SJ DQ DQ CK CK"))
    assert beats(read("S2 S2 D2 D3 C3 C3"), read("SA SA DA D2 C2 C2"))
    # full houses compare by the triple, level triple above A
    assert beats(read("S2 D2 C2 S3 D3"), read("SA DA CA SK DK"))
    assert beats(read("S3 D3 C3 S2 D2", 3), read("SA DA CA SK DK", 3))
    assert not beats(read("S4 D4 C4 SA DA", 3), read("S5 D5 C5 S2 D2", 3))


def test_other_kinds_never_meet() -> None:
    assert not beats(read("SA DA"), read("S3"))
    assert not beats(read("SA DA CA"), read("S3 D3"))
    assert not beats(read("ST DJ CQ SK DA"), read("S3 D3 C3 S4 D4"))
    assert not beats(read("SQ SQ DK DK CA CA"), read("S3 S3 D3 D4 C4 C4"))
    # three_pairs only against three_pairs of the same size
    assert not beats(read("S5 D5 C5 S6 D6 C6"), read("S3 D3 C4 S4 D5 C5"))


def test_equal_never_beats_equal() -> None:
    # seed 002 §二.1: 9999 与 9992 一样大 at level 2; 10-J-Q-2-A 与 10-J-Q-K-A 一样大
    natural, wild = read("S9 D9 C9 S9"), read("S9 D9 C9 H2")
    assert natural.kind is wild.kind is K.BOMB
    assert not beats(natural, wild)
    assert not beats(wild, natural)
    flush, wild_flush = read("ST SJ SQ SK SA"), read("ST SJ SQ H2 SA")
    assert flush.kind is wild_flush.kind is K.STRAIGHT_FLUSH
    assert not beats(flush, wild_flush)
    assert not beats(wild_flush, flush)
    assert not beats(read("SB SB HR HR"), read("SB SB HR HR"))


# --- comparing plays -------------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def test_against_takes_its_strongest_reading_unless_told() -> None:
    table = cards("S5 D5 S7 C7 H2")  # full house of 7 or of 5
    play = cards("S6 D6 C6 S3 D3")
    assert not compare_plays(play, table, level=2).beats
    verdict = compare_plays(play, table, level=2, against_as=("full_house", "5"))
    assert verdict.beats
    assert verdict.against.rank == 5


def test_play_uses_a_reading_that_beats() -> None:
    # 3344 + two wildcards: three pairs 223344/334455 or two triples 333444
    play = cards("S3 S3 D4 D4 H2 H2")
    verdict = compare_plays(play, cards("S2 S2 D2 C3 D3 C3"), level=2)
    assert verdict.beats
    assert verdict.play.kind is K.TWO_TRIPLES
    assert not compare_plays(play, cards("S2 S2 D2 C3 D3 C3"), level=2, play_as="three_pairs").beats
    verdict = compare_plays(play, cards("S7 S8 S9 ST SJ"), level=2)
    assert not verdict.beats
    assert verdict.play.kind is K.THREE_PAIRS
    assert verdict.play.rank == 5


def test_bomb_on_anything_and_straight_flush_choice() -> None:
    verdict = compare_plays(cards("S3 S4 S5 S6 S7"), cards("D3 C4 S5 D6 C7"), level=2)
    assert verdict.beats
    assert verdict.play.kind is K.STRAIGHT_FLUSH
    assert not compare_plays(
        cards("S3 S4 S5 S6 S7"), cards("D3 C4 S5 D6 C7"), level=2, play_as="straight"
    ).beats


def test_compare_errors() -> None:
    with pytest.raises(RuleViolation) as error:
        compare_plays(cards("S3 D8"), cards("S4"), level=2)
    assert error.value.field == "play"
    assert error.value.rule == "combo-invalid"
    with pytest.raises(RuleViolation) as error:
        compare_plays(cards("S3"), cards("S4 D9"), level=2)
    assert error.value.field == "against"
    with pytest.raises(RuleViolation) as error:
        compare_plays(cards("S3 D3"), cards("S4 D4"), level=2, play_as="triple")
    assert error.value.rule == "combo-reading-unavailable"
    assert error.value.field == "play_as"
    with pytest.raises(InvalidInput) as invalid:
        compare_plays(cards("S3 D3"), cards("S4 D4"), level=2, against_as="twin")
    assert invalid.value.rule == "unknown-combo-kind"
    assert invalid.value.field == "against_as"
