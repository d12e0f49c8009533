"""Team rotation, knockout, round robin and Gongzhu rounds, check-ins and swaps on a real database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from domain.errors import Conflict, Forbidden, RuleViolation
from domain.schedule import service
from domain.schedule.models import CheckInIn, FinishIn, GenerateIn, SwapIn
from tests.integration.schedule.rows import (
    REFEREE,
    T0,
    UNION,
    drawn,
    event_with_entries,
    post_final,
    published,
)

ROUND_TIMES = [
    {"number": n, "starts_at": f"2023-12-29T{a}:00+08:00", "ends_at": f"2023-12-29T{b}:00+08:00"}
    for n, (a, b) in enumerate([("13:30", "14:20"), ("14:30", "15:20"), ("15:30", "16:20")], start=1)
]


def _meetings(round_: service.RoundOut) -> set[frozenset[int]]:
    return {frozenset(e.entry_id for e in m.entries) for m in round_.matches if not m.is_bye}


def test_rotation_of_five_teams_never_repeats_a_meeting_and_rotates_the_bye(session: Session) -> None:
    event_id, _ = event_with_entries(
        session,
        format_="team_rotation",
        entry_kind="team",
        preset="nuist-2023",
        branches=list("ABCDE"),
        config={"rounds": 3, "pairs_per_match": 5, "round_times": ROUND_TIMES},
    )
    groups = drawn(session, event_id)["groups"]
    assert sorted(len(g) for g in groups.values()) == [2, 3]
    rounds = [
        service.generate_round(session, event_id, n, GenerateIn(), caller=UNION, now=T0) for n in (1, 2, 3)
    ]
    seen: set[frozenset[int]] = set()
    byes = []
    for round_ in rounds:
        assert not _meetings(round_) & seen
        seen |= _meetings(round_)
        (bye,) = [m for m in round_.matches if m.is_bye]
        byes.append(bye.entries[0].entry_id)
        # block b, pair k sits at table (b-1)·5 + k; the A team holds N–S
        for table in round_.tables:
            assert table.table_no == ((table.block or 0) - 1) * 5 + table.game_no
            assert table.seats["N"].entry_id in groups["A"]
            assert table.seats["E"].entry_id in groups["B"]
    assert len(set(byes)) == 3
    assert rounds[0].starts_at is not None
    assert rounds[0].starts_at.isoformat() == "2023-12-29T05:30:00+00:00"

    # a swap that recreates a round-1 meeting is refused; the round is unchanged
    first = rounds[1].matches[0]
    a, b = (e.entry_id for e in first.entries)
    (met,) = [next(iter(m - {a})) for m in _meetings(rounds[0]) if a in m]
    assert met != b
    with pytest.raises(RuleViolation) as refused:
        service.swap_entries(
            session, event_id, 2, SwapIn(entry_a=b, entry_b=met, reason="test"), caller=REFEREE, now=T0
        )
    assert refused.value.rule == "swap-rematch"
    unchanged = service.round_view(session, rounds[1].id, caller=REFEREE)
    assert _meetings(unchanged) == _meetings(rounds[1])
    # a swap of the two A teams of round 1 (each meeting the other's opponent) is kept and logged
    sides = [{e.side: e.entry_id for e in m.entries} for m in rounds[0].matches if not m.is_bye]
    (a1, b1), (a2, b2) = [(s["NS"], s["EW"]) for s in sides[:2]]
    swapped = service.swap_entries(
        session, event_id, 1, SwapIn(entry_a=a1, entry_b=a2, reason="两队互换"), caller=REFEREE, now=T0
    )
    assert {frozenset((a1, b2)), frozenset((a2, b1))} <= _meetings(swapped)
    assert swapped.report is not None
    assert swapped.report["swaps"][0]["entries"] == [a1, a2]
    assert swapped.report["swaps"][0]["by"] == "裁判长"
    swapped_seats = {t.seats["N"].entry_id: t.seats["E"].entry_id for t in swapped.tables}
    assert swapped_seats[a1] == b2


def test_check_ins_list_the_missing_at_the_start_and_at_the_late_limit(session: Session) -> None:
    event_id, ids = event_with_entries(
        session,
        format_="team_rotation",
        entry_kind="team",
        preset="nuist-2023",
        branches=list("ABCD"),
        config={"rounds": 2, "round_times": ROUND_TIMES[:2]},
    )
    drawn(session, event_id)
    round_1 = published(session, event_id, 1)
    start = round_1.starts_at
    assert start is not None
    service.check_in(
        session, round_1.id, CheckInIn(entry_ids=ids[:2]), caller=UNION, now=start - timedelta(minutes=30)
    )
    service.check_in(
        session, round_1.id, CheckInIn(entry_ids=[ids[2]]), caller=REFEREE, now=start + timedelta(minutes=3)
    )
    # checking in again keeps the first time
    service.check_in(
        session, round_1.id, CheckInIn(entry_ids=[ids[0]]), caller=REFEREE, now=start + timedelta(minutes=9)
    )
    at_start = service.missing(session, round_1.id, at="start")
    assert [m.entry_id for m in at_start.missing] == [ids[2], ids[3]]
    late = service.missing(session, round_1.id, at="late-limit")
    # seed 000 附件 九.1: 迟到超过5分钟的，作弃权处理
    assert late.late_forfeit_minutes == 5
    assert late.moment == start + timedelta(minutes=5)
    assert [m.entry_id for m in late.missing] == [ids[3]]

    started = service.start_round(session, event_id, 1, caller=REFEREE, now=start)
    assert started.state == "started"
    end = start + timedelta(minutes=50)
    with pytest.raises(Conflict) as open_results:
        service.finish_round(session, event_id, 1, FinishIn(), caller=REFEREE, now=end)
    assert open_results.value.rule == "results-not-final"  # seed 000 §九.4: both sides confirm first
    assert len(open_results.value.extra["games_not_final"]) == len(started.tables)
    with pytest.raises(Forbidden):
        service.finish_round(session, event_id, 1, FinishIn(override=True), caller=REFEREE, now=end)
    finished = service.finish_round(
        session,
        event_id,
        1,
        FinishIn(override=True, reason="sheets signed on paper"),
        caller=REFEREE,
        now=end,
    )
    assert finished.state == "finished"
    assert finished.report is not None
    assert finished.report["finish_override"]["reason"] == "sheets signed on paper"
    assert service.events_service.get_event(session, event_id).state == "running"


def test_knockout_final_and_third_place_follow_the_semi_final_results(session: Session) -> None:
    event_id, _ = event_with_entries(
        session,
        format_="knockout",
        entry_kind="pair",
        preset="hlju-2016",
        branches=list("ABCD"),
        config={"third_place_match": True},
    )
    drawn(session, event_id)
    semis = published(session, event_id, 1)
    assert len(semis.matches) == 2
    # the N–S (top) side wins both semi-finals
    for table in semis.tables:
        post_final(session, table.game_id, event_id=event_id, points={"NS": 1, "EW": 0}, winner="NS")
    top = [m.entries[0].entry_id for m in semis.matches]
    bottom = [m.entries[1].entry_id for m in semis.matches]
    finals = service.generate_round(session, event_id, 2, GenerateIn(), caller=UNION, now=T0)
    assert [(m.bracket_slot, [e.entry_id for e in m.entries]) for m in finals.matches] == [
        (1, top),
        (2, bottom),
    ]
    with pytest.raises(RuleViolation):
        service.swap_entries(
            session,
            event_id,
            2,
            SwapIn(entry_a=top[0], entry_b=bottom[0], reason="swap test"),
            caller=REFEREE,
            now=T0,
        )


def test_round_robin_meetings_are_best_of_three_with_alternating_first_moves(session: Session) -> None:
    event_id, ids = event_with_entries(
        session,
        format_="round_robin",
        entry_kind="individual",
        preset="hlju-2016-xiangqi",
        discipline="xiangqi",
        branches=list("ABCDE"),
        config={"groups": ["A"]},
    )
    numbers = drawn(session, event_id)["groups"]["A"]
    rounds = [
        service.generate_round(session, event_id, n, GenerateIn(), caller=UNION, now=T0) for n in range(1, 6)
    ]
    met = [m for r in rounds for m in _meetings(r)]
    # 5 players: every pair meets exactly once over the 5 Berger rounds, one bye each round
    assert sorted(sorted(m) for m in met) == sorted(
        sorted((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :]
    )
    assert sorted(m.entries[0].entry_id for r in rounds for m in r.matches if m.is_bye) == sorted(numbers)
    table = rounds[0].tables[0]
    assert table.first_movers == ["first", "second", "first"]
    assert set(table.seats) == {"first", "second"}
    with pytest.raises(RuleViolation):
        service.generate_round(session, event_id, 6, GenerateIn(), caller=UNION, now=T0)


def test_gongzhu_top_two_of_each_table_and_the_bye_go_on(session: Session) -> None:
    event_id, _ = event_with_entries(
        session,
        format_="knockout",
        entry_kind="individual",
        preset="hlju-2016-gongzhu",
        discipline="gongzhu",
        branches=list("AABBCCDDE"),
    )
    drawn(session, event_id)
    round_1 = published(session, event_id, 1)
    assert len(round_1.tables) == 2
    (bye,) = [m.entries[0].entry_id for m in round_1.matches if m.is_bye]
    through = {bye}
    for table in round_1.tables:
        # N first, E second: they go on
        post_final(
            session,
            table.game_id,
            event_id=event_id,
            points={"N": 300, "E": 100, "S": -200, "W": -1000},
            winner=None,
        )
        through |= {table.seats["N"].entry_id, table.seats["E"].entry_id}
    round_2 = service.generate_round(session, event_id, 2, GenerateIn(), caller=UNION, now=T0)
    playing = {s.entry_id for t in round_2.tables for s in t.seats.values()}
    byes = {m.entries[0].entry_id for m in round_2.matches if m.is_bye}
    assert playing | byes == through
    assert len(playing) == 4
    assert bye not in byes  # a second bye goes to someone who has had none
