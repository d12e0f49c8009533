"""Competitions, events, registrations, entries and lineups.

The schedule and scoring areas call ``get_event``, ``event_config``, ``event_rules``,
``confirmed_entries``, ``lineup_for``, ``lock_lineups``, ``transition`` and
``bump_results_version``. Nothing here commits: the request's unit of work does.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from pydantic import ValidationError
from sqlmodel import Session

from domain.access.models import Caller, Role
from domain.errors import Conflict, Forbidden, InvalidInput, NotFound, RuleViolation, WindowClosed
from domain.events import repository
from domain.events.directory import act_for_branch
from domain.events.models import (
    ConfirmedEntry,
    EntryKind,
    EntryStatus,
    EventConfig,
    EventState,
    LineupPairValue,
    LineupValue,
    RosterMember,
    local_text,
)
from domain.events.quota import quota_for
from domain.events.roster import check_lineup, check_roster_size, normalize_phone
from domain.events.schemas import (
    CompetitionIn,
    CompetitionOut,
    EntryForm,
    EntryIn,
    EntryOut,
    EventIn,
    EventOut,
    EventPatch,
    EventSummary,
    LineupIn,
    LineupOut,
    LineupPairOut,
    RegistrationIn,
    RegistrationOut,
    RosterOut,
)
from domain.events.states import EventFacts, PlayLeft, check_transition
from domain.paging import Page, Paged
from domain.rules.ruleset import RuleSet, preset, with_overrides
from domain.webhooks import service as webhooks_service
from domain.webhooks.models import WebhookKind
from storage.tables import (
    Branch,
    Competition,
    Entry,
    EntryMember,
    Event,
    Lineup,
    LineupPair,
    Member,
    Registration,
)
from storage.tables import utcnow as real_now

log = logging.getLogger("zhisai.events")

# Config, rules and window may change until the draw; after it they are what was drawn.
EDITABLE_STATES = (EventState.DRAFT, EventState.REGISTRATION_OPEN, EventState.REGISTRATION_CLOSED)
DECIDABLE_STATES = (EventState.REGISTRATION_OPEN, EventState.REGISTRATION_CLOSED)
LINEUP_STATES = (EventState.REGISTRATION_CLOSED, EventState.DRAWN, EventState.RUNNING)


def union_wide(caller: Caller, what: str) -> None:
    """Organising the competition is the union's own work, not a branch's."""
    if caller.branch_code is not None:
        raise Forbidden(
            f"{what} needs the union's own key; this key acts for branch {caller.branch_code}",
            rule="union-key-required",
        )


# Competitions ---------------------------------------------------------------------------------


def create_competition(
    session: Session, data: CompetitionIn, *, caller: Caller, now: datetime
) -> CompetitionOut:
    union_wide(caller, "creating a competition")
    if data.starts_on and data.ends_on and data.ends_on < data.starts_on:
        raise InvalidInput(
            f"the competition ends ({data.ends_on}) before it starts ({data.starts_on})",
            rule="competition-dates",
            field="ends_on",
        )
    row = Competition(**data.model_dump(), created_at=now, updated_at=now)
    session.add(row)
    session.flush()
    return _competition_out(row, [])


def list_competitions(session: Session, *, page: Page) -> Paged[CompetitionOut]:
    rows = repository.competitions(session, page=page)
    events: dict[int, list[Event]] = defaultdict(list)
    for event in repository.events_of(session, [row.id for row in rows.items if row.id is not None]):
        events[event.competition_id].append(event)
    return rows.map(lambda row: _competition_out(row, events[row.id or 0]))


def get_competition(session: Session, competition_id: int) -> CompetitionOut:
    row = _competition(session, competition_id)
    return _competition_out(row, repository.events_of(session, [competition_id]))


def _competition(session: Session, competition_id: int) -> Competition:
    row = repository.competition(session, competition_id)
    if row is None:
        raise NotFound(f"no competition {competition_id}", rule="unknown-competition", field="competition_id")
    return row


def _competition_out(row: Competition, events: list[Event]) -> CompetitionOut:
    assert row.id is not None
    return CompetitionOut(
        id=row.id,
        name=row.name,
        organiser=row.organiser,
        venue=row.venue,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        one_event_per_member=row.one_event_per_member,
        events=[
            EventSummary(
                id=e.id or 0,
                name=e.name,
                discipline=e.discipline,
                entry_kind=EntryKind(e.entry_kind),
                format=e.format,
                state=EventState(e.state),
            )
            for e in events
        ],
    )


# Events ---------------------------------------------------------------------------------------


def get_event(session: Session, event_id: int) -> Event:
    row = repository.event(session, event_id)
    if row is None:
        raise NotFound(f"no event {event_id}", rule="unknown-event", field="event_id")
    return row


def event_config(event: Event) -> EventConfig:
    return EventConfig.model_validate(event.config)


def event_rules(event: Event) -> RuleSet:
    """The effective rule set: the preset with the event's overrides."""
    return with_overrides(preset(event.preset), event.rule_overrides)


