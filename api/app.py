"""The application factory: ``create_app()`` for uvicorn, tests and the CLI alike."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy.engine import Engine

from api import problems, v1
from api.deps import document_optional_credentials
from api.middleware import BodyLimitMiddleware, RequestIdMiddleware, WriteGateMiddleware
from api.observability import AccessLogMiddleware, PublicRateLimitMiddleware, configure_logging
from api.pages import routes as venue_pages
from domain.webhooks.backoff import RetryPolicy
from domain.webhooks.delivery import DeliveryWorker
from storage.db import make_engine
from zhisai import __version__
from zhisai.settings import Settings, get_settings

DESCRIPTION = """\
zhisai (智赛) runs the union's mind-sport competitions — Guandan (掼蛋), Gongzhu (拱猪),
Chinese chess and Go — from registration to published awards. See `openapi.md` for the contract
written for the union membership system, the scoring forms and the dashboards.
"""


def metrics_endpoint() -> Response:
    """Prometheus text format: request counts and latencies, deals posted, webhook deliveries."""
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


def webhook_worker(engine: Engine, settings: Settings) -> DeliveryWorker:
    policy = RetryPolicy(
        max_attempts=settings.webhook_max_attempts,
        base_seconds=settings.webhook_backoff_base_seconds,
        cap_seconds=settings.webhook_backoff_cap_seconds,
    )
    return DeliveryWorker(
        engine,
        policy=policy,
        timeout_seconds=settings.webhook_timeout_seconds,
        poll_seconds=settings.webhook_poll_seconds,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    if settings.json_logs:
        configure_logging(settings.log_level)
    else:
        logging.basicConfig(level=settings.log_level.upper())
    logging.getLogger("alembic.runtime.migration").setLevel(logging.WARNING)  # health checks ask it often
    engine = make_engine(settings.database_url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # More worker threads than writers admitted at once (WriteGateMiddleware): see there.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        worker = webhook_worker(engine, settings) if settings.webhook_delivery_enabled else None
        if worker is not None:
            worker.start()
        yield
        if worker is not None:
            await asyncio.to_thread(worker.stop)  # joining may wait for a post under way
        engine.dispose()

    app = FastAPI(
        title="zhisai",
        version=__version__,
        description=DESCRIPTION,
        openapi_url="/api/v1/openapi.json",
        docs_url="/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    problems.install(app)
    document_optional_credentials(app)
    app.include_router(v1.router)
    venue_pages.install(app)  # score sheets, the scoring form, the big screen
    app.add_api_route("/metrics", metrics_endpoint, include_in_schema=False)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["*"],
            allow_headers=["*"],
            expose_headers=["ETag", "X-Request-ID", "Idempotent-Replayed", "X-Total-Count", "Link"],
        )
    app.add_middleware(
        WriteGateMiddleware, limit=min(settings.max_concurrent_writes, settings.worker_threads // 2)
    )
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(PublicRateLimitMiddleware, per_minute=settings.public_rate_limit_per_minute)
    app.add_middleware(AccessLogMiddleware)
    app.add_middleware(RequestIdMiddleware)
    return app
