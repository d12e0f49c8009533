"""The service driven over HTTP as its real clients drive it: the union system, the referees and
the scoring forms at the tables.

Domain-free on purpose: it speaks only the contract (``openapi.md``) through an httpx client,
so the scenario tests and ``zhisai demo`` exercise exactly what the clients see. Give it a
``TestClient`` over the app (in process) or an ``httpx.Client`` with a ``base_url``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx

SHANGHAI = ZoneInfo("Asia/Shanghai")
API = "/api/v1"

Json = Any


def local(text: str) -> datetime:
    """An Asia/Shanghai wall time, e.g. ``local("2023-12-29T13:30")``."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=SHANGHAI)


@dataclass
class Clock:
    """The app's clock (``app.state.clock``): the scenario moves it from step to step."""

    now: datetime = field(default_factory=lambda: local("2023-12-01T09:00"))

    def __call__(self) -> datetime:
        return self.now

    def set(self, text: str) -> None:
        self.now = local(text)


class ApiError(Exception):
    """An answer with an unexpected status; ``rule`` is the problem's stable rule, if any."""

    def __init__(self, method: str, path: str, response: httpx.Response) -> None:
        self.method = method
        self.path = path
        self.status = response.status_code
        try:
            body: Json = response.json()
        except ValueError:
            body = {"detail": response.text}
        self.body = body
        self.rule: str | None = body.get("rule") if isinstance(body, dict) else None
        detail = body.get("detail") if isinstance(body, dict) else body
        super().__init__(f"{method} {path} → {self.status} {self.rule or ''}: {detail}")


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def member_row(
    staff_id: str,
    name: str,
    branch_code: str,
    *,
    phone: str = "13900000000",
    is_school_leader: bool = False,
    is_dean_or_secretary: bool = False,
) -> dict[str, Any]:
    """A member as the union system sends it in a directory sync."""
    return {
        "staff_id": staff_id,
        "name": name,
        "branch_code": branch_code,
        "phone": phone,
        "is_school_leader": is_school_leader,
        "is_dean_or_secretary": is_dean_or_secretary,
    }


