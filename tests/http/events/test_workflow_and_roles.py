"""Seed 000 §六.3's workflow (member → branch → union), withdrawal, roles and what the public sees."""

from __future__ import annotations

import json
from collections.abc import Callable

from fastapi.testclient import TestClient

from tests.helpers import assert_problem, bearer
from tests.http.events.union_system import Clock, UnionSystem, pairs_event, team_event

LEADER_PHONE = "139 1233 5115"


def _team(union: UnionSystem) -> tuple[int, int, list[str]]:
    event_id = union.open_event(union.competition(), team_event())
    staff = union.branch_with_members("CS", member_count=45, people=12)
    leader = {"staff_id": staff[0], "name": "CS 会员1", "phone": LEADER_PHONE}
    entry = union.enter(event_id, "CS", staff[:10], leader=leader, name="计算机学院队")
    assert entry.status_code == 201, entry.text
    return event_id, int(entry.json()["id"]), staff


def test_member_registers_branch_forms_and_submits_union_confirms(
    union: UnionSystem, client: TestClient
) -> None:
    event_id = union.open_event(union.competition(), team_event())
    staff = union.branch_with_members("CS", member_count=45, people=10)
    for staff_id in staff:
        signed = client.post(
            f"/api/v1/events/{event_id}/registrations", json={"staff_id": staff_id}, headers=union.headers
        )
        assert signed.status_code == 201, signed.text
    again = client.post(
        f"/api/v1/events/{event_id}/registrations", json={"staff_id": staff[0]}, headers=union.headers
    )
    assert_problem(again, 409, "already-registered")
    listed = client.get(f"/api/v1/events/{event_id}/registrations", headers=union.headers).json()
    assert [r["staff_id"] for r in listed] == staff and all(r["entry_id"] is None for r in listed)

    entry = union.enter(event_id, "CS", staff, name="计算机学院队").json()
    assert entry["status"] == "draft"
    # seed 000 §六.3: the branch names a leader (工号、姓名及联系电话) before it submits
    assert_problem(union.act(entry["id"], "submit"), 422, "leader-required")
    leader = {"staff_id": staff[0], "name": "CS 会员1", "phone": LEADER_PHONE}
    roster = [{"staff_id": s, "coach": s == staff[1]} for s in staff]
    reformed = client.put(
        f"/api/v1/entries/{entry['id']}", json={"leader": leader, "roster": roster}, headers=union.headers
    )
    assert reformed.status_code == 200, reformed.text
    assert reformed.json()["leader_name"] == "CS 会员1"
    assert [m["is_leader"] for m in reformed.json()["roster"]][:2] == [True, False]
    assert reformed.json()["roster"][1]["is_coach"] is True
    listed = client.get(f"/api/v1/events/{event_id}/registrations", headers=union.headers).json()
    assert {r["entry_id"] for r in listed} == {entry["id"]}

    submitted = union.act(entry["id"], "submit")
    assert submitted.json()["status"] == "submitted"
    rejected = union.act(entry["id"], "reject", reason="领队联系电话有误")
    assert rejected.json()["status"] == "rejected"
    assert rejected.json()["rejection_reason"] == "领队联系电话有误"
    assert_problem(union.act(entry["id"], "confirm"), 409, "entry-status")
    client.put(
        f"/api/v1/entries/{entry['id']}", json={"leader": leader, "roster": roster}, headers=union.headers
    )
    union.act(entry["id"], "submit")
    confirmed = union.act(entry["id"], "confirm")
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["status"] == "confirmed"


def test_withdrawal_before_the_close_only(union: UnionSystem, clock: Clock) -> None:
    event_id, entry_id, staff = _team(union)
    withdrawn = union.act(entry_id, "withdraw")
    assert withdrawn.json()["status"] == "withdrawn"
    # the roster is released: the same members may form a new entry
    leader = {"staff_id": staff[0], "name": "CS 会员1", "phone": LEADER_PHONE}
    again = union.enter(event_id, "CS", staff[:10], leader=leader)
    assert again.status_code == 201, again.text
    clock.set("2023-12-23T00:00")  # seed 000 §六.2: 12月13日—22日, so the 23rd is closed
    body = assert_problem(union.act(int(again.json()["id"]), "withdraw"), 409, "withdrawal-closed")
    assert "forfeit" in body["detail"]


