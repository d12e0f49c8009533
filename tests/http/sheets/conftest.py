"""Fixtures: the union system with a union key, a referee, the app's clock (the events fixtures)."""

from __future__ import annotations

from tests.http.schedule.conftest import clock, referee, union

__all__ = ["clock", "referee", "union"]
