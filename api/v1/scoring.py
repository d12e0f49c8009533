"""Scoring at the tables: deals (Gongzhu: hands), game ends, penalties, confirmations, corrections;
standings, awards.

A game is changed by its scorer token (``Authorization: Bearer <token>`` or ``?token=``, from the
score sheet's QR code) or by a referee key; forfeits, penalties, corrections and the audit trail
are a referee's. Reads are public.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header, Query, Response

from api import problems
from api.deps import ClockDep, GameActor, PageDep, RefereeCaller, SessionDep, SettingsDep
from api.idempotency import IdempotencyDep
from domain.scoring import hands as hands_service
from domain.scoring import service as scoring_service
from domain.scoring.models import (
    AuditOut,
    AwardsOut,
    ConfirmationIn,
    CorrectionIn,
    CorrectionOut,
    DealAnswer,
    DealEdit,
    DealIn,
    FinalResultIn,
    ForfeitIn,
    GameOut,
    HandEdit,
    HandIn,
    MatchGameIn,
    PenaltyIn,
    ScorerTokenOut,
    StandingsOut,
    TableGameOut,
    TableOrderIn,
    TimeUpIn,
)

router = APIRouter(tags=["scoring"])

GAME_WRITE = problems.responses(401, 403, 404, 409, 422)


def _etag(response: Response, answer: DealAnswer) -> DealAnswer:
    response.headers["ETag"] = f'"{answer.deal.version}"'
    return answer


@router.get(
    "/games/{game_id}",
    response_model=GameOut | TableGameOut,
    summary="A game's state",
    responses=problems.responses(404),
)
def read_game(game_id: int, session: SessionDep) -> GameOut | TableGameOut:
    """Public: seats with names, both sides' levels, who declares next, the deals and the state. A
    Gongzhu table (`discipline: gongzhu`): its players by seat, hands, running totals and who goes on."""
    return scoring_service.game_view(session, game_id)


@router.post(
    "/games/{game_id}/deals",
    response_model=DealAnswer,
    status_code=201,
    summary="Post the next deal",
    responses=GAME_WRITE,
)
def post_deal(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    idem: IdempotencyDep,
    response: Response,
    deal: Annotated[
        DealIn,
        Body(
            openapi_examples={
                "first deal": {"value": {"deal_no": 1, "finish_order": ["N", "S", "E", "W"]}},
                "with tribute": {
                    "value": {
                        "deal_no": 2,
                        "finish_order": ["E", "N", "W", "S"],
                        "tribute": {
                            "paid": {"W": "HR"},
                            "returned": {"N": "S5"},
                            "big_jokers": {"E": 0, "W": 1},
                        },
                    }
                },
            }
        ),
    ],
) -> object:
    """The game's scorer token or a referee. The server derives both sides' levels, the declarer and
    the A attempts and answers with the new state. Send an Idempotency-Key: a retry answers the
    first post. The same deal number with different content is a 409 carrying `stored_deal`; the
    same content again (a retry without a key) answers the stored deal. The answer's ETag is the
    deal's version, for If-Match on an edit."""
    return idem.run(
        lambda: _etag(response, scoring_service.post_deal(session, game_id, deal, actor=actor, now=now)),
        status_code=201,
    )


@router.put(
    "/games/{game_id}/deals/{deal_no}",
    response_model=DealAnswer,
    summary="Edit a deal before the result is final",
    responses=GAME_WRITE,
)
def edit_deal(
    game_id: int,
    deal_no: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    response: Response,
    edit: Annotated[
        DealEdit, Body(openapi_examples={"swap": {"value": {"finish_order": ["N", "E", "S", "W"]}}})
    ],
    if_match: Annotated[
        str | None, Header(alias="If-Match", description='the deal\'s version, e.g. "2"')
    ] = None,
) -> DealAnswer:
    """Carries `If-Match` with the version it changes: a stale edit is refused (409), never applied.
    After both sides confirmed, only a referee's correction changes a deal."""
    answer = scoring_service.edit_deal(
        session, game_id, deal_no, edit, if_match=if_match, actor=actor, now=now
    )
    return _etag(response, answer)


GONGZHU_HAND = {
    "first hand": {
        "value": {
            "hand_no": 1,
            "captured": {
                "N": ["SQ", "H2", "S3", "D4"],
                "E": ["DJ", "HA", "HK", "HQ", "HJ", "HT", "H9", "H8"],
                "S": ["CT", "C2", "C3", "C4"],
                "W": ["H3", "H4", "H5", "H6", "H7", "S2", "D2", "C5"],
            },
            "exposed": ["SQ"],
        }
    }
}


