"""A corpus of bad requests: each gets a clear 4xx problem and changes nothing stored.

Duplicate JSON keys: the last one wins (Python's JSON parser, which FastAPI uses, keeps the last
value). That is deliberate and pinned below; the scoring form never sends duplicates and the
idempotency hash covers the raw body, so a retry with different bytes is a different request.
"""

from __future__ import annotations

import html
from datetime import datetime

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.badinput.corpus import counts
from tests.fuzz.world import World
from tests.helpers import assert_problem, bearer

INJECTIONS = [
    "'; DROP TABLE deals; --",
    '" OR 1=1 --',
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>&amp;",
]
RARE = ["𠀀龘 队", "🀄🃏 掼蛋队", "\u200b零宽"]


def _deal(world: World, body: bytes | dict[str, object], **headers: str) -> dict[str, object]:
    game_id = world.game_ids[1]
    kwargs: dict[str, object] = {"json": body} if isinstance(body, dict) else {"content": body}
    return {
        "url": f"/api/v1/games/{game_id}/deals",
        "headers": {**bearer(world.tokens[game_id]), **headers},
        **kwargs,
    }


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        (b'{"deal_no": 1, "finish_order": ["N", "S", "E", "W"]', "request-validation"),  # truncated
        (b'{"deal_no": 1, finish_order: [N]}', "request-validation"),
        (b"", "request-validation"),
        (b"null", "request-validation"),
        (b"[]", "request-validation"),
        (b'{"deal_no": 1, "finish_order": ["N", "S", "E", "W"]}\x00garbage', "request-validation"),
        (b'{"deal_no": "\xff\xfe", "finish_order": []}', "body-unreadable"),  # not UTF-8
        ('{"deal_no": 1}'.encode("utf-16"), "request-validation"),  # decoded (BOM), then incomplete
    ],
)
def test_malformed_bodies_are_refused(
    world_app: FastAPI, world_client: TestClient, world: World, body: bytes, rule: str
) -> None:
    before = counts(world_app)
    answer = world_client.post(**_deal(world, body, **{"Content-Type": "application/json"}))  # type: ignore[arg-type]
    assert_problem(answer, 422, rule)
    assert counts(world_app) == before


@pytest.mark.parametrize(
    "body",
    [
        {"deal_no": 1, "finish_order": "NSEW"},
        {"deal_no": "one", "finish_order": ["N", "S", "E", "W"]},
        {"deal_no": 1.5, "finish_order": ["N", "S", "E", "W"]},
        {"deal_no": -1, "finish_order": ["N", "S", "E", "W"]},
        {"deal_no": 0, "finish_order": ["N", "S", "E", "W"]},
        {"deal_no": 10**30, "finish_order": ["N", "S", "E", "W"]},
        {"deal_no": 2**63, "finish_order": ["N", "S", "E", "W"]},
        {"deal_no": 1, "finish_order": ["N", "S", "E", "X"]},  # unknown seat
        {"deal_no": 1, "finish_order": ["N", "N", "E", "W"]},
        {"deal_no": 1, "finish_order": ["N", "S", "E", "W"], "tribute": {"paid": {"Q": "HA"}}},
    ],
)
def test_wrong_values_in_a_deal_are_refused(
    world_app: FastAPI, world_client: TestClient, world: World, body: dict[str, object]
) -> None:
    before = counts(world_app)
    answer = world_client.post(**_deal(world, body, **{"Idempotency-Key": f"bad-{body!r}"[:200]}))  # type: ignore[arg-type]
    assert 400 <= answer.status_code < 500
    assert_problem(answer, answer.status_code)
    assert counts(world_app) == before


@pytest.mark.parametrize(
    "path", ["/api/v1/games/{big}", "/api/v1/games/{big}/deals/1", "/api/v1/events/{big}/standings"]
)
def test_enormous_ids_are_refused_not_a_500(world_client: TestClient, world: World, path: str) -> None:
    answer = world_client.get(path.format(big=10**25))
    assert_problem(answer, 422) if answer.status_code == 422 else assert_problem(answer, 405)


