"""Operations: JSON logs with the request id, Prometheus metrics, the public rate limit."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.observability import JsonFormatter, PublicRateLimitMiddleware, request_id_var
from tests.helpers import assert_problem, bearer
from zhisai.settings import Settings


def test_metrics_count_requests_by_route_template(client: TestClient) -> None:
    for _ in range(3):
        client.get("/api/v1/rules/presets/nuist-2023")
    text = client.get("/metrics").text
    line = next(
        line
        for line in text.splitlines()
        if line.startswith("zhisai_http_requests_total{")
        and 'route="/api/v1/rules/presets/{name}"' in line
        and 'status="200"' in line
    )
    assert float(line.rsplit(" ", 1)[1]) >= 3
    assert "zhisai_http_request_duration_seconds_bucket" in text
    assert "zhisai_deals_posted_total" in text


def test_json_log_lines_carry_the_request_id() -> None:
    record = logging.LogRecord("zhisai.access", logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    record.status = 200
    token = request_id_var.set("req-42")
    try:
        line = json.loads(JsonFormatter().format(record))
    finally:
        request_id_var.reset(token)
    assert line["message"] == "GET /x"
    assert (line["request_id"], line["status"], line["level"]) == ("req-42", 200, "INFO")


def test_access_log_names_the_request(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="zhisai.access"):
        client.get("/api/v1/health", headers={"X-Request-ID": "trace-me"})
    (record,) = [
        r for r in caplog.records if r.name == "zhisai.access" and "/api/v1/health" in r.getMessage()
    ]
    assert record.__dict__["status"] == 200 and record.__dict__["route"] == "/api/v1/health"


def test_unauthenticated_callers_are_rate_limited(database_url: str) -> None:
    settings = Settings(
        database_url=database_url, secret_key="t" * 40, environment="test", public_rate_limit_per_minute=5
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        answers = [client.get("/api/v1/rules/presets/default").status_code for _ in range(7)]
        assert answers[:5] == [200] * 5
        limited = client.get("/api/v1/rules/presets/default")
        body = assert_problem(limited, 429, "rate-limited")
        assert int(limited.headers["retry-after"]) >= 1 and "retry" in body["detail"]
        # a caller with credentials is not counted against the public budget
        assert client.get("/api/v1/rules/presets/default", headers=bearer("zs_unknown")).status_code == 200


def test_token_bucket_refills_with_time() -> None:
    now = [0.0]
    limiter = PublicRateLimitMiddleware(app=None, per_minute=60, clock=lambda: now[0])  # type: ignore[arg-type]
    assert all(limiter._take("10.0.0.1") == 0 for _ in range(60))
    assert limiter._take("10.0.0.1") == pytest.approx(1.0)
    assert limiter._take("10.0.0.2") == 0  # another address has its own bucket
    now[0] = 2.0
    assert limiter._take("10.0.0.1") == 0
