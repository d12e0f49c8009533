"""Every query of the webhooks area: subscriptions, the delivery outbox and the worker's claim."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, and_, delete
from sqlmodel import Session, col, select

from domain.paging import EVERY_ROW, Page, Paged
from domain.webhooks.models import DeliveryStatus
from storage.paging import fetch_page
from storage.tables import Event, WebhookDelivery, WebhookSubscription


def event_exists(session: Session, event_id: int) -> bool:
    return session.get(Event, event_id) is not None


def subscription(session: Session, webhook_id: int) -> WebhookSubscription | None:
    return session.get(WebhookSubscription, webhook_id)


def subscription_by_url(session: Session, *, event_id: int, url: str) -> WebhookSubscription | None:
    return session.exec(
        select(WebhookSubscription).where(
            WebhookSubscription.event_id == event_id, WebhookSubscription.url == url
        )
    ).first()


def subscriptions_of_event(
    session: Session, event_id: int, *, page: Page = EVERY_ROW
) -> Paged[WebhookSubscription]:
    query = select(WebhookSubscription).where(WebhookSubscription.event_id == event_id)
    return fetch_page(session, query.order_by(col(WebhookSubscription.id)), page)


def add(session: Session, *rows: WebhookSubscription | WebhookDelivery) -> None:
    session.add_all(rows)
    session.flush()


def delete_subscription(session: Session, webhook_id: int) -> None:
    """The subscription and its delivery log (pending deliveries with it)."""
    session.execute(delete(WebhookDelivery).where(col(WebhookDelivery.subscription_id) == webhook_id))
    session.execute(delete(WebhookSubscription).where(col(WebhookSubscription.id) == webhook_id))


def delivery(session: Session, delivery_id: int) -> WebhookDelivery | None:
    return session.get(WebhookDelivery, delivery_id)


def delivery_by_uuid(session: Session, *, webhook_id: int, uuid: str) -> WebhookDelivery | None:
    return session.exec(
        select(WebhookDelivery).where(
            WebhookDelivery.uuid == uuid, WebhookDelivery.subscription_id == webhook_id
        )
    ).first()


def deliveries_of(
    session: Session, webhook_id: int, *, status: DeliveryStatus | None, page: Page
) -> Paged[WebhookDelivery]:
    """Newest first."""
    query = select(WebhookDelivery).where(WebhookDelivery.subscription_id == webhook_id)
    if status is not None:
        query = query.where(WebhookDelivery.status == status.value)
    return fetch_page(session, query.order_by(col(WebhookDelivery.id).desc()), page)


def _due(now: datetime) -> ColumnElement[bool]:
    return and_(
        col(WebhookDelivery.status) == DeliveryStatus.pending.value,
        col(WebhookDelivery.next_attempt_at) <= now,
    )


def any_due(session: Session, *, now: datetime) -> bool:
    return session.exec(select(WebhookDelivery.id).where(_due(now)).limit(1)).first() is not None


def claim_due(
    session: Session, *, now: datetime, limit: int
) -> list[tuple[WebhookDelivery, WebhookSubscription]]:
    """Due deliveries with their subscriptions, oldest due first, locked until commit.

    PostgreSQL: rows another worker holds are skipped rather than waited for. SQLite has no row
    locks; its writers are serialized by BEGIN IMMEDIATE, which serves the same end.
    """
    query = (
        select(WebhookDelivery, WebhookSubscription)
        .join(WebhookSubscription, col(WebhookSubscription.id) == col(WebhookDelivery.subscription_id))
        .where(_due(now))
        .order_by(col(WebhookDelivery.next_attempt_at), col(WebhookDelivery.id))
        .limit(limit)
        .with_for_update(skip_locked=True, of=WebhookDelivery)
    )
    return [(row[0], row[1]) for row in session.exec(query)]
