"""Scoring a game through HTTP: scorer tokens, deals, retries, races, edits, corrections, standings."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlmodel import func, select

from domain.rules.levels import DealResult, Side, replay
from domain.rules.ruleset import preset
from storage.db import unit_of_work
from storage.tables import Deal
from tests.helpers import assert_problem, bearer
from tests.integration.scoring.scoring_rows import (
    ROUND_MINUTES,
    T0,
    make_entries,
    make_event,
    make_game,
    make_round,
)


@dataclass
class Table:
    event_id: int
    round_id: int
    game_ids: list[int]
    referee: str
    tokens: dict[int, str]


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock(T0 + timedelta(minutes=20))
    app.state.clock = clock
    return clock


def _table(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], *, preset_name: str, games: int = 1
) -> Table:
    with unit_of_work(app.state.engine) as session:
        event = make_event(session, preset=preset_name)
        entries = make_entries(session, event, [f"pair{n}" for n in range(2 * games)])
        round_ = make_round(session, event, 1)
        made = [
            make_game(session, round_, entries[2 * n], entries[2 * n + 1], match_no=n + 1)[0]
            for n in range(games)
        ]
        ids = (event.id, round_.id, [game.id for game in made])
    assert ids[0] is not None and ids[1] is not None
    referee = make_key("referee")
    answer = client.get(f"/api/v1/rounds/{ids[1]}/scorer-tokens", headers=bearer(referee))
    assert answer.status_code == 200, answer.text
    tokens = {row["game_id"]: row["token"] for row in answer.json()}
    return Table(ids[0], ids[1], [game_id for game_id in ids[2] if game_id is not None], referee, tokens)


def _post(client: TestClient, table: Table, game_id: int, deal_no: int, order: str, **headers: str) -> object:
    return client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"deal_no": deal_no, "finish_order": list(order)},
        headers={**bearer(table.tokens[game_id]), **headers},
    )


def _deal_count(app: FastAPI, game_id: int) -> int:
    with unit_of_work(app.state.engine) as session:
        return int(session.exec(select(func.count()).select_from(Deal).where(Deal.game_id == game_id)).one())


def test_a_game_scored_deal_by_deal_reaches_the_rules_trajectory(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nuist-2023")
    game_id = table.game_ids[0]
    orders = ["NSEW", "ENWS", "WNES", "NESW", "SWNE", "NSEW", "NSEW"]
    answers = [_post(client, table, game_id, n, order) for n, order in enumerate(orders, start=1)]
    assert [a.status_code for a in answers] == [201] * len(orders)  # type: ignore[attr-defined]
    first = answers[0].json()  # type: ignore[attr-defined]
    assert first["game"]["summary"] == "N–S play 5, E–W on 2"  # double-down: 2 + 3
    expected = replay([DealResult(list(order)) for order in orders], preset("nuist-2023"))
    game = client.get(f"/api/v1/games/{game_id}").json()
    assert (game["ns"]["level"], game["ew"]["level"]) == (expected.ns.level, expected.ew.level)
    assert game["declarer"] == expected.declarer
    assert game["state"] == ("ended" if expected.passed_a else "in_play")
    assert [d["ns_level"] for d in game["deals"]] == [record.ns.level for record in expected.deals]
    assert "phone" not in str(game) and "staff" not in str(game)


def test_a_retry_with_the_same_key_stores_one_deal(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023")
    game_id = table.game_ids[0]
    first = _post(client, table, game_id, 1, "NSEW", **{"Idempotency-Key": "sheet-1-deal-1"})
    again = _post(client, table, game_id, 1, "NSEW", **{"Idempotency-Key": "sheet-1-deal-1"})
    assert first.status_code == again.status_code == 201  # type: ignore[attr-defined]
    assert first.json() == again.json()  # type: ignore[attr-defined]
    assert again.headers["idempotent-replayed"] == "true"  # type: ignore[attr-defined]
    assert _deal_count(app, game_id) == 1
    clash = _post(client, table, game_id, 1, "EWNS")
    body = assert_problem(clash, 409, "deal-already-recorded")
    assert body["stored_deal"]["finish_order"] == ["N", "S", "E", "W"]


def test_sixty_scorers_posting_the_same_deal_store_it_once(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023")
    game_id = table.game_ids[0]
    statuses: list[int] = []
    lock = threading.Lock()
    # more writers than anyio's default 40 threads: the app's write gate keeps them from starving
    # the writer that holds the lock (api/middleware.py WriteGateMiddleware)

    def post() -> None:
        answer = _post(client, table, game_id, 1, "NESW")
        with lock:
            statuses.append(answer.status_code)  # type: ignore[attr-defined]

    threads = [threading.Thread(target=post) for _ in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 60  # the same content answers the stored deal
    assert _deal_count(app, game_id) == 1


def test_a_stale_edit_is_refused(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023")
    game_id = table.game_ids[0]
    posted = _post(client, table, game_id, 1, "NSEW")
    assert posted.headers["etag"] == '"1"'  # type: ignore[attr-defined]
    url = f"/api/v1/games/{game_id}/deals/1"
    headers = bearer(table.tokens[game_id])
    edited = client.put(url, json={"finish_order": list("EWNS")}, headers={**headers, "If-Match": '"1"'})
    assert edited.status_code == 200, edited.text
    assert (edited.json()["deal"]["version"], edited.json()["game"]["ew"]["level"]) == (2, 5)
    stale = client.put(url, json={"finish_order": list("NSEW")}, headers={**headers, "If-Match": '"1"'})
    assert_problem(stale, 409, "stale-version")
    assert client.get(f"/api/v1/games/{game_id}").json()["ew"]["level"] == 5
    assert_problem(
        client.put(url, json={"finish_order": list("NSEW")}, headers=headers), 422, "if-match-required"
    )


def test_a_token_acts_for_its_own_game_only(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023", games=2)
    one, two = table.game_ids
    other = client.post(
        f"/api/v1/games/{two}/deals",
        json={"deal_no": 1, "finish_order": list("NSEW")},
        headers=bearer(table.tokens[one]),
    )
    assert_problem(other, 403, "scorer-token-other-game")
    by_query = client.post(
        f"/api/v1/games/{two}/deals?token={table.tokens[two]}",
        json={"deal_no": 1, "finish_order": list("NSEW")},
    )
    assert by_query.status_code == 201
    assert_problem(
        client.post(
            f"/api/v1/games/{one}/forfeit",
            json={"forfeiting": "NS", "reason": "absent"},
            headers=bearer(table.tokens[one]),
        ),
        403,
        "referee-required",
    )
    clock.now = T0 + timedelta(minutes=ROUND_MINUTES + 11)  # the token expired with the entry window
    assert_problem(_post(client, table, one, 1, "NSEW"), 401, "scorer-token-expired")


def test_a_scorer_token_links_the_phone_form_of_its_game(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023")
    (game_id,) = table.game_ids
    (row,) = client.get(
        f"/api/v1/rounds/{table.round_id}/scorer-tokens", headers=bearer(table.referee)
    ).json()
    assert row["url_path"] == f"/score/{game_id}?token={table.tokens[game_id]}"
    form = client.get(row["url_path"])
    assert form.status_code == 200, form.text
    assert form.headers["content-type"].startswith("text/html")


def _final_game(client: TestClient, table: Table, game_id: int) -> None:
    assert _post(client, table, game_id, 1, "NEWS").status_code == 201  # type: ignore[attr-defined]
    headers = bearer(table.tokens[game_id])
    assert client.post(f"/api/v1/games/{game_id}/time-up", json={}, headers=headers).status_code == 200
    for side in ("NS", "EW"):
        answer = client.post(f"/api/v1/games/{game_id}/confirmations", json={"side": side}, headers=headers)
        assert answer.status_code == 200, answer.text
    assert answer.json()["state"] == "final"


def test_a_correction_inside_the_window_moves_the_standings_and_is_audited(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023")
    game_id = table.game_ids[0]
    _final_game(client, table, game_id)  # N–S 3 : E–W 2 at time, N–S wins
    standings = client.get(f"/api/v1/events/{table.event_id}/standings").json()
    assert [(r["entry_name"], r["wins"], r["points"]) for r in standings["groups"][0]["rows"]] == [
        ("pair0", 1, 3),
        ("pair1", 0, 2),
    ]
    ref = bearer(table.referee)
    late_edit = client.put(
        f"/api/v1/games/{game_id}/deals/1",
        json={"finish_order": list("ENWS")},
        headers={**ref, "If-Match": '"1"'},
    )
    assert_problem(late_edit, 409, "result-final")

    clock.now = T0 + timedelta(minutes=ROUND_MINUTES + 5)  # inside the 10 minutes for entry errors
    body = {"reason": "the sheet swapped N and E", "deal_no": 1, "finish_order": list("ENWS")}
    corrected = client.post(f"/api/v1/games/{game_id}/corrections", json=body, headers=ref)
    assert corrected.status_code == 200, corrected.text
    answer = corrected.json()
    assert answer["window"] == "entry_error"
    assert (answer["game"]["winner"], answer["game"]["ew"]["level"]) == ("EW", 4)  # E first, W third: +2
    moves = {
        m["entry_name"]: (m["rank_before"], m["rank_after"], m["points_after"])
        for m in answer["standings_moves"]
    }
    assert moves == {"pair0": (1, 2, 2), "pair1": (2, 1, 4)}
    after = client.get(f"/api/v1/events/{table.event_id}/standings").json()
    assert [r["entry_name"] for r in after["groups"][0]["rows"]] == ["pair1", "pair0"]
    trail = client.get(f"/api/v1/games/{game_id}/audit", headers=ref).json()
    correction = [row for row in trail if row["action"] == "correction"]
    assert len(correction) == 1
    assert correction[0]["reason"] == "the sheet swapped N and E"
    assert (correction[0]["before"]["winner"], correction[0]["after"]["winner"]) == ("NS", "EW")

    clock.now = T0 + timedelta(minutes=ROUND_MINUTES + 21)  # the stage (one round) closed 20 minutes ago
    refused = client.post(
        f"/api/v1/games/{game_id}/corrections", json={**body, "finish_order": list("NEWS")}, headers=ref
    )
    assert_problem(refused, 409, "correction-window-closed")


def test_standings_answer_not_modified_until_a_result_changes(
    app: FastAPI, client: TestClient, make_key: Callable[..., str], clock: Clock
) -> None:
    table = _table(app, client, make_key, preset_name="nsi-2023")
    url = f"/api/v1/events/{table.event_id}/standings?provisional=true"
    first = client.get(url)
    etag = first.headers["etag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    _post(client, table, table.game_ids[0], 1, "NSEW")
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    rows = {
        r["entry_name"]: (r["points"], r["provisional_games"]) for r in changed.json()["groups"][0]["rows"]
    }
    assert rows == {"pair0": (5, 1), "pair1": (2, 1)}
    final_only = client.get(f"/api/v1/events/{table.event_id}/standings").json()
    assert {r["games"] for r in final_only["groups"][0]["rows"]} == {0}
    assert Side.NS == "NS"
