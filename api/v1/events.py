"""Competitions, events, registrations, entries and lineups.

Writes take a union key; a branch-scoped union key acts for its own branch only. Reads are public
and show names and branches, never phone numbers or staff ids.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query

from api.deps import ClockDep, OptionalCallerDep, PageDep, SessionDep, UnionCaller
from api.idempotency import IdempotencyDep
from api.problems import responses
from domain.events import service
from domain.events.models import EntryStatus
from domain.events.schemas import (
    CompetitionIn,
    CompetitionOut,
    EntryForm,
    EntryIn,
    EntryOut,
    EventIn,
    EventOut,
    EventPatch,
    LineupIn,
    LineupOut,
    RegistrationIn,
    RegistrationOut,
    RejectIn,
    TransitionIn,
)

router = APIRouter()


Id = Annotated[int, Path(ge=1)]
RoundNumber = Annotated[int, Path(ge=1, le=50)]

COMPETITION_EXAMPLE = {
    "name": "2016年教职工智力赛",
    "organiser": "黑龙江大学工会",
    "venue": "职工活动中心三楼",
    "starts_on": "2016-03-23",
    "ends_on": "2016-03-25",
    "one_event_per_member": True,
}
TEAM_EVENT_EXAMPLE = {
    "name": "迎新智力竞赛（掼蛋团体赛）",
    "discipline": "guandan",
    "entry_kind": "team",
    "format": "team_rotation",
    "preset": "nuist-2023",
    "registration_opens_at": "2023-12-13T00:00:00+08:00",
    "registration_closes_at": "2023-12-23T00:00:00+08:00",
    "config": {
        "rounds": 4,
        "groups": ["A", "B"],
        "round_times": [
            {"number": 1, "starts_at": "2023-12-29T13:30:00+08:00", "ends_at": "2023-12-29T14:20:00+08:00"},
            {"number": 2, "starts_at": "2023-12-29T14:30:00+08:00", "ends_at": "2023-12-29T15:20:00+08:00"},
            {"number": 3, "starts_at": "2023-12-29T15:30:00+08:00", "ends_at": "2023-12-29T16:20:00+08:00"},
            {"number": 4, "starts_at": "2023-12-29T16:30:00+08:00", "ends_at": "2023-12-29T17:20:00+08:00"},
        ],
        "awards": {"top_n": 8},
        "dean_bonus_per_member": 1,
        "dean_bonus_cap": 2,
    },
}
PAIRS_EVENT_EXAMPLE = {
    "name": "教职工掼蛋单项比赛",
    "discipline": "guandan",
    "entry_kind": "pair",
    "format": "swiss",
    "preset": "nsi-2023",
    "registration_closes_at": "2023-12-20T16:00:00+08:00",
    "registration_opens_at": "2023-12-15T08:00:00+08:00",
    "config": {
        "rounds": 4,
        "leader_entries_outside_quota": True,
        "quota": {
            "kind": "tiered",
            "tiers": [
                {"up_to_members": 29, "entries": 2},
                {"up_to_members": 50, "entries": 3},
                {"entries": 4},
            ],
            "citation": "seed 001 §一",
        },
        "awards": {"top_n": 8},
    },
}
TEAM_ENTRY_EXAMPLE = {
    "branch_code": "CS",
    "name": "计算机学院队",
    "leader": {"staff_id": "20190012", "name": "王芳", "phone": "13912335115"},
    "roster": [{"staff_id": "20190012"}, {"staff_id": "20190013", "coach": True}]
    + [{"staff_id": f"201900{n}"} for n in range(14, 22)],
}
LEADER_ENTRY_EXAMPLE = {
    "branch_code": "ADMIN",
    "outside_quota": True,
    "roster": [{"staff_id": "19990001"}, {"staff_id": "20210345"}],
}


@router.post(
    "/competitions",
    response_model=CompetitionOut,
    status_code=201,
    summary="Create a competition",
    tags=["competitions and events"],
    responses=responses(401, 403, 409, 422),
)
def create_competition(
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        CompetitionIn,
        Body(
            openapi_examples={
                "hlju": {"summary": "seed 004's four-discipline week", "value": COMPETITION_EXAMPLE}
            }
        ),
    ],
) -> Any:
    """An umbrella for one or more events. Role: union (not branch-scoped)."""
    return idem.run(
        lambda: service.create_competition(session, body, caller=caller, now=now), status_code=201
    )


@router.get(
    "/competitions",
    response_model=list[CompetitionOut],
    summary="List competitions",
    tags=["competitions and events"],
)
def list_competitions(session: SessionDep, pager: PageDep) -> list[CompetitionOut]:
    """Every competition with its events, oldest first. Public."""
    return pager.answer(service.list_competitions(session, page=pager.page))


@router.get(
    "/competitions/{competition_id}",
    response_model=CompetitionOut,
    summary="Read a competition",
    tags=["competitions and events"],
    responses=responses(404),
)
def get_competition(competition_id: Id, session: SessionDep) -> CompetitionOut:
    """A competition with its events. Public."""
    return service.get_competition(session, competition_id)


@router.post(
    "/competitions/{competition_id}/events",
    response_model=EventOut,
    status_code=201,
    summary="Create an event",
    tags=["competitions and events"],
    responses=responses(401, 403, 404, 409, 422),
)
def create_event(
    competition_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        EventIn,
        Body(
            openapi_examples={
                "team": {"summary": "seed 000's team event", "value": TEAM_EVENT_EXAMPLE},
                "pairs": {"summary": "seed 001's pairs with tiered quotas", "value": PAIRS_EVENT_EXAMPLE},
            }
        ),
    ],
) -> Any:
    """A discipline and format with its rule preset, overrides and configuration (validated).
    Times without an offset are read as Asia/Shanghai. Starts in state `draft`. Role: union."""
    return idem.run(
        lambda: service.create_event(session, competition_id, body, caller=caller, now=now), status_code=201
    )


@router.get(
    "/events/{event_id}",
    response_model=EventOut,
    summary="Read an event",
    tags=["competitions and events"],
    responses=responses(404),
)
def get_event(event_id: Id, session: SessionDep) -> EventOut:
    """The event with its effective rule set and configuration. Public."""
    return service.event_out(service.get_event(session, event_id))


@router.patch(
    "/events/{event_id}",
    response_model=EventOut,
    summary="Change an event",
    tags=["competitions and events"],
    responses=responses(401, 403, 404, 409, 422),
)
def patch_event(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        EventPatch,
        Body(
            openapi_examples={
                "extend": {
                    "summary": "extend the registration deadline by a day",
                    "value": {"registration_closes_at": "2023-12-21T16:00:00+08:00"},
                }
            }
        ),
    ],
) -> EventOut:
    """Changes name, preset, overrides, configuration or window until the draw. Role: union."""
    return service.update_event(session, event_id, body, caller=caller, now=now)


@router.post(
    "/events/{event_id}/transitions",
    response_model=EventOut,
    summary="Move an event to its next state",
    tags=["competitions and events"],
    responses=responses(401, 403, 404, 409),
)
def post_transition(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        TransitionIn,
        Body(
            openapi_examples={
                "open": {"summary": "open registration", "value": {"to_state": "registration_open"}}
            }
        ),
    ],
) -> EventOut:
    """draft → registration_open → registration_closed → drawn → running → finished (and
    registration_closed → registration_open to extend). A refused step answers 409 naming its
    guard. Role: union."""
    return service.change_state(session, event_id, body.to_state, caller=caller, now=now)


@router.post(
    "/events/{event_id}/registrations",
    response_model=RegistrationOut,
    status_code=201,
    summary="Register a member personally",
    tags=["registration"],
    responses=responses(401, 403, 404, 409, 422),
)
def post_registration(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        RegistrationIn,
        Body(
            openapi_examples={"member": {"summary": "a member signs up", "value": {"staff_id": "20190014"}}}
        ),
    ],
) -> Any:
    """A member's personal registration (seed 000 §六.3), inside the registration window; the
    branch forms its roster from these. Role: union; a branch-scoped key for its own members."""
    return idem.run(
        lambda: service.register_member(session, event_id, body, caller=caller, now=now), status_code=201
    )


@router.get(
    "/events/{event_id}/registrations",
    response_model=list[RegistrationOut],
    summary="List personal registrations",
    tags=["registration"],
    responses=responses(401, 403, 404, 422),
)
def list_registrations(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    pager: PageDep,
    branch_code: Annotated[str | None, Query(max_length=64)] = None,
) -> list[RegistrationOut]:
    """Registrations with staff ids, for the branch admin forming rosters. Role: union; a
    branch-scoped key sees its own branch's."""
    return pager.answer(
        service.list_registrations(session, event_id, caller=caller, branch_code=branch_code, page=pager.page)
    )


