"""Every table of the service, in one place. Alembic migrations are the only schema source;
a test proves they equal these models on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, MetaData, UniqueConstraint
from sqlmodel import Field, SQLModel

# Stable constraint names so migrations compare equal on both databases.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata: MetaData = SQLModel.metadata


def utcnow() -> datetime:
    return datetime.now(UTC)


class ApiKey(SQLModel, table=True):
    """A service API key: only its SHA-256 is stored; the key itself is shown once."""

    __tablename__ = "api_key"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    role: str = Field(max_length=16)
    branch_code: str | None = Field(default=None, max_length=64)
    key_prefix: str = Field(max_length=16)
    key_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    revoked_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


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
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
