"""Standings: points schemes as data, and the ranked table of each group.

A scheme says what a game is worth to each side, what the sub-score measures and which criteria
lead the ranking; the event's tie-break chain follows them (see ``tiebreaks``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from domain.errors import InvalidInput
from domain.scoring.results import Entry, EventResults, GameResult, PrizeTier, TableResult, validate_results
from domain.scoring.tiebreaks import (
    HEAD_TO_HEAD,
    LOT,
    OPPONENTS_SCORE,
    PLACEMENT,
    POINTS,
    ROUND_REACHED,
    SUB_SCORE,
    WINS,
    Ordering,
    Separation,
    final_table_places,
    order_entries,
    resolve_chain,
    round_reached,
    tier_index,
)

PointsFrom = Literal["game", "match"]
MarginFrom = Literal["points", "levels"]

NATIONAL_MATCH_POINTS = (2, 1, 0)  # national 2017 rules: win, equal levels (draw), loss


@dataclass(frozen=True, slots=True, kw_only=True)
class Scheme:
    """``points_from``: "game" keeps the game's own points (level points), "match" gives
    ``match_points`` (win, draw, loss) by the winner. ``margin_from``: what the sub-score
    differences; "levels" falls back to the points for games without levels (chess, Go)."""

    name: str
    leading: tuple[str, ...]
    points_from: PointsFrom
    margin_from: MarginFrom
    match_points: tuple[int, int, int] = NATIONAL_MATCH_POINTS


SCHEMES: Mapping[str, Scheme] = {
    scheme.name: scheme
    for scheme in (
        # seed 000 §九.2, 附件 §七.2: total of every round's level points
        Scheme(name="level_points", leading=(POINTS,), points_from="game", margin_from="points"),
        # seed 001 §三, 补充说明 3: wins first, then total points
        Scheme(name="wins_then_points", leading=(WINS, POINTS), points_from="game", margin_from="points"),
        # also the chess / Go round robins (seed 004 §三.1), where a game's points are the games
        # won in the best-of-3 match
        Scheme(name="match_points", leading=(POINTS,), points_from="match", margin_from="levels"),
        # knockouts: prize tier, then the round reached (seed 003 §十, seed 004)
        Scheme(
            name="placement", leading=(PLACEMENT, ROUND_REACHED), points_from="game", margin_from="points"
        ),
    )
}


@dataclass(frozen=True, slots=True, kw_only=True)
class TieNote:
    """Why an entry that shared the first figure with others stands where it does."""

    tied_on: str
    tied_value: int
    tied_group: tuple[str, ...]  # every entry sharing the first figure, this one included
    separated_by: str | None
    separation: Separation
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingRow:
    rank: int
    entry: Entry
    points: int
    bonus: int
    wins: int
    draws: int
    losses: int
    games: int
    provisional_games: int
    figures: Mapping[str, int]
    tie: TieNote | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupStandings:
    group: str | None
    scheme: str
    chain: tuple[str, ...]
    provisional: bool
    rows: tuple[StandingRow, ...]


def scheme_named(name: str) -> Scheme:
    try:
        return SCHEMES[name]
    except KeyError:
        raise InvalidInput(
            f"unknown points scheme {name!r}; known: {', '.join(sorted(SCHEMES))}",
            rule="points-scheme-unknown",
            field="scheme",
        ) from None


def compute_standings(
    results: EventResults,
    *,
    scheme: str,
    chain: Sequence[str],
    provisional: bool = False,
    bonus_cap: int | None = None,
    tiers: Sequence[PrizeTier] = (),
    match_points: tuple[int, int, int] = NATIONAL_MATCH_POINTS,
) -> tuple[GroupStandings, ...]:
    """Rank every group of the event separately (one table when there are no groups).

    Only final games count unless ``provisional``; bonus counts are capped at ``bonus_cap``
    (seed 000 §七: +1 per dean or party secretary who plays, +2 at most). ``tiers`` feed the
    placement criterion; ``match_points`` are the (win, draw, loss) values of "match" schemes.
    """
    validate_results(results)
    if bonus_cap is not None and bonus_cap < 0:
        raise InvalidInput(f"bonus cap {bonus_cap} is negative", rule="bonus-cap-negative", field="bonus_cap")
    chosen = replace(scheme_named(scheme), match_points=match_points)
    full_chain = resolve_chain(chosen.leading, chain)
    counted = tuple(game for game in results.games if provisional or game.final)
    counted_tables = tuple(table for table in results.tables if provisional or table.final)
    members: dict[str | None, list[Entry]] = defaultdict(list)
    for entry in results.entries:
        members[entry.group].append(entry)
    tables = []
    for group in sorted(members, key=lambda name: (name is not None, name or "")):
        entries = members[group]
        ids = {entry.entry_id for entry in entries}
        games = tuple(game for game in counted if game.side_one in ids)
        seated = tuple(table for table in counted_tables if table.ranking[0] in ids)
        tables.append(
            _rank_group(
                group,
                entries,
                games,
                seated,
                results=results,
                scheme=chosen,
                chain=full_chain,
                provisional=provisional,
                bonus_cap=bonus_cap,
                tiers=tiers,
            )
        )
    return tuple(tables)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Tally:
    points: dict[str, int]
    bonus: dict[str, int]
    wins: dict[str, int]
    draws: dict[str, int]
    losses: dict[str, int]
    games: dict[str, int]
    provisional_games: dict[str, int]
    margin: dict[str, int]
    opponents: dict[str, set[tuple[int, str, str]]]
    mutual: dict[str, list[tuple[str, int]]]


def _game_points(game: GameResult, scheme: Scheme) -> tuple[int, int]:
    if scheme.points_from == "game":
        return game.points_one, game.points_two
    win, draw, loss = scheme.match_points
    if game.winner is None:
        return draw, draw
    return (win, loss) if game.winner == game.side_one else (loss, win)


def _margin(game: GameResult, scheme: Scheme) -> int:
    """Side one's sub-score for the game (side two's is its negation); a bye has none."""
    if game.bye:
        return 0
    if scheme.margin_from == "levels" and game.level_one is not None and game.level_two is not None:
        return game.level_one - game.level_two
    return game.points_one - game.points_two


def _tally(
    entries: Sequence[Entry],
    games: Sequence[GameResult],
    tables: Sequence[TableResult],
    *,
    scheme: Scheme,
    bonus_counts: Mapping[str, int],
    bonus_cap: int | None,
) -> _Tally:
    ids = [entry.entry_id for entry in entries]
    counts = {entry_id: bonus_counts.get(entry_id, 0) for entry_id in ids}
    bonus = {
        entry_id: count if bonus_cap is None else min(count, bonus_cap) for entry_id, count in counts.items()
    }
    tally = _Tally(
        points=dict(bonus),
        bonus=bonus,
        wins=dict.fromkeys(ids, 0),
        draws=dict.fromkeys(ids, 0),
        losses=dict.fromkeys(ids, 0),
        games=dict.fromkeys(ids, 0),
        provisional_games=dict.fromkeys(ids, 0),
        margin=dict.fromkeys(ids, 0),
        opponents={entry_id: set() for entry_id in ids},
        mutual={entry_id: [] for entry_id in ids},
    )
    for game in games:
        points = _game_points(game, scheme)
        margin = _margin(game, scheme)
        sides = (
            (game.side_one, game.side_two, points[0], margin),
            (game.side_two, game.side_one, points[1], -margin),
        )
        for side, opponent, own_points, own_margin in sides:
            if side is None:
                continue
            tally.points[side] += own_points
            tally.games[side] += 1
            tally.provisional_games[side] += 0 if game.final else 1
            tally.margin[side] += own_margin
            if game.winner == side:
                tally.wins[side] += 1
            elif game.winner is None and not game.bye:
                tally.draws[side] += 1
            elif game.winner is not None:
                tally.losses[side] += 1
            if opponent is not None:
                # a team meets its opponent in five pair games but counts it once (Buchholz)
                tally.opponents[side].add((game.round_no, game.bracket, opponent))
                tally.mutual[side].append((opponent, own_points))
    # every table is a new game from 0 (seed 004 拱猪 §7 每局…为一局): a player's points are its
    # total at the last table it played, not a sum over rounds
    for table in sorted(tables, key=lambda table: table.round_no):
        for player in table.ranking:
            tally.points[player] = tally.bonus[player] + table.totals[player]
            tally.games[player] += 1
            tally.provisional_games[player] += 0 if table.final else 1
            if player in table.advancing:
                tally.wins[player] += 1
            elif not table.final_table:
                tally.losses[player] += 1
    return tally


def _criterion_values(
    tally: _Tally,
    chain: Sequence[str],
    *,
    games: Sequence[GameResult],
    tables: Sequence[TableResult],
    lots: Mapping[str, int],
    tiers: Sequence[PrizeTier],
) -> dict[str, Mapping[str, int]]:
    values: dict[str, Mapping[str, int]] = {POINTS: tally.points, WINS: tally.wins, SUB_SCORE: tally.margin}
    if OPPONENTS_SCORE in chain:
        values[OPPONENTS_SCORE] = {
            entry_id: sum(tally.points.get(opponent, 0) for _, _, opponent in met)
            for entry_id, met in tally.opponents.items()
        }
    if LOT in chain:
        values[LOT] = {entry_id: lot for entry_id, lot in lots.items() if entry_id in tally.points}
    if PLACEMENT in chain:
        # an event places by prize tiers (knockout pairs) or by its final table (Gongzhu)
        placed = tier_index(games, tiers)
        at_final = final_table_places(tables)
        size = max(at_final.values(), default=0)
        values[PLACEMENT] = {
            entry_id: len(tiers)
            - placed.get(entry_id, len(tiers))
            + (size + 1 - at_final[entry_id] if entry_id in at_final else 0)
            for entry_id in tally.points
        }
    if ROUND_REACHED in chain:
        reached = round_reached(games, tables)
        values[ROUND_REACHED] = {entry_id: reached.get(entry_id, 0) for entry_id in tally.points}
    return values


def _rank_group(
    group: str | None,
    entries: Sequence[Entry],
    games: Sequence[GameResult],
    tables: Sequence[TableResult],
    *,
    results: EventResults,
    scheme: Scheme,
    chain: tuple[str, ...],
    provisional: bool,
    bonus_cap: int | None,
    tiers: Sequence[PrizeTier],
) -> GroupStandings:
    tally = _tally(
        entries,
        games,
        tables,
        scheme=scheme,
        bonus_counts=results.bonus_counts,
        bonus_cap=bonus_cap,
    )
    values = _criterion_values(tally, chain, games=games, tables=tables, lots=results.lots, tiers=tiers)

    def head_to_head(block: Sequence[str]) -> Mapping[str, int]:
        inside = set(block)
        return {
            entry_id: sum(pts for opp, pts in tally.mutual[entry_id] if opp in inside) for entry_id in block
        }

    ordering = order_entries(list(tally.points), chain=chain, values=values, head_to_head=head_to_head)
    by_id = {entry.entry_id: entry for entry in entries}
    gathering: dict[int, list[str]] = defaultdict(list)
    for entry_id in sorted(values[chain[0]]):
        gathering[values[chain[0]][entry_id]].append(entry_id)
    sharing = {value: tuple(group) for value, group in gathering.items()}
    known = {**values, HEAD_TO_HEAD: ordering.head_to_head}
    rows = []
    for rank, block in _ranked_blocks(ordering):
        for entry_id in block:
            figures = {name: known[name][entry_id] for name in chain if entry_id in known.get(name, {})}
            rows.append(
                StandingRow(
                    rank=rank,
                    entry=by_id[entry_id],
                    points=tally.points[entry_id],
                    bonus=tally.bonus[entry_id],
                    wins=tally.wins[entry_id],
                    draws=tally.draws[entry_id],
                    losses=tally.losses[entry_id],
                    games=tally.games[entry_id],
                    provisional_games=tally.provisional_games[entry_id],
                    figures=figures,
                    tie=_tie_note(
                        entry_id, ordering, chain=chain, first=values[chain[0]], sharing=sharing, by_id=by_id
                    ),
                )
            )
    return GroupStandings(
        group=group, scheme=scheme.name, chain=chain, provisional=provisional, rows=tuple(rows)
    )


def _ranked_blocks(ordering: Ordering) -> list[tuple[int, tuple[str, ...]]]:
    ranked = []
    above = 0
    for block in ordering.blocks:
        ranked.append((above + 1, block))
        above += len(block)
    return ranked


def _tie_note(
    entry_id: str,
    ordering: Ordering,
    *,
    chain: Sequence[str],
    first: Mapping[str, int],
    sharing: Mapping[int, tuple[str, ...]],
    by_id: Mapping[str, Entry],
) -> TieNote | None:
    separation = ordering.separations.get(entry_id)
    if separation is None:
        return None
    tied_group = sharing[first[entry_id]]
    # the whole group is one shared tuple: a Swiss round can leave hundreds level on wins
    names = [by_id[other].display_name or other for other in tied_group[:4] if other != entry_id][:3]
    more = len(tied_group) - 1 - len(names)
    shown = ", ".join(names) + (f" and {more} more" if more else "")
    text = f"tied on {chain[0]} {first[entry_id]} with {shown}; "
    if separation.criterion is None:
        text += f"still tied after {', '.join(chain)}: shares the rank"
        text += "; lot not yet drawn" if separation.awaiting_lot else ""
    else:
        neighbours = [str(value) for value in (separation.above, separation.below) if value is not None]
        text += f"separated by {separation.criterion} {separation.value} vs {', '.join(neighbours)}"
    return TieNote(
        tied_on=chain[0],
        tied_value=first[entry_id],
        tied_group=tied_group,
        separated_by=separation.criterion,
        separation=separation,
        text=text,
    )
