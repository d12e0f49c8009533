"""Tie-break chains: which criteria an event ranks by, and the ordering they produce.

A chain is a list of criterion names applied in order; the ordering keeps, for every entry that
shared the first figure with others, the criterion that finally separated it (or that none did).

- points: the scheme's points (level points, or match points), plus the capped bonus;
- wins: games won (a team's pair games each count);
- sub_score: Σ own − opponent per game. Seed 000 附件 §七.2 ranks equal totals by "Σ场分小分",
  read as the points margin of every game (level points, so passing A and forfeits count as
  scored); under match points it is the level difference (national 2017 rules);
- head_to_head: the scheme's points in the games among exactly the tied entries;
- opponents_score: Σ points of every opponent met, once per round (Buchholz);
- lot: the drawn lot number, lot 1 first;
- placement / round_reached: knockout prize tier or place at the final table (Gongzhu), then
  the main-draw round reached (a table's advancing players reach the next round).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from domain.errors import Conflict, InvalidInput
from domain.scoring.results import MAIN_BRACKET, GameResult, PrizeTier, TableResult

POINTS = "points"
WINS = "wins"
SUB_SCORE = "sub_score"
HEAD_TO_HEAD = "head_to_head"
OPPONENTS_SCORE = "opponents_score"
LOT = "lot"
PLACEMENT = "placement"
ROUND_REACHED = "round_reached"

CRITERIA = frozenset({POINTS, WINS, SUB_SCORE, HEAD_TO_HEAD, OPPONENTS_SCORE, LOT, PLACEMENT, ROUND_REACHED})

# Mutual results depend on who exactly is tied, so they are recomputed for every tied block.
GROUP_DEPENDENT = frozenset({HEAD_TO_HEAD})

HeadToHead = Callable[[Sequence[str]], Mapping[str, int]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Separation:
    """How an entry tied on the first figure came out: the criterion that split it from its block
    (with its figure and the figures of the neighbouring entries), or None when still tied."""

    criterion: str | None
    value: int | None = None
    above: int | None = None
    below: int | None = None
    awaiting_lot: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Ordering:
    """Entries best first; the entries of one block share a rank."""

    blocks: tuple[tuple[str, ...], ...]
    separations: Mapping[str, Separation]
    head_to_head: Mapping[str, int]


def resolve_chain(leading: Sequence[str], chain: Sequence[str]) -> tuple[str, ...]:
    """The scheme's leading criteria followed by the event's tie-breaks.

    A chain may repeat the leading criteria only as its own prefix, in the same order; anything
    else would rank by something other than the points scheme says.
    """
    for name in chain:
        if name not in CRITERIA:
            raise InvalidInput(
                f"unknown tie-break {name!r}; known: {', '.join(sorted(CRITERIA))}",
                rule="tiebreak-unknown",
                field="chain",
            )
    if len(set(chain)) != len(chain):
        raise InvalidInput(
            f"tie-break chain {list(chain)} names a criterion twice", rule="tiebreak-duplicate", field="chain"
        )
    repeated = [name for name in chain if name in leading]
    if repeated and tuple(chain[: len(leading)]) != tuple(leading):
        raise Conflict(
            f"tie-break chain {list(chain)} must start with the scheme's {list(leading)} or leave them out",
            rule="tiebreak-chain-order",
            field="chain",
        )
    return tuple(leading) + tuple(name for name in chain if name not in leading)


def tier_index(games: Iterable[GameResult], tiers: Sequence[PrizeTier]) -> dict[str, int]:
    """The index of the first tier each entry meets (seed 003 §十); entries meeting none are absent.

    A bye advances its entry, so it counts as a win of that round.
    """
    won: set[tuple[str, int, str]] = set()
    lost: set[tuple[str, int, str]] = set()
    for game in games:
        if game.winner is None:
            continue
        won.add((game.bracket, game.round_no, game.winner))
        loser = game.side_two if game.winner == game.side_one else game.side_one
        if loser is not None:
            lost.add((game.bracket, game.round_no, loser))
    placed: dict[str, int] = {}
    for index, tier in enumerate(tiers):
        pool = won if tier.outcome == "winners" else lost
        for bracket, round_no, entry_id in pool:
            if bracket == tier.bracket and round_no == tier.round_no:
                placed.setdefault(entry_id, index)
    return placed


def final_table_places(tables: Iterable[TableResult]) -> dict[str, int]:
    """Each final-table player's place, 1 first (seed 004 三: 名次 1–4 from the last table)."""
    return {
        player: place
        for table in tables
        if table.final_table
        for place, player in enumerate(table.ranking, start=1)
    }


