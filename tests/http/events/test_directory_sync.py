"""Branches and members from the union system: one call for thousands, per-row errors, idempotent."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import assert_problem
from tests.http.events.union_system import UnionSystem


def _directory(branches: int, members: int) -> dict[str, list[dict[str, Any]]]:
    return {
        "branches": [
            {"code": f"B{b:02d}", "name": f"第{b}分工会", "member_count": 30 + b} for b in range(branches)
        ],
        "members": [
            {
                "staff_id": f"{20000000 + m}",
                "name": f"会员{m}",
                "branch_code": f"B{m % branches:02d}",
                "phone": f"+86 138-{m:04d}-0000",
            }
            for m in range(members)
        ],
    }


def test_two_thousand_members_and_sixty_branches_in_one_idempotent_call(
    union: UnionSystem, client: TestClient
) -> None:
    body = _directory(60, 2000)
    headers = {**union.headers, "Idempotency-Key": "nightly-2023-12-13"}
    first = client.post("/api/v1/members/bulk", json=body, headers=headers)
    assert first.status_code == 200, first.text
    report = first.json()
    assert (report["branches_created"], report["members_created"], report["errors"]) == (60, 2000, [])
    replay = client.post("/api/v1/members/bulk", json=body, headers=headers)
    assert replay.json() == report and replay.headers["idempotent-replayed"] == "true"
    # without the key the same call is still an upsert: nothing new, nothing changed
    again = client.post("/api/v1/members/bulk", json=body, headers=union.headers).json()
    assert (again["members_created"], again["members_updated"], again["members_unchanged"]) == (0, 0, 2000)
    assert (again["branches_created"], again["branches_unchanged"]) == (0, 60)
    member = client.get("/api/v1/members/20001999", headers=union.headers).json()
    assert (member["branch_code"], member["phone"]) == ("B19", "13819990000")
    assert len(client.get("/api/v1/branches").json()) == 60


def test_rows_that_break_a_rule_are_reported_and_the_rest_stored(
    union: UnionSystem, client: TestClient
) -> None:
    body = _directory(2, 4)
    body["members"][1]["phone"] = "58699813"  # seed 000's contact landline: not a mobile
    body["members"][2]["branch_code"] = "NOPE"
    body["members"].append({**body["members"][0], "name": "重复"})
    body["branches"][1]["member_count"] = 45
    report = client.post("/api/v1/members/bulk", json=body, headers=union.headers).json()
    errors = {(e["index"], e["rule"]) for e in report["errors"]}
    assert errors == {(1, "phone-format"), (2, "unknown-branch"), (4, "duplicate-row")}
    assert report["members_created"] == 2
    assert client.get("/api/v1/members/20000003", headers=union.headers).status_code == 200
    assert_problem(client.get("/api/v1/members/20000001", headers=union.headers), 404, "unknown-member")
    moved = client.post(
        "/api/v1/branches/bulk",
        json={"branches": [{"code": "B01", "name": "第1分工会", "member_count": 51}]},
        headers=union.headers,
    ).json()
    assert (moved["branches_updated"], moved["branches_created"]) == (1, 0)
    assert {b["code"]: b["member_count"] for b in client.get("/api/v1/branches").json()} == {
        "B00": 30,
        "B01": 51,
    }


def test_single_upserts_validate_the_phone(union: UnionSystem, client: TestClient) -> None:
    put = client.put(
        "/api/v1/branches/CS", json={"name": "计算机学院分工会", "member_count": 45}, headers=union.headers
    )
    assert put.json() == {"code": "CS", "name": "计算机学院分工会", "member_count": 45}
    member = {"name": "王芳", "branch_code": "CS", "phone": "12345678901"}
    assert_problem(
        client.put("/api/v1/members/20190012", json=member, headers=union.headers), 422, "phone-format"
    )
    member["phone"] = "13912335115"
    stored = client.put("/api/v1/members/20190012", json=member, headers=union.headers)
    assert stored.status_code == 200 and stored.json()["phone"] == "13912335115"
