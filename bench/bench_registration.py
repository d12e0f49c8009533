"""One bulk sync of 60 branches and 2,000 members from the union system, through HTTP.

The target: one call. Baseline, measured in the same run on an equally fresh database: a bare
executemany insert of the same 60 + 2,000 rows. Each run starts from a copy of a migrated SQLite
template, so both sides pay the same first-write costs.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from api.app import create_app
from domain.access import service as access_service
from storage import migrate
from storage.db import make_engine, unit_of_work
from storage.tables import Branch, Member, utcnow
from zhisai.settings import Settings

BRANCHES = 60
MEMBERS = 2000
RUNS = 5


def directory() -> dict[str, list[dict[str, Any]]]:
    return {
        "branches": [
            {"code": f"B{b:02d}", "name": f"第{b}分工会", "member_count": 20 + b} for b in range(BRANCHES)
        ],
        "members": [
            {
                "staff_id": f"{20000000 + m}",
                "name": f"会员{m}",
                "branch_code": f"B{m % BRANCHES:02d}",
                "phone": f"138{m:08d}",
                "is_dean_or_secretary": m % 97 == 0,
            }
            for m in range(MEMBERS)
        ],
    }


def through_http(url: str, body: dict[str, Any]) -> float:
    app = create_app(
        Settings(
            database_url=url,
            secret_key="b" * 40,
            environment="test",
            log_level="WARNING",
            webhook_delivery_enabled=False,
        )
    )
    with unit_of_work(app.state.engine) as session:
        secret = access_service.create_key(session, name="bench", role="union").secret
    with TestClient(app) as client:
        start = time.perf_counter()
        response = client.post(
            "/api/v1/members/bulk", json=body, headers={"Authorization": f"Bearer {secret}"}
        )
        elapsed = time.perf_counter() - start
    report = response.json()
    assert response.status_code == 200, report
    assert report["members_created"] == MEMBERS, report
    return elapsed * 1000


def bare_insert(url: str, body: dict[str, Any]) -> float:
    engine = make_engine(url)
    now = utcnow()
    start = time.perf_counter()
    with engine.begin() as conn:
        conn.execute(
            insert(Branch), [{**row, "created_at": now, "updated_at": now} for row in body["branches"]]
        )
        ids = {code: branch_id for branch_id, code in conn.execute(select(Branch.id, Branch.code))}
        conn.execute(
            insert(Member),
            [
                {
                    "staff_id": m["staff_id"],
                    "name": m["name"],
                    "branch_id": ids[m["branch_code"]],
                    "phone": m["phone"],
                    "is_union_member": True,
                    "is_school_leader": False,
                    "is_dean_or_secretary": m["is_dean_or_secretary"],
                    "created_at": now,
                    "updated_at": now,
                }
                for m in body["members"]
            ],
        )
    elapsed = time.perf_counter() - start
    engine.dispose()
    return elapsed * 1000


def median_ms(template: Path, work: Callable[[str, dict[str, Any]], float], body: dict[str, Any]) -> float:
    timings = []
    for run in range(RUNS):
        copy = template.with_name(f"run-{work.__name__}-{run}.db")
        shutil.copyfile(template, copy)
        timings.append(work(f"sqlite:///{copy}", body))
    return statistics.median(timings)


def main() -> None:
    body = directory()
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template.db"
        migrate.upgrade(f"sqlite:///{template}")
        http = median_ms(template, through_http, body)
        base = median_ms(template, bare_insert, body)
    print(f"bulk sync: {BRANCHES} branches + {MEMBERS} members in one POST /api/v1/members/bulk (SQLite)")
    print(f"through HTTP (validate, upsert, report), median of {RUNS}: {http:8.1f} ms")
    print(f"baseline bare executemany insert, median of {RUNS}:      {base:8.1f} ms")
    print(f"ratio HTTP / baseline: {http / base:.1f}x")


if __name__ == "__main__":
    main()
