"""The app with its delivery worker off, so each test runs delivery passes when it chooses."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI

from tests.helpers import bearer
from tests.integration.webhooks.rows import insert_event
from zhisai.settings import Settings


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key="t" * 40,
        environment="test",
        json_logs=False,
        webhook_delivery_enabled=False,
    )


@pytest.fixture
def union(make_key: Callable[..., str]) -> dict[str, str]:
    return bearer(make_key("union"))


@pytest.fixture
def event_id(app: FastAPI) -> int:
    return insert_event(app.state.engine)
