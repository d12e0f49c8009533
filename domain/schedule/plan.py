"""From a draw to a round's tables, for every format: pure functions over plain values.

The draw's result is stored as JSON with integer entry ids; the pure algorithms work on their
decimal strings (``str(entry_id)``), so ``GET …/draw`` can be rerun by anyone. A planned round is
what the service stores as Match, MatchEntry and Game rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import Conflict, RuleViolation
from domain.events.models import Bracket, ConfirmedEntry, EventConfig, LineupValue, RosterMember
from domain.schedule import draw, gongzhu_tables, knockout, rotation, roundrobin, swiss
from domain.schedule.entrants import Entrant, Group, SeatAssignment, SharedBranch
from domain.schedule.models import Stage

TEAM_ROTATION = "team_rotation"
SWISS = "swiss"
KNOCKOUT = "knockout"
ROUND_ROBIN = "round_robin"
GONGZHU = "gongzhu"
# seed 000 §八.2: A sits N–S, B sits E–W
ROTATION_GROUPS = ("A", "B")
SINGLE_GROUP = ("A",)
# partners sit opposite: N and E hold a pair's first player, S and W its second
SLOT = {"N": 0, "E": 0, "S": 1, "W": 1, "first": 0, "second": 0}


def schedule_kind(*, discipline: str, format_: str) -> str:
    """Gongzhu plays tables of four whatever the event's format says (seed 004 拱猪 7)."""
    return GONGZHU if discipline == GONGZHU else format_


def entrants_of(entries: Sequence[ConfirmedEntry]) -> list[Entrant]:
    return [
        Entrant(str(e.entry_id), e.branch_code, e.seed) for e in sorted(entries, key=lambda e: e.entry_id)
    ]


def _ids(values: Sequence[str | None]) -> list[int | None]:
    return [int(v) if v is not None else None for v in values]


def _int_ids(values: Sequence[str]) -> list[int]:
    return [int(v) for v in values]


def _shared(shared: Sequence[SharedBranch]) -> list[dict[str, Any]]:
    return [{"where": s.where, "branch": s.branch, "entry_ids": _int_ids(s.entry_ids)} for s in shared]


def group_names(kind: str, config: EventConfig) -> tuple[str, ...]:
    if kind == TEAM_ROTATION:
        return tuple(config.groups) or ROTATION_GROUPS
    if kind == ROUND_ROBIN:
        return tuple(config.groups) or SINGLE_GROUP
    return tuple(config.groups)


def stages(kind: str, config: EventConfig) -> tuple[Stage, ...]:
    """The event's stages in order: a round robin that sends the top of each group on plays a
    final round robin (seed 004 §三.1 第二阶段单循环决定名次); every other format plays one."""
    if kind == ROUND_ROBIN and config.advance_per_group is not None:
        return (Stage.MAIN, Stage.FINAL)
    return (Stage.MAIN,)


def check_format(kind: str, n_entries: int, config: EventConfig) -> None:
    """Refuses, before any draw, a round count the format cannot play without a rematch."""
    if kind == SWISS and config.rounds is not None:
        swiss.check_rounds(n_entries, config.rounds)
    if kind == TEAM_ROTATION and config.rounds is not None:
        blocks = (n_entries + 1) // 2
        if config.rounds > blocks:
            raise RuleViolation(
                f"{config.rounds} rounds with {n_entries} teams ({blocks} blocks): a team would meet an "
                f"opponent twice after round {blocks} (seed 000 §八.2 rotates one block per round)",
                rule="rotation-rematch",
                field="config.rounds",
            )
    if kind == KNOCKOUT:
        groups = group_names(kind, config) or ("",)
        smallest = n_entries // len(groups)
        size = knockout.bracket_size(smallest)
        knockout.bracket_rounds([None] * size, {}, rounds=config.rounds, third_place=config.third_place_match)


# The draw --------------------------------------------------------------------------------------


