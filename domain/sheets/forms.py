"""The registration forms as branches fill them in, read from a grid of text cells.

Seed 001 附件1: a title, ``分工会：…``, the header ``编号 | 参赛选手姓名 | 手机号码``, one row per
player (players 2k−1 and 2k are pair k: 各分工会报名时请自行配对, seed 001 补充说明 1), then
``分工会联系人：…`` and ``联系电话：…`` at the bottom. Seed 000 §六.3: a team's roster names each
member by 工号, 姓名 and 联系电话, and who is 领队 (and 教练). One reader serves both: a column
may be left out, but a column the form does not know is refused, naming its row and column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from openpyxl.utils import get_column_letter

from domain.errors import InvalidInput

# header as written (spaces removed) → the field it fills
COLUMNS: dict[str, str] = {
    "编号": "number",
    "序号": "number",
    "工号": "staff_id",
    "参赛选手姓名": "name",
    "选手姓名": "name",
    "姓名": "name",
    "手机号码": "phone",
    "手机号": "phone",
    "手机": "phone",
    "联系电话": "phone",
    "角色": "role",
    "职务": "role",
}
KNOWN_HEADERS = "编号, 工号, 参赛选手姓名 (or 姓名), 手机号码 (or 联系电话), 角色"
LABEL = re.compile(r"^(分工会联系人|联系人|联系电话|分工会):(.*)$")
FOOTER_LABELS = frozenset({"分工会联系人", "联系人", "联系电话"})
SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class FormRow:
    row: int
    """the row's number in the sheet, from 1, as Excel shows it"""
    number: str
    staff_id: str
    name: str
    phone: str
    role: str


@dataclass(frozen=True)
class RegistrationForm:
    branch: str | None
    contact: str | None
    contact_phone: str | None
    headers: dict[str, str]
    """field → the header as the sheet writes it, to name a column in a report"""
    rows: list[FormRow]


@dataclass(frozen=True)
class RosterRole:
    leader: bool
    coach: bool
    plays: bool


def normalized(text: str) -> str:
    """Full-width letters, digits and colons as ASCII (ＸＸ, １３９, ：), spaces removed."""
    return SPACES.sub("", unicodedata.normalize("NFKC", text))


def cell_name(row: int, column: int) -> str:
    return f"rows[{row}].{get_column_letter(column + 1)}"


def _label(cells: Sequence[str]) -> tuple[str, str] | None:
    """``分工会：计算机学院`` in one cell, or the label in one and the value in the next."""
    filled = [normalized(cell) for cell in cells if cell.strip()]
    if not filled:
        return None
    found = LABEL.match(filled[0]) or LABEL.match(filled[0] + ":")
    if found is None:
        return None
    value = found.group(2) or (filled[1] if len(filled) > 1 else "")
    return found.group(1), value


def _header(cells: Sequence[str], row: int) -> dict[int, str] | None:
    """The columns, when this row is the header row (it names the players' column)."""
    names = [normalized(cell) for cell in cells]
    if not any(COLUMNS.get(name) == "name" for name in names):
        return None
    columns: dict[int, str] = {}
    for index, name in enumerate(names):
        if not name:
            continue
        field = COLUMNS.get(name)
        if field is None:
            raise InvalidInput(
                f"column {get_column_letter(index + 1)} of row {row} is headed {cells[index]!r}; "
                f"a registration form's columns are {KNOWN_HEADERS}",
                rule="sheet-unknown-header",
                field=cell_name(row, index),
            )
        if field in columns.values():
            raise InvalidInput(
                f"row {row} has two {field} columns ({cells[index]!r} in column {get_column_letter(index + 1)})",
                rule="sheet-duplicate-header",
                field=cell_name(row, index),
            )
        columns[index] = field
    return columns


def parse_form(grid: Sequence[Sequence[str]]) -> RegistrationForm:
    labels: dict[str, str] = {}
    columns: dict[int, str] | None = None
    headers: dict[str, str] = {}
    rows: list[FormRow] = []
    in_footer = False
    for number, cells in enumerate(grid, start=1):
        label = _label(cells)
        if label is not None and (columns is None or label[0] in FOOTER_LABELS):
            labels.setdefault(label[0], label[1])
            in_footer = in_footer or columns is not None
            continue
        if columns is None:
            columns = _header(cells, number)
            if columns is not None:
                headers = {field: normalized(cells[index]) for index, field in columns.items()}
            continue
        if in_footer or not any(cell.strip() for cell in cells):
            continue
        rows.append(_row(cells, number, columns))
    if columns is None:
        raise InvalidInput(
            f"no row names the columns; a registration form has a header row with {KNOWN_HEADERS}",
            rule="sheet-no-header",
            field="rows",
        )
    return RegistrationForm(
        branch=labels.get("分工会") or None,
        contact=labels.get("分工会联系人") or labels.get("联系人") or None,
        contact_phone=labels.get("联系电话") or None,
        headers=headers,
        rows=[row for row in rows if row.name or row.staff_id or row.phone],
    )


def _row(cells: Sequence[str], number: int, columns: dict[int, str]) -> FormRow:
    values = dict.fromkeys(("number", "staff_id", "name", "phone", "role"), "")
    for index, cell in enumerate(cells):
        if not cell.strip():
            continue
        field = columns.get(index)
        if field is None:
            raise InvalidInput(
                f"row {number} has {cell!r} in column {get_column_letter(index + 1)}, which has no header",
                rule="sheet-unnamed-column",
                field=cell_name(number, index),
            )
        values[field] = cell.strip() if field == "name" else normalized(cell)
    return FormRow(row=number, **values)


def roster_role(text: str, *, field: str) -> RosterRole:
    """领队 and 教练 count in a team's 10–15 (seed 000 §六.1 含领队教练); they play unless marked 不上场."""
    role = normalized(text)
    leader, coach = "领队" in role, "教练" in role
    plays = "不上场" not in role
    rest = role.replace("领队", "").replace("教练", "").replace("不上场", "").strip("、,/()（）")
    if rest not in ("", "队员", "选手"):
        raise InvalidInput(
            f"角色 {text!r} is not one of 队员, 领队, 教练 (optionally 不上场)",
            rule="sheet-unknown-role",
            field=field,
        )
    return RosterRole(leader=leader, coach=coach, plays=plays)


def group_rows(rows: Sequence[FormRow], *, whole_sheet: bool, size: int) -> list[list[FormRow]]:
    """A team's form is one entry; a pairs form holds one entry per ``size`` rows, in order."""
    if whole_sheet:
        return [list(rows)] if rows else []
    return [list(rows[start : start + size]) for start in range(0, len(rows), size)]
