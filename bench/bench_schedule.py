"""Scheduling benchmarks: Swiss pairing of big fields, team rotation, a 1,024-entry bracket.

Run: .venv/bin/python bench/bench_schedule.py
The Swiss baseline is a greedy top-down pairing of the same field in the same run (each entry
takes the next one below it it may meet, preferring another branch): faster, but not optimal.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from domain.schedule.entrants import Entrant
from domain.schedule.knockout import bracket_rounds, draw_bracket
from domain.schedule.rotation import rotation_schedule
from domain.schedule.swiss import SwissStanding, pair_first_round, pair_round, standing_order

RUNS = 3


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def swiss_field(n: int, rounds: int, rng: random.Random) -> list[SwissStanding]:
    """A field after ``rounds`` rounds of optimal pairing with random results; ~3 entries a branch."""
    entrants = [Entrant(f"p{k:05d}", branch=f"b{k // 3}") for k in range(n)]
    state = {e.entry_id: [0, 0, set(), False, e.branch] for e in entrants}

    def field() -> list[SwissStanding]:
        return [SwissStanding(k, w, p, frozenset(o), b, br) for k, (w, p, o, b, br) in state.items()]

    for round_no in range(1, rounds + 1):
        result = (
            pair_first_round(entrants, "bench") if round_no == 1 else pair_round(field(), round_no=round_no)
        )
        for t in result.tables:
            a, b = state[t.ew_entry], state[t.ns_entry]
            a[2].add(t.ns_entry)
            b[2].add(t.ew_entry)
            rng.choice([a, b])[0] += 1
            a[1] += rng.randint(2, 15)
            b[1] += rng.randint(2, 15)
        if result.bye:
            state[result.bye][0] += 1
            state[result.bye][3] = True
    return field()


def greedy(standings: list[SwissStanding]) -> tuple[int, int]:
    """Top-down pairing; returns (same-branch meetings, Σ place difference²) or raises if stuck."""
    order = standing_order(standings)
    if len(order) % 2:
        bye = max(i for i, s in enumerate(order) if not s.had_bye)
        order = order[:bye] + order[bye + 1 :]
    free = list(range(len(order)))
    same = cost = 0
    while free:
        top = free.pop(0)
        allowed = (j for j in free if order[j].entry_id not in order[top].opponents)
        other = next((j for j in allowed if order[j].branch != order[top].branch), None)
        if other is None:
            other = next(j for j in free if order[j].entry_id not in order[top].opponents)
            same += 1
        free.remove(other)
        cost += (other - top) ** 2
    return same, cost


def bench_swiss(n: int, rounds: int) -> None:
    standings = swiss_field(n, rounds, random.Random(n))
    optimal_time, result = timed(lambda: pair_round(standings, round_no=rounds + 1))
    greedy_time, (greedy_same, greedy_cost) = timed(lambda: greedy(standings))
    report = result.report
    print(
        f"swiss {n:>6} entries after {rounds} rounds: optimal {optimal_time:6.3f} s "
        f"(cost {report.total_cost}, same-branch {len(report.same_branch)}); "
        f"greedy {greedy_time:6.3f} s (cost {greedy_cost}, same-branch {greedy_same}); "
        f"time ratio {optimal_time / greedy_time:5.1f}x, greedy costs {greedy_cost - report.total_cost:+d}"
    )


def bench_rotation() -> None:
    teams = [f"T{k:03d}" for k in range(200)]
    lineups = {
        (r, t): {p: (f"{t}-{2 * p - 1}", f"{t}-{2 * p}") for p in range(1, 6)}
        for r in range(1, 5)
        for t in teams
    }
    seconds, schedule = timed(lambda: rotation_schedule(teams[:100], teams[100:], rounds=4, lineups=lineups))
    tables = sum(len(m.tables) for r in schedule.rounds for m in r.matches)
    print(f"rotation 200 teams x 5 pairs, 4 rounds ({tables} tables): {seconds * 1000:7.1f} ms")
    seconds, schedule = timed(lambda: rotation_schedule(teams[:100], teams[100:], rounds=100))
    print(f"rotation 200 teams x 5 pairs, all 100 rounds:              {seconds * 1000:7.1f} ms")


def bench_bracket() -> None:
    rng = random.Random(1)
    entrants = [
        Entrant(f"e{k:04d}", branch=f"b{k // 4}", seed=k + 1 if k < 32 else None) for k in range(1024)
    ]
    seconds, draw = timed(lambda: draw_bracket(entrants, "bench"))
    print(f"bracket 1,024 entries, 32 seeded, branch quarters: draw {seconds * 1000:7.1f} ms")
    winners: dict[tuple[int, int], str] = {}
    for _ in range(10):
        for r in bracket_rounds(draw.slots, winners):
            for m in r.matches:
                if m.winner is None and m.top and m.bottom:
                    winners[(m.round_no, m.match_no)] = rng.choice([m.top, m.bottom])
    seconds, _ = timed(lambda: bracket_rounds(draw.slots, winners, third_place=True))
    print(f"bracket 1,024 entries, all 1,023 results filled in:        {seconds * 1000:7.1f} ms")


if __name__ == "__main__":
    bench_swiss(2_000, 6)
    bench_swiss(10_000, 4)
    bench_rotation()
    bench_bracket()