def draw_result(kind: str, entrants: Sequence[Entrant], seed: str, *, config: EventConfig) -> dict[str, Any]:
    """What a computer draw assigns, per format (module text of draw.py for the stream)."""
    apart = config.same_branch_apart
    names = group_names(kind, config)
    if kind in (TEAM_ROTATION, ROUND_ROBIN):
        drawn = draw.draw_groups(entrants, seed, group_names=names, separate_branches=apart)
        return {
            "groups": {g.name: _int_ids(g.entry_ids) for g in drawn.groups},
            "same_branch": _shared(drawn.same_branch),
        }
    if kind == KNOCKOUT:
        return _knockout_result(entrants, seed, names=names, apart=apart)
    if kind == SWISS:
        first = swiss.pair_first_round(entrants, seed)
        return {
            "order": _int_ids(draw.draw_order(entrants, seed)),
            "tables": [
                {"table_no": t.table_no, "ew": int(t.ew_entry), "ns": int(t.ns_entry)} for t in first.tables
            ],
            "bye": int(first.bye) if first.bye else None,
            "same_branch": [_int_ids(pair) for pair in first.report.same_branch],
        }
    tables = gongzhu_tables.draw_tables(entrants, seed)
    return _gongzhu_result(tables)


def _knockout_result(
    entrants: Sequence[Entrant], seed: str, *, names: Sequence[str], apart: bool
) -> dict[str, Any]:
    """Groups first (seed 002: A and B drawn separately), then a bracket for each by the same seed."""
    if not names:
        bracket = knockout.draw_bracket(entrants, seed, separate_branches=apart)
        return {
            "brackets": [{"group": None, "slots": _ids(bracket.slots)}],
            "same_branch": _shared(bracket.same_branch),
        }
    drawn = draw.draw_groups(entrants, seed, group_names=names, separate_branches=apart)
    by_id = {e.entry_id: e for e in entrants}
    brackets = []
    shared = list(drawn.same_branch)
    for group in drawn.groups:
        bracket = knockout.draw_bracket([by_id[i] for i in group.entry_ids], seed, separate_branches=apart)
        brackets.append({"group": group.name, "slots": _ids(bracket.slots)})
        shared.extend(
            SharedBranch(f"{group.name} {s.where}", s.branch, s.entry_ids) for s in bracket.same_branch
        )
    return {
        "groups": {g.name: _int_ids(g.entry_ids) for g in drawn.groups},
        "brackets": brackets,
        "same_branch": _shared(shared),
    }


def _gongzhu_result(tables: gongzhu_tables.GongzhuRound) -> dict[str, Any]:
    return {
        "tables": [
            {"table_no": t.table_no, "seats": {s.seat: int(s.entry_id) for s in t.seats}}
            for t in tables.tables
        ],
        "byes": _int_ids(tables.byes),
        "same_branch": _shared(tables.same_branch),
    }


def physical_result(
    kind: str,
    entrants: Sequence[Entrant],
    *,
    groups: Sequence[Group],
    brackets: Sequence[tuple[str | None, Sequence[str | None]]],
    config: EventConfig,
) -> dict[str, Any]:
    """Checks and stores lots drawn on site: groups (rotation, round robin) or brackets (knockout)."""
    names = group_names(kind, config)
    if kind in (TEAM_ROTATION, ROUND_ROBIN):
        recorded = draw.record_groups(entrants, groups, group_names=names)
        return {
            "groups": {g.name: _int_ids(g.entry_ids) for g in recorded.groups},
            "same_branch": _shared(recorded.same_branch),
        }
    if kind != KNOCKOUT:
        raise RuleViolation(
            f"a {kind} event is drawn by computer (seed 001 补充说明 10: 第一轮电脑随机抽签); "
            "only groups and brackets can be recorded from lots drawn on site",
            rule="physical-draw-format",
            field="groups",
        )
    by_id = {e.entry_id: e for e in entrants}
    parts: list[tuple[str | None, list[Entrant]]] = [(None, list(entrants))]
    result: dict[str, Any] = {}
    if names:
        recorded = draw.record_groups(entrants, groups, group_names=names)
        parts = [(g.name, [by_id[i] for i in g.entry_ids]) for g in recorded.groups]
        result["groups"] = {g.name: _int_ids(g.entry_ids) for g in recorded.groups}
    given = dict(brackets)
    if sorted(given, key=str) != sorted((name for name, _ in parts), key=str):
        raise RuleViolation(
            f"one bracket per group is needed: groups {[name for name, _ in parts]}, brackets {list(given)}",
            rule="draw-brackets",
            field="brackets",
        )
    shared: list[SharedBranch] = []
    result["brackets"] = []
    for name, members in parts:
        bracket = knockout.record_bracket(members, given[name])
        result["brackets"].append({"group": name, "slots": _ids(bracket.slots)})
        shared.extend(bracket.same_branch)
    result["same_branch"] = _shared(shared)
    return result


