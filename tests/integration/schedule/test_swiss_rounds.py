"""Seed 001's Swiss rounds on a real database: round 2 from the final results of round 1."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from domain.errors import Conflict, Forbidden
from domain.schedule import service
from domain.schedule.models import GenerateIn, SwapIn
from tests.integration.schedule.rows import (
    REFEREE,
    T0,
    UNION,
    drawn,
    event_with_entries,
    post_final,
    published,
)


def test_round_two_pairs_by_wins_then_points_after_every_result_is_final(session: Session) -> None:
    event_id, ids = event_with_entries(
        session,
        format_="swiss",
        entry_kind="pair",
        preset="nsi-2023",
        branches=list("ABCDEF"),
        config={"rounds": 3},
    )
    result = drawn(session, event_id)
    round_1 = published(session, event_id, 1)
    # seed 001 补充说明 4: the first-named sits E–W; round 1 is the drawn tables
    assert [(m.entries[0].entry_id, m.entries[0].side, m.entries[1].side) for m in round_1.matches] == [
        (t["ew"], "EW", "NS") for t in result["tables"]
    ]
    with pytest.raises(Conflict) as waiting:
        service.generate_round(session, event_id, 2, GenerateIn(), caller=UNION, now=T0)
    assert waiting.value.rule == "results-not-final"
    with pytest.raises(Forbidden):
        service.generate_round(
            session, event_id, 2, GenerateIn(override=True, reason="late table"), caller=UNION, now=T0
        )

    # the E–W pair of table k wins with 15 - k points; its opponent scores 11 - k
    winners, losers = [], []
    for table in round_1.tables:
        k = table.table_no or 0
        post_final(
            session, table.game_id, event_id=event_id, points={"EW": 15 - k, "NS": 11 - k}, winner="EW"
        )
        winners.append(table.seats["E"].entry_id)
        losers.append(table.seats["N"].entry_id)
    round_2 = service.generate_round(session, event_id, 2, GenerateIn(), caller=UNION, now=T0)
    pairs = [{e.entry_id for e in m.entries} for m in round_2.matches]
    # standing: W14, W13, W12, L10, L9, L8 — neighbours pair, none of them met in round 1
    assert pairs == [{winners[0], winners[1]}, {winners[2], losers[0]}, {losers[1], losers[2]}]
    assert round_2.matches[0].entries[0].entry_id == winners[0]
    assert round_2.report is not None
    assert round_2.report["override"] is None
    assert round_2.report["same_branch"] == []

    service.publish_round(session, event_id, 2, caller=UNION, now=T0)
    for attempt in (
        lambda: service.generate_round(session, event_id, 2, GenerateIn(), caller=REFEREE, now=T0),
        lambda: service.swap_entries(
            session,
            event_id,
            2,
            SwapIn(entry_a=ids[0], entry_b=ids[1], reason="too late"),
            caller=REFEREE,
            now=T0,
        ),
    ):
        with pytest.raises(Conflict) as refused:
            attempt()
        assert refused.value.rule == "pairing-published"


def test_a_referee_override_is_logged_and_same_branch_meetings_are_avoided(session: Session) -> None:
    # two pairs each of branches X, Y, Z: round 2 keeps them apart while the field allows it
    event_id, _ = event_with_entries(
        session,
        format_="swiss",
        entry_kind="pair",
        preset="nsi-2023",
        branches=list("XXYYZZ"),
        config={"rounds": 3},
    )
    drawn(session, event_id)
    round_1 = published(session, event_id, 1)
    post_final(session, round_1.tables[0].game_id, event_id=event_id, points={"EW": 14, "NS": 3}, winner="EW")
    round_2 = service.generate_round(
        session,
        event_id,
        2,
        GenerateIn(override=True, reason="table 2 disputes a deal"),
        caller=REFEREE,
        now=T0,
    )
    assert round_2.report is not None
    override = round_2.report["override"]
    assert override["by"] == "裁判长"
    assert override["reason"] == "table 2 disputes a deal"
    assert override["games_not_final"] == [t.game_id for t in round_1.tables[1:]]
    branch = {m.entries[0].entry_id: m.entries[0].branch for m in round_1.matches}
    branch.update({m.entries[1].entry_id: m.entries[1].branch for m in round_1.matches})
    met = {frozenset(e.entry_id for e in m.entries) for m in round_1.matches}
    for match in round_2.matches:
        a, b = (e.entry_id for e in match.entries)
        assert frozenset((a, b)) not in met
        assert branch[a] != branch[b]
