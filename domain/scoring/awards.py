"""Awards: the top N of a standings table, or prize tiers by the knockout round won or lost."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from domain.errors import InvalidInput, RuleViolation
from domain.scoring.results import Entry, EventResults, PrizeTier, validate_results
from domain.scoring.standings import GroupStandings
from domain.scoring.tiebreaks import tier_index


@dataclass(frozen=True, slots=True, kw_only=True)
class Award:
    prize: str
    entry: Entry
    group: str | None
    rank: int  # the standing rank for a top-N award; for a tier prize, 1 + the entries of better tiers


def top_n_awards(standings: GroupStandings, *, n: int, prize: str) -> tuple[Award, ...]:
    """Every row ranked n or better (seed 000 §七, seed 001 §三: top 8; seed 002 §三: per group).

    Entries sharing rank n all receive the prize, so a tie at the cut can give more than n awards.
    """
    if n < 1:
        raise InvalidInput(f"top {n}: at least one place must be awarded", rule="award-count", field="n")
    live = sum(row.provisional_games for row in standings.rows)
    if live:
        raise RuleViolation(
            f"group {standings.group}: {live} game results are still provisional; awards need final results",
            rule="awards-provisional",
        )
    return tuple(
        Award(prize=prize, entry=row.entry, group=standings.group, rank=row.rank)
        for row in standings.rows
        if row.rank <= n
    )


def tier_awards(results: EventResults, tiers: Sequence[PrizeTier]) -> tuple[Award, ...]:
    """Prizes by the knockout round each entry won or lost, tier by tier, group by group.

    Seed 003 §十: round-3 winners first prize, round-3 losers second, round-2 losers third; seed 004
    掼蛋 §1: the final's winner and loser, then the third-place match's. An entry takes the first
    tier it meets only; live games never count. A tier's entries share the rank after every entry
    of the better tiers of their group.
    """
    validate_results(results)
    if not tiers:
        raise InvalidInput("no prize tiers given", rule="award-tiers-empty", field="tiers")
    final = [game for game in results.games if game.final]
    placed = tier_index(final, tiers)
    ordered = sorted(
        (entry for entry in results.entries if entry.entry_id in placed),
        key=lambda entry: (
            entry.group is not None,
            entry.group or "",
            placed[entry.entry_id],
            entry.entry_id,
        ),
    )
    awards = []
    for group, members in groupby(ordered, key=lambda entry: entry.group):
        in_group = list(members)
        per_tier = Counter(placed[entry.entry_id] for entry in in_group)
        for entry in in_group:
            tier = placed[entry.entry_id]
            rank = 1 + sum(count for index, count in per_tier.items() if index < tier)
            awards.append(Award(prize=tiers[tier].name, entry=entry, group=group, rank=rank))
    return tuple(awards)
