"""Who may call what: every route of the app against every kind of credential.

The table below is the one place the answer is written. A route the app serves and the table does
not list fails `test_every_route_is_classified`, so a new route is classified before it ships.
"Allowed" means the caller got past authentication and authorisation (any answer but 401/403:
the body `{}` these probes send is usually refused afterwards with 422, which stores nothing).
Public answers are checked for phone numbers and staff ids.
"""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.fuzz.world import World
from tests.security.probe import CREDENTIALS, Operation, credential, operations, url

ANYONE = frozenset(CREDENTIALS)
"""the route reads no credential at all"""
PUBLIC = frozenset({"none", "other_branch", "branch", "referee", "union", "admin"})
"""public, but a credential presented is checked: a revoked key or a scorer token is refused"""
KEYS = frozenset({"other_branch", "branch", "referee", "union", "admin"})
UNION_ANY_BRANCH = frozenset({"other_branch", "branch", "union", "admin"})
"""union keys; a branch key is checked against the branch named in the body"""
UNION_OWN_BRANCH = frozenset({"branch", "union", "admin"})
"""union keys; a branch key only for its own branch's rows (the probes use branch B00's rows)"""
UNION = frozenset({"union", "admin"})
ORGANISER = frozenset({"union", "referee", "admin"})
REFEREE = frozenset({"referee", "admin"})
GAME = frozenset({"scorer", "referee", "admin"})
"""the game's own unexpired scorer token, or a referee"""

ACCESS: dict[str, frozenset[str]] = {
    "GET /api/v1/openapi.json": ANYONE,
    "GET /docs": ANYONE,
    "GET /docs/oauth2-redirect": ANYONE,
    "GET /metrics": ANYONE,
    "GET /api/v1/health": ANYONE,
    "GET /api/v1/rules/presets": ANYONE,
    "GET /api/v1/rules/presets/{name}": ANYONE,
    "POST /api/v1/rules/guandan/classify": ANYONE,
    "POST /api/v1/rules/guandan/compare": ANYONE,
    "POST /api/v1/rules/guandan/levels": ANYONE,
    "POST /api/v1/rules/guandan/tribute": ANYONE,
    "POST /api/v1/rules/gongzhu/score": ANYONE,
    "PUT /api/v1/branches/{code}": UNION_ANY_BRANCH,
    "POST /api/v1/branches/bulk": UNION_ANY_BRANCH,
    "GET /api/v1/branches": ANYONE,
    "PUT /api/v1/members/{staff_id}": UNION_ANY_BRANCH,
    "GET /api/v1/members/{staff_id}": UNION_OWN_BRANCH,
    "POST /api/v1/members/bulk": UNION_ANY_BRANCH,
    "POST /api/v1/competitions": UNION_ANY_BRANCH,
    "GET /api/v1/competitions": ANYONE,
    "GET /api/v1/competitions/{competition_id}": ANYONE,
    "POST /api/v1/competitions/{competition_id}/events": UNION_ANY_BRANCH,
    "GET /api/v1/events/{event_id}": ANYONE,
    "PATCH /api/v1/events/{event_id}": UNION,
    "POST /api/v1/events/{event_id}/transitions": UNION_ANY_BRANCH,
    "POST /api/v1/events/{event_id}/registrations": UNION_ANY_BRANCH,
    "GET /api/v1/events/{event_id}/registrations": UNION_ANY_BRANCH,
    "POST /api/v1/events/{event_id}/entries": UNION_ANY_BRANCH,
    "POST /api/v1/events/{event_id}/entries/sheet": UNION_ANY_BRANCH,
    "GET /api/v1/events/{event_id}/entries": ANYONE,
    "GET /api/v1/entries/{entry_id}": ANYONE,
    "PUT /api/v1/entries/{entry_id}": UNION_ANY_BRANCH,
    "POST /api/v1/entries/{entry_id}/submit": UNION_OWN_BRANCH,
    "POST /api/v1/entries/{entry_id}/confirm": UNION,
    "POST /api/v1/entries/{entry_id}/reject": UNION_ANY_BRANCH,
    "POST /api/v1/entries/{entry_id}/withdraw": UNION_OWN_BRANCH,
    "PUT /api/v1/entries/{entry_id}/lineups/{round_number}": UNION_ANY_BRANCH,
    "GET /api/v1/entries/{entry_id}/lineups/{round_number}": PUBLIC,
    "POST /api/v1/events/{event_id}/draw/commitment": ORGANISER,
    "POST /api/v1/events/{event_id}/draw": ORGANISER,
    "GET /api/v1/events/{event_id}/draw": ANYONE,
    "POST /api/v1/events/{event_id}/draw/physical": REFEREE,
    "POST /api/v1/events/{event_id}/rounds/{number}/generate": ORGANISER,
    "POST /api/v1/events/{event_id}/rounds/{number}/swap": REFEREE,
    "POST /api/v1/events/{event_id}/rounds/{number}/publish": ORGANISER,
    "POST /api/v1/events/{event_id}/rounds/{number}/start": ORGANISER,
    "POST /api/v1/events/{event_id}/rounds/{number}/finish": ORGANISER,
    "POST /api/v1/events/{event_id}/stages/{stage}/draw/commitment": ORGANISER,
    "POST /api/v1/events/{event_id}/stages/{stage}/draw": ORGANISER,
    "GET /api/v1/events/{event_id}/stages/{stage}/draw": ANYONE,
    "POST /api/v1/events/{event_id}/stages/{stage}/rounds/{number}/generate": ORGANISER,
    "POST /api/v1/events/{event_id}/stages/{stage}/rounds/{number}/publish": ORGANISER,
    "POST /api/v1/events/{event_id}/stages/{stage}/rounds/{number}/start": ORGANISER,
    "POST /api/v1/events/{event_id}/stages/{stage}/rounds/{number}/finish": ORGANISER,
    "GET /api/v1/events/{event_id}/rounds": ANYONE,
    "GET /api/v1/rounds/{round_id}": PUBLIC,
    "GET /api/v1/rounds/{round_id}/page": PUBLIC,
    "POST /api/v1/rounds/{round_id}/check-ins": ORGANISER,  # the sign-in desk (seed 000 §五 签到)
    "GET /api/v1/rounds/{round_id}/check-ins/missing": REFEREE,
    "GET /api/v1/games/{game_id}": ANYONE,
    "POST /api/v1/games/{game_id}/deals": GAME,
    "PUT /api/v1/games/{game_id}/deals/{deal_no}": GAME,
    "POST /api/v1/games/{game_id}/time-up": GAME,
    "POST /api/v1/games/{game_id}/final-result": GAME,
    # referee-only in the service, after the body is read: with the probes' `{}` the scorer
    # token is refused by validation (422), not by role, so these read GAME here
    "POST /api/v1/games/{game_id}/forfeit": GAME,
    "POST /api/v1/games/{game_id}/penalties": GAME,
    "POST /api/v1/games/{game_id}/match-games": GAME,
    "POST /api/v1/games/{game_id}/confirmations": GAME,
    "POST /api/v1/games/{game_id}/corrections": GAME,
    "POST /api/v1/games/{game_id}/hands": GAME,
    "PUT /api/v1/games/{game_id}/hands/{hand_no}": GAME,
    "POST /api/v1/games/{game_id}/table-order": GAME,  # referee-only in the service, after the body
    "GET /api/v1/games/{game_id}/audit": REFEREE,
    "GET /api/v1/rounds/{round_id}/scorer-tokens": REFEREE,
    "GET /api/v1/events/{event_id}/standings": ANYONE,
    "GET /api/v1/events/{event_id}/awards": ANYONE,
    "GET /api/v1/events/{event_id}/standings.{sheet_format}": ANYONE,
    "GET /api/v1/events/{event_id}/deals.{sheet_format}": ANYONE,
    "GET /api/v1/events/{event_id}/registration.{sheet_format}": KEYS,  # a branch key sees its own rows
    "GET /api/v1/rounds/{round_id}/table.{sheet_format}": PUBLIC,
    "GET /api/v1/rounds/{round_id}/score-sheets": REFEREE,
    "GET /api/v1/rounds/{round_id}/score-sheets.pdf": REFEREE,
    "GET /score/{game_id}": GAME,
    "GET /screen/events/{event_id}": ANYONE,
    "GET /screen/events/{event_id}/board": ANYONE,
    "POST /api/v1/events/{event_id}/webhooks": UNION,
    "GET /api/v1/events/{event_id}/webhooks": UNION,
    "DELETE /api/v1/webhooks/{webhook_id}": UNION,
    "GET /api/v1/webhooks/{webhook_id}/deliveries": UNION,
    "POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": UNION_ANY_BRANCH,
}

