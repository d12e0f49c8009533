"""Guandan combos (牌型): every reading of a set of cards at a level, and which reading beats which.

A set of cards may read several ways once the two heart level cards (逢人配) stand in for others:
``5577`` + a wildcard is a full house of 5 or of 7. ``classify`` lists every reading, strongest
first; ``compare_plays`` settles which reading each side means.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.errors import InvalidInput, RuleViolation
from domain.rules.cards import (
    ACE,
    BIG_JOKER,
    COPIES_PER_CARD,
    LEVEL_STRENGTH,
    SMALL_JOKER,
    Card,
    Suit,
    card_of,
    format_cards,
    is_wildcard,
    parse_rank,
    rank_label,
)


class ComboKind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    THREE_PAIRS = "three_pairs"
    TWO_TRIPLES = "two_triples"
    BOMB = "bomb"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_JOKERS = "four_jokers"


MAX_PLAY = 10  # 8 natural cards of a rank + 2 wildcards (seed 002 §二.1 炸弹)
_OF_A_KIND = {1: ComboKind.SINGLE, 2: ComboKind.PAIR, 3: ComboKind.TRIPLE}
_KIND_ORDER = {kind: index for index, kind in enumerate(ComboKind)}
# A wildcard standing for a card whose suit does not matter takes the first suit still free.
_STAND_IN_SUITS = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a play.

    ``rank`` is the deciding natural rank: the run's top card in natural order for sequences
    (A2345 → 5, TJQKA → A), the triple's rank for a full house. ``strength`` is that rank as it
    compares at the level (the level card is 15, above A, outside sequences). ``wild_as`` names
    the natural card each wildcard of the play stands for, in the order the wildcards appear.
    """

    kind: ComboKind
    rank: int
    size: int
    strength: int
    wild_as: tuple[Card, ...] = ()

    @property
    def tier(self) -> int:
        """Bomb class: 0 ordinary, 1 four-card bomb, 2 five-card, 3 straight flush, 4 six+, 5 four jokers."""
        if self.kind is ComboKind.BOMB:
            return 4 if self.size >= 6 else self.size - 3
        if self.kind is ComboKind.STRAIGHT_FLUSH:
            return 3
        return 5 if self.kind is ComboKind.FOUR_JOKERS else 0

    def __str__(self) -> str:
        stands = f" (wildcards as {' '.join(format_cards(self.wild_as))})" if self.wild_as else ""
        return f"{self.kind} of {rank_label(self.rank)}, {self.size} cards{stands}"


def beats(play: Reading, against: Reading) -> bool:
    """Whether ``play`` may be laid on ``against``; equal never beats equal (seed 001 第六条 注)."""
    play_tier, against_tier = play.tier, against.tier
    if play_tier == 0 and against_tier == 0:
        return play.kind is against.kind and play.size == against.size and play.strength > against.strength
    # seed 000 附件 §四(二).3-5: bombs by size then rank; 6+ bombs over a straight flush over 5 and 4.
    return (play_tier, play.size, play.strength) > (against_tier, against.size, against.strength)


def _strongest_first(reading: Reading) -> tuple[int, int, int, int]:
    """Sort key (reverse) for the readings of one play: bomb class, size, strength, then kind."""
    return reading.tier, reading.size, reading.strength, -_KIND_ORDER[reading.kind]


