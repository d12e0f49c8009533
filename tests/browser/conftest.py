"""Headless Chromium (Debian's, driven by Playwright) against the app served by uvicorn on a free
loopback port, on the test database (SQLite, or PostgreSQL with ZHISAI_TEST_DATABASE_URL).

Skipped when /usr/bin/chromium is missing; `.ci/run` installs it, so CI runs these tests.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI

from api.app import create_app
from zhisai.settings import Settings

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def app(database_url: str) -> FastAPI:
    settings = Settings(
        database_url=database_url,
        secret_key="b" * 40,
        environment="test",
        json_logs=False,
        public_rate_limit_per_minute=100_000,
        webhook_delivery_enabled=False,
    )
    return create_app(settings)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def live_url(app: FastAPI) -> Iterator[str]:
    """The app served by uvicorn in a thread of this process, until the test ends."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start within 20 s"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def browser() -> Iterator[Any]:
    """A Chromium with a new empty profile (Playwright makes one for each launch)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
