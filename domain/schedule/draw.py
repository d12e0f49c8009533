"""Draws (抽签) that anyone can rerun from the revealed seed.

Before a draw the organiser publishes ``commitment(seed)``; after it, the seed. The draw then
depends only on the seed and the entry ids, by this language-independent algorithm
(``ALGORITHM_VERSION``):

1. ``ids`` = the entry ids sorted by Unicode code point; ``key`` = UTF-8(seed);
   ``message`` = UTF-8(ids joined by "\\n").
2. The byte stream is block 0, block 1, … with
   ``block(c) = HMAC-SHA256(key, message || 0x0A || uint64_big_endian(c))``.
3. ``below(n)`` (an integer in 0..n-1): for n = 1 it is 0 and reads nothing; otherwise read 8
   bytes as a big-endian u; if u >= 2**64 - (2**64 mod n) reject and read again, else n's value
   is u mod n (rejection keeps every value equally likely).
4. ``shuffle``: Fisher–Yates over the list: for i = len-1 down to 1, j = below(i+1), swap i, j.
   ``draw_order`` shuffles the sorted ids.

Group draws deal the shuffled entries into groups, keeping one branch's entries apart where the
sizes allow (see ``spread``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.entrants import Entrant, Group, SharedBranch, branch_key, entry_ids, shared_branches

ALGORITHM_VERSION = "zhisai-draw-1 (HMAC-SHA256 stream, 8-byte rejection sampling, Fisher-Yates)"

T = TypeVar("T")
_SPACE = 2**64


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes as hex."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """SHA-256 (hex) of the seed's UTF-8 bytes: published before the draw."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def verify_commitment(seed: str, published: str) -> bool:
    return hmac.compare_digest(commitment(seed), published.lower())


class DrawStream:
    """The deterministic random stream of one draw (steps 1–4 of the module text)."""

    def __init__(self, seed: str, ids: Sequence[str]) -> None:
        if not seed:
            raise InvalidInput("the draw seed is empty", rule="draw-seed", field="seed")
        self._key = seed.encode("utf-8")
        self._message = "\n".join(sorted(ids)).encode("utf-8")
        self._counter = 0
        self._buffer = b""

    def _read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = self._message + b"\n" + self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        if n < 1:
            raise InvalidInput(f"cannot draw below {n}", rule="draw-range")
        if n == 1:
            return 0
        limit = _SPACE - _SPACE % n
        while True:
            value = int.from_bytes(self._read(8), "big")
            if value < limit:
                return value % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def draw_order(entrants: Sequence[Entrant], seed: str) -> tuple[str, ...]:
    """All entry ids in drawn order (the shuffle of the sorted ids)."""
    ids = entry_ids(entrants)
    return tuple(DrawStream(seed, ids).shuffle(sorted(ids)))


def spread(
    order: Sequence[Entrant],
    capacities: Sequence[int],
    stream: DrawStream,
    *,
    already: Sequence[Sequence[Entrant]] = (),
) -> list[list[str]]:
    """Deal entrants into containers (groups, bracket quarters, tables) of the given free capacity.

    Branches are dealt largest first (ties and order within a branch as drawn); each entry goes
    to a container holding the fewest of its branch (counting ``already`` placed entries), then
    the one with most room, then one chosen by the stream. Dealing a branch across the
    containers this way gives no container more than ceil(size / containers) of it whenever
    the rooms allow; an entry without a branch is a branch of its own, so without branches this
    is a plain random deal.
    """
    if sum(capacities) != len(order):
        raise InvalidInput(f"{len(order)} entries do not fill {sum(capacities)} places", rule="draw-capacity")
    keys = [branch_key(e) for e in order]
    size = Counter(keys) + Counter(branch_key(e) for placed in already for e in placed)
    first_seen = {k: i for i, k in reversed(list(enumerate(keys)))}
    dealt = sorted(range(len(order)), key=lambda i: (-size[keys[i]], first_seen[keys[i]], i))
    counts = [Counter(branch_key(e) for e in placed) for placed in already] or [Counter() for _ in capacities]
    free = list(capacities)
    out: list[list[str]] = [[] for _ in capacities]
    for i in dealt:
        open_ = [c for c in range(len(free)) if free[c] > 0]
        best = min((counts[c][keys[i]], -free[c]) for c in open_)
        ties = [c for c in open_ if (counts[c][keys[i]], -free[c]) == best]
        chosen = ties[stream.below(len(ties))]
        out[chosen].append(order[i].entry_id)
        counts[chosen][keys[i]] += 1
        free[chosen] -= 1
    return out


