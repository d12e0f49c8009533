"""Dependencies shared by the routers: the unit of work, the caller, role checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.engine import Engine
from sqlmodel import Session

from domain.access import service as access_service
from domain.access.models import Caller, Role
from domain.errors import Forbidden, Unauthenticated
from domain.scoring import service as scoring_service
from storage.db import unit_of_work
from zhisai.settings import Settings

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

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


def get_optional_caller(session: SessionDep, credentials: Credentials) -> Caller | None:
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


UnionCaller = Annotated[Caller, Depends(require(Role.union))]
RefereeCaller = Annotated[Caller, Depends(require(Role.referee))]
AdminCaller = Annotated[Caller, Depends(require(Role.admin))]


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
