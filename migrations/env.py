"""Alembic environment: the URL comes from the caller (``storage.migrate``) or the settings."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from sqlalchemy.engine import Connection

from storage import tables
from storage.db import is_sqlite, make_engine
from storage.tables.base import UTCDateTime
from zhisai.settings import get_settings

config = context.config
target_metadata = tables.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    # UTCDateTime only changes how Python reads values; the column is a plain timezone-aware timestamp.
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=is_sqlite(_url()),  # SQLite alters tables by copying them
        compare_type=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
