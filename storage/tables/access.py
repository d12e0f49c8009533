"""API keys and idempotency records."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from storage.tables.base import when


class ApiKey(SQLModel, table=True):
    """A service API key: only its SHA-256 is stored; the key itself is shown once."""

    __tablename__ = "api_key"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    role: str = Field(max_length=16)
    branch_code: str | None = Field(default=None, max_length=64)
    key_prefix: str = Field(max_length=16)
    key_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = when()
    revoked_at: datetime | None = when(nullable=True)


class IdempotencyRecord(SQLModel, table=True):
    """The first answer to a request carrying an ``Idempotency-Key``, replayed on retries."""

    __tablename__ = "idempotency_record"
    __table_args__ = (UniqueConstraint("caller", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    caller: str = Field(max_length=80)
    key: str = Field(max_length=200)
    method: str = Field(max_length=10)
    path: str = Field(max_length=500)
    request_hash: str = Field(max_length=64)
    status_code: int
    response_body: str
    created_at: datetime = when()
