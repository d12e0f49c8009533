"""Branches and members, synced from the union membership system (工会信息管理系统).

Upserts are idempotent, keyed by branch code and by staff id (工号). A branch-scoped key acts
for its own branch only. Phone numbers are validated, stored, and shown to union keys alone.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlmodel import Session

from domain.access.models import Caller
from domain.errors import DomainError, Forbidden, NotFound, RuleViolation
from domain.events import repository
from domain.events.roster import normalize_phone
from domain.events.schemas import (
    BranchIn,
    BranchOut,
    BranchRow,
    DirectoryIn,
    DirectoryReport,
    MemberIn,
    MemberOut,
    MemberRow,
    RowError,
)
from domain.paging import Page, Paged
from storage.tables import Branch, Member

MEMBER_FIELDS = ("name", "branch_id", "phone", "is_union_member", "is_school_leader", "is_dean_or_secretary")


def act_for_branch(caller: Caller, branch_code: str, *, field: str = "branch_code") -> None:
    """A branch-scoped key (a branch admin through the union system) acts for its own branch only."""
    if caller.branch_code is not None and caller.branch_code != branch_code:
        raise Forbidden(
            f"this key acts for branch {caller.branch_code} only; the request is for branch {branch_code}",
            rule="other-branch",
            field=field,
        )


def branch_out(branch: Branch) -> BranchOut:
    return BranchOut(code=branch.code, name=branch.name, member_count=branch.member_count)


def member_out(member: Member, branch: Branch) -> MemberOut:
    return MemberOut(
        staff_id=member.staff_id,
        name=member.name,
        branch_code=branch.code,
        phone=member.phone,
        is_union_member=member.is_union_member,
        is_school_leader=member.is_school_leader,
        is_dean_or_secretary=member.is_dean_or_secretary,
    )


def list_branches(session: Session, *, page: Page) -> Paged[BranchOut]:
    return repository.branches(session, page=page).map(branch_out)


def upsert_branch(session: Session, code: str, data: BranchIn, *, caller: Caller, now: datetime) -> BranchOut:
    report = sync_directory(
        session, DirectoryIn(branches=[BranchRow(code=code, **data.model_dump())]), caller=caller, now=now
    )
    _raise_first(report)
    branch = repository.branch_by_code(session, code)
    assert branch is not None
    return branch_out(branch)


def upsert_member(
    session: Session, staff_id: str, data: MemberIn, *, caller: Caller, now: datetime
) -> MemberOut:
    report = sync_directory(
        session,
        DirectoryIn(members=[MemberRow(staff_id=staff_id, **data.model_dump())]),
        caller=caller,
        now=now,
    )
    _raise_first(report)
    return get_member(session, staff_id, caller=caller)


def get_member(session: Session, staff_id: str, *, caller: Caller) -> MemberOut:
    member = repository.member_by_staff_id(session, staff_id)
    if member is None:
        raise NotFound(f"no member with staff id {staff_id}", rule="unknown-member", field="staff_id")
    branch = repository.branches_by_id(session, [member.branch_id])[member.branch_id]
    act_for_branch(caller, branch.code)
    return member_out(member, branch)


def _raise_first(report: DirectoryReport) -> None:
    """A single upsert answers its row's error as a problem rather than as a report."""
    if report.errors:
        error = report.errors[0]
        raise RuleViolation(error.detail, rule=error.rule, field=error.field)


def sync_directory(session: Session, data: DirectoryIn, *, caller: Caller, now: datetime) -> DirectoryReport:
    """Upsert many branches, then many members, in the caller's transaction.

    Rows that break a rule are reported and skipped; the others are stored. Unchanged rows are
    not written. New and changed rows go to the database in one executemany each.
    """
    for index, branch_row in enumerate(data.branches):
        act_for_branch(caller, branch_row.code, field=f"branches[{index}].code")
    for index, member_row in enumerate(data.members):
        act_for_branch(caller, member_row.branch_code, field=f"members[{index}].branch_code")
    report = DirectoryReport()
    _sync_branches(session, data.branches, report=report, now=now)
    _sync_members(session, data.members, report=report, now=now)
    return report


