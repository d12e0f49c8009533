"""The union membership system's calls and a clock the tests move (Asia/Shanghai wall times)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from fastapi.testclient import TestClient

SHANGHAI = ZoneInfo("Asia/Shanghai")


def local(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=SHANGHAI)


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: local("2023-12-14T10:00"))

    def __call__(self) -> datetime:
        return self.now

    def set(self, text: str) -> None:
        self.now = local(text)


@dataclass
class UnionSystem:
    """The union membership system's calls, as the tests need them."""

    client: TestClient
    headers: dict[str, str]

    def sync(self, branches: list[dict[str, Any]], members: list[dict[str, Any]]) -> dict[str, Any]:
        response = self.client.post(
            "/api/v1/members/bulk", json={"branches": branches, "members": members}, headers=self.headers
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert body["errors"] == [], body["errors"]
        return body

    def branch_with_members(self, code: str, *, member_count: int, people: int, **flags: bool) -> list[str]:
        """A branch and ``people`` synced members; returns their staff ids."""
        staff_ids = [f"{code}-{n:03d}" for n in range(1, people + 1)]
        self.sync(
            [{"code": code, "name": f"{code} 分工会", "member_count": member_count}],
            [
                {
                    "staff_id": s,
                    "name": f"{code} 会员{n}",
                    "branch_code": code,
                    "phone": f"139{n:08d}",
                    **flags,
                }
                for n, s in enumerate(staff_ids, start=1)
            ],
        )
        return staff_ids

    def competition(self, **fields: Any) -> int:
        response = self.client.post(
            "/api/v1/competitions", json={"name": "教职工智力赛", **fields}, headers=self.headers
        )
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    def open_event(self, competition_id: int, event: dict[str, Any]) -> int:
        """Creates the event and opens its registration."""
        created = self.client.post(
            f"/api/v1/competitions/{competition_id}/events", json=event, headers=self.headers
        )
        assert created.status_code == 201, created.text
        event_id = int(created.json()["id"])
        self.move(event_id, "registration_open")
        return event_id

    def move(self, event_id: int, to_state: str) -> Any:
        return self.client.post(
            f"/api/v1/events/{event_id}/transitions", json={"to_state": to_state}, headers=self.headers
        )

    def enter(self, event_id: int, branch_code: str, staff_ids: list[str], **fields: Any) -> Any:
        body = {"branch_code": branch_code, "roster": [{"staff_id": s} for s in staff_ids], **fields}
        return self.client.post(f"/api/v1/events/{event_id}/entries", json=body, headers=self.headers)

    def act(self, entry_id: int, action: str, **body: Any) -> Any:
        return self.client.post(
            f"/api/v1/entries/{entry_id}/{action}", json=body or None, headers=self.headers
        )


def pairs_event(**config: Any) -> dict[str, Any]:
    """Seed 001's pairs event: registration 12-15 to 12-20 16:00 (seed 001 §四)."""
    return {
        "name": "教职工掼蛋单项比赛",
        "discipline": "guandan",
        "entry_kind": "pair",
        "format": "swiss",
        "preset": "nsi-2023",
        "registration_opens_at": "2023-12-13T00:00:00+08:00",
        "registration_closes_at": "2023-12-20T16:00:00+08:00",
        "config": {"rounds": 4, **config},
    }


def team_event(**config: Any) -> dict[str, Any]:
    """Seed 000's team event: registration 12-13 to 12-22 (read as up to 12-23 00:00), four rounds."""
    times = [("13:30", "14:20"), ("14:30", "15:20"), ("15:30", "16:20"), ("16:30", "17:20")]
    return {
        "name": "迎新智力竞赛（掼蛋团体赛）",
        "discipline": "guandan",
        "entry_kind": "team",
        "format": "team_rotation",
        "preset": "nuist-2023",
        "registration_opens_at": "2023-12-13T00:00:00",  # no offset: read as Asia/Shanghai
        "registration_closes_at": "2023-12-23T00:00:00",
        "config": {
            "rounds": 4,
            "round_times": [
                {"number": n, "starts_at": f"2023-12-29T{a}:00+08:00", "ends_at": f"2023-12-29T{b}:00+08:00"}
                for n, (a, b) in enumerate(times, start=1)
            ],
            **config,
        },
    }
