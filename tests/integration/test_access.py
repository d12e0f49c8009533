from __future__ import annotations

import pytest
from sqlmodel import Session, select

from domain.access import service as access_service
from domain.access.models import Role
from domain.errors import InvalidInput, Unauthenticated
from storage.tables import ApiKey


def test_a_key_is_shown_once_and_stored_only_as_a_hash(session: Session) -> None:
    new = access_service.create_key(session, name="union system", role="union")
    stored = session.exec(select(ApiKey)).one()
    assert new.secret.startswith("zs_") and len(new.secret) > 40
    assert new.secret not in (stored.key_hash, stored.key_prefix)
    assert stored.key_hash == access_service.hash_key(new.secret)
    caller = access_service.authenticate(session, new.secret)
    assert caller.role is Role.union and caller.key_id == new.key_id


def test_branch_scoped_key_and_revocation(session: Session) -> None:
    new = access_service.create_key(session, name="math branch", role="union", branch_code="MATH")
    assert access_service.authenticate(session, new.secret).branch_code == "MATH"
    access_service.revoke_key(session, new.key_id)
    with pytest.raises(Unauthenticated) as refused:
        access_service.authenticate(session, new.secret)
    assert refused.value.rule == "revoked-api-key"


def test_unknown_role_and_scoped_referee_are_refused(session: Session) -> None:
    with pytest.raises(InvalidInput) as bad_role:
        access_service.create_key(session, name="x", role="scorer")
    assert bad_role.value.field == "role"
    with pytest.raises(InvalidInput) as scoped:
        access_service.create_key(session, name="x", role="referee", branch_code="MATH")
    assert scoped.value.field == "branch_code"
