from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from zhisai.settings import Settings


def test_production_refuses_a_missing_or_placeholder_secret() -> None:
    with pytest.raises(ValidationError, match="ZHISAI_SECRET_KEY"):
        Settings(environment="production", secret_key=None)
    with pytest.raises(ValidationError):
        Settings(environment="production", secret_key="changeme")
    with pytest.raises(ValidationError):
        Settings(environment="production", secret_key="short-but-real")
    assert Settings(environment="production", secret_key="k" * 40).signing_secret() == "k" * 40


def test_development_generates_a_secret_once_and_keeps_it(tmp_path: Path) -> None:
    settings = Settings(secret_file=tmp_path / "secret_key")
    first = settings.signing_secret()
    assert len(first) >= 48
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    assert Settings(secret_file=tmp_path / "secret_key").signing_secret() == first


def test_environment_variables_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZHISAI_DATABASE_URL", "postgresql+psycopg://u@localhost/z")
    monkeypatch.setenv("ZHISAI_CORS_ORIGINS", '["https://union.example"]')
    settings = Settings()
    assert settings.database_url == "postgresql+psycopg://u@localhost/z"
    assert settings.cors_origins == ["https://union.example"]
