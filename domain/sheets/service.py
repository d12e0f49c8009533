"""Registration forms in, results out.

A form is read (``reader``, ``forms``), its rows matched to members, and each entry it holds is
formed by the events service itself — ``create_entry`` (and ``submit_entry``), the very calls the
JSON API makes — inside a savepoint, so every rule (quota, roster size, union members only, one
entry per member, the window) is the events service's own. The savepoints are rolled back for a
dry run or when any row is refused; the entries stay only when asked and all rows pass.

The exports read the schedule and scoring services' public answers and lay them out as sheets;
only the registration export (union and referee keys) shows staff ids and phones. Nothing here
commits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from pydantic import ValidationError
from sqlmodel import Session

from domain.access.models import Caller
from domain.errors import DomainError, InvalidInput, RuleViolation
from domain.events import service as events_service
from domain.events.directory import act_for_branch
from domain.events.models import EntryKind
from domain.events.roster import normalize_phone
from domain.events.schemas import EntryIn, EntryOut
from domain.schedule import service as schedule_service
from domain.schedule.models import RoundOut, TableOut
from domain.scoring import service as scoring_service
from domain.scoring.models import GameOut
from domain.sheets import forms, reader, repository
from domain.sheets.grid import Cell, Sheet
from domain.sheets.schemas import SheetEntryReport, SheetProblem, SheetReport, SheetRowReport
from storage.tables import Member

T = TypeVar("T")
ROSTER_FIELD = re.compile(r"^roster\[(\d+)\](?:\.(\w+))?$")
LEADER_FIELD = re.compile(r"^leader(?:\.(\w+))?$")
SEAT_LABELS = {"N": "北", "E": "东", "S": "南", "W": "西", "first": "先手", "second": "后手"}
SIDE_LABELS = {"NS": "南北", "EW": "东西"}
FINISH_LABELS = ("上游", "二游", "三游", "下游")
CRITERION_LABELS = {
    "points": "积分",
    "wins": "胜场",
    "sub_score": "小分",
    "head_to_head": "相互胜负",
    "opponents_score": "对手分",
    "lot": "抽签",
    "placement": "名次段",
    "round_reached": "所到轮次",
}
STATUS_LABELS = {
    "draft": "草稿",
    "submitted": "已提交",
    "confirmed": "已确认",
    "rejected": "已退回",
    "withdrawn": "已撤回",
}


# Registration forms in -------------------------------------------------------------------------


@dataclass
class _Row:
    source: forms.FormRow
    entry: int
    staff_id: str | None = None
    phone: str | None = None
    role: forms.RosterRole = field(
        default_factory=lambda: forms.RosterRole(leader=False, coach=False, plays=True)
    )
    problems: list[SheetProblem] = field(default_factory=list)


def import_registration(
    session: Session,
    event_id: int,
    *,
    content: bytes,
    filename: str,
    branch_code: str | None,
    dry_run: bool,
    submit: bool,
    caller: Caller,
    now: datetime,
) -> SheetReport:
    """Reads a branch's form and answers row by row; stores its entries only when ``dry_run`` is
    off and no row is refused (then a refusal is raised, carrying the report)."""
    event = events_service.get_event(session, event_id)
    config = events_service.event_config(event)
    grid = reader.read_grid(content, filename=filename)
    form = forms.parse_form(grid.rows)
    code = _branch_code(session, form, branch_code=branch_code, caller=caller)
    act_for_branch(caller, code)
    groups = forms.group_rows(
        form.rows, whole_sheet=EntryKind(event.entry_kind) is EntryKind.TEAM, size=config.roster_max
    )
    if not groups:
        raise InvalidInput("the form names no players under its header", rule="sheet-no-rows", field="rows")
    rows = _identify(session, form, groups)
    everything = session.begin_nested()
    entries = [
        _enter(
            session,
            event_id,
            index,
            group,
            form=form,
            branch_code=code,
            submit=submit,
            caller=caller,
            now=now,
        )
        for index, group in enumerate(rows, start=1)
    ]
    refused = any(entry.status == "refused" for entry in entries)
    stored = not dry_run and not refused
    if stored:
        everything.commit()
    else:
        everything.rollback()
    report = _report(event_id, code, grid, form, rows, entries, dry_run=dry_run, stored=stored)
    if refused and not dry_run:
        raise RuleViolation(
            f"{report.rows_refused} of {len(form.rows)} rows are refused; nothing was stored",
            rule="sheet-rows-refused",
            field="rows",
            extra={"report": report.model_dump(mode="json")},
        )
    return report


def _branch_code(
    session: Session, form: forms.RegistrationForm, *, branch_code: str | None, caller: Caller
) -> str:
    """The branch: the request's ``branch_code``, else the form's 分工会, else the key's own branch."""
    named = repository.branch_named(session, form.branch) if form.branch else None
    if form.branch and named is None:
        raise RuleViolation(
            f"the form's 分工会 {form.branch!r} is not a branch the union system knows",
            rule="unknown-branch",
            field="分工会",
        )
    code = branch_code or (named.code if named else None) or caller.branch_code
    if code is None:
        raise InvalidInput(
            "the form names no 分工会; write 分工会：… above the header or send branch_code",
            rule="sheet-branch-missing",
            field="分工会",
        )
    if named is not None and named.code != code:
        raise RuleViolation(
            f"the form is {named.name}'s ({named.code}); the request is for branch {code}",
            rule="sheet-branch-mismatch",
            field="分工会",
        )
    return code


