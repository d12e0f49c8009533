"""Full standings recompute for a 1,000-pair, 6-round Swiss event (3,000 games).

The scoring service recomputes after every new deal, so one call must stay well under 200 ms.
Baseline, measured in the same run: sum each entry's points and sort once.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from domain.scoring.results import Entry, EventResults, GameResult
from domain.scoring.standings import compute_standings

ENTRIES = 1000
ROUNDS = 6
RUNS = 7
CHAIN = ["wins", "points", "sub_score", "opponents_score", "lot"]


def build_event(seed: int = 2023) -> EventResults:
    rng = random.Random(seed)
    ids = [f"pair-{k:04d}" for k in range(ENTRIES)]
    games = []
    for round_no in range(1, ROUNDS + 1):
        seating = ids[:]
        rng.shuffle(seating)
        for one, two in zip(seating[::2], seating[1::2], strict=True):
            points = (rng.randint(2, 15), rng.randint(2, 15))
            winner = one if points[0] > points[1] else two if points[1] > points[0] else None
            games.append(
                GameResult(
                    round_no=round_no,
                    side_one=one,
                    side_two=two,
                    points_one=points[0],
                    points_two=points[1],
                    winner=winner,
                    final=rng.random() > 0.01,
                )
            )
    lots = dict(zip(ids, rng.sample(range(1, ENTRIES + 1), ENTRIES), strict=True))
    entries = tuple(Entry(entry_id=entry_id, branch=f"branch {k % 40}") for k, entry_id in enumerate(ids))
    return EventResults(entries=entries, games=tuple(games), lots=lots)


def baseline(results: EventResults) -> list[tuple[str, int]]:
    totals = {entry.entry_id: 0 for entry in results.entries}
    for game in results.games:
        if game.final:
            totals[game.side_one] += game.points_one
            if game.side_two is not None:
                totals[game.side_two] += game.points_two
    return sorted(totals.items(), key=lambda item: -item[1])


def median_ms(run: Callable[[], object]) -> float:
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def main() -> None:
    results = build_event()
    full = median_ms(lambda: compute_standings(results, scheme="wins_then_points", chain=CHAIN))
    live = median_ms(
        lambda: compute_standings(results, scheme="wins_then_points", chain=CHAIN, provisional=True)
    )
    base = median_ms(lambda: baseline(results))
    print(f"event: {ENTRIES} entries x {ROUNDS} rounds = {len(results.games)} games; chain {CHAIN}")
    print(f"full recompute (final only), median of {RUNS}: {full:8.1f} ms  (target < 200 ms)")
    print(f"full recompute (provisional), median of {RUNS}: {live:8.1f} ms")
    print(f"baseline sum-and-sort, median of {RUNS}:       {base:8.1f} ms")
    print(f"ratio full / baseline: {full / base:.1f}x")


if __name__ == "__main__":
    main()
