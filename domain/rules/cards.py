"""Guandan cards and levels in the Guandan AI competition platform's notation.

A card is its suit then its rank: ``H7``, ``ST``, ``DA``; ``SB`` is the small (black) joker and
``HR`` the big (red) joker. Unicode suits (``♥7``, ``♤10``) and ``10`` for ``T`` are read too.
Ranks are ints: 2..14 (A = 14), the jokers 16 and 17; 15 is left for the level card's place
between A and the jokers (see ``single_strength``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.errors import InvalidInput


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"


ACE = 14
LEVEL_STRENGTH = 15
SMALL_JOKER = 16
BIG_JOKER = 17
# Two decks: each card exists twice (seed 001 第一条).
COPIES_PER_CARD = 2

_RANK_SYMBOLS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J"}
_RANK_SYMBOLS |= {12: "Q", 13: "K", ACE: "A"}
_JOKER_CODES = {SMALL_JOKER: "SB", BIG_JOKER: "HR"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card; ``suit`` is None for the two jokers."""

    rank: int
    suit: Suit | None

    def __str__(self) -> str:
        if self.suit is None:
            return _JOKER_CODES[self.rank]
        return f"{self.suit}{_RANK_SYMBOLS[self.rank]}"

    @property
    def is_joker(self) -> bool:
        return self.suit is None


# Every card is one shared instance, so parsing is a lookup and cards compare cheaply.
DECK: tuple[Card, ...] = (
    *(Card(rank, suit) for suit in Suit for rank in _RANK_SYMBOLS),
    Card(SMALL_JOKER, None),
    Card(BIG_JOKER, None),
)
_BY_RANK_SUIT = {(card.rank, card.suit): card for card in DECK}

_SUIT_SPELLINGS = {"S": "S♠♤", "H": "H♥♡", "C": "C♣♧", "D": "D♦♢"}
_RANK_SPELLINGS = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()} | {"10": 10}
_CARD_SPELLINGS: dict[str, Card] = {
    spelling + rank_text: _BY_RANK_SUIT[(rank, Suit(letter))]
    for letter, spellings in _SUIT_SPELLINGS.items()
    for spelling in spellings
    for rank_text, rank in _RANK_SPELLINGS.items()
} | {code: _BY_RANK_SUIT[(rank, None)] for rank, code in _JOKER_CODES.items()}
# U+FE0F asks for the emoji glyph (♥️); it carries no meaning for the card.
_VARIATION_SELECTOR = "\ufe0f"


def card_of(rank: int, suit: Suit | None) -> Card:
    """The shared instance of a card (``suit`` None for a joker)."""
    return _BY_RANK_SUIT[(rank, suit)]


def is_wildcard(card: Card, level: int) -> bool:
    """A heart level card: 逢人配 (seed 001 第五条.11 注)."""
    return card.rank == level and card.suit is Suit.HEARTS


def single_strength(card: Card, level: int) -> int:
    """How a card ranks alone: big joker, small joker, level card, A, K … 2 (seed 001 第六条.3)."""
    return LEVEL_STRENGTH if card.rank == level else card.rank


def parse_card(text: object, *, field: str = "card") -> Card:
    card = _CARD_SPELLINGS.get(text.replace(_VARIATION_SELECTOR, "")) if isinstance(text, str) else None
    if card is None:
        raise InvalidInput(
            f"unreadable card {text!r} at {field}: expected a suit S/H/C/D (or ♠♥♣♦) then a rank "
            "2-9, T or 10, J, Q, K, A; or SB (small joker), HR (big joker)",
            rule="card-notation",
            field=field,
        )
    return card


def parse_cards(texts: Iterable[object], *, field: str = "cards") -> tuple[Card, ...]:
    """Read a play or a hand; a card may appear at most twice (two decks)."""
    cards = tuple(parse_card(text, field=f"{field}[{index}]") for index, text in enumerate(texts))
    seen: dict[Card, int] = {}
    for index, card in enumerate(cards):
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > COPIES_PER_CARD:
            raise InvalidInput(
                f"two decks hold only {COPIES_PER_CARD} of each card; {card} appears a third time "
                f"at {field}[{index}]",
                rule="card-copies",
                field=f"{field}[{index}]",
            )
    return cards


def format_cards(cards: Sequence[Card]) -> list[str]:
    """The canonical notation of each card, for output."""
    return [str(card) for card in cards]


def rank_label(rank: int) -> str:
    """A rank for people: 2..10, J, Q, K, A, SB, HR."""
    return "10" if rank == 10 else _RANK_SYMBOLS.get(rank) or _JOKER_CODES[rank]


_RANK_NAMES = _RANK_SPELLINGS | {code: rank for rank, code in _JOKER_CODES.items()}


def _rank_from(value: object) -> int | None:
    if isinstance(value, str):
        return _RANK_NAMES.get(value.strip().upper())
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_rank(value: str | int, *, field: str = "rank") -> int:
    """A rank given as ``"2"``..``"10"`` or ``"T"``, ``"J"``..``"A"``, ``"SB"``, ``"HR"``, or its int."""
    rank = _rank_from(value)
    if rank is None or (rank not in _RANK_SYMBOLS and rank not in _JOKER_CODES):
        raise InvalidInput(
            f"unknown rank {value!r}: expected 2-10 (or T), J, Q, K, A, SB or HR",
            rule="unknown-rank",
            field=field,
        )
    return rank


def parse_level(value: str | int) -> int:
    """The level (级) of a deal: 2..A, returned as 2..14."""
    rank = _rank_from(value)
    if rank is None or rank not in _RANK_SYMBOLS:
        raise InvalidInput(
            f"unknown level {value!r}: a level is one of 2-10 (or T), J, Q, K, A (2..14)",
            rule="unknown-level",
            field="level",
        )
    return rank
