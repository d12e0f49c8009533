"""Laws every standings table keeps, on random Swiss-like events."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.scoring.results import Entry, EventResults, GameResult
from domain.scoring.standings import GroupStandings, compute_standings

CHAIN = ["sub_score", "head_to_head", "opponents_score", "wins", "lot"]


@st.composite
def events(draw: st.DrawFn) -> EventResults:
    size = draw(st.integers(min_value=2, max_value=12))
    ids = [f"e{k:02d}" for k in range(size)]
    games = []
    for round_no in range(1, draw(st.integers(min_value=1, max_value=4)) + 1):
        seating = draw(st.permutations(ids))
        for one, two in zip(seating[::2], seating[1::2], strict=False):
            points = draw(st.tuples(st.integers(2, 15), st.integers(2, 15)))
            winner = one if points[0] > points[1] else two if points[1] > points[0] else None
            final = draw(st.booleans())
            games.append(
                GameResult(
                    round_no=round_no,
                    side_one=one,
                    side_two=two,
                    points_one=points[0],
                    points_two=points[1],
                    winner=winner,
                    final=final,
                )
            )
        if size % 2:
            games.append(
                GameResult(
                    round_no=round_no, side_one=seating[-1], side_two=None, points_one=8, winner=seating[-1]
                )
            )
    lot_order = draw(st.permutations(ids))
    drawn = draw(st.integers(min_value=0, max_value=size))
    return EventResults(
        entries=tuple(Entry(entry_id=entry_id) for entry_id in ids),
        games=tuple(games),
        lots={entry_id: lot for lot, entry_id in enumerate(lot_order[:drawn], start=1)},
    )


def rank_table(results: EventResults) -> GroupStandings:
    (table,) = compute_standings(results, scheme="level_points", chain=CHAIN, provisional=True)
    return table


@settings(max_examples=60, deadline=None)
@given(events())
def test_ranking_is_a_permutation_consistent_with_points(results: EventResults) -> None:
    table = rank_table(results)
    assert sorted(row.entry.entry_id for row in table.rows) == sorted(e.entry_id for e in results.entries)
    # points counted independently of the code under test
    expected = {entry.entry_id: 0 for entry in results.entries}
    for game in results.games:
        expected[game.side_one] += game.points_one
        if game.side_two is not None:
            expected[game.side_two] += game.points_two
    assert {row.entry.entry_id: row.points for row in table.rows} == expected
    for above, below in zip(table.rows, table.rows[1:], strict=False):
        assert above.points >= below.points
        if above.points > below.points:
            assert above.rank < below.rank
    # competition ranking: a row's rank is one more than the number of rows ranked strictly above it
    for row in table.rows:
        assert row.rank == 1 + sum(1 for other in table.rows if other.rank < row.rank)


@settings(max_examples=60, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_shuffling_the_results_never_changes_the_standings(results: EventResults, random: object) -> None:
    games = list(results.games)
    random.shuffle(games)  # type: ignore[attr-defined]
    entries = list(results.entries)
    random.shuffle(entries)  # type: ignore[attr-defined]
    shuffled = EventResults(entries=tuple(entries), games=tuple(games), lots=results.lots)
    assert rank_table(shuffled) == rank_table(results)


@settings(max_examples=40, deadline=None)
@given(events())
def test_a_full_draw_of_lots_leaves_no_shared_rank(results: EventResults) -> None:
    every_lot = {entry.entry_id: k for k, entry in enumerate(results.entries, start=1)}
    table = rank_table(EventResults(entries=results.entries, games=results.games, lots=every_lot))
    assert [row.rank for row in table.rows] == list(range(1, len(results.entries) + 1))


@settings(max_examples=40, deadline=None)
@given(events())
def test_only_final_games_count_by_default(results: EventResults) -> None:
    (settled,) = compute_standings(results, scheme="level_points", chain=CHAIN)
    final_only = EventResults(
        entries=results.entries, games=tuple(g for g in results.games if g.final), lots=results.lots
    )
    assert settled.rows == rank_table(final_only).rows
    assert all(row.provisional_games == 0 for row in settled.rows)