@router.post(
    "/events/{event_id}/entries",
    response_model=EntryOut,
    status_code=201,
    summary="Form an entry",
    tags=["registration"],
    responses=responses(401, 403, 404, 409, 422),
)
def post_entry(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        EntryIn,
        Body(
            openapi_examples={
                "team": {
                    "summary": "a branch's team of 10 with its leader (seed 000)",
                    "value": TEAM_ENTRY_EXAMPLE,
                },
                "leader": {
                    "summary": "a school leader's pair, outside quota (seed 001)",
                    "value": LEADER_ENTRY_EXAMPLE,
                },
            }
        ),
    ],
) -> Any:
    """The branch forms an entry (status `draft`): roster, leader, inside the quota and the
    window; every member a union member, in no other entry of the event (nor, where the
    competition says so, of another event). Role: union; a branch-scoped key for its own branch."""
    return idem.run(
        lambda: service.create_entry(session, event_id, body, caller=caller, now=now), status_code=201
    )


@router.get(
    "/events/{event_id}/entries",
    response_model=list[EntryOut],
    summary="List an event's entries",
    tags=["registration"],
    responses=responses(404, 422),
)
def list_entries(
    event_id: Id,
    session: SessionDep,
    pager: PageDep,
    status: EntryStatus | None = None,
    branch_code: Annotated[str | None, Query(max_length=64)] = None,
) -> list[EntryOut]:
    """Entries with their rosters (names and branches only). Public."""
    return pager.answer(
        service.list_entries(session, event_id, status=status, branch_code=branch_code, page=pager.page)
    )