def round_reached(games: Iterable[GameResult], tables: Iterable[TableResult] = ()) -> dict[str, int]:
    """The main-draw round each entry has reached: the last round it played, one more if it won it
    (at a table: if it advanced)."""
    reached: dict[str, int] = {}
    played = [
        (game.round_no, side, game.winner == side)
        for game in games
        if game.bracket == MAIN_BRACKET
        for side in (game.side_one, game.side_two)
        if side is not None
    ]
    played += [
        (table.round_no, player, player in table.advancing) for table in tables for player in table.ranking
    ]
    for round_no, entry_id, went_on in played:
        reached[entry_id] = max(reached.get(entry_id, 0), round_no + (1 if went_on else 0))
    return reached


def order_entries(
    entry_ids: Sequence[str],
    *,
    chain: Sequence[str],
    values: Mapping[str, Mapping[str, int]],
    head_to_head: HeadToHead,
) -> Ordering:
    """Order entries by the chain: higher figures first, except lots (lot 1 first).

    ``values`` holds every group-independent criterion of the chain; ``head_to_head`` computes
    mutual figures among exactly the entries given. A block still tied when head-to-head splits
    it is compared head-to-head again among its own members before the chain moves on.
    A lot separates a block only when every entry in it has drawn one: the seed draws lots
    for a remaining tie (seed 000 附件 §七.2), so an undrawn lot leaves the block tied.
    """
    separations: dict[str, Separation] = {}
    mutual: dict[str, int] = {}
    ordered: list[tuple[str, ...]] = []

    def figures(criterion: str, block: Sequence[str]) -> Mapping[str, int]:
        if criterion in GROUP_DEPENDENT:
            found = head_to_head(block)
            mutual.update(found)
            return found
        return values[criterion]

    def settle(block: tuple[str, ...], depth: int) -> None:
        if len(block) == 1:
            ordered.append(block)
            return
        if depth == len(chain):
            awaiting = LOT in chain and any(entry_id not in values[LOT] for entry_id in block)
            for entry_id in block:
                separations[entry_id] = Separation(criterion=None, awaiting_lot=awaiting)
            ordered.append(block)
            return
        criterion = chain[depth]
        found = figures(criterion, block)
        if criterion == LOT and any(entry_id not in found for entry_id in block):
            settle(block, depth + 1)
            return
        sign = 1 if criterion == LOT else -1
        ranked = sorted(block, key=lambda entry_id: sign * found[entry_id])
        parts = [tuple(part) for _, part in groupby(ranked, key=lambda entry_id: found[entry_id])]
        if len(parts) == 1:
            settle(block, depth + 1)
            return
        next_depth = depth if criterion in GROUP_DEPENDENT else depth + 1
        for position, part in enumerate(parts):
            if len(part) == 1 and depth > 0:
                separations[part[0]] = Separation(
                    criterion=criterion,
                    value=found[part[0]],
                    above=found[parts[position - 1][0]] if position > 0 else None,
                    below=found[parts[position + 1][0]] if position + 1 < len(parts) else None,
                )
            settle(part, next_depth)

    settle(tuple(sorted(entry_ids)), 0)
    return Ordering(blocks=tuple(ordered), separations=separations, head_to_head=mutual)
