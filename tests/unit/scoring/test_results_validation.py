"""Results that cannot be ranked are refused with the rule they break."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.errors import Conflict, DomainError, InvalidInput
from domain.scoring.results import Entry, EventResults, GameResult, validate_results

ENTRIES = (
    Entry(entry_id="A", group="X"),
    Entry(entry_id="B", group="X"),
    Entry(entry_id="C", group="X"),
    Entry(entry_id="D", group="Y"),
)
GOOD = GameResult(round_no=1, side_one="A", side_two="B", points_one=10, points_two=7, winner="A")


def test_a_plain_game_passes() -> None:
    validate_results(
        EventResults(entries=ENTRIES, games=(GOOD,), lots={"A": 1, "D": 1}, bonus_counts={"A": 3})
    )


@pytest.mark.parametrize(
    ("games", "error", "rule", "field"),
    [
        ((replace(GOOD, side_two="Z"),), InvalidInput, "entry-unknown", "games"),
        ((replace(GOOD, side_two="A"),), InvalidInput, "game-sides", "side_two"),
        ((replace(GOOD, winner="C"),), InvalidInput, "game-winner", "winner"),
        ((replace(GOOD, level_one=15),), InvalidInput, "level-range", "level_one"),
        ((replace(GOOD, level_two=1),), InvalidInput, "level-range", "level_two"),
        ((replace(GOOD, round_no=0),), InvalidInput, "round-number", "round_no"),
        ((replace(GOOD, pair_no=0),), InvalidInput, "pair-number", "pair_no"),
        ((replace(GOOD, side_two="D", winner=None),), InvalidInput, "game-group-mismatch", "group"),
        ((replace(GOOD, group="Y"),), InvalidInput, "game-group-mismatch", "group"),
        ((GOOD, replace(GOOD, side_one="B", side_two="A")), Conflict, "game-duplicate", "games"),
        ((GOOD, replace(GOOD, side_two="C", winner=None)), Conflict, "game-double-booked", "games"),
    ],
)
def test_bad_games_are_refused(
    games: tuple[GameResult, ...], error: type[DomainError], rule: str, field: str
) -> None:
    with pytest.raises(error) as caught:
        validate_results(EventResults(entries=ENTRIES, games=games))
    assert (caught.value.rule, caught.value.field) == (rule, field)


def test_five_pair_games_of_one_team_match_are_not_duplicates() -> None:
    games = tuple(replace(GOOD, pair_no=k) for k in range(1, 6))
    validate_results(EventResults(entries=ENTRIES, games=games))


@pytest.mark.parametrize(
    ("results", "rule", "field"),
    [
        (EventResults(entries=(*ENTRIES, ENTRIES[0]), games=()), "entry-duplicate", "entries"),
        (EventResults(entries=ENTRIES, games=(), lots={"A": 1, "B": 1}), "lot-duplicate", "lots"),
        (EventResults(entries=ENTRIES, games=(), lots={"Z": 1}), "entry-unknown", "lots"),
        (
            EventResults(entries=ENTRIES, games=(), bonus_counts={"A": -1}),
            "bonus-count-negative",
            "bonus_counts",
        ),
    ],
)
def test_bad_entries_lots_and_bonuses_are_refused(results: EventResults, rule: str, field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        validate_results(results)
    assert (caught.value.rule, caught.value.field) == (rule, field)