@dataclass(frozen=True)
class GroupDraw:
    groups: tuple[Group, ...]
    same_branch: tuple[SharedBranch, ...]
    """Branches that share a group; after a separating draw only where the sizes forced it."""


def balanced_sizes(count: int, parts: int) -> list[int]:
    """Sizes differing by at most one, larger first: 7 into 3 → [3, 2, 2]."""
    return [count // parts + (1 if i < count % parts else 0) for i in range(parts)]


def draw_groups(
    entrants: Sequence[Entrant],
    seed: str,
    *,
    group_names: Sequence[str] = ("A", "B"),
    separate_branches: bool = True,
) -> GroupDraw:
    """Split by lot into groups of balanced size (seed 000 A/B, seed 002 A/B, seed 004 groups).

    Within a group the entries are shuffled once more, so the drawn number (position) is random
    too. Without ``separate_branches`` branches are ignored.
    """
    ids = entry_ids(entrants)
    _check_group_names(group_names, len(ids))
    stream = DrawStream(seed, ids)
    by_id = {e.entry_id: e for e in entrants}
    order = [by_id[i] for i in stream.shuffle(sorted(ids))]
    if not separate_branches:
        order = [Entrant(e.entry_id) for e in order]
    sizes = balanced_sizes(len(ids), len(group_names))
    # larger groups first, then the names shuffled, so no name is favoured for the larger size
    names = stream.shuffle(list(group_names))
    dealt = spread(order, sizes, stream)
    groups = {name: tuple(stream.shuffle(members)) for name, members in zip(names, dealt, strict=True)}
    return _group_draw([Group(n, groups[n]) for n in group_names], by_id)


def record_groups(
    entrants: Sequence[Entrant], groups: Sequence[Group], *, group_names: Sequence[str] = ("A", "B")
) -> GroupDraw:
    """Check a physical draw: the expected group names, every entry exactly once, balanced sizes."""
    ids = entry_ids(entrants)
    _check_group_names(group_names, len(ids))
    if sorted(g.name for g in groups) != sorted(group_names):
        raise InvalidInput(
            f"groups {sorted(g.name for g in groups)} do not match {sorted(group_names)}",
            rule="draw-group-names",
            field="groups",
        )
    placed = Counter(i for g in groups for i in g.entry_ids)
    unknown = sorted(set(placed) - set(ids))
    missing = sorted(set(ids) - set(placed))
    twice = sorted(i for i, n in placed.items() if n > 1)
    if unknown or missing or twice:
        raise InvalidInput(
            f"every entry must be drawn exactly once: {len(unknown)} unknown ({', '.join(unknown)}), "
            f"{len(missing)} missing ({', '.join(missing)}), {len(twice)} twice ({', '.join(twice)})",
            rule="draw-coverage",
            field="groups",
        )
    sizes = [len(g.entry_ids) for g in groups]
    if max(sizes) - min(sizes) > 1:
        raise RuleViolation(
            f"group sizes {sizes} differ by more than one", rule="draw-groups-unbalanced", field="groups"
        )
    by_name = {g.name: g for g in groups}
    return _group_draw([by_name[n] for n in group_names], {e.entry_id: e for e in entrants})


def _check_group_names(group_names: Sequence[str], count: int) -> None:
    if not group_names or len(set(group_names)) != len(group_names):
        raise InvalidInput(
            f"group names {list(group_names)} must be distinct and not empty",
            rule="draw-group-names",
            field="group_names",
        )
    if count < len(group_names):
        raise RuleViolation(
            f"{count} entries cannot fill {len(group_names)} groups", rule="draw-too-few", field="entrants"
        )


def _group_draw(groups: Sequence[Group], by_id: Mapping[str, Entrant]) -> GroupDraw:
    return GroupDraw(
        groups=tuple(groups),
        same_branch=tuple(s for g in groups for s in shared_branches(g.name, g.entry_ids, by_id)),
    )


def lot_numbers(entry_ids: Sequence[str], seed: str) -> dict[str, int]:
    """Lots that settle a tie nothing else separates (seed 000 附件 §七.2 抽签决定名次), drawn from
    the event's revealed draw seed under its own label, so anyone can rerun them: 1 ranks first."""
    order = DrawStream(f"{seed}:lots", sorted(entry_ids)).shuffle(sorted(entry_ids))
    return {entry_id: number for number, entry_id in enumerate(order, start=1)}
