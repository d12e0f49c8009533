"""The .xlsx writer keeps a download working whatever names were stored."""

from __future__ import annotations


def test_control_characters_in_a_name_do_not_fail_the_download() -> None:
    from io import BytesIO

    from openpyxl import load_workbook

    from domain.sheets.grid import Sheet, to_xlsx

    sheet = Sheet(name="名次", title="积分榜\x07", headers=("参赛队",), rows=(("张\x0b三\x1b",),))
    page = load_workbook(BytesIO(to_xlsx(sheet))).active
    assert page is not None
    assert [cell.value for cell in page["A"]] == ["积分榜", "参赛队", "张三"]
