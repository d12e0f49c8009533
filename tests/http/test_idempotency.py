"""A retried write with the same Idempotency-Key returns the first answer and stores once."""

from __future__ import annotations

import threading

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlmodel import Session, func, select

from api.deps import AdminCaller, SessionDep
from api.idempotency import IdempotencyDep
from domain.access import service as access_service
from storage.db import unit_of_work
from storage.tables import ApiKey
from tests.helpers import assert_problem, bearer


class NewKeyOut(BaseModel):
    key_id: int


def _mount(app: FastAPI) -> None:
    @app.post("/api/v1/test-keys", status_code=201, response_model=NewKeyOut)
    def create(
        body: dict[str, str], session: SessionDep, caller: AdminCaller, idem: IdempotencyDep
    ) -> object:
        return idem.run(
            lambda: NewKeyOut(
                key_id=access_service.create_key(session, name=body["name"], role="referee").key_id
            ),
            status_code=201,
        )


def _count(app: FastAPI) -> int:
    with unit_of_work(app.state.engine) as session:
        assert isinstance(session, Session)
        return int(session.exec(select(func.count()).select_from(ApiKey)).one())


def test_retry_replays_the_first_answer(app: FastAPI, client: TestClient, make_key: object) -> None:
    _mount(app)
    admin = make_key("admin")  # type: ignore[operator]
    headers = {**bearer(admin), "Idempotency-Key": "form-7-deal-3"}
    first = client.post("/api/v1/test-keys", json={"name": "r1"}, headers=headers)
    again = client.post("/api/v1/test-keys", json={"name": "r1"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert _count(app) == 2  # the admin key and one referee key

    reused = client.post("/api/v1/test-keys", json={"name": "other"}, headers=headers)
    assert_problem(reused, 409, "idempotency-key-reused")
    fresh = client.post(
        "/api/v1/test-keys", json={"name": "r2"}, headers={**bearer(admin), "Idempotency-Key": "k2"}
    )
    assert fresh.json()["key_id"] != first.json()["key_id"]
    assert _count(app) == 3


def test_concurrent_retries_store_once(app: FastAPI, client: TestClient, make_key: object) -> None:
    _mount(app)
    admin = make_key("admin")  # type: ignore[operator]
    headers = {**bearer(admin), "Idempotency-Key": "same-everywhere"}
    answers: list[tuple[int, object]] = []
    lock = threading.Lock()

    def post() -> None:
        response = client.post("/api/v1/test-keys", json={"name": "race"}, headers=headers)
        with lock:
            answers.append((response.status_code, response.json()))

    threads = [threading.Thread(target=post) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {status for status, _ in answers} == {201}
    assert len({str(body) for _, body in answers}) == 1
    assert _count(app) == 2
