"""API keys: created once (the secret is shown once, only its SHA-256 is kept), checked, revoked."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from sqlmodel import Session

from domain.access import repository
from domain.access.models import Caller, Role
from domain.errors import InvalidInput, NotFound, Unauthenticated
from storage.tables import ApiKey, utcnow

KEY_PREFIX = "zs_"


@dataclass(frozen=True)
class NewKey:
    key_id: int
    secret: str
    role: Role
    branch_code: str | None


def hash_key(secret: str) -> str:
    # Keys are 256-bit random tokens, so a plain SHA-256 is enough (no password stretching needed).
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create_key(session: Session, *, name: str, role: str, branch_code: str | None = None) -> NewKey:
    try:
        parsed_role = Role(role)
    except ValueError:
        allowed = ", ".join(r.value for r in Role)
        raise InvalidInput(
            f"unknown role {role!r}; one of {allowed}", rule="unknown-role", field="role"
        ) from None
    if branch_code is not None and parsed_role is not Role.union:
        raise InvalidInput(
            "only a union key can act for a branch", rule="branch-scope-needs-union-role", field="branch_code"
        )
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    row = repository.add(
        session,
        ApiKey(
            name=name,
            role=parsed_role.value,
            branch_code=branch_code,
            key_prefix=secret[:10],
            key_hash=hash_key(secret),
            created_at=utcnow(),
        ),
    )
    assert row.id is not None
    return NewKey(key_id=row.id, secret=secret, role=parsed_role, branch_code=branch_code)


def authenticate(session: Session, secret: str) -> Caller:
    row = repository.by_hash(session, hash_key(secret))
    if row is None or row.id is None:
        raise Unauthenticated("the API key is not known", rule="unknown-api-key")
    if row.revoked_at is not None:
        raise Unauthenticated("the API key was revoked", rule="revoked-api-key")
    return Caller(key_id=row.id, name=row.name, role=Role(row.role), branch_code=row.branch_code)


def revoke_key(session: Session, key_id: int) -> None:
    row = repository.by_id(session, key_id)
    if row is None:
        raise NotFound(f"no API key {key_id}", rule="unknown-api-key", field="key_id")
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        session.add(row)
        session.flush()