def event_out(event: Event) -> EventOut:
    assert event.id is not None
    return EventOut(
        id=event.id,
        competition_id=event.competition_id,
        name=event.name,
        discipline=event.discipline,
        entry_kind=EntryKind(event.entry_kind),
        format=event.format,
        preset=event.preset,
        rule_overrides=event.rule_overrides,
        rules=event_rules(event),
        config=event_config(event),
        state=EventState(event.state),
        registration_opens_at=event.registration_opens_at,
        registration_closes_at=event.registration_closes_at,
        results_version=event.results_version,
    )


def create_event(
    session: Session, competition_id: int, data: EventIn, *, caller: Caller, now: datetime
) -> EventOut:
    union_wide(caller, "creating an event")
    _competition(session, competition_id)
    row = Event(
        competition_id=competition_id,
        name=data.name,
        discipline=data.discipline.value,
        entry_kind=data.entry_kind.value,
        format=data.format.value,
        preset=data.preset,
        rule_overrides=data.rule_overrides,
        config={},
        registration_opens_at=data.registration_opens_at,
        registration_closes_at=data.registration_closes_at,
        created_at=now,
        updated_at=now,
    )
    _configure(row, config=data.config, rule_overrides=data.rule_overrides)
    session.add(row)
    session.flush()
    return event_out(row)


def update_event(
    session: Session, event_id: int, patch: EventPatch, *, caller: Caller, now: datetime
) -> EventOut:
    union_wide(caller, "changing an event")
    row = get_event(session, event_id)
    if EventState(row.state) not in EDITABLE_STATES:
        raise Conflict(
            f"event {event_id} is {row.state}: its rules, configuration and window are fixed once drawn",
            rule="event-frozen",
            extra={"state": row.state},
        )
    changes = patch.model_dump(exclude_unset=True)
    for name in ("name", "preset", "registration_opens_at", "registration_closes_at"):
        if name in changes:
            setattr(row, name, changes[name])
    _configure(
        row,
        config=changes.get("config", row.config),
        rule_overrides=changes.get("rule_overrides", row.rule_overrides),
    )
    row.version += 1
    row.updated_at = now
    session.add(row)
    session.flush()
    return event_out(row)


def _configure(row: Event, *, config: dict[str, object], rule_overrides: dict[str, object]) -> None:
    """Validates and stores the config and the overrides; the preset must fit the discipline."""
    rules = with_overrides(preset(row.preset), dict(rule_overrides))
    if rules.discipline.value != row.discipline:
        raise RuleViolation(
            f"preset {row.preset} is a {rules.discipline.value} rule set; this event plays {row.discipline}",
            rule="preset-discipline",
            field="preset",
        )
    kind = EntryKind(row.entry_kind)
    if (row.format == "team_rotation") != (kind is EntryKind.TEAM):
        raise RuleViolation(
            f"the team_rotation format is for team entries and team entries play it (seed 000 §八.2); "
            f"this event is {row.format} with {kind.value} entries",
            rule="format-entry-kind",
            field="format",
        )
    try:
        parsed = EventConfig.for_kind(kind, dict(config))
    except ValidationError as error:
        first = error.errors()[0]
        location = ".".join(str(part) for part in first["loc"])
        raise InvalidInput(
            f"invalid event config {location or '(whole config)'}: {first['msg']}",
            rule="invalid-event-config",
            field=f"config.{location}" if location else "config",
        ) from None
    opens, closes = row.registration_opens_at, row.registration_closes_at
    if opens is not None and closes is not None and closes <= opens:
        raise InvalidInput(
            f"registration closes ({local_text(closes)}) before it opens ({local_text(opens)}), Asia/Shanghai",
            rule="registration-window-order",
            field="registration_closes_at",
        )
    row.rule_overrides = dict(rule_overrides)
    row.config = parsed.model_dump(mode="json")


