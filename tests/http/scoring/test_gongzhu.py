"""Gongzhu tables through HTTP (seed 004 拱猪比赛规则): hands scored from captured cards, a table
played to ±1000, the referee's order of a tie at the cut, and round 2 drawn from round 1's tables.

Every figure below is worked out by hand from the seed's card values (§3–6), not by the rules code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.helpers import assert_problem
from tests.scenarios import seed_004_steps as hlju
from tests.scenarios.driver import Clock, Driver

HEARTS = [f"H{rank}" for rank in "23456789TJQKA"]

# N: pig (−100) and hearts 2, 3 (0 each); E: sheep exposed (+200) with the transformer (×2) = +400;
# S: A, K, Q, J of hearts = −50 −40 −30 −20 = −140; W: hearts 4 (0) and 5–10 (6 × −10) = −60
FIRST_HAND = {
    "hand_no": 1,
    "captured": {
        "N": ["SQ", "H2", "H3", "S2"],
        "E": ["DJ", "CT", "C2", "C3"],
        "S": ["HA", "HK", "HQ", "HJ"],
        "W": ["H4", "H5", "H6", "H7", "H8", "H9", "HT", "D2"],
    },
    "exposed": ["DJ"],
}
FIRST_SCORES = {"N": -100, "E": 400, "S": -140, "W": -60}

# N takes all 13 hearts (满红 +200), E the pig (−100), S the sheep (+100), W the transformer alone
# (+50): five hands make N +1000
TO_PLUS = {"N": HEARTS, "E": ["SQ"], "S": ["DJ"], "W": ["CT"]}
# E takes the exposed pig (−200); N hearts 2–4 with the transformer (0 × 2 = 0); S hearts 5–10
# (−60); W hearts J–A (−140) and the sheep (+100) = −40: five hands make E −1000
TO_MINUS = {"N": ["H2", "H3", "H4", "CT"], "E": ["SQ"], "S": HEARTS[3:9], "W": [*HEARTS[9:], "DJ"]}
# as TO_PLUS, but the transformer is exposed: W alone +100, level with S (+100 a hand)
TIED = {"N": HEARTS, "E": ["SQ"], "S": ["DJ"], "W": ["CT"]}


@dataclass
class Round1:
    driver: Driver
    event_id: int
    round_id: int
    tables: list[dict[str, Any]]
    byes: set[int]


@pytest.fixture
def round1(app: FastAPI, client: TestClient, make_key: Callable[..., str]) -> Round1:
    """Ten players of seed 004's Gongzhu event: round 1 seats two tables of four and two byes. The
    event has no round times, so no scorer tokens: the referee scores, as a table's token would."""
    clock = Clock()
    app.state.clock = clock
    driver = Driver(client, union_key=make_key("union"), referee_key=make_key("referee"), clock=clock)
    competition = hlju.register(driver, playing=hlju.GONGZHU)
    event_id = competition.events[hlju.GONGZHU]
    driver.at("2016-03-23T13:00")
    hlju.draw(driver, event_id)
    driver.at("2016-03-23T13:50")
    driver.generate_round(event_id, 1)
    driver.publish_round(event_id, 1)
    started = driver.start_round(event_id, 1)
    byes = {m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"]}
    return Round1(driver, event_id, started["id"], started["tables"], byes)


def _post(r1: Round1, game_id: int, body: dict[str, Any], **headers: str) -> Any:
    return r1.driver.client.post(
        f"/api/v1/games/{game_id}/hands", json=body, headers={**r1.driver.referee, **headers}
    )


def _play(r1: Round1, game_id: int, captured: dict[str, list[str]], *, hands: int, exposed: list[str]) -> Any:
    answer = None
    for hand_no in range(1, hands + 1):
        answer = _post(r1, game_id, {"hand_no": hand_no, "captured": captured, "exposed": exposed})
        assert answer.status_code == 201, answer.text
    assert answer is not None
    return answer.json()


def _confirm(r1: Round1, game_id: int) -> Any:
    for side in ("NS", "EW"):
        answer = r1.driver.client.post(
            f"/api/v1/games/{game_id}/confirmations", json={"side": side}, headers=r1.driver.referee
        )
    return answer


def test_a_hand_is_scored_from_the_captured_cards(round1: Round1) -> None:
    game_id = round1.tables[0]["game_id"]
    first = _post(round1, game_id, FIRST_HAND, **{"Idempotency-Key": "table-1-hand-1"})
    assert first.status_code == 201, first.text
    table = first.json()
    assert table["hands"][0]["scores"] == FIRST_SCORES
    assert table["totals"] == FIRST_SCORES
    assert (table["ranking"], table["over"], table["advancing"]) == (["E", "W", "N", "S"], False, [])
    again = _post(round1, game_id, FIRST_HAND, **{"Idempotency-Key": "table-1-hand-1"})
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == table
    # the same hand without a key answers the stored one; different cards for it are a conflict
    assert _post(round1, game_id, FIRST_HAND).json()["hands"] == table["hands"]
    swapped = {**FIRST_HAND, "exposed": []}
    body = assert_problem(_post(round1, game_id, swapped), 409, "hand-already-recorded")
    assert body["stored_hand"]["scores"] == FIRST_SCORES
    assert_problem(_post(round1, game_id, {**FIRST_HAND, "hand_no": 3}), 409, "hand-number-gap")
    twice = {"hand_no": 2, "captured": {**FIRST_HAND["captured"], "W": ["SQ"]}, "exposed": []}
    assert_problem(_post(round1, game_id, twice), 422, "card-captured-twice")
    # an edit carries the hand's version: without the sheep exposed E has (100) × 2 = +200
    edit = {"captured": FIRST_HAND["captured"], "exposed": []}
    url = f"/api/v1/games/{game_id}/hands/1"
    referee = round1.driver.referee
    edited = round1.driver.client.put(url, json=edit, headers={**referee, "If-Match": '"1"'})
    assert edited.status_code == 200, edited.text
    assert edited.json()["totals"] == {**FIRST_SCORES, "E": 200}
    assert edited.json()["hands"][0]["version"] == 2
    stale = round1.driver.client.put(url, json=edit, headers={**referee, "If-Match": '"1"'})
    assert_problem(stale, 409, "stale-version")
    public = round1.driver.client.get(f"/api/v1/games/{game_id}").json()
    assert public["discipline"] == "gongzhu"
    assert {p["seat"]: p["entry_id"] for p in public["players"]} == {
        seat: round1.tables[0]["seats"][seat]["entry_id"] for seat in "NESW"
    }
    assert public["totals"] == {**FIRST_SCORES, "E": 200}
    assert "phone" not in str(public) and "staff" not in str(public) and "member_id" not in str(public)


def test_a_table_ends_at_plus_or_minus_1000_and_takes_no_more_hands(round1: Round1) -> None:
    up, down = (table["game_id"] for table in round1.tables)
    four = _play(round1, up, TO_PLUS, hands=4, exposed=[])
    assert (four["totals"], four["over"], four["state"]) == (
        {"N": 800, "E": -400, "S": 400, "W": 200},
        False,
        "in_play",
    )
    assert_problem(_confirm(round1, up), 409, "game-not-ended")
    five = _post(round1, up, {"hand_no": 5, "captured": TO_PLUS, "exposed": []}).json()
    assert five["totals"] == {"N": 1000, "E": -500, "S": 500, "W": 250}
    assert (five["over"], five["state"], five["ranking"], five["advancing"]) == (
        True,
        "ended",
        ["N", "S", "W", "E"],
        ["N", "S"],
    )
    late = _post(round1, up, {"hand_no": 6, "captured": TO_PLUS, "exposed": []})
    assert_problem(late, 409, "hand-after-game-over")
    minus = _play(round1, down, TO_MINUS, hands=5, exposed=["SQ"])
    assert minus["totals"] == {"N": 0, "E": -1000, "S": -300, "W": -200}
    assert (minus["over"], minus["advancing"]) == (True, ["N", "W"])
    final = _confirm(round1, down)
    assert final.status_code == 200, final.text
    assert (final.json()["state"], final.json()["confirmed"]) == ("final", {"NS": True, "EW": True})
    assert_problem(
        _post(round1, down, {"hand_no": 1, "captured": TO_MINUS, "exposed": []}), 409, "result-final"
    )


def test_a_tie_at_the_cut_waits_for_the_referee(round1: Round1) -> None:
    game_id = round1.tables[0]["game_id"]
    tied = _play(round1, game_id, TIED, hands=5, exposed=["CT"])
    assert tied["totals"] == {"N": 1000, "E": -500, "S": 500, "W": 500}
    assert (tied["advancing"], tied["tied_at_cut"]) == (["N"], ["S", "W"])
    assert_problem(_confirm(round1, game_id), 409, "gongzhu-tie-at-cut")
    url = f"/api/v1/games/{game_id}/table-order"
    referee = round1.driver.referee
    wrong = round1.driver.client.post(url, json={"ranking": list("NWES"), "reason": "lot"}, headers=referee)
    assert_problem(wrong, 422, "gongzhu-ranking-totals")  # E (−500) cannot stand above S (+500)
    ordered = round1.driver.client.post(url, json={"ranking": list("NWSE"), "reason": "lot"}, headers=referee)
    assert ordered.status_code == 200, ordered.text
    assert (ordered.json()["advancing"], ordered.json()["tied_at_cut"]) == (["N", "W"], [])
    assert _confirm(round1, game_id).json()["state"] == "final"
    audit = round1.driver.call("GET", f"/games/{game_id}/audit", headers=referee)
    assert [row["reason"] for row in audit if row["action"] == "table-ordered"] == ["lot"]


def test_round_two_seats_the_top_two_of_each_table_and_the_byes(round1: Round1) -> None:
    up, down = round1.tables
    _play(round1, up["game_id"], TO_PLUS, hands=5, exposed=[])  # N and S go on
    _play(round1, down["game_id"], TO_MINUS, hands=5, exposed=["SQ"])  # N and W go on
    for table in (up, down):
        assert _confirm(round1, table["game_id"]).json()["state"] == "final"
    driver, event_id = round1.driver, round1.event_id
    standings = driver.standings(event_id)["groups"][0]["rows"]
    reached = {row["entry_id"]: row["figures"]["round_reached"] for row in standings}
    driver.finish_round(event_id, 1)
    driver.at("2016-03-24T13:50")
    driver.generate_round(event_id, 2)
    driver.publish_round(event_id, 2)
    started = driver.start_round(event_id, 2)
    seated = {t["seats"][seat]["entry_id"] for t in started["tables"] for seat in "NESW"}
    byes = {m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"]}
    through = {up["seats"][seat]["entry_id"] for seat in "NS"} | {
        down["seats"][seat]["entry_id"] for seat in "NW"
    }
    assert seated | byes == through | round1.byes
    assert len(started["tables"]) == 1 and len(byes) == 2
    # the standings after round 1: the byes and the top two reached round 2, the others stayed in 1
    assert {entry for entry, mark in reached.items() if mark == 2} == through | round1.byes


def test_round_two_seats_whom_the_referee_ordered_above_a_tie_at_the_cut(round1: Round1) -> None:
    up, down = round1.tables
    _play(round1, up["game_id"], TIED, hands=5, exposed=["CT"])  # S and W level on +500 behind N
    url = f"/api/v1/games/{up['game_id']}/table-order"
    ordered = round1.driver.client.post(
        url, json={"ranking": list("NWSE"), "reason": "lot"}, headers=round1.driver.referee
    )
    assert ordered.json()["advancing"] == ["N", "W"], ordered.text
    _play(round1, down["game_id"], TO_MINUS, hands=5, exposed=["SQ"])  # N and W go on
    for table in (up, down):
        assert _confirm(round1, table["game_id"]).json()["state"] == "final"
    driver, event_id = round1.driver, round1.event_id
    driver.finish_round(event_id, 1)
    driver.at("2016-03-24T13:50")
    driver.generate_round(event_id, 2)
    driver.publish_round(event_id, 2)
    started = driver.start_round(event_id, 2)
    seated = {t["seats"][seat]["entry_id"] for t in started["tables"] for seat in "NESW"}
    byes = {m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"]}
    through = {table["seats"][seat]["entry_id"] for table in (up, down) for seat in "NW"}
    assert seated | byes == through | round1.byes
    assert up["seats"]["S"]["entry_id"] not in seated | byes  # level with W, ordered below it
