"""The venue's views: score sheets for a published round, and the big screen's board.

Reads only, through the other areas' services; never commits.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from domain.access.models import Caller
from domain.errors import RuleViolation
from domain.events import service as events_service
from domain.rules.ruleset import Discipline, RuleSet
from domain.schedule import service as schedule_service
from domain.schedule.models import RoundOut, RoundSummary
from domain.scoring import service as scoring_service
from domain.scoring.models import GameOut, SideOut
from domain.venue.clock import RoundMark, RoundTimes, current_round, round_clock
from domain.venue.models import Board, ClockOut, LiveTable, ScoreSheet, ScoreSheets, SheetSeat

GUANDAN_SEATS = ("N", "E", "S", "W")
DEAL_ROWS = 16
"""Deal rows on a sheet: a 50-minute round plays about a dozen deals (seed 000 §九.1)."""


# --- score sheets (记分表) -------------------------------------------------------------------


def score_sheets(session: Session, round_id: int, *, caller: Caller, secret: str) -> ScoreSheets:
    """One sheet per table of a published Guandan round, each with its game's scorer token
    (seed 000 附件 八: the result of every deal, checked and signed by both sides)."""
    round_ = schedule_service.round_view(session, round_id, caller=caller)
    if round_.discipline != Discipline.GUANDAN.value:
        raise RuleViolation(
            f"round {round_.number} is {round_.discipline}: score sheets record Guandan deals",
            rule="score-sheets-guandan-only",
            field="round_id",
        )
    tokens = {
        row.game_id: row for row in scoring_service.round_scorer_tokens(session, round_id, secret=secret)
    }
    sheets = []
    for table in round_.tables:
        issued = tokens[table.game_id]
        seats = [table.seats[seat] for seat in GUANDAN_SEATS]
        sheets.append(
            ScoreSheet(
                game_id=table.game_id,
                match_no=table.match_no,
                game_no=table.game_no,
                pair_no=seats[0].pair_no,
                table_no=table.table_no,
                group=table.group,
                ns_name=seats[0].entry_name,
                ew_name=seats[1].entry_name,
                seats=[
                    SheetSeat(seat=key, name=seat.name, entry_name=seat.entry_name, branch=seat.branch)
                    for key, seat in zip(GUANDAN_SEATS, seats, strict=True)
                ],
                token=issued.token,
                token_expires_at=issued.expires_at,
            )
        )
    return ScoreSheets(
        round_id=round_.id,
        event_name=round_.event_name,
        round_number=round_.number,
        starts_at=round_.starts_at,
        ends_at=round_.ends_at,
        deal_rows=DEAL_ROWS,
        sheets=sheets,
    )


# --- the big screen (大屏) -------------------------------------------------------------------


def _current(rounds: Sequence[RoundSummary]) -> RoundSummary | None:
    marks = [RoundMark(r.id, r.number, r.state.value, r.starts_at) for r in rounds]
    chosen = current_round(marks)
    return next(r for r in rounds if r.id == chosen.round_id) if chosen else None


def board_etag(session: Session, event_id: int) -> str:
    """Changes with every result (the standings' version) and every round moved or re-timed; the
    clock ticks on the screen itself, so time passing changes nothing here."""
    standings = scoring_service.standings(session, event_id, provisional=True)
    rounds = [r.model_dump(mode="json") for r in schedule_service.list_rounds(session, event_id).items]
    digest = hashlib.sha256(json.dumps([standings.etag, rounds], sort_keys=True).encode()).hexdigest()
    return f'"board-{event_id}-{digest[:20]}"'


def _warning(rules: RuleSet) -> tuple[int, str]:
    if rules.final_phase_minutes:
        return rules.final_phase_minutes, (
            f"最后{rules.final_phase_minutes}分钟：每手限时{rules.final_phase_play_seconds}秒"
        )
    if rules.no_new_deal_minutes:
        return rules.no_new_deal_minutes, (
            f"最后{rules.no_new_deal_minutes}分钟：手上有牌打完本副，不再抓牌开新局"
        )
    return 0, ""


def _clock(round_: RoundSummary, rules: RuleSet, *, now: datetime) -> ClockOut:
    minutes, text = _warning(rules)
    clock = round_clock(
        RoundTimes(round_.starts_at, round_.started_at, round_.ends_at, round_.finished_at),
        time_limit_minutes=rules.time_limit_minutes,
        warning_minutes=minutes,
        now=now,
    )
    return ClockOut(
        phase=clock.phase,
        deadline=clock.deadline,
        seconds_left=clock.seconds_left,
        warning_minutes=clock.warning_minutes,
        warning=text,
    )


def _level(side: SideOut, *, guandan: bool) -> str:
    if not guandan:
        return str(side.points)
    return "过A" if side.passed_a else scoring_service.level_label(side.level)


def _live_table(game: GameOut, *, group: str | None, guandan: bool) -> LiveTable:
    return LiveTable(
        game_id=game.game_id,
        table_no=game.table_no,
        group=group,
        ns_name=game.ns.entry_name or "",
        ew_name=game.ew.entry_name or "",
        ns_level=_level(game.ns, guandan=guandan),
        ew_level=_level(game.ew, guandan=guandan),
        declarer=game.declarer,
        deals=len(game.deals),
        state=game.state,
        winner=game.winner,
    )


def _live_tables(session: Session, round_: RoundOut, *, guandan: bool) -> list[LiveTable]:
    return [
        _live_table(scoring_service.get_game(session, table.game_id), group=table.group, guandan=guandan)
        for table in round_.tables
    ]


@dataclass(frozen=True, slots=True)
class BoardAnswer:
    etag: str
    board: Board | None
    """None when the client's If-None-Match already names this board."""


def board(session: Session, event_id: int, *, now: datetime, if_none_match: str | None = None) -> BoardAnswer:
    """Everything the hall's screen shows; public (names and figures only)."""
    event = events_service.get_event(session, event_id)
    etag = board_etag(session, event_id)
    if if_none_match is not None and etag in [tag.strip() for tag in if_none_match.split(",")]:
        return BoardAnswer(etag=etag, board=None)
    rules = events_service.event_rules(event)
    standings = scoring_service.standings(session, event_id, provisional=True).body
    assert standings is not None  # asked without If-None-Match
    chosen = _current(schedule_service.list_rounds(session, event_id).items)
    tables: list[LiveTable] = []
    if chosen is not None:  # a published round shows its tables before the start: where to sit
        shown = schedule_service.round_view(session, chosen.id, caller=None)
        tables = _live_tables(session, shown, guandan=rules.discipline is Discipline.GUANDAN)
    assert event.id is not None
    shown_board = Board(
        event_id=event.id,
        event_name=event.name,
        round=chosen,
        clock=_clock(chosen, rules, now=now) if chosen else None,
        standings=standings,
        tables=tables,
        now=now,
        etag=etag,
    )
    return BoardAnswer(etag=etag, board=shown_board)