def transition(
    session: Session, event: Event, to_state: EventState, *, actor: str, now: datetime | None = None
) -> Event:
    """Moves ``event`` to ``to_state`` when its guard allows (see states.py); the schedule calls
    it for drawn and running, the scoring for finished."""
    moment = now or real_now()
    assert event.id is not None
    counts = repository.entry_counts_by_status(session, event.id)
    closes = event.registration_closes_at
    facts = EventFacts(
        has_window=event.registration_opens_at is not None and closes is not None,
        window_ends_in_future=closes is not None and closes > moment,
        entries_awaiting_decision=counts.get(EntryStatus.SUBMITTED, 0),
        confirmed_entries=counts.get(EntryStatus.CONFIRMED, 0),
        play=_play_left(session, event.id),
    )
    current = EventState(event.state)
    check_transition(current, to_state, facts)
    event.state = to_state.value
    event.version += 1
    event.updated_at = moment
    session.add(event)
    session.flush()
    log.info("event %s: %s -> %s by %s", event.id, current.value, to_state.value, actor)
    return event


def _play_left(session: Session, event_id: int) -> PlayLeft:
    """The schedule marks the round that ends the event's last stage in its report (ends_event)."""
    rounds, open_games = repository.rounds_and_open_games(session, event_id)
    return PlayLeft(
        last_round_generated=any((r.report or {}).get("ends_event") for r in rounds),
        rounds_not_finished=tuple(f"{r.stage} {r.number}" for r in rounds if r.state != "finished"),
        games_not_final=tuple(open_games),
    )


def finish_when_over(session: Session, event: Event, *, actor: str, now: datetime) -> bool:
    """Finishes a running event whose play is over (the schedule calls it when the last round
    ends); answers whether it did."""
    assert event.id is not None
    if event.state != EventState.RUNNING.value or not _play_left(session, event.id).over:
        return False
    transition(session, event, EventState.FINISHED, actor=actor, now=now)
    return True


def change_state(
    session: Session, event_id: int, to_state: EventState, *, caller: Caller, now: datetime
) -> EventOut:
    union_wide(caller, "moving an event to another state")
    row = repository.event_for_update(session, event_id) or get_event(session, event_id)
    return event_out(transition(session, row, to_state, actor=caller.ref, now=now))


def bump_results_version(session: Session, event_id: int) -> int:
    """Called on every change to results (and to lineups), so readers' ETags change."""
    version = repository.bump_results_version(session, event_id)
    if version is None:
        raise NotFound(f"no event {event_id}", rule="unknown-event", field="event_id")
    return version


def _window_open(event: Event, now: datetime, *, action: str) -> None:
    """Registration writes happen while the event is open and the clock is inside its window."""
    opens, closes = event.registration_opens_at, event.registration_closes_at
    if event.state != EventState.REGISTRATION_OPEN or opens is None or closes is None:
        raise WindowClosed(
            f"{action} needs the event's registration to be open; event {event.id} is {event.state}",
            rule="registration-not-open",
            extra={"state": event.state},
        )
    if not opens <= now < closes:
        raise WindowClosed(
            f"{action}: registration runs from {local_text(opens)} to {local_text(closes)} "
            f"(Asia/Shanghai); it is now {local_text(now)}",
            rule="registration-window",
            extra={"opens_at": opens.isoformat(), "closes_at": closes.isoformat(), "now": now.isoformat()},
        )


# Members as entrants --------------------------------------------------------------------------


def _eligible_members(
    session: Session, event: Event, staff_ids: list[str], *, field: str, excluding_entry: int | None = None
) -> list[Member]:
    """The members named, after the rules every entrant meets: known, a union member
    (seed 002 §一, seed 003 §五.2, seed 004 §一.1), in no other entry of this event, and in no
    other event of a competition that allows one (seed 004 §一.3)."""
    known = repository.members_by_staff_id(session, staff_ids)
    members: list[Member] = []
    for index, staff_id in enumerate(staff_ids):
        member = known.get(staff_id)
        if member is None:
            raise RuleViolation(
                f"staff id {staff_id} is not a member known to the union system",
                rule="unknown-member",
                field=f"{field}[{index}].staff_id",
            )
        if not member.is_union_member:
            raise RuleViolation(
                f"{member.name} is not a union member; entrants must be union members "
                "(seed 002 §一, seed 003 §五.2, seed 004 §一.1)",
                rule="union-members-only",
                field=f"{field}[{index}].staff_id",
            )
        members.append(member)
    assert event.id is not None
    member_ids = [m.id for m in members if m.id is not None]
    taken = repository.rostered_in_event(
        session, event_id=event.id, member_ids=member_ids, excluding_entry=excluding_entry
    )
    for index, member in enumerate(members):
        if member.id in taken:
            raise Conflict(
                f"{member.name} is already on the roster of {taken[member.id]} in this event; "
                "a member enters an event once",
                rule="member-already-entered",
                field=f"{field}[{index}].staff_id",
            )
    competition = _competition(session, event.competition_id)
    if competition.one_event_per_member:
        elsewhere = repository.entered_elsewhere(
            session, competition_id=competition.id or 0, event_id=event.id, member_ids=member_ids
        )
        for index, member in enumerate(members):
            if member.id in elsewhere:
                raise RuleViolation(
                    f"{member.name} is already registered for {elsewhere[member.id]}; in "
                    f"{competition.name} a member may enter only one event (seed 004 §一.3 不得兼报)",
                    rule="one-event-per-member",
                    field=f"{field}[{index}].staff_id",
                )
    return members


