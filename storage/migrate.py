"""Schema migrations, run programmatically (``zhisai migrate``, ``make serve``, the tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine
from sqlmodel import Session

import migrations
from domain.errors import Conflict

SCRIPT_LOCATION = Path(migrations.__file__).parent


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def head_revision() -> str | None:
    return ScriptDirectory(str(SCRIPT_LOCATION)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def current_revision_of(session: Session) -> str | None:
    """The revision as seen from an open session (inside the request's transaction)."""
    return MigrationContext.configure(session.connection()).get_current_revision()


def require_head(session: Session) -> str | None:
    """The database's revision, refusing to go on when it is not the latest one."""
    current = current_revision_of(session)
    head = head_revision()
    if current != head:
        raise Conflict(
            f"the database schema is at {current or 'nothing'}, the service needs {head}; "
            "run `zhisai migrate`",
            rule="schema-not-at-head",
        )
    return current
