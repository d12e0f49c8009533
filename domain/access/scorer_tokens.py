"""Scorer tokens: a short signed string, bound to one game, that fits in a score sheet's QR code.

``<game_id>.<nonce>.<expires (unix seconds)>.<signature>`` where the signature is HMAC-SHA256 over
the first three parts with the service's secret, truncated to 128 bits and base64url-encoded.
Rotating the game's nonce revokes every token issued for it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from domain.errors import Unauthenticated

SIGNATURE_BYTES = 16


@dataclass(frozen=True)
class ScorerClaim:
    game_id: int
    nonce: str
    expires_at: datetime


def new_nonce() -> str:
    return secrets.token_hex(8)


def _sign(secret: str, payload: str) -> str:
    digest = hmac.new(secret.encode("utf-8"), payload.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:SIGNATURE_BYTES]).rstrip(b"=").decode("ascii")


def issue(secret: str, *, game_id: int, nonce: str, expires_at: datetime) -> str:
    payload = f"{game_id}.{nonce}.{int(expires_at.timestamp())}"
    return f"{payload}.{_sign(secret, payload)}"


def verify(secret: str, token: str, *, now: datetime) -> ScorerClaim:
    """The claim of a genuine, unexpired token; Unauthenticated otherwise.

    The caller still checks the nonce against the game's current one (revocation).
    """
    parts = token.split(".")
    if len(parts) != 4 or not parts[0].isdigit() or not parts[2].isdigit():
        raise Unauthenticated("the scorer token is malformed", rule="scorer-token-malformed")
    payload = ".".join(parts[:3])
    if not hmac.compare_digest(_sign(secret, payload), parts[3]):
        raise Unauthenticated("the scorer token's signature is not valid", rule="scorer-token-invalid")
    expires_at = datetime.fromtimestamp(int(parts[2]), tz=UTC)
    if now >= expires_at:
        raise Unauthenticated(
            f"the scorer token expired at {expires_at.isoformat()}", rule="scorer-token-expired"
        )
    return ScorerClaim(game_id=int(parts[0]), nonce=parts[1], expires_at=expires_at)
