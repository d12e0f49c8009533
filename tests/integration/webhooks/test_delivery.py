"""The outbox and the worker on a real database, posting to a real receiver on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
from datetime import timedelta

import httpx
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from domain.paging import Page
from domain.webhooks import service
from domain.webhooks.backoff import RetryPolicy
from domain.webhooks.delivery import DeliveryWorker, run_due_deliveries
from domain.webhooks.models import DeliveryOut, DeliveryStatus, WebhookKind
from domain.webhooks.signing import verify
from storage.db import make_engine, unit_of_work
from storage.tables import WebhookDelivery
from tests.integration.webhooks.conftest import UNION, Subscribed, subscribe
from tests.integration.webhooks.receiver import Receiver, serve
from tests.integration.webhooks.rows import NOW

POLICY = RetryPolicy(max_attempts=3, base_seconds=60, cap_seconds=600)
RESULT = {"game_id": 7, "table": 3, "levels": {"NS": "A", "EW": "9"}, "winner": "NS"}


def emit(
    engine: Engine, event_id: int, *, kind: str = "result.final", data: dict[str, object] = RESULT
) -> int:
    with unit_of_work(engine) as session:
        return service.emit(session, event_id=event_id, kind=kind, payload=data, now=NOW)


def log(engine: Engine, sub: Subscribed) -> list[DeliveryOut]:
    with unit_of_work(engine, writes=False) as session:
        return service.list_deliveries(
            session, sub.webhook_id, caller=UNION, status=None, page=Page(limit=500)
        ).items


def run(engine: Engine, client: httpx.Client, *, after: timedelta = timedelta(0)) -> int:
    return run_due_deliveries(engine, now=NOW + after, client=client, policy=POLICY, jitter=lambda: 1.0)


def test_a_receiver_gets_a_correctly_signed_delivery(
    engine: Engine, event_id: int, receiver: Receiver, client: httpx.Client
) -> None:
    sub = subscribe(engine, event_id, url=receiver.url)
    assert emit(engine, event_id) == 1
    assert receiver.received == []  # emitting posts nothing: the worker does

    assert run(engine, client) == 1
    [request] = receiver.wait_for(1)
    headers = request.headers
    assert verify(
        sub.secret,
        request.body,
        timestamp=headers["x-zhisai-timestamp"],
        signature=headers["x-zhisai-signature"],
        now=NOW.timestamp(),
    )
    assert int(headers["x-zhisai-timestamp"]) == pytest.approx(NOW.timestamp(), abs=5)
    assert not verify(
        "another-secret-of-16+",
        request.body,
        timestamp=headers["x-zhisai-timestamp"],
        signature=headers["x-zhisai-signature"],
        now=NOW.timestamp(),
    )
    envelope = json.loads(request.body)
    assert envelope == {
        "id": headers["x-zhisai-delivery"],
        "kind": "result.final",
        "event_id": event_id,
        "occurred_at": "2023-12-29T05:30:00Z",
        "data": RESULT,
    }
    assert headers["x-zhisai-event"] == "result.final"
    assert headers["content-type"] == "application/json"
    assert request.path == "/hooks/zhisai"

    [delivery] = log(engine, sub)
    assert delivery.id == envelope["id"]
    assert delivery.status is DeliveryStatus.delivered
    assert (delivery.attempts, delivery.last_status_code, delivery.last_error) == (1, 200, None)
    assert delivery.next_attempt_at is None and delivery.delivered_at is not None
    assert run(engine, client, after=timedelta(days=1)) == 0  # delivered once, never again


def test_a_receiver_answering_500_gets_the_same_delivery_again_later(
    engine: Engine, event_id: int, client: httpx.Client
) -> None:
    with serve([500, 200]) as receiver:
        sub = subscribe(engine, event_id, url=receiver.url)
        emit(engine, event_id)

        assert run(engine, client) == 1
        [pending] = log(engine, sub)
        assert pending.status is DeliveryStatus.pending
        assert (pending.attempts, pending.last_status_code) == (1, 500)
        assert pending.last_error is not None and "500" in pending.last_error
        # jitter 1.0: the full base wait after the first failure
        assert pending.next_attempt_at is not None
        assert pending.next_attempt_at - NOW == pytest.approx(timedelta(seconds=60), abs=timedelta(seconds=5))

        assert run(engine, client, after=timedelta(seconds=30)) == 0  # not due yet
        assert run(engine, client, after=timedelta(seconds=70)) == 1
        first, second = receiver.wait_for(2)

    assert first.headers["x-zhisai-delivery"] == second.headers["x-zhisai-delivery"] == pending.id
    assert first.body == second.body
    assert int(second.headers["x-zhisai-timestamp"]) - int(first.headers["x-zhisai-timestamp"]) >= 69
    for request in (first, second):
        assert verify(
            sub.secret,
            request.body,
            timestamp=request.headers["x-zhisai-timestamp"],
            signature=request.headers["x-zhisai-signature"],
            now=float(request.headers["x-zhisai-timestamp"]),
        )
    [delivered] = log(engine, sub)
    assert delivered.status is DeliveryStatus.delivered
    assert (delivered.attempts, delivered.last_status_code, delivered.last_error) == (2, 200, None)


def test_out_of_attempts_it_fails_and_a_manual_retry_delivers_it(
    engine: Engine, event_id: int, client: httpx.Client
) -> None:
    with serve([503, 503, 503, 200]) as receiver:
        sub = subscribe(engine, event_id, url=receiver.url)
        emit(engine, event_id)
        waits = []
        after = timedelta(0)
        for _ in range(POLICY.max_attempts):
            assert run(engine, client, after=after) == 1
            [delivery] = log(engine, sub)
            if delivery.next_attempt_at is not None:
                waits.append(delivery.next_attempt_at - (NOW + after))
                after = delivery.next_attempt_at - NOW
        assert [round(wait.total_seconds()) for wait in waits] == [60, 120]  # doubling
        assert delivery.status is DeliveryStatus.failed and delivery.attempts == 3
        assert run(engine, client, after=timedelta(days=30)) == 0

        with unit_of_work(engine) as session:
            retried = service.retry_delivery(
                session, sub.webhook_id, delivery_id=delivery.id, caller=UNION, now=NOW + timedelta(days=30)
            )
        assert retried.status is DeliveryStatus.pending
        assert run(engine, client, after=timedelta(days=30)) == 1
        assert len(receiver.wait_for(4)) == 4
    [delivered] = log(engine, sub)
    assert delivered.status is DeliveryStatus.delivered and delivered.attempts == 4


def test_an_unreachable_receiver_is_a_failed_attempt(
    engine: Engine, event_id: int, client: httpx.Client
) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens on it
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sub = subscribe(engine, event_id, url=f"http://127.0.0.1:{port}/hooks")
    emit(engine, event_id)
    assert run(engine, client) == 1
    [delivery] = log(engine, sub)
    assert delivery.status is DeliveryStatus.pending and delivery.attempts == 1
    assert delivery.last_status_code is None
    assert delivery.last_error is not None and delivery.last_error.startswith("ConnectError")


def test_a_slow_receiver_times_out(engine: Engine, event_id: int) -> None:
    with serve([200], delay_seconds=1.0) as receiver, httpx.Client(timeout=0.2) as impatient:
        sub = subscribe(engine, event_id, url=receiver.url)
        emit(engine, event_id)
        assert run(engine, impatient) == 1
    [delivery] = log(engine, sub)
    assert delivery.status is DeliveryStatus.pending
    assert delivery.last_error is not None and "Timeout" in delivery.last_error


def test_only_subscribed_kinds_are_queued_and_only_with_the_callers_commit(
    engine: Engine, event_id: int, receiver: Receiver
) -> None:
    sub = subscribe(engine, event_id, url=receiver.url, kinds=[WebhookKind.draw_published])
    assert emit(engine, event_id, kind="result.final") == 0
    assert emit(engine, event_id, kind="draw.published", data={"seed_hash": "ab12"}) == 1

    def draw_that_fails() -> None:
        with unit_of_work(engine) as session:
            service.emit(session, event_id=event_id, kind="draw.published", payload={}, now=NOW)
            raise RuntimeError("the draw failed after its notification was queued")

    with pytest.raises(RuntimeError):
        draw_that_fails()
    with pytest.raises(ValueError, match=r"draw\.done"):
        emit(engine, event_id, kind="draw.done")
    assert [delivery.kind for delivery in log(engine, sub)] == [WebhookKind.draw_published]


def test_a_pending_delivery_survives_a_restart(
    database_url: str, event_id: int, receiver: Receiver, client: httpx.Client
) -> None:
    before = make_engine(database_url)
    sub = subscribe(before, event_id, url=receiver.url)
    emit(before, event_id)
    before.dispose()  # the process stops before any worker ran

    after = make_engine(database_url)
    try:
        assert run(after, client) == 1
        assert receiver.wait_for(1)[0].headers["x-zhisai-delivery"] == log(after, sub)[0].id
        assert log(after, sub)[0].status is DeliveryStatus.delivered
    finally:
        after.dispose()


def test_concurrent_workers_post_each_delivery_once(
    engine: Engine, event_id: int, receiver: Receiver
) -> None:
    subscribe(engine, event_id, url=receiver.url)
    for game_id in range(30):
        emit(engine, event_id, data={"game_id": game_id})
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            with httpx.Client(timeout=5.0) as own:
                while run_due_deliveries(engine, now=NOW, client=own, policy=POLICY, batch=4):
                    pass
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    ids = [request.headers["x-zhisai-delivery"] for request in receiver.wait_for(30)]
    assert len(ids) == len(set(ids)) == 30
    with unit_of_work(engine, writes=False) as session:
        rows = session.exec(select(WebhookDelivery)).all()
    assert {row.status for row in rows} == {"delivered"} and {row.attempts for row in rows} == {1}


def test_the_background_worker_delivers_and_retries_on_its_own(engine: Engine, event_id: int) -> None:
    fast = RetryPolicy(max_attempts=3, base_seconds=0.05, cap_seconds=0.1)
    worker = DeliveryWorker(engine, policy=fast, timeout_seconds=2.0, poll_seconds=0.02)
    with serve([500, 200]) as receiver:
        sub = subscribe(engine, event_id, url=receiver.url)
        worker.start()
        try:
            with unit_of_work(engine) as session:  # a real "now": the worker runs on the wall clock
                service.emit(session, event_id=event_id, kind="standings.changed", payload={"top": [3, 1]})
            first, second = receiver.wait_for(2)
        finally:
            worker.stop()
    assert first.headers["x-zhisai-delivery"] == second.headers["x-zhisai-delivery"]
    [delivery] = log(engine, sub)
    assert delivery.status is DeliveryStatus.delivered and delivery.attempts == 2
