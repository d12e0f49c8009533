"""Events with confirmed entries, built directly, and final results posted as the scoring would."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session

from domain.access.models import Caller, Role
from domain.schedule import service
from domain.schedule.models import GenerateIn, RoundOut
from domain.scoring import service as scoring_service
from storage.tables import Branch, Competition, Entry, EntryMember, Event, GameResult, Member

T0 = datetime(2023, 12, 29, 5, 0, tzinfo=UTC)  # 13:00 in Asia/Shanghai, seed 000's check-in
REFEREE = Caller(key_id=1, name="裁判长", role=Role.referee)
UNION = Caller(key_id=2, name="union system", role=Role.union)
SIZES = {"team": (10, 15), "pair": (2, 2), "individual": (1, 1)}


def event_with_entries(
    session: Session,
    *,
    format_: str,
    entry_kind: str,
    preset: str,
    branches: list[str],
    config: dict[str, Any] | None = None,
    discipline: str = "guandan",
) -> tuple[int, list[int]]:
    """One confirmed entry per item of ``branches`` (its branch code); registration closed."""
    competition = Competition(name="智力赛", created_at=T0, updated_at=T0)
    session.add(competition)
    session.flush()
    low, high = SIZES[entry_kind]
    event = Event(
        competition_id=competition.id or 0,
        name="测试项目",
        discipline=discipline,
        entry_kind=entry_kind,
        format=format_,
        preset=preset,
        rule_overrides={},
        config={"roster_min": low, "roster_max": high, **(config or {})},
        state="registration_closed",
        created_at=T0,
        updated_at=T0,
    )
    session.add(event)
    session.flush()
    known: dict[str, Branch] = {}
    ids = []
    for k, code in enumerate(branches):
        if code not in known:
            known[code] = Branch(
                code=f"{event.id}-{code}", name=f"{code} 分工会", created_at=T0, updated_at=T0
            )
            session.add(known[code])
            session.flush()
        branch = known[code]
        entry = Entry(
            event_id=event.id or 0,
            branch_id=branch.id,
            name=f"E{k}",
            status="confirmed",
            created_at=T0,
            updated_at=T0,
        )
        session.add(entry)
        session.flush()
        for p in range(low):
            member = Member(
                staff_id=f"{event.id}-{k}-{p}",
                name=f"E{k}-{p}",
                branch_id=branch.id or 0,
                created_at=T0,
                updated_at=T0,
            )
            session.add(member)
            session.flush()
            session.add(
                EntryMember(
                    entry_id=entry.id or 0,
                    event_id=event.id or 0,
                    member_id=member.id or 0,
                    position=p,
                    created_at=T0,
                )
            )
        ids.append(entry.id or 0)
    session.flush()
    return event.id or 0, ids


def drawn(session: Session, event_id: int) -> dict[str, Any]:
    service.commit_draw(session, event_id, caller=UNION, now=T0)
    result = service.run_draw(
        session, event_id, ranking=scoring_service.stage_ranking, caller=UNION, now=T0
    ).result
    assert result is not None
    return result


def published(session: Session, event_id: int, number: int, *, caller: Caller = UNION) -> RoundOut:
    service.generate_round(session, event_id, number, GenerateIn(), caller=caller, now=T0)
    return service.publish_round(session, event_id, number, caller=caller, now=T0 + timedelta(minutes=number))


def post_final(
    session: Session, game_id: int, *, event_id: int, points: dict[str, int], winner: str | None
) -> None:
    """A final result as the scoring stores it: ``points`` by side (or by seat for Gongzhu)."""
    session.add(
        GameResult(
            game_id=game_id,
            event_id=event_id,
            state="final",
            winner_side=winner,
            outcome={"points": points},
            final_at=T0,
            updated_at=T0,
        )
    )
    session.flush()
