"""Laws of Guandan combos, checked against a brute-force reading of natural cards.

The reference below reads the seed definitions directly (a run is a window of consecutive
positions, A at 1 or 14), and wildcards are brute-forced over every natural card they could be.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rules.cards import BIG_JOKER, DECK, SMALL_JOKER, Card, Suit, card_of, is_wildcard
from domain.rules.combos import ComboKind, Reading, beats, classify

K = ComboKind
NATURALS = [card for card in DECK if not card.is_joker]
RUNS = [(5, 1, K.STRAIGHT), (3, 2, K.THREE_PAIRS), (2, 3, K.TWO_TRIPLES)]


def reference(cards: Sequence[Card]) -> set[tuple[ComboKind, int]]:
    """(kind, rank) of every reading of natural cards, straight from the seeds' definitions."""
    size = len(cards)
    counts = Counter(card.rank for card in cards)
    found: set[tuple[ComboKind, int]] = set()
    if len(counts) == 1:
        (rank,) = counts
        if size <= 2 or (rank < SMALL_JOKER and size <= 10):
            found.add(({1: K.SINGLE, 2: K.PAIR, 3: K.TRIPLE}.get(size, K.BOMB), rank))
    if counts == Counter({SMALL_JOKER: 2, BIG_JOKER: 2}):
        found.add((K.FOUR_JOKERS, BIG_JOKER))
    if size == 5 and sorted(counts.values()) == [2, 3]:
        triple = next(rank for rank, count in counts.items() if count == 3)
        if triple < SMALL_JOKER:
            found.add((K.FULL_HOUSE, triple))
    for width, copies, kind in RUNS:
        if size != width * copies:
            continue
        for top in range(width, 15):
            window = Counter({(14 if p == 1 else p): copies for p in range(top - width + 1, top + 1)})
            if counts == window:
                found.add((kind, top))
                if kind is K.STRAIGHT and len({card.suit for card in cards}) == 1:
                    found.add((K.STRAIGHT_FLUSH, top))
    return found


def brute_force(cards: Sequence[Card], level: int) -> set[tuple[ComboKind, int]]:
    wild = [index for index, card in enumerate(cards) if is_wildcard(card, level)]
    if len(wild) == len(cards):
        return reference(cards)
    # Suits matter only for a flush: one suit outside the play stands for all such suits.
    suits = {card.suit for card in cards if not is_wildcard(card, level)} | {Suit.SPADES}
    candidates = [card for card in NATURALS if card.suit in suits]
    found: set[tuple[ComboKind, int]] = set()
    for stand_ins in itertools.combinations_with_replacement(candidates, len(wild)):
        natural = list(cards)
        for index, card in zip(wild, stand_ins, strict=True):
            natural[index] = card
        found |= reference(natural)
    return found


@st.composite
def plays(draw: st.DrawFn, level: int | None = None) -> tuple[int, tuple[Card, ...]]:
    """Cards of a few neighbouring ranks (so combos are frequent), maybe jokers and wildcards."""
    level = level if level is not None else draw(st.integers(2, 14))
    width = draw(st.integers(1, 5))
    start = draw(st.integers(1, 15 - width))
    copies = draw(st.integers(1, 3 if width > 1 else 8))
    cards: list[Card] = []
    for position in range(start, start + width):
        both_decks = [card_of(14 if position == 1 else position, suit) for suit in Suit] * 2
        count = draw(st.sampled_from([copies, copies, copies, copies - 1, copies + 1]))
        cards += draw(st.permutations(both_decks))[:count]
    cards += draw(
        st.lists(st.sampled_from([card_of(SMALL_JOKER, None), card_of(BIG_JOKER, None)]), max_size=2)
    )
    wildcard = card_of(level, Suit.HEARTS)
    for _ in range(draw(st.integers(0, 2))):
        if cards and draw(st.booleans()):
            cards[draw(st.integers(0, len(cards) - 1))] = wildcard
        else:
            cards.append(wildcard)
    # two decks: keep at most two of each card, and at most ten cards
    kept = [card for index, card in enumerate(cards) if cards[:index].count(card) < 2][:10]
    return level, tuple(kept or [wildcard])


@settings(max_examples=80, deadline=None)
@given(plays())
def test_readings_are_exactly_the_brute_force_readings(play: tuple[int, tuple[Card, ...]]) -> None:
    level, cards = play
    assert {(r.kind, r.rank) for r in classify(cards, level)} == brute_force(cards, level)


@settings(max_examples=300, deadline=None)
@given(plays())
def test_each_reading_accounts_for_every_card(play: tuple[int, tuple[Card, ...]]) -> None:
    level, cards = play
    wild = [card for card in cards if is_wildcard(card, level)]
    for reading in classify(cards, level):
        assert reading.size == len(cards)
        if len(wild) == len(cards):
            assert reading.wild_as == ()
            continue
        assert len(reading.wild_as) == len(wild)
        assert not any(card.is_joker for card in reading.wild_as)
        natural = [card for card in cards if not is_wildcard(card, level)] + list(reading.wild_as)
        # replacing the wildcards by what they stand for gives the same reading
        assert (reading.kind, reading.rank) in reference(natural)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 14).flatmap(lambda level: st.lists(plays(level), min_size=2, max_size=6)))
def test_beats_is_a_strict_partial_order(hands: list[tuple[int, tuple[Card, ...]]]) -> None:
    found: list[Reading] = [reading for level, cards in hands for reading in classify(cards, level)]
    for a in found:
        assert not beats(a, a)
    for a, b in itertools.permutations(found, 2):
        assert not (beats(a, b) and beats(b, a))
    for a, b, c in itertools.permutations(found, 3):
        if beats(a, b) and beats(b, c):
            assert beats(a, c)


@settings(max_examples=100, deadline=None)
@given(plays())
def test_readings_come_strongest_first(play: tuple[int, tuple[Card, ...]]) -> None:
    level, cards = play
    found = classify(cards, level)
    for earlier, later in itertools.combinations(found, 2):
        assert not beats(later, earlier)
