"""The seeds' scoring examples through the scoring service on a real database.

Expected figures are worked out by hand from the seeds' rules (levels: partner second +3,
third +2, last +1).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from domain.errors import Conflict, RuleViolation
from domain.rules.levels import Seat, Side
from domain.scoring import service
from domain.scoring.models import ConfirmationIn, DealIn, ForfeitIn, ForfeitReason, TimeUpIn, TributeIn
from storage.tables import EntryMember, Lineup, LineupPair, Member
from tests.integration.scoring.scoring_rows import (
    T0,
    make_entries,
    make_event,
    make_game,
    make_round,
    one_game,
)

REFEREE = service.Actor(ref="key:1", referee=True)
NOW = T0 + timedelta(minutes=30)


def play(session: Session, game_id: int, *orders: str, start: int = 1) -> None:
    for number, order in enumerate(orders, start=start):
        service.post_deal(
            session,
            game_id,
            DealIn(deal_no=number, finish_order=[Seat(s) for s in order]),
            actor=REFEREE,
            now=NOW,
        )


def finish(session: Session, game_id: int) -> None:
    for side in Side:
        service.confirm(session, game_id, ConfirmationIn(side=side), actor=REFEREE, now=NOW)


def test_seed_002_equal_levels_go_to_the_side_that_reached_first(session: Session) -> None:
    _, _, game, _ = one_game(session, preset="ahut-2017")
    assert game.id is not None
    play(session, game.id, "NESW", "ENWS")  # N–S to 4 in deal 1, E–W to 4 in deal 2
    out = service.time_up(session, game.id, TimeUpIn(), actor=REFEREE, now=NOW)
    assert (out.ns.level, out.ew.level) == (4, 4)
    assert (out.state, out.winner, out.reason) == ("ended", Side.NS, "first-to-reach")


def test_seed_003_equal_levels_go_to_the_declarer(session: Session) -> None:
    _, _, game, _ = one_game(session, preset="institute-2021")
    assert game.id is not None
    play(session, game.id, "NESW", "ENWS")
    out = service.time_up(session, game.id, TimeUpIn(), actor=REFEREE, now=NOW)
    assert (out.winner, out.reason, out.declarer) == (Side.EW, "declarer", Side.EW)


def test_seed_004_equal_levels_play_one_extra_deal(session: Session) -> None:
    _, _, game, _ = one_game(session, preset="hlju-2016")
    assert game.id is not None
    play(session, game.id, "NESW", "ENWS")
    pending = service.time_up(session, game.id, TimeUpIn(), actor=REFEREE, now=NOW)
    assert (pending.state, pending.status, pending.winner) == ("in_play", "extra_deal_required", None)
    play(session, game.id, "WENS", start=3)  # E–W double-down: +3 from 4
    out = service.get_game(session, game.id)
    assert (out.state, out.winner, out.reason, out.ew.level) == ("ended", Side.EW, "extra-deal", 7)
    with pytest.raises(Conflict) as refused:
        play(session, game.id, "NSEW", start=4)
    assert refused.value.rule == "deal-after-game-over"


def test_passing_a_ends_the_game_on_the_spot(session: Session) -> None:
    _, _, game, _ = one_game(session, preset="nuist-2023")
    assert game.id is not None
    # N–S: 2 → 5 → 8 → 11 → 14 (A), then passes A with N first and S second
    play(session, game.id, "NSEW", "NSEW", "NSEW", "NSEW", "NSEW")
    out = service.get_game(session, game.id)
    assert (out.state, out.winner, out.reason, out.ns.points, out.ew.points) == (
        "ended",
        Side.NS,
        "passed-a",
        15,
        2,
    )
    with pytest.raises(Conflict):
        play(session, game.id, "EWNS", start=6)


def test_seed_001_forfeit_fourteen_to_nothing_and_wins_before_points(session: Session) -> None:
    event = make_event(session, preset="nsi-2023")
    a, b, c, d, e, f = make_entries(session, event, ["A", "B", "C", "D", "E", "F"])
    round_ = make_round(session, event, 1)
    (ab,) = make_game(session, round_, a, b, match_no=1)
    (cd,) = make_game(session, round_, c, d, match_no=2)
    (ef,) = make_game(session, round_, e, f, match_no=3)
    assert ab.id and cd.id and ef.id
    play(session, ab.id, "NEWS")  # N first, S last: +1, A 3 : B 2
    play(session, cd.id, "NSEW", "EWNS", "NSEW", "EWNS", "NESW", "ENSW")  # C 10 : D 9
    for game_id in (ab.id, cd.id):
        service.time_up(session, game_id, TimeUpIn(), actor=REFEREE, now=NOW)
    forfeited = service.forfeit(
        session,
        ef.id,
        ForfeitIn(forfeiting=Side.NS, reason=ForfeitReason.LATE_ARRIVAL),
        actor=REFEREE,
        now=NOW,
    )
    assert (forfeited.winner, forfeited.ns.points, forfeited.ew.points) == (Side.EW, 0, 14)  # 补充说明 9
    for game_id in (ab.id, cd.id, ef.id):
        finish(session, game_id)
    assert event.id is not None
    table = service.standings(session, event.id, provisional=False).body
    assert table is not None
    rows = [(row.entry_name, row.wins, row.points) for row in table.groups[0].rows]
    # wins first: A's 3 points rank above D's 9 (seed 001 §三 先胜场和总积分)
    assert rows == [("F", 1, 14), ("C", 1, 10), ("A", 1, 3), ("D", 0, 9), ("B", 0, 2), ("E", 0, 0)]


def _lineup(session: Session, entry_id: int, deans: int, *, tag: str, event_id: int) -> None:
    lineup = Lineup(entry_id=entry_id, round_number=1, created_at=T0, updated_at=T0)
    session.add(lineup)
    session.flush()
    members = []
    for index in range(10):
        branch_id = 1
        member = Member(
            staff_id=f"{tag}{index}",
            name=f"{tag}{index}",
            branch_id=branch_id,
            is_dean_or_secretary=index < deans,
            created_at=T0,
            updated_at=T0,
        )
        session.add(member)
        members.append(member)
    session.flush()
    for position, member in enumerate(members, start=1):
        assert member.id is not None
        session.add(
            EntryMember(
                entry_id=entry_id, event_id=event_id, member_id=member.id, position=position, created_at=T0
            )
        )
    for pair_no in range(1, 6):
        first, second = members[2 * pair_no - 2], members[2 * pair_no - 1]
        assert lineup.id and first.id and second.id
        session.add(
            LineupPair(
                lineup_id=lineup.id, pair_no=pair_no, first_member_id=first.id, second_member_id=second.id
            )
        )
    session.flush()


def test_seed_000_forfeit_fifteen_to_two_and_the_bonus_cap(session: Session) -> None:
    event = make_event(
        session,
        preset="nuist-2023",
        entry_kind="team",
        config={"dean_bonus_per_member": 1, "dean_bonus_cap": 2},
    )
    home, away = make_entries(session, event, ["math", "physics"])
    assert home.id and away.id
    assert event.id is not None
    _lineup(session, home.id, 3, tag="m", event_id=event.id)  # three deans play: +2 at most (§七)
    _lineup(session, away.id, 1, tag="p", event_id=event.id)
    round_ = make_round(session, event, 1)
    (game,) = make_game(session, round_, home, away)
    assert game.id is not None
    out = service.forfeit(
        session,
        game.id,
        ForfeitIn(forfeiting=Side.EW, reason=ForfeitReason.SUBSTITUTION),
        actor=REFEREE,
        now=NOW,
    )
    assert (out.ns.points, out.ew.points) == (15, 2)  # §九.3
    finish(session, game.id)
    assert event.id is not None
    table = service.standings(session, event.id, provisional=False).body
    assert table is not None
    assert [(r.entry_name, r.points, r.bonus) for r in table.groups[0].rows] == [
        ("math", 17, 2),
        ("physics", 3, 1),
    ]


@pytest.mark.parametrize(("preset", "leader"), [("ahut-2017", Seat.E), ("hlju-2016", Seat.W)])
def test_a_recorded_tribute_is_checked_with_the_events_full_tribute_rules(
    session: Session, preset: str, leader: Seat
) -> None:
    """After a double-down the larger payer leads; seed 004 §3 says the last finisher (末游先出牌)."""
    _, _, game, _ = one_game(session, preset=preset)
    assert game.id is not None
    play(session, game.id, "NSEW")  # N–S double-down: E and W pay
    paid = {Seat.E: "SA", Seat.W: "SK"}
    returned = {Seat.N: "D3", Seat.S: "D4"}
    other = Seat.W if leader is Seat.E else Seat.E
    with pytest.raises(RuleViolation) as refused:
        service.post_deal(
            session,
            game.id,
            DealIn(
                deal_no=2,
                finish_order=[Seat(s) for s in "NESW"],
                tribute=TributeIn(paid=paid, returned=returned, big_jokers={}, leader=other),
            ),
            actor=REFEREE,
            now=NOW,
        )
    assert (refused.value.rule, refused.value.field) == ("tribute-wrong-leader", "tribute.leader")
    answer = service.post_deal(
        session,
        game.id,
        DealIn(
            deal_no=2,
            finish_order=[Seat(s) for s in "NESW"],
            tribute=TributeIn(paid=paid, returned=returned, big_jokers={}, leader=leader),
        ),
        actor=REFEREE,
        now=NOW,
    )
    assert answer.deal.tribute is not None and answer.deal.tribute["leader"] == leader.value