# Seats ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seater:
    """Fills a seat with the entry, and the player where one is known: a team's lineup pair
    (seed 000 §八.2), a pair's two players in roster order, an individual."""

    entries: Mapping[int, ConfirmedEntry]
    lineups: Mapping[int, LineupValue] = field(default_factory=dict)

    def player(self, entry_id: int, *, slot: int, pair_no: int | None) -> RosterMember | None:
        lineup = self.lineups.get(entry_id)
        if pair_no is not None:
            pairs = {p.pair_no: p.members for p in lineup.pairs} if lineup else {}
            return pairs[pair_no][slot] if pair_no in pairs else None
        players = sorted((m for m in self.entries[entry_id].members if m.is_player), key=lambda m: m.position)
        return players[slot] if slot < len(players) else None

    def seat(self, entry_id: int, key: str, *, pair_no: int | None = None) -> dict[str, Any]:
        entry = self.entries[entry_id]
        member = self.player(entry_id, slot=SLOT[key], pair_no=pair_no)
        return {
            "entry_id": entry_id,
            "entry_name": entry.name,
            "member_id": member.member_id if member else None,
            "name": member.name if member else (f"{entry.name} 第{pair_no}对" if pair_no else entry.name),
            "branch": entry.branch_name,
            "pair_no": pair_no,
        }

    def two_sides(self, ns: int, ew: int, *, pair_no: int | None = None) -> dict[str, Any]:
        return {
            "N": self.seat(ns, "N", pair_no=pair_no),
            "E": self.seat(ew, "E", pair_no=pair_no),
            "S": self.seat(ns, "S", pair_no=pair_no),
            "W": self.seat(ew, "W", pair_no=pair_no),
        }

    def refill(self, seats: Mapping[str, Any], swap: Mapping[int, int] | None = None) -> dict[str, Any]:
        """The seats again, with entries exchanged by ``swap`` and players as known now."""
        swap = swap or {}
        out = dict(seats)
        for key, seat in seats.items():
            if key in SLOT and isinstance(seat, dict):
                entry_id = swap.get(seat["entry_id"], seat["entry_id"])
                out[key] = self.seat(entry_id, key, pair_no=seat.get("pair_no"))
        return out


# Planned rounds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedGame:
    game_no: int
    table_no: int | None
    seats: dict[str, Any]


@dataclass(frozen=True)
class PlannedMatch:
    match_no: int
    sides: tuple[tuple[int, str | None], ...]
    """(entry id, side) in position order; one side is a bye."""
    games: tuple[PlannedGame, ...] = ()
    group: str | None = None
    block: int | None = None
    bracket_slot: int | None = None
    bracket: Bracket = Bracket.MAIN

    @property
    def is_bye(self) -> bool:
        return len(self.sides) == 1


@dataclass(frozen=True)
class PlannedRound:
    matches: tuple[PlannedMatch, ...]
    report: dict[str, Any]
    last: bool = False
    """The stage's last round: the Berger tables', the bracket's, the rule set's count, the final table."""


def _byes(entries: Sequence[int], *, first_no: int, group: str | None = None) -> list[PlannedMatch]:
    return [PlannedMatch(first_no + k, ((entry, None),), group=group) for k, entry in enumerate(entries)]


def _same_branch_meetings(matches: Sequence[PlannedMatch], seater: Seater) -> list[list[int]]:
    out = []
    for match in matches:
        branches = [seater.entries[entry].branch_code for entry, _ in match.sides]
        if len(match.sides) == 2 and branches[0] is not None and branches[0] == branches[1]:
            out.append([entry for entry, _ in match.sides])
    return out