def _cell(form: forms.RegistrationForm, row: forms.FormRow, field_name: str) -> str:
    """``rows[7].手机号码``: the sheet row and the column as the form heads it."""
    fallback = {"staff_id": "工号", "name": "参赛选手姓名", "phone": "手机号码", "role": "角色"}
    return f"rows[{row.row}].{form.headers.get(field_name, fallback[field_name])}"


def _problem(error: DomainError, *, field_name: str | None = None) -> SheetProblem:
    return SheetProblem(
        rule=error.rule, field=field_name or error.field, detail=error.detail, extra=dict(error.extra)
    )


def _checked(row: _Row, check: Callable[[], T]) -> T | None:
    try:
        return check()
    except DomainError as error:
        row.problems.append(_problem(error))
        return None


def _identify(
    session: Session, form: forms.RegistrationForm, groups: Sequence[Sequence[forms.FormRow]]
) -> list[list[_Row]]:
    """Each row's member, by 工号 or else by 姓名 with 手机号码 (seed 001 附件1 has no 工号)."""
    named = repository.members_named(session, [row.name for row in form.rows if not row.staff_id])
    by_staff_id = repository.members_by_staff_id(session, [row.staff_id for row in form.rows if row.staff_id])
    out: list[list[_Row]] = []
    for index, group in enumerate(groups, start=1):
        rows = [_Row(source=source, entry=index) for source in group]
        for row in rows:
            _check_row(form, row, named=named, by_staff_id=by_staff_id)
        leaders = [row for row in rows if row.role.leader]
        for extra_leader in leaders[1:]:
            extra_leader.problems.append(
                SheetProblem(
                    rule="sheet-leader-twice",
                    field=_cell(form, extra_leader.source, "role"),
                    detail=f"an entry has one 领队 (seed 000 §六.3); row {leaders[0].source.row} is already",
                )
            )
        out.append(rows)
    return out


def _check_row(
    form: forms.RegistrationForm,
    row: _Row,
    *,
    named: dict[str, list[Member]],
    by_staff_id: dict[str, Member],
) -> None:
    """Every problem of one row: its 角色, its phone, its member."""
    source = row.source
    row.role = (
        _checked(row, lambda: forms.roster_role(source.role, field=_cell(form, source, "role"))) or row.role
    )
    if source.phone:
        row.phone = _checked(row, lambda: normalize_phone(source.phone, field=_cell(form, source, "phone")))
        if row.phone is None:
            return
    row.staff_id = _checked(row, lambda: _member(form, row, named=named, by_staff_id=by_staff_id))


