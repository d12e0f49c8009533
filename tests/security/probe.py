"""Requests for the access matrix: every route of the app with every kind of credential."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from starlette.routing import Route

from tests.fuzz.world import World

CREDENTIALS = (
    "none",
    "revoked",
    "scorer_expired",
    "scorer_other_game",
    "scorer",
    "other_branch",
    "branch",
    "referee",
    "union",
    "admin",
)
"""Least to most privileged: the matrix asks in this order, so a route's first successful write
comes from the caller with the most right to it."""

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    parameters: tuple[dict[str, Any], ...] = ()
    json_body: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"


def operations(app: FastAPI) -> list[Operation]:
    """Every operation of the OpenAPI document, and every route outside it (docs, metrics)."""
    found: list[Operation] = []
    for path, item in app.openapi()["paths"].items():
        for method, op in item.items():
            content = op.get("requestBody", {}).get("content", {})
            found.append(
                Operation(
                    method.upper(),
                    path,
                    tuple(op.get("parameters", ())),
                    json_body="application/json" in content,
                )
            )
    documented = {(op.method, op.path) for op in found}
    hidden = ("/api/v1/openapi.json", "/docs", "/docs/oauth2-redirect")
    for route in app.routes:
        if not isinstance(route, Route) or (route.include_in_schema and route.path not in hidden):
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            if (method, route.path) not in documented:
                found.append(Operation(method, route.path))
    return found


def credential(kind: str, world: World) -> dict[str, str]:
    game, other = world.game_ids[0], world.game_ids[1]
    secrets = {
        "none": None,
        "revoked": world.keys.revoked,
        "scorer_expired": world.expired_tokens[game],
        "scorer_other_game": world.tokens[other],
        "scorer": world.tokens[game],
        "other_branch": world.keys.other_branch,
        "branch": world.keys.branch,
        "referee": world.keys.referee,
        "union": world.keys.union,
        "admin": world.keys.admin,
    }
    secret = secrets[kind]
    return {} if secret is None else {"Authorization": f"Bearer {secret}"}


def url(op: Operation, world: World) -> str:
    values: dict[str, Any] = {
        "event_id": world.event_id,
        "competition_id": world.competition_id,
        "round_id": world.round_id,
        "entry_id": world.entry_ids[0],  # branch B00's entry
        "game_id": world.game_ids[0],
        "staff_id": world.staff_ids[0],
        "code": "B00",
        "number": 1,
        "round_number": 1,
        "deal_no": 1,
        "hand_no": 1,
        "name": "nsi-2023",
        "webhook_id": 1,
        "delivery_id": 1,
        "sheet_format": "csv",
        "stage": "main",
    }
    for parameter in op.parameters:
        enum = parameter.get("schema", {}).get("enum")
        if parameter.get("in") == "path" and enum:
            values[parameter["name"]] = enum[0]

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in values, f"{op.label}: no value for the path parameter {name}"
        return str(values[name])

    return re.sub(r"\{(\w+)\}", fill, op.path)