@router.post(
    "/games/{game_id}/hands",
    response_model=TableGameOut,
    status_code=201,
    summary="Post the next Gongzhu hand",
    responses=GAME_WRITE,
)
def post_hand(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    idem: IdempotencyDep,
    hand: Annotated[HandIn, Body(openapi_examples=GONGZHU_HAND)],
) -> object:
    """The table's scorer token or a referee. The rules score the captured cards (seed 004 拱猪 §3–6)
    and answer the table: every hand, the running totals, the ranking, and once a total reaches
    ±1000 (§7) the two who go on. Send an Idempotency-Key: a retry answers the first post. The same
    hand number with different content is a 409 carrying `stored_hand`; a hand after the game is
    over is a 409 `hand-after-game-over`."""
    return idem.run(
        lambda: hands_service.post_hand(session, game_id, hand, actor=actor, now=now), status_code=201
    )


@router.put(
    "/games/{game_id}/hands/{hand_no}",
    response_model=TableGameOut,
    summary="Edit a Gongzhu hand before the result is final",
    responses=GAME_WRITE,
)
def edit_hand(
    game_id: int,
    hand_no: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    edit: HandEdit,
    if_match: Annotated[
        str | None, Header(alias="If-Match", description='the hand\'s version, e.g. "1"')
    ] = None,
) -> TableGameOut:
    """Carries `If-Match` with the hand's version: a stale edit is refused (409), never applied. The
    totals change: a referee's order of a tie is dropped and both sides confirm again."""
    return hands_service.edit_hand(session, game_id, hand_no, edit, if_match=if_match, actor=actor, now=now)


@router.post(
    "/games/{game_id}/table-order",
    response_model=TableGameOut,
    summary="Order a Gongzhu tie",
    responses=GAME_WRITE,
)
def order_table(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[
        TableOrderIn,
        Body(openapi_examples={"lot": {"value": {"ranking": ["E", "N", "S", "W"], "reason": "lot drawn"}}}),
    ],
) -> TableGameOut:
    """Referee only, once the game is over: players level on the total at the cut (`tied_at_cut`)
    are ordered by the referee (seed 004 四.1 服从裁判的判罚) before the result can be confirmed;
    only equal totals may swap. The order gives the two who go on, and the places at a final table."""
    return hands_service.order_table(session, game_id, body, actor=actor, now=now)


@router.post("/games/{game_id}/time-up", response_model=GameOut, summary="Time ran out", responses=GAME_WRITE)
def time_up(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[
        TimeUpIn, Body(openapi_examples={"now": {"value": {}}, "after 9": {"value": {"deals_completed": 9}}})
    ],
) -> GameOut:
    """Scorer or referee. The winner follows the rule set: higher level, then the tie rule (first to
    reach, declarer, one more deal, draw, or points only)."""
    return scoring_service.time_up(session, game_id, body, actor=actor, now=now)


@router.post(
    "/games/{game_id}/final-result",
    response_model=GameOut,
    summary="Post only the final levels",
    responses=GAME_WRITE,
)
def final_result(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[
        FinalResultIn,
        Body(openapi_examples={"at time": {"value": {"ns_level": 9, "ew_level": 7, "on_stage": "NS"}}}),
    ],
) -> GameOut:
    """For events whose rules do not require every deal (422 per-deal-record-required otherwise)."""
    return scoring_service.final_result(session, game_id, body, actor=actor, now=now)


@router.post(
    "/games/{game_id}/forfeit", response_model=GameOut, summary="Record a forfeit", responses=GAME_WRITE
)
def forfeit(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[
        ForfeitIn, Body(openapi_examples={"late": {"value": {"forfeiting": "EW", "reason": "late_arrival"}}})
    ],
) -> GameOut:
    """Referee only. The rule set's forfeit points apply (seed 000: 15:2, seed 001: 14:0)."""
    return scoring_service.forfeit(session, game_id, body, actor=actor, now=now)


@router.post(
    "/games/{game_id}/penalties", response_model=GameOut, summary="Record a penalty", responses=GAME_WRITE
)
def penalty(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[
        PenaltyIn,
        Body(openapi_examples={"warning": {"value": {"seat": "N", "kind": "warning", "note": "slow play"}}}),
    ],
) -> GameOut:
    """Referee only: a warning, foul or missed card report; the rule set's thresholds may end the game."""
    return scoring_service.record_penalty(session, game_id, body, actor=actor, now=now)