# Where the decision follows reading the body, the probe sends a valid one.
BODIES = {
    "POST /api/v1/events/{event_id}/webhooks": {
        "url": "https://union.example.edu.cn/hooks/zhisai",
        "kinds": ["result.final"],
    },
}

DOCUMENTS = frozenset({"GET /api/v1/openapi.json", "GET /docs", "GET /docs/oauth2-redirect"})
"""the contract and its viewer: their examples are made up, not members' data"""
PHONE = re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)")
STAFF_ID = re.compile(r"S\d{3}-\d{2}")  # the world's staff ids (tests/fuzz/world.py)


def test_every_route_is_classified(world_app: FastAPI) -> None:
    served = {op.label for op in operations(world_app)}
    assert sorted(served - ACCESS.keys()) == [], "classify these routes in ACCESS"
    assert sorted(ACCESS.keys() - served) == [], "these routes are gone: remove them from ACCESS"


def _cases() -> list[object]:
    return list(ACCESS)


@pytest.mark.parametrize("label", _cases())
def test_route_admits_exactly_its_callers(
    label: str, world_app: FastAPI, world_client: TestClient, world: World
) -> None:
    [op] = [op for op in operations(world_app) if op.label == label] or [Operation(*label.split(" ", 1))]
    admitted: set[str] = set()
    for kind in CREDENTIALS:
        answer = world_client.request(
            op.method,
            url(op, world),
            headers=credential(kind, world),
            json=BODIES.get(label, {}) if op.json_body else None,
        )
        assert answer.status_code < 500, f"{label} as {kind}: {answer.status_code} {answer.text[:300]}"
        if answer.status_code in (401, 403):
            assert answer.headers["content-type"].startswith("application/problem+json")
        else:
            admitted.add(kind)
        if kind == "none" and op.method == "GET" and answer.status_code == 200 and label not in DOCUMENTS:
            text = answer.text
            assert not PHONE.search(text), f"{label} shows a phone number to the public"
            assert not STAFF_ID.search(text), f"{label} shows a staff id to the public"
    assert admitted == ACCESS[label], f"{label}: admitted {sorted(admitted)}"
