"""Small helpers shared by the HTTP and scenario tests."""

from __future__ import annotations

from typing import Any

PROBLEM = "application/problem+json"


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def assert_problem(response: Any, status: int, rule: str | None = None) -> dict[str, Any]:
    """The answer is an RFC 9457 problem with this status (and rule); returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers["content-type"]
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["type"].startswith("urn:zhisai:problem:")
    assert body["title"] and body["detail"]
    if rule is not None:
        assert body["rule"] == rule, body
    return body
