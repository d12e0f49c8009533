"""The venue's pages through httpx: score sheets (HTML with decodable QR codes, PDF), the scoring
form and its token, the big screen with its ETag; names with markup are escaped everywhere."""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from storage.db import unit_of_work
from storage.tables import Game, Round
from tests.helpers import assert_problem, bearer
from tests.http.pages.venue_rows import Hall, make_hall
from tests.integration.scoring.scoring_rows import T0

EVENT_NAME = "<script>alert(1)</script>教职工掼蛋"
ENTRY_NAMES = ["<b>数学</b>一队", "物理&化学", "买买提·艾力队", "<img src=x>队", "文学院", "外语队"]


class Clock:
    def __init__(self) -> None:
        self.now = T0 + timedelta(minutes=20)  # T0 is the round's start: 13:30 (seed 000 §五)

    def __call__(self):  # type: ignore[no-untyped-def]
        return self.now


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.clock = clock
    return clock


@pytest.fixture
def hall(app: FastAPI, clock: Clock) -> Hall:
    return make_hall(
        app.state.engine, event_name=EVENT_NAME, entry_names=ENTRY_NAMES, starts_at=T0, started=True
    )


@pytest.fixture
def referee(make_key: Callable[..., str]) -> dict[str, str]:
    return bearer(make_key("referee"))


def _tokens(client: TestClient, hall: Hall, referee: dict[str, str]) -> dict[int, str]:
    answer = client.get(f"/api/v1/rounds/{hall.round_id}/scorer-tokens", headers=referee)
    assert answer.status_code == 200, answer.text
    return {row["game_id"]: row["token"] for row in answer.json()}


def _no_raw_markup(text: str) -> None:
    for raw in ("<b>数学", "<img src=x>", "<script>alert"):
        assert raw not in text


def test_the_score_sheets_hold_every_table_and_a_qr_code_of_its_scoring_link(
    client: TestClient, hall: Hall, referee: dict[str, str], make_key: Callable[..., str]
) -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    path = f"/api/v1/rounds/{hall.round_id}/score-sheets"
    assert_problem(client.get(path), 401, "api-key-required")
    assert_problem(client.get(path, headers=bearer(make_key("union"))), 403, "role-required")

    page = client.get(path, headers=referee)
    assert page.status_code == 200, page.text
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    sheets = re.findall(r'<section class="sheet" data-game-id="(\d+)">', text)
    assert [int(game_id) for game_id in sheets] == hall.game_ids
    assert len(re.findall(r'<tr class="deal-row">', text)) == 16 * len(hall.game_ids)
    tokens = _tokens(client, hall, referee)
    codes = {
        int(game_id): data
        for data, game_id in re.findall(
            r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*" data-game-id="(\d+)">', text
        )
    }
    assert sorted(codes) == hall.game_ids
    for game_id, data in codes.items():
        decoded = zxingcpp.read_barcodes(image.open(io.BytesIO(base64.b64decode(data))))
        assert [code.text for code in decoded] == [
            f"http://testserver/score/{game_id}?token={tokens[game_id]}"
        ]
    for game_id, (ns_name, ew_name) in hall.sides.items():
        assert html.escape(ns_name) in text and html.escape(ew_name) in text
        for player in hall.players[game_id].values():
            assert html.escape(player) in text
    assert html.escape(EVENT_NAME) in text
    _no_raw_markup(text)


def test_the_score_sheets_pdf_has_one_page_per_table(
    client: TestClient, hall: Hall, referee: dict[str, str]
) -> None:
    path = f"/api/v1/rounds/{hall.round_id}/score-sheets.pdf"
    assert_problem(client.get(path), 401)
    answer = client.get(path, headers=referee)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", answer.content)) == len(hall.game_ids)
    assert b"/STSong-Light" in answer.content  # reportlab's built-in CID font: no font file shipped


def test_score_sheets_wait_for_a_published_pairing(
    app: FastAPI, client: TestClient, referee: dict[str, str], clock: Clock
) -> None:
    hall = make_hall(
        app.state.engine, event_name="未公布", entry_names=["甲", "乙"], starts_at=T0, started=False
    )
    with unit_of_work(app.state.engine) as session:
        round_ = session.get(Round, hall.round_id)
        assert round_ is not None
        round_.pairing_published_at = None
        round_.state = "scheduled"
        game = session.get(Game, hall.game_ids[0])
        assert game is not None
        game.token_nonce = ""
        session.add_all([round_, game])
    assert_problem(client.get(f"/api/v1/rounds/{hall.round_id}/score-sheets", headers=referee), 409)


