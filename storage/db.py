"""The engine and the unit of work.

SQLite is the embedded default (WAL, foreign keys, a busy timeout, and ``BEGIN IMMEDIATE`` for
writing units so concurrent writers queue instead of failing); PostgreSQL is the production store.
One session per request: it commits when the work succeeds and rolls back when it fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlmodel import Session, create_engine

SQLITE_BUSY_TIMEOUT_MS = 30_000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str, **kwargs: Any) -> Engine:
    if not is_sqlite(url):
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20, **kwargs)
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        **kwargs,
    )
    _configure_sqlite(engine)
    return engine


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (pysqlite's own transaction handling defers it badly).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A writing unit takes the write lock up front: a deferred BEGIN that later upgrades can
        # fail with SQLITE_BUSY without waiting, which would turn a busy moment into a lost post.
        mode = "IMMEDIATE" if connection.get_execution_options().get("writes", True) else "DEFERRED"
        connection.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def unit_of_work(engine: Engine, *, writes: bool = True) -> Iterator[Session]:
    """A session whose work is committed on success and rolled back on any error."""
    bind = engine if writes else engine.execution_options(writes=False)
    with Session(bind=bind, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
