"""Liveness and readiness: the database answers and its schema is at the latest migration."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import SessionDep
from api.problems import responses
from storage import migrate
from zhisai import __version__

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str = Field(description="ok when the service can serve requests")
    version: str
    database: str = Field(description="the database backend in use (sqlite or postgresql)")
    schema_revision: str | None = Field(description="the migration the database is at")
    schema_head: str | None = Field(description="the latest migration the service knows")


@router.get("/health", response_model=Health, responses=responses(409, 500), summary="Service health")
def health(session: SessionDep) -> Health:
    """200 when the database is reachable and its schema is at head; 409 when a migration is missing."""
    revision = migrate.require_head(session)
    return Health(
        status="ok",
        version=__version__,
        database=session.get_bind().dialect.name,
        schema_revision=revision,
        schema_head=revision,
    )