def test_the_scoring_form_opens_with_its_own_token_only(
    client: TestClient, hall: Hall, referee: dict[str, str]
) -> None:
    tokens = _tokens(client, hall, referee)
    first, second = hall.game_ids[:2]
    page = client.get(f"/score/{first}", params={"token": tokens[first]})
    assert page.status_code == 200, page.text
    text = page.text
    for name in (*hall.sides[first], *hall.players[first].values()):
        assert html.escape(name) in text
    _no_raw_markup(text)
    assert f'data-api="/api/v1/games/{first}"' in text
    assert text.count('class="seat seat-') == 4

    assert_problem(client.get(f"/score/{first}"), 401, "scorer-token-required")
    assert_problem(
        client.get(f"/score/{first}", params={"token": tokens[second]}), 403, "scorer-token-other-game"
    )
    # what the form's script sends: the token as a bearer credential
    deal = {"deal_no": 1, "finish_order": ["N", "S", "E", "W"]}
    other = client.post(f"/api/v1/games/{first}/deals", json=deal, headers=bearer(tokens[second]))
    assert_problem(other, 403, "scorer-token-other-game")
    own = client.post(
        f"/api/v1/games/{first}/deals", json=deal, headers={**bearer(tokens[first]), "Idempotency-Key": "k1"}
    )
    assert own.status_code == 201, own.text
    confirm = client.post(
        f"/api/v1/games/{first}/confirmations", json={"side": "NS"}, headers=bearer(tokens[second])
    )
    assert_problem(confirm, 403, "scorer-token-other-game")


def test_the_big_screen_escapes_names_and_its_board_follows_the_results(
    client: TestClient, hall: Hall, referee: dict[str, str], clock: Clock
) -> None:
    page = client.get(f"/screen/events/{hall.event_id}")
    assert page.status_code == 200, page.text
    text = page.text
    assert html.escape(EVENT_NAME) in text
    for ns_name, ew_name in hall.sides.values():
        assert html.escape(ns_name) in text and html.escape(ew_name) in text
    _no_raw_markup(text)
    assert re.findall(r"<h2>(\w)组", text) == ["A", "B"]
    assert 'id="clock" class="clock phase-running"' in text
    assert ">30:00<" in text.replace("\n", "").replace(" ", "")  # 20 of 50 minutes gone

    board = client.get(f"/screen/events/{hall.event_id}/board")
    assert board.status_code == 200
    etag = board.headers["etag"]
    unchanged = client.get(f"/screen/events/{hall.event_id}/board", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.headers["etag"] == etag

    game_id = hall.game_ids[0]
    token = _tokens(client, hall, referee)[game_id]
    posted = client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"deal_no": 1, "finish_order": list("NSEW")},
        headers=bearer(token),
    )
    assert posted.status_code == 201, posted.text
    changed = client.get(f"/screen/events/{hall.event_id}/board", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    live = re.search(
        rf'<div class="live state-in_play" data-game-id="{game_id}">(.*?)</div>\s*</div>', changed.text, re.S
    )
    assert live is not None
    assert re.findall(r'<span class="level">(\w+)</span>', live.group(0)) == ["5", "2"]


def test_the_last_minutes_warn_on_the_big_screen(app: FastAPI, client: TestClient, clock: Clock) -> None:
    hall = make_hall(
        app.state.engine,
        event_name="团体赛",
        entry_names=["甲", "乙"],
        starts_at=T0,
        started=True,
        preset="nuist-2023",
    )
    clock.now = T0 + timedelta(minutes=44)
    assert 'class="clock phase-running"' in client.get(f"/screen/events/{hall.event_id}/board").text
    clock.now = T0 + timedelta(minutes=46)  # seed 000 §九.1: 50 minutes, the last 5 without a new deal
    text = client.get(f"/screen/events/{hall.event_id}/board").text
    assert 'class="clock phase-final_minutes"' in text
    warning = re.search(r'<div id="warning" class="warning">([^<]+)</div>', text)
    assert warning is not None and "不再抓牌开新局" in warning.group(1)
    assert_problem(client.get("/screen/events/999999"), 404, "unknown-event")
