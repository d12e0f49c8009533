"""An event to subscribe to, stored directly (the webhooks area only needs its id)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.engine import Engine

from storage.db import unit_of_work
from storage.tables import Competition, Event

NOW = datetime(2023, 12, 29, 5, 30, tzinfo=UTC)  # 13:30 in Shanghai, seed 000's first round


def insert_event(engine: Engine) -> int:
    with unit_of_work(engine) as session:
        competition = Competition(name="迎新智力竞赛", created_at=NOW, updated_at=NOW)
        session.add(competition)
        session.flush()
        assert competition.id is not None
        event = Event(
            competition_id=competition.id,
            name="掼蛋团体赛",
            discipline="guandan",
            entry_kind="team",
            format="team_rotation",
            preset="nuist-2023",
            rule_overrides={},
            config={},
            created_at=NOW,
            updated_at=NOW,
        )
        session.add(event)
        session.flush()
        assert event.id is not None
        return event.id