def classify(cards: Sequence[Card], level: int) -> tuple[Reading, ...]:
    """Every reading of ``cards`` at ``level``, strongest first; empty if they form no combo."""
    size = len(cards)
    if not 1 <= size <= MAX_PLAY:
        return ()
    counts: dict[int, int] = {}
    suits: set[Suit | None] = set()
    wild = 0
    for card in cards:
        if card.rank == level and card.suit is Suit.HEARTS:
            wild += 1
        else:
            counts[card.rank] = counts.get(card.rank, 0) + 1
            suits.add(card.suit)
    if wild == size:
        # 逢人配 stands in only when played with other cards (seed 003 §七.2, seed 004 §4):
        # heart level cards alone are the level card.
        counts, suits, wild = {level: size}, {Suit.HEARTS}, 0
    readings: list[Reading] = []
    if len(counts) == 1:
        _read_of_a_kind(readings, cards, level=level, counts=counts, wild=wild)
    elif size == 4 and counts == {SMALL_JOKER: 2, BIG_JOKER: 2}:
        readings.append(Reading(ComboKind.FOUR_JOKERS, BIG_JOKER, 4, BIG_JOKER))
    if size == 5:
        _read_full_houses(readings, cards, level=level, counts=counts, wild=wild)
        flush_suit = next(iter(suits)) if len(suits) == 1 else None
        _read_runs(readings, cards, level=level, counts=counts, width=5, flush_suit=flush_suit)
    elif size == 6:
        _read_runs(readings, cards, level=level, counts=counts, width=3)
        _read_runs(readings, cards, level=level, counts=counts, width=2)
    if len(readings) > 1:
        readings.sort(key=_strongest_first, reverse=True)
    return tuple(readings)


def _read_of_a_kind(
    readings: list[Reading], cards: Sequence[Card], *, level: int, counts: dict[int, int], wild: int
) -> None:
    (rank,) = counts
    size = counts[rank] + wild
    # Two decks hold two of each joker, and a wildcard never stands for a joker (seed 003 §七.2).
    if rank >= SMALL_JOKER and (wild or size > COPIES_PER_CARD):
        return
    kind = _OF_A_KIND.get(size, ComboKind.BOMB)
    stands = _stand_ins(cards, level=level, ranks=[rank] * wild) if wild else ()
    readings.append(Reading(kind, rank, size, _strength(rank, level), stands))


def _read_full_houses(
    readings: list[Reading], cards: Sequence[Card], *, level: int, counts: dict[int, int], wild: int
) -> None:
    for triple, triple_count in counts.items():
        others = [rank for rank in counts if rank != triple]
        if triple >= SMALL_JOKER or triple_count > 3 or len(others) > 1:
            continue
        # Any pair will do when the wildcards make it up; name the lowest rank other than the triple.
        pair = others[0] if others else (3 if triple == 2 else 2)
        pair_need = 2 - counts.get(pair, 0)
        # A pair of like jokers is a pair (seed 003 §七.2 对子), so it may complete a full house.
        if pair_need < 0 or (pair >= SMALL_JOKER and pair_need):
            continue
        ranks = [triple] * (3 - triple_count) + [pair] * pair_need
        stands = _stand_ins(cards, level=level, ranks=ranks) if wild else ()
        readings.append(Reading(ComboKind.FULL_HOUSE, triple, 5, _strength(triple, level), stands))


def _read_runs(
    readings: list[Reading],
    cards: Sequence[Card],
    *,
    level: int,
    counts: dict[int, int],
    width: int,
    flush_suit: Suit | None = None,
) -> None:
    """Straights (width 5), three pairs (width 3), two triples (width 2): ``width`` runs of equal rows."""
    copies = len(cards) // width
    if any(count > copies or rank > ACE for rank, count in counts.items()):
        return
    for top in _run_tops(counts.keys(), width):
        missing = [rank for rank in _run_ranks(top, width) for _ in range(copies - counts.get(rank, 0))]
        stands = _stand_ins(cards, level=level, ranks=missing) if missing else ()
        if width == 5:
            readings.append(Reading(ComboKind.STRAIGHT, top, 5, top, stands))
            if flush_suit is not None:
                flush_stands = tuple(card_of(rank, flush_suit) for rank in missing)
                readings.append(Reading(ComboKind.STRAIGHT_FLUSH, top, 5, top, flush_stands))
        else:
            kind = ComboKind.THREE_PAIRS if width == 3 else ComboKind.TWO_TRIPLES
            readings.append(Reading(kind, top, len(cards), top, stands))


def _run_ranks(top: int, width: int) -> list[int]:
    return [ACE if position == 1 else position for position in range(top - width + 1, top + 1)]


