"""Structured JSON logs carrying the request id, request metrics, and the rate limit for
unauthenticated callers."""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem_response
from zhisai import metrics

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)
access_log = logging.getLogger("zhisai.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and any ``extra`` fields."""

    _standard = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = request_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        entry.update({k: v for k, v in record.__dict__.items() if k not in self._standard})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure_logging(level: str) -> None:
    """Sends every log line to stderr as JSON (once, however many apps a process creates)."""
    root = logging.getLogger()
    if not any(isinstance(handler.formatter, JsonFormatter) for handler in root.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.setLevel(level.upper())


def route_template(scope: Scope) -> str:
    """The matched route as a template (``/api/v1/events/{event_id}``), so metrics do not grow a
    label per id; ``unmatched`` for paths no route answers."""
    if scope.get("route") is None:
        return "unmatched"
    params = {str(value): name for name, value in scope.get("path_params", {}).items()}
    segments = []
    for segment in scope["path"].split("/"):
        name = params.pop(segment, None)
        segments.append(segment if name is None else "{" + name + "}")
    return "/".join(segments)


class AccessLogMiddleware:
    """Logs every request once and records its count and latency by route template."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        token = request_id_var.set(scope.get("state", {}).get("request_id"))
        try:
            await self.app(scope, receive, recording_send)
        finally:
            elapsed = time.perf_counter() - started
            route = route_template(scope)
            metrics.HTTP_REQUESTS.labels(scope["method"], route, str(status)).inc()
            metrics.HTTP_LATENCY.labels(scope["method"], route).observe(elapsed)
            access_log.info(
                "%s %s %s",
                scope["method"],
                scope["path"],
                status,
                extra={"status": status, "duration_ms": round(elapsed * 1000, 2), "route": route},
            )
            request_id_var.reset(token)


class PublicRateLimitMiddleware:
    """A token bucket per client address for requests without credentials (dashboards, the big
    screen, anyone): ``per_minute`` requests a minute, with bursts up to the same number."""

    def __init__(self, app: ASGIApp, *, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.rate = per_minute / 60.0
        self.capacity = float(per_minute)
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def _take(self, client: str) -> float:
        """0 when a request may pass, else the seconds to wait."""
        now = self.clock()
        with self.lock:
            tokens, last = self.buckets.get(client, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens >= 1:
                self.buckets[client] = (tokens - 1, now)
                return 0.0
            self.buckets[client] = (tokens, now)
            if len(self.buckets) > 50_000:  # forget idle clients rather than grow without bound
                self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 120}
            return (1 - tokens) / self.rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or any(name == b"authorization" for name, _ in scope.get("headers", [])):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self._take(client)
        if wait == 0:
            await self.app(scope, receive, send)
            return
        metrics.RATE_LIMITED.inc()
        response = problem_response(
            429,
            rule="rate-limited",
            detail=f"too many requests without credentials from this address; retry in {math.ceil(wait)} s",
            headers={"Retry-After": str(math.ceil(wait))},
        )
        await response(scope, receive, send)
