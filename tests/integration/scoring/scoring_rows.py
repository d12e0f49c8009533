"""Rows the scoring tests stand on (competition, event, entries, rounds, matches, games), built
directly so these tests do not wait for the events and schedule services."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session

from domain.access.scorer_tokens import new_nonce
from storage.tables import Branch, Competition, Entry, Event, Game, Match, MatchEntry, Round

T0 = datetime(2023, 12, 29, 5, 30, tzinfo=UTC)  # 13:30 in Asia/Shanghai (seed 000 §五)
ROUND_MINUTES = 50


def _config(entry_kind: str, extra: dict[str, Any] | None) -> dict[str, Any]:
    sizes = {"team": (10, 15), "pair": (2, 2), "individual": (1, 1)}[entry_kind]
    return {"roster_min": sizes[0], "roster_max": sizes[1], **(extra or {})}


def make_event(
    session: Session,
    *,
    preset: str,
    entry_kind: str = "pair",
    config: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> Event:
    competition = Competition(name="迎新智力竞赛", created_at=T0, updated_at=T0)
    session.add(competition)
    session.flush()
    assert competition.id is not None
    event = Event(
        competition_id=competition.id,
        name=f"{preset} event",
        discipline="guandan",
        entry_kind=entry_kind,
        format="swiss",
        preset=preset,
        rule_overrides=overrides or {},
        config=_config(entry_kind, config),
        state="running",
        created_at=T0,
        updated_at=T0,
    )
    session.add(event)
    session.flush()
    return event


def make_entries(session: Session, event: Event, names: list[str]) -> list[Entry]:
    assert event.id is not None
    made = []
    for name in names:
        branch = Branch(code=f"{event.id}-{name}", name=f"{name} branch", created_at=T0, updated_at=T0)
        session.add(branch)
        session.flush()
        entry = Entry(
            event_id=event.id,
            branch_id=branch.id,
            name=name,
            status="confirmed",
            created_at=T0,
            updated_at=T0,
        )
        session.add(entry)
        made.append(entry)
    session.flush()
    return made


def make_round(session: Session, event: Event, number: int, *, stage: str = "main") -> Round:
    assert event.id is not None
    starts = T0 + timedelta(minutes=60 * (number - 1))
    round_ = Round(
        event_id=event.id,
        stage=stage,
        number=number,
        state="published",
        starts_at=starts,
        ends_at=starts + timedelta(minutes=ROUND_MINUTES),
        pairing_published_at=starts - timedelta(minutes=5),
        created_at=T0,
        updated_at=T0,
    )
    session.add(round_)
    session.flush()
    return round_


def make_game(
    session: Session,
    round_: Round,
    ns: Entry,
    ew: Entry,
    *,
    match_no: int = 1,
    games: int = 1,
    group: str | None = None,
) -> list[Game]:
    """A match of ``ns`` (sits N–S) against ``ew`` with ``games`` pair games (5 in a team match)."""
    assert round_.id is not None and ns.id is not None and ew.id is not None
    match = Match(
        round_id=round_.id, event_id=round_.event_id, match_no=match_no, group_label=group, created_at=T0
    )
    session.add(match)
    session.flush()
    assert match.id is not None
    session.add(MatchEntry(match_id=match.id, entry_id=ns.id, position=1, side="NS"))
    session.add(MatchEntry(match_id=match.id, entry_id=ew.id, position=2, side="EW"))
    made = []
    for game_no in range(1, games + 1):
        seats = {
            seat: {"name": f"{entry.name}-{game_no}{seat}"}
            for seat, entry in zip("NESW", (ns, ew, ns, ew), strict=True)
        }
        game = Game(
            match_id=match.id,
            round_id=round_.id,
            event_id=round_.event_id,
            game_no=game_no,
            table_no=match_no * 10 + game_no,
            seats=seats,
            token_nonce=new_nonce(),
            created_at=T0,
        )
        session.add(game)
        made.append(game)
    session.flush()
    return made


def one_game(
    session: Session, *, preset: str, **event_options: Any
) -> tuple[Event, Round, Game, list[Entry]]:
    event = make_event(session, preset=preset, **event_options)
    entries = make_entries(session, event, ["north", "east"])
    round_ = make_round(session, event, 1)
    (game,) = make_game(session, round_, entries[0], entries[1])
    return event, round_, game, entries
