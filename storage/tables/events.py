"""Branches, members, competitions, events, entries, rosters, registrations and lineups."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from storage.tables.base import json_field, when


class Branch(SQLModel, table=True):
    """A branch union (分工会) or joint branch (联队), synced from the union system."""

    __tablename__ = "branch"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=64, unique=True)
    name: str = Field(max_length=200)
    member_count: int = Field(default=0, description="drives tiered quotas (seed 001 §一)")
    created_at: datetime = when()
    updated_at: datetime = when()


class Member(SQLModel, table=True):
    """A union member (会员), keyed by staff id (工号). The phone is never shown publicly."""

    __tablename__ = "member"

    id: int | None = Field(default=None, primary_key=True)
    staff_id: str = Field(max_length=64, unique=True)
    name: str = Field(max_length=100)
    branch_id: int = Field(foreign_key="branch.id", index=True)
    phone: str | None = Field(default=None, max_length=20)
    is_union_member: bool = Field(default=True)
    is_school_leader: bool = Field(default=False)
    is_dean_or_secretary: bool = Field(default=False)
    created_at: datetime = when()
    updated_at: datetime = when()


class Competition(SQLModel, table=True):
    """An umbrella competition (大赛) holding one or more events."""

    __tablename__ = "competition"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    organiser: str = Field(default="", max_length=200)
    venue: str = Field(default="", max_length=200)
    starts_on: date | None = Field(default=None)
    ends_on: date | None = Field(default=None)
    one_event_per_member: bool = Field(default=False, description="seed 004 §一.3: 不得兼报")
    created_at: datetime = when()
    updated_at: datetime = when()


class Event(SQLModel, table=True):
    """One discipline and one format inside a competition (项目)."""

    __tablename__ = "event"

    id: int | None = Field(default=None, primary_key=True)
    competition_id: int = Field(foreign_key="competition.id", index=True)
    name: str = Field(max_length=200)
    discipline: str = Field(max_length=16)
    entry_kind: str = Field(max_length=16)
    format: str = Field(max_length=24)
    preset: str = Field(max_length=64)
    rule_overrides: dict[str, Any] = json_field()
    config: dict[str, Any] = json_field()
    state: str = Field(default="draft", max_length=24, index=True)
    registration_opens_at: datetime | None = when(nullable=True)
    registration_closes_at: datetime | None = when(nullable=True)
    results_version: int = Field(default=0, description="bumped on every change to results (ETags)")
    version: int = Field(default=1)
    created_at: datetime = when()
    updated_at: datetime = when()


class Entry(SQLModel, table=True):
    """A team, pair or individual entered in an event by a branch."""

    __tablename__ = "entry"
    __table_args__ = (UniqueConstraint("event_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    branch_id: int | None = Field(default=None, foreign_key="branch.id", index=True)
    name: str = Field(max_length=200)
    status: str = Field(default="draft", max_length=16, index=True)
    outside_quota: bool = Field(default=False, description="seed 001 §一: a school leader's entry")
    leader_member_id: int | None = Field(default=None, foreign_key="member.id")
    leader_phone: str | None = Field(default=None, max_length=20, description="never shown publicly")
    seed: int | None = Field(default=None, description="seeded placement in brackets")
    rejection_reason: str | None = Field(default=None, max_length=500)
    version: int = Field(default=1)
    created_at: datetime = when()
    updated_at: datetime = when()
    submitted_at: datetime | None = when(nullable=True)
    confirmed_at: datetime | None = when(nullable=True)
    withdrawn_at: datetime | None = when(nullable=True)


class EntryMember(SQLModel, table=True):
    """A member on an entry's roster. A member is on at most one roster per event."""

    __tablename__ = "entry_member"
    __table_args__ = (UniqueConstraint("event_id", "member_id"),)

    id: int | None = Field(default=None, primary_key=True)
    entry_id: int = Field(foreign_key="entry.id", index=True)
    event_id: int = Field(foreign_key="event.id")
    member_id: int = Field(foreign_key="member.id", index=True)
    position: int = Field(default=0, description="order on the roster (seed 001 附件1 编号)")
    is_player: bool = Field(default=True)
    is_leader: bool = Field(default=False)
    is_coach: bool = Field(default=False)
    created_at: datetime = when()


class Registration(SQLModel, table=True):
    """A member's personal registration for an event through the branch (seed 000 §六.3)."""

    __tablename__ = "registration"
    __table_args__ = (UniqueConstraint("event_id", "member_id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    member_id: int = Field(foreign_key="member.id", index=True)
    branch_id: int = Field(foreign_key="branch.id", index=True)
    status: str = Field(default="submitted", max_length=16)
    note: str = Field(default="", max_length=500)
    created_at: datetime = when()
    updated_at: datetime = when()


class Lineup(SQLModel, table=True):
    """A team's pairs for one round (seed 000 §八.2), locked when the round starts."""

    __tablename__ = "lineup"
    __table_args__ = (UniqueConstraint("entry_id", "round_number"),)

    id: int | None = Field(default=None, primary_key=True)
    entry_id: int = Field(foreign_key="entry.id", index=True)
    round_number: int
    locked_at: datetime | None = when(nullable=True)
    created_at: datetime = when()
    updated_at: datetime = when()


class LineupPair(SQLModel, table=True):
    __tablename__ = "lineup_pair"
    __table_args__ = (UniqueConstraint("lineup_id", "pair_no"),)

    id: int | None = Field(default=None, primary_key=True)
    lineup_id: int = Field(foreign_key="lineup.id", index=True)
    pair_no: int
    first_member_id: int = Field(foreign_key="member.id")
    second_member_id: int = Field(foreign_key="member.id")
