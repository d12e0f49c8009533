"""The venue in a real browser: the big screen follows a deal tapped on the phone form, the form
queues deals while offline and resends a deal whose answer was lost with the same key, both sides
confirm. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from domain.access import service as access_service
from storage.db import unit_of_work
from tests.helpers import bearer
from tests.http.pages.venue_rows import Hall, make_hall

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path("/usr/bin/chromium").exists(),
        reason="needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run does)",
    ),
]

EVENT_NAME = "<i>迎新</i>智力竞赛（掼蛋）"
ENTRY_NAMES = ["<b>数学</b>一队", "物理队", "化学队", "计算机队"]
PHONE = {"width": 360, "height": 740}
WAIT_MS = 20_000


def _hall(app: FastAPI) -> Hall:
    # the round started ten minutes ago, on the real clock the server and the browser share
    started = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=10)
    return make_hall(
        app.state.engine, event_name=EVENT_NAME, entry_names=ENTRY_NAMES, starts_at=started, started=True
    )


def _tokens(app: FastAPI, live_url: str, round_id: int) -> dict[int, str]:
    with unit_of_work(app.state.engine) as session:
        referee = access_service.create_key(session, name="chief referee", role="referee").secret
    answer = httpx.get(f"{live_url}/api/v1/rounds/{round_id}/scorer-tokens", headers=bearer(referee))
    assert answer.status_code == 200, answer.text
    return {row["game_id"]: row["token"] for row in answer.json()}


def _points(live_url: str, event_id: int, entry_name: str) -> int:
    table = httpx.get(f"{live_url}/api/v1/events/{event_id}/standings", params={"provisional": "true"}).json()
    return next(
        row["points"] for group in table["groups"] for row in group["rows"] if row["entry_name"] == entry_name
    )


def _tap(page: Any, seats: str) -> None:
    for seat in seats[:3]:  # the fourth seat fills itself
        page.click(f'button.seat[data-seat="{seat}"]')
    page.click("#post")


def _deals(live_url: str, game_id: int) -> int:
    return len(httpx.get(f"{live_url}/api/v1/games/{game_id}").json()["deals"])


def test_a_deal_tapped_on_the_phone_reaches_the_big_screen(
    app: FastAPI, live_url: str, browser: Any, screenshot_dir: Path
) -> None:
    hall = _hall(app)
    game_id = hall.game_ids[0]
    tokens = _tokens(app, live_url, hall.round_id)
    ns_name = hall.sides[game_id][0]

    screen = browser.new_page(viewport={"width": 1600, "height": 900})
    screen.goto(f"{live_url}/screen/events/{hall.event_id}")
    assert screen.inner_text("h1") == EVENT_NAME  # shown as text, never as markup
    assert screen.locator("h1 i").count() == 0
    assert screen.locator(".group h2").all_inner_texts()[:2] == ["A组（含进行中对局）", "B组（含进行中对局）"]
    assert screen.locator(".live").count() == len(hall.game_ids)
    clock = screen.inner_text("#clock")
    assert clock.startswith(("39:", "40:")), clock  # 50 minutes from a start ten minutes ago
    screen.evaluate("window.notReloaded = true")
    before = _points(live_url, hall.event_id, ns_name)
    screen.screenshot(path=str(screenshot_dir / "screen-before.png"), full_page=True)

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_url}/score/{game_id}?token={tokens[game_id]}")
    assert phone.locator(".side .name").all_inner_texts() == list(hall.sides[game_id])
    assert phone.inner_text("#declares") == "双方打 2"
    _tap(phone, "NSE")
    phone.wait_for_selector("#deals tr", timeout=WAIT_MS)
    assert phone.inner_text('[data-level="NS"]') == "5"  # double-down: 2 + 3 (seed 000 附件 六)
    assert phone.inner_text("#declares") == "南北打 5，东西在 2"
    phone.screenshot(path=str(screenshot_dir / "score-after-deal.png"), full_page=True)

    after = _points(live_url, hall.event_id, ns_name)
    assert after > before
    screen.wait_for_function(
        """([name, points]) => [...document.querySelectorAll("tr.standing")].some(
               (row) => row.querySelector(".who").firstChild.textContent === name
                        && row.querySelector(".points").textContent.startsWith(String(points)))""",
        arg=[ns_name, after],
        timeout=WAIT_MS,
    )
    assert screen.evaluate("window.notReloaded") is True
    assert screen.inner_text(f'.live[data-game-id="{game_id}"] .pair .level') == "5"
    screen.screenshot(path=str(screenshot_dir / "screen-after-deal.png"), full_page=True)


def test_the_phone_form_queues_offline_retries_with_one_key_and_both_sides_confirm(
    app: FastAPI, live_url: str, browser: Any, screenshot_dir: Path
) -> None:
    hall = _hall(app)
    game_id = hall.game_ids[1]
    tokens = _tokens(app, live_url, hall.round_id)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{live_url}/score/{game_id}?token={tokens[game_id]}")
    phone.wait_for_function("document.querySelector('#post') !== null && window.fetch !== undefined")

    _tap(phone, "NSE")
    phone.wait_for_selector("#deals tr", timeout=WAIT_MS)

    # offline: the deal waits on the phone with its key, and goes out when the network is back
    context.set_offline(True)
    _tap(phone, "NSE")
    phone.wait_for_selector("#queue-box:not([hidden])", timeout=WAIT_MS)
    queued = phone.evaluate(f"JSON.parse(localStorage.getItem('zhisai.score.{game_id}.queue'))")
    assert [(item["deal_no"], item["finish_order"]) for item in queued] == [(2, ["N", "S", "E", "W"])]
    assert queued[0]["key"].startswith(f"game-{game_id}-")
    assert _deals(live_url, game_id) == 1
    phone.screenshot(path=str(screenshot_dir / "score-offline.png"), full_page=True)
    context.set_offline(False)
    phone.wait_for_selector("#queue-box[hidden]", state="attached", timeout=WAIT_MS)
    assert _deals(live_url, game_id) == 2

    # the server stores deal 3 but its answer is lost: the form sends it again with the same key
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()
            route.abort()
        else:
            route.continue_()

    phone.route("**/api/v1/games/*/deals", lose_the_first_answer)
    _tap(phone, "NSE")
    phone.wait_for_function("document.querySelectorAll('#deals tr').length === 3", timeout=WAIT_MS)
    assert len(keys) == 2 and keys[0] == keys[1]
    assert _deals(live_url, game_id) == 3
    phone.unroute("**/api/v1/games/*/deals")

    # N–S at J; two more N–S double-downs: A, then past A (seed 001 §三)
    for deal_no in (4, 5):
        posted = httpx.post(
            f"{live_url}/api/v1/games/{game_id}/deals",
            json={"deal_no": deal_no, "finish_order": ["N", "S", "E", "W"]},
            headers=bearer(tokens[game_id]),
        )
        assert posted.status_code == 201, posted.text
    phone.reload()
    phone.wait_for_selector("#confirm-box:not([hidden])", timeout=WAIT_MS)
    assert phone.inner_text('[data-level="NS"]') == "过A"
    phone.click('button[data-confirm="NS"]')
    phone.wait_for_selector('button[data-confirm="NS"]:disabled', timeout=WAIT_MS)
    phone.click('button[data-confirm="EW"]')
    phone.wait_for_selector("#final:not([hidden])", timeout=WAIT_MS)
    assert httpx.get(f"{live_url}/api/v1/games/{game_id}").json()["state"] == "final"
    phone.screenshot(path=str(screenshot_dir / "score-confirmed.png"), full_page=True)


def test_the_printed_score_sheets_take_one_a4_page_per_table(
    app: FastAPI, live_url: str, browser: Any, screenshot_dir: Path
) -> None:
    hall = _hall(app)
    with unit_of_work(app.state.engine) as session:
        referee = access_service.create_key(session, name="printing referee", role="referee").secret
    sheets = httpx.get(f"{live_url}/api/v1/rounds/{hall.round_id}/score-sheets", headers=bearer(referee))
    assert sheets.status_code == 200, sheets.text
    page = browser.new_page(viewport={"width": 800, "height": 1130})
    page.set_content(sheets.text)
    printed = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", printed)) == len(hall.game_ids)
    page.screenshot(path=str(screenshot_dir / "score-sheet.png"))