# Personal registrations -----------------------------------------------------------------------


def register_member(
    session: Session, event_id: int, data: RegistrationIn, *, caller: Caller, now: datetime
) -> RegistrationOut:
    """A member's personal registration (seed 000 §六.3), from which the branch forms its roster."""
    event = get_event(session, event_id)
    _window_open(event, now, action="a personal registration")
    member = repository.member_by_staff_id(session, data.staff_id)
    branch = repository.branches_by_id(session, [member.branch_id])[member.branch_id] if member else None
    if branch is not None:
        act_for_branch(caller, branch.code, field="staff_id")
    if member is not None and repository.registration(session, event_id=event_id, member_id=member.id or 0):
        raise Conflict(
            f"{member.name} has already registered for this event",
            rule="already-registered",
            field="staff_id",
        )
    (member,) = _eligible_members(session, event, [data.staff_id], field="registrations")
    assert member.id is not None
    assert branch is not None
    row = Registration(
        event_id=event_id,
        member_id=member.id,
        branch_id=member.branch_id,
        note=data.note,
        created_at=now,
        updated_at=now,
    )
    session.add(row)
    session.flush()
    return _registration_out(row, member, branch, None)


def list_registrations(
    session: Session, event_id: int, *, caller: Caller, branch_code: str | None, page: Page
) -> Paged[RegistrationOut]:
    get_event(session, event_id)
    if branch_code is not None:
        act_for_branch(caller, branch_code)
    code = branch_code or caller.branch_code
    branch_id = _branch(session, code).id if code else None
    rows = repository.registrations_of(session, event_id, branch_id=branch_id, page=page)
    return rows.map(lambda row: _registration_out(*row))


def _registration_out(
    row: Registration, member: Member, branch: Branch, entry_id: int | None
) -> RegistrationOut:
    assert row.id is not None
    return RegistrationOut(
        id=row.id,
        event_id=row.event_id,
        staff_id=member.staff_id,
        name=member.name,
        branch_code=branch.code,
        note=row.note,
        entry_id=entry_id,
        created_at=row.created_at,
    )


def _branch(session: Session, code: str) -> Branch:
    branch = repository.branch_by_code(session, code)
    if branch is None:
        raise RuleViolation(f"branch {code} is not known", rule="unknown-branch", field="branch_code")
    return branch


# Entries --------------------------------------------------------------------------------------


def create_entry(
    session: Session, event_id: int, data: EntryIn, *, caller: Caller, now: datetime
) -> EntryOut:
    """The branch forms an entry (draft): its roster and, where the event wants one, its leader."""
    act_for_branch(caller, data.branch_code)
    event = repository.event_for_update(session, event_id) or get_event(session, event_id)
    _window_open(event, now, action="forming an entry")
    branch = _branch(session, data.branch_code)
    config = event_config(event)
    if data.outside_quota and not config.leader_entries_outside_quota:
        raise RuleViolation(
            "this event has no entries outside the quota", rule="no-outside-quota", field="outside_quota"
        )
    if not data.outside_quota:
        _check_quota(session, event, branch, config=config)
    name = data.name or _free_name(session, event, branch.name)
    row = Entry(
        event_id=event_id,
        branch_id=branch.id,
        name=name,
        outside_quota=data.outside_quota,
        created_at=now,
        updated_at=now,
    )
    if name in repository.entry_names(session, event_id):
        raise Conflict(f"this event already has an entry named {name}", rule="entry-name-taken", field="name")
    session.add(row)
    session.flush()
    _form(session, event, row, data, branch=branch, config=config)
    return entry_view(session, row.id or 0)


