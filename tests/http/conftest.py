"""The app through httpx (Starlette's TestClient is an httpx client over the ASGI app)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from api.app import create_app
from domain.access import service as access_service
from storage.db import unit_of_work
from zhisai.settings import Settings


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key="t" * 40,
        environment="test",
        max_body_bytes=200_000,
        json_logs=False,
        public_rate_limit_per_minute=100_000,
        webhook_delivery_enabled=False,  # tests that deliver run the worker themselves
    )


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def make_key(app: FastAPI) -> Callable[..., str]:
    """Creates an API key in the app's database and returns its secret."""

    def make(role: str, *, branch_code: str | None = None, name: str = "test key") -> str:
        engine: Engine = app.state.engine
        with unit_of_work(engine) as session:
            return access_service.create_key(session, name=name, role=role, branch_code=branch_code).secret

    return make
