"""Each change a subscriber asked for queues one delivery in the transaction that makes it.

No network: the outbox rows are read back; their bodies carry public data only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlmodel import col, select

from domain.webhooks.models import WebhookKind
from storage.db import unit_of_work
from storage.tables import WebhookDelivery
from tests.helpers import bearer
from tests.http.events.union_system import Clock, UnionSystem, pairs_event

PAIRS = 8  # seed 001: four Swiss rounds need eight pairs to avoid a rematch


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.clock = clock
    return clock


@pytest.fixture
def system(client: TestClient, make_key: Callable[..., str], clock: Clock) -> UnionSystem:
    return UnionSystem(client=client, headers=bearer(make_key("union")))


@pytest.fixture
def referee(make_key: Callable[..., str]) -> dict[str, str]:
    return bearer(make_key("referee"))


def _outbox(app: FastAPI, kind: str) -> list[dict[str, Any]]:
    with unit_of_work(app.state.engine, writes=False) as session:
        rows = session.exec(
            select(WebhookDelivery).where(WebhookDelivery.kind == kind).order_by(col(WebhookDelivery.id))
        ).all()
        return [json.loads(row.body) for row in rows]


def _subscribed_event(system: UnionSystem) -> int:
    """A seed 001 pairs event whose subscriber asked for every kind, then eight confirmed pairs."""
    event_id = system.open_event(system.competition(), pairs_event())
    hook = system.client.post(
        f"/api/v1/events/{event_id}/webhooks",
        json={"url": "https://results.example.edu.cn/hook", "kinds": [kind.value for kind in WebhookKind]},
        headers=system.headers,
    )
    assert hook.status_code == 201, hook.text
    codes = [f"W{k}" for k in range(PAIRS)]
    system.sync(
        [{"code": c, "name": f"{c} 分工会", "member_count": 40} for c in codes],
        [
            {"staff_id": f"{c}-{p}", "name": f"{c}·{p}", "branch_code": c, "phone": "13900000000"}
            for c in codes
            for p in (1, 2)
        ],
    )
    for c in codes:
        made = system.enter(event_id, c, [f"{c}-1", f"{c}-2"])
        assert made.status_code == 201, made.text
        assert system.act(made.json()["id"], "submit").status_code == 200
        assert system.act(made.json()["id"], "confirm").status_code == 200
    assert system.move(event_id, "registration_closed").status_code == 200
    return event_id


def _drawn(system: UnionSystem, referee: dict[str, str]) -> int:
    event_id = _subscribed_event(system)
    client = system.client
    assert client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=referee).status_code == 201
    assert client.post(f"/api/v1/events/{event_id}/draw", headers=referee).status_code == 201
    return event_id


def _published_round(system: UnionSystem, referee: dict[str, str]) -> tuple[int, int]:
    event_id = _drawn(system, referee)
    client = system.client
    assert (
        client.post(f"/api/v1/events/{event_id}/rounds/1/generate", json={}, headers=referee).status_code
        == 200
    )
    published = client.post(f"/api/v1/events/{event_id}/rounds/1/publish", headers=referee)
    assert published.status_code == 200, published.text
    return event_id, published.json()["id"]


def test_a_confirmed_entry_is_announced(app: FastAPI, system: UnionSystem) -> None:
    event_id = _subscribed_event(system)
    announced = _outbox(app, "registration.confirmed")
    assert len(announced) == PAIRS
    assert {a["event_id"] for a in announced} == {event_id}
    assert set(announced[0]["data"]) == {"entry_id", "name", "branch"}
    assert "13900000000" not in json.dumps(announced)  # no phones, no staff ids
    assert "W0-1" not in json.dumps(announced)


def test_a_draw_is_announced_with_its_revealed_seed(
    app: FastAPI, system: UnionSystem, referee: dict[str, str]
) -> None:
    event_id = _drawn(system, referee)
    [announced] = _outbox(app, "draw.published")
    draw = system.client.get(f"/api/v1/events/{event_id}/draw").json()
    assert announced["data"]["seed"] == draw["seed"]
    assert announced["data"]["entry_ids"] == draw["entry_ids"]
    assert announced["data"]["stage"] == "main"


def test_a_published_pairing_is_announced(app: FastAPI, system: UnionSystem, referee: dict[str, str]) -> None:
    _, round_id = _published_round(system, referee)
    [announced] = _outbox(app, "round.published")
    assert (announced["data"]["round_id"], announced["data"]["number"]) == (round_id, 1)


def test_a_final_result_and_the_standings_it_moves_are_announced(
    app: FastAPI, system: UnionSystem, referee: dict[str, str]
) -> None:
    event_id, round_id = _published_round(system, referee)
    client = system.client
    game_id = client.get(f"/api/v1/rounds/{round_id}").json()["tables"][0]["game_id"]
    forfeit = {"forfeiting": "EW", "reason": "absent"}
    assert client.post(f"/api/v1/games/{game_id}/forfeit", json=forfeit, headers=referee).status_code == 200
    assert _outbox(app, "result.final") == []  # ended, not yet confirmed
    for side in ("NS", "EW"):
        confirmed = client.post(
            f"/api/v1/games/{game_id}/confirmations", json={"side": side}, headers=referee
        )
        assert confirmed.status_code == 200, confirmed.text
    [final] = _outbox(app, "result.final")
    assert final["data"]["game_id"] == game_id
    assert (final["data"]["winner"], final["data"]["points"]) == ("NS", {"NS": 14, "EW": 0})  # seed 001
    [changed] = _outbox(app, "standings.changed")
    version = client.get(f"/api/v1/events/{event_id}/standings").json()["results_version"]
    assert changed["data"] == {"results_version": version}
