"""The app on a fresh migrated database, its clock, and the driver holding a union and a referee key.

``driver`` (with ``app`` and ``clock``) is a fresh competition per test; ``module_driver`` is one
database for a whole module, so a module plays its seed once and checks it in several tests.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from api.app import create_app
from domain.access import service as access_service
from storage.db import unit_of_work
from tests.conftest import PG_URL, _pg_admin, _pg_url, _worker
from tests.scenarios.driver import Clock, Driver
from zhisai.settings import Settings

_modules = itertools.count()


def _settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key="s" * 40,
        environment="test",
        json_logs=False,
        public_rate_limit_per_minute=1_000_000,
        webhook_delivery_enabled=False,
    )


@contextmanager
def _driving(app: FastAPI, clock: Clock) -> Iterator[Driver]:
    app.state.clock = clock
    with unit_of_work(app.state.engine) as session:
        union = access_service.create_key(session, name="union system", role="union").secret
        referee = access_service.create_key(session, name="chief referee", role="referee").secret
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Driver(client, union_key=union, referee_key=referee, clock=clock)


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(_settings(database_url))


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.clock = clock
    return clock


@pytest.fixture
def driver(app: FastAPI, clock: Clock) -> Iterator[Driver]:
    with _driving(app, clock) as driver:
        yield driver


@pytest.fixture(scope="module")
def module_database_url(template_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh database at head for one module."""
    if PG_URL is None:
        path = Path(tmp_path_factory.mktemp("scenario")) / "zhisai.db"
        shutil.copyfile(template_database, path)
        yield f"sqlite:///{path}"
        return
    name = f"zhisai_s_{_worker()}_{next(_modules)}"
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"'))
    yield _pg_url(name)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="module")
def module_driver(module_database_url: str) -> Iterator[Driver]:
    app = create_app(_settings(module_database_url))
    with _driving(app, Clock()) as driver:
        yield driver
    app.state.engine.dispose()
