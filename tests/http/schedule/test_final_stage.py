"""Seed 004 §三.1 through HTTP: group round robins, the top two of each group into a final round
robin numbered by a new verifiable draw, places 1–4 from the final; and the event's end.

Every expectation is computed here from the results the test posts, never read back.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from fastapi.testclient import TestClient

from domain.schedule import draw, roundrobin
from domain.schedule.entrants import Entrant, Group
from tests.helpers import assert_problem
from tests.http.events.union_system import Clock, UnionSystem
from tests.http.schedule.conftest import Field, fill

WINDOW = {
    "registration_opens_at": "2023-12-13T00:00:00+08:00",
    "registration_closes_at": "2023-12-20T16:00:00+08:00",
}
# games of a best of 3 from the stronger player's view, by meeting: 2–0, 2–1, a draw then two wins
SCRIPTS = (("1-0", "1-0"), ("1-0", "0-1", "1-0"), ("½-½", "1-0", "1-0"))
FLIP = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½"}
HALVES = {"1-0": (2, 0), "½-½": (1, 1), "0-1": (0, 2)}


def chess_event() -> dict[str, Any]:
    return {
        "name": "中国象棋",
        "discipline": "xiangqi",
        "entry_kind": "individual",
        "format": "round_robin",
        "preset": "hlju-2016-xiangqi",
        **WINDOW,
        # seed 004 §三.1: 小组循环赛制，取前两名，第二阶段单循环决定名次
        "config": {"groups": ["A", "B"], "advance_per_group": 2, "awards": {"top_n": 4}},
    }


def knockout_event() -> dict[str, Any]:
    return {
        "name": "教职工掼蛋比赛",
        "discipline": "guandan",
        "entry_kind": "pair",
        "format": "knockout",
        "preset": "institute-2021",
        **WINDOW,
        "config": {
            "rounds": 3,
            # seed 003 §十: round-3 winners first prize, round-3 losers second, round-2 losers third
            "awards": {
                "tiers": [
                    {"name": "一等奖", "round": 3, "result": "winners"},
                    {"name": "二等奖", "round": 3, "result": "losers"},
                    {"name": "三等奖", "round": 2, "result": "losers"},
                ]
            },
        },
    }


class Tally:
    """Match points 2/1/0 from the posted games (the hlju-2016 presets), per entry."""

    def __init__(self) -> None:
        self.points: dict[int, int] = {}

    def add(self, first: int, second: int, games: list[str]) -> None:
        halves = [HALVES[g] for g in games]
        a, b = sum(h[0] for h in halves), sum(h[1] for h in halves)
        self.points[first] = self.points.get(first, 0) + (2 if a > b else 1 if a == b else 0)
        self.points[second] = self.points.get(second, 0) + (2 if b > a else 1 if a == b else 0)

    def ranks(self, entries: list[int]) -> dict[int, int]:
        ordered = sorted(entries, key=lambda e: -self.points[e])
        assert len({self.points[e] for e in entries}) == len(entries), "the script leaves no tie"
        return {entry: place for place, entry in enumerate(ordered, start=1)}


def play_round(
    client: TestClient,
    referee: dict[str, str],
    path: str,
    *,
    strength: dict[int, int],
    tally: Tally,
    confirm_last: bool = True,
) -> list[dict[str, Any]]:
    """Generates, publishes and starts the round at ``path``, plays every meeting by SCRIPTS (the
    stronger player wins) and finishes it; with ``confirm_last`` false the last game keeps one
    confirmation missing and a referee finishes the round over it."""
    assert client.post(f"{path}/generate", json={}, headers=referee).status_code == 200
    assert client.post(f"{path}/publish", headers=referee).status_code == 200
    started = client.post(f"{path}/start", headers=referee)
    assert started.status_code == 200, started.text
    tables = started.json()["tables"]
    for k, table in enumerate(tables):
        first, second = table["seats"]["first"]["entry_id"], table["seats"]["second"]["entry_id"]
        assert table["first_movers"] == ["first", "second", "first"]  # 三局两胜制, moves alternate
        stronger_first = strength[first] > strength[second]
        games = [g if stronger_first else FLIP[g] for g in SCRIPTS[(first + second) % len(SCRIPTS)]]
        game_id = table["game_id"]
        for game_no, result in enumerate(games, start=1):
            body = {"game_no": game_no, "result": result}
            posted = client.post(f"/api/v1/games/{game_id}/match-games", json=body, headers=referee)
            assert posted.status_code == 200, posted.text
        assert posted.json()["state"] == "ended"
        tally.add(first, second, games)
        last = k == len(tables) - 1
        for side in ("NS", "EW") if confirm_last or not last else ("NS",):
            confirmed = client.post(
                f"/api/v1/games/{game_id}/confirmations", json={"side": side}, headers=referee
            )
            assert confirmed.status_code == 200, confirmed.text
    finish = {} if confirm_last else {"override": True, "reason": "the second scorer left; confirms later"}
    assert client.post(f"{path}/finish", json=finish, headers=referee).status_code == 200
    return list(tables)


def meetings(tables: list[dict[str, Any]]) -> list[frozenset[int]]:
    return [frozenset((t["seats"]["first"]["entry_id"], t["seats"]["second"]["entry_id"])) for t in tables]


def test_group_round_robins_then_a_final_drawn_anew_give_places_one_to_four(
    union: UnionSystem, client: TestClient, clock: Clock, referee: dict[str, str]
) -> None:
    field: Field = fill(union, chess_event(), entries=6, people=1)
    event_id = field.event_id
    strength = {entry: (entry * 7919) % 101 for entry in field.entry_ids}  # distinct, not the id order
    assert len(set(strength.values())) == 6
    assert client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=union.headers).status_code == 201
    assert client.post(f"/api/v1/events/{event_id}/draw", headers=union.headers).status_code == 201
    groups = client.get(f"/api/v1/events/{event_id}/stages/main/draw").json()["result"]["groups"]
    assert sorted(len(ids) for ids in groups.values()) == [3, 3]

    group_tally = Tally()
    played: list[frozenset[int]] = []
    final_draw = f"/api/v1/events/{event_id}/stages/final/draw"
    for number in (1, 2, 3):  # three players: the Berger tables of four, one bye a round
        base = f"/api/v1/events/{event_id}/rounds/{number}"
        last = number == 3
        played += meetings(
            play_round(client, referee, base, strength=strength, tally=group_tally, confirm_last=not last)
        )
        if number == 1:
            # the final's seed is committed while the groups play; the draw waits for them
            assert client.post(f"{final_draw}/commitment", headers=union.headers).status_code == 201
            assert_problem(client.post(final_draw, headers=union.headers), 409, "stage-not-over")
    # single round robin in each group: every pair once, nobody across groups
    assert sorted(map(sorted, played)) == sorted(
        sorted(pair) for ids in groups.values() for pair in combinations(ids, 2)
    )

    # one group result is not final yet: the draw lists it, unless a referee overrides
    refused = client.post(final_draw, headers=union.headers)
    assert_problem(refused, 409, "results-not-final")
    unconfirmed = refused.json()["games_not_final"]
    assert len(unconfirmed) == 1
    assert client.get(f"/api/v1/events/{event_id}").json()["state"] == "running"
    confirmed = client.post(
        f"/api/v1/games/{unconfirmed[0]}/confirmations", json={"side": "EW"}, headers=referee
    )
    assert confirmed.status_code == 200

    ran = client.post(final_draw, headers=union.headers)
    assert ran.status_code == 201, ran.text
    made = client.get(final_draw).json()
    assert draw.verify_commitment(made["seed"], made["commitment"])
    qualified = {
        name: sorted(
            (e for e, rank in group_tally.ranks(ids).items() if rank <= 2),
            key=lambda e: -group_tally.points[e],
        )
        for name, ids in groups.items()
    }
    assert made["result"]["qualified"] == qualified
    assert made["entry_ids"] == sorted(e for ids in qualified.values() for e in ids)
    # anyone reruns the numbering from the revealed seed
    rerun = draw.draw_order([Entrant(str(e)) for e in made["entry_ids"]], made["seed"])
    assert made["result"]["groups"] == {"final": [int(e) for e in rerun]}
    by_lot = roundrobin.final_group(
        [Group(name, tuple(str(e) for e in ids)) for name, ids in qualified.items()], made["seed"]
    )
    assert list(by_lot.entry_ids) == [str(e) for e in made["result"]["groups"]["final"]]
    main = client.get(f"/api/v1/events/{event_id}/standings", params={"stage": "main"}).json()
    assert {g["group"] for g in main["groups"]} == {"A", "B"}

    final_tally = Tally()
    finals: list[frozenset[int]] = []
    for number in (1, 2, 3):
        base = f"/api/v1/events/{event_id}/stages/final/rounds/{number}"
        tables = play_round(client, referee, base, strength=strength, tally=final_tally)
        assert {t["group"] for t in tables} == {"final"}
        finals += meetings(tables)
        if number < 3:
            assert client.get(f"/api/v1/events/{event_id}").json()["state"] == "running"
    assert sorted(map(sorted, finals)) == sorted(sorted(p) for p in combinations(made["entry_ids"], 2))
    rounds = client.get(f"/api/v1/events/{event_id}/rounds").json()
    assert {(r["stage"], r["number"], r["state"]) for r in rounds} == {
        (stage, n, "finished") for stage in ("main", "final") for n in (1, 2, 3)
    }

    # the last round of the last stage is finished with every result final: the event ends
    assert client.get(f"/api/v1/events/{event_id}").json()["state"] == "finished"
    places = final_tally.ranks(made["entry_ids"])
    table = client.get(f"/api/v1/events/{event_id}/standings", params={"stage": "final"}).json()
    assert {row["entry_id"]: row["rank"] for g in table["groups"] for row in g["rows"]} == places
    awards = client.get(f"/api/v1/events/{event_id}/awards").json()
    assert awards["final"] is True
    assert {a["entry_id"]: a["rank"] for a in awards["awards"]} == places

    # the public game view names the chess players and their branches, nothing private
    game = client.get(f"/api/v1/games/{tables[0]['game_id']}").json()
    first = tables[0]["seats"]["first"]["entry_id"]
    assert (game["ns"]["players"], game["ns"]["branch"]) == (field.players[first], field.branches[first])
    assert "13900000000" not in str(game) and "S00" not in str(game)


def test_a_knockout_ends_when_its_last_result_is_final_and_its_prize_tiers_are_final(
    union: UnionSystem, client: TestClient, clock: Clock, referee: dict[str, str]
) -> None:
    field = fill(union, knockout_event(), entries=8, people=2)
    event_id = field.event_id
    assert client.post(f"/api/v1/events/{event_id}/draw/commitment", headers=union.headers).status_code == 201
    assert client.post(f"/api/v1/events/{event_id}/draw", headers=union.headers).status_code == 201
    lost_in: dict[int, int] = {}
    winner = 0
    for number in (1, 2, 3):
        base = f"/api/v1/events/{event_id}/rounds/{number}"
        assert client.post(f"{base}/generate", json={}, headers=referee).status_code == 200
        assert client.post(f"{base}/publish", headers=referee).status_code == 200
        tables = client.post(f"{base}/start", headers=referee).json()["tables"]
        for table in tables:
            ns, ew = table["seats"]["N"]["entry_id"], table["seats"]["E"]["entry_id"]
            # the lower entry id wins: it is the other side that did not come
            losing = "EW" if ns < ew else "NS"
            body = {"forfeiting": losing, "reason": "late_arrival"}
            assert (
                client.post(
                    f"/api/v1/games/{table['game_id']}/forfeit", json=body, headers=referee
                ).status_code
                == 200
            )
            lost_in[max(ns, ew)] = number
            winner = min(ns, ew)
            sides = ("NS", "EW") if number < 3 else ("NS",)
            for side in sides:
                assert (
                    client.post(
                        f"/api/v1/games/{table['game_id']}/confirmations",
                        json={"side": side},
                        headers=referee,
                    ).status_code
                    == 200
                )
        if number < 3:
            assert client.post(f"{base}/finish", json={}, headers=referee).status_code == 200
            assert_problem(union.move(event_id, "finished"), 409, "play-not-over")
    # the final is finished by a referee over a result not yet confirmed: the event runs on
    override = {"override": True, "reason": "the losing pair signs the sheet later"}
    assert (
        client.post(f"/api/v1/events/{event_id}/rounds/3/finish", json=override, headers=referee).status_code
        == 200
    )
    assert client.get(f"/api/v1/events/{event_id}").json()["state"] == "running"
    early = union.move(event_id, "finished")
    assert_problem(early, 409, "play-not-over")
    assert early.json()["games_not_final"] == [tables[0]["game_id"]]
    assert client.get(f"/api/v1/events/{event_id}/awards").json()["final"] is False
    last = client.post(
        f"/api/v1/games/{tables[0]['game_id']}/confirmations", json={"side": "EW"}, headers=referee
    )
    assert last.status_code == 200
    assert union.move(event_id, "finished").status_code == 200

    expected = {winner: "一等奖"} | {
        entry: {3: "二等奖", 2: "三等奖"}[round_no] for entry, round_no in lost_in.items() if round_no >= 2
    }
    awards = client.get(f"/api/v1/events/{event_id}/awards").json()
    assert awards["final"] is True
    assert {a["entry_id"]: a["prize"] for a in awards["awards"]} == expected
    assert_problem(union.move(event_id, "running"), 409, "event-transition")
