"""``zhisai demo`` on a temporary database: the seed is played, and the app serves it afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from zhisai import cli, demo
from zhisai.settings import Settings


def _settings(url: str) -> Settings:
    return Settings(database_url=url, secret_key="d" * 40, environment="test", json_logs=False)


@pytest.mark.slow
def test_the_demo_loads_seed_003_and_the_app_serves_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"  # an empty file: the demo migrates it
    lines: list[str] = []
    assert demo.run("003", _settings(url), say=lines.append) == 0
    assert any("round 3" in line for line in lines)
    with TestClient(create_app(_settings(url))) as client:
        awards = client.get("/api/v1/events/1/awards").json()["awards"]
        assert sorted({a["prize"] for a in awards}) == ["一等奖", "三等奖", "二等奖"]
        assert client.get("/api/v1/rounds/1/page").status_code == 200


@pytest.mark.slow
def test_the_demo_loads_seed_004_and_the_app_serves_its_four_events(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    lines: list[str] = []
    assert demo.run("004", _settings(url), say=lines.append) == 0
    events = {"xiangqi": 1, "go": 2, "guandan": 3, "gongzhu": 4}  # created in this order
    for name, event_id in events.items():
        assert any(
            line.strip().startswith(f"/api/v1/events/{event_id}/standings") and name in line for line in lines
        )
    with TestClient(create_app(_settings(url))) as client:
        for name, event_id in events.items():
            assert client.get(f"/api/v1/events/{event_id}").json()["discipline"] == name
            places = sorted(
                a["rank"] for a in client.get(f"/api/v1/events/{event_id}/awards").json()["awards"]
            )
            # places 1–4; a tie the final round robin leaves shares its place (1, 2, 2, 4)
            assert len(places) == 4 and places[0] == 1 and places[-1] <= 4, (name, places)


def test_a_seed_without_a_script_is_refused(tmp_path: Path) -> None:
    assert demo.run("005", _settings(f"sqlite:///{tmp_path / 'x.db'}")) == 2
    assert cli.build_parser().parse_args(["demo", "--seed", "004"]).seed == "004"
