"""Webhooks: subscriptions per event, the outbox (``emit``), the delivery log and manual retries.

``emit`` runs inside the caller's transaction, so a notification is stored exactly when the change
that caused it is committed (the outbox pattern); the delivery worker posts it later, so a request
never waits for a receiver.
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from pydantic_core import to_jsonable_python
from sqlmodel import Session

from domain.access.models import Caller
from domain.errors import Conflict, Forbidden, NotFound
from domain.paging import Page, Paged
from domain.webhooks import repository
from domain.webhooks.backoff import RetryPolicy
from domain.webhooks.models import (
    Attempt,
    Claimed,
    DeliveryOut,
    DeliveryStatus,
    WebhookCreated,
    WebhookIn,
    WebhookKind,
    WebhookOut,
)
from storage.tables import WebhookDelivery, WebhookSubscription, utcnow

SIGNING_KEY_PREFIX = "whsec_"
ERROR_CHARS = 500


# Subscriptions ----------------------------------------------------------------------------------


def _require_unscoped(caller: Caller) -> None:
    # A subscription hears about the whole event; a key acting for one branch may not set one up.
    if caller.branch_code is not None:
        raise Forbidden(
            f"webhooks are managed with an unscoped union key; this key acts for branch {caller.branch_code}",
            rule="webhooks-need-unscoped-key",
        )


def _subscription(session: Session, webhook_id: int) -> WebhookSubscription:
    row = repository.subscription(session, webhook_id)
    if row is None:
        raise NotFound(f"no webhook {webhook_id}", rule="unknown-webhook", field="webhook_id")
    return row


def _webhook_out(row: WebhookSubscription) -> WebhookOut:
    assert row.id is not None
    return WebhookOut(
        id=row.id,
        event_id=row.event_id,
        url=row.url,
        kinds=[WebhookKind(kind) for kind in row.kinds],
        created_at=row.created_at,
    )


def create_subscription(
    session: Session, event_id: int, *, body: WebhookIn, caller: Caller, now: datetime
) -> WebhookCreated:
    _require_unscoped(caller)
    if not repository.event_exists(session, event_id):
        raise NotFound(f"no event {event_id}", rule="unknown-event", field="event_id")
    url = str(body.url)
    existing = repository.subscription_by_url(session, event_id=event_id, url=url)
    if existing is not None:
        raise Conflict(
            f"webhook {existing.id} already posts event {event_id}'s notifications to {url}; "
            "delete it first to change its kinds or secret",
            rule="webhook-exists",
            field="url",
        )
    secret = body.secret or SIGNING_KEY_PREFIX + secrets.token_urlsafe(32)
    row = WebhookSubscription(
        event_id=event_id,
        url=url,
        kinds=list(dict.fromkeys(kind.value for kind in body.kinds)),
        secret=secret,
        created_by=caller.ref,
        created_at=now,
    )
    repository.add(session, row)
    return WebhookCreated(**_webhook_out(row).model_dump(), secret=secret)


def list_subscriptions(session: Session, event_id: int, *, caller: Caller, page: Page) -> Paged[WebhookOut]:
    _require_unscoped(caller)
    if not repository.event_exists(session, event_id):
        raise NotFound(f"no event {event_id}", rule="unknown-event", field="event_id")
    return repository.subscriptions_of_event(session, event_id, page=page).map(_webhook_out)


def delete_subscription(session: Session, webhook_id: int, *, caller: Caller) -> None:
    _require_unscoped(caller)
    _subscription(session, webhook_id)
    repository.delete_subscription(session, webhook_id)


# The delivery log ---------------------------------------------------------------------------------


def _delivery_out(row: WebhookDelivery) -> DeliveryOut:
    return DeliveryOut(
        id=row.uuid,
        kind=WebhookKind(row.kind),
        status=DeliveryStatus(row.status),
        attempts=row.attempts,
        last_status_code=row.last_status_code,
        last_error=row.last_error,
        next_attempt_at=row.next_attempt_at,
        created_at=row.created_at,
        last_attempt_at=row.last_attempt_at,
        delivered_at=row.delivered_at,
    )


def list_deliveries(
    session: Session, webhook_id: int, *, caller: Caller, status: DeliveryStatus | None, page: Page
) -> Paged[DeliveryOut]:
    _require_unscoped(caller)
    _subscription(session, webhook_id)
    return repository.deliveries_of(session, webhook_id, status=status, page=page).map(_delivery_out)


def retry_delivery(
    session: Session, webhook_id: int, *, delivery_id: str, caller: Caller, now: datetime
) -> DeliveryOut:
    """Queue the delivery for an attempt now, whatever its state: a failed one gets one more attempt,
    a delivered one is sent again (the receiver lost it), a pending one stops waiting."""
    _require_unscoped(caller)
    _subscription(session, webhook_id)
    row = repository.delivery_by_uuid(session, webhook_id=webhook_id, uuid=delivery_id)
    if row is None:
        raise NotFound(
            f"webhook {webhook_id} has no delivery {delivery_id}",
            rule="unknown-delivery",
            field="delivery_id",
        )
    row.status = DeliveryStatus.pending.value
    row.next_attempt_at = now
    repository.add(session, row)
    return _delivery_out(row)


# The outbox ---------------------------------------------------------------------------------------


def _encode(document: Mapping[str, Any]) -> str:
    return json.dumps(to_jsonable_python(document), ensure_ascii=False, separators=(",", ":"))


def emit(
    session: Session,
    *,
    event_id: int,
    kind: str,
    payload: Mapping[str, Any],
    now: datetime | None = None,
) -> int:
    """Queue one delivery of ``payload`` per subscription of the event to ``kind``; the number queued.

    Call it inside the transaction of the change it announces: the deliveries are committed with it,
    or rolled back with it. ``payload`` becomes the envelope's ``data`` (plain JSON values; datetimes,
    dates, enums and pydantic models are converted). An unknown ``kind`` is a programming error
    (ValueError).
    """
    wanted = WebhookKind(kind)
    occurred_at = now or utcnow()
    rows = []
    for subscription in repository.subscriptions_of_event(session, event_id).items:
        if wanted.value not in subscription.kinds:
            continue
        assert subscription.id is not None
        delivery_uuid = str(uuid.uuid4())
        envelope = {
            "id": delivery_uuid,
            "kind": wanted.value,
            "event_id": event_id,
            "occurred_at": occurred_at,
            "data": payload,
        }
        rows.append(
            WebhookDelivery(
                uuid=delivery_uuid,
                subscription_id=subscription.id,
                kind=wanted.value,
                body=_encode(envelope),
                status=DeliveryStatus.pending.value,
                attempts=0,
                next_attempt_at=occurred_at,
                created_at=occurred_at,
            )
        )
    if rows:
        repository.add(session, *rows)
    return len(rows)


# The worker's side --------------------------------------------------------------------------------


def claim_due(session: Session, *, now: datetime, lease: timedelta, limit: int) -> list[Claimed]:
    """Due deliveries, taken for one attempt each: their next attempt moves ``lease`` ahead, so no
    other worker takes them while this one posts, and a worker that dies mid-post leaves them to be
    tried again once the lease runs out."""
    claimed = []
    for row, subscription in repository.claim_due(session, now=now, limit=limit):
        assert row.id is not None
        row.next_attempt_at = now + lease
        session.add(row)
        claimed.append(
            Claimed(
                delivery_id=row.id,
                uuid=row.uuid,
                kind=row.kind,
                url=subscription.url,
                secret=subscription.secret,
                body=row.body.encode("utf-8"),
            )
        )
    session.flush()
    return claimed


def record_attempt(
    session: Session, delivery_id: int, *, attempt: Attempt, policy: RetryPolicy, jitter: float
) -> DeliveryStatus | None:
    """Log one attempt: delivered on a 2xx, else the next attempt after a backoff, or failed once
    out of attempts. None when the delivery was deleted (with its subscription) meanwhile."""
    row = repository.delivery(session, delivery_id)
    if row is None:
        return None
    row.attempts += 1
    row.last_attempt_at = attempt.at
    row.last_status_code = attempt.status_code
    row.last_error = attempt.error[:ERROR_CHARS] if attempt.error is not None else None
    if attempt.succeeded:
        row.status = DeliveryStatus.delivered.value
        row.delivered_at = attempt.at
        row.next_attempt_at = None
    elif policy.exhausted(row.attempts):
        row.status = DeliveryStatus.failed.value
        row.next_attempt_at = None
    else:
        row.status = DeliveryStatus.pending.value
        row.next_attempt_at = attempt.at + policy.delay(row.attempts, jitter=jitter)
    repository.add(session, row)
    return DeliveryStatus(row.status)