@router.post(
    "/games/{game_id}/match-games",
    response_model=GameOut,
    summary="Post one game of a chess/Go match",
    responses=GAME_WRITE,
)
def match_game(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[MatchGameIn, Body(openapi_examples={"win": {"value": {"game_no": 1, "result": "1-0"}}})],
) -> GameOut:
    """Scorer or referee: a best-of-N match (seed 004 三局两胜) ends once decided."""
    return scoring_service.record_match_game(session, game_id, body, actor=actor, now=now)


@router.post(
    "/games/{game_id}/confirmations",
    response_model=GameOut | TableGameOut,
    summary="A side confirms",
    responses=GAME_WRITE,
)
def confirm(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[ConfirmationIn, Body(openapi_examples={"north-south": {"value": {"side": "NS"}}})],
) -> GameOut | TableGameOut:
    """Scorer or referee; once both sides confirm the ended game, its result is final. At a Gongzhu
    table the N–S and the E–W players confirm; a tie at the cut is ordered by a referee first (409
    `gongzhu-tie-at-cut`)."""
    return scoring_service.confirm(session, game_id, body, actor=actor, now=now)


@router.post(
    "/games/{game_id}/corrections",
    response_model=CorrectionOut,
    summary="Correct a result",
    responses=GAME_WRITE,
)
def correct(
    game_id: int,
    session: SessionDep,
    actor: GameActor,
    now: ClockDep,
    body: Annotated[
        CorrectionIn,
        Body(
            openapi_examples={
                "deal": {
                    "value": {
                        "reason": "W wrote S and E the wrong way round",
                        "deal_no": 3,
                        "finish_order": ["S", "N", "E", "W"],
                    }
                }
            }
        ),
    ],
) -> CorrectionOut:
    """Referee only, with a reason, inside seed 000 §十's windows (409 correction-window-closed
    outside). Answers which standings move and which later rounds are already published (they stay)."""
    return scoring_service.correct(session, game_id, body, actor=actor, now=now)


@router.get(
    "/games/{game_id}/audit",
    response_model=list[AuditOut],
    summary="A game's audit trail",
    responses=GAME_WRITE,
)
def audit(game_id: int, session: SessionDep, actor: GameActor, pager: PageDep) -> list[AuditOut]:
    """Referee only: every change (who, when, before, after, why), oldest first."""
    return pager.answer(scoring_service.audit_trail(session, game_id, actor=actor, page=pager.page))


@router.get(
    "/rounds/{round_id}/scorer-tokens",
    response_model=list[ScorerTokenOut],
    summary="Scorer tokens of a round's games",
    responses=problems.responses(401, 403, 404, 409),
)
def scorer_tokens(
    round_id: int, session: SessionDep, settings: SettingsDep, caller: RefereeCaller
) -> list[ScorerTokenOut]:
    """Referee: one token per game (for score sheets and QR codes), expiring after the round's
    entry-error window."""
    return scoring_service.round_scorer_tokens(session, round_id, secret=settings.signing_secret())


@router.get(
    "/events/{event_id}/standings",
    response_model=StandingsOut,
    summary="Standings",
    responses={**problems.responses(404, 422), 304: {"description": "Not Modified (If-None-Match)"}},
)
def standings(
    event_id: int,
    session: SessionDep,
    provisional: Annotated[bool, Query(description="count live (unconfirmed) games")] = False,
    stage: Annotated[str | None, Query(description="default: the latest stage")] = None,
    if_none_match: Annotated[str | None, Header(alias="If-None-Match")] = None,
) -> object:
    """Public: rank, entry, branch and every figure used, per group. ETag follows the event's
    results version; an unchanged poll answers 304 and nothing is recomputed."""
    answer = scoring_service.standings(
        session, event_id, provisional=provisional, stage=stage, if_none_match=if_none_match
    )
    if answer.json is None:
        return Response(status_code=304, headers={"ETag": answer.etag})
    return Response(content=answer.json, media_type="application/json", headers={"ETag": answer.etag})


@router.get(
    "/events/{event_id}/awards",
    response_model=AwardsOut,
    summary="Awards",
    responses=problems.responses(404, 422),
)
def awards(event_id: int, session: SessionDep) -> AwardsOut:
    """Public: the top N of each table or the knockout prize tiers, as the event says; final results only."""
    return scoring_service.event_awards(session, event_id)
