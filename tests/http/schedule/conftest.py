"""Fixtures: the union system, a referee, the app's clock, and events filled with confirmed entries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.helpers import bearer
from tests.http.events.union_system import Clock, UnionSystem


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.clock = clock
    return clock


@pytest.fixture
def union(client: TestClient, make_key: Callable[..., str], clock: Clock) -> UnionSystem:
    return UnionSystem(client=client, headers=bearer(make_key("union")))


@pytest.fixture
def referee(make_key: Callable[..., str]) -> dict[str, str]:
    return bearer(make_key("referee"))


@dataclass(frozen=True)
class Field:
    event_id: int
    entry_ids: list[int]
    names: dict[int, str]
    """entry id → entry name"""
    players: dict[int, list[str]]
    """entry id → its roster's names, in order"""
    branches: dict[int, str]
    """entry id → branch name"""


def fill(
    union: UnionSystem,
    event: dict[str, Any],
    *,
    entries: int,
    people: int,
    branch_of: Callable[[int], str] = lambda k: f"B{k:02d}",
    names: Callable[[int], str] = lambda k: f"队{k:02d}",
    leader: bool = False,
) -> Field:
    """An event with ``entries`` confirmed entries of ``people`` members, registration closed."""
    event_id = union.open_event(union.competition(), event)
    codes = sorted({branch_of(k) for k in range(entries)})
    branch_rows = [{"code": c, "name": f"{c} 分工会", "member_count": 40} for c in codes]
    members = [
        {
            "staff_id": f"S{k:03d}-{p:02d}",
            "name": names(k) + f"·{p}号",
            "branch_code": branch_of(k),
            "phone": "13900000000",
        }
        for k in range(entries)
        for p in range(1, people + 1)
    ]
    union.sync(branch_rows, members)
    ids: list[int] = []
    for k in range(entries):
        staff = [f"S{k:03d}-{p:02d}" for p in range(1, people + 1)]
        extra: dict[str, Any] = {"name": names(k)}
        if leader:
            extra["leader"] = {"staff_id": staff[0], "name": names(k) + "·1号", "phone": "13900000000"}
        made = union.enter(event_id, branch_of(k), staff, **extra)
        assert made.status_code == 201, made.text
        entry_id = int(made.json()["id"])
        assert union.act(entry_id, "submit").status_code == 200
        assert union.act(entry_id, "confirm").status_code == 200
        ids.append(entry_id)
    moved = union.move(event_id, "registration_closed")
    assert moved.status_code == 200, moved.text
    return Field(
        event_id=event_id,
        entry_ids=ids,
        names={i: names(k) for k, i in enumerate(ids)},
        players={i: [names(k) + f"·{p}号" for p in range(1, people + 1)] for k, i in enumerate(ids)},
        branches={i: f"{branch_of(k)} 分工会" for k, i in enumerate(ids)},
    )
