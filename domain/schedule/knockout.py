"""Knockout brackets (淘汰赛: seeds 002, 003, 004).

The bracket has the next power of two of slots. Slots follow the standard seeding order
(1 v 16, 8 v 9, …, so seeds 1 and 2 can only meet in the final); seeded entries take the top
ranks, byes the bottom ranks — so byes face the top seeds and are spread over the bracket by the
same order, all in round 1 — and the others are drawn into the remaining ranks, dealt across
the quarters so one branch's entries sit in different quarters where possible. Groups A/B
(seed 002) are separate brackets: draw the groups first (``draw.draw_groups``), then a bracket
for each.

Results arrive as winners per (round_no, match_no); ``bracket_rounds`` fills every later match
as far as they allow. Placement tiers are data: a ``Tier`` names the winners or the losers of a
round, counted from 1, or from the final of the full bracket when negative (-1 = the final).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from domain.errors import Conflict, InvalidInput, RuleViolation
from domain.events.models import Bracket
from domain.schedule.draw import DrawStream, spread
from domain.schedule.entrants import Entrant, SharedBranch, entry_ids, shared_branches


def bracket_size(n_entries: int) -> int:
    if n_entries < 2:
        raise RuleViolation(f"a knockout needs at least 2 entries, not {n_entries}", rule="knockout-entries")
    return 1 << (n_entries - 1).bit_length()


def standard_order(size: int) -> tuple[int, ...]:
    """The seed rank at each slot: 4 → (1, 4, 2, 3); 8 → (1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        # each rank r of the smaller bracket opens a match against 2·len + 1 - r
        order = [rank for r in order for rank in (r, 2 * len(order) + 1 - r)]
    return tuple(order)


@dataclass(frozen=True)
class BracketDraw:
    slots: tuple[str | None, ...]
    """Entry ids in bracket order; None is a bye. Slots 2k and 2k+1 meet in round 1."""
    same_branch: tuple[SharedBranch, ...]
    """Branches sharing a quarter; after a separating draw only where the numbers forced it."""


def draw_bracket(entrants: Sequence[Entrant], seed: str, *, separate_branches: bool = True) -> BracketDraw:
    """Draw a bracket: seeded entries by the standard order, the others by lot (see module text)."""
    ids = entry_ids(entrants)
    size = bracket_size(len(ids))
    stream = DrawStream(seed, ids)
    seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: (e.seed or 0, e.entry_id))
    if any((e.seed or 0) < 1 for e in seeded) or len({e.seed for e in seeded}) != len(seeded):
        raise InvalidInput("seed numbers must be distinct and positive", rule="knockout-seeds", field="seed")
    by_id = {e.entry_id: e for e in entrants}
    # the seed numbers' order gives ranks 1..s, whatever the numbers themselves are
    by_rank = {rank: e.entry_id for rank, e in enumerate(seeded, start=1)}
    unseeded = [by_id[i] for i in stream.shuffle(sorted(i for i in ids if by_id[i].seed is None))]
    if not separate_branches:
        unseeded = [Entrant(e.entry_id) for e in unseeded]
    order = standard_order(size)
    sections = min(4, size // 2)
    width = size // sections
    free = [
        [slot for slot in range(q * width, (q + 1) * width) if len(seeded) < order[slot] <= len(ids)]
        for q in range(sections)
    ]
    already = [
        [by_id[by_rank[order[slot]]] for slot in range(q * width, (q + 1) * width) if order[slot] in by_rank]
        for q in range(sections)
    ]
    dealt = spread(unseeded, [len(f) for f in free], stream, already=already)
    slots: list[str | None] = [by_rank.get(order[slot]) for slot in range(size)]
    for section_free, members in zip(free, dealt, strict=True):
        for slot, entry_id in zip(section_free, stream.shuffle(members), strict=True):
            slots[slot] = entry_id
    return _bracket_draw(slots, by_id, width)


def record_bracket(entrants: Sequence[Entrant], slots: Sequence[str | None]) -> BracketDraw:
    """Check a physical draw: a full bracket, every entry once, no match of two byes."""
    ids = entry_ids(entrants)
    size = bracket_size(len(ids))
    placed = [s for s in slots if s is not None]
    if len(slots) != size or sorted(placed) != sorted(ids):
        raise InvalidInput(
            f"a bracket for {len(ids)} entries has {size} slots holding every entry once; "
            f"got {len(slots)} slots holding {len(placed)} entries ({len(set(placed))} distinct)",
            rule="draw-coverage",
            field="slots",
        )
    empty = [k + 1 for k in range(0, size, 2) if slots[k] is None and slots[k + 1] is None]
    if empty:
        raise RuleViolation(
            f"round-1 match(es) {empty} would have two byes", rule="knockout-bye-pair", field="slots"
        )
    return _bracket_draw(list(slots), {e.entry_id: e for e in entrants}, size // min(4, size // 2))


def _bracket_draw(slots: list[str | None], by_id: Mapping[str, Entrant], width: int) -> BracketDraw:
    quarters = [slots[k : k + width] for k in range(0, len(slots), width)]
    return BracketDraw(
        slots=tuple(slots),
        same_branch=tuple(
            s
            for q, members in enumerate(quarters, start=1)
            for s in shared_branches(f"quarter {q}", [m for m in members if m is not None], by_id)
        ),
    )


@dataclass(frozen=True)
class KnockoutMatch:
    round_no: int
    match_no: int
    top: str | None
    bottom: str | None
    winner: str | None
    bye: bool
    """One side is absent for good (a round-1 bye); the other goes through without playing."""
    third_place: bool = False

    @property
    def bracket(self) -> Bracket:
        return Bracket.THIRD_PLACE if self.third_place else Bracket.MAIN

    @property
    def loser(self) -> str | None:
        if self.winner is None or self.bye:
            return None
        return self.bottom if self.winner == self.top else self.top


@dataclass(frozen=True)
class KnockoutRound:
    round_no: int
    matches: tuple[KnockoutMatch, ...]


def bracket_rounds(
    slots: Sequence[str | None],
    winners: Mapping[tuple[int, int], str],
    *,
    rounds: int | None = None,
    third_place: bool = False,
) -> tuple[KnockoutRound, ...]:
    """Every match of the rounds played, filled from the winners known so far (None: undecided).

    ``rounds`` stops early (seed 003 plays 3 rounds of a 32 bracket, seed 002 two); a third-place
    match (seed 004) is match 2 of the final round, between the semi-final losers.
    """
    total = len(slots).bit_length() - 1
    if len(slots) < 2 or len(slots) != 1 << total:
        raise InvalidInput(f"a bracket has a power of two slots, not {len(slots)}", rule="knockout-size")
    played = total if rounds is None else rounds
    if not 1 <= played <= total or (third_place and played != total):
        raise InvalidInput(
            f"{played} round(s) of a {total}-round bracket"
            + (" with a third-place match, which needs the final" if third_place else ""),
            rule="knockout-rounds",
            field="rounds",
        )
    out: list[KnockoutRound] = []
    sides: list[tuple[str | None, str | None, bool]] = [
        (slots[k], slots[k + 1], slots[k] is None or slots[k + 1] is None) for k in range(0, len(slots), 2)
    ]
    for round_no in range(1, played + 1):
        matches = [
            _match(round_no, match_no, top, bottom, bye=bye, winners=winners)
            for match_no, (top, bottom, bye) in enumerate(sides, start=1)
        ]
        if third_place and round_no == total and total >= 2:
            semis = out[-1].matches
            top, bottom = semis[0].loser, semis[1].loser
            absent = semis[0].bye or semis[1].bye
            matches.append(_match(round_no, 2, top, bottom, bye=absent, winners=winners, third_place=True))
        out.append(KnockoutRound(round_no=round_no, matches=tuple(matches)))
        winners_now = [m.winner for m in matches if not m.third_place]
        sides = [(winners_now[k], winners_now[k + 1], False) for k in range(0, len(winners_now) - 1, 2)]
    known = {(m.round_no, m.match_no) for r in out for m in r.matches}
    stray = sorted(set(winners) - known)
    if stray:
        raise InvalidInput(f"results for matches not in the bracket: {stray}", rule="knockout-match")
    return tuple(out)


def _match(
    round_no: int,
    match_no: int,
    top: str | None,
    bottom: str | None,
    *,
    bye: bool,
    winners: Mapping[tuple[int, int], str],
    third_place: bool = False,
) -> KnockoutMatch:
    reported = winners.get((round_no, match_no))
    if bye:
        winner = top or bottom
        if reported is not None and reported != winner:
            raise Conflict(
                f"round {round_no} match {match_no} is a bye for {winner}, not a win for {reported}",
                rule="knockout-winner-not-in-match",
            )
    else:
        winner = reported
        if reported is not None and (top is None or bottom is None):
            raise Conflict(
                f"round {round_no} match {match_no}: a winner ({reported}) before both sides are known",
                rule="knockout-winner-early",
            )
        if reported is not None and reported not in (top, bottom):
            raise Conflict(
                f"round {round_no} match {match_no}: {reported} is neither {top} nor {bottom}",
                rule="knockout-winner-not-in-match",
            )
    return KnockoutMatch(round_no, match_no, top, bottom, winner, bye, third_place)


@dataclass(frozen=True)
class Tier:
    name: str
    round_no: int
    """Counted from 1, or from the full bracket's final when negative (-1 = the final)."""
    outcome: Literal["winners", "losers"]
    third_place: bool = False


@dataclass(frozen=True)
class Placement:
    tier: str
    entry_ids: tuple[str, ...]


# seed 002 三: the 8 left after round 2 (32→16→8) of each group
SEED_002_TIERS = (Tier("top-8", -4, "winners"),)
# seed 003 §十: 第三轮获胜方为一等奖，负方为二等奖，第二轮负方为三等奖
SEED_003_TIERS = (
    Tier("first-prize", 3, "winners"),
    Tier("second-prize", 3, "losers"),
    Tier("third-prize", 2, "losers"),
)
# seed 004 掼蛋 1: 最后角逐一、二、三、四名
SEED_004_TIERS = (
    Tier("1", -1, "winners"),
    Tier("2", -1, "losers"),
    Tier("3", -1, "winners", third_place=True),
    Tier("4", -1, "losers", third_place=True),
)


def placements(
    slots: Sequence[str | None], rounds: Sequence[KnockoutRound], tiers: Sequence[Tier]
) -> tuple[Placement, ...]:
    """Each entry once: the first tier it qualifies for, else the round it lost in.

    Entries in no tier are under "lost-round-<r>", "won-round-<r>" (the last round played) or
    "undecided".
    """
    total = len(slots).bit_length() - 1
    placed: set[str] = set()
    out: list[Placement] = []

    def add(name: str, members: Sequence[str | None]) -> None:
        fresh = tuple(dict.fromkeys(m for m in members if m is not None and m not in placed))
        placed.update(fresh)
        if fresh:
            out.append(Placement(name, fresh))

    for tier in tiers:
        round_no = tier.round_no if tier.round_no > 0 else total + 1 + tier.round_no
        matches = [
            m
            for r in rounds
            if r.round_no == round_no
            for m in r.matches
            if m.third_place == tier.third_place
        ]
        add(tier.name, [m.winner if tier.outcome == "winners" else m.loser for m in matches])
    if rounds:
        add(f"won-round-{rounds[-1].round_no}", [m.winner for m in rounds[-1].matches if not m.third_place])
    for r in reversed(rounds):
        add(f"lost-round-{r.round_no}", [m.loser for m in r.matches])
    add("undecided", list(slots))
    return tuple(out)
