"""An event with a webhook to a live receiver on 127.0.0.1, and an httpx client with short timeouts."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from sqlalchemy.engine import Engine

from domain.access.models import Caller, Role
from domain.webhooks import service
from domain.webhooks.models import WebhookIn, WebhookKind
from storage.db import unit_of_work
from tests.integration.webhooks.receiver import Receiver, serve
from tests.integration.webhooks.rows import NOW, insert_event

UNION = Caller(key_id=1, name="union system", role=Role.union)


@dataclass(frozen=True)
class Subscribed:
    event_id: int
    webhook_id: int
    secret: str


def subscribe(
    engine: Engine, event_id: int, *, url: str, kinds: list[WebhookKind] | None = None
) -> Subscribed:
    body = WebhookIn.model_validate({"url": url, "kinds": kinds or list(WebhookKind)})
    with unit_of_work(engine) as session:
        created = service.create_subscription(session, event_id, body=body, caller=UNION, now=NOW)
    return Subscribed(event_id=event_id, webhook_id=created.id, secret=created.secret)


@pytest.fixture
def event_id(engine: Engine) -> int:
    return insert_event(engine)


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5.0) as client:
        yield client


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with serve() as receiver:
        yield receiver
