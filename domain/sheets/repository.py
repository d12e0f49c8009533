"""The queries of the sheets area: members by name, branches by name, the registration export."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlmodel import Session, col, or_, select

from storage.tables import Branch, Entry, EntryMember, Member

CHUNK = 500


def members_named(session: Session, names: Sequence[str]) -> dict[str, list[Member]]:
    found: dict[str, list[Member]] = defaultdict(list)
    unique = sorted(set(names))
    for start in range(0, len(unique), CHUNK):
        query = select(Member).where(col(Member.name).in_(unique[start : start + CHUNK]))
        for member in session.exec(query):
            found[member.name].append(member)
    return found


def members_by_staff_id(session: Session, staff_ids: Sequence[str]) -> dict[str, Member]:
    unique = sorted(set(staff_ids))
    found: dict[str, Member] = {}
    for start in range(0, len(unique), CHUNK):
        query = select(Member).where(col(Member.staff_id).in_(unique[start : start + CHUNK]))
        found.update((member.staff_id, member) for member in session.exec(query))
    return found


def branch_named(session: Session, text: str) -> Branch | None:
    """The branch a form names: by code or by name (``计算机学院分工会`` or ``计算机学院``)."""
    candidates = {text, text.removesuffix("分工会"), text + "分工会"}
    query = select(Branch).where(or_(col(Branch.code).in_(candidates), col(Branch.name).in_(candidates)))
    return session.exec(query.order_by(col(Branch.id))).first()


def roster_of_event(
    session: Session, event_id: int, *, branch_code: str | None
) -> list[tuple[Entry, Branch, EntryMember, Member]]:
    query = (
        select(Entry, Branch, EntryMember, Member)
        .join(Branch, col(Branch.id) == col(Entry.branch_id))
        .join(EntryMember, col(EntryMember.entry_id) == col(Entry.id))
        .join(Member, col(Member.id) == col(EntryMember.member_id))
        .where(Entry.event_id == event_id)
        .order_by(col(Branch.code), col(Entry.id), col(EntryMember.position))
    )
    if branch_code is not None:
        query = query.where(Branch.code == branch_code)
    return list(session.exec(query))
