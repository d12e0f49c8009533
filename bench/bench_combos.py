"""Guandan combos: classify and compare random plays of 1-10 cards with up to two wildcards.

Run: .venv/bin/python bench/bench_combos.py
Prints the median per call (µs) and calls per second for parsing the cards (the baseline),
classifying them, and comparing two plays, with each figure's ratio to the baseline.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Callable

from domain.rules.cards import DECK, Card, Suit, card_of, format_cards, parse_cards
from domain.rules.combos import classify, compare_plays

PLAYS = 2000
REPEAT = 20  # calls per play per timing, so the clock's own cost stays small


def shaped_play(rng: random.Random, level: int) -> list[Card]:
    """Cards of a few neighbouring ranks, as real plays are, with 0-2 wildcards."""
    width = rng.choice([1, 1, 2, 3, 5])
    copies = rng.randint(1, 8) if width == 1 else rng.randint(1, 3)
    start = rng.randint(1, 15 - width)
    wildcard = card_of(level, Suit.HEARTS)
    cards = []
    for position in range(start, start + width):
        rank = 14 if position == 1 else position
        both_decks = [card_of(rank, suit) for suit in Suit if card_of(rank, suit) != wildcard] * 2
        cards += rng.sample(both_decks, min(copies, len(both_decks)))
    wild = rng.choice([0, 0, 1, 2])
    return cards[: 10 - wild] + [wildcard] * wild


def random_play(rng: random.Random, level: int) -> list[Card]:
    pool = [card for card in DECK * 2 if card != card_of(level, Suit.HEARTS)]
    wild = rng.choice([0, 0, 1, 2])
    size = rng.randint(max(1, wild), 10)
    return rng.sample(pool, size - wild) + [card_of(level, Suit.HEARTS)] * wild


def per_call_us(work: list[Callable[[], object]]) -> list[float]:
    timings = []
    for call in work:
        start = time.perf_counter_ns()
        for _ in range(REPEAT):
            call()
        timings.append((time.perf_counter_ns() - start) / REPEAT / 1000)
    return timings


def report(name: str, timings: list[float], baseline: float | None) -> float:
    median = statistics.median(timings)
    p90 = statistics.quantiles(timings, n=10)[-1]
    ratio = f"  {median / baseline:5.1f}x baseline" if baseline else ""
    print(f"{name:<34} median {median:7.2f} µs  p90 {p90:7.2f} µs  {1e6 / median:>10,.0f} /s{ratio}")
    return median


def main() -> None:
    rng = random.Random(20240601)
    levels = [rng.randint(2, 14) for _ in range(PLAYS)]
    plays = [(shaped_play if index % 2 else random_play)(rng, level) for index, level in enumerate(levels)]
    texts = [format_cards(play) for play in plays]
    readable = sum(bool(classify(play, level)) for play, level in zip(plays, levels, strict=True))
    print(f"{PLAYS} plays of 1-10 cards, {readable} of them a combo; {REPEAT} calls per play per timing")

    baseline = report(
        "parse_cards (baseline)", per_call_us([lambda t=t: parse_cards(t) for t in texts]), None
    )
    report(
        "sorted by rank (second baseline)",
        per_call_us([lambda p=p: sorted(p, key=lambda card: card.rank) for p in plays]),
        baseline,
    )
    report(
        "classify",
        per_call_us([lambda p=p, lv=lv: classify(p, lv) for p, lv in zip(plays, levels, strict=True)]),
        baseline,
    )
    shaped = [(play, level) for play, level in zip(plays, levels, strict=True) if classify(play, level)]
    report(
        "classify (combos only)",
        per_call_us([lambda p=p, lv=lv: classify(p, lv) for p, lv in shaped]),
        baseline,
    )
    pairs = [(a, b, la) for (a, la), (b, _) in itertools.pairwise(shaped) if classify(b, la)]
    report(
        "compare_plays (two combos)",
        per_call_us([lambda a=a, b=b, lv=lv: compare_plays(a, b, level=lv) for a, b, lv in pairs]),
        baseline,
    )


if __name__ == "__main__":
    main()
