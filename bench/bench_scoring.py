"""Scoring under load: 1,000 pair entries after 6 rounds (3,000 games of ~12 deals).

Measures, in-process through HTTP on SQLite (a temporary file):
- posting a deal with 50 concurrent scorers: median, p99 latency and requests per second;
- baseline in the same run: a bare route on the same app and database doing one insert;
- standings: the recompute after one new deal, and the cached read (plain and If-None-Match).
Aims: a posted deal under 10 ms median, recompute under 200 ms, cached read under 5 ms.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import anyio.to_thread
from fastapi.testclient import TestClient

from api.app import create_app
from api.deps import SessionDep
from domain.access import service as access_service
from domain.rules.levels import DealResult, Seat
from domain.rules.ruleset import preset
from domain.scoring import service
from domain.scoring.judge import judge
from storage import migrate
from storage.db import unit_of_work
from storage.tables import AuditEntry, Deal, GameResult, utcnow
from tests.integration.scoring.scoring_rows import T0, make_entries, make_event, make_game, make_round
from zhisai.settings import Settings

ENTRIES = 1000
ROUNDS = 6
DEALS = 12
SCORERS = 50
POSTS = 1000
PRESET = "nsi-2023"


def build(app_engine: object, rng: random.Random) -> tuple[int, list[int]]:
    """Five rounds final, round 6 published with no deal yet; returns the event and round-6 games."""
    rules = preset(PRESET)
    seats = list(Seat)
    with unit_of_work(app_engine) as session:  # type: ignore[arg-type]
        event = make_event(session, preset=PRESET)
        entries = make_entries(session, event, [f"pair-{k:04d}" for k in range(ENTRIES)])
        live: list[int] = []
        for number in range(1, ROUNDS + 1):
            round_ = make_round(session, event, number)
            order = entries[:]
            rng.shuffle(order)
            for match_no, (ns, ew) in enumerate(zip(order[::2], order[1::2], strict=True), start=1):
                (game,) = make_game(session, round_, ns, ew, match_no=match_no)
                assert game.id is not None
                if number == ROUNDS:
                    live.append(game.id)
                    continue
                deals: list[DealResult] = []
                for _ in range(DEALS):
                    rng.shuffle(seats)
                    candidate = [*deals, DealResult([s.value for s in seats])]
                    if judge(deals, rules).trajectory.over:
                        break
                    deals = candidate
                verdict = judge(deals, rules, time_up_after=len(deals))
                session.add_all(
                    Deal(
                        game_id=game.id,
                        deal_no=n,
                        finish_order=list(d.finish_order),
                        posted_by="bench",
                        created_at=T0,
                        updated_at=T0,
                    )
                    for n, d in enumerate(deals, start=1)
                )
                session.add(
                    GameResult(
                        game_id=game.id,
                        event_id=game.event_id,
                        state="final",
                        time_up_after=len(deals),
                        outcome=service._snapshot(verdict),
                        final_at=T0,
                        updated_at=T0,
                    )
                )
            session.flush()
        assert event.id is not None
        return event.id, live


def timed(calls: list[Callable[[], int]], *, workers: int) -> tuple[list[float], float]:
    """Run ``calls`` on ``workers`` threads, call k on thread k mod workers in order (a scorer posts
    its own game's deals one after the other); per-call latencies (ms) and the wall time (s)."""
    latencies: list[float] = []
    lock = threading.Lock()

    def worker(mine: list[Callable[[], int]]) -> None:
        for call in mine:
            started = time.perf_counter()
            status = call()
            elapsed = (time.perf_counter() - started) * 1000
            assert status in (200, 201), status
            with lock:
                latencies.append(elapsed)

    threads = [threading.Thread(target=worker, args=(calls[k::workers],)) for k in range(workers)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, time.perf_counter() - began


def report(name: str, latencies: list[float], wall: float) -> float:
    ordered = sorted(latencies)
    median = statistics.median(ordered)
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    print(f"{name:<34} median {median:7.2f} ms   p99 {p99:7.2f} ms   {len(ordered) / wall:7.0f} req/s")
    return median


def main() -> None:
    rng = random.Random(2023)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        migrate.upgrade(url)
        app = create_app(
            Settings(
                database_url=url,
                secret_key="b" * 40,
                environment="test",
                public_rate_limit_per_minute=1_000_000,
                log_level="WARNING",  # the figures, not a log line per request
                webhook_delivery_enabled=False,
            )
        )
        app.state.clock = lambda: T0 + timedelta(minutes=20)

        @app.post("/bench/baseline", status_code=201)
        def baseline(session: SessionDep) -> dict[str, bool]:
            session.add(
                AuditEntry(entity="bench", entity_id=0, action="insert", actor="bench", created_at=utcnow())
            )
            return {"ok": True}

        started = time.perf_counter()
        event_id, live = build(app.state.engine, rng)
        print(
            f"built {ENTRIES} pairs, {ROUNDS} rounds ({ROUNDS * ENTRIES // 2} games) in {time.perf_counter() - started:.1f} s"
        )
        with unit_of_work(app.state.engine) as session:
            referee = access_service.create_key(session, name="bench", role="referee").secret
        with TestClient(app) as client:
            client.portal.call(
                lambda: setattr(anyio.to_thread.current_default_thread_limiter(), "total_tokens", 2 * SCORERS)
            )
            round_id = client.get(f"/api/v1/games/{live[0]}").json()["round_id"]
            tokens = {
                row["game_id"]: row["token"]
                for row in client.get(
                    f"/api/v1/rounds/{round_id}/scorer-tokens", headers={"Authorization": f"Bearer {referee}"}
                ).json()
            }
            next_deal = dict.fromkeys(live, 1)
            posts: list[Callable[[], int]] = []
            for index in range(POSTS + len(live)):
                game_id = live[index % len(live)]
                deal_no = next_deal[game_id]
                next_deal[game_id] += 1
                order = (
                    ["N", "E", "S", "W"] if deal_no % 2 else ["E", "N", "W", "S"]
                )  # +2 each way: no pass A
                body = {"deal_no": deal_no, "finish_order": order}
                headers = {
                    "Authorization": f"Bearer {tokens[game_id]}",
                    "Idempotency-Key": f"{game_id}-{deal_no}",
                }
                posts.append(
                    lambda g=game_id, b=body, h=headers: (
                        client.post(f"/api/v1/games/{g}/deals", json=b, headers=h).status_code
                    )
                )
            base = [lambda: client.post("/bench/baseline").status_code for _ in range(POSTS)]
            report("post a deal, one scorer", *timed(posts[: len(live)], workers=1))
            posts = posts[len(live) :]
            base_median = report("baseline: bare route, one insert", *timed(base, workers=SCORERS))
            deal_median = report(f"post a deal, {SCORERS} scorers", *timed(posts, workers=SCORERS))
            print(f"{'ratio deal / baseline':<34} {deal_median / base_median:7.2f}x")

            url_standings = f"/api/v1/events/{event_id}/standings"
            recompute = []
            for index in range(7):
                game_id = live[-1 - index]
                client.post(
                    f"/api/v1/games/{game_id}/deals",
                    json={"deal_no": next_deal[game_id], "finish_order": ["N", "S", "E", "W"]},
                    headers={"Authorization": f"Bearer {tokens[game_id]}"},
                )
                next_deal[game_id] += 1
                began = time.perf_counter()
                answer = client.get(url_standings, params={"provisional": "true"})
                recompute.append((time.perf_counter() - began) * 1000)
                assert answer.status_code == 200
            print(f"{'standings recompute after a deal':<34} median {statistics.median(recompute):7.2f} ms")
            etag = answer.headers["etag"]
            cached, not_modified = [], []
            for _ in range(200):
                began = time.perf_counter()
                client.get(url_standings, params={"provisional": "true"})
                cached.append((time.perf_counter() - began) * 1000)
                began = time.perf_counter()
                unchanged = client.get(
                    url_standings, params={"provisional": "true"}, headers={"If-None-Match": etag}
                )
                assert unchanged.status_code == 304, (
                    unchanged.status_code,
                    etag,
                    unchanged.headers.get("etag"),
                )
                not_modified.append((time.perf_counter() - began) * 1000)
            print(f"{'standings cached read':<34} median {statistics.median(cached):7.2f} ms")
            print(f"{'standings If-None-Match (304)':<34} median {statistics.median(not_modified):7.2f} ms")


if __name__ == "__main__":
    main()