def update_entry(
    session: Session, entry_id: int, data: EntryForm, *, caller: Caller, now: datetime
) -> EntryOut:
    """The branch re-forms a draft or rejected entry; it goes back to draft."""
    row, event, branch = _entry_for_branch(session, entry_id, caller)
    _window_open(event, now, action="changing an entry")
    _require_status(row, (EntryStatus.DRAFT, EntryStatus.REJECTED), action="re-formed")
    if data.name and data.name != row.name:
        if data.name in repository.entry_names(session, event.id or 0):
            raise Conflict(
                f"this event already has an entry named {data.name}", rule="entry-name-taken", field="name"
            )
        row.name = data.name
    repository.delete_roster(session, entry_id)
    row.status, row.rejection_reason, row.updated_at = EntryStatus.DRAFT.value, None, now
    row.version += 1
    _form(session, event, row, data, branch=branch, config=event_config(event))
    return entry_view(session, entry_id)


def _form(
    session: Session, event: Event, row: Entry, data: EntryForm, *, branch: Branch, config: EventConfig
) -> None:
    """Checks and stores the roster and the leader of ``row``."""
    assert row.id is not None
    assert event.id is not None
    kind = EntryKind(event.entry_kind)
    staff_ids = [item.staff_id for item in data.roster]
    twice = sorted({s for s in staff_ids if staff_ids.count(s) > 1})
    if twice:
        raise RuleViolation(
            f"a member is on a roster once; {', '.join(twice)} appear(s) twice",
            rule="roster-member-twice",
            field="roster",
        )
    check_roster_size(len(staff_ids), config=config, entry_kind=kind)
    members = _eligible_members(session, event, staff_ids, field="roster", excluding_entry=row.id)
    if row.outside_quota:
        _check_leader_entry(members, branch)
    else:
        for index, member in enumerate(members):
            if member.branch_id != branch.id:
                raise RuleViolation(
                    f"{member.name} belongs to another branch; an entry is formed from its own "
                    "branch's members (seed 000 §六.1: 以分工会为参赛单位)",
                    rule="roster-other-branch",
                    field=f"roster[{index}].staff_id",
                )
    leader = _leader(session, data, members, kind=kind, branch=branch)
    row.leader_member_id = leader.id if leader else None
    row.leader_phone = normalize_phone(data.leader.phone, field="leader.phone") if data.leader else None
    session.add(row)
    for position, (item, member) in enumerate(zip(data.roster, members, strict=True), start=1):
        assert member.id is not None
        session.add(
            EntryMember(
                entry_id=row.id,
                event_id=event.id,
                member_id=member.id,
                position=position,
                is_player=item.plays,
                is_leader=leader is not None and member.id == leader.id,
                is_coach=item.coach,
                created_at=row.updated_at,
            )
        )
    session.flush()


def _leader(
    session: Session, data: EntryForm, members: list[Member], *, kind: EntryKind, branch: Branch
) -> Member | None:
    """领队 (seed 000 §六.3): named by staff id, name and phone. A team counts its leader on the
    roster (seed 000 §六.1 含领队); a pair's leader is the branch's contact beside it (seed 002, 003)."""
    if data.leader is None:
        return None
    leader = repository.member_by_staff_id(session, data.leader.staff_id)
    if leader is None or leader.name != data.leader.name:
        raise RuleViolation(
            f"the leader's staff id {data.leader.staff_id} and name {data.leader.name} do not match a member",
            rule="leader-unknown",
            field="leader",
        )
    if kind is EntryKind.TEAM and leader.id not in {m.id for m in members}:
        raise RuleViolation(
            "a team's leader is on its roster (seed 000 §六.1: 10–15 people 含领队教练)",
            rule="leader-not-on-roster",
            field="leader.staff_id",
        )
    if leader.branch_id != branch.id and leader.id not in {m.id for m in members}:
        raise RuleViolation(
            f"{leader.name} is not a member of branch {branch.code}",
            rule="leader-other-branch",
            field="leader",
        )
    return leader


def _check_leader_entry(members: list[Member], branch: Branch) -> None:
    """seed 001 §一: a school leader enters with any union member as partner, outside the quota."""
    if not any(m.is_school_leader and m.branch_id == branch.id for m in members):
        raise RuleViolation(
            f"an entry outside the quota needs a school leader of branch {branch.code} on its roster "
            "(seed 001 §一: 校领导可以在全校工会会员中选择搭档报名参赛，所选人员不占分工会报名名额)",
            rule="outside-quota-needs-school-leader",
            field="outside_quota",
        )


def _check_quota(
    session: Session, event: Event, branch: Branch, *, config: EventConfig, excluding: int | None = None
) -> None:
    quota = quota_for(config.quota, branch_code=branch.code, member_count=branch.member_count)
    if quota is None:
        return
    assert event.id is not None
    assert branch.id is not None
    used = repository.quota_used(session, event_id=event.id, branch_id=branch.id, excluding=excluding)
    if used >= quota.entries:
        cite = f" ({config.quota.citation})" if config.quota.citation else ""
        raise RuleViolation(
            f"{quota.reason}{cite}; branch {branch.code} has {branch.member_count} members and "
            f"already {used} entr(ies) in this event",
            rule="quota",
            field="branch_code",
            extra={"quota": quota.entries, "used": used, "member_count": branch.member_count},
        )


