"""Kinds of notification, delivery states, and the requests and answers of the webhooks area."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, HttpUrl


class WebhookKind(StrEnum):
    registration_confirmed = "registration.confirmed"
    draw_published = "draw.published"
    round_published = "round.published"
    result_final = "result.final"
    standings_changed = "standings.changed"


class DeliveryStatus(StrEnum):
    pending = "pending"  # queued, or waiting for its next attempt
    delivered = "delivered"  # a receiver answered 2xx
    failed = "failed"  # out of attempts; a manual retry queues it again


class WebhookIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    url: HttpUrl = Field(description="Where deliveries are posted (http or https).")
    kinds: list[WebhookKind] = Field(
        min_length=1, max_length=len(WebhookKind), description="The notifications wanted."
    )
    secret: str | None = Field(
        default=None,
        min_length=16,
        max_length=200,
        description="Signs every delivery; generated (and shown once) when absent.",
    )


class WebhookOut(BaseModel):
    id: int
    event_id: int
    url: str
    kinds: list[WebhookKind]
    created_at: datetime


class WebhookCreated(WebhookOut):
    secret: str = Field(description="Shown in this answer only: keep it to verify signatures.")


class DeliveryOut(BaseModel):
    """One notification to one receiver, as the delivery log shows it."""

    id: str = Field(description="The delivery's id: the payload's `id` and the `X-Zhisai-Delivery` header.")
    kind: WebhookKind
    status: DeliveryStatus
    attempts: int = Field(description="Attempts made so far.")
    last_status_code: int | None = Field(description="The receiver's answer to the last attempt, if any.")
    last_error: str | None = Field(description="Why the last attempt failed (timeout, refused, non-2xx).")
    next_attempt_at: datetime | None = Field(description="When a pending delivery is tried next.")
    created_at: datetime
    last_attempt_at: datetime | None
    delivered_at: datetime | None


# The worker's values: what it posts, and what came of it. -------------------------------------


@dataclass(frozen=True)
class Claimed:
    """A delivery claimed for one attempt, with everything needed to post it outside a transaction."""

    delivery_id: int
    uuid: str
    kind: str
    url: str
    secret: str
    body: bytes


@dataclass(frozen=True)
class Attempt:
    at: datetime
    status_code: int | None = None
    error: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.error is None and self.status_code is not None and 200 <= self.status_code < 300
