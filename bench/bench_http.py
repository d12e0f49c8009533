"""HTTP under concurrency against the real uvicorn server, on SQLite and on PostgreSQL.

For each store: posting deals (24 scorers, one thread each, 12 games x 8 deals, Idempotency-Key
on every post) and reading standings (24 dashboards polling), requests/s, median and p99 latency;
next to a bare baseline measured in the same run (a minimal FastAPI app, one route, one insert, on
the same database, same server), with the ratio. PostgreSQL: ZHISAI_BENCH_PG_URL, or a throwaway
cluster started here with initdb/pg_ctl (skipped when neither is available).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient

from api.app import create_app
from storage import migrate
from tests.fuzz.conftest import world_settings
from tests.fuzz.world import SECRET, World, build
from tests.helpers import bearer
from tests.http.events.union_system import Clock
from tests.load.scoring_load import DEALS, order_of
from tests.load.server import Server

CLIENTS = 24
ENTRIES = 26  # 13 games; 12 take the load
READS_PER_CLIENT = 40
BARE_PER_CLIENT = 8


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def drive(base_url: str, jobs: list[list[Callable[[httpx.Client], httpx.Response]]]) -> dict[str, float]:
    """One thread per job list; each call timed; every answer must be 2xx/304."""
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def run(calls: list[Callable[[httpx.Client], httpx.Response]]) -> None:
        with httpx.Client(base_url=base_url, timeout=60) as client:
            for call in calls:
                started = time.perf_counter()
                answer = call(client)
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    if answer.status_code >= 300 and answer.status_code != 304:
                        failures.append(f"{answer.status_code} {answer.text[:200]}")

    threads = [threading.Thread(target=run, args=(calls,)) for calls in jobs]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    assert not failures, failures[:3]
    return {
        "requests": len(latencies),
        "rps": len(latencies) / wall,
        "median_ms": statistics.median(latencies) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
    }


def prepare(url: str) -> World:
    migrate.upgrade(url)
    app = create_app(world_settings(url))
    app.state.clock = Clock()
    with TestClient(app, raise_server_exceptions=False) as client:
        world = build(client, app.state.engine, entries=ENTRIES)
    app.state.engine.dispose()
    return world


def deal_jobs_sequential(world: World) -> list[list[Callable[[httpx.Client], httpx.Response]]]:
    """One scorer per game posts deals 1..DEALS in order (a game's deals are sequential)."""
    headers = bearer(world.keys.referee)

    def post(game_id: int, deal_no: int) -> Callable[[httpx.Client], httpx.Response]:
        return lambda client: client.post(
            f"/api/v1/games/{game_id}/deals",
            json={"deal_no": deal_no, "finish_order": order_of(deal_no)},
            headers={**headers, "Idempotency-Key": f"bench-{game_id}-{deal_no}"},
        )

    games = world.game_ids[1:]
    return [[post(game_id, n) for n in range(1, DEALS + 1)] for game_id in games]


def read_jobs(world: World) -> list[list[Callable[[httpx.Client], httpx.Response]]]:
    url = f"/api/v1/events/{world.event_id}/standings?provisional=true"
    return [[lambda client: client.get(url)] * READS_PER_CLIENT for _ in range(CLIENTS)]


def bare_jobs(count: int) -> list[list[Callable[[httpx.Client], httpx.Response]]]:
    return [[lambda client: client.post("/insert")] * BARE_PER_CLIENT for _ in range(count)]


def bench_store(label: str, url: str) -> None:
    world = prepare(url)
    server = Server(url, SECRET).start()
    try:
        deals = drive(server.base_url, deal_jobs_sequential(world))
        reads = drive(server.base_url, read_jobs(world))
    finally:
        server.stop()
    bare_server = Server(url, SECRET)
    bare_server_start(bare_server)
    try:
        bare_deal = drive(bare_server.base_url, bare_jobs(len(world.game_ids) - 1))
        bare_read = drive(bare_server.base_url, bare_jobs(CLIENTS))
    finally:
        bare_server.stop()
    print(f"-- {label}")
    row = "{:<44} {:>6} {:>9.0f} {:>10.1f} {:>9.1f}"
    print("{:<44} {:>6} {:>9} {:>10} {:>9}".format("", "reqs", "req/s", "median ms", "p99 ms"))
    for name, figures in (
        (f"deal posts ({len(world.game_ids) - 1} scorers)", deals),
        (f"bare insert ({len(world.game_ids) - 1} clients)", bare_deal),
        (f"standings reads ({CLIENTS} dashboards)", reads),
        (f"bare insert ({CLIENTS} clients)", bare_read),
    ):
        print(
            row.format(
                name, int(figures["requests"]), figures["rps"], figures["median_ms"], figures["p99_ms"]
            )
        )
    print(
        f"ratios: deal post median {deals['median_ms'] / bare_deal['median_ms']:.1f}x the bare insert, "
        f"throughput {deals['rps'] / bare_deal['rps']:.2f}x; standings read median "
        f"{reads['median_ms'] / bare_read['median_ms']:.1f}x, throughput {reads['rps'] / bare_read['rps']:.2f}x"
    )


def bare_server_start(server: Server) -> None:
    """The bare app under the same uvicorn (the Server helper, another app)."""
    env = {**os.environ, "ZHISAI_DATABASE_URL": server.database_url}
    command = [sys.executable, "-m", "uvicorn", "bench.bare_app:create", "--factory", "--host", "127.0.0.1"]
    command += ["--port", str(server.port), "--log-level", "warning", "--no-access-log"]
    server.process = subprocess.Popen(command, cwd=Path(__file__).resolve().parents[1], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(server.base_url + "/api/v1/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the bare server did not start")


@contextmanager
def postgres() -> Iterator[str | None]:
    given = os.environ.get("ZHISAI_BENCH_PG_URL") or os.environ.get("ZHISAI_TEST_DATABASE_URL")
    if given:
        admin = create_engine(given, isolation_level="AUTOCOMMIT")
        name = f"zhisai_bench_{os.getpid()}"
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield make_url(given).set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
        return
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not bins or not (bins[-1] / "initdb").exists():
        yield None
        return
    pg_bin = bins[-1]
    directory = Path(tempfile.mkdtemp(prefix="zhisai-bench-pg-"))
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres")
    from tests.load.server import free_port

    port = free_port()
    subprocess.run(
        [
            *as_pg,
            str(pg_bin / "initdb"),
            "-D",
            str(directory / "data"),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_pg,
            str(pg_bin / "pg_ctl"),
            "-D",
            str(directory / "data"),
            "-l",
            str(directory / "log"),
            "-w",
            "-o",
            f"-h 127.0.0.1 -p {port} -k {directory} -c max_connections=200",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_pg, str(pg_bin / "pg_ctl"), "-D", str(directory / "data"), "-m", "fast", "-w", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bench_store("SQLite (a file, WAL)", f"sqlite:///{tmp}/bench.db")
    with postgres() as url:
        if url is None:
            print("-- PostgreSQL: skipped (no ZHISAI_BENCH_PG_URL and no initdb)")
        else:
            bench_store("PostgreSQL", url)


if __name__ == "__main__":
    main()
