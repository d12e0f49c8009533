"""Fixtures: the union system with a union key, and the app's clock."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.helpers import bearer
from tests.http.events.union_system import Clock, UnionSystem


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.clock = clock
    return clock


@pytest.fixture
def union(client: TestClient, make_key: Callable[..., str], clock: Clock) -> UnionSystem:
    return UnionSystem(client=client, headers=bearer(make_key("union")))
