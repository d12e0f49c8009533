"""The functions the schedule and scoring areas call, on a real database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from domain.access.models import Caller, Role
from domain.errors import Conflict
from domain.events import directory
from domain.events import service as events_service
from domain.events.models import EventState, QuotaPolicy
from domain.events.quota import quota_for
from domain.events.schemas import CompetitionIn, DirectoryIn, EntryIn, EventIn, LineupIn
from domain.rules.ruleset import Discipline
from storage.tables import Event

UNION = Caller(key_id=1, name="union system", role=Role.union)
NOW = datetime(2023, 12, 14, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai, inside seed 000's window


def _team_event(session: Session) -> tuple[int, list[int]]:
    """Seed 000: two confirmed teams of 10; one player of team 1 is a dean."""
    directory.sync_directory(
        session,
        DirectoryIn.model_validate(
            {
                "branches": [{"code": c, "name": f"{c} 分工会", "member_count": 40} for c in ("CS", "MATH")],
                "members": [
                    {
                        "staff_id": f"{c}{n}",
                        "name": f"{c}{n}",
                        "branch_code": c,
                        "is_dean_or_secretary": (c, n) == ("CS", 3),
                    }
                    for c in ("CS", "MATH")
                    for n in range(10)
                ],
            }
        ),
        caller=UNION,
        now=NOW,
    )
    competition = events_service.create_competition(
        session, CompetitionIn(name="迎新智力竞赛"), caller=UNION, now=NOW
    )
    event = events_service.create_event(
        session,
        competition.id,
        EventIn(
            name="掼蛋团体赛",
            discipline=Discipline.GUANDAN,
            entry_kind="team",
            format="team_rotation",
            preset="nuist-2023",
            config={"rounds": 4, "dean_bonus_per_member": 1, "dean_bonus_cap": 2},
            registration_opens_at=NOW - timedelta(days=1),
            registration_closes_at=NOW + timedelta(days=8),
        ),
        caller=UNION,
        now=NOW,
    )
    row = events_service.get_event(session, event.id)
    events_service.transition(session, row, EventState.REGISTRATION_OPEN, actor="test", now=NOW)
    entry_ids = []
    for code in ("CS", "MATH"):
        entry = events_service.create_entry(
            session,
            event.id,
            EntryIn.model_validate(
                {
                    "branch_code": code,
                    "leader": {"staff_id": f"{code}0", "name": f"{code}0", "phone": "13800000000"},
                    "roster": [{"staff_id": f"{code}{n}"} for n in range(10)],
                }
            ),
            caller=UNION,
            now=NOW,
        )
        events_service.submit_entry(session, entry.id, caller=UNION, now=NOW)
        events_service.confirm_entry(session, entry.id, caller=UNION, now=NOW)
        entry_ids.append(entry.id)
    return event.id, entry_ids


def test_confirmed_entries_carry_branch_and_roster(session: Session) -> None:
    event_id, entry_ids = _team_event(session)
    entries = events_service.confirmed_entries(session, event_id)
    assert [(e.entry_id, e.branch_code) for e in entries] == [(entry_ids[0], "CS"), (entry_ids[1], "MATH")]
    assert [m.name for m in entries[0].members] == [f"CS{n}" for n in range(10)]
    assert [m.is_leader for m in entries[0].members][:2] == [True, False]
    event = events_service.get_event(session, event_id)
    assert events_service.event_rules(event).forfeit_loser_points == 2  # seed 000 §九.3
    config = events_service.event_config(event)
    assert (config.roster_min, config.roster_max, config.pairs_per_match) == (10, 15, 5)


def _results_version(session: Session, event_id: int) -> int:
    return session.exec(select(Event.results_version).where(Event.id == event_id)).one()


def test_lineups_lock_and_count_deans(session: Session) -> None:
    event_id, (cs, _) = _team_event(session)
    event = events_service.get_event(session, event_id)
    events_service.transition(session, event, EventState.REGISTRATION_CLOSED, actor="test", now=NOW)
    events_service.transition(session, event, EventState.DRAWN, actor="schedule", now=NOW)
    pairs = LineupIn.model_validate(
        {"pairs": [{"pair_no": k, "players": [f"CS{2 * k - 2}", f"CS{2 * k - 1}"]} for k in range(1, 6)]}
    )
    assert events_service.set_lineup(session, cs, 1, pairs, caller=UNION, now=NOW)
    # the standings' dean bonus reads lineups: each change moves the results version (ETags, cache)
    assert _results_version(session, event_id) == 1
    events_service.set_lineup(session, cs, 1, pairs, caller=UNION, now=NOW)
    assert _results_version(session, event_id) == 2
    lineup = events_service.lineup_for(session, entry_id=cs, round_number=1)
    assert lineup is not None and not lineup.locked
    assert [p.pair_no for p in lineup.pairs] == [1, 2, 3, 4, 5]
    assert lineup.deans_playing == 1  # CS3, in pair 2
    assert events_service.lineup_for(session, entry_id=cs, round_number=2) is None
    assert events_service.lock_lineups(session, event_id=event_id, round_number=1, now=NOW) == 1
    locked = events_service.lineup_for(session, entry_id=cs, round_number=1)
    assert locked is not None and locked.locked


def test_transitions_run_in_order_and_results_version_bumps(session: Session) -> None:
    event_id, _ = _team_event(session)
    event = events_service.get_event(session, event_id)
    with pytest.raises(Conflict) as refused:
        events_service.transition(session, event, EventState.RUNNING, actor="schedule", now=NOW)
    assert refused.value.rule == "event-transition"
    for state in (EventState.REGISTRATION_CLOSED, EventState.DRAWN, EventState.RUNNING):
        events_service.transition(session, event, state, actor="test", now=NOW)
    # nothing was played: the event cannot end before its last round
    with pytest.raises(Conflict) as early:
        events_service.transition(session, event, EventState.FINISHED, actor="test", now=NOW)
    assert early.value.rule == "play-not-over"
    assert event.state == "running"
    assert events_service.bump_results_version(session, event_id) == 1
    assert events_service.bump_results_version(session, event_id) == 2


def test_quota_tiers_have_configurable_edges() -> None:
    # seed 001 §一 read as <30 → 2, 30–50 → 3, >50 → 4; moving the edge moves the answer.
    tiers = [{"up_to_members": 29, "entries": 2}, {"up_to_members": 50, "entries": 3}, {"entries": 4}]
    policy = QuotaPolicy.model_validate({"kind": "tiered", "tiers": tiers})
    assert [quota_for(policy, branch_code="X", member_count=n).entries for n in (0, 29, 30, 50, 51)] == [
        2,
        2,
        3,
        3,
        4,
    ]  # type: ignore[union-attr]
    inclusive = QuotaPolicy.model_validate(
        {"kind": "tiered", "tiers": [{**tiers[0], "up_to_members": 30}, *tiers[1:]]}
    )
    assert quota_for(inclusive, branch_code="X", member_count=30).entries == 2  # type: ignore[union-attr]
    # seed 003 §五.1: six named branches field 3 pairs, the other seven 2
    table = QuotaPolicy.model_validate({"kind": "table", "table": {"XZ": 3, "DQ": 3}, "default": 2})
    assert quota_for(table, branch_code="XZ", member_count=0).entries == 3  # type: ignore[union-attr]
    assert quota_for(table, branch_code="TY", member_count=0).entries == 2  # type: ignore[union-attr]
