"""Seed 001 附件1 and seed 000 §六 forms uploaded as .xlsx and .csv: reported row by row before
anything is stored, stored through the events service's own rules, nothing stored on a refusal."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from openpyxl import Workbook

from tests.helpers import assert_problem, bearer
from tests.http.events.union_system import UnionSystem, pairs_event, team_event

SEED_001_QUOTA = {
    "kind": "tiered",
    "tiers": [{"up_to_members": 29, "entries": 2}, {"up_to_members": 50, "entries": 3}, {"entries": 4}],
    "citation": "seed 001 §一",
}
PEOPLE = [
    (f"TY{n:03d}", name, f"1391234{n:04d}")
    for n, name in enumerate(["张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏", "黄勇"], 1)
]


def _directory(union: UnionSystem, *, member_count: int = 40) -> None:
    """体育系 with eight union members and 周杰, who is staff but not a union member."""
    members: list[dict[str, Any]] = [
        {"staff_id": staff_id, "name": name, "branch_code": "TY", "phone": phone}
        for staff_id, name, phone in PEOPLE
    ]
    members.append(
        {
            "staff_id": "TY999",
            "name": "周杰",
            "branch_code": "TY",
            "phone": "13955550000",
            "is_union_member": False,
        }
    )
    union.sync(
        [
            {"code": "TY", "name": "体育系分工会", "member_count": member_count},
            {"code": "JS", "name": "计算机学院分工会", "member_count": 60},
        ],
        members,
    )


def _form(players: list[tuple[str, str]]) -> list[list[str]]:
    """Seed 001 附件1 as a branch fills it in: players 2k-1 and 2k are pair k."""
    return [
        ["南京体育学院教职工掼蛋比赛报名表"],
        ["分工会：体育系分工会"],
        ["编号", "参赛选手姓名", "手机号码"],
        *[[str(n), name, phone] for n, (name, phone) in enumerate(players, start=1)],
        ["分工会联系人：王芳"],
        ["联系电话：", "58699813"],
        ["2023年12月18日"],
    ]


def _xlsx(rows: list[list[str]]) -> bytes:
    book = Workbook()
    page = book.active
    assert page is not None
    for row in rows:
        page.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _csv(rows: list[list[str]], encoding: str) -> bytes:
    return "".join(",".join(row) + "\r\n" for row in rows).encode(encoding)


def _upload(
    client: TestClient,
    event_id: int,
    content: bytes,
    headers: dict[str, str],
    *,
    filename: str = "报名表.xlsx",
    **params: str,
) -> Any:
    # a fixed boundary: a retry resends the very bytes, as a client retrying a request does
    boundary = "zhisai-test-boundary"
    return client.post(
        f"/api/v1/events/{event_id}/entries/sheet",
        params=params,
        files={"file": (filename, content, "application/octet-stream")},
        headers={**headers, "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )


def _entries(client: TestClient, event_id: int) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/events/{event_id}/entries")
    assert answer.status_code == 200
    result: list[dict[str, Any]] = answer.json()
    return result


def _pairs_event(union: UnionSystem) -> int:
    return union.open_event(union.competition(), pairs_event(quota=SEED_001_QUOTA))


def test_a_bad_phone_and_a_non_member_are_refused_row_by_row_and_nothing_is_stored(
    union: UnionSystem, client: TestClient
) -> None:
    _directory(union)
    event_id = _pairs_event(union)
    players = [(name, phone) for _, name, phone in PEOPLE[:6]]
    players[1] = (players[1][0], "1391234")  # row 5: seven digits
    players[2] = ("周杰", "13955550000")  # row 6: staff, not a union member
    form = _form(players)

    dry = _upload(client, event_id, _csv(form, "gb18030"), union.headers, filename="报名表.csv")
    assert dry.status_code == 200, dry.text
    report = dry.json()
    assert (report["encoding"], report["dry_run"], report["stored"]) == ("gb18030", True, False)
    by_row = {row["row"]: row for row in report["rows"]}
    assert [row["row"] for row in report["rows"]] == [4, 5, 6, 7, 8, 9]
    assert [(p["rule"], p["field"]) for p in by_row[5]["problems"]] == [("phone-format", "rows[5].手机号码")]
    assert [(p["rule"], p["field"]) for p in by_row[6]["problems"]] == [
        ("union-members-only", "rows[6].参赛选手姓名")
    ]
    assert [row["status"] for row in report["rows"]] == ["refused"] * 4 + ["accepted"] * 2
    assert [e["status"] for e in report["entries"]] == ["refused", "refused", "accepted"]
    assert (report["rows_accepted"], report["rows_refused"]) == (2, 4)

    stored = _upload(
        client, event_id, _csv(form, "gb18030"), union.headers, filename="报名表.csv", dry_run="false"
    )
    body = assert_problem(stored, 422, "sheet-rows-refused")
    assert body["report"]["rows"] == report["rows"]  # the same rows, the same verdicts
    assert body["report"]["stored"] is False
    assert _entries(client, event_id) == []


def test_a_good_form_is_reported_then_stores_its_pairs_once(union: UnionSystem, client: TestClient) -> None:
    _directory(union)
    event_id = _pairs_event(union)
    players = [(name, phone) for _, name, phone in PEOPLE[:6]]
    content = _xlsx(_form(players))

    dry = _upload(client, event_id, content, union.headers)
    assert dry.status_code == 200, dry.text
    assert all(row["status"] == "accepted" for row in dry.json()["rows"])
    assert _entries(client, event_id) == []  # a dry run stores nothing

    key = {"Idempotency-Key": "ty-form-1"}
    stored = _upload(client, event_id, content, {**union.headers, **key}, dry_run="false", submit="true")
    assert stored.status_code == 201, stored.text
    assert stored.json()["stored"] is True
    again = _upload(client, event_id, content, {**union.headers, **key}, dry_run="false", submit="true")
    assert again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"

    entries = _entries(client, event_id)
    assert [[member["name"] for member in entry["roster"]] for entry in entries] == [
        [players[0][0], players[1][0]],
        [players[2][0], players[3][0]],
        [players[4][0], players[5][0]],
    ]
    assert {entry["status"] for entry in entries} == {"submitted"}
    assert {entry["branch_code"] for entry in entries} == {"TY"}


def test_the_quota_refuses_the_fourth_pair_with_its_numbers(union: UnionSystem, client: TestClient) -> None:
    _directory(union, member_count=40)  # 30–50 members: 3 pairs (seed 001 §一)
    event_id = _pairs_event(union)
    players = [(name, phone) for _, name, phone in PEOPLE]
    report = _upload(client, event_id, _xlsx(_form(players)), union.headers).json()
    assert [e["status"] for e in report["entries"]] == ["accepted"] * 3 + ["refused"]
    (problem,) = report["entries"][3]["problems"]
    assert (problem["rule"], problem["field"]) == ("quota", "rows[10-11]")
    assert problem["extra"] == {"quota": 3, "used": 3, "member_count": 40}


def test_a_team_roster_by_staff_id_names_its_leader(union: UnionSystem, client: TestClient) -> None:
    people = union.branch_with_members("WY", member_count=80, people=10)
    event_id = union.open_event(union.competition(), team_event())
    rows = [["分工会：WY"], ["工号", "姓名", "手机号码", "角色"]]
    rows += [
        [staff_id, f"WY 会员{n}", f"139{n:08d}", "领队" if n == 1 else ""]
        for n, staff_id in enumerate(people, 1)
    ]
    answer = _upload(client, event_id, _xlsx(rows), union.headers, dry_run="false")
    assert answer.status_code == 201, answer.text
    (entry,) = _entries(client, event_id)
    assert entry["leader_name"] == "WY 会员1"
    assert len(entry["roster"]) == 10

    short = union.open_event(union.competition(), team_event())
    report = _upload(client, short, _xlsx(rows[:8]), union.headers).json()
    (problem,) = report["entries"][0]["problems"]
    assert problem["rule"] == "roster-size"  # the events service's rule: 10–15 (seed 000 §六.1)
    assert problem["extra"]["roster_size"] == 6


def test_a_branch_key_uploads_for_its_own_branch_only(
    union: UnionSystem, client: TestClient, make_key: Callable[..., str]
) -> None:
    _directory(union)
    event_id = _pairs_event(union)
    content = _xlsx(_form([(name, phone) for _, name, phone in PEOPLE[:2]]))
    other = bearer(make_key("union", branch_code="JS"))
    assert_problem(_upload(client, event_id, content, other), 403, "other-branch")
    own = bearer(make_key("union", branch_code="TY"))
    assert _upload(client, event_id, content, own).status_code == 200


def test_files_that_are_not_forms_are_refused_with_the_cell(union: UnionSystem, client: TestClient) -> None:
    _directory(union)
    event_id = _pairs_event(union)
    pdf = _upload(client, event_id, b"%PDF-1.7\x00\x00", union.headers, filename="报名表.pdf")
    assert assert_problem(pdf, 422, "not-a-spreadsheet")["field"] == "file"
    unknown = _xlsx([["分工会：体育系分工会"], ["编号", "参赛选手姓名", "身份证号"]])
    body = assert_problem(_upload(client, event_id, unknown, union.headers), 422, "sheet-unknown-header")
    assert body["field"] == "rows[2].C"
    nobody = _upload(client, event_id, _xlsx(_form([])), union.headers)
    assert_problem(nobody, 422, "sheet-no-rows")
