"""What standings and awards are computed from: entries, game results and prize tiers.

Plain frozen data handed over by the scoring service; ``validate_results`` refuses what cannot be
ranked before any figure is computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from domain.errors import Conflict, InvalidInput
from domain.events.models import Bracket

LEVEL_MIN = 2
LEVEL_MAX = 14  # A; passing A is a points matter (15), not a level
MAIN_BRACKET: str = Bracket.MAIN

Outcome = Literal["winners", "losers"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """A ranked unit (a team or a pair); branch and display name are passed through untouched."""

    entry_id: str
    display_name: str = ""
    branch: str = ""
    group: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """One game at one table: a pair game, or one of the five pair games of a team match.

    ``side_two`` is None for a bye. ``final`` is False while the game is still in play.
    ``bracket`` tells a knockout's main draw from its playoffs (e.g. "third_place").
    """

    round_no: int
    side_one: str
    side_two: str | None
    points_one: int
    points_two: int = 0
    level_one: int | None = None
    level_two: int | None = None
    winner: str | None = None
    final: bool = True
    forfeit: bool = False
    group: str | None = None
    pair_no: int | None = None
    bracket: str = MAIN_BRACKET

    @property
    def bye(self) -> bool:
        return self.side_two is None


@dataclass(frozen=True, slots=True, kw_only=True)
class TableResult:
    """One table of more than two players ranked by its own totals (Gongzhu, seed 004 拱猪 §7).

    ``ranking`` is best first with any tie already ordered by the referee; ``advancing`` are the
    players who go on to the next round (none at the final table, whose ranking gives the places).
    """

    round_no: int
    ranking: tuple[str, ...]
    totals: Mapping[str, int]
    advancing: tuple[str, ...]
    final_table: bool = False
    final: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class PrizeTier:
    """A prize given to the winners or the losers of one knockout round (seed 003 §十)."""

    name: str
    round_no: int
    outcome: Outcome
    bracket: str = MAIN_BRACKET


@dataclass(frozen=True, slots=True, kw_only=True)
class EventResults:
    """Everything recorded for one event (or one stage of it).

    ``lots`` maps an entry to its drawn lot number (1 ranks first); ``bonus_counts`` maps a team to
    the uncapped count of deans / party secretaries who played (seed 000 §七).
    """

    entries: tuple[Entry, ...]
    games: tuple[GameResult, ...]
    tables: tuple[TableResult, ...] = ()
    lots: Mapping[str, int] = field(default_factory=dict)
    bonus_counts: Mapping[str, int] = field(default_factory=dict)


def validate_results(results: EventResults) -> None:
    """Raise on anything that would make a ranking meaningless; return quietly otherwise."""
    groups = _entry_groups(results.entries)
    for game in results.games:
        _validate_game(game, groups)
    _refuse_duplicates(results.games)
    _validate_tables(results.tables, groups)
    _validate_lots(results.lots, groups)
    for entry_id, count in results.bonus_counts.items():
        _require_known(entry_id, groups, field_name="bonus_counts")
        if count < 0:
            raise InvalidInput(
                f"bonus count for {entry_id} is {count}; it must be 0 or more",
                rule="bonus-count-negative",
                field="bonus_counts",
            )


def _entry_groups(entries: tuple[Entry, ...]) -> dict[str, str | None]:
    groups: dict[str, str | None] = {}
    for entry in entries:
        if entry.entry_id in groups:
            raise InvalidInput(
                f"entry {entry.entry_id} is listed twice", rule="entry-duplicate", field="entries"
            )
        groups[entry.entry_id] = entry.group
    return groups


def _require_known(entry_id: str, groups: Mapping[str, str | None], *, field_name: str) -> None:
    if entry_id not in groups:
        raise InvalidInput(
            f"entry {entry_id} is not an entry of this event", rule="entry-unknown", field=field_name
        )


def _validate_game(game: GameResult, groups: Mapping[str, str | None]) -> None:
    sides = (game.side_one,) if game.side_two is None else (game.side_one, game.side_two)
    if game.round_no < 1:
        raise InvalidInput(f"round {game.round_no} is before round 1", rule="round-number", field="round_no")
    for side in sides:
        _require_known(side, groups, field_name="games")
        if game.group is not None and groups[side] != game.group:
            raise InvalidInput(
                f"round {game.round_no}: entry {side} is in group {groups[side]}, "
                f"the game in group {game.group}",
                rule="game-group-mismatch",
                field="group",
            )
    if game.side_one == game.side_two:
        raise InvalidInput(
            f"round {game.round_no}: entry {game.side_one} cannot play itself",
            rule="game-sides",
            field="side_two",
        )
    if len(sides) == 2 and groups[sides[0]] != groups[sides[1]]:
        raise InvalidInput(
            f"round {game.round_no}: {sides[0]} (group {groups[sides[0]]}) meets {sides[1]} "
            f"(group {groups[sides[1]]})",
            rule="game-group-mismatch",
            field="group",
        )
    if game.winner is not None and game.winner not in sides:
        raise InvalidInput(
            f"round {game.round_no}: winner {game.winner} is not a side of the game",
            rule="game-winner",
            field="winner",
        )
    for name, level in (("level_one", game.level_one), ("level_two", game.level_two)):
        if level is not None and not LEVEL_MIN <= level <= LEVEL_MAX:
            raise InvalidInput(
                f"round {game.round_no}: level {level} is outside {LEVEL_MIN}..{LEVEL_MAX}",
                rule="level-range",
                field=name,
            )
    if game.pair_no is not None and game.pair_no < 1:
        raise InvalidInput(f"pair number {game.pair_no} is below 1", rule="pair-number", field="pair_no")


def _refuse_duplicates(games: tuple[GameResult, ...]) -> None:
    seen: set[tuple[int, str, frozenset[str | None], int | None]] = set()
    opponent_in_round: dict[tuple[int, str, str], str | None] = {}
    for game in games:
        key = (game.round_no, game.bracket, frozenset((game.side_one, game.side_two)), game.pair_no)
        if key in seen:
            raise Conflict(
                f"round {game.round_no}: {game.side_one} v {game.side_two} (pair {game.pair_no}) "
                "is recorded twice",
                rule="game-duplicate",
                field="games",
            )
        seen.add(key)
        # a team meets one team per round, however many pair games it plays (seed 000 §八.2)
        for side, opponent in ((game.side_one, game.side_two), (game.side_two, game.side_one)):
            if side is None:
                continue
            slot = (game.round_no, game.bracket, side)
            if opponent_in_round.setdefault(slot, opponent) != opponent:
                raise Conflict(
                    f"round {game.round_no}: {side} meets both {opponent_in_round[slot]} and {opponent}",
                    rule="game-double-booked",
                    field="games",
                )


def _validate_tables(tables: tuple[TableResult, ...], groups: Mapping[str, str | None]) -> None:
    seated: dict[tuple[int, str], int] = {}
    for index, table in enumerate(tables):
        where = f"tables[{index}]"
        for player in table.ranking:
            _require_known(player, groups, field_name=where)
            if seated.setdefault((table.round_no, player), index) != index or table.ranking.count(player) > 1:
                raise Conflict(
                    f"round {table.round_no}: {player} is seated twice",
                    rule="table-double-booked",
                    field=where,
                )
        if set(table.totals) != set(table.ranking) or not set(table.advancing) <= set(table.ranking):
            raise InvalidInput(
                f"round {table.round_no}: totals and advancing must name the table's players "
                f"{sorted(table.ranking)}",
                rule="table-players",
                field=where,
            )
        if len({groups[player] for player in table.ranking}) > 1:
            raise InvalidInput(
                f"round {table.round_no}: a table seats players of different groups",
                rule="game-group-mismatch",
                field=where,
            )


def _validate_lots(lots: Mapping[str, int], groups: Mapping[str, str | None]) -> None:
    holder: dict[tuple[str | None, int], str] = {}
    for entry_id, lot in lots.items():
        _require_known(entry_id, groups, field_name="lots")
        slot = (groups[entry_id], lot)
        if slot in holder:
            raise InvalidInput(
                f"lot {lot} is drawn by both {holder[slot]} and {entry_id}",
                rule="lot-duplicate",
                field="lots",
            )
        holder[slot] = entry_id
