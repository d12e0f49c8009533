"""A small populated world the fuzzing, bad-input and access tests stand on.

Built through the HTTP API (any httpx client: the in-process TestClient or a client of a real
server): four confirmed pairs in a Swiss event (seed 001's rules) whose round 1 is drawn and
published, the round's scorer tokens, one deal posted, and one API key of every kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy.engine import Engine
from sqlmodel import select

from domain.access import scorer_tokens
from domain.access import service as access_service
from storage.db import unit_of_work
from storage.tables import Game
from tests.helpers import bearer
from tests.http.events.union_system import UnionSystem, local, pairs_event
from tests.http.schedule.conftest import fill

SECRET = "t" * 40
ROUND_TIMES = [("13:30", "14:20"), ("14:30", "15:20")]
# the union system's clock (tests/http/events/union_system.Clock) is 2023-12-14 10:00, before round 1
EXPIRED_AT = local("2023-12-14T09:00")


@dataclass
class Keys:
    admin: str
    union: str
    referee: str
    branch: str
    """a union key acting for branch B00 only"""
    other_branch: str
    """a union key acting for branch ZZ, which has no entry"""
    revoked: str


@dataclass
class World:
    keys: Keys
    event_id: int
    competition_id: int
    round_id: int
    entry_ids: list[int]
    game_ids: list[int]
    tokens: dict[int, str]
    expired_tokens: dict[int, str]
    staff_ids: list[str]
    extra: dict[str, Any] = field(default_factory=dict)


def make_keys(engine: Engine) -> Keys:
    with unit_of_work(engine) as session:

        def key(role: str, branch: str | None = None) -> str:
            return access_service.create_key(
                session, name=f"{role} {branch}", role=role, branch_code=branch
            ).secret

        made = Keys(
            admin=key("admin"),
            union=key("union"),
            referee=key("referee"),
            branch=key("union", "B00"),
            other_branch=key("union", "ZZ"),
            revoked=key("referee"),
        )
    with unit_of_work(engine) as session:
        caller = access_service.authenticate(session, made.revoked)
        access_service.revoke_key(session, caller.key_id)
    return made


def pairs_event_with_times(rounds: int = 2) -> dict[str, Any]:
    times = [
        {"number": n, "starts_at": f"2023-12-29T{a}:00+08:00", "ends_at": f"2023-12-29T{b}:00+08:00"}
        for n, (a, b) in enumerate(ROUND_TIMES[:rounds], start=1)
    ]
    return pairs_event(rounds=rounds, round_times=times)


def build(client: httpx.Client, engine: Engine, *, entries: int = 4) -> World:
    keys = make_keys(engine)
    union = UnionSystem(client=client, headers=bearer(keys.union))  # type: ignore[arg-type]
    sync = client.put(
        "/api/v1/branches/ZZ", json={"name": "ZZ 分工会", "member_count": 10}, headers=union.headers
    )
    assert sync.status_code == 200, sync.text
    made = fill(union, pairs_event_with_times(), entries=entries, people=2)
    event_id = made.event_id
    for step in ("draw/commitment", "draw"):
        answer = client.post(f"/api/v1/events/{event_id}/{step}", headers=union.headers)
        assert answer.status_code == 201, answer.text
    generated = client.post(
        f"/api/v1/events/{event_id}/rounds/1/generate", json={}, headers=bearer(keys.referee)
    )
    assert generated.status_code == 200, generated.text
    round_id = int(generated.json()["id"])
    published = client.post(f"/api/v1/events/{event_id}/rounds/1/publish", headers=bearer(keys.referee))
    assert published.status_code == 200, published.text
    listed = client.get(f"/api/v1/rounds/{round_id}/scorer-tokens", headers=bearer(keys.referee))
    assert listed.status_code == 200, listed.text
    tokens = {int(row["game_id"]): str(row["token"]) for row in listed.json()}
    game_ids = sorted(tokens)
    first = client.post(
        f"/api/v1/games/{game_ids[0]}/deals",
        json={"deal_no": 1, "finish_order": ["N", "S", "E", "W"]},
        headers=bearer(tokens[game_ids[0]]),
    )
    assert first.status_code == 201, first.text
    with unit_of_work(engine) as session:
        nonces = {g.id: g.token_nonce for g in session.exec(select(Game).where(Game.id.in_(game_ids)))}  # type: ignore[union-attr]
    expired = {
        game_id: scorer_tokens.issue(
            SECRET, game_id=game_id, nonce=str(nonces[game_id]), expires_at=EXPIRED_AT - timedelta(minutes=1)
        )
        for game_id in game_ids
    }
    competition_id = int(client.get(f"/api/v1/events/{event_id}").json()["competition_id"])
    return World(
        keys=keys,
        event_id=event_id,
        competition_id=competition_id,
        round_id=round_id,
        entry_ids=made.entry_ids,
        game_ids=game_ids,
        tokens=tokens,
        expired_tokens=expired,
        staff_ids=[f"S{k:03d}-{p:02d}" for k in range(entries) for p in (1, 2)],
    )
