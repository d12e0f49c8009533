"""Webhooks to the union system: subscriptions per event, and the log of their deliveries.

Every route takes an unscoped union key (or an admin key). Deliveries are posted by a background
worker, never while a request waits.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Body, Path, Response

from api.deps import ClockDep, PageDep, SessionDep, UnionCaller
from api.idempotency import IdempotencyDep
from api.problems import responses
from domain.webhooks import service
from domain.webhooks.models import DeliveryOut, DeliveryStatus, WebhookCreated, WebhookIn, WebhookOut

router = APIRouter(tags=["webhooks"])

Id = Annotated[int, Path(ge=1)]

SUBSCRIPTION_EXAMPLES = {
    "results": {
        "summary": "results and standings, with a secret of the union system's choosing",
        "value": {
            "url": "https://union.example.edu.cn/hooks/zhisai",
            "kinds": ["result.final", "standings.changed"],
            "secret": "a-long-random-string-kept-by-the-union-system",
        },
    },
    "everything": {
        "summary": "every kind, with a generated secret",
        "value": {
            "url": "https://union.example.edu.cn/hooks/zhisai",
            "kinds": [
                "registration.confirmed",
                "draw.published",
                "round.published",
                "result.final",
                "standings.changed",
            ],
        },
    },
}


@router.post(
    "/events/{event_id}/webhooks",
    response_model=WebhookCreated,
    status_code=201,
    summary="Subscribe to an event's notifications",
    responses=responses(401, 403, 404, 409, 422),
)
def create_webhook(
    event_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    idem: IdempotencyDep,
    now: ClockDep,
    body: Annotated[WebhookIn, Body(openapi_examples=SUBSCRIPTION_EXAMPLES)],
) -> Any:
    """Deliveries of the chosen kinds are posted to `url`, signed with the secret (given, or
    generated and shown in this answer only). One subscription per event and URL. Role: union
    (not branch-scoped)."""
    return idem.run(
        lambda: service.create_subscription(session, event_id, body=body, caller=caller, now=now),
        status_code=201,
    )


@router.get(
    "/events/{event_id}/webhooks",
    response_model=list[WebhookOut],
    summary="List an event's webhooks",
    responses=responses(401, 403, 404, 422),
)
def list_webhooks(event_id: Id, session: SessionDep, caller: UnionCaller, pager: PageDep) -> list[WebhookOut]:
    """The event's subscriptions, without their secrets. Role: union (not branch-scoped)."""
    return pager.answer(service.list_subscriptions(session, event_id, caller=caller, page=pager.page))


@router.delete(
    "/webhooks/{webhook_id}",
    status_code=204,
    response_class=Response,
    summary="Delete a webhook",
    responses=responses(401, 403, 404, 422),
)
def delete_webhook(webhook_id: Id, session: SessionDep, caller: UnionCaller) -> None:
    """Ends the subscription; its pending deliveries are dropped with its delivery log. Role: union
    (not branch-scoped)."""
    service.delete_subscription(session, webhook_id, caller=caller)


@router.get(
    "/webhooks/{webhook_id}/deliveries",
    response_model=list[DeliveryOut],
    summary="A webhook's delivery log",
    responses=responses(401, 403, 404, 422),
)
def list_deliveries(
    webhook_id: Id,
    session: SessionDep,
    caller: UnionCaller,
    pager: PageDep,
    status: DeliveryStatus | None = None,
) -> list[DeliveryOut]:
    """Newest first: each delivery's status, attempts, the receiver's last answer or error and the
    time of the next attempt. Role: union (not branch-scoped)."""
    return pager.answer(
        service.list_deliveries(session, webhook_id, caller=caller, status=status, page=pager.page)
    )


@router.post(
    "/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
    response_model=DeliveryOut,
    status_code=202,
    summary="Deliver again",
    responses=responses(401, 403, 404, 422),
)
def retry_delivery(
    webhook_id: Id,
    delivery_id: Annotated[UUID, Path(description="the delivery's id")],
    session: SessionDep,
    caller: UnionCaller,
    now: ClockDep,
) -> DeliveryOut:
    """Queues the delivery for an attempt at once, with the same id and body: a failed delivery gets
    one more attempt, a delivered one is sent again, a pending one stops waiting for its backoff.
    Role: union (not branch-scoped)."""
    return service.retry_delivery(session, webhook_id, delivery_id=str(delivery_id), caller=caller, now=now)