@router.get(
    "/entries/{entry_id}",
    response_model=EntryOut,
    summary="Read an entry",
    tags=["registration"],
    responses=responses(404),
)
def get_entry(entry_id: Id, session: SessionDep) -> EntryOut:
    """An entry with its roster (names and branches only). Public."""
    return service.entry_view(session, entry_id)


@router.put(
    "/entries/{entry_id}",
    response_model=EntryOut,
    summary="Re-form an entry",
    tags=["registration"],
    responses=responses(401, 403, 404, 409, 422),
)
def put_entry(
    entry_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        EntryForm,
        Body(
            openapi_examples={
                "fix": {
                    "summary": "replace the roster",
                    "value": {k: v for k, v in TEAM_ENTRY_EXAMPLE.items() if k != "branch_code"},
                }
            }
        ),
    ],
) -> EntryOut:
    """Replaces a draft or rejected entry's roster and leader; it goes back to `draft`.
    Role: union; a branch-scoped key for its own branch."""
    return service.update_entry(session, entry_id, body, caller=caller, now=now)


@router.post(
    "/entries/{entry_id}/submit",
    response_model=EntryOut,
    summary="Approve and submit an entry to the union",
    tags=["registration"],
    responses=responses(401, 403, 404, 409, 422),
)
def submit_entry(entry_id: Id, session: SessionDep, caller: UnionCaller, now: ClockDep) -> EntryOut:
    """The branch admin approves the roster and submits it (draft → submitted), inside the
    window and the quota, with a leader where the event wants one. Role: union; a
    branch-scoped key for its own branch."""
    return service.submit_entry(session, entry_id, caller=caller, now=now)


@router.post(
    "/entries/{entry_id}/confirm",
    response_model=EntryOut,
    summary="Confirm a submitted entry",
    tags=["registration"],
    responses=responses(401, 403, 404, 409),
)
def confirm_entry(entry_id: Id, session: SessionDep, caller: UnionCaller, now: ClockDep) -> EntryOut:
    """The union confirms (submitted → confirmed), until the draw. Role: union (not branch-scoped)."""
    return service.confirm_entry(session, entry_id, caller=caller, now=now)


@router.post(
    "/entries/{entry_id}/reject",
    response_model=EntryOut,
    summary="Reject a submitted entry",
    tags=["registration"],
    responses=responses(401, 403, 404, 409),
)
def reject_entry(
    entry_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        RejectIn,
        Body(
            openapi_examples={
                "reason": {"summary": "a reason", "value": {"reason": "领队联系电话有误，请更正后重新提交"}}
            }
        ),
    ],
) -> EntryOut:
    """The union rejects with a reason (submitted → rejected); the branch may re-form and submit
    again while registration is open. Role: union (not branch-scoped)."""
    return service.reject_entry(session, entry_id, body.reason, caller=caller, now=now)


@router.post(
    "/entries/{entry_id}/withdraw",
    response_model=EntryOut,
    summary="Withdraw an entry",
    tags=["registration"],
    responses=responses(401, 403, 404, 409),
)
def withdraw_entry(entry_id: Id, session: SessionDep, caller: UnionCaller, now: ClockDep) -> EntryOut:
    """Before registration closes only: after the start a change counts as a forfeit (seed 001
    补充说明 11). Role: union; a branch-scoped key for its own branch."""
    return service.withdraw_entry(session, entry_id, caller=caller, now=now)


@router.put(
    "/entries/{entry_id}/lineups/{round_number}",
    response_model=LineupOut,
    summary="Name a team's pairs for a round",
    tags=["registration"],
    responses=responses(401, 403, 404, 409, 422),
)
def put_lineup(
    entry_id: Id,
    round_number: RoundNumber,
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
    body: Annotated[
        LineupIn,
        Body(
            openapi_examples={
                "round": {
                    "summary": "the leader's 5 pairs for round 2 (seed 000 §八.2)",
                    "value": {
                        "pairs": [
                            {"pair_no": n, "players": [f"201900{10 + 2 * n}", f"201900{11 + 2 * n}"]}
                            for n in range(1, 6)
                        ]
                    },
                }
            }
        ),
    ],
) -> LineupOut:
    """The pairs numbered 1..N from the roster, nobody twice; replaced freely until the round
    starts, then locked. Role: union; a branch-scoped key for its own branch."""
    return service.set_lineup(session, entry_id, round_number, body, caller=caller, now=now)


@router.get(
    "/entries/{entry_id}/lineups/{round_number}",
    response_model=LineupOut,
    summary="Read a team's pairs for a round",
    tags=["registration"],
    responses=responses(401, 403, 404),
)
def get_lineup(
    entry_id: Id, round_number: RoundNumber, session: SessionDep, caller: OptionalCallerDep
) -> LineupOut:
    """The pairs by name. Public once the round has started (the lineup is locked); before that
    only the union and the team's own branch read it."""
    return service.get_lineup(session, entry_id, round_number, caller=caller)
