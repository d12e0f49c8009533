"""A table of plain values and its two renderings, .xlsx (openpyxl) and .csv, from one model.

Both formats carry the same header and rows; the .xlsx adds a title row above the header,
freezes both and sizes the columns to their content, so the sheet prints as the union hands it out.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

Cell = str | int | None

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV_MEDIA_TYPE = "text/csv; charset=utf-8"
# Excel reads a .csv as the machine's ANSI code page (GBK on a Chinese Windows) unless it starts
# with a UTF-8 byte order mark.
UTF8_BOM = "\ufeff"
MIN_WIDTH, MAX_WIDTH = 6, 40
SHEET_NAME_MAX = 31  # Excel's limit
SHEET_NAME_FORBIDDEN = str.maketrans(dict.fromkeys("[]:*?/\\", " "))


class SheetFormat(StrEnum):
    xlsx = "xlsx"
    csv = "csv"

    @property
    def media_type(self) -> str:
        return XLSX_MEDIA_TYPE if self is SheetFormat.xlsx else CSV_MEDIA_TYPE


@dataclass(frozen=True)
class Sheet:
    """``title`` heads the .xlsx (and names the file); ``name`` is the worksheet tab."""

    name: str
    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Cell]]


def display_width(value: Cell) -> int:
    """Columns a value takes in a monospaced view: a Chinese character counts two."""
    text = "" if value is None else str(value)
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def column_widths(sheet: Sheet) -> list[int]:
    widths = [display_width(header) for header in sheet.headers]
    for row in sheet.rows:
        for index, value in enumerate(row):
            widths[index] = max(widths[index], display_width(value))
    return [min(MAX_WIDTH, max(MIN_WIDTH, width + 2)) for width in widths]


def render(sheet: Sheet, sheet_format: SheetFormat) -> bytes:
    return to_xlsx(sheet) if sheet_format is SheetFormat.xlsx else to_csv(sheet)


def to_csv(sheet: Sheet) -> bytes:
    out = io.StringIO(newline="")
    out.write(UTF8_BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(sheet.headers)
    writer.writerows(["" if value is None else value for value in row] for row in sheet.rows)
    return out.getvalue().encode("utf-8")


def _storable(value: Cell) -> Cell:
    """XML (inside .xlsx) cannot hold most control characters; a name stored with one (the service
    keeps names verbatim) is written without them rather than failing the whole download."""
    return ILLEGAL_CHARACTERS_RE.sub("", value) if isinstance(value, str) else value


def to_xlsx(sheet: Sheet) -> bytes:
    book = Workbook()
    page = book.active
    assert page is not None
    page.title = sheet.name.translate(SHEET_NAME_FORBIDDEN)[:SHEET_NAME_MAX] or "Sheet1"
    page.append([_storable(sheet.title)])
    page.cell(row=1, column=1).font = Font(bold=True, size=14)
    page.append([_storable(header) for header in sheet.headers])
    for cell in page[2]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(horizontal="center")
    for row in sheet.rows:
        page.append([_storable(value) for value in row])
    page.freeze_panes = "A3"  # the title and header rows stay in view
    for index, width in enumerate(column_widths(sheet), start=1):
        page.column_dimensions[get_column_letter(index)].width = width
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
