"""``zhisai demo``: one of the seed competitions loaded into the configured database.

The same script the scenario tests run (``zhisai.scenarios``), through the app in process with the
union system's, a referee's and the scoring forms' HTTP calls, the app's clock set to the seed's
own dates. Afterwards ``make serve`` shows the draw, the rounds, their printable pages and the
standings of a real competition.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable

from tqdm import tqdm

from api.app import create_app
from domain.access import service as access_service
from storage import migrate
from storage.db import unit_of_work
from zhisai.demo_driver import Clock, Driver
from zhisai.settings import Settings

SEEDS = {
    "000": "NUIST 2023 Guandan team event, four rotating rounds",
    "001": "NSI 2023 Guandan pairs, four Swiss rounds",
    "002": "AHUT 2017 Guandan pairs knockout, groups A and B",
    "003": "2021 institute Guandan pairs knockout, prize tiers",
    "004": "HLJU 2016 chess, Go, Guandan and Gongzhu",
}
SCRIPTED = ("000", "001", "002", "003", "004")


def run(seed: str, settings: Settings, *, say: Callable[[str], None] = print) -> int:
    """Migrates the database, plays seed ``seed`` into it and prints where to look."""
    if seed not in SCRIPTED:
        print(
            f"seed {seed} ({SEEDS.get(seed, 'unknown')}) has no demo script yet; try one of {', '.join(SCRIPTED)}",
            file=sys.stderr,
        )
        return 2
    url = settings.database_url
    migrate.upgrade(url)
    say(f"database at {migrate.head_revision()} ({url.split('@')[-1]})")
    quiet = settings.model_copy(
        update={"webhook_delivery_enabled": False, "json_logs": False, "log_level": "WARNING"}
    )
    app = create_app(quiet)
    clock = Clock()
    app.state.clock = clock
    with unit_of_work(app.state.engine) as session:
        union = access_service.create_key(session, name=f"demo {seed}: union system", role="union").secret
        referee = access_service.create_key(session, name=f"demo {seed}: referee", role="referee").secret
    script = importlib.import_module(f"zhisai.scenarios.seed_{seed}")
    with warnings.catch_warnings():  # starlette's note about httpx is for library authors
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    # A live meter of the calls made (on a terminal only; tqdm stays silent when piped).
    with (
        TestClient(app, raise_server_exceptions=False) as client,
        tqdm(desc=f"seed {seed}", unit=" calls", file=sys.stderr, disable=None, leave=False) as meter,
    ):
        driver = Driver(
            client,
            union_key=union,
            referee_key=referee,
            clock=clock,
            progress=say,
            on_call=meter.update,
        )
        say(f"seed {seed}: {SEEDS[seed]}")
        record = script.run(driver)
    event_id = record.event_id
    say(f"done in {driver.calls} calls. Serve it (make serve) and open:")
    say(f"  /api/v1/events/{event_id}/draw         the draw with its commitment and revealed seed")
    say(f"  /api/v1/events/{event_id}/rounds       the rounds; /api/v1/rounds/<id>/page prints one")
    for number, body in sorted(record.rounds.items()):
        say(f"  /api/v1/rounds/{body['id']}/page         round {number}'s tables and seats")
    for name, shown in (record.events or {"the event": event_id}).items():
        say(
            f"  /api/v1/events/{shown}/standings    {name}: standings; /api/v1/events/{shown}/awards the awards"
        )
    return 0
