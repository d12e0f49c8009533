"""A real server on a fresh database (SQLite file, or PostgreSQL with ZHISAI_TEST_DATABASE_URL)
holding the fuzzer's world with twelve tables in play."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.fuzz.conftest import world_settings
from tests.fuzz.world import SECRET, World, build
from tests.http.events.union_system import Clock
from tests.load.server import Server

ENTRIES = 26  # 13 games in round 1; the first has a deal already, the other 12 take the load


@pytest.fixture
def load_world(database_url: str) -> World:
    app = create_app(world_settings(database_url))
    app.state.clock = Clock()  # the world's registration dates are in 2023
    with TestClient(app, raise_server_exceptions=False) as client:
        world = build(client, app.state.engine, entries=ENTRIES)
    app.state.engine.dispose()
    return world


@pytest.fixture
def server(database_url: str, load_world: World) -> Iterator[Server]:
    running = Server(database_url, SECRET).start()
    yield running
    running.stop()
