"""The OpenAPI document itself: what it promises about errors and credentials."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from api.app import create_app
from tests.fuzz.conftest import world_settings
from tests.security.test_access_matrix import ACCESS, PUBLIC


@pytest.fixture(scope="module")
def document() -> dict[str, object]:
    app: FastAPI = create_app(world_settings("sqlite://"))
    return app.openapi()


def _operations(document: dict[str, object]) -> dict[str, dict[str, object]]:
    paths: dict[str, dict[str, dict[str, object]]] = document["paths"]  # type: ignore[assignment]
    return {f"{m.upper()} {p}": op for p, item in paths.items() for m, op in item.items()}


def test_every_error_is_documented_as_a_problem(document: dict[str, object]) -> None:
    for label, op in _operations(document).items():
        for status, response in op["responses"].items():  # type: ignore[attr-defined]
            if int(status) >= 400:
                assert list(response["content"]) == ["application/problem+json"], (label, status)
    assert "HTTPValidationError" not in str(document)


def test_public_reads_do_not_document_a_required_key(document: dict[str, object]) -> None:
    for label, op in _operations(document).items():
        if ACCESS.get(label) == PUBLIC:
            assert {} in op.get("security", [{}]), f"{label} documents a required key"  # type: ignore[operator]
