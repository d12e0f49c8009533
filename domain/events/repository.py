"""Every query of the events area."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, update
from sqlmodel import Session, col, select

from domain.paging import EVERY_ROW, Page, Paged
from storage.paging import fetch_page
from storage.tables import (
    Branch,
    Competition,
    Entry,
    EntryMember,
    Event,
    Game,
    GameResult,
    Lineup,
    LineupPair,
    Member,
    Registration,
    Round,
)

# Keeps IN lists well below SQLite's and PostgreSQL's bound-parameter limits.
CHUNK = 900
# Entries that hold their place in the quota.
QUOTA_STATUSES = ("draft", "submitted", "confirmed")


def _chunks(values: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


# Branches and members


def branch_by_code(session: Session, code: str) -> Branch | None:
    return session.exec(select(Branch).where(Branch.code == code)).first()


def branches_by_code(session: Session, codes: Sequence[str]) -> dict[str, Branch]:
    found: dict[str, Branch] = {}
    for chunk in _chunks(sorted(set(codes))):
        found.update((b.code, b) for b in session.exec(select(Branch).where(col(Branch.code).in_(chunk))))
    return found


def branches_by_id(session: Session, ids: Iterable[int]) -> dict[int, Branch]:
    wanted = sorted(set(ids))
    found: dict[int, Branch] = {}
    for chunk in _chunks(wanted):
        found.update((b.id, b) for b in session.exec(select(Branch).where(col(Branch.id).in_(chunk))) if b.id)
    return found


def branches(session: Session, *, page: Page) -> Paged[Branch]:
    return fetch_page(session, select(Branch).order_by(col(Branch.code)), page)


def member_by_staff_id(session: Session, staff_id: str) -> Member | None:
    return session.exec(select(Member).where(Member.staff_id == staff_id)).first()


def members_by_staff_id(session: Session, staff_ids: Sequence[str]) -> dict[str, Member]:
    found: dict[str, Member] = {}
    for chunk in _chunks(sorted(set(staff_ids))):
        found.update(
            (m.staff_id, m) for m in session.exec(select(Member).where(col(Member.staff_id).in_(chunk)))
        )
    return found


def members_by_id(session: Session, ids: Iterable[int]) -> dict[int, Member]:
    found: dict[int, Member] = {}
    for chunk in _chunks(sorted(set(ids))):
        found.update((m.id, m) for m in session.exec(select(Member).where(col(Member.id).in_(chunk))) if m.id)
    return found


def insert_rows(session: Session, table: type[Branch] | type[Member], rows: list[dict[str, Any]]) -> None:
    """One executemany for many new rows (the bulk sync's path)."""
    if rows:
        session.execute(insert(table), rows)


def update_rows(session: Session, table: type[Branch] | type[Member], rows: list[dict[str, Any]]) -> None:
    """One executemany UPDATE by primary key; each row carries its ``id``."""
    if rows:
        session.execute(update(table), rows)


# Competitions and events


def competition(session: Session, competition_id: int) -> Competition | None:
    return session.get(Competition, competition_id)


def competitions(session: Session, *, page: Page) -> Paged[Competition]:
    return fetch_page(session, select(Competition).order_by(col(Competition.id)), page)


def events_of(session: Session, competition_ids: Sequence[int]) -> list[Event]:
    if not competition_ids:
        return []
    query = select(Event).where(col(Event.competition_id).in_(competition_ids)).order_by(col(Event.id))
    return list(session.exec(query))


def event(session: Session, event_id: int) -> Event | None:
    return session.get(Event, event_id)


def event_for_update(session: Session, event_id: int) -> Event | None:
    """The event row, locked against concurrent changes (PostgreSQL; SQLite writers queue anyway)."""
    return session.exec(select(Event).where(Event.id == event_id).with_for_update()).first()


def bump_results_version(session: Session, event_id: int) -> int | None:
    """One atomic increment, so concurrent writers never lose a bump (ETags, the standings cache)."""
    return session.execute(
        update(Event)
        .where(col(Event.id) == event_id)
        .values(results_version=col(Event.results_version) + 1)
        .returning(col(Event.results_version))
    ).scalar_one_or_none()


def entry_counts_by_status(session: Session, event_id: int) -> dict[str, int]:
    query = select(Entry.status, func.count()).where(Entry.event_id == event_id).group_by(Entry.status)
    return {status: int(count) for status, count in session.exec(query)}


def rounds_and_open_games(session: Session, event_id: int) -> tuple[list[Round], list[int]]:
    """The event's rounds, and its games whose result is not final (the guard of finished)."""
    rounds = list(
        session.exec(
            select(Round).where(Round.event_id == event_id).order_by(col(Round.stage), col(Round.number))
        )
    )
    open_games = session.exec(
        select(Game.id)
        .join(GameResult, col(GameResult.game_id) == Game.id, isouter=True)
        .where(Game.event_id == event_id, func.coalesce(GameResult.state, "") != "final")
        .order_by(col(Game.id))
    )
    return rounds, [game_id for game_id in open_games if game_id is not None]


# Entries and rosters


def entry(session: Session, entry_id: int) -> Entry | None:
    return session.get(Entry, entry_id)


def entries_of(
    session: Session,
    event_id: int,
    *,
    status: str | None = None,
    branch_id: int | None = None,
    page: Page = EVERY_ROW,
) -> Paged[Entry]:
    query = select(Entry).where(Entry.event_id == event_id)
    if status is not None:
        query = query.where(Entry.status == status)
    if branch_id is not None:
        query = query.where(Entry.branch_id == branch_id)
    return fetch_page(session, query.order_by(col(Entry.id)), page)


def entry_names(session: Session, event_id: int) -> set[str]:
    return set(session.exec(select(Entry.name).where(Entry.event_id == event_id)))


def quota_used(session: Session, *, event_id: int, branch_id: int, excluding: int | None = None) -> int:
    query = (
        select(func.count())
        .select_from(Entry)
        .where(
            Entry.event_id == event_id,
            Entry.branch_id == branch_id,
            col(Entry.outside_quota).is_(False),
            col(Entry.status).in_(QUOTA_STATUSES),
        )
    )
    if excluding is not None:
        query = query.where(Entry.id != excluding)
    return int(session.exec(query).one())


def roster_rows(session: Session, entry_ids: Sequence[int]) -> list[tuple[EntryMember, Member, Branch]]:
    rows: list[tuple[EntryMember, Member, Branch]] = []
    for chunk in _chunks(list(entry_ids)):
        query = (
            select(EntryMember, Member, Branch)
            .join(Member, col(Member.id) == EntryMember.member_id)
            .join(Branch, col(Branch.id) == Member.branch_id)
            .where(col(EntryMember.entry_id).in_(chunk))
            .order_by(col(EntryMember.entry_id), col(EntryMember.position))
        )
        rows.extend(session.exec(query).all())
    return rows


def rostered_in_event(
    session: Session, *, event_id: int, member_ids: Sequence[int], excluding_entry: int | None = None
) -> dict[int, str]:
    """Member id → name of the entry (of this event) whose roster already holds them."""
    query = (
        select(EntryMember.member_id, Entry.name)
        .join(Entry, col(Entry.id) == EntryMember.entry_id)
        .where(EntryMember.event_id == event_id, col(EntryMember.member_id).in_(member_ids))
    )
    if excluding_entry is not None:
        query = query.where(EntryMember.entry_id != excluding_entry)
    return dict(session.exec(query).all())


def entered_elsewhere(
    session: Session, *, competition_id: int, event_id: int, member_ids: Sequence[int]
) -> dict[int, str]:
    """Member id → name of another event of the competition they registered or entered for."""
    others = select(Event.id).where(Event.competition_id == competition_id, Event.id != event_id)
    on_rosters = (
        select(EntryMember.member_id, Event.name)
        .join(Event, col(Event.id) == EntryMember.event_id)
        .where(col(EntryMember.event_id).in_(others), col(EntryMember.member_id).in_(member_ids))
    )
    registered = (
        select(Registration.member_id, Event.name)
        .join(Event, col(Event.id) == Registration.event_id)
        .where(col(Registration.event_id).in_(others), col(Registration.member_id).in_(member_ids))
    )
    found = dict(session.exec(registered).all())
    found.update(session.exec(on_rosters).all())
    return found


def delete_roster(session: Session, entry_id: int) -> None:
    session.execute(delete(EntryMember).where(col(EntryMember.entry_id) == entry_id))


# Registrations


def registration(session: Session, *, event_id: int, member_id: int) -> Registration | None:
    query = select(Registration).where(Registration.event_id == event_id, Registration.member_id == member_id)
    return session.exec(query).first()


def registrations_of(
    session: Session, event_id: int, *, branch_id: int | None, page: Page
) -> Paged[tuple[Registration, Member, Branch, int | None]]:
    query = (
        select(Registration, Member, Branch, EntryMember.entry_id)
        .join(Member, col(Member.id) == Registration.member_id)
        .join(Branch, col(Branch.id) == Registration.branch_id)
        .outerjoin(
            EntryMember,
            (col(EntryMember.event_id) == Registration.event_id)
            & (col(EntryMember.member_id) == Registration.member_id),
        )
        .where(Registration.event_id == event_id)
    )
    if branch_id is not None:
        query = query.where(Registration.branch_id == branch_id)
    return fetch_page(session, query.order_by(col(Registration.id)), page)


# Lineups


def lineup(session: Session, *, entry_id: int, round_number: int) -> Lineup | None:
    query = select(Lineup).where(Lineup.entry_id == entry_id, Lineup.round_number == round_number)
    return session.exec(query).first()


def lineup_pairs(session: Session, lineup_id: int) -> list[LineupPair]:
    query = select(LineupPair).where(LineupPair.lineup_id == lineup_id).order_by(col(LineupPair.pair_no))
    return list(session.exec(query))


def delete_lineup_pairs(session: Session, lineup_id: int) -> None:
    session.execute(delete(LineupPair).where(col(LineupPair.lineup_id) == lineup_id))


def unlocked_lineups(session: Session, *, event_id: int, round_number: int) -> list[Lineup]:
    query = (
        select(Lineup)
        .join(Entry, col(Entry.id) == Lineup.entry_id)
        .where(
            Entry.event_id == event_id, Lineup.round_number == round_number, col(Lineup.locked_at).is_(None)
        )
    )
    return list(session.exec(query))
