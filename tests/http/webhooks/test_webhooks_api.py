"""Subscriptions, the delivery log and manual retries through the API; the worker in the app."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from domain.webhooks import service
from domain.webhooks.backoff import RetryPolicy
from domain.webhooks.delivery import run_due_deliveries
from domain.webhooks.signing import verify
from storage.db import unit_of_work
from tests.helpers import assert_problem, bearer
from tests.integration.webhooks.receiver import serve
from tests.integration.webhooks.rows import NOW, insert_event
from zhisai.settings import Settings

URL = "https://union.example.edu.cn/hooks/zhisai"
KINDS = ["result.final", "standings.changed"]


def subscribe(client: TestClient, event_id: int, *, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/events/{event_id}/webhooks", json={"url": URL, "kinds": KINDS, **body}, headers=headers
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def emit(app: FastAPI, event_id: int, *, kind: str = "result.final") -> int:
    with unit_of_work(app.state.engine) as session:
        return service.emit(session, event_id=event_id, kind=kind, payload={"game_id": 1}, now=NOW)


def test_subscribe_list_and_delete(client: TestClient, union: dict[str, str], event_id: int) -> None:
    created = subscribe(client, event_id, headers=union)
    assert created["secret"].startswith("whsec_") and len(created["secret"]) > 40
    assert (created["event_id"], created["url"], created["kinds"]) == (event_id, URL, KINDS)

    listed = client.get(f"/api/v1/events/{event_id}/webhooks", headers=union).json()
    assert listed == [{key: value for key, value in created.items() if key != "secret"}]
    assert created["secret"] not in client.get(f"/api/v1/events/{event_id}/webhooks", headers=union).text
    assert client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=union).json() == []

    assert client.delete(f"/api/v1/webhooks/{created['id']}", headers=union).status_code == 204
    assert client.get(f"/api/v1/events/{event_id}/webhooks", headers=union).json() == []
    assert_problem(
        client.get(f"/api/v1/webhooks/{created['id']}/deliveries", headers=union), 404, "unknown-webhook"
    )
    assert_problem(client.delete(f"/api/v1/webhooks/{created['id']}", headers=union), 404, "unknown-webhook")


def test_a_given_secret_is_kept_and_one_url_subscribes_once(
    client: TestClient, union: dict[str, str], event_id: int
) -> None:
    created = subscribe(
        client, event_id, headers=union, secret="the-union-systems-own-secret", kinds=KINDS + KINDS
    )
    assert created["secret"] == "the-union-systems-own-secret"
    assert created["kinds"] == KINDS  # repeated kinds count once
    again = client.post(
        f"/api/v1/events/{event_id}/webhooks", json={"url": URL, "kinds": KINDS}, headers=union
    )
    problem = assert_problem(again, 409, "webhook-exists")
    assert problem["field"] == "url" and str(created["id"]) in problem["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://union.example.edu.cn/hooks", "kinds": KINDS}, "body.url"),
        ({"url": "not a url", "kinds": KINDS}, "body.url"),
        ({"url": URL, "kinds": ["result.provisional"]}, "body.kinds[0]"),
        ({"url": URL, "kinds": []}, "body.kinds"),
        ({"url": URL, "kinds": KINDS, "secret": "short"}, "body.secret"),
        ({"url": URL, "kinds": KINDS, "events": "all"}, "body.events"),
    ],
)
def test_bad_subscriptions_are_refused(
    client: TestClient, union: dict[str, str], event_id: int, body: dict[str, Any], field: str
) -> None:
    problem = assert_problem(
        client.post(f"/api/v1/events/{event_id}/webhooks", json=body, headers=union), 422
    )
    assert problem["field"] == field


def test_who_may_manage_webhooks(
    client: TestClient, make_key: Callable[..., str], union: dict[str, str], event_id: int
) -> None:
    path = f"/api/v1/events/{event_id}/webhooks"
    body = {"url": URL, "kinds": KINDS}
    assert_problem(client.post(path, json=body), 401, "api-key-required")
    assert_problem(client.post(path, json=body, headers=bearer(make_key("referee"))), 403, "role-required")
    branch = bearer(make_key("union", branch_code="MATH"))
    assert_problem(client.post(path, json=body, headers=branch), 403, "webhooks-need-unscoped-key")
    assert_problem(client.get(path, headers=branch), 403, "webhooks-need-unscoped-key")
    assert client.post(path, json=body, headers=bearer(make_key("admin"))).status_code == 201
    assert_problem(client.post("/api/v1/events/999/webhooks", json=body, headers=union), 404, "unknown-event")


def test_the_delivery_log_and_a_manual_retry(
    app: FastAPI, client: TestClient, union: dict[str, str], event_id: int
) -> None:
    app.state.clock = lambda: NOW  # the retry is queued at the time the passes below run at
    once = RetryPolicy(max_attempts=1)
    with serve([500, 200]) as receiver, httpx.Client(timeout=5.0) as poster:
        webhook = subscribe(client, event_id, headers=union, url=receiver.url)
        assert emit(app, event_id) == 1
        assert emit(app, event_id, kind="draw.published") == 0  # not a kind it asked for
        log = f"/api/v1/webhooks/{webhook['id']}/deliveries"
        [queued] = client.get(log, headers=union).json()
        assert (queued["status"], queued["attempts"], queued["kind"]) == ("pending", 0, "result.final")

        assert run_due_deliveries(app.state.engine, now=NOW, client=poster, policy=once) == 1
        [failed] = client.get(log, params={"status": "failed"}, headers=union).json()
        assert (failed["id"], failed["attempts"], failed["last_status_code"]) == (queued["id"], 1, 500)
        assert failed["next_attempt_at"] is None
        assert client.get(log, params={"status": "delivered"}, headers=union).json() == []

        retried = client.post(f"{log}/{failed['id']}/retry", headers=union)
        assert retried.status_code == 202, retried.text
        assert retried.json()["status"] == "pending"
        assert run_due_deliveries(app.state.engine, now=NOW, client=poster, policy=once) == 1
        assert [r.headers["x-zhisai-delivery"] for r in receiver.wait_for(2)] == [queued["id"]] * 2

    [delivered] = client.get(log, headers=union).json()
    assert (delivered["status"], delivered["attempts"], delivered["last_status_code"]) == (
        "delivered",
        2,
        200,
    )
    unknown = "00000000-0000-4000-8000-000000000000"
    assert_problem(client.post(f"{log}/{unknown}/retry", headers=union), 404, "unknown-delivery")
    assert_problem(client.post(f"{log}/not-a-uuid/retry", headers=union), 422, "request-validation")
    assert_problem(client.get(log, params={"limit": 0}, headers=union), 422, "request-validation")


def test_the_running_app_delivers_in_the_background(settings: Settings, union: dict[str, str]) -> None:
    """The worker the app starts posts a change committed by any service, while requests go on."""
    live = settings.model_copy(
        update={
            "webhook_delivery_enabled": True,
            "webhook_poll_seconds": 0.02,
            "webhook_timeout_seconds": 2.0,
        }
    )
    app = create_app(live)  # the same database as the fixtures' app, so the union key works here too
    event_id = insert_event(app.state.engine)
    with serve() as receiver, TestClient(app) as client:
        webhook = subscribe(client, event_id, headers=union, url=receiver.url)
        with unit_of_work(app.state.engine) as session:
            service.emit(session, event_id=event_id, kind="standings.changed", payload={"leader": "CS"})
        [request] = receiver.wait_for(1)
        assert verify(
            webhook["secret"],
            request.body,
            timestamp=request.headers["x-zhisai-timestamp"],
            signature=request.headers["x-zhisai-signature"],
            now=time.time(),
        )
        log = f"/api/v1/webhooks/{webhook['id']}/deliveries"
        deadline = time.monotonic() + 10
        while client.get(log, headers=union).json()[0]["status"] != "delivered":
            assert time.monotonic() < deadline, "the delivery was posted but never logged as delivered"
            time.sleep(0.02)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 2  # the worker stops with the app