def _member(
    form: forms.RegistrationForm,
    row: _Row,
    *,
    named: dict[str, list[Member]],
    by_staff_id: dict[str, Member],
) -> str:
    source = row.source
    if source.staff_id:
        member = by_staff_id.get(source.staff_id)
        if member is not None and source.name and member.name != source.name:
            raise RuleViolation(
                f"工号 {source.staff_id} is {member.name} in the union system, not {source.name}",
                rule="sheet-name-mismatch",
                field=_cell(form, source, "name"),
            )
        return source.staff_id  # an unknown 工号 is the events service's to refuse
    if row.phone is None:
        raise RuleViolation(
            f"row {source.row} names {source.name or 'nobody'} without 工号 or 手机号码; a member is "
            "found by 工号, or by 姓名 with 手机号码",
            rule="sheet-member-unidentified",
            field=_cell(form, source, "phone"),
        )
    matches = [member for member in named.get(source.name, []) if member.phone == row.phone]
    if not matches:
        raise RuleViolation(
            f"no member of the union system is named {source.name} with the phone on row {source.row}; "
            "entrants are union members (seed 002 §一, seed 003 §五.2, seed 004 §一.1)",
            rule="unknown-member",
            field=_cell(form, source, "name"),
        )
    if len(matches) > 1:
        raise RuleViolation(
            f"{len(matches)} members are named {source.name} with this phone; give the 工号",
            rule="member-ambiguous",
            field=_cell(form, source, "name"),
        )
    return matches[0].staff_id


def _entry_in(rows: Sequence[_Row], *, branch_code: str) -> EntryIn:
    """The body the JSON API would receive for this entry, validated by the same model."""
    leader = next((row for row in rows if row.role.leader), None)
    body: dict[str, object] = {
        "branch_code": branch_code,
        "roster": [
            {"staff_id": row.staff_id, "coach": row.role.coach, "plays": row.role.plays} for row in rows
        ],
    }
    if leader is not None:
        body["leader"] = {
            "staff_id": leader.staff_id,
            "name": leader.source.name,
            "phone": leader.phone or "",
        }
    try:
        return EntryIn.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        location = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"])
        raise InvalidInput(str(first["msg"]), rule="request-validation", field=location.lstrip(".")) from None


def _enter(
    session: Session,
    event_id: int,
    index: int,
    rows: list[_Row],
    *,
    form: forms.RegistrationForm,
    branch_code: str,
    submit: bool,
    caller: Caller,
    now: datetime,
) -> SheetEntryReport:
    numbers = [row.source.row for row in rows]
    if any(row.problems for row in rows):
        return SheetEntryReport(
            entry=index, rows=numbers, status="refused", name=None, entry_id=None, problems=[]
        )
    try:
        data = _entry_in(rows, branch_code=branch_code)
        with session.begin_nested():
            made: EntryOut = events_service.create_entry(session, event_id, data, caller=caller, now=now)
            if submit:
                made = events_service.submit_entry(session, made.id, caller=caller, now=now)
    except DomainError as error:
        blamed, column = _blame(error.field, rows)
        if blamed is None:
            span = f"rows[{numbers[0]}-{numbers[-1]}]" if len(numbers) > 1 else f"rows[{numbers[0]}]"
            problem = _problem(error, field_name=span)
            return SheetEntryReport(
                entry=index, rows=numbers, status="refused", name=None, entry_id=None, problems=[problem]
            )
        blamed.problems.append(_problem(error, field_name=_cell(form, blamed.source, column)))
        return SheetEntryReport(
            entry=index, rows=numbers, status="refused", name=None, entry_id=None, problems=[]
        )
    return SheetEntryReport(
        entry=index, rows=numbers, status="accepted", name=made.name, entry_id=made.id, problems=[]
    )


