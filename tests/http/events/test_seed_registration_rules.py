"""Each seed's registration rules with the seed's own numbers, through HTTP."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers import assert_problem
from tests.http.events.union_system import Clock, UnionSystem, pairs_event, team_event

SEED_001_TIERS = {
    "tiers": [{"up_to_members": 29, "entries": 2}, {"up_to_members": 50, "entries": 3}, {"entries": 4}],
    "kind": "tiered",
    "citation": "seed 001 §一",
}


def test_seed_001_quota_follows_the_member_count_tiers(union: UnionSystem) -> None:
    # seed 001 §一: 30人以下 → 2 pairs, 30–50 → 3, 50以上 → 4; the edges 29/30 and 50/51.
    expected = {"B29": (29, 2), "B30": (30, 3), "B50": (50, 3), "B51": (51, 4)}
    event_id = union.open_event(union.competition(), pairs_event(quota=SEED_001_TIERS))
    for code, (member_count, pairs) in expected.items():
        staff = union.branch_with_members(code, member_count=member_count, people=2 * pairs + 2)
        for k in range(pairs):
            entered = union.enter(event_id, code, staff[2 * k : 2 * k + 2])
            assert entered.status_code == 201, (code, k, entered.text)
        refused = assert_problem(union.enter(event_id, code, staff[-2:]), 422, "quota")
        assert refused["quota"] == pairs and refused["used"] == pairs
        assert refused["member_count"] == member_count
        assert "seed 001" in refused["detail"]


def test_seed_001_school_leader_enters_outside_the_quota_with_any_partner(union: UnionSystem) -> None:
    event_id = union.open_event(
        union.competition(), pairs_event(quota=SEED_001_TIERS, leader_entries_outside_quota=True)
    )
    staff = union.branch_with_members("ADMIN", member_count=20, people=4)
    (leader,) = union.branch_with_members("LEAD", member_count=20, people=1, is_school_leader=True)
    union.client.put(
        "/api/v1/members/LEAD-001",
        json={"name": "LEAD 会员1", "branch_code": "ADMIN", "is_school_leader": True},
        headers=union.headers,
    ).raise_for_status()
    # ADMIN (<30 members) fills its 2 pairs ...
    assert union.enter(event_id, "ADMIN", staff[0:2]).status_code == 201
    assert union.enter(event_id, "ADMIN", staff[2:4]).status_code == 201
    assert_problem(union.enter(event_id, "ADMIN", [leader, staff[0]]), 422, "quota")
    # ... and its school leader still enters, partnered by a member of another branch.
    other = union.branch_with_members("MATH", member_count=40, people=1)
    extra = union.enter(event_id, "ADMIN", [leader, other[0]], outside_quota=True)
    assert extra.status_code == 201, extra.text
    assert extra.json()["outside_quota"] is True
    # without a school leader an entry cannot claim to be outside the quota
    more = union.branch_with_members("ADMIN", member_count=20, people=6)
    refused = union.enter(event_id, "ADMIN", more[4:6], outside_quota=True)
    assert_problem(refused, 422, "outside-quota-needs-school-leader")


def test_seed_000_rosters_of_9_and_16_are_refused(union: UnionSystem) -> None:
    event_id = union.open_event(union.competition(), team_event())
    staff = union.branch_with_members("CS", member_count=80, people=16)
    leader = {"staff_id": staff[0], "name": "CS 会员1", "phone": "13900000001"}
    for size in (9, 16):
        body = assert_problem(union.enter(event_id, "CS", staff[:size], leader=leader), 422, "roster-size")
        assert body["roster_size"] == size
        assert (body["roster_min"], body["roster_max"]) == (10, 15)
    assert union.enter(event_id, "CS", staff[:15], leader=leader).status_code == 201


def test_seed_004_a_member_enters_one_event_only(union: UnionSystem, clock: Clock) -> None:
    # seed 004 §一.3 象棋、围棋、掼蛋和拱猪比赛同时进行，不得兼报; chess 2, Go 2 per department.
    clock.set("2016-03-20T09:00")
    competition = union.competition(one_event_per_member=True)
    base = {
        "entry_kind": "individual",
        "format": "round_robin",
        "config": {"quota": {"kind": "fixed", "per_branch": 2}},
    }
    window = {
        "registration_opens_at": "2016-03-15T08:00:00+08:00",
        "registration_closes_at": "2016-03-22T17:00:00+08:00",
    }
    chess = union.open_event(
        competition,
        {"name": "象棋", "discipline": "xiangqi", "preset": "hlju-2016-xiangqi", **base, **window},
    )
    go = union.open_event(
        competition, {"name": "围棋", "discipline": "go", "preset": "hlju-2016-go", **base, **window}
    )
    staff = union.branch_with_members("PHYS", member_count=60, people=4)
    assert union.enter(chess, "PHYS", [staff[0]]).status_code == 201
    body = assert_problem(union.enter(go, "PHYS", [staff[0]]), 422, "one-event-per-member")
    assert "象棋" in body["detail"]
    registered = union.client.post(
        f"/api/v1/events/{go}/registrations", json={"staff_id": staff[0]}, headers=union.headers
    )
    assert_problem(registered, 422, "one-event-per-member")
    # the fixed quota: 2 chess players per department
    assert union.enter(chess, "PHYS", [staff[1]]).status_code == 201
    assert_problem(union.enter(chess, "PHYS", [staff[2]]), 422, "quota")


def test_registration_after_the_deadline_is_refused(union: UnionSystem, clock: Clock) -> None:
    # seed 001 §四: 12月20日下午4:00截止
    event_id = union.open_event(union.competition(), pairs_event())
    staff = union.branch_with_members("ART", member_count=10, people=4)
    clock.set("2023-12-20T15:59")
    assert union.enter(event_id, "ART", staff[:2]).status_code == 201
    clock.set("2023-12-20T16:00")
    body = assert_problem(union.enter(event_id, "ART", staff[2:]), 409, "registration-window")
    assert "2023-12-20 16:00" in body["detail"]
    clock.set("2023-12-12T23:59")  # before seed 000's 12月13日 opening likewise
    assert_problem(union.enter(event_id, "ART", staff[2:]), 409, "registration-window")


def test_only_union_members_and_each_member_once_per_event(union: UnionSystem, client: TestClient) -> None:
    event_id = union.open_event(union.competition(), pairs_event())
    staff = union.branch_with_members("LAW", member_count=10, people=4)
    client.put(
        f"/api/v1/members/{staff[3]}",
        json={"name": "LAW 会员4", "branch_code": "LAW", "is_union_member": False},
        headers=union.headers,
    ).raise_for_status()
    assert_problem(union.enter(event_id, "LAW", [staff[2], staff[3]]), 422, "union-members-only")
    assert union.enter(event_id, "LAW", staff[:2]).status_code == 201
    assert_problem(union.enter(event_id, "LAW", [staff[1], staff[2]]), 409, "member-already-entered")
    assert_problem(union.enter(event_id, "LAW", [staff[2], staff[2]]), 422, "roster-member-twice")
    assert_problem(union.enter(event_id, "LAW", [staff[2]]), 422, "roster-size")  # a pair is exactly 2
