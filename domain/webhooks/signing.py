"""Signing a delivery, and checking one as a receiver should.

The signature is HMAC-SHA256 with the subscription's secret over ``<timestamp>.<raw body>``, where the
timestamp is the ``X-Zhisai-Timestamp`` header (unix seconds). Binding the time into the signature lets
a receiver refuse a replayed old delivery; the tolerance window allows for clock skew.
"""

from __future__ import annotations

import hashlib
import hmac

EVENT_HEADER = "X-Zhisai-Event"
DELIVERY_HEADER = "X-Zhisai-Delivery"
TIMESTAMP_HEADER = "X-Zhisai-Timestamp"
SIGNATURE_HEADER = "X-Zhisai-Signature"
SCHEME = "sha256="
DEFAULT_TOLERANCE_SECONDS = 300


def sign(secret: str, body: bytes, *, timestamp: int) -> str:
    """The ``X-Zhisai-Signature`` value: ``sha256=<hex digest>``."""
    message = str(timestamp).encode("ascii") + b"." + body
    return SCHEME + hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def verify(
    secret: str,
    body: bytes,
    *,
    timestamp: str,
    signature: str,
    now: float,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
) -> bool:
    """Whether ``signature`` was made with ``secret`` over this body and timestamp, and the timestamp
    lies within ``tolerance_seconds`` of ``now`` (unix seconds) either way."""
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance_seconds:
        return False
    expected = sign(secret, body, timestamp=int(timestamp))
    # Constant time, so the comparison leaks nothing about how much of a forged signature was right.
    return hmac.compare_digest(expected.encode("ascii"), signature.encode("utf-8", "replace"))


def signed_headers(
    secret: str, body: bytes, *, kind: str, delivery_id: str, timestamp: int
) -> dict[str, str]:
    """Every header of one delivery attempt."""
    return {
        "Content-Type": "application/json",
        EVENT_HEADER: kind,
        DELIVERY_HEADER: delivery_id,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(secret, body, timestamp=timestamp),
    }
