"""Reads an uploaded spreadsheet into a grid of text cells: .xlsx through openpyxl, .csv in UTF-8
(with or without a byte order mark) or GB18030 — what Chinese Excel writes when it saves a CSV.

The content decides the format, not the file name: an .xlsx is a zip archive, a .csv is text.
Anything else (a legacy .xls, a PDF, a picture) is refused before a cell is read.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from domain.errors import InvalidInput

MAX_SHEET_BYTES = 1_000_000
MAX_ROWS = 2_000
MAX_COLUMNS = 30
ZIP_MAGIC = b"PK\x03\x04"
OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the pre-2007 .xls
ACCEPTED_SUFFIXES = frozenset({"", ".xlsx", ".csv", ".txt"})


@dataclass(frozen=True)
class Grid:
    """Rows of text cells, as a person reads them; ``encoding`` is how a .csv was decoded."""

    file_format: str
    encoding: str | None
    rows: list[list[str]]


def _refuse(detail: str, *, rule: str = "not-a-spreadsheet") -> InvalidInput:
    return InvalidInput(detail, rule=rule, field="file")


def read_grid(content: bytes, *, filename: str) -> Grid:
    if len(content) > MAX_SHEET_BYTES:
        raise _refuse(
            f"the file has {len(content)} bytes; a registration form is at most {MAX_SHEET_BYTES}",
            rule="sheet-too-large",
        )
    if not content.strip():
        raise _refuse("the file is empty", rule="sheet-empty")
    suffix = PurePath(filename).suffix.lower()
    if content.startswith(OLE2_MAGIC):
        raise _refuse(f"{filename} is a legacy .xls workbook; save it as .xlsx (Excel 2007+) or .csv")
    if suffix not in ACCEPTED_SUFFIXES:
        raise _refuse(f"{filename} is not a spreadsheet: send an .xlsx or a .csv")
    if content.startswith(ZIP_MAGIC):
        return Grid("xlsx", None, _bounded(_xlsx_rows(content, filename)))
    text, encoding = _decode(content, filename)
    delimiter = "\t" if "\t" in text.partition("\n")[0] and "," not in text.partition("\n")[0] else ","
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return Grid("csv", encoding, _bounded([cell.strip() for cell in row] for row in rows))


def _decode(content: bytes, filename: str) -> tuple[str, str]:
    if b"\x00" in content:
        raise _refuse(f"{filename} is not a text .csv (it holds binary data)")
    if content.startswith(b"\xef\xbb\xbf"):
        return content[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    for encoding in ("utf-8", "gb18030"):
        try:
            return content.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise _refuse(f"{filename} is neither UTF-8 nor GB18030 text")


def _xlsx_rows(content: bytes, filename: str) -> list[list[str]]:
    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, ValueError):
        raise _refuse(f"{filename} is a zip archive but not an .xlsx workbook") from None
    try:
        page = book.worksheets[0]
        rows: list[list[str]] = []
        for row in page.iter_rows(values_only=True):
            if len(rows) > MAX_ROWS:
                break
            rows.append([_text(value) for value in row[: MAX_COLUMNS + 1]])
        return rows
    finally:
        book.close()


def _text(value: object) -> str:
    """A cell as typed: Excel stores a phone typed as a number as 13912345678 or 13912345678.0."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _bounded(rows: Iterable[list[str]]) -> list[list[str]]:
    kept: list[list[str]] = []
    for row in rows:
        while row and not row[-1]:
            row = row[:-1]
        if len(row) > MAX_COLUMNS:
            raise _refuse(
                f"row {len(kept) + 1} has {len(row)} columns; a registration form has at most {MAX_COLUMNS}",
                rule="sheet-too-large",
            )
        kept.append(row)
        if len(kept) > MAX_ROWS:
            raise _refuse(f"the sheet has more than {MAX_ROWS} rows", rule="sheet-too-large")
    while kept and not any(kept[-1]):
        kept.pop()
    return kept
