"""Quotas (名额): how many entries a branch may field in an event, and why."""

from __future__ import annotations

from dataclasses import dataclass

from domain.events.models import QuotaKind, QuotaPolicy


@dataclass(frozen=True)
class Quota:
    entries: int
    reason: str  # the rule in words, e.g. "a branch with 30 to 50 members may field 3"


def quota_for(policy: QuotaPolicy, *, branch_code: str, member_count: int) -> Quota | None:
    """The quota of one branch; None when the event sets no quota."""
    if policy.kind is QuotaKind.NONE:
        return None
    if policy.kind is QuotaKind.FIXED:
        assert policy.per_branch is not None  # QuotaPolicy checks it
        return Quota(policy.per_branch, f"every branch may field {policy.per_branch}")
    if policy.kind is QuotaKind.TABLE:
        if branch_code in policy.table:
            entries = policy.table[branch_code]
            return Quota(entries, f"the quota table gives branch {branch_code} {entries}")
        return Quota(policy.default, f"a branch outside the quota table may field {policy.default}")
    floor = 0
    for tier in policy.tiers:
        ceiling = tier.up_to_members
        if ceiling is None or member_count <= ceiling:
            return Quota(
                tier.entries, f"a branch with {_span(floor, ceiling)} members may field {tier.entries}"
            )
        floor = ceiling + 1
    raise AssertionError("the last tier has no ceiling")  # QuotaPolicy checks it


def _span(floor: int, ceiling: int | None) -> str:
    if ceiling is None:
        return f"{floor} or more"
    if floor == 0:
        return f"up to {ceiling}"
    return f"{floor} to {ceiling}"
