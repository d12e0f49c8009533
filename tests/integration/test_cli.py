from __future__ import annotations

import pytest
from sqlmodel import select

from domain.access import service as access_service
from storage.db import make_engine, unit_of_work
from storage.tables import ApiKey
from zhisai import cli
from zhisai.settings import get_settings


def test_create_key_prints_the_key_once_and_stores_its_hash(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ZHISAI_DATABASE_URL", database_url)
    get_settings.cache_clear()
    try:
        assert cli.main(["create-key", "--role", "union", "--name", "union system", "--branch", "MATH"]) == 0
    finally:
        get_settings.cache_clear()
    secret = capsys.readouterr().out.strip()
    engine = make_engine(database_url)
    with unit_of_work(engine) as session:
        row = session.exec(select(ApiKey)).one()
        assert row.key_hash == access_service.hash_key(secret)
        assert (row.role, row.branch_code, row.name) == ("union", "MATH", "union system")
    engine.dispose()


def test_migrate_brings_an_empty_database_to_head(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from storage import migrate

    monkeypatch.setenv("ZHISAI_DATABASE_URL", empty_database_url)
    get_settings.cache_clear()
    try:
        assert cli.main(["migrate"]) == 0
    finally:
        get_settings.cache_clear()
    assert migrate.head_revision() in capsys.readouterr().out
    engine = make_engine(empty_database_url)
    assert migrate.current_revision(engine) == migrate.head_revision()
    engine.dispose()