def rotation_round(
    result: Mapping[str, Any], number: int, *, config: EventConfig, seater: Seater
) -> PlannedRound:
    """Seed 000 §八.2: round ``number`` of the A/B rotation, pair k against pair k at its own table."""
    group_a, group_b = (result["groups"][name] for name in group_names(TEAM_ROTATION, config))
    pairs = config.pairs_per_match or 5
    schedule = rotation.rotation_schedule(
        [str(e) for e in group_a],
        [str(e) for e in group_b],
        rounds=max(number, config.rounds or number),
        pairs_per_team=pairs,
    )
    played = schedule.rounds[number - 1]
    matches = [
        PlannedMatch(
            match_no=k,
            sides=((int(m.ns_entry), "NS"), (int(m.ew_entry), "EW")),
            block=m.block,
            games=tuple(
                PlannedGame(
                    t.pair_no,
                    t.table_no,
                    seater.two_sides(int(m.ns_entry), int(m.ew_entry), pair_no=t.pair_no),
                )
                for t in m.tables
            ),
        )
        for k, m in enumerate(played.matches, start=1)
    ]
    byes = [int(played.bye)] if played.bye else []
    matches += _byes(byes, first_no=len(matches) + 1)
    return PlannedRound(
        tuple(matches),
        {
            "byes": byes,
            "blocks": schedule.blocks,
            "rematches": 0,
            "reason": f"round {number} of {schedule.blocks} blocks: each round moves one group one block "
            "(seed 000 §八.2), so no two teams meet twice",
            "same_branch": _same_branch_meetings(matches, seater),
        },
        last=number >= schedule.blocks,
    )


def swiss_plan(played: swiss.SwissRound, *, seater: Seater) -> PlannedRound:
    """Seed 001 补充说明 4: the first-named entry (the higher placed) sits E–W."""
    matches = [
        PlannedMatch(
            match_no=t.table_no,
            sides=((int(t.ew_entry), "EW"), (int(t.ns_entry), "NS")),
            games=(PlannedGame(1, t.table_no, seater.two_sides(int(t.ns_entry), int(t.ew_entry))),),
        )
        for t in played.tables
    ]
    byes = [int(played.bye)] if played.bye else []
    matches += _byes(byes, first_no=len(matches) + 1)
    return PlannedRound(
        tuple(matches),
        {
            "byes": byes,
            "rematches_avoided": played.report.rematches_avoided,
            "place_cost": played.report.total_cost,
            "same_branch": [_int_ids(pair) for pair in played.report.same_branch],
            "reason": played.report.reason,
        },
    )


def swiss_first_round(result: Mapping[str, Any], *, seater: Seater) -> PlannedRound:
    """Round 1 as drawn (seed 001 补充说明 10: 第一轮电脑随机抽签排座位)."""
    matches = [
        PlannedMatch(
            match_no=t["table_no"],
            sides=((t["ew"], "EW"), (t["ns"], "NS")),
            games=(PlannedGame(1, t["table_no"], seater.two_sides(t["ns"], t["ew"])),),
        )
        for t in result["tables"]
    ]
    byes = [result["bye"]] if result.get("bye") else []
    matches += _byes(byes, first_no=len(matches) + 1)
    return PlannedRound(
        tuple(matches),
        {
            "byes": byes,
            "rematches_avoided": 0,
            "same_branch": result.get("same_branch", []),
            "reason": "round 1 is paired in the drawn order (seed 001 补充说明 10)",
        },
    )


def knockout_round(
    result: Mapping[str, Any],
    number: int,
    *,
    winners: Mapping[str | None, Mapping[tuple[int, int], str]],
    config: EventConfig,
    seater: Seater,
) -> PlannedRound:
    """Round ``number`` of every group's bracket, filled from the winners so far; the top slot
    sits N–S. Refused while a match of it still waits for a winner of the round before."""
    matches: list[PlannedMatch] = []
    byes: list[int] = []
    table_no = 0
    last = True
    for bracket in result["brackets"]:
        group = bracket["group"]
        slots = [str(s) if s is not None else None for s in bracket["slots"]]
        rounds = knockout.bracket_rounds(
            slots, winners.get(group, {}), rounds=config.rounds, third_place=config.third_place_match
        )
        if number > len(rounds):
            raise RuleViolation(
                f"the bracket plays {len(rounds)} round(s); there is no round {number}",
                rule="unknown-round",
                field="number",
            )
        last = last and number == len(rounds)
        for m in rounds[number - 1].matches:
            if m.bye:
                present = m.top or m.bottom
                if present is not None:
                    byes.append(int(present))
                    matches.append(
                        PlannedMatch(
                            len(matches) + 1, ((int(present), None),), group=group, bracket_slot=m.match_no
                        )
                    )
                continue
            if m.top is None or m.bottom is None:
                raise Conflict(
                    f"round {number} match {m.match_no}{f' of group {group}' if group else ''} waits for a "
                    f"winner of round {number - 1}: every result of the previous round must be final",
                    rule="results-not-final",
                    field="number",
                )
            table_no += 1
            top, bottom = int(m.top), int(m.bottom)
            matches.append(
                PlannedMatch(
                    len(matches) + 1,
                    ((top, "NS"), (bottom, "EW")),
                    games=(PlannedGame(1, table_no, seater.two_sides(top, bottom)),),
                    group=group,
                    bracket_slot=m.match_no,
                    bracket=m.bracket,
                )
            )
    return PlannedRound(
        tuple(matches),
        {
            "byes": byes,
            "same_branch": _same_branch_meetings(matches, seater),
            "reason": "the bracket as drawn: seeds by the standard order, byes to the top ranks, "
            "one branch's entries in different quarters where possible",
        },
        last=last,
    )


