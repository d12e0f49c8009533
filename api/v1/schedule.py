"""Draws, rounds, match tables, seat maps, printable round pages and check-ins.

The union system and the referees draw and run the rounds; everyone reads the draw (with its
revealed seed) and the published rounds — names and branches, never phone numbers or staff ids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import HTMLResponse

from api import pages
from api.deps import ClockDep, OptionalCallerDep, OrganiserCaller, PageDep, RefereeCaller, SessionDep
from api.idempotency import IdempotencyDep
from api.problems import responses
from domain.schedule import service
from domain.schedule.models import (
    CheckInIn,
    CheckInOut,
    DrawIn,
    DrawOut,
    FinishIn,
    GenerateIn,
    MissingReport,
    PhysicalDrawIn,
    RoundOut,
    RoundSummary,
    Stage,
    SwapIn,
)
from domain.scoring import service as scoring_service

router = APIRouter(tags=["draws and rounds"])

Id = Annotated[int, Path(ge=1)]
RoundNumber = Annotated[int, Path(ge=1, le=50)]
# Each draw and round action is served at /events/{id}/… (the main stage, or ?stage=) and at
# /events/{id}/stages/{stage}/… (seed 004 §三.1: the final round robin has its own draw and rounds).
STAGED = "/events/{event_id}/stages/{stage}"
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def _staged(method: str, path: str, **route: Any) -> Callable[[Endpoint], Endpoint]:
    """Serves the endpoint at ``/events/{event_id}{path}`` and at ``{STAGED}{path}``."""

    def both(endpoint: Endpoint) -> Endpoint:
        for prefix in ("/events/{event_id}", STAGED):
            router.add_api_route(prefix + path, endpoint, methods=[method], **route)
        return endpoint

    return both


@_staged(
    "POST",
    "/draw/commitment",
    response_model=DrawOut,
    status_code=201,
    summary="Commit to a stage's draw (publish the seed's SHA-256)",
    responses=responses(401, 403, 404, 409, 422),
)
def post_commitment(
    event_id: Id,
    session: SessionDep,
    caller: OrganiserCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    stage: Stage = Stage.MAIN,
) -> Any:
    """Creates a fresh secret seed and publishes its SHA-256 before the draw; asking again answers
    the same commitment. The main draw needs the event registration_closed; a round count the
    format cannot pair without a rematch is refused here (422), not on the day. The final stage's
    draw (a round robin with advance_per_group) is committed while the event runs. Role: union or
    referee."""
    return idem.run(
        lambda: service.commit_draw(session, event_id, stage=stage, caller=caller, now=now), status_code=201
    )


@_staged(
    "POST",
    "/draw",
    response_model=DrawOut,
    status_code=201,
    summary="Run a stage's committed draw and reveal its seed",
    responses=responses(401, 403, 404, 409, 422),
)
def post_draw(
    event_id: Id,
    session: SessionDep,
    caller: OrganiserCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    stage: Stage = Stage.MAIN,
    data: Annotated[DrawIn | None, Body()] = None,
) -> Any:
    """The main draw: the committed seed over the sorted confirmed entry ids (groups A/B, bracket
    slots, round-robin groups and numbers, Swiss round-1 tables, Gongzhu tables); the event moves
    to drawn. The final draw (seed 004 §三.1): once the last group round is finished, the top
    ``advance_per_group`` of each group by the group standings, numbered by the new seed
    (``draw_order`` of their ids); while a group result is not final it answers 409
    `results-not-final` listing the games, unless a referee overrides with a reason (logged in the
    draw's result). The seed is revealed. Role: union or referee."""
    return idem.run(
        lambda: service.run_draw(
            session,
            event_id,
            data,
            stage=stage,
            ranking=scoring_service.stage_ranking,
            caller=caller,
            now=now,
        ),
        status_code=201,
    )


@router.post(
    "/events/{event_id}/draw/physical",
    response_model=DrawOut,
    status_code=201,
    summary="Record a draw made with lots on site",
    responses=responses(401, 403, 404, 409, 422),
)
def post_physical_draw(
    event_id: Id,
    session: SessionDep,
    caller: RefereeCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[
        PhysicalDrawIn,
        Body(
            openapi_examples={
                "groups": {
                    "summary": "seed 000: teams drawn into A and B on site",
                    "value": {
                        "groups": [{"name": "A", "entry_ids": [3, 1]}, {"name": "B", "entry_ids": [2, 4]}]
                    },
                },
                "bracket": {
                    "summary": "a knockout bracket drawn by the leaders",
                    "value": {"brackets": [{"group": None, "slots": [1, None, 3, 2]}]},
                },
            }
        ),
    ],
) -> Any:
    """Checks the lots (every entry once, balanced groups, a full bracket without a match of two
    byes) and records them with who entered them and when; the event moves to drawn. Role: referee."""
    return idem.run(
        lambda: service.record_physical_draw(session, event_id, body, caller=caller, now=now), status_code=201
    )


@_staged(
    "GET",
    "/draw",
    response_model=DrawOut,
    summary="A stage's draw: commitment, revealed seed, algorithm, entries and result",
    responses=responses(404, 422),
)
def get_draw(event_id: Id, session: SessionDep, stage: Stage = Stage.MAIN) -> DrawOut:
    """Public. Rerun ``algorithm_version`` with ``seed`` over ``entry_ids`` (as decimal strings)
    to check ``result``; the seed is null until the draw has run."""
    return service.get_draw(session, event_id, stage=stage)


@_staged(
    "POST",
    "/rounds/{number}/generate",
    response_model=RoundOut,
    summary="Generate (or regenerate) a round's pairing",
    responses=responses(401, 403, 404, 409, 422),
)
def post_generate(
    event_id: Id,
    number: RoundNumber,
    session: SessionDep,
    caller: OrganiserCaller,
    now: ClockDep,
    body: Annotated[
        GenerateIn,
        Body(
            openapi_examples={
                "plain": {"summary": "pair the round", "value": {}},
                "override": {
                    "summary": "a referee pairs over a result still disputed",
                    "value": {"override": True, "reason": "table 7 disputes a deal; the arbiter rules later"},
                },
            }
        ),
    ] = GenerateIn(),
    stage: Stage = Stage.MAIN,
) -> RoundOut:
    """Pairs round ``number`` by the event's format and reports what each constraint cost (byes,
    rematches avoided, same-branch meetings and why). A Swiss, knockout or Gongzhu round waits for
    every result of the round before to be final (409 results-not-final) unless a referee
    overrides with a reason. A published round answers 409 pairing-published. Role: union or referee."""
    return service.generate_round(session, event_id, number, body, stage=stage, caller=caller, now=now)


@router.post(
    "/events/{event_id}/rounds/{number}/swap",
    response_model=RoundOut,
    summary="Swap two entries of an unpublished round",
    responses=responses(401, 403, 404, 409, 422),
)
def post_swap(
    event_id: Id,
    number: RoundNumber,
    session: SessionDep,
    caller: RefereeCaller,
    now: ClockDep,
    body: Annotated[
        SwapIn,
        Body(
            openapi_examples={
                "swap": {
                    "summary": "exchange two entries",
                    "value": {"entry_a": 3, "entry_b": 8, "reason": "家属同桌"},
                }
            }
        ),
    ],
) -> RoundOut:
    """Exchanges two entries' places; refused when it makes a rematch, logged in the report with
    the same-branch meetings it leaves. Role: referee."""
    return service.swap_entries(session, event_id, number, body, caller=caller, now=now)


@_staged(
    "POST",
    "/rounds/{number}/publish",
    response_model=RoundOut,
    summary="Publish a round's pairing",
    responses=responses(401, 403, 404, 409, 422),
)
def post_publish(
    event_id: Id,
    number: RoundNumber,
    session: SessionDep,
    caller: OrganiserCaller,
    now: ClockDep,
    stage: Stage = Stage.MAIN,
) -> RoundOut:
    """Fixes the pairing for good (seed 000 附件 十.4) and issues every game's scorer-token nonce.
    Role: union or referee."""
    return service.publish_round(session, event_id, number, stage=stage, caller=caller, now=now)


@_staged(
    "POST",
    "/rounds/{number}/start",
    response_model=RoundOut,
    summary="Start a published round",
    responses=responses(401, 403, 404, 409, 422),
)
def post_start(
    event_id: Id,
    number: RoundNumber,
    session: SessionDep,
    caller: OrganiserCaller,
    now: ClockDep,
    stage: Stage = Stage.MAIN,
) -> RoundOut:
    """Locks the teams' lineups and seats the named players; the event's first start sets it
    running. Role: union or referee."""
    return service.start_round(session, event_id, number, stage=stage, caller=caller, now=now)


@_staged(
    "POST",
    "/rounds/{number}/finish",
    response_model=RoundOut,
    summary="Finish a started round",
    responses=responses(401, 403, 404, 409, 422),
)
def post_finish(
    event_id: Id,
    number: RoundNumber,
    session: SessionDep,
    caller: OrganiserCaller,
    now: ClockDep,
    data: Annotated[FinishIn | None, Body()] = None,
    stage: Stage = Stage.MAIN,
) -> RoundOut:
    """Every game of the round must be final (both sides confirmed); otherwise 409
    `results-not-final` lists them, unless a referee overrides with a reason (logged in the
    report). Finishing the last round of the last stage with every result of the event final
    moves the event to finished (its awards are then final). Role: union or referee."""
    return service.finish_round(
        session, event_id, number, data or FinishIn(), stage=stage, caller=caller, now=now
    )


@router.get(
    "/events/{event_id}/rounds",
    response_model=list[RoundSummary],
    summary="The event's rounds",
    responses=responses(404),
)
def list_rounds(event_id: Id, session: SessionDep, pager: PageDep) -> list[RoundSummary]:
    """Public: number, state and times of every round generated so far, by stage and number."""
    return pager.answer(service.list_rounds(session, event_id, page=pager.page))


@router.get(
    "/rounds/{round_id}",
    response_model=RoundOut,
    summary="A round's match table and seat map",
    responses=responses(401, 404),
)
def get_round(round_id: Id, session: SessionDep, caller: OptionalCallerDep) -> RoundOut:
    """Public once the pairing is published (轮次对阵表 and 座位区位图: tables, seats, names,
    branches); the union and referees also see an unpublished pairing and its report."""
    return service.round_view(session, round_id, caller=caller)


@router.get(
    "/rounds/{round_id}/page",
    response_class=HTMLResponse,
    summary="A round as a printable A4 page",
    responses={**responses(401, 404), 200: {"content": {"text/html": {}}, "description": "the page"}},
)
def get_round_page(round_id: Id, session: SessionDep, caller: OptionalCallerDep) -> HTMLResponse:
    """The same round as an HTML page for printing: one table per row, seats N/E/S/W (or first and
    second), names and branches."""
    return HTMLResponse(pages.round_page(service.round_view(session, round_id, caller=caller)))


@router.post(
    "/rounds/{round_id}/check-ins",
    response_model=list[CheckInOut],
    summary="Check entries in for a round",
    responses=responses(401, 403, 404, 422),
)
def post_check_ins(
    round_id: Id,
    session: SessionDep,
    caller: OrganiserCaller,
    now: ClockDep,
    body: Annotated[
        CheckInIn,
        Body(openapi_examples={"arrivals": {"summary": "two teams arrive", "value": {"entry_ids": [3, 8]}}}),
    ],
) -> list[CheckInOut]:
    """Records arrivals (签到); an entry checked in twice keeps its first time. Answers every
    check-in of the round. Role: union or referee."""
    return service.check_in(session, round_id, body, caller=caller, now=now)


@router.get(
    "/rounds/{round_id}/check-ins/missing",
    response_model=MissingReport,
    summary="Entries not checked in at the start or at the late-arrival limit",
    responses=responses(401, 403, 404, 409),
)
def get_missing(
    round_id: Id,
    session: SessionDep,
    caller: RefereeCaller,
    at: Annotated[
        Literal["start", "late-limit"],
        Query(description="the round's start, or start + the rule set's late minutes"),
    ] = "start",
) -> MissingReport:
    """For the referee: who is missing, with their match and tables; past the late-arrival limit
    (seed 000 附件 九.1: 5 minutes) an absent side forfeits. Role: referee."""
    return service.missing(session, round_id, at=at)
