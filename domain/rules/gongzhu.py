"""Gongzhu (拱猪, seed 004 拱猪比赛规则): scoring a hand from captured cards, and the running game.

Cards use the Guandan notation of ``domain.rules.cards`` (``SQ``, ``♦J``, ``C10``) without jokers.
The readings of the seed's ambiguous sentences are listed in the ``hlju-2016-gongzhu`` preset.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from domain.errors import Conflict, InvalidInput, RuleViolation
from domain.rules.cards import ACE, Card, Suit, card_of, parse_card
from domain.rules.ruleset import RuleSet

PLAYERS = 4
PIG = card_of(12, Suit.SPADES)
# seed 004 拱猪 §2 and its sheep line say 方片J; the 得分牌 line's 红桃J is read as a slip.
SHEEP = card_of(11, Suit.DIAMONDS)
TRANSFORMER = card_of(10, Suit.CLUBS)
HEART_ACE = card_of(ACE, Suit.HEARTS)
EXPOSABLE = frozenset({PIG, SHEEP, TRANSFORMER, HEART_ACE})
HEARTS = frozenset(card_of(rank, Suit.HEARTS) for rank in range(2, ACE + 1))
SCORING_CARDS = HEARTS | {PIG, SHEEP, TRANSFORMER}

# seed 004 拱猪 §3: 红桃2、3、4算0分，5–10每个负10分，J负20，Q负30，K负40，A负50
_HEART_POINTS = {
    rank: 0 if rank <= 4 else -10 if rank <= 10 else -20 - 10 * (rank - 11) for rank in range(2, 15)
}
_ALL_HEARTS_POINTS = 200  # seed 004 拱猪 §5 满红
_PIG_POINTS = 100
_SHEEP_POINTS = 100
_TRANSFORMER_ALONE_POINTS = 50


def exposed_cards(exposed: Iterable[Card]) -> frozenset[Card]:
    """The exposed specials, with the fourth exposed automatically once three are (拱猪 §2)."""
    shown = frozenset(exposed)
    return EXPOSABLE if len(shown) >= len(EXPOSABLE) - 1 else shown


def player_score(captured: Collection[Card], exposed: Collection[Card]) -> int:
    """One player's score for the cards captured in a hand; ``exposed`` after ``exposed_cards``."""

    def doubling(card: Card) -> int:
        return 2 if card in exposed else 1

    hearts = [card for card in captured if card in HEARTS]
    slam = all(card in captured for card in SCORING_CARDS)  # 满贯
    if len(hearts) == len(HEARTS):
        heart_part = _ALL_HEARTS_POINTS
    else:
        heart_part = sum(_HEART_POINTS[card.rank] for card in hearts)
    rest = heart_part * doubling(HEART_ACE)
    if PIG in captured:
        # 满贯 = (200 + 100 + 100) × 2 = 800 only if the pig counts +100 there.
        rest += (_PIG_POINTS if slam else -_PIG_POINTS) * doubling(PIG)
    if SHEEP in captured:
        rest += _SHEEP_POINTS * doubling(SHEEP)
    if TRANSFORMER not in captured:
        return rest
    if not hearts and PIG not in captured and SHEEP not in captured:
        return _TRANSFORMER_ALONE_POINTS * doubling(TRANSFORMER)
    return rest * 2 * doubling(TRANSFORMER)


def score_hand(captured: Sequence[Iterable[str]], exposed: Iterable[str] = ()) -> tuple[int, ...]:
    """Each player's score for one hand, from the four players' captured cards in seat order."""
    if len(captured) != PLAYERS:
        raise InvalidInput(
            f"a Gongzhu hand has {PLAYERS} players, got {len(captured)} captured sets",
            rule="gongzhu-players",
            field="captured",
        )
    taken: dict[Card, str] = {}
    piles: list[frozenset[Card]] = []
    for player, texts in enumerate(captured):
        pile = []
        for index, text in enumerate(texts):
            where = f"captured[{player}][{index}]"
            card = _plain_card(text, field_name=where)
            if card in taken:
                raise InvalidInput(
                    f"{card} is captured twice: at {taken[card]} and at {where}",
                    rule="card-captured-twice",
                    field=where,
                )
            taken[card] = where
            pile.append(card)
        piles.append(frozenset(pile))
    missing = sorted(str(card) for card in SCORING_CARDS - taken.keys())
    if missing:
        raise InvalidInput(
            f"every scoring card is captured by someone; missing {', '.join(missing)}",
            rule="scoring-card-missing",
            field="captured",
        )
    shown = []
    for index, text in enumerate(exposed):
        card = _plain_card(text, field_name=f"exposed[{index}]")
        if card not in EXPOSABLE:
            raise InvalidInput(
                f"only Q♠, J♦, 10♣ and A♥ can be exposed, got {card}",
                rule="not-exposable",
                field=f"exposed[{index}]",
            )
        shown.append(card)
    exposure = exposed_cards(shown)
    return tuple(player_score(pile, exposure) for pile in piles)


