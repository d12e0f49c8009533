"""Spreadsheets: a branch's registration form uploaded (.xlsx or .csv), and the standings, round
tables, deal records and rosters downloaded as .xlsx (frozen headers, sized columns) or .csv
(UTF-8 with a byte order mark, so Excel opens it in Chinese).

Public downloads carry names and branches only; the registration download, with staff ids and
phones, is for union and referee keys.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, File, Path, Query, Request, Response, UploadFile
from fastapi.routing import APIRoute

from api.deps import ClockDep, OptionalCallerDep, SessionDep, UnionCaller, require
from api.idempotency import IdempotencyDep
from api.problems import responses
from domain.access.models import Caller, Role
from domain.sheets import service
from domain.sheets.grid import Sheet, SheetFormat, render
from domain.sheets.reader import MAX_SHEET_BYTES
from domain.sheets.schemas import SheetReport


class BufferedBodyRoute(APIRoute):
    """Reads the whole body before the form is parsed, so ``Idempotency-Key`` can hash the very
    bytes uploaded (a multipart stream can otherwise be read only once). Downloads have no body."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def buffered(request: Request) -> Response:
            await request.body()
            return await handler(request)

        return buffered


router = APIRouter(tags=["spreadsheets"], route_class=BufferedBodyRoute)

OrganiserCaller = Annotated[Caller, Depends(require(Role.union, Role.referee))]
Id = Annotated[int, Path(ge=1)]
Format = Annotated[SheetFormat, Path(description="xlsx or csv")]
FILE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the sheet, as an attachment",
        "content": {
            SheetFormat.xlsx.media_type.split(";")[0]: {"schema": {"type": "string", "format": "binary"}},
            "text/csv": {"schema": {"type": "string"}},
        },
    }
}


def _file(sheet: Sheet, sheet_format: SheetFormat, *, fallback: str) -> Response:
    """The sheet as a download named by its title (RFC 6266 ``filename*``), ASCII ``fallback`` beside it."""
    disposition = (
        f'attachment; filename="{fallback}.{sheet_format.value}"; '
        f"filename*=UTF-8''{quote(sheet.title)}.{sheet_format.value}"
    )
    return Response(
        render(sheet, sheet_format),
        media_type=sheet_format.media_type,
        headers={"Content-Disposition": disposition},
    )


@router.post(
    "/events/{event_id}/entries/sheet",
    response_model=SheetReport,
    summary="Upload a registration form (.xlsx or .csv)",
    responses={
        **responses(401, 403, 404, 409, 413, 422),
        201: {"model": SheetReport, "description": "stored: every row accepted (dry_run=false)"},
    },
)
def upload_registration(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    response: Response,
    file: Annotated[
        UploadFile,
        File(description=f"the form: .xlsx, or .csv in UTF-8 or GB18030; at most {MAX_SHEET_BYTES} bytes"),
    ],
    dry_run: Annotated[bool, Query(description="answer row by row and store nothing")] = True,
    submit: Annotated[
        bool, Query(description="also submit each entry to the union (seed 000 §六.3)")
    ] = False,
    branch_code: Annotated[
        str | None, Query(max_length=64, description="default: the form's 分工会, else the key's branch")
    ] = None,
) -> Any:
    """A branch's form — seed 001 附件1 (编号 | 参赛选手姓名 | 手机号码, two rows per pair,
    分工会联系人 and 联系电话 below) or a seed 000 team roster (工号 | 姓名 | 手机号码 | 角色 with
    领队/教练). Members are matched by 工号, or by 姓名 with 手机号码; each entry is then formed
    by the same events service as `POST /events/{event_id}/entries`, so the same rules refuse.
    The answer lists every row, accepted or refused (rule, cell, numbers). `dry_run=true` (the
    default) stores nothing; `dry_run=false` stores every entry in one transaction (201), or
    nothing with a 422 `sheet-rows-refused` carrying the same report. Role: union; a
    branch-scoped key for its own branch."""
    status = 200 if dry_run else 201
    response.status_code = status
    content = file.file.read(MAX_SHEET_BYTES + 1)
    return idem.run(
        lambda: service.import_registration(
            session,
            event_id,
            content=content,
            filename=file.filename or "",
            branch_code=branch_code,
            dry_run=dry_run,
            submit=submit,
            caller=caller,
            now=now,
        ),
        status_code=status,
    )


@router.get(
    "/events/{event_id}/standings.{sheet_format}",
    response_class=Response,
    summary="Standings as a spreadsheet",
    responses={**FILE_RESPONSE, **responses(404, 422)},
)
def standings_sheet(
    event_id: Id,
    sheet_format: Format,
    session: SessionDep,
    stage: Annotated[str | None, Query(description="default: the latest stage")] = None,
) -> Response:
    """Public: rank, entry, branch, games, wins/draws/losses, points, bonus, every tie-break
    figure and the tie text, per group — the same standings as `GET /events/{event_id}/standings`."""
    sheet = service.standings_sheet(session, event_id, stage=stage)
    return _file(sheet, sheet_format, fallback=f"standings-{event_id}")


@router.get(
    "/rounds/{round_id}/table.{sheet_format}",
    response_class=Response,
    summary="A round's match table and seat map as a spreadsheet",
    responses={**FILE_RESPONSE, **responses(401, 404, 422)},
)
def round_sheet(
    round_id: Id, sheet_format: Format, session: SessionDep, caller: OptionalCallerDep
) -> Response:
    """Public once published: a row per table (match, group, block, table, game) with each seat
    N/E/S/W (or first/second): player, entry, branch; byes as rows of their own."""
    sheet = service.round_sheet(session, round_id, caller=caller)
    return _file(sheet, sheet_format, fallback=f"round-{round_id}")


@router.get(
    "/events/{event_id}/deals.{sheet_format}",
    response_class=Response,
    summary="Every deal of an event as a spreadsheet",
    responses={**FILE_RESPONSE, **responses(404, 422)},
)
def deals_sheet(event_id: Id, sheet_format: Format, session: SessionDep) -> Response:
    """Public: per deal of every published round — stage, round, table, match, game, the two
    sides, deal number, level played, declarer, finish order (上游…下游 with seat and player),
    promotion and both sides' levels after the deal."""
    return _file(service.deals_sheet(session, event_id), sheet_format, fallback=f"deals-{event_id}")


@router.get(
    "/events/{event_id}/registration.{sheet_format}",
    response_class=Response,
    summary="The rosters with staff ids and phones as a spreadsheet",
    responses={**FILE_RESPONSE, **responses(401, 403, 404, 422)},
)
def registration_sheet(
    event_id: Id, sheet_format: Format, session: SessionDep, caller: OrganiserCaller
) -> Response:
    """Union and referee keys: every entry's roster with 工号, 姓名, 手机号码 and 角色; a
    branch-scoped key gets its own branch's."""
    sheet = service.registration_sheet(session, event_id, caller=caller)
    return _file(sheet, sheet_format, fallback=f"registration-{event_id}")
