"""Every error is problem+json with the right status, rule and field."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

from api.deps import CallerDep, RefereeCaller
from domain.access.models import Caller, Role
from tests.helpers import assert_problem, bearer


class Sheet(BaseModel):
    table: int = Field(ge=1)
    names: list[str]


def test_unknown_path_is_a_404_problem(client: TestClient) -> None:
    body = assert_problem(client.get("/api/v1/no/such/thing"), 404, "no-such-resource")
    assert body["instance"] == "/api/v1/no/such/thing"


def test_wrong_method_is_a_405_problem(client: TestClient) -> None:
    assert_problem(client.delete("/api/v1/health"), 405, "method-not-allowed")


def test_missing_key_is_a_401_problem(app: FastAPI, client: TestClient) -> None:
    @app.get("/api/v1/test-private")
    def private(caller: CallerDep) -> dict[str, str]:
        return {"name": caller.name}

    response = client.get("/api/v1/test-private")
    assert_problem(response, 401, "api-key-required")
    assert response.headers["www-authenticate"] == "Bearer"
    assert_problem(client.get("/api/v1/test-private", headers=bearer("zs_not-a-key")), 401, "unknown-api-key")


def test_wrong_role_is_a_403_problem(app: FastAPI, client: TestClient, make_key: Callable[..., str]) -> None:
    @app.post("/api/v1/test-referee-only")
    def referee_only(caller: RefereeCaller) -> dict[str, str]:
        return {"role": caller.role.value}

    union = make_key("union")
    referee = make_key("referee")
    admin = make_key("admin")
    body = assert_problem(
        client.post("/api/v1/test-referee-only", headers=bearer(union)), 403, "role-required"
    )
    assert "referee" in body["detail"] and "union" in body["detail"]
    assert client.post("/api/v1/test-referee-only", headers=bearer(referee)).json() == {"role": "referee"}
    assert client.post("/api/v1/test-referee-only", headers=bearer(admin)).json() == {"role": "admin"}


def test_malformed_body_is_a_422_problem_naming_the_fields(app: FastAPI, client: TestClient) -> None:
    @app.post("/api/v1/test-sheet")
    def sheet(body: Sheet) -> Sheet:
        return body

    broken = client.post(
        "/api/v1/test-sheet", content=b'{"table": 1, "names": [', headers={"content-type": "application/json"}
    )
    assert_problem(broken, 422, "request-validation")

    wrong = client.post("/api/v1/test-sheet", json={"table": 0, "names": "x"})
    body = assert_problem(wrong, 422, "request-validation")
    fields = {error["field"] for error in body["errors"]}
    assert fields == {"body.table", "body.names"}
    assert body["field"] in fields


def test_unexpected_error_is_a_500_problem_without_a_trace(app: FastAPI, client: TestClient) -> None:
    @app.get("/api/v1/test-crash")
    def crash() -> None:
        raise RuntimeError("secret internals: password=hunter2")

    response = client.get("/api/v1/test-crash")
    body = assert_problem(response, 500, "internal-error")
    assert "hunter2" not in response.text and "Traceback" not in response.text
    assert "nothing was changed" in body["detail"]


def test_body_over_the_limit_is_a_413_problem(app: FastAPI, client: TestClient) -> None:
    @app.post("/api/v1/test-echo")
    def echo(body: dict[str, str]) -> dict[str, int]:
        return {"keys": len(body)}

    huge = {"k": "x" * 300_000}
    assert_problem(client.post("/api/v1/test-echo", json=huge), 413, "body-too-large")

    def chunks() -> object:
        yield b'{"k": "'
        for _ in range(40):
            yield b"y" * 10_000
        yield b'"}'

    streamed = client.post(
        "/api/v1/test-echo", content=chunks(), headers={"content-type": "application/json"}
    )
    assert_problem(streamed, 413, "body-too-large")
    assert client.post("/api/v1/test-echo", json={"k": "small"}).json() == {"keys": 1}


def test_every_answer_carries_a_request_id(client: TestClient) -> None:
    mine = client.get("/api/v1/health", headers={"X-Request-ID": "abc-123"})
    assert mine.headers["x-request-id"] == "abc-123"
    generated = client.get("/api/v1/nothing-here").headers["x-request-id"]
    assert len(generated) == 32


def test_caller_model_admin_has_every_role() -> None:
    admin = Caller(key_id=1, name="ops", role=Role.admin)
    union = Caller(key_id=2, name="union system", role=Role.union)
    assert admin.has_role(Role.referee) and admin.has_role(Role.union)
    assert not union.has_role(Role.referee)


def test_a_value_a_service_cannot_read_is_a_422_not_a_500(
    client: TestClient, make_key: Callable[..., str]
) -> None:
    # a staff id in the path that is only white space strips to nothing
    answer = client.put(
        "/api/v1/members/%0C",
        json={"name": "张三", "branch_code": "CS"},
        headers=bearer(make_key("union")),
    )
    body = assert_problem(answer, 422, "request-validation")
    assert body["errors"]
