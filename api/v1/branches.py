"""Branches (分工会) and members (会员), synced from the union membership system."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path
from pydantic import BaseModel, Field

from api.deps import ClockDep, PageDep, SessionDep, UnionCaller
from api.idempotency import IdempotencyDep
from api.problems import responses
from domain.events import directory
from domain.events.schemas import (
    BranchIn,
    BranchOut,
    BranchRow,
    DirectoryIn,
    DirectoryReport,
    MemberIn,
    MemberOut,
)

router = APIRouter(tags=["branches and members"])

Code = Annotated[str, Path(min_length=1, max_length=64, description="The branch code.")]
StaffIdPath = Annotated[str, Path(min_length=1, max_length=64, description="工号, the staff id.")]


class BranchesIn(BaseModel):
    branches: list[BranchRow] = Field(max_length=2000)


BRANCH_EXAMPLE = {"name": "计算机学院分工会", "member_count": 45}
MEMBER_EXAMPLE = {
    "name": "王芳",
    "branch_code": "CS",
    "phone": "139 1233 5115",
    "is_union_member": True,
    "is_school_leader": False,
    "is_dean_or_secretary": True,
}
SYNC_EXAMPLE: dict[str, Any] = {
    "branches": [
        {"code": "CS", **BRANCH_EXAMPLE},
        {"code": "MATH", "name": "数学学院分工会", "member_count": 28},
    ],
    "members": [
        {"staff_id": "20190012", **MEMBER_EXAMPLE},
        {"staff_id": "20210345", "name": "李强", "branch_code": "MATH", "phone": "13851234567"},
    ],
}


@router.put(
    "/branches/{code}",
    response_model=BranchOut,
    summary="Create or update a branch",
    responses=responses(401, 403, 422),
)
def put_branch(
    code: Code,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        BranchIn, Body(openapi_examples={"branch": {"summary": "a branch", "value": BRANCH_EXAMPLE}})
    ],
) -> BranchOut:
    """Idempotent upsert by branch code. Its member count drives tiered quotas (seed 001 §一).
    Role: union; a branch-scoped key may update its own branch only."""
    return directory.upsert_branch(session, code, body, caller=caller, now=now)


@router.post(
    "/branches/bulk",
    response_model=DirectoryReport,
    status_code=200,
    summary="Create or update many branches",
    responses=responses(401, 403, 409, 422),
)
def bulk_branches(
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        BranchesIn,
        Body(
            openapi_examples={
                "sync": {"summary": "the nightly sync", "value": {"branches": SYNC_EXAMPLE["branches"]}}
            }
        ),
    ],
) -> Any:
    """Upserts every branch in one transaction and reports rows it could not take (they are
    skipped). Send an `Idempotency-Key` so a retry replays the first answer. Role: union."""
    return idem.run(
        lambda: directory.sync_directory(session, DirectoryIn(branches=body.branches), caller=caller, now=now)
    )


@router.get("/branches", response_model=list[BranchOut], summary="List branches")
def list_branches(session: SessionDep, pager: PageDep) -> list[BranchOut]:
    """Every branch with its member count, by code. Public."""
    return pager.answer(directory.list_branches(session, page=pager.page))


@router.put(
    "/members/{staff_id}",
    response_model=MemberOut,
    summary="Create or update a member",
    responses=responses(401, 403, 422),
)
def put_member(
    staff_id: StaffIdPath,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        MemberIn, Body(openapi_examples={"member": {"summary": "a dean", "value": MEMBER_EXAMPLE}})
    ],
) -> MemberOut:
    """Idempotent upsert by staff id. The phone must be a mainland mobile number; it is stored and
    never returned by a public endpoint. Role: union; a branch-scoped key for its own members."""
    return directory.upsert_member(session, staff_id, body, caller=caller, now=now)


@router.post(
    "/members/bulk",
    response_model=DirectoryReport,
    status_code=200,
    summary="Create or update many branches and members",
    responses=responses(401, 403, 409, 422),
)
def bulk_members(
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        DirectoryIn, Body(openapi_examples={"sync": {"summary": "the nightly sync", "value": SYNC_EXAMPLE}})
    ],
) -> Any:
    """Upserts the branches, then the members (thousands in one call, one transaction). Rows that
    break a rule (unknown branch, bad phone, repeated staff id) are listed in `errors` and skipped;
    the rest are stored. Send an `Idempotency-Key` so a retry replays the first answer. Role: union;
    a branch-scoped key may send its own branch's rows only."""
    return idem.run(lambda: directory.sync_directory(session, body, caller=caller, now=now))


@router.get(
    "/members/{staff_id}",
    response_model=MemberOut,
    summary="Read a member",
    responses=responses(401, 403, 404),
)
def get_member(staff_id: StaffIdPath, session: SessionDep, caller: UnionCaller) -> MemberOut:
    """A member with phone and flags. Role: union; a branch-scoped key for its own members."""
    return directory.get_member(session, staff_id, caller=caller)
