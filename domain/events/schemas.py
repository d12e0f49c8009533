"""Requests and answers of the events area, as the union system and the dashboards see them.

Public answers carry names and branches only: never a phone number or a staff id.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.events.models import EntryKind, EntryStatus, EventConfig, EventState, Format, Moment
from domain.rules.ruleset import Discipline, RuleSet

StaffId = Field(min_length=1, max_length=64, description="工号, the member's staff id")


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# Branches and members ------------------------------------------------------------------------


class BranchIn(_In):
    name: str = Field(min_length=1, max_length=200, examples=["计算机学院分工会"])
    member_count: int = Field(
        strict=True, ge=0, description="Union members of the branch, as the union system counts them."
    )


class BranchRow(BranchIn):
    code: str = Field(min_length=1, max_length=64, examples=["CS"])


class BranchOut(BaseModel):
    code: str
    name: str
    member_count: int


class MemberIn(_In):
    name: str = Field(min_length=1, max_length=100)
    branch_code: str = Field(min_length=1, max_length=64)
    phone: str | None = Field(
        default=None, max_length=20, description="Mainland mobile; stored, never public."
    )
    is_union_member: bool = Field(default=True, strict=True)
    is_school_leader: bool = Field(
        strict=True, default=False, description="校领导 (seed 001 §一: enters outside quota)"
    )
    is_dean_or_secretary: bool = Field(
        strict=True, default=False, description="正职院长/书记 (seed 000 §七 bonus)"
    )


class MemberRow(MemberIn):
    staff_id: str = StaffId


class MemberOut(BaseModel):
    """A member as the union system knows them (union keys only)."""

    staff_id: str
    name: str
    branch_code: str
    phone: str | None
    is_union_member: bool
    is_school_leader: bool
    is_dean_or_secretary: bool


class DirectoryIn(_In):
    """Branches first, then members: a member may name a branch sent in the same call."""

    branches: list[BranchRow] = Field(default_factory=list, max_length=2000)
    members: list[MemberRow] = Field(default_factory=list, max_length=20000)


class RowError(BaseModel):
    section: Literal["branches", "members"]
    index: int = Field(description="Position of the row in its list, from 0.")
    key: str = Field(description="The row's branch code or staff id.")
    rule: str
    field: str | None = None
    detail: str


class DirectoryReport(BaseModel):
    """Rows without an error are stored (in one transaction); rows with one are listed and skipped."""

    branches_created: int = 0
    branches_updated: int = 0
    branches_unchanged: int = 0
    members_created: int = 0
    members_updated: int = 0
    members_unchanged: int = 0
    errors: list[RowError] = Field(default_factory=list)


# Competitions and events ----------------------------------------------------------------------


class CompetitionIn(_In):
    name: str = Field(min_length=1, max_length=200)
    organiser: str = Field(default="", max_length=200)
    venue: str = Field(default="", max_length=200)
    starts_on: date | None = None
    ends_on: date | None = None
    one_event_per_member: bool = Field(strict=True, default=False, description="seed 004 §一.3 不得兼报")


class EventSummary(BaseModel):
    id: int
    name: str
    discipline: str
    entry_kind: EntryKind
    format: Format
    state: EventState


class CompetitionOut(BaseModel):
    id: int
    name: str
    organiser: str
    venue: str
    starts_on: date | None
    ends_on: date | None
    one_event_per_member: bool
    events: list[EventSummary]


class EventIn(_In):
    name: str = Field(min_length=1, max_length=200)
    discipline: Discipline
    entry_kind: EntryKind
    format: Format
    preset: str = Field(min_length=1, max_length=64, description="A rule set preset, e.g. nuist-2023.")
    rule_overrides: dict[str, Any] = Field(default_factory=dict, description="RuleSet fields replaced.")
    config: dict[str, Any] = Field(
        default_factory=dict,
        description="An EventConfig; roster_min, roster_max, pairs_per_match and leader_required "
        "default by entry kind (team 10–15 with 5 pairs and a leader, pair 2, individual 1).",
    )
    registration_opens_at: Moment | None = None
    registration_closes_at: Moment | None = None


class EventPatch(_In):
    """Fields to change; the config and the overrides are replaced whole."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    preset: str | None = Field(default=None, min_length=1, max_length=64)
    rule_overrides: dict[str, Any] | None = None
    config: dict[str, Any] | None = None
    registration_opens_at: Moment | None = None
    registration_closes_at: Moment | None = None


class EventOut(BaseModel):
    id: int
    competition_id: int
    name: str
    discipline: Discipline
    entry_kind: EntryKind
    format: Format
    preset: str
    rule_overrides: dict[str, Any]
    rules: RuleSet = Field(description="The effective rule set: the preset with the overrides.")
    config: EventConfig
    state: EventState
    registration_opens_at: datetime | None
    registration_closes_at: datetime | None
    results_version: int


class TransitionIn(_In):
    to_state: EventState


# Registrations and entries --------------------------------------------------------------------


class RegistrationIn(_In):
    staff_id: str = StaffId
    note: str = Field(default="", max_length=500)


class RegistrationOut(BaseModel):
    """A member's personal registration (union keys only: it names the staff id)."""

    id: int
    event_id: int
    staff_id: str
    name: str
    branch_code: str
    note: str
    entry_id: int | None = Field(description="The entry whose roster the member is on, if any.")
    created_at: datetime


class LeaderIn(_In):
    """领队: staff id, name and phone, as seed 000 §六.3 asks."""

    staff_id: str = StaffId
    name: str = Field(min_length=1, max_length=100)
    phone: str = Field(min_length=1, max_length=20)


class RosterItemIn(_In):
    staff_id: str = StaffId
    coach: bool = Field(default=False, strict=True)
    plays: bool = Field(strict=True, default=True, description="False for a leader or coach who never plays.")


class EntryForm(_In):
    name: str | None = Field(
        default=None, min_length=1, max_length=200, description="Default: the branch's name."
    )
    leader: LeaderIn | None = None
    roster: list[RosterItemIn] = Field(min_length=1, max_length=40)


class EntryIn(EntryForm):
    branch_code: str = Field(min_length=1, max_length=64)
    outside_quota: bool = Field(
        strict=True, default=False, description="A school leader's entry (seed 001 §一)."
    )


class RejectIn(_In):
    reason: str = Field(min_length=1, max_length=500)


class RosterOut(BaseModel):
    position: int
    name: str
    branch_code: str
    is_leader: bool
    is_coach: bool
    plays: bool


class EntryOut(BaseModel):
    """An entry as anyone may read it: names and branches, no phone numbers, no staff ids."""

    id: int
    event_id: int
    name: str
    branch_code: str | None
    branch_name: str | None
    status: EntryStatus
    outside_quota: bool
    seed: int | None
    leader_name: str | None
    rejection_reason: str | None
    roster: list[RosterOut]
    submitted_at: datetime | None
    confirmed_at: datetime | None


class LineupPairIn(_In):
    pair_no: int = Field(strict=True, ge=1)
    players: list[str] = Field(min_length=2, max_length=2, description="Two staff ids from the roster.")


class LineupIn(_In):
    pairs: list[LineupPairIn] = Field(min_length=1, max_length=20)


class LineupPairOut(BaseModel):
    pair_no: int
    players: list[str] = Field(description="The two players' names.")


class LineupOut(BaseModel):
    entry_id: int
    round_number: int
    locked: bool
    pairs: list[LineupPairOut]
