"""The answer to a registration form upload: what each row and each entry would become."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal["accepted", "refused"]


class SheetProblem(BaseModel):
    rule: str = Field(
        description="the rule that refused, as the JSON API names it (e.g. quota, phone-format)"
    )
    field: str | None = Field(description="the cell or rows at fault, e.g. rows[7].手机号码")
    detail: str
    extra: dict[str, Any] = Field(default_factory=dict, description="the numbers, e.g. quota and used")


class SheetRowReport(BaseModel):
    row: int = Field(description="the row's number in the sheet, as Excel shows it")
    number: str = Field(description="编号 as written")
    name: str
    entry: int = Field(description="which entry of the form (from 1) the row belongs to")
    status: Status
    problems: list[SheetProblem]


class SheetEntryReport(BaseModel):
    entry: int
    rows: list[int]
    status: Status
    name: str | None = Field(description="the entry's name, as the events service gives it")
    entry_id: int | None = Field(description="set when the entry was stored")
    problems: list[SheetProblem] = Field(description="problems of the entry as a whole (quota, roster size)")


class SheetReport(BaseModel):
    """Every row accepted or refused, before anything is stored; stored only when asked and all pass."""

    event_id: int
    branch_code: str
    file_format: Literal["xlsx", "csv"]
    encoding: str | None = Field(description="how a .csv was decoded: utf-8, utf-8-sig or gb18030")
    dry_run: bool
    stored: bool
    rows_accepted: int
    rows_refused: int
    contact: str | None = Field(description="分工会联系人 as written on the form")
    entries: list[SheetEntryReport]
    rows: list[SheetRowReport]
