"""The real server under many scorers: nothing lost, nothing doubled, stale edits refused; and a
SIGKILL in the middle loses nothing that was acknowledged."""

from __future__ import annotations

import threading
from collections import Counter

import httpx
import pytest
from sqlmodel import select

from storage.db import make_engine, unit_of_work
from storage.tables import Deal
from tests.fuzz.world import World
from tests.helpers import bearer
from tests.load.scoring_load import DEALS, Ledger, order_of, post_deal, score_games
from tests.load.server import Server

pytestmark = pytest.mark.slow


def _stored(database_url: str, game_ids: list[int]) -> Counter[tuple[int, int]]:
    engine = make_engine(database_url)
    try:
        with unit_of_work(engine, writes=False) as session:
            rows = session.exec(
                select(Deal.game_id, Deal.deal_no).where(Deal.game_id.in_(game_ids))  # type: ignore[attr-defined]
            ).all()
    finally:
        engine.dispose()
    return Counter((game_id, deal_no) for game_id, deal_no in rows)


def _live_games(world: World) -> list[int]:
    return world.game_ids[1:]  # the world posted deal 1 of the first game itself


def test_many_scorers_store_exactly_the_acknowledged_deals(
    server: Server, load_world: World, database_url: str
) -> None:
    games = _live_games(load_world)
    headers = bearer(load_world.keys.referee)
    ledger = Ledger()
    score_games(server.base_url, headers, games, ledger, copies=2, retries=1)

    assert ledger.unexpected == []
    assert ledger.transport_errors == 0
    every = {(g, n) for g in games for n in range(1, DEALS + 1)}
    assert ledger.acknowledged == every
    stored = _stored(database_url, games)
    assert set(stored) == every and set(stored.values()) == {1}, "a deal lost or doubled"
    assert ledger.requests == len(games) * DEALS * 4
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        game = client.get(f"/api/v1/games/{games[0]}").json()
    assert [d["finish_order"] for d in game["deals"]] == [order_of(n) for n in range(1, DEALS + 1)]


def test_racing_edits_of_one_deal_apply_one_per_version(server: Server, load_world: World) -> None:
    game_id = _live_games(load_world)[0]
    headers = bearer(load_world.keys.referee)
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        assert post_deal(client, headers, game_id, 1).status_code == 201
    outcomes: Counter[int] = Counter()
    applied: list[tuple[int, list[str]]] = []
    lock = threading.Lock()
    url = f"/api/v1/games/{game_id}/deals/1"

    def editor(k: int) -> None:
        order = order_of(1 + k % 2)  # two readings of the sheet, both +1
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            for _ in range(5):
                version = client.get(f"/api/v1/games/{game_id}").json()["deals"][0]["version"]
                answer = client.put(
                    url, json={"finish_order": order}, headers={**headers, "If-Match": f'"{version}"'}
                )
                with lock:
                    outcomes[answer.status_code] += 1
                    if answer.status_code == 200:
                        applied.append((answer.json()["deal"]["version"], order))

    threads = [threading.Thread(target=editor, args=(k,)) for k in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert set(outcomes) <= {200, 409}, outcomes
    versions = sorted(version for version, _ in applied)
    assert versions == list(range(2, 2 + len(applied))), "two edits applied on one version"
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        deal = client.get(f"/api/v1/games/{game_id}").json()["deals"][0]
    assert deal["version"] == 1 + len(applied)
    assert deal["finish_order"] == max(applied)[1]


def test_a_killed_server_keeps_every_acknowledged_deal(
    server: Server, load_world: World, database_url: str
) -> None:
    games = _live_games(load_world)
    headers = bearer(load_world.keys.referee)
    ledger = Ledger()
    killed = threading.Event()

    def kill_midway() -> None:
        while not killed.is_set():
            with ledger.lock:
                enough = len(ledger.acknowledged) >= len(games) * DEALS // 3
            if enough:
                server.kill()
                killed.set()
            killed.wait(0.005)

    killer = threading.Thread(target=kill_midway)
    killer.start()
    score_games(server.base_url, headers, games, ledger, copies=2, retries=0, stop=killed.is_set)
    killed.set()
    killer.join()
    assert ledger.unexpected == []
    before = set(ledger.acknowledged)
    assert 0 < len(before) < len(games) * DEALS

    stored = _stored(database_url, games)
    assert before <= set(stored), f"acknowledged but lost: {sorted(before - set(stored))}"
    assert set(stored.values()) == {1}

    server.start()  # the same database, the same port
    again = Ledger()
    score_games(server.base_url, headers, games, again, copies=1, retries=1)
    assert again.unexpected == [] and again.transport_errors == 0
    every = {(g, n) for g in games for n in range(1, DEALS + 1)}
    stored = _stored(database_url, games)
    assert set(stored) == every and set(stored.values()) == {1}, "a retry after the restart doubled a deal"
