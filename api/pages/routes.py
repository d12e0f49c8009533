"""The venue's pages: score sheets to print (under ``/api/v1``, a referee's), and outside the API
the scoring form behind each sheet's QR code (``/score/{game_id}?token=…``) and the hall's big
screen (``/screen/events/{event_id}``). The pages call the JSON API; their scripts and styles are
served from ``/static/venue/``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Path, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from api.deps import ClockDep, GameActor, RefereeCaller, SessionDep, SettingsDep
from api.pages import pdf, qr, venue
from api.problems import responses
from domain.scoring import service as scoring_service
from domain.venue import service as venue_service
from domain.venue.models import ScoreSheets

router = APIRouter(tags=["at the venue"])

Id = Annotated[int, Path(ge=1)]
HTML: dict[int | str, dict[str, Any]] = {200: {"content": {"text/html": {}}, "description": "the page"}}


def _links(request: Request, sheets: ScoreSheets) -> dict[int, str]:
    """Each game's scoring form with its token: the address the sheets were asked at, so ask for
    them at the address the phones in the hall reach."""
    return {
        sheet.game_id: str(
            request.url_for("score_page", game_id=sheet.game_id).include_query_params(token=sheet.token)
        )
        for sheet in sheets.sheets
    }


@router.get(
    "/api/v1/rounds/{round_id}/score-sheets",
    response_class=HTMLResponse,
    summary="A round's score sheets as printable A4 pages",
    responses={**responses(401, 403, 404, 409, 422), **HTML},
)
def get_score_sheets(
    round_id: Id, request: Request, session: SessionDep, settings: SettingsDep, caller: RefereeCaller
) -> HTMLResponse:
    """One sheet (记分表) per table of a published Guandan round: event, round, table, seats and
    names, a row per deal (finishing order by seat, both sides' levels, initials), signature lines
    for both sides, and a QR code with the game's scoring link and scorer token (seed 000 附件 八,
    seed 001 补充说明 4). Role: referee (the sheets carry scorer tokens)."""
    sheets = venue_service.score_sheets(session, round_id, caller=caller, secret=settings.signing_secret())
    links = _links(request, sheets)
    codes = {game_id: qr.png_data_uri(link) for game_id, link in links.items()}
    return HTMLResponse(venue.score_sheets_page(sheets, links=links, qr_codes=codes))


@router.get(
    "/api/v1/rounds/{round_id}/score-sheets.pdf",
    response_class=Response,
    summary="A round's score sheets as a PDF",
    responses={
        **responses(401, 403, 404, 409, 422),
        200: {"content": {"application/pdf": {}}, "description": "one A4 page per table"},
    },
)
def get_score_sheets_pdf(
    round_id: Id, request: Request, session: SessionDep, settings: SettingsDep, caller: RefereeCaller
) -> Response:
    """The same sheets as a PDF, one A4 page per table. Role: referee."""
    sheets = venue_service.score_sheets(session, round_id, caller=caller, secret=settings.signing_secret())
    return Response(
        pdf.score_sheets_pdf(sheets, links=_links(request, sheets)),
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="round-{round_id}-score-sheets.pdf"'},
    )


@router.get(
    "/score/{game_id}",
    name="score_page",
    response_class=HTMLResponse,
    summary="The scoring form of one game (the score sheet's QR link)",
    responses={**responses(401, 403, 404), **HTML},
)
def score_page(game_id: Id, session: SessionDep, actor: GameActor) -> HTMLResponse:
    """For a phone at the table, opened with `?token=` (the game's scorer token): both sides' names
    and levels, who declares, the seats to tap in finishing order, and the confirmation by both
    sides. Deals posted without a network wait on the phone and are sent again with their
    Idempotency-Key. A token of another game is refused (403 scorer-token-other-game)."""
    game = scoring_service.get_game(session, game_id)
    return HTMLResponse(venue.score_page(game, api_path=f"/api/v1/games/{game_id}"))


@router.get(
    "/screen/events/{event_id}",
    response_class=HTMLResponse,
    summary="The hall's big screen for an event",
    responses={**responses(404), **HTML},
)
def screen_page(event_id: Id, request: Request, session: SessionDep, now: ClockDep) -> HTMLResponse:
    """Public: the event, the current round and its clock (with the rule set's last-minutes
    warning, seed 000 §九.1), provisional standings by group and the live tables. The page polls
    its board every few seconds with If-None-Match and replaces it without reloading."""
    answer = venue_service.board(session, event_id, now=now)
    assert answer.board is not None  # asked without If-None-Match
    board_path = request.url_for("screen_board", event_id=event_id).path
    return HTMLResponse(venue.screen_page(answer.board, board_path=board_path))


@router.get(
    "/screen/events/{event_id}/board",
    name="screen_board",
    response_class=HTMLResponse,
    summary="The big screen's board (an HTML fragment)",
    responses={**responses(404), **HTML, 304: {"description": "Not Modified (If-None-Match)"}},
)
def screen_board(
    event_id: Id,
    session: SessionDep,
    now: ClockDep,
    if_none_match: Annotated[str | None, Header(alias="If-None-Match")] = None,
) -> Response:
    """Public. The ETag follows the results and the rounds; an unchanged poll answers 304."""
    answer = venue_service.board(session, event_id, now=now, if_none_match=if_none_match)
    if answer.board is None:
        return Response(status_code=304, headers={"ETag": answer.etag})
    return HTMLResponse(
        venue.board_fragment(answer.board), headers={"ETag": answer.etag, "Cache-Control": "no-cache"}
    )


def install(app: FastAPI) -> None:
    """Mount the venue's pages and their static scripts and styles."""
    app.include_router(router)
    app.mount("/static/venue", StaticFiles(directory=venue.STATIC), name="venue-static")
