"""Results: deals, game results, penalties, Gongzhu hands and the audit trail."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from storage.tables.base import json_field, when


class GameResult(SQLModel, table=True):
    """The state and outcome of a game, derived by the rules from its deals, forfeits and penalties."""

    __tablename__ = "game_result"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", unique=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    state: str = Field(default="in_play", max_length=16)
    # reported: the final result posted without deals (levels), or a best-of-N match's games
    end_reason: str | None = Field(default=None, max_length=24)
    winner_side: str | None = Field(default=None, max_length=4)
    time_up_after: int | None = Field(default=None, description="deals completed when time ran out")
    forfeit_side: str | None = Field(default=None, max_length=4, description="the side that forfeited")
    forfeit_reason: str | None = Field(default=None, max_length=24)
    reported: dict[str, Any] | None = json_field(nullable=True)
    outcome: dict[str, Any] = json_field()
    confirmed_a_at: datetime | None = when(nullable=True)
    confirmed_b_at: datetime | None = when(nullable=True)
    final_at: datetime | None = when(nullable=True)
    version: int = Field(default=1)
    updated_at: datetime = when()


class Deal(SQLModel, table=True):
    """One deal (副) as posted by the table's scoring form (逐副)."""

    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("game_id", "deal_no"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    deal_no: int
    finish_order: list[str] = json_field()
    level_adjustments: dict[str, int] | None = json_field(nullable=True)
    tribute: dict[str, Any] | None = json_field(nullable=True)
    note: str = Field(default="", max_length=500)
    version: int = Field(default=1)
    posted_by: str = Field(max_length=80)
    created_at: datetime = when()
    updated_at: datetime = when()


class Penalty(SQLModel, table=True):
    """A warning, foul or missed card report recorded by a referee."""

    __tablename__ = "penalty"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str = Field(max_length=2)
    kind: str = Field(max_length=24)
    deal_no: int | None = Field(default=None)
    note: str = Field(default="", max_length=500)
    recorded_by: str = Field(max_length=80)
    created_at: datetime = when()


class GongzhuHand(SQLModel, table=True):
    """One hand of a Gongzhu table game: captured and exposed cards per seat."""

    __tablename__ = "gongzhu_hand"
    __table_args__ = (UniqueConstraint("game_id", "hand_no"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    hand_no: int
    captured: dict[str, list[str]] = json_field()
    exposed: list[str] = json_field()
    scores: dict[str, int] = json_field()
    version: int = Field(default=1)
    posted_by: str = Field(max_length=80)
    created_at: datetime = when()


class AuditEntry(SQLModel, table=True):
    """Who changed what, when, why: before and after (seed 000 §十 corrections)."""

    __tablename__ = "audit_entry"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int | None = Field(default=None, foreign_key="event.id", index=True)
    entity: str = Field(max_length=32)
    entity_id: int
    action: str = Field(max_length=32)
    actor: str = Field(max_length=80)
    reason: str = Field(default="", max_length=500)
    before: dict[str, Any] | None = json_field(nullable=True)
    after: dict[str, Any] | None = json_field(nullable=True)
    created_at: datetime = when(index=True)
