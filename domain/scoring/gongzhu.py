"""Gongzhu (拱猪) tables in the scoring area: a table's game from its stored hands, the outcome the
schedule and standings read, and the public view of the table.

The rules are ``domain.rules.gongzhu``'s; this module maps seats to the rules' player indices
(N, E, S, W = 0..3) and stored rows to plain values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.errors import Conflict
from domain.rules import gongzhu as rules_gongzhu
from domain.rules.levels import Seat, Side
from domain.rules.ruleset import RuleSet
from domain.scoring.models import GameState, HandOut, TableGameOut, TablePlayerOut
from domain.scoring.repository import TableRow
from domain.scoring.results import TableResult
from storage.tables import Game, GongzhuHand
from storage.tables import GameResult as ResultRow

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
END_REASON = "target-reached"


def piles(captured: Mapping[Seat, Sequence[str]]) -> dict[str, list[str]]:
    """The four seats' captured cards as stored; a seat that took no trick has an empty pile."""
    return {seat.value: list(captured.get(seat, ())) for seat in SEATS}


def score(captured: Mapping[Seat, Sequence[str]], exposed: Iterable[str]) -> dict[str, int]:
    """Each seat's score for one hand (拱猪 §3–6), the cards checked by the rules."""
    stored = piles(captured)
    scores = rules_gongzhu.score_hand([stored[seat.value] for seat in SEATS], exposed)
    return {seat.value: points for seat, points in zip(SEATS, scores, strict=True)}


def _seat_indices(seats: Iterable[str]) -> list[int]:
    return [SEATS.index(Seat(seat)) for seat in seats]


def standing(
    hands: Sequence[GongzhuHand], rules: RuleSet, *, referee_order: Sequence[str] | None
) -> rules_gongzhu.GongzhuStanding:
    """The running game over the stored hands, with the referee's order of a tie if one is given."""
    played = rules_gongzhu.gongzhu_game(
        [[hand.scores[seat.value] for seat in SEATS] for hand in hands], rules
    )
    if not referee_order:
        return played
    return rules_gongzhu.order_table(played, _seat_indices(referee_order), rules)


def referee_order(result: ResultRow) -> list[str] | None:
    """The seats as a referee ordered a tie (kept in ``reported``), or None."""
    order = (result.reported or {}).get("ranking")
    return list(order) if order else None


def _seats(players: Iterable[int]) -> list[str]:
    return [SEATS[player].value for player in players]


def outcome(table: rules_gongzhu.GongzhuStanding, *, hands: int) -> dict[str, Any]:
    """The outcome document: ``ranking`` (seats best first) is what the next round's draw reads."""
    return {
        "points": {seat.value: total for seat, total in zip(SEATS, table.totals, strict=True)},
        "ranking": _seats(table.ranking),
        "advancing": _seats(table.advancing),
        "tied_at_cut": _seats(table.tied_at_cut),
        "over": table.over,
        "hands": hands,
    }


def record_outcome(result: ResultRow, hands: Sequence[GongzhuHand], rules: RuleSet) -> bool:
    """Store the table's outcome on its result row; answers whether the game is over."""
    table = standing(hands, rules, referee_order=referee_order(result))
    result.outcome = outcome(table, hands=len(hands))
    result.end_reason = END_REASON if table.over else None
    result.winner_side = None
    return table.over


def require_no_tie_at_cut(game_id: int, result: ResultRow) -> None:
    tied = result.outcome.get("tied_at_cut") or []
    if tied:
        points = result.outcome.get("points", {})
        raise Conflict(
            f"game {game_id}: {', '.join(f'{seat} {points.get(seat)}' for seat in tied)} are level at the "
            "advancing cut (拱猪 §7 前两名); a referee orders them (POST /games/{id}/table-order) before "
            "the result is confirmed",
            rule="gongzhu-tie-at-cut",
            field="ranking",
        )


def hand_out(hand: GongzhuHand, totals: Sequence[int]) -> HandOut:
    return HandOut(
        hand_no=hand.hand_no,
        captured={Seat(seat): cards for seat, cards in hand.captured.items()},
        exposed=list(hand.exposed),
        scores={Seat(seat): points for seat, points in hand.scores.items()},
        totals=dict(zip(SEATS, totals, strict=True)),
        version=hand.version,
    )


def table_out(game: Game, result: ResultRow, hands: Sequence[GongzhuHand], rules: RuleSet) -> TableGameOut:
    """The public view: names by seat, every hand with the running totals, who goes on."""
    order = referee_order(result)
    table = standing(hands, rules, referee_order=order)
    seats = game.seats or {}
    assert game.id is not None
    return TableGameOut(
        game_id=game.id,
        event_id=game.event_id,
        round_id=game.round_id,
        match_id=game.match_id,
        table_no=game.table_no,
        state=GameState(result.state),
        target=rules.gongzhu_target,
        players=[
            TablePlayerOut(
                seat=seat,
                entry_id=(seats.get(seat.value) or {}).get("entry_id"),
                name=str((seats.get(seat.value) or {}).get("name", "")),
            )
            for seat in SEATS
        ],
        hands=[hand_out(hand, totals) for hand, totals in zip(hands, table.totals_after, strict=True)],
        totals=dict(zip(SEATS, table.totals, strict=True)),
        over=table.over,
        ranking=[SEATS[player] for player in table.ranking],
        advancing=[SEATS[player] for player in table.advancing],
        tied_at_cut=[SEATS[player] for player in table.tied_at_cut],
        ordered_by_referee=order is not None,
        confirmed={Side.NS: result.confirmed_a_at is not None, Side.EW: result.confirmed_b_at is not None},
        version=result.version,
    )


def table_results(rows: Sequence[TableRow], *, bye_rounds: Iterable[int]) -> tuple[TableResult, ...]:
    """The finished tables of a stage for standings. A round of one table and no bye seats the
    last four: its ranking gives the places (seed 004 三, 名次 1–4)."""
    with_byes = set(bye_rounds)
    per_round = Counter(row.round_no for row in rows)
    out = []
    for row in rows:
        if row.state not in (GameState.ENDED.value, GameState.FINAL.value) or not row.outcome.get("over"):
            continue
        entry = {
            seat: str(placed["entry_id"])
            for seat, placed in row.seats.items()
            if seat in row.outcome["points"]
        }
        final_table = per_round[row.round_no] == 1 and row.round_no not in with_byes
        out.append(
            TableResult(
                round_no=row.round_no,
                ranking=tuple(entry[seat] for seat in row.outcome["ranking"]),
                totals={entry[seat]: int(total) for seat, total in row.outcome["points"].items()},
                advancing=() if final_table else tuple(entry[seat] for seat in row.outcome["advancing"]),
                final_table=final_table,
                final=row.state == GameState.FINAL.value,
            )
        )
    return tuple(out)
