"""openapi.md is what the union's engineers read: it must match the app."""

from __future__ import annotations

from pathlib import Path

from api.contract import render_contract

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.md"


def test_openapi_md_is_current() -> None:
    expected = render_contract()
    assert CONTRACT.read_text(encoding="utf-8") == expected, "openapi.md is stale: run `make openapi`"


def test_contract_documents_auth_errors_and_every_path() -> None:
    text = CONTRACT.read_text(encoding="utf-8")
    assert "Authorization: Bearer" in text and "application/problem+json" in text
    assert "### `GET /api/v1/health`" in text