def _free_name(session: Session, event: Event, base: str) -> str:
    taken = repository.entry_names(session, event.id or 0)
    if base not in taken:
        return base
    return next(f"{base} {n}" for n in range(2, len(taken) + 3) if f"{base} {n}" not in taken)


def _entry(session: Session, entry_id: int) -> Entry:
    row = repository.entry(session, entry_id)
    if row is None:
        raise NotFound(f"no entry {entry_id}", rule="unknown-entry", field="entry_id")
    return row


def _entry_for_branch(session: Session, entry_id: int, caller: Caller) -> tuple[Entry, Event, Branch]:
    row = _entry(session, entry_id)
    return row, get_event(session, row.event_id), _own_side(session, row, caller)


def _own_side(session: Session, row: Entry, caller: Caller | None) -> Branch:
    """The entry's branch, once the caller is known to act for it (the union or that branch)."""
    if caller is None or not caller.has_role(Role.union):
        raise Forbidden(
            f"entry {row.id}'s unpublished details are for the union and its branch", rule="role-required"
        )
    assert row.branch_id is not None
    branch = repository.branches_by_id(session, [row.branch_id])[row.branch_id]
    act_for_branch(caller, branch.code)
    return branch


def _require_status(row: Entry, allowed: tuple[EntryStatus, ...], *, action: str) -> None:
    if EntryStatus(row.status) not in allowed:
        names = " or ".join(status.value for status in allowed)
        raise Conflict(
            f"entry {row.id} is {row.status}; only a {names} entry can be {action}",
            rule="entry-status",
            extra={"status": row.status},
        )


def submit_entry(session: Session, entry_id: int, *, caller: Caller, now: datetime) -> EntryOut:
    """The branch approves its roster and submits it to the union (seed 000 §六.3)."""
    row, event, branch = _entry_for_branch(session, entry_id, caller)
    _window_open(event, now, action="submitting an entry")
    _require_status(row, (EntryStatus.DRAFT,), action="submitted")
    config = event_config(event)
    if config.leader_required and row.leader_member_id is None:
        raise RuleViolation(
            "the branch names a leader (staff id, name, phone) before it submits (seed 000 §六.3)",
            rule="leader-required",
            field="leader",
        )
    if not row.outside_quota:
        _check_quota(session, event, branch, config=config, excluding=row.id)
    return _set_status(session, row, EntryStatus.SUBMITTED, now=now, submitted_at=now)


def confirm_entry(session: Session, entry_id: int, *, caller: Caller, now: datetime) -> EntryOut:
    union_wide(caller, "confirming an entry")
    row = _entry(session, entry_id)
    _decidable(session, row)
    _require_status(row, (EntryStatus.SUBMITTED,), action="confirmed")
    confirmed = _set_status(session, row, EntryStatus.CONFIRMED, now=now, confirmed_at=now)
    webhooks_service.emit(
        session,
        event_id=row.event_id,
        kind=WebhookKind.registration_confirmed,
        payload={"entry_id": confirmed.id, "name": confirmed.name, "branch": confirmed.branch_name},
        now=now,
    )
    return confirmed


def reject_entry(session: Session, entry_id: int, reason: str, *, caller: Caller, now: datetime) -> EntryOut:
    union_wide(caller, "rejecting an entry")
    row = _entry(session, entry_id)
    _decidable(session, row)
    _require_status(row, (EntryStatus.SUBMITTED,), action="rejected")
    row.rejection_reason = reason
    return _set_status(session, row, EntryStatus.REJECTED, now=now)


def withdraw_entry(session: Session, entry_id: int, *, caller: Caller, now: datetime) -> EntryOut:
    """Before the close only: after it the draw counts on the entry, and after the start a change
    is a forfeit (seed 000 附件 一, seed 001 补充说明 1 and 11)."""
    row, event, _ = _entry_for_branch(session, entry_id, caller)
    try:
        _window_open(event, now, action="withdrawing an entry")
    except WindowClosed as closed:
        raise WindowClosed(
            closed.detail + "; after the close an entry stays, and once play starts a change of "
            "player counts as a forfeit (seed 000 附件 一, seed 001 补充说明 11)",
            rule="withdrawal-closed",
            extra=closed.extra,
        ) from None
    _require_status(
        row,
        (EntryStatus.DRAFT, EntryStatus.SUBMITTED, EntryStatus.CONFIRMED, EntryStatus.REJECTED),
        action="withdrawn",
    )
    # the roster goes, so its members may enter again through another entry
    repository.delete_roster(session, entry_id)
    return _set_status(session, row, EntryStatus.WITHDRAWN, now=now, withdrawn_at=now)