def test_an_enormous_deal_number_in_the_path_is_refused(
    world_app: FastAPI, world_client: TestClient, world: World
) -> None:
    game_id = world.game_ids[0]
    before = counts(world_app)
    answer = world_client.put(
        f"/api/v1/games/{game_id}/deals/{10**25}",
        json={"finish_order": ["N", "S", "E", "W"]},
        headers={**bearer(world.tokens[game_id]), "If-Match": '"1"'},
    )
    assert_problem(answer, answer.status_code)
    assert answer.status_code in (404, 422)
    assert counts(world_app) == before


def test_a_huge_body_is_413(world_app: FastAPI, world_client: TestClient, world: World) -> None:
    before = counts(world_app)
    huge = b'{"deal_no": 1, "finish_order": ["N", "S", "E", "W"], "note": "' + b"x" * 300_000 + b'"}'
    assert_problem(
        world_client.post(**_deal(world, huge, **{"Content-Type": "application/json"})), 413, "body-too-large"
    )  # type: ignore[arg-type]

    def chunks() -> object:
        for _ in range(40):
            yield b"x" * 10_000

    streamed = world_client.post(
        f"/api/v1/games/{world.game_ids[1]}/deals",
        content=chunks(),
        headers={"Content-Type": "application/json"},
    )
    assert_problem(streamed, 413, "body-too-large")
    assert counts(world_app) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/rules/guandan/classify", {"level": "7", "cards": ["H7"] * 10_000}),
        ("/api/v1/rules/guandan/compare", {"level": "2", "play": ["S5"] * 10_000, "against": ["S4"]}),
        ("/api/v1/rules/gongzhu/score", {"captured": [["H2"] * 10_000, [], [], []], "exposed": []}),
        (
            "/api/v1/rules/guandan/levels",
            {"preset": "nuist-2023", "deals": [{"finish_order": ["N", "S", "E", "W"]}] * 10_000},
        ),
        ("/api/v1/rules/guandan/classify", {"level": "Z", "cards": ["H7"]}),  # unknown level
        ("/api/v1/rules/guandan/classify", {"level": "7", "cards": ["X9"]}),  # unknown card
        ("/api/v1/rules/guandan/levels", {"preset": "no-such-preset", "deals": []}),
    ],
)
def test_absurd_hands_get_a_clear_4xx(world_client: TestClient, path: str, body: dict[str, object]) -> None:
    answer = world_client.post(path, json=body)
    assert 400 <= answer.status_code < 500, answer.text[:300]
    assert_problem(answer, answer.status_code)


def test_unknown_enum_values_are_refused(world_app: FastAPI, world_client: TestClient, world: World) -> None:
    before = counts(world_app)
    union = bearer(world.keys.union)
    event = {
        "name": "桥牌",
        "discipline": "bridge",
        "entry_kind": "pair",
        "format": "swiss",
        "preset": "nsi-2023",
    }
    assert_problem(
        world_client.post(f"/api/v1/competitions/{world.competition_id}/events", json=event, headers=union),
        422,
    )
    event = {**event, "discipline": "guandan", "format": "ladder"}
    assert_problem(
        world_client.post(f"/api/v1/competitions/{world.competition_id}/events", json=event, headers=union),
        422,
    )
    moved = world_client.post(
        f"/api/v1/events/{world.event_id}/transitions", json={"to_state": "paused"}, headers=union
    )
    assert_problem(moved, 422)
    assert counts(world_app) == before


@pytest.mark.parametrize("name", INJECTIONS + RARE)
def test_names_are_stored_verbatim(world_client: TestClient, world: World, name: str) -> None:
    made = world_client.post("/api/v1/competitions", json={"name": name}, headers=bearer(world.keys.union))
    assert made.status_code == 201, made.text
    assert made.json()["name"] == name
    assert world_client.get(f"/api/v1/competitions/{made.json()['id']}").json()["name"] == name


