"""The app on a fresh migrated database, its clock, and the driver holding a union and a referee key."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from domain.access import service as access_service
from storage.db import unit_of_work
from tests.scenarios.driver import Clock, Driver
from zhisai.settings import Settings


@pytest.fixture
def app(database_url: str) -> FastAPI:
    settings = Settings(
        database_url=database_url,
        secret_key="s" * 40,
        environment="test",
        json_logs=False,
        public_rate_limit_per_minute=1_000_000,
        webhook_delivery_enabled=False,
    )
    return create_app(settings)


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.clock = clock
    return clock


@pytest.fixture
def driver(app: FastAPI, clock: Clock) -> Iterator[Driver]:
    with unit_of_work(app.state.engine) as session:
        union = access_service.create_key(session, name="union system", role="union").secret
        referee = access_service.create_key(session, name="chief referee", role="referee").secret
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Driver(client, union_key=union, referee_key=referee, clock=clock)