def _decidable(session: Session, row: Entry) -> None:
    event = get_event(session, row.event_id)
    if EventState(event.state) not in DECIDABLE_STATES:
        raise Conflict(
            f"the union decides entries while registration is open or closed; event {event.id} is {event.state}",
            rule="event-state",
            extra={"state": event.state},
        )


def _set_status(
    session: Session, row: Entry, status: EntryStatus, *, now: datetime, **stamps: datetime
) -> EntryOut:
    row.status = status.value
    row.updated_at = now
    row.version += 1
    for name, value in stamps.items():
        setattr(row, name, value)
    session.add(row)
    session.flush()
    return entry_view(session, row.id or 0)


def entry_view(session: Session, entry_id: int) -> EntryOut:
    return _entries_out(session, [_entry(session, entry_id)])[0]


def list_entries(
    session: Session,
    event_id: int,
    *,
    status: EntryStatus | None = None,
    branch_code: str | None = None,
    page: Page,
) -> Paged[EntryOut]:
    get_event(session, event_id)
    branch_id = _branch(session, branch_code).id if branch_code else None
    rows = repository.entries_of(
        session, event_id, status=status.value if status else None, branch_id=branch_id, page=page
    )
    return Paged(items=_entries_out(session, rows.items), total=rows.total)


def _entries_out(session: Session, rows: Sequence[Entry]) -> list[EntryOut]:
    rosters: dict[int, list[tuple[EntryMember, Member, Branch]]] = defaultdict(list)
    for roster_row in repository.roster_rows(session, [row.id for row in rows if row.id is not None]):
        rosters[roster_row[0].entry_id].append(roster_row)
    branches = repository.branches_by_id(session, [row.branch_id for row in rows if row.branch_id])
    leaders = repository.members_by_id(
        session, [row.leader_member_id for row in rows if row.leader_member_id]
    )
    out = []
    for row in rows:
        assert row.id is not None
        branch = branches.get(row.branch_id or 0)
        leader = leaders.get(row.leader_member_id or 0)
        out.append(
            EntryOut(
                id=row.id,
                event_id=row.event_id,
                name=row.name,
                branch_code=branch.code if branch else None,
                branch_name=branch.name if branch else None,
                status=EntryStatus(row.status),
                outside_quota=row.outside_quota,
                seed=row.seed,
                leader_name=leader.name if leader else None,
                rejection_reason=row.rejection_reason,
                roster=[
                    RosterOut(
                        position=em.position,
                        name=member.name,
                        branch_code=member_branch.code,
                        is_leader=em.is_leader,
                        is_coach=em.is_coach,
                        plays=em.is_player,
                    )
                    for em, member, member_branch in rosters[row.id]
                ],
                submitted_at=row.submitted_at,
                confirmed_at=row.confirmed_at,
            )
        )
    return out


def _roster_member(em: EntryMember, member: Member) -> RosterMember:
    return RosterMember(
        member_id=em.member_id,
        name=member.name,
        position=em.position,
        is_player=em.is_player,
        is_leader=em.is_leader,
        is_coach=em.is_coach,
        is_dean_or_secretary=member.is_dean_or_secretary,
        is_school_leader=member.is_school_leader,
    )


def confirmed_entries(session: Session, event_id: int) -> list[ConfirmedEntry]:
    """The event's confirmed entries with branch and roster, for the draw and the scoring."""
    rows = repository.entries_of(session, event_id, status=EntryStatus.CONFIRMED.value).items
    rosters: dict[int, list[RosterMember]] = defaultdict(list)
    for em, member, _ in repository.roster_rows(session, [row.id for row in rows if row.id is not None]):
        rosters[em.entry_id].append(_roster_member(em, member))
    branches = repository.branches_by_id(session, [row.branch_id for row in rows if row.branch_id])
    return [
        ConfirmedEntry(
            entry_id=row.id or 0,
            name=row.name,
            branch_code=branches[row.branch_id].code if row.branch_id else None,
            branch_name=branches[row.branch_id].name if row.branch_id else None,
            seed=row.seed,
            outside_quota=row.outside_quota,
            members=tuple(rosters[row.id or 0]),
        )
        for row in rows
    ]


# Lineups --------------------------------------------------------------------------------------