def test_names_with_markup_are_escaped_on_the_round_page(world_client: TestClient, world: World) -> None:
    union = bearer(world.keys.union)
    staff_id = world.staff_ids[0]
    name = "<script>alert('x')</script>𠀀龘"
    member = world_client.get(f"/api/v1/members/{staff_id}", headers=union).json()
    member_in = {k: member[k] for k in ("branch_code", "phone") if k in member}
    updated = world_client.put(f"/api/v1/members/{staff_id}", json={**member_in, "name": name}, headers=union)
    assert updated.status_code == 200, updated.text
    page = world_client.get(f"/api/v1/rounds/{world.round_id}/page")
    assert page.status_code == 200
    round_json = world_client.get(f"/api/v1/rounds/{world.round_id}").text
    if name in round_json.encode().decode("unicode_escape", errors="ignore") or "alert" in round_json:
        assert html.escape(name) in page.text
    assert "<script>" not in page.text


def test_dates_in_other_time_zones_are_converted(world_client: TestClient, world: World) -> None:
    union = bearer(world.keys.union)
    event = {
        "name": "时区",
        "discipline": "guandan",
        "entry_kind": "pair",
        "format": "swiss",
        "preset": "nsi-2023",
        "registration_opens_at": "2023-12-12T16:00:00-08:00",  # 2023-12-13 08:00 in Shanghai
        "registration_closes_at": "2023-12-20T08:00:00Z",  # 16:00 in Shanghai (seed 001 §四)
        "config": {"rounds": 2},
    }
    made = world_client.post(f"/api/v1/competitions/{world.competition_id}/events", json=event, headers=union)
    assert made.status_code == 201, made.text
    read = world_client.get(f"/api/v1/events/{made.json()['id']}").json()
    assert datetime.fromisoformat(read["registration_opens_at"]) == datetime.fromisoformat(
        "2023-12-13T08:00:00+08:00"
    )
    assert datetime.fromisoformat(read["registration_closes_at"]) == datetime.fromisoformat(
        "2023-12-20T16:00:00+08:00"
    )


def test_duplicate_keys_the_last_one_wins(world_client: TestClient, world: World) -> None:
    raw = '{"name": "first", "name": "最后"}'.encode()
    made = world_client.post(
        "/api/v1/competitions",
        content=raw,
        headers={**bearer(world.keys.union), "Content-Type": "application/json"},
    )
    assert made.status_code == 201, made.text
    assert made.json()["name"] == "最后"


def test_a_405_names_every_method_served_at_the_path(world_client: TestClient) -> None:
    answer = world_client.delete("/api/v1/competitions")
    assert_problem(answer, 405, "method-not-allowed")
    assert answer.headers["allow"] == "GET, POST"


def test_a_boolean_for_a_member_count_is_refused(
    world_app: FastAPI, world_client: TestClient, world: World
) -> None:
    before = counts(world_app)
    answer = world_client.put(
        "/api/v1/branches/B00",
        json={"name": "B00 分工会", "member_count": False},
        headers=bearer(world.keys.union),
    )
    assert_problem(answer, 422)
    assert counts(world_app) == before
    assert world_client.get("/api/v1/branches").json()[0]["member_count"] == 40


def test_a_string_for_a_flag_is_refused(world_client: TestClient, world: World) -> None:
    union = bearer(world.keys.union)
    answer = world_client.put(
        f"/api/v1/members/{world.staff_ids[0]}",
        json={"name": "x", "branch_code": "B00", "is_dean_or_secretary": "1"},
        headers=union,
    )
    assert_problem(answer, 422)


def test_a_stage_name_in_cjk_is_not_a_500(world_client: TestClient, world: World) -> None:
    answer = world_client.get(f"/api/v1/events/{world.event_id}/standings", params={"stage": "决赛"})
    assert answer.status_code < 500