def _blame(field_name: str | None, rows: list[_Row]) -> tuple[_Row | None, str]:
    """The row a service error points at (``roster[1].staff_id``, ``leader.phone``) and its column."""
    roster = ROSTER_FIELD.match(field_name or "")
    if roster is not None and int(roster.group(1)) < len(rows):
        return rows[int(roster.group(1))], _column(roster.group(2), rows[int(roster.group(1))])
    leader = LEADER_FIELD.match(field_name or "")
    chosen = next((row for row in rows if row.role.leader), None)
    if leader is not None and chosen is not None:
        return chosen, _column(leader.group(1), chosen)
    return None, "name"


def _column(attribute: str | None, row: _Row) -> str:
    if attribute == "phone":
        return "phone"
    return "staff_id" if row.source.staff_id else "name"


def _report(
    event_id: int,
    branch_code: str,
    grid: reader.Grid,
    form: forms.RegistrationForm,
    rows: list[list[_Row]],
    entries: list[SheetEntryReport],
    *,
    dry_run: bool,
    stored: bool,
) -> SheetReport:
    status = {entry.entry: entry.status for entry in entries}
    flat = [
        SheetRowReport(
            row=row.source.row,
            number=row.source.number,
            name=row.source.name,
            entry=row.entry,
            status="refused" if row.problems else status[row.entry],
            problems=row.problems,
        )
        for group in rows
        for row in group
    ]
    accepted = sum(1 for row in flat if row.status == "accepted")
    return SheetReport(
        event_id=event_id,
        branch_code=branch_code,
        file_format="xlsx" if grid.file_format == "xlsx" else "csv",
        encoding=grid.encoding,
        dry_run=dry_run,
        stored=stored,
        rows_accepted=accepted,
        rows_refused=len(flat) - accepted,
        contact=form.contact,
        entries=[entry if stored else entry.model_copy(update={"entry_id": None}) for entry in entries],
        rows=flat,
    )


# Results out -----------------------------------------------------------------------------------


def standings_sheet(session: Session, event_id: int, *, stage: str | None) -> Sheet:
    """Rank, entry, branch and every figure the ranking used (seed 000 §九.2, seed 001 §三)."""
    event = events_service.get_event(session, event_id)
    answer = scoring_service.standings(session, event_id, provisional=False, stage=stage)
    assert answer.body is not None  # no If-None-Match was sent
    groups = answer.body.groups
    grouped = len(groups) > 1 or any(group.group for group in groups)
    chain = list(dict.fromkeys(name for group in groups for name in group.chain))
    headers = [
        *(["组别"] if grouped else []),
        "名次",
        "参赛队",
        "分工会",
        "场次",
        "胜",
        "平",
        "负",
        "积分",
        "加分",
        *(f"排名依据·{CRITERION_LABELS.get(name, name)}" for name in chain),
        "并列说明",
    ]
    rows: list[list[Cell]] = [
        [
            *([group.group or ""] if grouped else []),
            row.rank,
            row.entry_name,
            row.branch,
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.points,
            row.bonus,
            *(row.figures.get(name) for name in chain),
            row.tie.text if row.tie else None,
        ]
        for group in groups
        for row in group.rows
    ]
    return Sheet(name="成绩", title=f"{event.name} 成绩排名", headers=headers, rows=rows)