def _row_errors(report: DirectoryReport, section: str) -> Callable[[int, str, DomainError], None]:
    def add(index: int, key: str, error: DomainError) -> None:
        report.errors.append(
            RowError(
                section="branches" if section == "branches" else "members",
                index=index,
                key=key,
                rule=error.rule,
                field=f"{section}[{index}].{error.field}" if error.field else None,
                detail=error.detail,
            )
        )

    return add


def _duplicates(keys: list[str]) -> set[int]:
    """Positions of keys seen earlier in the same list."""
    seen: set[str] = set()
    repeated: set[int] = set()
    for index, key in enumerate(keys):
        if key in seen:
            repeated.add(index)
        seen.add(key)
    return repeated


def _sync_branches(
    session: Session, rows: list[BranchRow], *, report: DirectoryReport, now: datetime
) -> None:
    if not rows:
        return
    add_error = _row_errors(report, "branches")
    existing = repository.branches_by_code(session, [row.code for row in rows])
    repeated = _duplicates([row.code for row in rows])
    new: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        if index in repeated:
            add_error(index, row.code, _repeated("branch code", row.code, field="code"))
            continue
        current = existing.get(row.code)
        if current is None:
            new.append(
                {
                    "code": row.code,
                    "name": row.name,
                    "member_count": row.member_count,
                    "created_at": now,
                    "updated_at": now,
                }
            )
        elif (current.name, current.member_count) != (row.name, row.member_count):
            changed.append(
                {"id": current.id, "name": row.name, "member_count": row.member_count, "updated_at": now}
            )
        else:
            report.branches_unchanged += 1
    repository.insert_rows(session, Branch, new)
    repository.update_rows(session, Branch, changed)
    report.branches_created, report.branches_updated = len(new), len(changed)


def _sync_members(session: Session, rows: list[MemberRow], *, report: DirectoryReport, now: datetime) -> None:
    if not rows:
        return
    add_error = _row_errors(report, "members")
    branches = repository.branches_by_code(session, [row.branch_code for row in rows])
    existing = repository.members_by_staff_id(session, [row.staff_id for row in rows])
    repeated = _duplicates([row.staff_id for row in rows])
    new: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        try:
            if index in repeated:
                raise _repeated("staff id", row.staff_id, field="staff_id")
            values = _member_values(row, branches)
        except DomainError as error:
            add_error(index, row.staff_id, error)
            continue
        current = existing.get(row.staff_id)
        if current is None:
            new.append({"staff_id": row.staff_id, **values, "created_at": now, "updated_at": now})
        elif any(getattr(current, name) != values[name] for name in MEMBER_FIELDS):
            changed.append({"id": current.id, **values, "updated_at": now})
        else:
            report.members_unchanged += 1
    repository.insert_rows(session, Member, new)
    repository.update_rows(session, Member, changed)
    report.members_created, report.members_updated = len(new), len(changed)


def _member_values(row: MemberRow, branches: dict[str, Branch]) -> dict[str, Any]:
    branch = branches.get(row.branch_code)
    if branch is None:
        raise RuleViolation(
            f"branch {row.branch_code} is not known; sync the branch first (or in the same call)",
            rule="unknown-branch",
            field="branch_code",
        )
    return {
        "name": row.name,
        "branch_id": branch.id,
        "phone": normalize_phone(row.phone) if row.phone else None,
        "is_union_member": row.is_union_member,
        "is_school_leader": row.is_school_leader,
        "is_dean_or_secretary": row.is_dean_or_secretary,
    }


def _repeated(what: str, key: str, *, field: str) -> RuleViolation:
    return RuleViolation(
        f"{what} {key} appears more than once in this call; only its first row is used",
        rule="duplicate-row",
        field=field,
    )
