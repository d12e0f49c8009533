"""Every query of the scoring area: games and their results, deals, penalties, audit, standings input."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as columns
from sqlmodel import Session, col, select

from domain.paging import Page, Paged
from storage.paging import fetch_page
from storage.tables import (
    AuditEntry,
    Deal,
    Entry,
    Event,
    Game,
    GameResult,
    GongzhuHand,
    Match,
    MatchEntry,
    Penalty,
    Round,
)


def game(session: Session, game_id: int, *, lock: bool = False) -> Game | None:
    """The game; ``lock`` holds its row until commit, so two posts for one game queue
    (PostgreSQL; SQLite writers are serialized by BEGIN IMMEDIATE)."""
    query = select(Game).where(Game.id == game_id)
    return session.exec(query.with_for_update() if lock else query).first()


def round_(session: Session, round_id: int) -> Round | None:
    return session.get(Round, round_id)


def result_of(session: Session, game_id: int) -> GameResult | None:
    return session.exec(select(GameResult).where(GameResult.game_id == game_id)).first()


def deals_of(session: Session, game_id: int) -> list[Deal]:
    return list(session.exec(select(Deal).where(Deal.game_id == game_id).order_by(col(Deal.deal_no))))


def hands_of(session: Session, game_id: int) -> list[GongzhuHand]:
    return list(
        session.exec(
            select(GongzhuHand).where(GongzhuHand.game_id == game_id).order_by(col(GongzhuHand.hand_no))
        )
    )


def penalties_of(session: Session, game_id: int) -> list[Penalty]:
    return list(session.exec(select(Penalty).where(Penalty.game_id == game_id).order_by(col(Penalty.id))))


def audit_of(session: Session, game_id: int, *, page: Page) -> Paged[AuditEntry]:
    query = select(AuditEntry).where(AuditEntry.entity == "game", AuditEntry.entity_id == game_id)
    return fetch_page(session, query.order_by(col(AuditEntry.id)), page)


def sides_of(session: Session, match_id: int) -> list[tuple[MatchEntry, Entry]]:
    return list(
        session.exec(
            select(MatchEntry, Entry)
            .join(Entry, col(Entry.id) == MatchEntry.entry_id)
            .where(MatchEntry.match_id == match_id)
            .order_by(col(MatchEntry.position))
        )
    )


def add(session: Session, *rows: Any) -> None:
    session.add_all(rows)
    session.flush()


def results_version(session: Session, event_id: int) -> int | None:
    return session.exec(select(Event.results_version).where(Event.id == event_id)).first()


def rounds_of(session: Session, event_id: int) -> list[Round]:
    return list(session.exec(select(Round).where(Round.event_id == event_id).order_by(col(Round.number))))


def round_games(session: Session, round_id: int) -> list[tuple[Game, Match]]:
    return list(
        session.exec(
            select(Game, Match)
            .join(Match, col(Match.id) == Game.match_id)
            .where(Game.round_id == round_id)
            .order_by(col(Match.match_no), col(Game.game_no))
        )
    )


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of a stage as standings read it: the figures only, never the whole outcome."""

    game_id: int
    match_id: int
    game_no: int
    round_no: int
    state: str | None
    points_ns: int
    points_ew: int
    level_ns: int | None
    level_ew: int | None
    winner_side: str | None
    forfeit_side: str | None


def _outcome_int(*path: str) -> Any:
    """An integer inside the outcome document, read by the database (JSON_EXTRACT, ->>)."""
    document: Any = col(GameResult.outcome)
    for key in path:
        document = document[key]
    return document.as_integer()


def stage_games(session: Session, event_id: int, stage: str) -> list[GameRow]:
    # more columns than sqlmodel's typed select takes: a plain SQLAlchemy select
    rows = session.execute(
        columns(
            col(Game.id),
            col(Game.match_id),
            col(Game.game_no),
            col(Round.number),
            col(GameResult.state),
            _outcome_int("points", "NS"),
            _outcome_int("points", "EW"),
            _outcome_int("levels", "NS"),
            _outcome_int("levels", "EW"),
            col(GameResult.winner_side),
            col(GameResult.forfeit_side),
        )
        .join(Round, col(Round.id) == Game.round_id)
        .outerjoin(GameResult, col(GameResult.game_id) == Game.id)
        .where(col(Game.event_id) == event_id, col(Round.stage) == stage)
    )
    return [GameRow(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class MatchSide:
    match_id: int
    round_no: int
    group: str | None
    is_bye: bool
    entry_id: int
    position: int
    side: str | None
    bracket: str


def stage_match_sides(session: Session, event_id: int, stage: str) -> list[MatchSide]:
    rows = session.execute(
        columns(
            col(Match.id),
            col(Round.number),
            col(Match.group_label),
            col(Match.is_bye),
            col(MatchEntry.entry_id),
            col(MatchEntry.position),
            col(MatchEntry.side),
            col(Match.bracket),
        )
        .join(Round, col(Round.id) == Match.round_id)
        .join(MatchEntry, col(MatchEntry.match_id) == Match.id)
        .where(col(Match.event_id) == event_id, col(Round.stage) == stage)
    )
    return [
        MatchSide(
            match_id=match_id,
            round_no=round_no,
            group=group,
            is_bye=is_bye,
            entry_id=entry_id,
            position=position,
            side=side,
            bracket=bracket,
        )
        for match_id, round_no, group, is_bye, entry_id, position, side, bracket in rows
        if match_id is not None
    ]


def latest_stage(session: Session, event_id: int) -> str | None:
    return session.exec(
        select(Round.stage)
        .where(Round.event_id == event_id)
        .order_by(col(Round.pairing_published_at).desc().nulls_last(), col(Round.id).desc())
        .limit(1)
    ).first()


def later_published_rounds(session: Session, round_: Round) -> list[int]:
    return list(
        session.exec(
            select(Round.number)
            .where(
                Round.event_id == round_.event_id,
                Round.stage == round_.stage,
                Round.number > round_.number,
                col(Round.pairing_published_at).is_not(None),
            )
            .order_by(col(Round.number))
        )
    )


def stage_rounds(session: Session, round_: Round) -> Sequence[Round]:
    return list(
        session.exec(select(Round).where(Round.event_id == round_.event_id, Round.stage == round_.stage))
    )


@dataclass(frozen=True, slots=True)
class TableRow:
    """One Gongzhu table of a stage: its seats and, once scored, its result's state and outcome."""

    round_no: int
    seats: dict[str, Any]
    state: str | None
    outcome: dict[str, Any]


def stage_tables(session: Session, event_id: int, stage: str) -> list[TableRow]:
    rows = session.exec(
        select(Round.number, Game.seats, GameResult.state, GameResult.outcome)
        .join(Round, col(Round.id) == Game.round_id)
        .outerjoin(GameResult, col(GameResult.game_id) == Game.id)
        .where(col(Game.event_id) == event_id, col(Round.stage) == stage)
        .order_by(col(Round.number), col(Game.id))
    )
    return [
        TableRow(number, dict(seats or {}), state, dict(outcome or {}))
        for number, seats, state, outcome in rows
    ]
