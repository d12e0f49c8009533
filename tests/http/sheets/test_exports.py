"""Downloads: standings, a round's tables and seats, and every deal, as .xlsx and .csv — checked
against what the test itself posted; public sheets carry no phone number and no staff id."""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient
from openpyxl import load_workbook

from domain.rules.levels import DealResult, replay
from domain.rules.ruleset import preset
from domain.sheets.grid import XLSX_MEDIA_TYPE
from tests.helpers import assert_problem
from tests.http.events.union_system import UnionSystem, pairs_event
from tests.http.schedule.conftest import Field, fill

LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}
SEATS = {"N": "北", "E": "东", "S": "南", "W": "西"}
PASSING_A = ["NSEW"] * 5  # double-downs: 2→5→8→11→A, then A passed (seed 001 附件2 第四条)


def _xlsx_rows(answer: Any) -> list[list[Any]]:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == XLSX_MEDIA_TYPE
    assert answer.headers["content-disposition"].startswith("attachment;")
    page = load_workbook(io.BytesIO(answer.content)).active
    assert page is not None
    assert page.freeze_panes == "A3"  # the title and header rows stay in view
    return [[cell.value for cell in row] for row in page.iter_rows()]


def _csv_rows(answer: Any) -> list[list[str]]:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.content.startswith(b"\xef\xbb\xbf")  # Excel opens it as UTF-8
    return list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))


def _played_round(
    union: UnionSystem, client: TestClient, referee: dict[str, str]
) -> tuple[Field, dict[str, Any]]:
    """Four pairs drawn and seated; table 1 plays to A and passes it, table 2 is a forfeit."""
    field = fill(union, pairs_event(rounds=1), entries=4, people=2)
    event_id = field.event_id
    assert client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=referee).status_code == 201
    assert client.post(f"/api/v1/events/{event_id}/draw", headers=referee).status_code == 201
    generated = client.post(f"/api/v1/events/{event_id}/rounds/1/generate", json={}, headers=referee)
    assert generated.status_code == 200, generated.text
    assert client.post(f"/api/v1/events/{event_id}/rounds/1/publish", headers=referee).status_code == 200
    view = client.get(f"/api/v1/rounds/{generated.json()['id']}").json()
    first, second = sorted(view["tables"], key=lambda table: table["table_no"])
    for deal_no, order in enumerate(PASSING_A, start=1):
        posted = client.post(
            f"/api/v1/games/{first['game_id']}/deals",
            json={"deal_no": deal_no, "finish_order": list(order)},
            headers=referee,
        )
        assert posted.status_code == 201, posted.text
    forfeit = {"forfeiting": "EW", "reason": "absent"}
    assert (
        client.post(f"/api/v1/games/{second['game_id']}/forfeit", json=forfeit, headers=referee).status_code
        == 200
    )
    for table in (first, second):
        for side in ("NS", "EW"):
            confirmed = client.post(
                f"/api/v1/games/{table['game_id']}/confirmations", json={"side": side}, headers=referee
            )
            assert confirmed.status_code == 200, confirmed.text
    return field, view


def _entry_at(table: dict[str, Any], seat: str) -> int:
    return int(table["seats"][seat]["entry_id"])


def test_standings_rank_the_posted_results_in_xlsx_and_csv(
    union: UnionSystem, client: TestClient, referee: dict[str, str]
) -> None:
    field, view = _played_round(union, client, referee)
    first, second = sorted(view["tables"], key=lambda table: table["table_no"])
    rules = preset("nsi-2023")
    # seed 001 §三: wins, then points; passing A scores 15, a level its number; forfeit 14:0 (补充说明 9)
    results = [
        (_entry_at(first, "N"), 1, rules.passed_a_points),
        (_entry_at(second, "N"), 1, rules.forfeit_winner_points),
        (_entry_at(first, "E"), 0, rules.level_points[2]),
        (_entry_at(second, "E"), 0, rules.forfeit_loser_points),
    ]
    expected = [
        [rank, field.names[entry], field.branches[entry], 1, wins, 0, 1 - wins, points, 0]
        for rank, (entry, wins, points) in enumerate(results, start=1)
    ]
    rows = _xlsx_rows(client.get(f"/api/v1/events/{field.event_id}/standings.xlsx"))
    assert rows[0][0] == "教职工掼蛋单项比赛 成绩排名"
    assert rows[1][:9] == ["名次", "参赛队", "分工会", "场次", "胜", "平", "负", "积分", "加分"]
    assert rows[1][9:11] == ["排名依据·胜场", "排名依据·积分"]
    assert [row[:9] for row in rows[2:]] == expected
    assert [row[9:11] for row in rows[2:]] == [[row[4], row[7]] for row in expected]

    text = _csv_rows(client.get(f"/api/v1/events/{field.event_id}/standings.csv"))
    assert text[0] == rows[1]
    assert [row[:9] for row in text[1:]] == [[str(value) for value in row] for row in expected]


