"""Replaying a 60-deal Guandan game, as the scoring service does on every posted deal.

Baseline: a bare loop over the same 60 finish orders doing only the +3/+2/+1 arithmetic.
Run: .venv/bin/python bench/bench_levels.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from domain.rules.levels import DealResult, replay
from domain.rules.ruleset import preset

DEALS = 60
REPEATS = 2000
RULES = preset("nsi-2023")  # three failures at A send a side back to 2, so a game can run long


def sixty_deals_without_a_pass() -> list[DealResult]:
    rng = random.Random(2023)
    posted: list[DealResult] = []
    while len(posted) < DEALS:
        order = rng.sample("NESW", 4)
        candidate = [*posted, DealResult(tuple(order))]
        if not replay(candidate, RULES).over:
            posted = candidate
    return posted


def bare_arithmetic(orders: list[str]) -> list[int]:
    levels = {"NS": 2, "EW": 2}
    sides = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    for order in orders:
        side = sides[order[0]]
        up = 3 if sides[order[1]] == side else 2 if sides[order[2]] == side else 1
        levels[side] = min(14, levels[side] + up)
    return [levels["NS"], levels["EW"]]


def median_seconds(call: Callable[[], object]) -> float:
    samples = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    deals = sixty_deals_without_a_pass()
    orders = ["".join(deal.finish_order) for deal in deals]
    game = replay(deals, RULES)
    print(f"game: {len(game.deals)} deals, final levels NS {game.ns.level} EW {game.ew.level}")
    replay_s = median_seconds(lambda: replay(deals, RULES))
    bare_s = median_seconds(lambda: bare_arithmetic(orders))
    print(f"replay 60 deals:   median {replay_s * 1e6:8.1f} µs  ({1 / replay_s:10.0f} replays/s)")
    print(f"bare arithmetic:   median {bare_s * 1e6:8.1f} µs  ({1 / bare_s:10.0f} loops/s)")
    print(f"ratio replay / bare: {replay_s / bare_s:.1f}x")


if __name__ == "__main__":
    main()
