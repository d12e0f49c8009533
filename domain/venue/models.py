"""Answers of the venue area: score sheets (记分表) and the big screen's board (大屏).

Plain pydantic models; the service fills them, the pages render them. The board is public: names
and figures only, never a phone number or a staff id. A score sheet carries its game's scorer token
and is a referee's.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from domain.rules.levels import Side
from domain.schedule.models import RoundSummary
from domain.scoring.models import GameState, StandingsOut
from domain.venue.clock import ClockPhase


class SheetSeat(BaseModel):
    seat: str = Field(description="N, E, S or W")
    name: str
    entry_name: str
    branch: str | None


class ScoreSheet(BaseModel):
    """One table's sheet: who sits where, and the token its QR code carries."""

    game_id: int
    match_no: int
    game_no: int
    pair_no: int | None = Field(description="team events: pair k meets pair k (seed 000 §八.2)")
    table_no: int | None
    group: str | None
    ns_name: str
    ew_name: str
    seats: list[SheetSeat] = Field(description="N, E, S, W")
    token: str
    token_expires_at: datetime


class ScoreSheets(BaseModel):
    round_id: int
    event_name: str
    round_number: int
    starts_at: datetime | None
    ends_at: datetime | None
    deal_rows: int = Field(description="rows of the deal grid on each sheet")
    sheets: list[ScoreSheet]


class LiveTable(BaseModel):
    """One table of the current round as the hall sees it."""

    game_id: int
    table_no: int | None
    group: str | None
    ns_name: str
    ew_name: str
    ns_level: str = Field(description="the level as a card reads: 2..10, J, Q, K, A, 过A")
    ew_level: str
    declarer: Side | None
    deals: int
    state: GameState
    winner: Side | None


class ClockOut(BaseModel):
    phase: ClockPhase
    deadline: datetime | None
    seconds_left: int | None
    warning_minutes: int
    warning: str = Field(description="what the last minutes mean under the event's rules")


class Board(BaseModel):
    """The big screen: event, current round with its clock, standings by group, live tables."""

    event_id: int
    event_name: str
    round: RoundSummary | None
    clock: ClockOut | None
    standings: StandingsOut
    tables: list[LiveTable]
    now: datetime
    etag: str
