"""The delivery worker: posts due deliveries from the outbox, signed, and logs every attempt.

``run_due_deliveries`` makes one pass; ``DeliveryWorker`` is the background thread the app runs,
looping on it. No transaction is open while a receiver is being called: a delivery is claimed (its
next attempt pushed a lease ahead) and committed, posted, then its outcome recorded in a second
short transaction. Deliveries are rows, so a restart loses nothing; a worker that dies mid-post
leaves its claims to be retried when their lease runs out (at least once: receivers deduplicate
by ``X-Zhisai-Delivery``).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

import httpx
from sqlalchemy.engine import Engine

from domain.webhooks import repository, service
from domain.webhooks.backoff import RetryPolicy
from domain.webhooks.models import Attempt, Claimed, DeliveryStatus
from domain.webhooks.signing import signed_headers
from storage.db import unit_of_work
from storage.tables import utcnow
from zhisai import __version__, metrics

log = logging.getLogger("zhisai.webhooks")

# Longer than any single post can take (the timeout is at most a minute per phase), so a claim
# never lapses while its post is still under way.
CLAIM_LEASE = timedelta(minutes=5)
BATCH = 50
BODY_EXCERPT_CHARS = 200
USER_AGENT = f"zhisai-webhooks/{__version__}"
# Metric labels; None is a delivery deleted with its subscription while it was being posted.
OUTCOMES: dict[DeliveryStatus | None, str] = {
    DeliveryStatus.delivered: "delivered",
    DeliveryStatus.pending: "retrying",
    DeliveryStatus.failed: "failed",
    None: "dropped",
}


def post(client: httpx.Client, claimed: Claimed, *, at: datetime) -> Attempt:
    """One signed attempt; every failure (refused, timeout, non-2xx) becomes the attempt's error."""
    headers = signed_headers(
        claimed.secret,
        claimed.body,
        kind=claimed.kind,
        delivery_id=claimed.uuid,
        timestamp=int(at.timestamp()),
    )
    headers["User-Agent"] = USER_AGENT
    try:
        response = client.post(claimed.url, content=claimed.body, headers=headers)
    except Exception as exc:
        # Whatever breaks one post is that delivery's failed attempt, never the end of the pass.
        return Attempt(at=at, error=f"{type(exc).__name__}: {exc}")
    if response.is_success:
        return Attempt(at=at, status_code=response.status_code)
    excerpt = response.text[:BODY_EXCERPT_CHARS]
    return Attempt(
        at=at,
        status_code=response.status_code,
        error=f"the receiver answered {response.status_code}" + (f": {excerpt}" if excerpt else ""),
    )


def run_due_deliveries(
    engine: Engine,
    *,
    now: datetime,
    client: httpx.Client,
    policy: RetryPolicy = RetryPolicy(),
    jitter: Callable[[], float] = random.random,
    batch: int = BATCH,
) -> int:
    """One pass: claim up to ``batch`` deliveries due at ``now``, post each, record each; the number
    of attempts made. Attempt times run on from ``now`` by the time the pass has taken."""
    with unit_of_work(engine, writes=False) as session:
        # A read first, so an idle worker never takes SQLite's write lock.
        if not repository.any_due(session, now=now):
            return 0
    with unit_of_work(engine) as session:
        claimed = service.claim_due(session, now=now, lease=CLAIM_LEASE, limit=batch)
    started = time.monotonic()
    for delivery in claimed:
        attempt = post(client, delivery, at=now + timedelta(seconds=time.monotonic() - started))
        with unit_of_work(engine) as session:
            status = service.record_attempt(
                session, delivery.delivery_id, attempt=attempt, policy=policy, jitter=jitter()
            )
        outcome = OUTCOMES[status]
        metrics.WEBHOOK_DELIVERIES.labels(outcome=outcome).inc()
        log.info(
            "webhook delivery %s (%s) to %s: %s, %s",
            delivery.uuid,
            delivery.kind,
            delivery.url,
            attempt.status_code or attempt.error,
            outcome,
        )
    return len(claimed)


class DeliveryWorker:
    """A background thread making a pass every ``poll_seconds`` (at once again after a full batch)."""

    def __init__(
        self, engine: Engine, *, policy: RetryPolicy, timeout_seconds: float, poll_seconds: float
    ) -> None:
        self.engine = engine
        self.policy = policy
        self.timeout_seconds = timeout_seconds
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webhook-delivery", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Ends the loop after the post under way, if any (bounded by the timeout)."""
        self._stop.set()
        self._thread.join(timeout=self.timeout_seconds * 4 + self.poll_seconds + 1)

    def _run(self) -> None:
        with httpx.Client(timeout=self.timeout_seconds, follow_redirects=False) as client:
            while not self._stop.is_set():
                try:
                    made = run_due_deliveries(self.engine, now=utcnow(), client=client, policy=self.policy)
                except Exception:
                    # A lost database connection must not end deliveries for good: try again next poll.
                    log.exception("webhook delivery pass failed")
                    made = 0
                if made < BATCH:
                    self._stop.wait(self.poll_seconds)
