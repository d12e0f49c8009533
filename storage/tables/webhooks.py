"""Webhook subscriptions of the union system and the outbox of their deliveries."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from storage.tables.base import json_field, when


class WebhookSubscription(SQLModel, table=True):
    """A receiver URL for some kinds of notification about one event.

    The secret is kept as given: the service needs it to sign every delivery (shown once to the caller).
    """

    __tablename__ = "webhook_subscription"
    __table_args__ = (UniqueConstraint("event_id", "url"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    url: str = Field(max_length=2000)
    kinds: list[str] = json_field()
    secret: str = Field(max_length=200)
    created_by: str = Field(max_length=40)
    created_at: datetime = when()


class WebhookDelivery(SQLModel, table=True):
    """One notification for one subscription: queued with the change that caused it, then posted
    by the delivery worker until it is delivered or out of attempts. The body is frozen at emit
    time so every attempt sends the same bytes."""

    __tablename__ = "webhook_delivery"
    # The worker's claim scans pending rows by due time.
    __table_args__ = (Index("ix_webhook_delivery_status_next_attempt_at", "status", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    uuid: str = Field(max_length=36, unique=True)
    subscription_id: int = Field(foreign_key="webhook_subscription.id", index=True)
    kind: str = Field(max_length=40)
    body: str
    status: str = Field(max_length=16)
    attempts: int = Field(default=0)
    last_status_code: int | None = Field(default=None)
    last_error: str | None = Field(default=None, max_length=500)
    next_attempt_at: datetime | None = when(nullable=True)
    created_at: datetime = when()
    last_attempt_at: datetime | None = when(nullable=True)
    delivered_at: datetime | None = when(nullable=True)
