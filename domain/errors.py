"""Domain errors: what went wrong, in the domain's words, without HTTP.

``api`` maps each class to an ``application/problem+json`` answer in one place.
Every error names the rule it enforces (a stable slug) and, where there is one, the field.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base class: ``rule`` is a stable slug (e.g. ``roster-size``), ``field`` the offending input."""

    default_rule = "domain-error"

    def __init__(
        self,
        detail: str,
        *,
        rule: str | None = None,
        field: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rule = rule or self.default_rule
        self.field = field
        self.extra = extra or {}


class NotFound(DomainError):
    default_rule = "not-found"


class Conflict(DomainError):
    """The request contradicts stored state (duplicate, stale version, wrong state)."""

    default_rule = "conflict"


class RuleViolation(DomainError):
    """The input is well-formed but breaks a rule of the game or of the competition."""

    default_rule = "rule-violation"


class InvalidInput(DomainError):
    """The input cannot be read (a bad card, an unknown level, a wrong count)."""

    default_rule = "invalid-input"


class WindowClosed(DomainError):
    """A time window (registration, correction) is not open."""

    default_rule = "window-closed"


class Forbidden(DomainError):
    """The caller is known but may not do this (wrong branch, wrong game)."""

    default_rule = "forbidden"


class Unauthenticated(DomainError):
    default_rule = "unauthenticated"
