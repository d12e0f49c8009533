"""The app with a populated database and an admin key, for the contract fuzzer.

One world per module (per xdist worker): the fuzzer's writes pile up in it as they would in a
running service, and building it once keeps the run inside a few minutes. SQLite is enough here:
the suite proves the two stores agree elsewhere.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from storage import migrate
from tests.fuzz.world import SECRET, World, build
from tests.http.events.union_system import Clock
from zhisai.settings import Settings


def world_settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key=SECRET,
        environment="test",
        max_body_bytes=200_000,
        json_logs=False,
        log_level="WARNING",
        public_rate_limit_per_minute=1_000_000,
        webhook_delivery_enabled=False,
    )


@pytest.fixture(scope="module")
def world_app(tmp_path_factory: pytest.TempPathFactory, template_database: str) -> Iterator[FastAPI]:
    path = tmp_path_factory.mktemp("world") / "world.db"
    if template_database.endswith(".db"):
        shutil.copyfile(template_database, path)
    else:  # the suite runs on PostgreSQL; this module still uses a SQLite file
        migrate.upgrade(f"sqlite:///{path}")
    app = create_app(world_settings(f"sqlite:///{path}"))
    app.state.clock = Clock()
    yield app
    app.state.engine.dispose()


@pytest.fixture(scope="module")
def world_client(world_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(world_app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def world(world_app: FastAPI, world_client: TestClient) -> World:
    return build(world_client, world_app.state.engine)
