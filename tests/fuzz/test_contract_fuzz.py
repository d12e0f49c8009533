"""Contract fuzzing: every operation of the app's own OpenAPI, with an admin key, on a populated
database. No answer is a 500, every answer matches its documented status codes, media type and
schema, and every error is ``application/problem+json``.

Marked ``fuzz``: it runs in its own CI step (`.ci/run`), not in the default `make test`.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi import checks as openapi_checks

from api.app import create_app
from tests.fuzz.conftest import world_settings
from tests.fuzz.world import World
from tests.helpers import PROBLEM

pytestmark = pytest.mark.fuzz

EXAMPLES = 25


class CurrentApp:
    """The ASGI app of the running test (each test has its own database); the fuzzer, and the
    checks that send requests of their own, call this one."""

    app: FastAPI | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert self.app is not None, "no test app is set"
        await self.app(scope, receive, send)


current = CurrentApp()
# The document does not depend on the database: read it once from an app that never connects.
schema = schemathesis.openapi.from_dict(create_app(world_settings("sqlite://")).openapi())
schema.app = current

# Path parameters that name existing rows half of the time, so the fuzzer gets past 404.
REAL_IDS = {
    "event_id": lambda w: w.event_id,
    "competition_id": lambda w: w.competition_id,
    "round_id": lambda w: w.round_id,
    "entry_id": lambda w: w.entry_ids[0],
    "game_id": lambda w: w.game_ids[0],
    "staff_id": lambda w: w.staff_ids[0],
    "code": lambda w: "B00",
    "number": lambda w: 1,
    "round_number": lambda w: 1,
    "deal_no": lambda w: 1,
}


OVERLAPPING = frozenset({"POST /api/v1/branches/bulk", "POST /api/v1/members/bulk"})
# A list past maxItems here is larger than the body limit: refused 413 before it is read, a
# refusal the check does not count.
BULK = OVERLAPPING


def _aim_at_world(case: Any, world: World) -> None:
    if case.meta is not None and case.meta.generation.mode.is_negative:
        return  # a negative case must stay invalid
    for name, value in list((case.path_parameters or {}).items()):
        real = REAL_IDS.get(name)
        if real is not None and hash(repr(value)) % 2 == 0:
            case.path_parameters[name] = real(world)


def errors_are_problems(ctx: Any, response: Any, case: Any) -> bool | None:
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])
        content_type = content_type[0] if isinstance(content_type, list) else content_type
        assert content_type.startswith(PROBLEM), f"{response.status_code} answered as {content_type}"
        body = response.json()
        assert body["status"] == response.status_code and body["type"].startswith("urn:zhisai:problem:")
    return None


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_its_contract(case: Any, world_app: FastAPI, world: World) -> None:
    current.app = world_app
    _aim_at_world(case, world)
    excluded = [
        # valid-looking data may name a row that does not exist or a transition that is not due
        openapi_checks.positive_data_acceptance,
    ]
    if case.operation.label in OVERLAPPING:
        # `/branches/bulk` is also `PUT /branches/{code}` with code "bulk": its 405 truly allows PUT
        excluded.append(openapi_checks.allow_header_conformance)
    if case.operation.label in BULK:
        excluded.append(openapi_checks.negative_data_rejection)
    case.call_and_validate(
        headers={"Authorization": f"Bearer {world.keys.admin}"},
        additional_checks=[errors_are_problems],
        excluded_checks=excluded,
    )
