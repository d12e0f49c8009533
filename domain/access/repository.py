"""Queries for API keys."""

from __future__ import annotations

from sqlmodel import Session, select

from storage.tables import ApiKey


def by_hash(session: Session, key_hash: str) -> ApiKey | None:
    return session.exec(select(ApiKey).where(ApiKey.key_hash == key_hash)).first()


def by_id(session: Session, key_id: int) -> ApiKey | None:
    return session.get(ApiKey, key_id)


def add(session: Session, key: ApiKey) -> ApiKey:
    session.add(key)
    session.flush()
    return key
