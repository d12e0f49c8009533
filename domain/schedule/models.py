"""Requests and answers of the schedule area: draws, rounds, match tables, seat maps, check-ins.

Public answers carry names and branch names only: never a phone number or a staff id.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.events.models import Bracket


class RoundState(StrEnum):
    """scheduled (pairing generated, still changeable) → published (the pairing is fixed,
    seed 000 §十.4) → started → finished."""

    SCHEDULED = "scheduled"
    PUBLISHED = "published"
    STARTED = "started"
    FINISHED = "finished"


class Stage(StrEnum):
    """main: the event's draw and rounds; final: the round robin of the top of each group
    (seed 004 §三.1 第二阶段单循环决定名次), numbered by a draw of its own."""

    MAIN = "main"
    FINAL = "final"


class DrawMethod(StrEnum):
    COMPUTER = "computer"
    PHYSICAL = "physical"


class DrawStatus(StrEnum):
    COMMITTED = "committed"  # the seed's SHA-256 is public, the seed still secret
    REVEALED = "revealed"  # the draw ran and its seed is public
    RECORDED = "recorded"  # lots drawn on site, entered by a referee


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# Draws ----------------------------------------------------------------------------------------


class GroupIn(_In):
    name: str = Field(min_length=1, max_length=16, examples=["A"])
    entry_ids: list[int] = Field(min_length=1, description="In drawn order: position k is drawn number k.")


class BracketIn(_In):
    group: str | None = Field(
        default=None, max_length=16, description="The group's bracket; null without groups."
    )
    slots: list[int | None] = Field(
        min_length=2,
        description="Entry ids in bracket order, null for a bye; slots 2k and 2k+1 meet in round 1.",
    )


class PhysicalDrawIn(_In):
    """Lots drawn on site (seed 000 §八.2 现场抽签, seed 002 §四 领队抽签): groups for a team
    rotation or a round robin, bracket slots (per group) for a knockout."""

    groups: list[GroupIn] = Field(default_factory=list)
    brackets: list[BracketIn] = Field(default_factory=list)
    note: str = Field(default="", max_length=500)


class SharedBranchOut(BaseModel):
    where: str = Field(description="group, quarter or table the entries share")
    branch: str
    entry_ids: list[int]


class DrawOut(BaseModel):
    """A draw as anyone may check it: rerun ``algorithm_version`` with ``seed`` over ``entry_ids``."""

    event_id: int
    stage: str
    method: DrawMethod
    status: DrawStatus
    commitment: str | None = Field(description="SHA-256 (hex) of the seed, published before the draw")
    seed: str | None = Field(description="revealed once the draw has run; null before")
    algorithm_version: str
    entry_ids: list[int] | None = Field(description="the confirmed entries the draw used, sorted")
    result: dict[str, Any] | None = Field(
        description="per format: groups (name → entry ids by drawn number), brackets (group → slots), "
        "order and round-1 tables (Swiss), tables (Gongzhu); same_branch lists what could not be kept apart"
    )
    recorded_by: str
    created_at: datetime
    revealed_at: datetime | None


# Rounds ---------------------------------------------------------------------------------------


class OverrideIn(_In):
    override: bool = Field(
        default=False,
        description="Go on although some result is not final (a referee's decision, logged in the "
        "round's report with the reason).",
    )
    reason: str = Field(default="", max_length=500)


class DrawIn(OverrideIn):
    """Run a committed draw; the final stage's waits for every group result to be final."""


class GenerateIn(OverrideIn):
    """Pair a round; a result-driven round waits for the previous round's final results."""


class FinishIn(OverrideIn):
    """Finish a round; it waits for its own final results."""


class SwapIn(_In):
    entry_a: int = Field(ge=1)
    entry_b: int = Field(ge=1)
    reason: str = Field(min_length=3, max_length=500)


class SeatOut(BaseModel):
    entry_id: int
    entry_name: str
    member_id: int | None = Field(description="null while a team has not named this pair")
    name: str = Field(description="the player's name, or the entry's while the player is not known")
    branch: str | None = Field(description="the branch's name")
    pair_no: int | None = None


class EntrySideOut(BaseModel):
    entry_id: int
    name: str
    branch: str | None
    position: int = Field(description="1 is the first-named (seed 001 补充说明 4)")
    side: str | None = Field(description="NS or EW where seats are fixed")


class TableOut(BaseModel):
    """One game at one table: seats N/E/S/W (Guandan, Gongzhu) or first/second (chess, Go)."""

    game_id: int
    match_no: int
    game_no: int
    table_no: int | None
    block: int | None
    group: str | None
    seats: dict[str, SeatOut]
    first_movers: list[str] | None = Field(
        default=None, description="chess/Go: who moves first in each game of the match, as seat keys"
    )


class MatchOut(BaseModel):
    match_no: int
    group: str | None
    block: int | None = Field(description="seat block (区) of a team match")
    bracket_slot: int | None = Field(description="knockout: the match's number in its bracket round")
    bracket: Bracket = Field(description="knockout: the main draw, or the third-place match")
    is_bye: bool
    entries: list[EntrySideOut]
    table_nos: list[int]


class RoundSummary(BaseModel):
    id: int
    event_id: int
    stage: str
    number: int
    state: RoundState
    starts_at: datetime | None
    ends_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    pairing_published_at: datetime | None


class RoundOut(RoundSummary):
    """The match table (轮次对阵表) and the seat map (座位区位图) of one round."""

    event_name: str
    discipline: str
    matches: list[MatchOut] = Field(description="empty for the public until the pairing is published")
    tables: list[TableOut] = Field(description="every table of the round by table number")
    report: dict[str, Any] | None = Field(
        description="what each constraint cost, the byes, overrides and swaps (referee and union only)"
    )


# Check-in -------------------------------------------------------------------------------------


class CheckInIn(_In):
    entry_ids: list[int] = Field(min_length=1, max_length=500)


class CheckInOut(BaseModel):
    entry_id: int
    checked_in_at: datetime
    recorded_by: str


class MissingOut(BaseModel):
    entry_id: int
    name: str
    branch: str | None
    match_no: int
    table_nos: list[int]


class MissingReport(BaseModel):
    """Who is not checked in at the round's start or at the late-arrival limit (seed 000 附件 九.1)."""

    round_id: int
    at: Literal["start", "late-limit"]
    moment: datetime
    late_forfeit_minutes: int
    missing: list[MissingOut]
