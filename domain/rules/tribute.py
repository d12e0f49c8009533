"""Tribute (进贡), return (还牌) and refused tribute (抗贡) before a deal, from the second deal on.

The engine never deals cards: it checks a recorded exchange against the previous deal's finishing
order and says who leads the deal. Readings of the seeds' wording:

- Play goes counterclockwise (seed 000 附件 §四(一)). Seen from above with N at the top, each
  seat's 下家 (the next to play) is N → W → S → E → N; its 上家 is the seat before.
- Double-down with equal tributes: 按顺时针方向进贡，逆时针方向还牌（贡左还右） (seed 000
  附件 §三.2): each loser pays its 上家 and gets the return from it, so the first takes the
  tribute of its 下家 (seed 001 第七条), and that payer leads (seed 000 附件 §三.2
  均由进贡给上游者领出牌; seed 001 补充说明 7 由上游的下家先出牌).
- 抗贡 is taken whenever the paying side holds both big jokers; seeds 002 and 004 say 可 (may),
  but no side would give a big joker away instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.errors import Conflict, InvalidInput, RuleViolation
from domain.rules.cards import ACE, BIG_JOKER, Card, format_cards, is_wildcard, rank_label, single_strength
from domain.rules.levels import Seat

# Counterclockwise: each seat's 下家 follows it.
PLAY_ORDER = (Seat.N, Seat.W, Seat.S, Seat.E)
BIG_JOKERS_TO_REFUSE = 2


@dataclass(frozen=True, slots=True)
class TributeRules:
    """The rule set's tribute options.

    ``return_max_rank``: highest natural rank the receiver may return (A = 14, jokers never);
    None: any card (seed 004 §3 还一张任意牌). ``return_excludes_level_and_ace``: neither a level
    card nor an A (seed 003 §七.6 除主牌和A). ``double_down_last_leads``: after a double-down the
    last finisher leads instead of the larger payer (seed 004 §3 双下 … 末游先出牌).
    """

    return_max_rank: int | None = 10
    return_excludes_level_and_ace: bool = False
    double_down_last_leads: bool = False


@dataclass(frozen=True, slots=True)
class Transfer:
    giver: Seat
    receiver: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class TributeOutcome:
    """Who paid whom, who returned to whom, and who leads the deal."""

    refused: bool
    tributes: tuple[Transfer, ...]
    returns: tuple[Transfer, ...]
    leader: Seat


def next_seat(seat: Seat) -> Seat:
    """The 下家: the seat that plays after ``seat``."""
    return PLAY_ORDER[(PLAY_ORDER.index(seat) + 1) % 4]


def previous_seat(seat: Seat) -> Seat:
    """The 上家: the seat that plays before ``seat``."""
    return PLAY_ORDER[(PLAY_ORDER.index(seat) - 1) % 4]


def partner(seat: Seat) -> Seat:
    return PLAY_ORDER[(PLAY_ORDER.index(seat) + 2) % 4]


def tribute_payers(finish_order: Sequence[Seat]) -> tuple[Seat, ...]:
    """Who pays: both losers after a double-down, else the last (seed 000 附件 §三.1-2)."""
    first, second, third, last = _checked_order(finish_order)
    return (third, last) if partner(first) == second else (last,)


def tribute_refused(finish_order: Sequence[Seat], *, big_jokers: Mapping[Seat, int]) -> bool:
    """抗贡: the paying seats hold both big jokers between them (seed 001 第七条, seed 003 §七.6)."""
    return sum(big_jokers.get(seat, 0) for seat in tribute_payers(finish_order)) >= BIG_JOKERS_TO_REFUSE


def settle_tribute(
    finish_order: Sequence[Seat],
    *,
    level: int,
    paid: Mapping[Seat, Card],
    returned: Mapping[Seat, Card],
    big_jokers: Mapping[Seat, int] | None = None,
    hands: Mapping[Seat, Sequence[Card]] | None = None,
    rules: TributeRules = TributeRules(),
) -> TributeOutcome:
    """Check a recorded tribute and return its outcome.

    ``finish_order`` is the previous deal's, first to last; ``level`` the coming deal's. ``paid``
    holds each payer's tribute card and ``returned`` each receiver's return, by seat.
    ``big_jokers`` counts the big jokers each payer was dealt; ``hands`` (the payers' hands as
    dealt) may stand in for it and lets the engine check that the tribute was the highest card.
    """
    order = _checked_order(finish_order)
    first = order[0]
    payers = tribute_payers(order)
    jokers = _big_jokers(payers, big_jokers=big_jokers, hands=hands or {}, paid=paid)
    if sum(jokers.values()) >= BIG_JOKERS_TO_REFUSE:
        for name, recorded in (("paid", paid), ("returned", returned)):
            if recorded:
                raise RuleViolation(
                    f"the paying side holds {sum(jokers.values())} big jokers, so the tribute is refused "
                    f"(抗贡) and no card changes hands; got {name} cards from {', '.join(sorted(recorded))}",
                    rule="tribute-refused",
                    field=name,
                )
        return TributeOutcome(refused=True, tributes=(), returns=(), leader=first)

    _check_seats(paid, payers, field="paid", noun="tribute")
    for seat in payers:
        _check_tribute_card(
            seat, paid[seat], level=level, big_jokers=jokers[seat], hand=(hands or {}).get(seat)
        )
    tributes, leader = _assign(order, paid, level=level)
    if rules.double_down_last_leads and len(payers) == 2:
        leader = order[3]

    _check_seats(returned, tuple(t.receiver for t in tributes), field="returned", noun="return")
    returns = tuple(Transfer(t.receiver, t.giver, returned[t.receiver]) for t in tributes)
    for transfer in returns:
        _check_return_card(transfer, level=level, rules=rules)
    return TributeOutcome(refused=False, tributes=tributes, returns=returns, leader=leader)


def _assign(
    order: tuple[Seat, Seat, Seat, Seat], paid: Mapping[Seat, Card], *, level: int
) -> tuple[tuple[Transfer, ...], Seat]:
    first, second, third, last = order
    if partner(first) != second:
        # seed 000 附件 §三.1: 首圈由下游领出牌
        return (Transfer(last, first, paid[last]),), last
    high, low = sorted((third, last), key=lambda seat: single_strength(paid[seat], level), reverse=True)
    if single_strength(paid[high], level) > single_strength(paid[low], level):
        # the higher tribute goes to the first, the lower to its partner; the larger payer leads
        return (Transfer(high, first, paid[high]), Transfer(low, second, paid[low])), high
    # equal tributes: 贡左还右, each loser pays its 上家; the payer to the first leads (module notes)
    transfers = tuple(Transfer(seat, previous_seat(seat), paid[seat]) for seat in (third, last))
    return transfers, next_seat(first)


def _checked_order(finish_order: Sequence[Seat]) -> tuple[Seat, Seat, Seat, Seat]:
    if len(finish_order) != 4 or set(finish_order) != set(Seat):
        raise InvalidInput(
            f"a finishing order names each of N, E, S, W once; got {list(map(str, finish_order))}",
            rule="finish-order",
            field="finish_order",
        )
    first, second, third, last = finish_order
    return first, second, third, last


def _big_jokers(
    payers: tuple[Seat, ...],
    *,
    big_jokers: Mapping[Seat, int] | None,
    hands: Mapping[Seat, Sequence[Card]],
    paid: Mapping[Seat, Card],
) -> dict[Seat, int]:
    """Big jokers per payer: stated, counted in the hand, or — when only the tribute card was
    recorded, as a score sheet does — the tribute itself (a big joker paid is one held)."""
    counts: dict[Seat, int] = {}
    for seat in payers:
        hand = hands.get(seat)
        in_hand = None if hand is None else sum(card.rank == BIG_JOKER for card in hand)
        stated = None if big_jokers is None else big_jokers.get(seat, 0)
        if stated is None and in_hand is None and seat in paid:
            in_hand = int(paid[seat].rank == BIG_JOKER)
        if stated is None:
            if in_hand is None:
                raise InvalidInput(
                    f"say how many big jokers {seat} holds (big_jokers) or give its hand",
                    rule="big-jokers-unknown",
                    field="big_jokers",
                )
            stated = in_hand
        elif in_hand is not None and stated != in_hand:
            raise Conflict(
                f"{seat} is said to hold {stated} big jokers but its hand holds {in_hand}",
                rule="big-joker-count-mismatch",
                field=f"big_jokers.{seat}",
            )
        counts[seat] = stated
    if any(count < 0 for count in counts.values()) or sum(counts.values()) > BIG_JOKERS_TO_REFUSE:
        raise InvalidInput(
            f"two decks hold {BIG_JOKERS_TO_REFUSE} big jokers; got {dict(counts)}",
            rule="big-joker-count",
            field="big_jokers",
        )
    return counts


def _check_seats(recorded: Mapping[Seat, Card], expected: tuple[Seat, ...], *, field: str, noun: str) -> None:
    for seat in expected:
        if seat not in recorded:
            raise RuleViolation(
                f"{seat} owes a {noun} card this deal; none was recorded",
                rule=f"{noun}-missing",
                field=f"{field}.{seat}",
            )
    for seat in recorded:
        if seat not in expected:
            raise RuleViolation(
                f"only {', '.join(expected)} give a {noun} card this deal; {seat} does not",
                rule=f"{noun}-unexpected",
                field=f"{field}.{seat}",
            )


def _check_tribute_card(
    seat: Seat, card: Card, *, level: int, big_jokers: int, hand: Sequence[Card] | None
) -> None:
    field = f"paid.{seat}"
    if is_wildcard(card, level):
        raise RuleViolation(
            f"a heart level card is never paid as tribute (seed 000 附件 §三.1); {seat} paid {card}",
            rule="tribute-heart-level-card",
            field=field,
        )
    if big_jokers and card.rank != BIG_JOKER:
        raise RuleViolation(
            f"{seat} holds a big joker, so its tribute must be the big joker; it paid {card}",
            rule="tribute-not-highest",
            field=field,
        )
    if hand is None:
        return
    if card not in hand:
        raise RuleViolation(
            f"{seat} paid {card}, which is not in its hand {' '.join(format_cards(hand))}",
            rule="tribute-card-not-in-hand",
            field=field,
        )
    eligible = [other for other in hand if not is_wildcard(other, level)]
    highest = max(eligible, key=lambda other: single_strength(other, level))
    if single_strength(highest, level) > single_strength(card, level):
        raise RuleViolation(
            f"the tribute is the highest card but a heart level card (seed 000 附件 §三.1); "
            f"{seat} paid {card} but holds {highest}",
            rule="tribute-not-highest",
            field=field,
        )


def _check_return_card(transfer: Transfer, *, level: int, rules: TributeRules) -> None:
    card, field = transfer.card, f"returned.{transfer.giver}"
    limit = rules.return_max_rank
    if limit is not None and (card.is_joker or card.rank > limit):
        raise RuleViolation(
            f"a returned card must be {rank_label(limit)} or lower (seed 000 附件 §三.1); "
            f"{transfer.giver} returned {card}",
            rule="tribute-return-too-high",
            field=field,
        )
    if rules.return_excludes_level_and_ace and card.rank in (level, ACE):
        raise RuleViolation(
            f"a returned card may be neither a level card ({rank_label(level)}) nor an A "
            f"(seed 003 §七.6); {transfer.giver} returned {card}",
            rule="tribute-return-level-or-ace",
            field=field,
        )