def _run_tops(ranks: Collection[int], width: int) -> range | list[int]:
    """Top positions of every run of ``width`` consecutive ranks holding ``ranks``; no wrap past A."""
    tops = range(max(max(ranks), width), min(min(ranks) + width - 1, ACE) + 1)
    if ACE not in ranks:
        return tops
    # A also sits below 2 in every sequence (seed 003 §七.3), as position 1.
    low = [1 if rank == ACE else rank for rank in ranks]
    return [*tops, *range(max(max(low), width), min(min(low) + width - 1, ACE) + 1)]


def _strength(rank: int, level: int) -> int:
    return LEVEL_STRENGTH if rank == level else rank


def _stand_ins(cards: Sequence[Card], *, level: int, ranks: list[int]) -> tuple[Card, ...]:
    """A natural card for each wildcard: the needed rank in the first suit with a copy still free.

    Only a 9- or 10-card bomb can run out of copies; its wildcard then names an extra spade.
    """
    taken: dict[Card, int] = {}
    for card in cards:
        if not is_wildcard(card, level):
            taken[card] = taken.get(card, 0) + 1
    stands = []
    for rank in ranks:
        free = (card_of(rank, suit) for suit in _STAND_IN_SUITS)
        card = next(
            (card for card in free if taken.get(card, 0) < COPIES_PER_CARD), card_of(rank, Suit.SPADES)
        )
        taken[card] = taken.get(card, 0) + 1
        stands.append(card)
    return tuple(stands)


# --- comparing two plays ------------------------------------------------------------------

ReadingSpec = ComboKind | str | tuple[ComboKind | str, int | str]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the play beats the play on the table, and the reading each side was taken as."""

    beats: bool
    play: Reading
    against: Reading


def compare_plays(
    play: Sequence[Card],
    against: Sequence[Card],
    *,
    level: int,
    play_as: ReadingSpec | None = None,
    against_as: ReadingSpec | None = None,
) -> Verdict:
    """Whether ``play`` beats ``against`` at ``level``.

    ``play_as`` / ``against_as`` settle a wildcard ambiguity: a kind (``"full_house"``) or a kind and
    rank (``("full_house", "7")``). Unsettled, the play on the table is its strongest reading and the
    play is its strongest reading that beats it (else its strongest reading).
    """
    play_readings = _readings_or_raise(play, level=level, field="play")
    against_readings = _readings_or_raise(against, level=level, field="against")
    if against_as is None:
        table = against_readings[0]
    else:
        table = choose_reading(against_readings, against_as, field="against_as")
    if play_as is not None:
        chosen = choose_reading(play_readings, play_as, field="play_as")
        return Verdict(beats(chosen, table), chosen, table)
    for reading in play_readings:
        if beats(reading, table):
            return Verdict(True, reading, table)
    return Verdict(False, play_readings[0], table)


def choose_reading(readings: Sequence[Reading], spec: ReadingSpec, *, field: str) -> Reading:
    """The strongest of ``readings`` matching ``spec`` (a kind, or a kind and a rank)."""
    kind_value, rank_value = spec if isinstance(spec, tuple) else (spec, None)
    try:
        kind = ComboKind(kind_value)
    except ValueError:
        raise InvalidInput(
            f"unknown combo kind {kind_value!r}: expected one of {', '.join(ComboKind)}",
            rule="unknown-combo-kind",
            field=field,
        ) from None
    rank = None if rank_value is None else parse_rank(rank_value, field=field)
    for reading in readings:
        if reading.kind is kind and rank in (None, reading.rank):
            return reading
    wanted = kind if rank is None else f"{kind} of {rank_label(rank)}"
    raise RuleViolation(
        f"the cards cannot be read as {wanted}; they read as: {'; '.join(map(str, readings))}",
        rule="combo-reading-unavailable",
        field=field,
    )


def _readings_or_raise(cards: Sequence[Card], *, level: int, field: str) -> tuple[Reading, ...]:
    readings = classify(cards, level)
    if not readings:
        raise RuleViolation(
            f"{' '.join(format_cards(cards)) or 'no cards'} ({len(cards)} cards) form no Guandan combo "
            f"at level {rank_label(level)}",
            rule="combo-invalid",
            field=field,
        )
    return readings
