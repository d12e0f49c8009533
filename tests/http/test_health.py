from __future__ import annotations

from fastapi.testclient import TestClient

from storage import migrate
from tests.helpers import assert_problem


def test_health_reports_database_and_schema_at_head(client: TestClient, backend: str) -> None:
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == backend
    assert body["schema_revision"] == migrate.head_revision() is not None


def test_health_refuses_a_database_behind_the_migrations(client: TestClient, database_url: str) -> None:
    migrate.downgrade(database_url, "base")
    body = assert_problem(client.get("/api/v1/health"), 409, "schema-not-at-head")
    assert "zhisai migrate" in body["detail"]


def test_openapi_and_docs_are_served(client: TestClient) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    assert "/api/v1/health" in spec["paths"]
    assert client.get("/docs").status_code == 200
