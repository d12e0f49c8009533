"""Test databases: one migrated template per run (per xdist worker), a fresh copy per test.

SQLite by default; set ZHISAI_TEST_DATABASE_URL to a PostgreSQL server URL (any database the user
may connect to, e.g. ``postgresql+psycopg://postgres@127.0.0.1:54329/postgres``) to run the same
suite on PostgreSQL. Every test gets its own database built by ``alembic upgrade head``, so the
app commits for real, exactly as in production.
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session

from storage import migrate
from storage.db import make_engine, unit_of_work

PG_URL = os.environ.get("ZHISAI_TEST_DATABASE_URL")
_counter = itertools.count()


def _worker() -> str:
    # The process id keeps two runs on one server (two terminals, CI and a developer) apart.
    return f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"


def _pg_admin() -> Engine:
    assert PG_URL is not None
    return create_engine(PG_URL, isolation_level="AUTOCOMMIT")


def _pg_url(database: str) -> str:
    assert PG_URL is not None
    return make_url(PG_URL).set(database=database).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def backend() -> str:
    return "postgresql" if PG_URL else "sqlite"


@pytest.fixture(scope="session")
def template_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database migrated to head once; tests copy it."""
    if PG_URL is None:
        path = tmp_path_factory.mktemp("template") / "template.db"
        url = f"sqlite:///{path}"
        migrate.upgrade(url)
        yield str(path)
        return
    name = f"zhisai_tpl_{_worker()}"
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    migrate.upgrade(_pg_url(name))
    yield name
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def database_url(template_database: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database at head for this test only."""
    if PG_URL is None:
        path = tmp_path / "zhisai.db"
        shutil.copyfile(template_database, path)
        yield f"sqlite:///{path}"
        return
    name = f"zhisai_t_{_worker()}_{next(_counter)}"
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"'))
    yield _pg_url(name)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def empty_database_url(tmp_path: Path) -> Iterator[str]:
    """A database with no schema at all (for the migration tests)."""
    if PG_URL is None:
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    name = f"zhisai_e_{_worker()}_{next(_counter)}"
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield _pg_url(name)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A unit of work for service tests: committed at the end of the test body if it succeeds."""
    with unit_of_work(engine) as session:
        yield session