def test_the_round_sheet_seats_every_table_and_the_deal_sheet_replays_the_posted_deals(
    union: UnionSystem, client: TestClient, referee: dict[str, str]
) -> None:
    field, view = _played_round(union, client, referee)
    first, second = sorted(view["tables"], key=lambda table: table["table_no"])

    rows = _xlsx_rows(client.get(f"/api/v1/rounds/{view['id']}/table.xlsx"))
    header = rows[1]
    assert header[:5] == ["场次", "组别", "区", "桌号", "局"]
    assert header[5:8] == ["北·选手", "北·参赛队", "北·分工会"]
    for table, row in zip((first, second), rows[2:], strict=True):
        assert row[3] == table["table_no"]
        for index, seat in enumerate("NESW"):
            entry = _entry_at(table, seat)
            player, name, branch = row[5 + 3 * index : 8 + 3 * index]
            assert player in field.players[entry]
            assert (name, branch) == (field.names[entry], field.branches[entry])
        # partners sit opposite: N and S are one pair, E and W the other
        assert {row[5], row[11]} == set(field.players[_entry_at(table, "N")])

    deals = _xlsx_rows(client.get(f"/api/v1/events/{field.event_id}/deals.xlsx"))
    assert deals[1] == [
        "阶段", "轮次", "桌号", "场次", "局", "南北", "东西", "副", "打几", "打家",
        "上游", "二游", "三游", "下游", "升级", "南北级", "东西级", "A未过",
    ]  # fmt: skip
    trajectory = replay([DealResult(list(order)) for order in PASSING_A], preset("nsi-2023"))
    seats = {key: f"{SEATS[key]} {first['seats'][key]['name']}" for key in "NESW"}
    expected = [
        [
            1,
            first["table_no"],
            n,
            LABELS.get(record.level_played, str(record.level_played)),
            *(seats[seat] for seat in order),
            LABELS.get(record.ns.level, str(record.ns.level)),
            LABELS.get(record.ew.level, str(record.ew.level)),
        ]
        for n, (order, record) in enumerate(zip(PASSING_A, trajectory.deals, strict=True), start=1)
    ]
    assert [[row[1], row[2], row[7], row[8], *row[10:14], row[15], row[16]] for row in deals[2:]] == expected
    assert [row[5:7] for row in deals[2:]] == [
        [field.names[_entry_at(first, "N")], field.names[_entry_at(first, "E")]]
    ] * 5
    assert _csv_rows(client.get(f"/api/v1/events/{field.event_id}/deals.csv"))[0] == deals[1]


def test_public_sheets_carry_no_phone_or_staff_id_and_the_roster_sheet_is_the_unions(
    union: UnionSystem, client: TestClient, referee: dict[str, str]
) -> None:
    field, view = _played_round(union, client, referee)
    public = [
        f"/api/v1/events/{field.event_id}/standings",
        f"/api/v1/rounds/{view['id']}/table",
        f"/api/v1/events/{field.event_id}/deals",
    ]
    for path in public:
        for suffix in (".xlsx", ".csv"):
            answer = client.get(path + suffix)
            cells = (
                [str(v) for row in _xlsx_rows(answer) for v in row]
                if suffix == ".xlsx"
                else [v for row in _csv_rows(answer) for v in row]
            )
            assert not any("13900000000" in cell or "S000-" in cell for cell in cells), path + suffix

    assert_problem(client.get(f"/api/v1/events/{field.event_id}/registration.xlsx"), 401)
    roster = _xlsx_rows(
        client.get(f"/api/v1/events/{field.event_id}/registration.xlsx", headers=union.headers)
    )
    assert roster[1] == ["参赛队", "分工会", "状态", "序号", "工号", "姓名", "手机号码", "角色"]
    assert sorted((row[4], row[5], row[6]) for row in roster[2:]) == sorted(
        (f"S{k:03d}-{p:02d}", field.players[entry][p - 1], "13900000000")
        for k, entry in enumerate(field.entry_ids)
        for p in (1, 2)
    )
    assert_problem(client.get(f"/api/v1/events/{field.event_id}/standings.pdf"), 422, "request-validation")
