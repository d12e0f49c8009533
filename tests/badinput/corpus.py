"""What is stored, counted, so a refused request can be shown to have changed nothing."""

from __future__ import annotations

from fastapi import FastAPI
from sqlmodel import SQLModel, func, select

from storage.db import unit_of_work
from storage.tables import Branch, Competition, Deal, Entry, Event, IdempotencyRecord, Member

TABLES: tuple[type[SQLModel], ...] = (Branch, Member, Competition, Event, Entry, Deal, IdempotencyRecord)


def counts(app: FastAPI) -> dict[str, int]:
    with unit_of_work(app.state.engine, writes=False) as session:
        return {t.__name__: int(session.exec(select(func.count()).select_from(t)).one()) for t in TABLES}
