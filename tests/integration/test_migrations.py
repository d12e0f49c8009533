"""Alembic is the only schema source: head equals the models, and downgrade to base works."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from storage import migrate
from storage.db import make_engine
from storage.tables import metadata


def _diff(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_from_empty_equals_the_models(empty_database_url: str) -> None:
    migrate.upgrade(empty_database_url)
    assert _diff(empty_database_url) == []
    assert set(metadata.tables) <= _tables(empty_database_url)


def test_downgrade_to_base_and_back(empty_database_url: str) -> None:
    migrate.upgrade(empty_database_url)
    migrate.downgrade(empty_database_url, "base")
    assert _tables(empty_database_url) <= {"alembic_version"}
    migrate.upgrade(empty_database_url)
    assert _diff(empty_database_url) == []


def test_every_revision_steps_down_and_up(empty_database_url: str) -> None:
    """Each migration's downgrade undoes exactly its upgrade, one step at a time."""
    migrate.upgrade(empty_database_url)
    engine = make_engine(empty_database_url)
    try:
        head = migrate.current_revision(engine)
        assert head == migrate.head_revision()
        while migrate.current_revision(engine) is not None:
            migrate.downgrade(empty_database_url, "-1")
        assert migrate.current_revision(engine) is None
    finally:
        engine.dispose()
    migrate.upgrade(empty_database_url)
    assert _diff(empty_database_url) == []