def test_lineups_and_state_guards(union: UnionSystem, clock: Clock, client: TestClient) -> None:
    event_id, entry_id, staff = _team(union)
    assert_problem(union.move(event_id, "drawn"), 409, "event-transition")
    union.act(entry_id, "submit")
    assert union.move(event_id, "registration_closed").status_code == 200
    body = assert_problem(union.move(event_id, "drawn"), 409, "entries-awaiting-decision")
    assert body["awaiting"] == 1
    union.act(entry_id, "confirm")
    assert_problem(union.move(event_id, "drawn"), 409, "too-few-entries")

    url = f"/api/v1/entries/{entry_id}/lineups/1"
    pairs = [{"pair_no": n, "players": [staff[2 * n - 2], staff[2 * n - 1]]} for n in range(1, 6)]
    put = client.put(url, json={"pairs": pairs}, headers=union.headers)
    assert put.status_code == 200, put.text
    assert [p["pair_no"] for p in put.json()["pairs"]] == [1, 2, 3, 4, 5]
    assert put.json()["pairs"][0]["players"] == ["CS 会员1", "CS 会员2"]
    # nobody but the team's side reads it before the round (pair k meets pair k)
    assert_problem(client.get(url), 403)

    four = client.put(url, json={"pairs": pairs[:4]}, headers=union.headers)
    assert assert_problem(four, 422, "lineup-pairs")["pairs_per_match"] == 5
    stranger = [
        *pairs[:4],
        {"pair_no": 5, "players": [staff[8], staff[11]]},
    ]  # staff[11] is not on the roster
    assert_problem(
        client.put(url, json={"pairs": stranger}, headers=union.headers), 422, "lineup-not-on-roster"
    )
    twice = [*pairs[:4], {"pair_no": 5, "players": [staff[8], staff[0]]}]
    assert_problem(client.put(url, json={"pairs": twice}, headers=union.headers), 422, "lineup-player-twice")
    assert_problem(
        client.put(f"/api/v1/entries/{entry_id}/lineups/5", json={"pairs": pairs}, headers=union.headers),
        422,
        "unknown-round",
    )

    clock.set("2023-12-29T13:30")  # seed 000 §五: round 1 starts
    assert_problem(client.put(url, json={"pairs": pairs}, headers=union.headers), 409, "lineup-locked")


def test_role_matrix(union: UnionSystem, client: TestClient, make_key: Callable[..., str]) -> None:
    event_id, entry_id, staff = _team(union)
    union.branch_with_members("MATH", member_count=30, people=10)
    own = bearer(make_key("union", branch_code="CS"))
    other = bearer(make_key("union", branch_code="MATH"))
    referee = bearer(make_key("referee"))
    assert client.post(f"/api/v1/entries/{entry_id}/submit", headers=own).status_code == 200
    assert_problem(client.post(f"/api/v1/entries/{entry_id}/withdraw", headers=other), 403, "other-branch")
    assert_problem(client.post(f"/api/v1/entries/{entry_id}/confirm", headers=own), 403, "union-key-required")
    assert_problem(client.post(f"/api/v1/entries/{entry_id}/confirm", headers=referee), 403, "role-required")
    assert_problem(client.post(f"/api/v1/entries/{entry_id}/confirm"), 401)
    roster = [{"staff_id": s} for s in staff[:10]]
    assert_problem(
        client.post(
            f"/api/v1/events/{event_id}/entries", json={"branch_code": "CS", "roster": roster}, headers=other
        ),
        403,
        "other-branch",
    )
    assert_problem(
        client.put("/api/v1/branches/CS", json={"name": "x", "member_count": 1}, headers=other), 403
    )
    assert_problem(client.get(f"/api/v1/members/{staff[0]}", headers=other), 403, "other-branch")
    assert client.get(f"/api/v1/members/{staff[0]}", headers=own).json()["phone"] == "13900000001"
    assert_problem(client.get(f"/api/v1/members/{staff[0]}"), 401)
    assert_problem(
        client.post("/api/v1/competitions", json={"name": "x"}, headers=own), 403, "union-key-required"
    )
    closing = {"to_state": "registration_closed"}
    assert_problem(client.post(f"/api/v1/events/{event_id}/transitions", json=closing, headers=referee), 403)


def test_public_reads_show_no_phone_or_staff_id(union: UnionSystem, client: TestClient) -> None:
    event_id, entry_id, staff = _team(union)
    union.act(entry_id, "submit")
    union.act(entry_id, "confirm")
    public = [
        client.get(f"/api/v1/events/{event_id}/entries"),
        client.get(f"/api/v1/entries/{entry_id}"),
        client.get(f"/api/v1/events/{event_id}"),
        client.get("/api/v1/competitions"),
        client.get("/api/v1/branches"),
    ]
    text = json.dumps([r.json() for r in public], ensure_ascii=False)
    assert all(r.status_code == 200 for r in public)
    assert "CS 会员1" in text and "计算机学院队" in text
    for secret in [*staff, "139", "13912335115", "staff_id", "phone"]:
        assert secret not in text, secret


def test_pair_event_names_entries_and_filters(union: UnionSystem, client: TestClient) -> None:
    event_id = union.open_event(union.competition(), pairs_event())
    staff = union.branch_with_members("ART", member_count=10, people=4)
    first = union.enter(event_id, "ART", staff[:2]).json()
    second = union.enter(event_id, "ART", staff[2:]).json()
    assert (first["name"], second["name"]) == ("ART 分工会", "ART 分工会 2")
    union.act(second["id"], "withdraw")
    drafts = client.get(f"/api/v1/events/{event_id}/entries", params={"status": "draft"}).json()
    assert [e["id"] for e in drafts] == [first["id"]]