def round_robin_round(result: Mapping[str, Any], number: int, *, games: int, seater: Seater) -> PlannedRound:
    """Seed 004 §三.1: Berger round ``number`` of every group, each meeting a best of ``games``."""
    matches: list[PlannedMatch] = []
    byes: list[int] = []
    table_no = 0
    longest = 0
    for name, members in result["groups"].items():
        schedule = roundrobin.round_robin(Group(name, tuple(str(m) for m in members)), games=games)
        longest = max(longest, len(schedule.rounds))
        if number > len(schedule.rounds):
            continue
        played = schedule.rounds[number - 1]
        for m in played.matches:
            table_no += 1
            first, second = int(m.first), int(m.second)
            seats = {
                "first": seater.seat(first, "first"),
                "second": seater.seat(second, "second"),
                "first_movers": ["first" if mover == m.first else "second" for mover in m.first_movers],
            }
            # the scoring records every game of the match on this one game row (record_match_game)
            matches.append(
                PlannedMatch(
                    len(matches) + 1,
                    ((first, "NS"), (second, "EW")),
                    games=(PlannedGame(1, table_no, seats),),
                    group=name,
                )
            )
        if played.bye:
            byes.append(int(played.bye))
            matches.append(PlannedMatch(len(matches) + 1, ((int(played.bye), None),), group=name))
    if not matches:
        raise RuleViolation(
            f"no group plays a round {number}: the Berger tables have fewer rounds",
            rule="unknown-round",
            field="number",
        )
    return PlannedRound(
        tuple(matches),
        {"byes": byes, "same_branch": _same_branch_meetings(matches, seater), "reason": "FIDE Berger tables"},
        last=number == longest,
    )


def gongzhu_plan(played: gongzhu_tables.GongzhuRound, *, seater: Seater) -> PlannedRound:
    matches = [
        PlannedMatch(
            t.table_no,
            tuple((int(s.entry_id), None) for s in t.seats),
            games=(
                PlannedGame(1, t.table_no, {s.seat: seater.seat(int(s.entry_id), s.seat) for s in t.seats}),
            ),
        )
        for t in played.tables
    ]
    byes = _int_ids(played.byes)
    matches += _byes(byes, first_no=len(matches) + 1)
    return PlannedRound(
        tuple(matches),
        {
            "byes": byes,
            "final": played.final,
            "same_branch": _shared(played.same_branch),
            "reason": "tables of four by lot, one department's players at different tables where possible; "
            "byes (count mod 4) to the last drawn who have had none",
        },
        last=played.final,
    )


def gongzhu_played(
    number: int, tables: Sequence[tuple[int, Mapping[str, int]]], byes: Sequence[int]
) -> gongzhu_tables.GongzhuRound:
    """A stored Gongzhu round back as the pure value ``next_round`` reads."""
    return gongzhu_tables.GongzhuRound(
        round_no=number,
        tables=tuple(
            gongzhu_tables.GongzhuTable(
                table_no,
                tuple(
                    SeatAssignment(seat, str(seats[seat])) for seat in gongzhu_tables.SEATS if seat in seats
                ),
            )
            for table_no, seats in tables
        ),
        byes=tuple(str(b) for b in byes),
        final=len(tables) == 1 and not byes,
        same_branch=(),
    )
