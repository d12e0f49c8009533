"""The baseline for bench_http.py: a bare FastAPI app whose one route does one insert.

Served by uvicorn exactly like the real app (``uvicorn bench.bare_app:create --factory``), on the
same database (ZHISAI_DATABASE_URL), so the ratio is the price of zhisai's own work per request.
"""

from __future__ import annotations

import os

from fastapi import FastAPI
from sqlalchemy import text

from storage.db import make_engine, unit_of_work


def create() -> FastAPI:
    engine = make_engine(os.environ["ZHISAI_DATABASE_URL"])
    with unit_of_work(engine) as session:
        session.connection().exec_driver_sql(
            "CREATE TABLE IF NOT EXISTS bench_bare (id INTEGER PRIMARY KEY, note VARCHAR(40))"
            if engine.dialect.name == "sqlite"
            else "CREATE TABLE IF NOT EXISTS bench_bare (id SERIAL PRIMARY KEY, note VARCHAR(40))"
        )
    app = FastAPI()

    @app.post("/insert", status_code=201)
    def insert() -> dict[str, bool]:
        with unit_of_work(engine) as session:
            session.connection().execute(text("INSERT INTO bench_bare (note) VALUES ('deal')"))
        return {"ok": True}

    @app.get("/api/v1/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
