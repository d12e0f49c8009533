"""Seed 000's draw through HTTP: commitment, reveal, an independent rerun, and the printable page."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from domain.schedule import draw, knockout
from domain.schedule.entrants import Entrant
from tests.helpers import assert_problem
from tests.http.events.union_system import Clock, UnionSystem, pairs_event, team_event
from tests.http.schedule.conftest import fill


def _lineup(union: UnionSystem, entry_id: int, staff_prefix: str, round_number: int) -> None:
    pairs = [
        {"pair_no": n, "players": [f"{staff_prefix}-{2 * n - 1:02d}", f"{staff_prefix}-{2 * n:02d}"]}
        for n in range(1, 6)
    ]
    put = union.client.put(
        f"/api/v1/entries/{entry_id}/lineups/{round_number}", json={"pairs": pairs}, headers=union.headers
    )
    assert put.status_code == 200, put.text


def test_seed_000_draw_reruns_from_its_seed_and_the_page_seats_32_teams(
    union: UnionSystem, client: TestClient, clock: Clock, referee: dict[str, str]
) -> None:
    # names with markup: the page must escape them
    field = fill(union, team_event(), entries=32, people=10, names=lambda k: f"<队{k:02d}&>", leader=True)
    event_id = field.event_id
    assert client.get(f"/api/v1/events/{event_id}/draw").status_code == 404

    committed = client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=referee)
    assert committed.status_code == 201, committed.text
    assert committed.json()["seed"] is None
    commitment = committed.json()["commitment"]
    # asking again keeps the same commitment: the seed cannot be shopped for
    again = client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=union.headers)
    assert again.json()["commitment"] == commitment
    assert client.get(f"/api/v1/events/{event_id}/draw").json()["seed"] is None

    ran = client.post(f"/api/v1/events/{event_id}/draw", headers=union.headers)
    assert ran.status_code == 201, ran.text
    assert_problem(client.post(f"/api/v1/events/{event_id}/draw", headers=union.headers), 409, "event-state")
    assert client.get(f"/api/v1/events/{event_id}").json()["state"] == "drawn"

    public = client.get(f"/api/v1/events/{event_id}/draw").json()
    seed = public["seed"]
    assert public["commitment"] == commitment
    assert draw.verify_commitment(seed, commitment)
    assert public["algorithm_version"] == draw.ALGORITHM_VERSION
    listed = client.get(f"/api/v1/events/{event_id}/entries").json()
    assert public["entry_ids"] == sorted(e["id"] for e in listed) == sorted(field.entry_ids)
    rerun = draw.draw_groups(
        [Entrant(str(e["id"]), e["branch_code"]) for e in listed],
        seed,
        group_names=("A", "B"),
        separate_branches=False,
    )
    assert public["result"]["groups"] == {g.name: [int(i) for i in g.entry_ids] for g in rerun.groups}
    assert [len(public["result"]["groups"][g]) for g in ("A", "B")] == [16, 16]

    for k, entry_id in enumerate(field.entry_ids):
        _lineup(union, entry_id, f"S{k:03d}", 1)
    generated = client.post(f"/api/v1/events/{event_id}/rounds/1/generate", json={}, headers=referee)
    assert generated.status_code == 200, generated.text
    round_id = generated.json()["id"]
    # unpublished: the public sees no pairing yet
    assert client.get(f"/api/v1/rounds/{round_id}").json()["tables"] == []
    assert client.post(f"/api/v1/events/{event_id}/rounds/1/publish", headers=referee).status_code == 200
    # seed 000 附件 十.4: a published pairing never changes
    regenerate = client.post(f"/api/v1/events/{event_id}/rounds/1/generate", json={}, headers=referee)
    assert_problem(regenerate, 409, "pairing-published")
    swap = {"entry_a": field.entry_ids[0], "entry_b": field.entry_ids[1], "reason": "too late"}
    assert_problem(client.post(f"/api/v1/events/{event_id}/rounds/1/swap", json=swap, headers=referee), 409)

    body = client.get(f"/api/v1/rounds/{round_id}").json()
    group_a = public["result"]["groups"]["A"]
    group_b = public["result"]["groups"]["B"]
    # seed 000 §八.2: round 1, A_i meets B_i in block i; A sits N–S, pair k meets pair k
    assert [
        (m["block"], m["entries"][0]["entry_id"], m["entries"][1]["entry_id"]) for m in body["matches"]
    ] == [(i + 1, group_a[i], group_b[i]) for i in range(16)]
    tables = body["tables"]
    assert [t["table_no"] for t in tables] == list(range(1, 81))
    first = tables[0]["seats"]
    a1, b1 = group_a[0], group_b[0]
    assert (first["N"]["entry_id"], first["S"]["entry_id"], first["E"]["entry_id"]) == (a1, a1, b1)
    assert (first["N"]["name"], first["S"]["name"]) == (field.players[a1][0], field.players[a1][1])
    assert "phone" not in client.get(f"/api/v1/rounds/{round_id}").text

    page = client.get(f"/api/v1/rounds/{round_id}/page")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    assert len(re.findall(r'<tr class="table-row', text)) == 80
    for entry_id in field.entry_ids:
        for name in field.players[entry_id]:
            assert html.escape(name) in text
        assert html.escape(field.branches[entry_id]) in text
    assert "<队" not in text


def test_knockout_groups_rerun_with_branches_apart_and_byes_face_nobody(
    union: UnionSystem, client: TestClient, referee: dict[str, str]
) -> None:
    # seed 002: groups A and B, each its own bracket; 11 pairs of 4 branches, kept apart
    event = {**pairs_event(), "format": "knockout", "preset": "ahut-2017"}
    event["config"] = {"groups": ["A", "B"], "same_branch_apart": True}
    field = fill(union, event, entries=11, people=2, branch_of=lambda k: f"B{k % 4}")
    event_id = field.event_id
    client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=union.headers).raise_for_status()
    client.post(f"/api/v1/events/{event_id}/draw", headers=union.headers).raise_for_status()
    public = client.get(f"/api/v1/events/{event_id}/draw").json()
    listed = client.get(f"/api/v1/events/{event_id}/entries").json()
    entrants = [Entrant(str(e["id"]), e["branch_code"]) for e in listed]
    groups = draw.draw_groups(entrants, public["seed"], group_names=("A", "B"), separate_branches=True)
    by_id = {e.entry_id: e for e in entrants}
    expected = [
        {
            "group": g.name,
            "slots": [
                int(s) if s else None
                for s in knockout.draw_bracket([by_id[i] for i in g.entry_ids], public["seed"]).slots
            ],
        }
        for g in groups.groups
    ]
    assert public["result"]["brackets"] == expected

    generated = client.post(f"/api/v1/events/{event_id}/rounds/1/generate", json={}, headers=union.headers)
    assert generated.status_code == 200, generated.text
    matches = generated.json()["matches"]
    # 6 and 5 entries: brackets of 8 with 2 and 3 byes, each bye a match of one entry without a table
    byes = [m for m in matches if m["is_bye"]]
    assert len(byes) == 5
    assert all(len(m["entries"]) == 1 and m["table_nos"] == [] for m in byes)
    played = [m for m in matches if not m["is_bye"]]
    assert sorted(t for m in played for t in m["table_nos"]) == list(range(1, len(played) + 1))
    assert generated.json()["report"]["byes"] == [m["entries"][0]["entry_id"] for m in byes]
    # round 2 waits for round 1
    assert_problem(
        client.post(f"/api/v1/events/{event_id}/rounds/2/generate", json={}, headers=referee),
        409,
        "previous-round-missing",
    )
