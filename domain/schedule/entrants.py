"""Plain data shared by every format: entrants, groups, seats.

An entrant is whatever takes one place in a draw: a pair (seeds 001–004), a team (seed 000) or a
single player (Gongzhu, chess, Go). Its ``branch`` (分工会) is only used to keep entries of one
branch apart where a draw can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from domain.errors import InvalidInput

Seat = Literal["N", "E", "S", "W"]


@dataclass(frozen=True)
class Entrant:
    entry_id: str
    branch: str | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Group:
    """A named group; the position in ``entry_ids`` is the drawn number (1-based)."""

    name: str
    entry_ids: tuple[str, ...]


@dataclass(frozen=True)
class SharedBranch:
    """Entries of one branch that a draw had to put together (in a group, quarter or table)."""

    where: str
    branch: str
    entry_ids: tuple[str, ...]


@dataclass(frozen=True)
class SeatAssignment:
    seat: Seat
    entry_id: str
    pair_no: int | None = None
    player_id: str | None = None


def entry_ids(entrants: Sequence[Entrant]) -> tuple[str, ...]:
    """The ids in input order, after checking they are non-empty, one-line and unique."""
    ids = tuple(e.entry_id for e in entrants)
    for entry_id in ids:
        # the draw stream joins ids with newlines (see draw.py), so one id must not hold one
        if not entry_id or "\n" in entry_id:
            raise InvalidInput(
                f"entry id {entry_id!r} must be non-empty and on one line", rule="entry-id", field="entry_id"
            )
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise InvalidInput(
            f"{len(duplicates)} entry id(s) appear more than once: {', '.join(duplicates)}",
            rule="duplicate-entry",
            field="entry_id",
        )
    return ids


def branch_key(entrant: Entrant) -> str:
    """The key entries are kept apart by; an entry without a branch is a branch of its own."""
    return f"branch:{entrant.branch}" if entrant.branch is not None else f"entry:{entrant.entry_id}"


def shared_branches(
    where: str, members: Iterable[str], by_id: Mapping[str, Entrant]
) -> tuple[SharedBranch, ...]:
    """The branches with more than one entry among ``members``."""
    per_branch: dict[str, list[str]] = {}
    for entry_id in members:
        branch = by_id[entry_id].branch
        if branch is not None:
            per_branch.setdefault(branch, []).append(entry_id)
    return tuple(
        SharedBranch(where=where, branch=branch, entry_ids=tuple(ids))
        for branch, ids in sorted(per_branch.items())
        if len(ids) > 1
    )


def pair_seats(
    ns: tuple[str, int | None, tuple[str, str] | None],
    ew: tuple[str, int | None, tuple[str, str] | None],
) -> tuple[SeatAssignment, ...]:
    """Seats N, E, S, W for two sides (entry id, pair_no, players); partners sit opposite."""
    (ns_entry, ns_pair, ns_players), (ew_entry, ew_pair, ew_players) = ns, ew
    return (
        SeatAssignment("N", ns_entry, ns_pair, ns_players[0] if ns_players else None),
        SeatAssignment("E", ew_entry, ew_pair, ew_players[0] if ew_players else None),
        SeatAssignment("S", ns_entry, ns_pair, ns_players[1] if ns_players else None),
        SeatAssignment("W", ew_entry, ew_pair, ew_players[1] if ew_players else None),
    )
