"""Pure sheet code: reading forms in .xlsx / UTF-8 / GB18030 CSV, refusing non-spreadsheets, and
the writers' layout (header, frozen panes, widths, BOM)."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook, load_workbook

from domain.errors import InvalidInput
from domain.sheets import forms, reader
from domain.sheets.grid import Sheet, column_widths, to_csv, to_xlsx

SEED_001_FORM = [
    ["南京体育学院教职工掼蛋比赛报名表"],
    ["分工会：体育系分工会"],
    ["编号", "参赛选手姓名", "手机号码"],
    ["1", "张三", "139 1234 5678"],
    ["2", "李四", "13912345679"],
    ["3", "", ""],
    ["分工会联系人：王五"],
    ["联 系 电话：", "58699813"],
    ["2023年 月 日"],
]


def _csv(rows: list[list[str]]) -> str:
    return "\r\n".join(",".join(row) for row in rows) + "\r\n"


def _xlsx(rows: list[list[object]]) -> bytes:
    book = Workbook()
    page = book.active
    assert page is not None
    for row in rows:
        page.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_the_seed_001_form_reads_the_same_from_gb18030_utf8_bom_and_xlsx() -> None:
    text = _csv(SEED_001_FORM)
    grids = [
        reader.read_grid(text.encode("gb18030"), filename="报名表.csv"),
        reader.read_grid(b"\xef\xbb\xbf" + text.encode("utf-8"), filename="报名表.csv"),
        reader.read_grid(text.encode("utf-8"), filename="form.csv"),
        reader.read_grid(_xlsx(SEED_001_FORM), filename="报名表.xlsx"),  # type: ignore[arg-type]
    ]
    assert [g.encoding for g in grids] == ["gb18030", "utf-8-sig", "utf-8", None]
    parsed = [forms.parse_form(grid.rows) for grid in grids]
    assert all(p == parsed[0] for p in parsed)
    form = parsed[0]
    assert form.branch == "体育系分工会"
    assert form.contact == "王五"
    assert form.contact_phone == "58699813"
    assert [(r.row, r.number, r.name, r.phone) for r in form.rows] == [
        (4, "1", "张三", "13912345678"),
        (5, "2", "李四", "13912345679"),
    ]


def test_a_phone_typed_as_a_number_in_excel_reads_as_its_digits() -> None:
    grid = reader.read_grid(_xlsx([["姓名", "手机号码"], ["张三", 13912345678.0]]), filename="a.xlsx")
    assert grid.rows[1] == ["张三", "13912345678"]


@pytest.mark.parametrize(
    ("content", "filename", "rule"),
    [
        (b"%PDF-1.4\x00\x01binary", "form.pdf", "not-a-spreadsheet"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64, "form.xls", "not-a-spreadsheet"),
        (b"PK\x03\x04not really a zip", "form.xlsx", "not-a-spreadsheet"),
        (b"a,b\x00c", "form.csv", "not-a-spreadsheet"),
        (b"x" * (reader.MAX_SHEET_BYTES + 1), "form.csv", "sheet-too-large"),
        (b"   ", "form.csv", "sheet-empty"),
    ],
)
def test_files_that_are_not_forms_are_refused(content: bytes, filename: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        reader.read_grid(content, filename=filename)
    assert refused.value.rule == rule
    assert refused.value.field == "file"


def test_an_unknown_header_is_refused_naming_its_row_and_column() -> None:
    with pytest.raises(InvalidInput) as refused:
        forms.parse_form([["分工会：体育系"], ["编号", "参赛选手姓名", "身份证号"]])
    assert refused.value.rule == "sheet-unknown-header"
    assert refused.value.field == "rows[2].C"
    assert "身份证号" in refused.value.detail


def test_data_under_no_header_and_a_missing_header_are_refused() -> None:
    with pytest.raises(InvalidInput) as unnamed:
        forms.parse_form([["编号", "参赛选手姓名", "手机号码"], ["1", "张三", "xx", "13912345678"]])
    assert (unnamed.value.rule, unnamed.value.field) == ("sheet-unnamed-column", "rows[2].D")
    with pytest.raises(InvalidInput) as headless:
        forms.parse_form([["张三", "13912345678"]])
    assert headless.value.rule == "sheet-no-header"


def test_team_roles_and_grouping() -> None:
    assert forms.roster_role("领队", field="x") == forms.RosterRole(leader=True, coach=False, plays=True)
    assert forms.roster_role("教练（不上场）", field="x") == forms.RosterRole(
        leader=False, coach=True, plays=False
    )
    with pytest.raises(InvalidInput):
        forms.roster_role("裁判", field="rows[3].角色")
    rows = [
        forms.FormRow(row=n, number=str(n), staff_id="", name=f"p{n}", phone="", role="") for n in range(5)
    ]
    assert [[r.row for r in g] for g in forms.group_rows(rows, whole_sheet=False, size=2)] == [
        [0, 1],
        [2, 3],
        [4],
    ]
    assert len(forms.group_rows(rows, whole_sheet=True, size=15)) == 1


def test_writers_share_one_layout() -> None:
    sheet = Sheet(
        name="成绩",
        title="掼蛋 成绩排名",
        headers=["名次", "参赛队"],
        rows=[[1, "计算机学院分工会"], [2, None]],
    )
    assert to_csv(sheet).decode("utf-8") == "\ufeff名次,参赛队\r\n1,计算机学院分工会\r\n2,\r\n"
    page = load_workbook(io.BytesIO(to_xlsx(sheet))).active
    assert page is not None
    assert page.freeze_panes == "A3"
    assert [[c.value for c in row] for row in page.iter_rows()] == [
        ["掼蛋 成绩排名", None],
        ["名次", "参赛队"],
        [1, "计算机学院分工会"],
        [2, None],
    ]
    assert column_widths(sheet) == [6, 18]  # a Chinese character takes two columns, plus a margin
    assert page.column_dimensions["B"].width == 18
