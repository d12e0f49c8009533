"""Queries for idempotency records."""

from __future__ import annotations

from sqlmodel import Session, select

from storage.tables import IdempotencyRecord


def find(session: Session, *, caller: str, key: str) -> IdempotencyRecord | None:
    return session.exec(
        select(IdempotencyRecord).where(IdempotencyRecord.caller == caller, IdempotencyRecord.key == key)
    ).first()


def add(session: Session, record: IdempotencyRecord) -> IdempotencyRecord:
    session.add(record)
    session.flush()
    return record
