"""Dependencies shared by the routers: the unit of work, the caller, role checks, list pages."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.engine import Engine
from sqlmodel import Session

from domain.access import service as access_service
from domain.access.models import Caller, Role
from domain.errors import Forbidden, Unauthenticated
from domain.paging import Page, Paged
from domain.scoring import service as scoring_service
from storage.db import unit_of_work
from zhisai.settings import Settings

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_LIMIT = 200
MAX_LIMIT = 1000
T = TypeVar("T")

OPTIONAL_SCHEME = "ApiKeyOptional"
bearer = HTTPBearer(
    auto_error=False,
    scheme_name="ApiKey",
    description="A service API key (`zhisai create-key`) sent as `Authorization: Bearer zs_…`.",
)


def get_engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    """One transaction per request: committed when the endpoint succeeds, rolled back otherwise.

    Declared with ``scope="function"`` below, so the commit happens before the answer is sent:
    a 2xx is only ever sent for work that is stored.
    """
    with unit_of_work(get_engine(request), writes=request.method not in SAFE_METHODS) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session, scope="function")]
SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
# The same key, for public reads that show more to a key holder: documented as optional.
optional_bearer = HTTPBearer(auto_error=False, scheme_name=OPTIONAL_SCHEME)
OptionalCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(optional_bearer)]


def get_now(request: Request) -> datetime:
    """Now, from ``app.state.clock`` when a test or a replay sets one; the real UTC time otherwise.

    The one clock of every router: registration windows, lineup locks, rounds and scoring."""
    clock: Callable[[], datetime] | None = getattr(request.app.state, "clock", None)
    return clock() if clock is not None else datetime.now(UTC)


ClockDep = Annotated[datetime, Depends(get_now)]


def get_caller(session: SessionDep, credentials: Credentials) -> Caller:
    if credentials is None:
        raise Unauthenticated(
            "this endpoint needs an API key (Authorization: Bearer …)", rule="api-key-required"
        )
    return access_service.authenticate(session, credentials.credentials)


def get_optional_caller(session: SessionDep, credentials: OptionalCredentials) -> Caller | None:
    if credentials is None:
        return None
    return access_service.authenticate(session, credentials.credentials)


CallerDep = Annotated[Caller, Depends(get_caller)]
OptionalCallerDep = Annotated[Caller | None, Depends(get_optional_caller)]


def require(*roles: Role) -> Callable[[Caller], Caller]:
    """A dependency admitting callers with one of ``roles`` (admin is always admitted)."""
    names = ", ".join(role.value for role in roles)

    def check(caller: CallerDep) -> Caller:
        if not caller.has_role(*roles):
            raise Forbidden(
                f"this needs a {names} key; the key presented is a {caller.role.value} key",
                rule="role-required",
            )
        return caller

    return check


def get_organiser(caller: CallerDep) -> Caller:
    """The organising side: the union itself (a union key not scoped to a branch), referees and
    admins. A branch admin's key may register its own entries, never run the competition."""
    if caller.has_role(Role.union, Role.referee) and not (caller.role is Role.union and caller.branch_code):
        return caller
    raise Forbidden(
        "this is the organisers' work: it needs the union's own key or a referee key, not a key "
        f"acting for branch {caller.branch_code}"
        if caller.branch_code
        else f"this needs a union or referee key; the key presented is a {caller.role.value} key",
        rule="organiser-required",
    )


OrganiserCaller = Annotated[Caller, Depends(get_organiser)]
UnionCaller = Annotated[Caller, Depends(require(Role.union))]
RefereeCaller = Annotated[Caller, Depends(require(Role.referee))]
AdminCaller = Annotated[Caller, Depends(require(Role.admin))]


# --- Lists: one page at a time ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pager:
    """The page a list read asks for, and the answer's headers: ``X-Total-Count`` and, while rows
    remain, an RFC 8288 ``Link: <…?offset=…&limit=…>; rel="next"``."""

    page: Page
    request: Request
    response: Response

    def answer(self, paged: Paged[T]) -> list[T]:
        self.response.headers["X-Total-Count"] = str(paged.total)
        following = self.page.offset + len(paged.items)
        if paged.items and following < paged.total:
            kept = self.request.url.remove_query_params(["offset", "limit"])
            url = kept.include_query_params(offset=following, limit=self.page.limit)
            self.response.headers["Link"] = f'<{url.path}?{url.query}>; rel="next"'
        return list(paged.items)


def get_pager(
    request: Request,
    response: Response,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="rows in this page")] = DEFAULT_LIMIT,
    offset: Annotated[int, Query(ge=0, description="rows skipped before this page")] = 0,
) -> Pager:
    return Pager(page=Page(limit=limit, offset=offset), request=request, response=response)


PageDep = Annotated[Pager, Depends(get_pager)]


# --- Scoring: the actor of one game (its scorer token or a referee key) ---------------------


def get_game_actor(
    game_id: int,
    session: SessionDep,
    settings: SettingsDep,
    credentials: Credentials,
    now: ClockDep,
    token: Annotated[
        str | None, Query(description="the game's scorer token, for the score sheet's QR link")
    ] = None,
) -> scoring_service.Actor:
    presented = credentials.credentials if credentials is not None else token
    return scoring_service.authorize(session, game_id, presented, secret=settings.signing_secret(), now=now)


GameActor = Annotated[scoring_service.Actor, Depends(get_game_actor)]


def document_optional_credentials(app: FastAPI) -> None:
    """Public reads that accept a key (``OptionalCallerDep``) document it as optional —
    ``security: [{}, {ApiKey: []}]`` — instead of FastAPI's required-looking scheme of their own."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        document = generate()
        schemes = document.get("components", {}).get("securitySchemes", {})
        if schemes.pop(OPTIONAL_SCHEME, None) is None:
            return document
        for item in document.get("paths", {}).values():
            for operation in item.values():
                security = operation.get("security") if isinstance(operation, dict) else None
                if security and {OPTIONAL_SCHEME: []} in security:
                    operation["security"] = [{}, {"ApiKey": []}]
        return document

    app.openapi = openapi  # type: ignore[method-assign]