def round_sheet(session: Session, round_id: int, *, caller: Caller | None) -> Sheet:
    """The match table (轮次对阵表) and the seat map (座位区位图) in one: a row per table, its
    seats N/E/S/W with player, entry and branch; a bye as a row of its own."""
    view = schedule_service.round_view(session, round_id, caller=caller)
    seats = [key for key in SEAT_LABELS if any(key in table.seats for table in view.tables)]
    headers = ["场次", "组别", "区", "桌号", "局"]
    for key in seats:
        label = SEAT_LABELS[key]
        headers += [f"{label}·选手", f"{label}·参赛队", f"{label}·分工会"]
    headers.append("备注")
    rows: list[list[Cell]] = []
    for table in view.tables:
        row: list[Cell] = [table.match_no, table.group, table.block, table.table_no, table.game_no]
        for key in seats:
            seat = table.seats.get(key)
            row += [seat.name, seat.entry_name, seat.branch] if seat else [None, None, None]
        rows.append([*row, None])
    for match in view.matches:
        if match.is_bye:
            names = "、".join(side.name for side in match.entries)
            rows.append(
                [
                    match.match_no,
                    match.group,
                    match.block,
                    None,
                    None,
                    *[None] * (3 * len(seats)),
                    f"{names} 轮空",
                ]
            )
    rows.sort(
        key=lambda row: (row[0] if isinstance(row[0], int) else 0, row[3] if isinstance(row[3], int) else 0)
    )
    return Sheet(
        name=f"第{view.number}轮",
        title=f"{view.event_name} 第{view.number}轮 对阵表与座位图",
        headers=headers,
        rows=rows,
    )


def deals_sheet(session: Session, event_id: int) -> Sheet:
    """Every deal of every published round: table, deal number, finish order, levels after."""
    event = events_service.get_event(session, event_id)
    headers = ["阶段", "轮次", "桌号", "场次", "局", "南北", "东西", "副", "打几", "打家", *FINISH_LABELS]
    headers += ["升级", "南北级", "东西级", "A未过"]
    rows: list[list[Cell]] = []
    for summary in schedule_service.list_rounds(session, event_id).items:
        view: RoundOut = schedule_service.round_view(session, summary.id, caller=None)
        for table in view.tables:
            game = scoring_service.get_game(session, table.game_id)
            rows += _deal_rows(summary.stage, summary.number, table, game)
    return Sheet(name="逐副记录", title=f"{event.name} 逐副记录", headers=headers, rows=rows)


def _deal_rows(stage: str, number: int, table: TableOut, game: GameOut) -> list[list[Cell]]:
    def seat(key: str) -> str:
        held = table.seats.get(key)
        return f"{SEAT_LABELS[key]} {held.name}" if held else SEAT_LABELS[key]

    return [
        [
            stage,
            number,
            table.table_no,
            table.match_no,
            table.game_no,
            game.ns.entry_name,
            game.ew.entry_name,
            deal.deal_no,
            scoring_service.level_label(deal.level_played),
            SIDE_LABELS[deal.declarer.value] if deal.declarer else None,
            *(seat(position.value) for position in deal.finish_order),
            deal.promotion,
            scoring_service.level_label(deal.ns_level),
            scoring_service.level_label(deal.ew_level),
            "是" if deal.failed_a else None,
        ]
        for deal in game.deals
    ]


def registration_sheet(session: Session, event_id: int, *, caller: Caller) -> Sheet:
    """The rosters with 工号 and 手机号码, for the union and the referees (a branch's key: its own)."""
    event = events_service.get_event(session, event_id)
    headers = ["参赛队", "分工会", "状态", "序号", "工号", "姓名", "手机号码", "角色"]
    rows: list[list[Cell]] = []
    for entry, branch, member_row, member in repository.roster_of_event(
        session, event_id, branch_code=caller.branch_code
    ):
        role = "、".join(
            label for label, held in (("领队", member_row.is_leader), ("教练", member_row.is_coach)) if held
        ) + ("" if member_row.is_player else "（不上场）")
        phone = entry.leader_phone if member_row.is_leader and entry.leader_phone else member.phone
        rows.append(
            [
                entry.name,
                branch.name,
                STATUS_LABELS.get(entry.status, entry.status),
                member_row.position,
                member.staff_id,
                member.name,
                phone,
                role or "队员",
            ]
        )
    return Sheet(name="报名表", title=f"{event.name} 报名表", headers=headers, rows=rows)