class Driver:
    """One method per client call. A call answering an unexpected status raises ``ApiError``;
    refusals a scenario expects are checked by catching it (``status``, ``rule``)."""

    def __init__(
        self,
        client: httpx.Client,
        *,
        union_key: str,
        referee_key: str,
        clock: Clock | None = None,
        progress: Callable[[str], None] | None = None,
        on_call: Callable[[], object] | None = None,
    ) -> None:
        self.client = client
        self.union = bearer(union_key)
        self.referee = bearer(referee_key)
        self.clock = clock
        self._progress = progress
        self._on_call = on_call
        self.calls = 0

    # plumbing ---------------------------------------------------------------------------

    def say(self, line: str) -> None:
        if self._progress is not None:
            self._progress(line)

    def at(self, text: str) -> None:
        """Moves the app's clock to an Asia/Shanghai wall time."""
        if self.clock is None:
            raise RuntimeError("this driver was given no clock to move")
        self.clock.set(text)

    def call(
        self,
        method: str,
        path: str,
        *,
        json: Json = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        expect: Iterable[int] = (200, 201),
    ) -> Json:
        response = self.raw(method, path, json=json, headers=headers, params=params)
        if response.status_code not in tuple(expect):
            raise ApiError(method, path, response)
        if response.headers.get("content-type", "").startswith("text/html"):
            return response.text
        return response.json() if response.content else None

    def raw(
        self,
        method: str,
        path: str,
        *,
        json: Json = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> httpx.Response:
        self.calls += 1
        if self._on_call is not None:
            self._on_call()
        return self.client.request(method, API + path, json=json, headers=dict(headers or {}), params=params)

    # the union system: directory, competitions, events, entries, lineups ----------------

    def sync(self, branches: Sequence[Mapping[str, Any]], members: Sequence[Mapping[str, Any]]) -> Json:
        """``POST /members/bulk``: branches ({code, name, member_count}) then members."""
        return self.call(
            "POST",
            "/members/bulk",
            json={"branches": list(branches), "members": list(members)},
            headers=self.union,
        )

    def create_competition(self, name: str, **fields: Any) -> int:
        body = self.call("POST", "/competitions", json={"name": name, **fields}, headers=self.union)
        return int(body["id"])

    def create_event(self, competition_id: int, event: Mapping[str, Any]) -> Json:
        return self.call(
            "POST", f"/competitions/{competition_id}/events", json=dict(event), headers=self.union
        )

    def event(self, event_id: int) -> Json:
        return self.call("GET", f"/events/{event_id}")

    def transition(self, event_id: int, to_state: str) -> Json:
        return self.call(
            "POST", f"/events/{event_id}/transitions", json={"to_state": to_state}, headers=self.union
        )

    def create_entry(
        self,
        event_id: int,
        *,
        branch_code: str,
        roster: Sequence[str | Mapping[str, Any]],
        name: str | None = None,
        leader: Mapping[str, str] | None = None,
        outside_quota: bool = False,
    ) -> Json:
        """Forms an entry (draft). ``roster`` items are staff ids or roster rows."""
        rows = [{"staff_id": item} if isinstance(item, str) else dict(item) for item in roster]
        body: dict[str, Any] = {"branch_code": branch_code, "roster": rows, "outside_quota": outside_quota}
        if name is not None:
            body["name"] = name
        if leader is not None:
            body["leader"] = dict(leader)
        return self.call("POST", f"/events/{event_id}/entries", json=body, headers=self.union)

    def submit_entry(self, entry_id: int) -> Json:
        return self.call("POST", f"/entries/{entry_id}/submit", headers=self.union)

    def confirm_entry(self, entry_id: int) -> Json:
        return self.call("POST", f"/entries/{entry_id}/confirm", headers=self.union)

    def enter(self, event_id: int, **entry: Any) -> int:
        """Forms, submits and confirms an entry; answers its id (see ``create_entry``)."""
        entry_id = int(self.create_entry(event_id, **entry)["id"])
        self.submit_entry(entry_id)
        self.confirm_entry(entry_id)
        return entry_id

    def entries(self, event_id: int, *, status: str | None = None) -> Json:
        params = {"status": status} if status else None
        return self.call("GET", f"/events/{event_id}/entries", params=params)

    def set_lineup(self, entry_id: int, round_number: int, pairs: Sequence[tuple[str, str]]) -> Json:
        """The leader names the team's pairs for a round, pair_no 1..N in order (staff ids)."""
        body = {"pairs": [{"pair_no": n, "players": list(p)} for n, p in enumerate(pairs, start=1)]}
        return self.call("PUT", f"/entries/{entry_id}/lineups/{round_number}", json=body, headers=self.union)

    def lineup(self, entry_id: int, round_number: int) -> Json:
        return self.call("GET", f"/entries/{entry_id}/lineups/{round_number}")

    # draws and rounds (union or referee) --------------------------------------------------

    def commit_draw(self, event_id: int) -> Json:
        return self.call("POST", f"/events/{event_id}/draw/commitment", headers=self.union)

    def run_draw(self, event_id: int) -> Json:
        return self.call("POST", f"/events/{event_id}/draw", headers=self.union)

    def physical_draw(self, event_id: int, body: Mapping[str, Any]) -> Json:
        return self.call("POST", f"/events/{event_id}/draw/physical", json=dict(body), headers=self.referee)

    def draw(self, event_id: int) -> Json:
        return self.call("GET", f"/events/{event_id}/draw")

    def generate_round(self, event_id: int, number: int, *, override: bool = False, reason: str = "") -> Json:
        body = {"override": True, "reason": reason} if override else {}
        return self.call(
            "POST", f"/events/{event_id}/rounds/{number}/generate", json=body, headers=self.referee
        )

    def publish_round(self, event_id: int, number: int) -> Json:
        return self.call("POST", f"/events/{event_id}/rounds/{number}/publish", headers=self.referee)

    def start_round(self, event_id: int, number: int) -> Json:
        return self.call("POST", f"/events/{event_id}/rounds/{number}/start", headers=self.referee)

    def finish_round(self, event_id: int, number: int) -> Json:
        return self.call("POST", f"/events/{event_id}/rounds/{number}/finish", headers=self.referee)

    def rounds(self, event_id: int) -> Json:
        return self.call("GET", f"/events/{event_id}/rounds")

    def round(self, round_id: int, *, as_referee: bool = False) -> Json:
        return self.call("GET", f"/rounds/{round_id}", headers=self.referee if as_referee else None)

    def round_page(self, round_id: int) -> str:
        page: str = self.call("GET", f"/rounds/{round_id}/page")
        return page

    def scorer_tokens(self, round_id: int) -> dict[int, str]:
        """The referee prints one token per game on the score sheets: game id → token."""
        rows = self.call("GET", f"/rounds/{round_id}/scorer-tokens", headers=self.referee)
        return {int(row["game_id"]): str(row["token"]) for row in rows}

    # the scoring form at a table (its scorer token) and the referees ------------------------

    def game(self, game_id: int) -> Json:
        return self.call("GET", f"/games/{game_id}")

    def post_deal(
        self,
        game_id: int,
        token: str,
        deal_no: int,
        finish_order: Sequence[str],
        *,
        tribute: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Json:
        """One deal's finishing order by seat, first to last; answers {deal, game}."""
        body: dict[str, Any] = {"deal_no": deal_no, "finish_order": list(finish_order)}
        if tribute is not None:
            body["tribute"] = dict(tribute)
        headers = bearer(token)
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        return self.call("POST", f"/games/{game_id}/deals", json=body, headers=headers)

    def time_up(self, game_id: int, token: str, *, deals_completed: int | None = None) -> Json:
        body = {} if deals_completed is None else {"deals_completed": deals_completed}
        return self.call("POST", f"/games/{game_id}/time-up", json=body, headers=bearer(token))

    def final_result(self, game_id: int, token: str, result: Mapping[str, Any]) -> Json:
        return self.call("POST", f"/games/{game_id}/final-result", json=dict(result), headers=bearer(token))

    def confirm_game(self, game_id: int, token: str, side: str) -> Json:
        return self.call(
            "POST", f"/games/{game_id}/confirmations", json={"side": side}, headers=bearer(token)
        )

    def confirm_both(self, game_id: int, token: str) -> Json:
        self.confirm_game(game_id, token, "NS")
        return self.confirm_game(game_id, token, "EW")

    def forfeit(self, game_id: int, forfeiting: str, *, reason: str = "late_arrival", note: str = "") -> Json:
        body = {"forfeiting": forfeiting, "reason": reason, "note": note}
        return self.call("POST", f"/games/{game_id}/forfeit", json=body, headers=self.referee)

    def penalty(
        self, game_id: int, seat: str, kind: str, *, deal_no: int | None = None, note: str = ""
    ) -> Json:
        body: dict[str, Any] = {"seat": seat, "kind": kind, "note": note}
        if deal_no is not None:
            body["deal_no"] = deal_no
        return self.call("POST", f"/games/{game_id}/penalties", json=body, headers=self.referee)

    def correct_deal(self, game_id: int, deal_no: int, finish_order: Sequence[str], *, reason: str) -> Json:
        body = {"reason": reason, "deal_no": deal_no, "finish_order": list(finish_order)}
        return self.call("POST", f"/games/{game_id}/corrections", json=body, headers=self.referee)

    def audit(self, game_id: int) -> Json:
        return self.call("GET", f"/games/{game_id}/audit", headers=self.referee)

    # dashboards ---------------------------------------------------------------------------

    def standings(self, event_id: int, *, provisional: bool = False, stage: str | None = None) -> Json:
        params: dict[str, Any] = {"provisional": str(provisional).lower()}
        if stage is not None:
            params["stage"] = stage
        return self.call("GET", f"/events/{event_id}/standings", params=params)

    def awards(self, event_id: int) -> Json:
        return self.call("GET", f"/events/{event_id}/awards")
