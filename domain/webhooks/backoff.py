"""When to try a failed delivery again: exponential backoff, capped, with jitter."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 8
    base_seconds: float = 30.0
    cap_seconds: float = 3600.0

    def delay(self, attempts: int, *, jitter: float) -> timedelta:
        """The wait after the ``attempts``-th failed attempt: base × 2^(attempts − 1), capped, then
        scaled into its upper half by ``jitter`` in [0, 1] so receivers that failed together do not
        get their retries all at once ("equal jitter")."""
        exponent = min(attempts - 1, 62)  # beyond this the cap has long been reached
        ceiling = min(self.cap_seconds, self.base_seconds * 2**exponent)
        return timedelta(seconds=ceiling / 2 * (1 + jitter))

    def exhausted(self, attempts: int) -> bool:
        return attempts >= self.max_attempts
