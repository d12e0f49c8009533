"""Seed 004's expectations: the pairings, placements and knockout places re-stated from the seed's
text, so the tests never take them from the service's own code. The script that plays the
competition is ``zhisai.scenarios.seed_004``; its registration and lot are re-exported for the HTTP
tests that set up one event of it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from zhisai.scenarios.hlju import MatchPlayed
from zhisai.scenarios.seed_004 import GONGZHU, draw, register

__all__ = [
    "GONGZHU",
    "berger_round",
    "draw",
    "expected_ranks",
    "knockout",
    "pairs_of",
    "register",
    "round_robin_ranking",
]

# --- chess and Go: best of 3 (seed 004 三.1 三局两胜制) ----------------------------------------

# FIDE Handbook C.05 Annex 1, the Berger tables as printed (the first-named has white / moves
# first); with an odd count the highest number is the bye. 对阵顺序抽签决定: the lot gives the numbers.
BERGER = {
    4: ((1, 4, 2, 3), (4, 3, 1, 2), (2, 4, 3, 1)),
    6: ((1, 6, 2, 5, 3, 4), (6, 4, 5, 3, 1, 2), (2, 6, 3, 1, 4, 5), (6, 5, 1, 4, 2, 3), (3, 6, 4, 2, 5, 1)),
}


def berger_round(drawn: Sequence[int], number: int) -> tuple[set[tuple[int, int]], int | None]:
    """Round ``number`` of a group whose drawn order is ``drawn``: (first, second) meetings, bye."""
    size = len(drawn) + len(drawn) % 2
    flat = BERGER[size][number - 1]
    meetings: set[tuple[int, int]] = set()
    bye = None
    for a, b in zip(flat[::2], flat[1::2], strict=True):
        if max(a, b) > len(drawn):
            bye = drawn[min(a, b) - 1]
        else:
            meetings.add((drawn[a - 1], drawn[b - 1]))
    return meetings, bye


def round_robin_ranking(players: Sequence[int], matches: Sequence[MatchPlayed]) -> list[list[int]]:
    """Places of a round robin as blocks (a block of more than one is an unresolved tie).

    Match points 2/1/0 (seed 004 names none; the hlju-2016 chess/Go presets read them), then the
    mutual matches among the tied (again among those still tied), then the game-point difference.
    """

    def match_points(pool: Sequence[int], among: set[int] | None) -> dict[int, int]:
        points = dict.fromkeys(pool, 0)
        for m in matches:
            if among is not None and not {m.first, m.second} <= among:
                continue
            for player in (m.first, m.second):
                if player in points:
                    points[player] += 2 if m.winner == player else 1 if m.winner is None else 0
        return points

    difference = dict.fromkeys(players, 0)
    for m in matches:
        a, b = m.halves
        difference[m.first] += a - b
        difference[m.second] += b - a

    def split(block: list[int], key: Mapping[int, int]) -> list[list[int]]:
        values = sorted({key[p] for p in block}, reverse=True)
        return [sorted(p for p in block if key[p] == v) for v in values]

    def order(block: list[int], *, first_key: bool) -> list[list[int]]:
        if len(block) == 1:
            return [block]
        parts = split(block, match_points(block, None if first_key else set(block)))
        if len(parts) > 1:
            return [b for part in parts for b in order(part, first_key=False)]
        if first_key:
            return order(block, first_key=False)
        parts = split(block, difference)
        return parts if len(parts) > 1 else [block]

    return order(list(players), first_key=True)


def pairs_of(groups: Sequence[Sequence[int]]) -> set[frozenset[int]]:
    return {frozenset(p) for g in groups for p in itertools.combinations(g, 2)}


def expected_ranks(players: Sequence[int], matches: Sequence[MatchPlayed]) -> dict[int, int]:
    """Rank by player of a round robin among ``players`` (the tied share the block's top rank)."""
    ranks, above = {}, 0
    for block in round_robin_ranking(players, [m for m in matches if {m.first, m.second} <= set(players)]):
        for player in block:
            ranks[player] = above + 1
        above += len(block)
    return ranks


def knockout(
    slots: Sequence[int | None], winner_of: Mapping[frozenset[int], int]
) -> tuple[list[set[frozenset[int]]], list[int]]:
    """Each round's meetings of a bracket with a third-place match beside the final, and places
    1–4 (掼蛋 §1 最后角逐一、二、三、四名)."""
    alive: list[int | None] = list(slots)
    rounds: list[set[frozenset[int]]] = []
    semi_losers: list[int] = []
    while len(alive) > 2:
        rounds.append({frozenset((a, b)) for a, b in zip(alive[::2], alive[1::2], strict=True) if a and b})
        nxt: list[int | None] = []
        for a, b in zip(alive[::2], alive[1::2], strict=True):
            winner = a if b is None else b if a is None else winner_of[frozenset((a, b))]
            nxt.append(winner)
            if len(alive) == 4 and a and b:
                semi_losers.append(b if winner == a else a)
        alive = nxt
    a, b = alive
    assert a is not None and b is not None
    rounds.append({frozenset((a, b)), frozenset(semi_losers)})
    champion = winner_of[frozenset((a, b))]
    third = winner_of[frozenset(semi_losers)]
    return rounds, [champion, b if champion == a else a, third, next(p for p in semi_losers if p != third)]
