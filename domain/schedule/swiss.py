"""Swiss pairing of Guandan pairs (seed 001: 循环积分赛, four rounds).

Round 1 is random by computer (seed 001 补充说明 10): the drawn order stands in for a standing.
Later rounds pair by the standing: wins, then points (seed 001 补充说明 3), then entry id.

The pairing is an optimal matching, not greedy. With entries at places 0..n-1 of the standing
order (after the bye is taken out):

- cost of a pairing = (difference of places)² + PENALTY if both entries are of one branch;
- PENALTY exceeds any sum of place costs, so a same-branch meeting only happens when every
  pairing of the field without rematches has at least as many;
- rematches are not edges at all;
- the round minimises the total cost.

Two exchange facts make the big fields fast without losing the optimum. Call (u, v) "bad" when
it is a rematch or a same-branch pair. (1) Uncrossing: for places a1 < a2 and b1, b2 both above
a2, (a1, a2) + (b1, b2) costs strictly less than (a1, b1) + (a2, b2) in places (the square is
strictly convex). (2) Shortcut: if (i, j) is paired and a lies strictly between them, paired
with b, then re-pairing i with a and j with b (for b outside or above a) is strictly cheaper.
From (2): let D be the longest pairing of an optimum and (i, j) one of that length; every one
of the ceil((D-1)/2) or more pairings touching the places between i and j must be blocked by a
bad pair of i or j, each with a distinct vertex within 2D places; so a pairing (i, j) of
length d needs ceil((d-1)/2) <= bad_i(2K) + bad_j(2K), where K is the largest length for which
any pair passes that test. Only such pairs become edges. From (1): two optimal pairings cannot
both cross the cut before place p unless two of their left ends or two of their right ends are
bad; where no candidate edge ends allow that and p is even, no optimal pairing crosses p at all,
so the field splits there into parts solved one by one (networkx's blossom on each part).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

from domain.errors import InvalidInput, RuleViolation
from domain.schedule.draw import draw_order
from domain.schedule.entrants import Entrant, SeatAssignment, entry_ids, pair_seats


@dataclass(frozen=True)
class SwissStanding:
    entry_id: str
    wins: int = 0
    points: int = 0
    opponents: frozenset[str] = field(default_factory=frozenset)
    had_bye: bool = False
    branch: str | None = None


@dataclass(frozen=True)
class SwissTable:
    """Table numbers follow the standing (1 = top); the first-named entry sits E–W."""

    table_no: int
    ew_entry: str
    ns_entry: str
    place_cost: int
    same_branch: bool
    seats: tuple[SeatAssignment, ...]


@dataclass(frozen=True)
class SwissReport:
    bye: str | None
    total_cost: int
    """Sum of (difference of places)² over the tables; same-branch penalties not included."""
    rematches_avoided: int
    """Neighbouring places (1st–2nd, 3rd–4th, …) that had met before, so could not be paired."""
    same_branch: tuple[tuple[str, str], ...]
    reason: str


@dataclass(frozen=True)
class SwissRound:
    round_no: int
    tables: tuple[SwissTable, ...]
    bye: str | None
    report: SwissReport


def standing_order(standings: Sequence[SwissStanding]) -> list[SwissStanding]:
    """Wins, then points, highest first (seed 001 补充说明 3); entry id keeps it total."""
    return sorted(standings, key=lambda s: (-s.wins, -s.points, s.entry_id))


def check_rounds(n_entries: int, rounds: int) -> None:
    """Refuse a round count that some sequence of results could leave unpairable without a rematch.

    With a bye counted as an opponent, an entry has met r others after r rounds; while each has
    at least half of the (even) field left to meet, Dirac's theorem gives a Hamiltonian cycle in
    the not-yet-met graph and so a pairing: rounds <= ceil(n/2) is always safe. Beyond that some
    results (for 6 entries: two triangles of rematches) stall the pairing.
    """
    if n_entries < 2:
        raise RuleViolation(f"a Swiss event needs at least 2 entries, not {n_entries}", rule="swiss-entries")
    safe = (n_entries + 1) // 2
    if rounds < 1 or rounds > safe:
        raise RuleViolation(
            f"{rounds} rounds for {n_entries} entries: at most {safe} rounds can always be paired "
            "without a rematch",
            rule="swiss-rounds",
            field="rounds",
        )


def pair_first_round(
    entrants: Sequence[Entrant], seed: str, *, players: Mapping[str, tuple[str, str]] | None = None
) -> SwissRound:
    """Round 1 by lot (seed 001 补充说明 10): the drawn order is paired as if it were a standing."""
    by_id = {e.entry_id: e for e in entrants}
    order = draw_order(entrants, seed)
    standings = [SwissStanding(entry_id=i, branch=by_id[i].branch) for i in order]
    return _pair(standings, round_no=1, players=players)


def pair_round(
    standings: Sequence[SwissStanding],
    *,
    round_no: int,
    players: Mapping[str, tuple[str, str]] | None = None,
) -> SwissRound:
    """A later round: optimal pairing by the current standing (see the module text)."""
    return _pair(standing_order(standings), round_no=round_no, players=players)


def _pair(
    order: list[SwissStanding], *, round_no: int, players: Mapping[str, tuple[str, str]] | None
) -> SwissRound:
    ids = entry_ids([Entrant(s.entry_id) for s in order])
    if len(ids) < 2:
        raise RuleViolation(f"{len(ids)} entries cannot be paired", rule="swiss-entries")
    known = set(ids)
    for s in order:
        if s.entry_id in s.opponents or not s.opponents <= known:
            raise InvalidInput(
                f"{s.entry_id}: opponents must be other entries of the field", rule="swiss-opponents"
            )
    # the bye goes to the lowest-placed entry without one that still leaves a pairing
    candidates: list[int | None] = [None]
    if len(order) % 2:
        candidates = [i for i in reversed(range(len(order))) if not order[i].had_bye]
    for bye in candidates:
        field_ = [s for i, s in enumerate(order) if i != bye]
        pairs = _optimal_pairs(field_)
        if pairs is not None:
            return _round(
                field_, pairs, bye=None if bye is None else order[bye], round_no=round_no, players=players
            )
    raise RuleViolation(
        f"round {round_no}: no pairing of {len(order)} entries avoids a rematch "
        f"({len(candidates)} bye candidate(s) tried)",
        rule="swiss-no-pairing",
        field="round_no",
    )


def _optimal_pairs(field_: list[SwissStanding]) -> list[tuple[int, int]] | None:
    """Minimum-cost perfect matching on places 0..n-1, or None when none avoids a rematch."""
    n = len(field_)
    place = {s.entry_id: i for i, s in enumerate(field_)}
    rematch = [{place[o] for o in s.opponents if o in place} for s in field_]
    same = _same_branch(field_)
    bad_distances = [sorted(abs(i - j) for j in rematch[i] | same[i]) for i in range(n)]
    penalty = (n // 2) * (n - 1) ** 2 + 1

    def bad_within(i: int, radius: int) -> int:
        return bisect_right(bad_distances[i], radius)

    def passes(i: int, j: int, reach: int) -> bool:
        return j not in rematch[i] and (j - i) // 2 <= bad_within(i, reach) + bad_within(j, reach)

    # K: the longest pairing any optimum can contain (fact 2); ceil((d-1)/2) == d // 2
    longest = 1
    most_bad = max(len(b) for b in bad_distances)
    for d in range(2, n):
        if d // 2 > 2 * most_bad:
            break
        if any(passes(i, i + d, 2 * d) for i in range(n - d)):
            longest = d
    edges = [
        [j for j in range(i + 1, min(n, i + longest + 1)) if passes(i, j, 2 * longest)] for i in range(n)
    ]
    pairs: list[tuple[int, int]] = []
    start = 0
    bad = [rematch[i] | same[i] for i in range(n)]
    for cut in [*_safe_cuts(edges, bad, longest), n]:
        part = _solve_part(range(start, cut), edges, same, penalty)
        if part is None:
            return None
        pairs.extend(part)
        start = cut
    return sorted(pairs)


def _same_branch(field_: list[SwissStanding]) -> list[set[int]]:
    members: dict[str, list[int]] = {}
    for i, s in enumerate(field_):
        if s.branch is not None:
            members.setdefault(s.branch, []).append(i)
    return [set(members[s.branch]) - {i} if s.branch is not None else set() for i, s in enumerate(field_)]


def _safe_cuts(edges: list[list[int]], bad: list[set[int]], longest: int) -> list[int]:
    """Even places p where no optimal pairing crosses between p-1 and p (fact 1)."""
    reach = [max(e, default=i) for i, e in enumerate(edges)]
    cuts = []
    for p in range(2, len(edges) - 1, 2):
        left = {i for i in range(max(0, p - longest), p) if reach[i] >= p}
        right = {j for i in left for j in edges[i] if j >= p}
        if not any(bad[v] & side for side in (left, right) for v in side):
            cuts.append(p)
    return cuts


def _solve_part(
    places: range, edges: list[list[int]], same: list[set[int]], penalty: int
) -> list[tuple[int, int]] | None:
    graph = nx.Graph()
    graph.add_nodes_from(places)
    costs = {
        (i, j): (j - i) ** 2 + (penalty if j in same[i] else 0)
        for i in places
        for j in edges[i]
        if j < places.stop
    }
    top = max(costs.values(), default=0) + 1
    # maximum weight among maximum-cardinality matchings == minimum cost among perfect ones
    graph.add_weighted_edges_from((i, j, top - c) for (i, j), c in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(places):
        return None
    return [(min(u, v), max(u, v)) for u, v in matching]


def _round(
    field_: list[SwissStanding],
    pairs: list[tuple[int, int]],
    *,
    bye: SwissStanding | None,
    round_no: int,
    players: Mapping[str, tuple[str, str]] | None,
) -> SwissRound:
    players = players or {}
    tables = []
    for table_no, (i, j) in enumerate(pairs, start=1):
        high, low = field_[i], field_[j]
        # seed 001 补充说明 4: 前者为东西，后者为南北 — the higher-placed entry is named first
        tables.append(
            SwissTable(
                table_no=table_no,
                ew_entry=high.entry_id,
                ns_entry=low.entry_id,
                place_cost=(j - i) ** 2,
                same_branch=high.branch is not None and high.branch == low.branch,
                seats=pair_seats(
                    (low.entry_id, None, players.get(low.entry_id)),
                    (high.entry_id, None, players.get(high.entry_id)),
                ),
            )
        )
    same_branch = tuple((t.ew_entry, t.ns_entry) for t in tables if t.same_branch)
    neighbours_met = sum(
        1 for k in range(0, len(field_) - 1, 2) if field_[k + 1].entry_id in field_[k].opponents
    )
    reason = (
        f"{len(same_branch)} same-branch meeting(s): every pairing of this field without a rematch "
        f"has at least {len(same_branch)}"
        if same_branch
        else "no same-branch meeting"
    )
    return SwissRound(
        round_no=round_no,
        tables=tuple(tables),
        bye=bye.entry_id if bye else None,
        report=SwissReport(
            bye=bye.entry_id if bye else None,
            total_cost=sum(t.place_cost for t in tables),
            rematches_avoided=neighbours_met,
            same_branch=same_branch,
            reason=reason,
        ),
    )
