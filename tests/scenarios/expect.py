"""Independent expectations: what each seed's own ranking rule makes of the results the scenario
posted. Nothing here reads the service's standings; levels come from the seeds' arithmetic in
``simulate`` (written from the notices, not from ``domain.rules``)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tests.scenarios.simulate import Outcome, Variant, level_points, replay
from zhisai.scenarios.common import GameRecord


@dataclass
class Tally:
    points: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    sub_score: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    wins: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    bonus: dict[int, int] = field(default_factory=dict)


def outcome(game: GameRecord, variant: Variant) -> Outcome:
    assert game.play is not None, f"game {game.game_id} was not played"
    return replay(game.play, variant)


def winner_entry(game: GameRecord, variant: Variant) -> int | None:
    """The entry that won the game (a forfeit's opponent), or None without a winner."""
    if game.forfeit is not None:
        return game.ew_entry if game.forfeit == "NS" else game.ns_entry
    side = outcome(game, variant).winner
    return None if side is None else (game.ns_entry if side == "NS" else game.ew_entry)


def game_points(game: GameRecord, variant: Variant, *, forfeit: tuple[int, int]) -> dict[int, int]:
    """Each side's points: its level (A 14, passed A 15, seed 000 §九.2); a forfeit scores
    ``forfeit`` = (winner, forfeiter) (seed 000 §九.3: 15:2; seed 001 补充说明 9: 14:0)."""
    if game.forfeit is not None:
        won, lost = forfeit
        return (
            {game.ns_entry: lost, game.ew_entry: won}
            if game.forfeit == "NS"
            else {
                game.ns_entry: won,
                game.ew_entry: lost,
            }
        )
    result = outcome(game, variant)
    return {game.ns_entry: level_points(result, "NS"), game.ew_entry: level_points(result, "EW")}


def tally(
    games: Iterable[GameRecord],
    variant: Variant,
    *,
    forfeit: tuple[int, int],
    bonus: Mapping[int, int] | None = None,
) -> Tally:
    """Points (bonus included), sub-scores (points for minus points against) and wins."""
    totals = Tally(bonus=dict(bonus or {}))
    for entry, extra in totals.bonus.items():
        totals.points[entry] += extra
    for game in games:
        points = game_points(game, variant, forfeit=forfeit)
        (one, one_points), (two, two_points) = points.items()
        totals.points[one] += one_points
        totals.points[two] += two_points
        totals.sub_score[one] += one_points - two_points
        totals.sub_score[two] += two_points - one_points
        won = winner_entry(game, variant)
        if won is not None:
            totals.wins[won] += 1
    return totals


def ranked_blocks(keys: Mapping[int, tuple[int, ...]]) -> list[set[int]]:
    """Entries from best to worst by ``keys`` (larger first); equal keys share a block (the lot)."""
    order = sorted(keys, key=lambda entry: keys[entry], reverse=True)
    blocks: list[set[int]] = []
    for entry in order:
        if blocks and keys[next(iter(blocks[-1]))] == keys[entry]:
            blocks[-1].add(entry)
        else:
            blocks.append({entry})
    return blocks


def consistent_order(order: list[int], keys: Mapping[int, tuple[int, ...]]) -> bool:
    """Whether a ranking lists every entry once, best key first (ties in any order)."""
    return sorted(order) == sorted(keys) and all(keys[a] >= keys[b] for a, b in itertools.pairwise(order))


def top(keys: Mapping[int, tuple[int, ...]], n: int) -> tuple[set[int], set[int]]:
    """The entries surely in the top ``n``, and those that may be (a tie across the line)."""
    sure: set[int] = set()
    for block in ranked_blocks(keys):
        if len(sure) + len(block) <= n:
            sure |= block
        else:
            return sure, sure | block
    return sure, sure
