"""Every query of the scoring area: games and their results, deals, penalties, audit, standings input."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as columns
from sqlalchemy import update
from sqlmodel import Session, col, select

from storage.tables import (
    AuditEntry,
    Branch,
    Deal,
    Entry,
    Event,
    Game,
    GameResult,
    Lineup,
    LineupPair,
    Match,
    MatchEntry,
    Member,
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


def event(session: Session, event_id: int) -> Event | None:
    return session.get(Event, event_id)


def result_of(session: Session, game_id: int) -> GameResult | None:
    return session.exec(select(GameResult).where(GameResult.game_id == game_id)).first()


def deals_of(session: Session, game_id: int) -> list[Deal]:
    return list(session.exec(select(Deal).where(Deal.game_id == game_id).order_by(col(Deal.deal_no))))


def penalties_of(session: Session, game_id: int) -> list[Penalty]:
    return list(session.exec(select(Penalty).where(Penalty.game_id == game_id).order_by(col(Penalty.id))))


def audit_of(session: Session, game_id: int) -> list[AuditEntry]:
    return list(
        session.exec(
            select(AuditEntry)
            .where(AuditEntry.entity == "game", AuditEntry.entity_id == game_id)
            .order_by(col(AuditEntry.id))
        )
    )


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


def bump_results_version(session: Session, event_id: int) -> None:
    """One atomic increment, so concurrent writers never lose a bump (ETags, the standings cache)."""
    session.execute(
        update(Event).where(col(Event.id) == event_id).values(results_version=col(Event.results_version) + 1)
    )


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
    """One game of a stage as standings read it."""

    game_id: int
    match_id: int
    game_no: int
    round_no: int
    group: str | None
    state: str | None
    outcome: dict[str, Any] | None
    forfeit_side: str | None


def stage_games(session: Session, event_id: int, stage: str) -> list[GameRow]:
    # more columns than sqlmodel's typed select takes: a plain SQLAlchemy select
    rows = session.execute(
        columns(
            col(Game.id),
            col(Game.match_id),
            col(Game.game_no),
            col(Round.number),
            col(Match.group_label),
            col(GameResult.state),
            col(GameResult.outcome),
            col(GameResult.forfeit_side),
        )
        .join(Round, col(Round.id) == Game.round_id)
        .join(Match, col(Match.id) == Game.match_id)
        .outerjoin(GameResult, col(GameResult.game_id) == Game.id)
        .where(col(Game.event_id) == event_id, col(Round.stage) == stage)
    )
    return [
        GameRow(
            game_id=game_id,
            match_id=match_id,
            game_no=game_no,
            round_no=round_no,
            group=group,
            state=state,
            outcome=outcome,
            forfeit_side=forfeit_side,
        )
        for game_id, match_id, game_no, round_no, group, state, outcome, forfeit_side in rows
        if game_id is not None
    ]


@dataclass(frozen=True, slots=True)
class MatchSide:
    match_id: int
    round_no: int
    group: str | None
    is_bye: bool
    entry_id: int
    position: int
    side: str | None


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
        )
        for match_id, round_no, group, is_bye, entry_id, position, side in rows
        if match_id is not None
    ]


def entries_with_branch(session: Session, event_id: int) -> list[tuple[Entry, str]]:
    rows = session.exec(
        select(Entry, Branch.name)
        .outerjoin(Branch, col(Branch.id) == Entry.branch_id)
        .where(Entry.event_id == event_id)
    )
    return [(entry, branch or "") for entry, branch in rows]


def latest_stage(session: Session, event_id: int) -> str | None:
    return session.exec(
        select(Round.stage)
        .where(Round.event_id == event_id)
        .order_by(col(Round.pairing_published_at).desc().nulls_last(), col(Round.id).desc())
        .limit(1)
    ).first()


def dean_counts(session: Session, event_id: int) -> dict[int, int]:
    """Distinct deans or party secretaries each team fielded in a lineup (seed 000 §七)."""
    rows = session.exec(
        select(Lineup.entry_id, Member.id)
        .join(LineupPair, col(LineupPair.lineup_id) == Lineup.id)
        .join(
            Member,
            (col(Member.id) == LineupPair.first_member_id) | (col(Member.id) == LineupPair.second_member_id),
        )
        .join(Entry, col(Entry.id) == Lineup.entry_id)
        .where(Entry.event_id == event_id, col(Member.is_dean_or_secretary).is_(True))
        .distinct()
    )
    counts: dict[int, int] = {}
    for entry_id, _member in rows:
        counts[entry_id] = counts.get(entry_id, 0) + 1
    return counts


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
