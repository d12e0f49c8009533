"""Every query of the schedule area (draws, rounds, matches, games, check-ins, final results)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, delete
from sqlmodel import Session, col, select

from domain.paging import EVERY_ROW, Page, Paged
from storage.paging import fetch_page
from storage.tables import CheckIn, Draw, Event, Game, GameResult, Match, MatchEntry, Round

FINAL = "final"


def draw(session: Session, event_id: int, stage: str, *, lock: bool = False) -> Draw | None:
    query = select(Draw).where(Draw.event_id == event_id, Draw.stage == stage)
    return session.exec(query.with_for_update() if lock else query).first()


def event_for_update(session: Session, event_id: int) -> Event | None:
    # serialises draws and round generation of one event on PostgreSQL
    return session.exec(select(Event).where(Event.id == event_id).with_for_update()).first()


def round_by_number(session: Session, event_id: int, stage: str, number: int) -> Round | None:
    return session.exec(
        select(Round).where(Round.event_id == event_id, Round.stage == stage, Round.number == number)
    ).first()


def round_(session: Session, round_id: int) -> Round | None:
    return session.get(Round, round_id)


def rounds_of(session: Session, event_id: int, *, page: Page = EVERY_ROW) -> Paged[Round]:
    query = select(Round).where(Round.event_id == event_id)
    return fetch_page(session, query.order_by(col(Round.stage), col(Round.number), col(Round.id)), page)


def matches_of(session: Session, round_id: int) -> list[Match]:
    return list(session.exec(select(Match).where(Match.round_id == round_id).order_by(col(Match.match_no))))


def match_entries(session: Session, match_ids: list[int]) -> list[MatchEntry]:
    if not match_ids:
        return []
    return list(
        session.exec(
            select(MatchEntry)
            .where(col(MatchEntry.match_id).in_(match_ids))
            .order_by(col(MatchEntry.match_id), col(MatchEntry.position))
        )
    )


def games_of(session: Session, round_id: int) -> list[Game]:
    return list(
        session.exec(select(Game).where(Game.round_id == round_id).order_by(col(Game.table_no), col(Game.id)))
    )


def clear_round(session: Session, round_id: int) -> None:
    """Removes an unpublished pairing's matches, sides and games before it is generated again."""
    match_ids = select(Match.id).where(Match.round_id == round_id)
    session.exec(delete(Game).where(col(Game.round_id) == round_id))
    session.exec(delete(MatchEntry).where(col(MatchEntry.match_id).in_(match_ids)))
    session.exec(delete(Match).where(col(Match.round_id) == round_id))
    session.flush()


@dataclass(frozen=True)
class PlayedSide:
    """One side of one match of an earlier round, with its game results."""

    round_number: int
    match_id: int
    match_no: int
    group: str | None
    bracket_slot: int | None
    is_bye: bool
    entry_id: int
    position: int
    side: str | None


def sides_before(session: Session, event_id: int, stage: str, number: int) -> list[PlayedSide]:
    """Every side of every match in the rounds of ``stage`` numbered below ``number``."""
    rows = session.exec(
        select(Round.number, Match, MatchEntry)
        .join(Match, col(Match.round_id) == Round.id)
        .join(MatchEntry, col(MatchEntry.match_id) == Match.id)
        .where(Round.event_id == event_id, Round.stage == stage, col(Round.number) < number)
        .order_by(col(Round.number), col(Match.match_no), col(MatchEntry.position))
    )
    return [
        PlayedSide(
            round_number=round_number,
            match_id=match.id or 0,
            match_no=match.match_no,
            group=match.group_label,
            bracket_slot=match.bracket_slot,
            is_bye=match.is_bye,
            entry_id=side.entry_id,
            position=side.position,
            side=side.side,
        )
        for round_number, match, side in rows
    ]


@dataclass(frozen=True)
class GameFinal:
    """A game of an earlier round and, when its result is final, the winner and points by side;
    a Gongzhu table's ``ranking`` is its seats best first, a tie ordered by the referee."""

    round_number: int
    match_id: int
    game_id: int
    final: bool
    winner_side: str | None
    points: dict[str, Any]
    ranking: tuple[str, ...] = ()


def games_before(session: Session, event_id: int, stage: str, number: int) -> list[GameFinal]:
    """Games of the rounds below ``number``, read from ``game_result`` (state final)."""
    return _game_finals(session, event_id, stage, col(Round.number) < number)


def stage_game_finals(session: Session, event_id: int, stage: str) -> list[GameFinal]:
    """Every game of the stage's rounds, read from ``game_result`` (state final)."""
    return _game_finals(session, event_id, stage)


def _game_finals(session: Session, event_id: int, stage: str, *where: ColumnElement[bool]) -> list[GameFinal]:
    rows = session.exec(
        select(Round.number, Game, GameResult)
        .join(Game, col(Game.round_id) == Round.id)
        .join(GameResult, col(GameResult.game_id) == Game.id, isouter=True)
        .where(Round.event_id == event_id, Round.stage == stage, *where)
        .order_by(col(Round.number), col(Game.id))
    )
    out = []
    for round_number, game, result in rows:
        final = result is not None and result.state == FINAL
        outcome = (result.outcome or {}) if final and result is not None else {}
        out.append(
            GameFinal(
                round_number=round_number,
                match_id=game.match_id,
                game_id=game.id or 0,
                final=final,
                winner_side=result.winner_side if final and result is not None else None,
                points=dict(outcome.get("points") or {}),
                ranking=tuple(outcome.get("ranking") or ()),
            )
        )
    return out


def check_ins(session: Session, round_id: int) -> list[CheckIn]:
    return list(
        session.exec(select(CheckIn).where(CheckIn.round_id == round_id).order_by(col(CheckIn.entry_id)))
    )
