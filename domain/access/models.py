"""Callers and roles, as plain values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    union = "union"  # the union membership system (and branch admins through it, when branch-scoped)
    referee = "referee"  # referees and the organising committee
    admin = "admin"  # operators of the service: everything


@dataclass(frozen=True)
class Caller:
    """The authenticated party of a request."""

    key_id: int
    name: str
    role: Role
    branch_code: str | None = None

    @property
    def ref(self) -> str:
        """A stable reference for audit trails and idempotency records."""
        return f"key:{self.key_id}"

    def has_role(self, *roles: Role) -> bool:
        return self.role is Role.admin or self.role in roles
