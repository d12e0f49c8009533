"""Draws, check-ins, rounds, matches and games (who sits where, when)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from storage.tables.base import json_field, when


class Draw(SQLModel, table=True):
    """A verifiable draw (抽签): the seed's SHA-256 is published before, the seed after."""

    __tablename__ = "draw"
    __table_args__ = (UniqueConstraint("event_id", "stage"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    stage: str = Field(default="main", max_length=24)
    method: str = Field(max_length=16, description="computer or physical")
    status: str = Field(max_length=16, description="committed, revealed or recorded")
    commitment: str | None = Field(default=None, max_length=64)
    seed: str | None = Field(default=None, max_length=128)
    algorithm_version: str = Field(default="", max_length=120)
    entry_ids: list[int] | None = json_field(nullable=True)
    result: dict[str, Any] | None = json_field(nullable=True)
    recorded_by: str = Field(default="", max_length=120)
    created_at: datetime = when()
    revealed_at: datetime | None = when(nullable=True)


class CheckIn(SQLModel, table=True):
    """An entry's arrival (签到) for a round."""

    __tablename__ = "check_in"
    __table_args__ = (UniqueConstraint("round_id", "entry_id"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    entry_id: int = Field(foreign_key="entry.id")
    checked_in_at: datetime = when()
    recorded_by: str = Field(default="", max_length=120)


class Round(SQLModel, table=True):
    """A timed slot (轮次). Its pairing never changes once published (seed 000 §十.4)."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("event_id", "stage", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    stage: str = Field(default="main", max_length=24)
    number: int
    state: str = Field(default="scheduled", max_length=16)
    starts_at: datetime | None = when(nullable=True)
    ends_at: datetime | None = when(nullable=True)
    started_at: datetime | None = when(nullable=True)
    finished_at: datetime | None = when(nullable=True)
    pairing_published_at: datetime | None = when(nullable=True)
    results_published_at: datetime | None = when(nullable=True)
    report: dict[str, Any] | None = json_field(nullable=True)
    version: int = Field(default=1)
    created_at: datetime = when()
    updated_at: datetime = when()


class Match(SQLModel, table=True):
    """Who meets whom in a round (对阵): two entries, or a Gongzhu table of four; a bye has one."""

    __tablename__ = "match"
    __table_args__ = (UniqueConstraint("round_id", "match_no"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    match_no: int
    group_label: str | None = Field(default=None, max_length=16)
    block: int | None = Field(default=None, description="seat block (区) of a team match")
    bracket_slot: int | None = Field(default=None)
    bracket: str = Field(default="main", max_length=16, description="knockout: main or third_place")
    is_bye: bool = Field(default=False)
    winner_entry_id: int | None = Field(default=None, foreign_key="entry.id")
    created_at: datetime = when()


class MatchEntry(SQLModel, table=True):
    """An entry's place in a match: position 1 is the first-named (seed 001 补充说明 4)."""

    __tablename__ = "match_entry"
    __table_args__ = (UniqueConstraint("match_id", "position"), UniqueConstraint("match_id", "entry_id"))

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    entry_id: int = Field(foreign_key="entry.id", index=True)
    position: int
    side: str | None = Field(default=None, max_length=4, description="NS or EW where seats are fixed")


class Game(SQLModel, table=True):
    """One game at one table: a Guandan game between two pairs, a chess/Go game, a Gongzhu table."""

    __tablename__ = "game"
    __table_args__ = (UniqueConstraint("match_id", "game_no"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    game_no: int = Field(description="pair number in a team match, game number in a best of 3")
    table_no: int | None = Field(default=None)
    seats: dict[str, Any] = json_field()
    token_nonce: str = Field(default="", max_length=32, description="rotating it revokes the scorer token")
    created_at: datetime = when()