def set_lineup(
    session: Session, entry_id: int, round_number: int, data: LineupIn, *, caller: Caller, now: datetime
) -> LineupOut:
    """The leader names the team's pairs and their numbers for a round (seed 000 §八.2)."""
    row, event, _ = _entry_for_branch(session, entry_id, caller)
    config = event_config(event)
    if EntryKind(event.entry_kind) is not EntryKind.TEAM or config.pairs_per_match is None:
        raise RuleViolation("lineups are for team events", rule="lineup-team-only", field="entry_id")
    _require_status(row, (EntryStatus.CONFIRMED,), action="given a lineup")
    if EventState(event.state) not in LINEUP_STATES:
        raise Conflict(
            f"lineups are set after registration closes and before the event ends; event {event.id} is "
            f"{event.state}",
            rule="event-state",
            extra={"state": event.state},
        )
    if config.rounds is not None and not 1 <= round_number <= config.rounds:
        raise InvalidInput(
            f"this event plays rounds 1 to {config.rounds}; there is no round {round_number}",
            rule="unknown-round",
            field="round_number",
        )
    existing = repository.lineup(session, entry_id=entry_id, round_number=round_number)
    slot = config.round_time(round_number)
    if (existing is not None and existing.locked_at is not None) or (
        slot is not None and now >= slot.starts_at
    ):
        raise WindowClosed(
            f"round {round_number}'s lineup locked when the round started; pairs are set before each round "
            "(seed 000 §八.2)",
            rule="lineup-locked",
            field="round_number",
        )
    roster = {
        member.staff_id: member
        for em, member, _ in repository.roster_rows(session, [entry_id])
        if em.is_player
    }
    pairs = [(pair.pair_no, (pair.players[0], pair.players[1])) for pair in data.pairs]
    check_lineup(pairs, roster=set(roster), pairs_per_match=config.pairs_per_match)
    lineup = existing or Lineup(entry_id=entry_id, round_number=round_number, created_at=now, updated_at=now)
    lineup.updated_at = now
    session.add(lineup)
    session.flush()
    assert lineup.id is not None
    repository.delete_lineup_pairs(session, lineup.id)
    for pair_no, (first, second) in pairs:
        session.add(
            LineupPair(
                lineup_id=lineup.id,
                pair_no=pair_no,
                first_member_id=roster[first].id or 0,
                second_member_id=roster[second].id or 0,
            )
        )
    session.flush()
    # the standings' dean bonus reads the lineups (seed 000 §七): cached standings are stale now
    bump_results_version(session, row.event_id)
    return get_lineup(session, entry_id, round_number, caller=caller)


def lineup_for(session: Session, *, entry_id: int, round_number: int) -> LineupValue | None:
    """A team's pairs for a round, or None when its leader has not named them."""
    lineup = repository.lineup(session, entry_id=entry_id, round_number=round_number)
    if lineup is None or lineup.id is None:
        return None
    by_member = {
        em.member_id: _roster_member(em, member)
        for em, member, _ in repository.roster_rows(session, [entry_id])
    }
    return LineupValue(
        entry_id=entry_id,
        round_number=round_number,
        locked=lineup.locked_at is not None,
        pairs=tuple(
            LineupPairValue(pair.pair_no, (by_member[pair.first_member_id], by_member[pair.second_member_id]))
            for pair in repository.lineup_pairs(session, lineup.id)
        ),
    )


def get_lineup(session: Session, entry_id: int, round_number: int, *, caller: Caller | None) -> LineupOut:
    """Public once locked; before the round only the team's own side reads it (in a team
    rotation pair k meets pair k, so an early look would help the opponents)."""
    row = _entry(session, entry_id)
    value = lineup_for(session, entry_id=entry_id, round_number=round_number)
    if value is None:
        raise NotFound(
            f"entry {entry_id} has no lineup for round {round_number} yet",
            rule="unknown-lineup",
            field="round_number",
        )
    if not value.locked:
        _own_side(session, row, caller)
    return LineupOut(
        entry_id=entry_id,
        round_number=round_number,
        locked=value.locked,
        pairs=[LineupPairOut(pair_no=p.pair_no, players=[m.name for m in p.members]) for p in value.pairs],
    )


def lock_lineups(session: Session, *, event_id: int, round_number: int, now: datetime | None = None) -> int:
    """Locks every lineup of the round (the schedule calls it when the round starts); returns how many."""
    moment = now or real_now()
    lineups = repository.unlocked_lineups(session, event_id=event_id, round_number=round_number)
    for lineup in lineups:
        lineup.locked_at = moment
        session.add(lineup)
    session.flush()
    return len(lineups)