def _plain_card(text: str, *, field_name: str) -> Card:
    card = parse_card(text, field=field_name)
    if card.is_joker:
        raise InvalidInput(
            f"Gongzhu is played without jokers, got {card} at {field_name}",
            rule="gongzhu-no-jokers",
            field=field_name,
        )
    return card


@dataclass(frozen=True, slots=True)
class GongzhuStanding:
    totals_after: tuple[tuple[int, ...], ...]
    """Cumulative totals of the four players after each hand."""
    totals: tuple[int, ...]
    over: bool
    ranking: tuple[int, ...]
    """Player indices (seat order) by total, highest first; equal totals keep seat order."""
    advancing: tuple[int, ...]
    """Players who advance once the game is over (the top ``advance_count``)."""
    tied_at_cut: tuple[int, ...]
    """Players level on the total at the advancing cut, left for the referee to separate."""


def gongzhu_game(hands: Sequence[Sequence[int]], rules: RuleSet) -> GongzhuStanding:
    """Totals over hands until a player reaches ±target (拱猪 §7: 每局累计计分正负1000分为一局)."""
    totals = (0,) * PLAYERS
    history: list[tuple[int, ...]] = []
    over = False
    for index, scores in enumerate(hands):
        if over:
            raise Conflict(
                f"hand {index + 1} was recorded after a total reached ±{rules.gongzhu_target} "
                f"in hand {index}; the game is over",
                rule="hand-after-game-over",
                field=f"hands[{index}]",
            )
        if len(scores) != PLAYERS:
            raise InvalidInput(
                f"a hand scores {PLAYERS} players, got {len(scores)} scores",
                rule="gongzhu-players",
                field=f"hands[{index}]",
            )
        totals = tuple(total + score for total, score in zip(totals, scores, strict=True))
        history.append(totals)
        over = any(abs(total) >= rules.gongzhu_target for total in totals)
    ranking = tuple(sorted(range(PLAYERS), key=lambda player: -totals[player]))
    advancing: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()
    if over and rules.advance_count is not None:
        advancing, tied = _cut(ranking, totals, rules.advance_count)
    return GongzhuStanding(tuple(history), totals, over, ranking, advancing, tied)


def _cut(
    ranking: tuple[int, ...], totals: tuple[int, ...], count: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if count >= len(ranking):
        return ranking, ()
    boundary = totals[ranking[count - 1]]
    if totals[ranking[count]] != boundary:
        return ranking[:count], ()
    above = tuple(player for player in ranking if totals[player] > boundary)
    return above, tuple(player for player in ranking if totals[player] == boundary)


def order_table(standing: GongzhuStanding, ranking: Sequence[int], rules: RuleSet) -> GongzhuStanding:
    """The referee's order of a finished table: ``ranking`` (player indices, best first) may only
    reorder players level on the total; the top ``advance_count`` of it advance (拱猪 §7 前两名,
    seed 004 四.1 服从裁判的判罚)."""
    if not standing.over:
        raise Conflict(
            f"the table is still playing to ±{rules.gongzhu_target}; it is ordered once it is over",
            rule="gongzhu-game-not-over",
            field="ranking",
        )
    if sorted(ranking) != list(range(PLAYERS)):
        raise InvalidInput(
            f"the ranking names each of the {PLAYERS} players once, got {list(ranking)}",
            rule="gongzhu-ranking-players",
            field="ranking",
        )
    totals = standing.totals
    for place, (better, worse) in enumerate(pairwise(ranking), start=1):
        if totals[better] < totals[worse]:
            raise RuleViolation(
                f"place {place} has {totals[better]}, below place {place + 1} with {totals[worse]}: "
                "only players level on the total can be ordered",
                rule="gongzhu-ranking-totals",
                field=f"ranking[{place - 1}]",
            )
    ranked = tuple(ranking)
    count = rules.advance_count
    return replace(
        standing, ranking=ranked, advancing=ranked[:count] if count is not None else (), tied_at_cut=()
    )
