"""Scoring: deals, game ends, penalties, confirmations, corrections, scorer tokens, standings.

Every judgement is the rules' (``domain.rules`` via ``judge``); this service loads the records,
checks who may change what and when, stores, audits, and bumps the event's results version in the
same transaction. It never commits: the request's unit of work does.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from urllib.parse import quote

from sqlmodel import Session

from domain.access import scorer_tokens
from domain.access import service as access_service
from domain.access.models import Role
from domain.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    RuleViolation,
    Unauthenticated,
    WindowClosed,
)
from domain.events import service as events_service
from domain.events.models import EventConfig, EventState
from domain.paging import Page, Paged
from domain.rules import service as rules_service
from domain.rules.cards import parse_card
from domain.rules.levels import DealResult, Seat, Side, Trajectory
from domain.rules.ruleset import ACE, Discipline, RuleSet
from domain.rules.timeup import GameStatus
from domain.rules.tribute import settle_tribute
from domain.schedule import draw
from domain.schedule import service as schedule_service
from domain.scoring import awards as pure_awards
from domain.scoring import gongzhu, repository
from domain.scoring.judge import PenaltyRecord, Verdict, judge, match_verdict
from domain.scoring.models import (
    AuditOut,
    AwardOut,
    AwardsOut,
    ConfirmationIn,
    CorrectionIn,
    CorrectionOut,
    DealAnswer,
    DealEdit,
    DealIn,
    DealOut,
    FinalResultIn,
    ForfeitIn,
    GameOut,
    GameState,
    GroupStandingsOut,
    MatchGameIn,
    PenaltyIn,
    PenaltyKind,
    PenaltyOut,
    ScorerTokenOut,
    SideOut,
    StandingOut,
    StandingsMove,
    StandingsOut,
    TableGameOut,
    TieOut,
    TimeUpIn,
    TributeIn,
)
from domain.scoring.results import Entry, EventResults, GameResult, PrizeTier
from domain.scoring.standings import GroupStandings, compute_standings
from domain.webhooks import service as webhooks_service
from domain.webhooks.models import WebhookKind
from storage.tables import AuditEntry, Deal, Event, Game, GongzhuHand, Penalty, Round
from storage.tables import GameResult as ResultRow

SIDE_SEATS = {Side.NS: (Seat.N.value, Seat.S.value), Side.EW: (Seat.E.value, Seat.W.value)}
# chess/Go seat the first-named player (N–S in the results) and the second (E–W), seed 004 §三.1
MATCH_SEATS = {Side.NS: ("first",), Side.EW: ("second",)}
LEVEL_LABELS = {11: "J", 12: "Q", 13: "K", ACE: "A"}


# --- who may act on a game ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Actor:
    """Who changes a game: a referee (or admin) key, or the scorer token of that game."""

    ref: str
    referee: bool


def authorize(session: Session, game_id: int, credential: str | None, *, secret: str, now: datetime) -> Actor:
    """The actor presenting ``credential`` for ``game_id``: a referee/admin API key, or a scorer
    token issued for this game with its current nonce."""
    if credential is None:
        raise Unauthenticated(
            "this needs the game's scorer token or a referee key (Authorization: Bearer …, or ?token=)",
            rule="scorer-token-required",
        )
    if credential.startswith(access_service.KEY_PREFIX):
        caller = access_service.authenticate(session, credential)
        if not caller.has_role(Role.referee):
            raise Forbidden(
                f"a {caller.role.value} key cannot score games; use the game's scorer token or a referee key",
                rule="role-required",
            )
        return Actor(ref=caller.ref, referee=True)
    claim = scorer_tokens.verify(secret, credential, now=now)
    game = _game(session, game_id)
    if claim.game_id != game_id:
        raise Forbidden(
            f"this scorer token is for game {claim.game_id}, not game {game_id}",
            rule="scorer-token-other-game",
        )
    if claim.nonce != game.token_nonce:
        raise Forbidden(
            "this scorer token was revoked (the game's token was reissued)", rule="scorer-token-revoked"
        )
    return Actor(ref=f"scorer:{game_id}", referee=False)


def require_referee(actor: Actor, *, action: str) -> None:
    if not actor.referee:
        raise Forbidden(
            f"{action} is a referee's decision; a scorer token cannot make it", rule="referee-required"
        )


def scorer_token_for(game: Game, round_: Round, *, secret: str, config: EventConfig) -> tuple[str, datetime]:
    """The game's scorer token; it expires when the entry-error window after the round closes
    (seed 000 §十.2), after which only a referee changes the result."""
    if not game.token_nonce:
        raise Conflict(
            f"game {game.id} has no scorer token yet: its round is not published", rule="round-not-published"
        )
    end = round_.ends_at
    if end is None:
        raise Conflict(
            f"round {round_.number} has no end time, so its tokens cannot expire", rule="round-has-no-end"
        )
    expires_at = end + timedelta(minutes=config.entry_error_minutes)
    assert game.id is not None
    return scorer_tokens.issue(
        secret, game_id=game.id, nonce=game.token_nonce, expires_at=expires_at
    ), expires_at


def round_scorer_tokens(session: Session, round_id: int, *, secret: str) -> list[ScorerTokenOut]:
    round_ = repository.round_(session, round_id)
    if round_ is None:
        raise NotFound(f"no round {round_id}", rule="unknown-round", field="round_id")
    config = events_service.event_config(_event(session, round_.event_id))
    tokens = []
    for game, match in repository.round_games(session, round_id):
        token, expires_at = scorer_token_for(game, round_, secret=secret, config=config)
        assert game.id is not None
        tokens.append(
            ScorerTokenOut(
                game_id=game.id,
                match_no=match.match_no,
                game_no=game.game_no,
                table_no=game.table_no,
                token=token,
                expires_at=expires_at,
                url_path=f"/score/{game.id}?token={token}",  # the phone form (api/pages)
            )
        )
    return tokens


def _event(session: Session, event_id: int) -> Event:
    return events_service.get_event(session, event_id)


def _game(session: Session, game_id: int, *, lock: bool = False) -> Game:
    game = repository.game(session, game_id, lock=lock)
    if game is None:
        raise NotFound(f"no game {game_id}", rule="unknown-game", field="game_id")
    return game


# --- loading and settling a game ------------------------------------------------------------


@dataclass(slots=True)
class LoadedGame:
    """A game with everything its verdict is judged from; shared by the deal and hand services."""

    game: Game
    event: Event
    rules: RuleSet
    result: ResultRow
    deals: list[Deal]
    penalties: list[Penalty]
    hands: list[GongzhuHand]

    @property
    def game_id(self) -> int:
        assert self.game.id is not None
        return self.game.id


def load_game(session: Session, game_id: int, *, lock: bool) -> LoadedGame:
    """The game and its records; ``lock`` takes the row lock a change needs."""
    game = _game(session, game_id, lock=lock)
    event = _event(session, game.event_id)
    result = repository.result_of(session, game_id)
    if result is None:
        assert game.id is not None
        result = ResultRow(game_id=game.id, event_id=game.event_id, outcome={}, updated_at=game.created_at)
    rules = events_service.event_rules(event)
    return LoadedGame(
        game=game,
        event=event,
        rules=rules,
        result=result,
        deals=repository.deals_of(session, game_id),
        penalties=repository.penalties_of(session, game_id),
        hands=repository.hands_of(session, game_id) if rules.discipline is Discipline.GONGZHU else [],
    )


def _penalty_records(penalties: Sequence[Penalty]) -> list[PenaltyRecord]:
    return [PenaltyRecord(Seat(p.seat), PenaltyKind(p.kind), p.deal_no) for p in penalties]


def _verdict(
    ctx: LoadedGame,
    *,
    deals: Sequence[DealResult] | None = None,
    penalties: Sequence[PenaltyRecord] | None = None,
    reported: FinalResultIn | None = None,
) -> Verdict:
    result = ctx.result
    forfeit = Side(result.forfeit_side) if result.forfeit_side else None
    if ctx.rules.discipline in (Discipline.XIANGQI, Discipline.GO) and forfeit is None:
        return match_verdict((result.reported or {}).get("games", []), ctx.rules)
    stored = result.reported if result.reported and "ns_level" in result.reported else None
    return judge(
        [DealResult(d.finish_order) for d in ctx.deals] if deals is None else deals,
        ctx.rules,
        penalties=_penalty_records(ctx.penalties) if penalties is None else penalties,
        time_up_after=result.time_up_after,
        forfeit_side=forfeit,
        reported=reported or (FinalResultIn.model_validate(stored) if stored else None),
    )


def _snapshot(verdict: Verdict) -> dict[str, Any]:
    """The derived state kept on the result row: what standings and audit rows read."""
    trajectory, outcome = verdict.trajectory, verdict.outcome
    return {
        "status": outcome.status.value,
        "reason": outcome.reason,
        "winner": outcome.winner.value if outcome.winner else None,
        "points": {side.value: points for side, points in outcome.points.items()},
        "levels": {"NS": trajectory.ns.level, "EW": trajectory.ew.level},
        "passed_a": trajectory.passed_a.value if trajectory.passed_a else None,
        "a_failures": {"NS": trajectory.ns.a_failures, "EW": trajectory.ew.a_failures},
        "declarer": trajectory.declarer.value if trajectory.declarer else None,
        "next_level": trajectory.next_level,
        "deals": len(trajectory.deals) if verdict.match is None else 0,
        "match_games": verdict.match.games_played if verdict.match else 0,
    }


def settle(session: Session, ctx: LoadedGame, *, now: datetime, clear_confirmations: bool = True) -> Verdict:
    """Re-judge the game from its records, store the verdict and bump the results version."""
    verdict = _verdict(ctx)
    result = ctx.result
    decided = verdict.decided
    if ctx.rules.discipline is Discipline.GONGZHU:
        decided = gongzhu.record_outcome(result, ctx.hands, ctx.rules)
    else:
        result.outcome = _snapshot(verdict)
        result.end_reason = verdict.outcome.reason if verdict.decided else None
        result.winner_side = verdict.outcome.winner.value if verdict.outcome.winner else None
    if clear_confirmations and result.final_at is None:
        # what a side confirmed has changed: it confirms again (seed 000 §九.4)
        result.confirmed_a_at = result.confirmed_b_at = None
    if result.final_at is not None:
        result.state = GameState.FINAL.value
    else:
        result.state = (GameState.ENDED if decided else GameState.IN_PLAY).value
    result.version += 1
    result.updated_at = now
    repository.add(session, result)
    events_service.bump_results_version(session, ctx.game.event_id)
    return verdict


def audit(
    session: Session,
    ctx: LoadedGame,
    *,
    action: str,
    actor: Actor,
    now: datetime,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    reason: str = "",
) -> None:
    """One audit row for a change to the game, in the same transaction."""
    repository.add(
        session,
        AuditEntry(
            event_id=ctx.game.event_id,
            entity="game",
            entity_id=ctx.game_id,
            action=action,
            actor=actor.ref,
            reason=reason,
            before=before,
            after=after,
            created_at=now,
        ),
    )


def require_open(ctx: LoadedGame, *, action: str) -> None:
    """Refuse ``action`` on a final game: only a referee's correction changes it."""
    if ctx.result.final_at is not None:
        raise Conflict(
            f"game {ctx.game_id} is final (both sides confirmed); {action} needs a referee's correction "
            "(seed 000 §十)",
            rule="result-final",
        )


def _require_guandan(ctx: LoadedGame) -> None:
    if ctx.rules.discipline is not Discipline.GUANDAN:
        raise RuleViolation(
            f"game {ctx.game_id} is {ctx.rules.discipline.value}, not Guandan: it has no deals",
            rule="not-a-guandan-game",
        )


# --- reading a game -------------------------------------------------------------------------


def level_label(level: int) -> str:
    return LEVEL_LABELS.get(level, str(level))


def _summary(trajectory: Trajectory, outcome_status: GameStatus) -> str:
    if outcome_status is not GameStatus.IN_PROGRESS and outcome_status is not GameStatus.EXTRA_DEAL_REQUIRED:
        return f"game over: N–S {level_label(trajectory.ns.level)}, E–W {level_label(trajectory.ew.level)}"
    declarer = trajectory.declarer
    if declarer is None:
        return "both sides play 2"
    other = Side.EW if declarer is Side.NS else Side.NS
    names = {Side.NS: "N–S", Side.EW: "E–W"}
    return (
        f"{names[declarer]} play {level_label(trajectory.state(declarer).level)}, "
        f"{names[other]} on {level_label(trajectory.state(other).level)}"
    )


def _deal_out(deal: Deal, trajectory: Trajectory) -> DealOut:
    record = trajectory.deals[deal.deal_no - 1]
    return DealOut(
        deal_no=deal.deal_no,
        finish_order=[Seat(seat) for seat in deal.finish_order],
        declarer=record.declarer,
        level_played=record.level_played,
        winner=record.winner,
        promotion=record.promotion,
        failed_a=record.failed_a,
        ns_level=record.ns.level,
        ew_level=record.ew.level,
        tribute=deal.tribute,
        note=deal.note,
        version=deal.version,
    )


def _game_out(session: Session, ctx: LoadedGame, verdict: Verdict) -> GameOut:
    game, result, trajectory, outcome = ctx.game, ctx.result, verdict.trajectory, verdict.outcome
    entries: dict[Side, tuple[int | None, str | None]] = {}
    for position, (match_entry, entry) in enumerate(repository.sides_of(session, game.match_id), start=1):
        side = Side(match_entry.side) if match_entry.side else (Side.NS if position == 1 else Side.EW)
        entries[side] = (entry.id, entry.name)
    confirmed = {Side.NS: result.confirmed_a_at is not None, Side.EW: result.confirmed_b_at is not None}
    seats = game.seats or {}
    seat_keys = MATCH_SEATS if "first" in seats else SIDE_SEATS

    def side_out(side: Side) -> SideOut:
        state = trajectory.state(side)
        entry_id, name = entries.get(side, (None, None))
        taken = [seats.get(key) or {} for key in seat_keys[side]]
        return SideOut(
            side=side,
            entry_id=entry_id,
            entry_name=name,
            players=[str(seat.get("name", "")) for seat in taken],
            branch=next((seat["branch"] for seat in taken if seat.get("branch")), None),
            level=state.level,
            passed_a=state.passed_a,
            a_failures=state.a_failures,
            points=outcome.points.get(side, 0),
            confirmed=confirmed[side],
        )

    shown_deals = ctx.deals if verdict.match is None and not result.reported else []
    assert game.id is not None
    assert game.id == ctx.game_id
    return GameOut(
        game_id=game.id,
        event_id=game.event_id,
        round_id=game.round_id,
        match_id=game.match_id,
        game_no=game.game_no,
        table_no=game.table_no,
        state=GameState(result.state),
        status=outcome.status.value,
        reason=outcome.reason,
        winner=outcome.winner,
        ns=side_out(Side.NS),
        ew=side_out(Side.EW),
        declarer=trajectory.declarer,
        next_level=trajectory.next_level,
        summary=_summary(trajectory, outcome.status),
        time_up_after=result.time_up_after,
        forfeit_side=Side(result.forfeit_side) if result.forfeit_side else None,
        match_games=list((result.reported or {}).get("games", [])),
        deals=[_deal_out(deal, trajectory) for deal in shown_deals],
        penalties=[
            PenaltyOut(
                seat=Seat(p.seat),
                kind=PenaltyKind(p.kind),
                deal_no=p.deal_no,
                note=p.note,
                created_at=p.created_at,
            )
            for p in ctx.penalties
        ],
        version=result.version,
    )


def _view(session: Session, ctx: LoadedGame, verdict: Verdict) -> GameOut | TableGameOut:
    if ctx.rules.discipline is Discipline.GONGZHU:
        return gongzhu.table_out(ctx.game, ctx.result, ctx.hands, ctx.rules)
    return _game_out(session, ctx, verdict)


def get_game(session: Session, game_id: int) -> GameOut:
    """The public view of a game: seats with names, levels, declarer, deals, state."""
    ctx = load_game(session, game_id, lock=False)
    return _game_out(session, ctx, _verdict(ctx))


def game_view(session: Session, game_id: int) -> GameOut | TableGameOut:
    """``get_game``, or a Gongzhu table's hands and totals."""
    ctx = load_game(session, game_id, lock=False)
    return _view(session, ctx, _verdict(ctx))


# --- posting and editing deals --------------------------------------------------------------


def _tribute(
    ctx: LoadedGame, tribute: TributeIn | None, *, deal_no: int, previous: Trajectory
) -> dict[str, Any] | None:
    """Check a recorded tribute against the previous deal (seed 000 附件 三); stored as given."""
    if tribute is None:
        return None
    if deal_no == 1:
        raise RuleViolation(
            "the first deal has no tribute (seed 000 附件 三.1: 从第二副牌开始)",
            rule="tribute-on-first-deal",
            field="tribute",
        )
    outcome = settle_tribute(
        previous.deals[deal_no - 2].finish_order,
        level=previous.next_level,
        paid={seat: parse_card(card, field=f"tribute.paid.{seat}") for seat, card in tribute.paid.items()},
        returned={
            seat: parse_card(card, field=f"tribute.returned.{seat}")
            for seat, card in tribute.returned.items()
        },
        big_jokers=tribute.big_jokers,
        rules=rules_service.tribute_rules(ctx.rules),
    )
    if tribute.leader is not None and tribute.leader is not outcome.leader:
        raise RuleViolation(
            f"{outcome.leader.value} leads deal {deal_no} under {ctx.rules.name} ({ctx.rules.citation}), "
            f"not {tribute.leader.value}",
            rule="tribute-wrong-leader",
            field="tribute.leader",
        )
    return tribute.model_dump(mode="json")


def _same_deal(stored: Deal, posted: DealIn) -> bool:
    tribute = posted.tribute.model_dump(mode="json") if posted.tribute else None
    return (
        stored.finish_order == [seat.value for seat in posted.finish_order]
        and stored.tribute == tribute
        and stored.note == posted.note
    )


def _new_penalties(
    ctx: LoadedGame, penalties: Sequence[PenaltyIn], *, actor: Actor, now: datetime, default_deal: int | None
) -> list[Penalty]:
    if penalties and not actor.referee:
        raise Forbidden(
            "penalties are recorded by a referee (seed 000 附件 八.4)",
            rule="penalty-needs-referee",
            field="penalties",
        )
    return [
        Penalty(
            game_id=ctx.game_id,
            seat=p.seat.value,
            kind=p.kind.value,
            deal_no=p.deal_no or default_deal,
            note=p.note,
            recorded_by=actor.ref,
            created_at=now,
        )
        for p in penalties
    ]


def post_deal(session: Session, game_id: int, posted: DealIn, *, actor: Actor, now: datetime) -> DealAnswer:
    """Record the next deal (逐副). The same deal posted again with the same content answers the
    stored deal (a retry without an Idempotency-Key); different content for a stored number is a
    Conflict carrying the stored deal."""
    ctx = load_game(session, game_id, lock=True)
    _require_guandan(ctx)
    require_open(ctx, action="a new deal")
    if ctx.result.reported:
        raise Conflict(
            f"game {game_id} was scored by its final result; it takes no deals", rule="final-result-recorded"
        )
    if posted.deal_no <= len(ctx.deals):
        stored = ctx.deals[posted.deal_no - 1]
        if _same_deal(stored, posted):
            verdict = _verdict(ctx)
            return DealAnswer(
                deal=_deal_out(stored, verdict.trajectory), game=_game_out(session, ctx, verdict)
            )
        current = _deal_out(stored, _verdict(ctx).trajectory)
        raise Conflict(
            f"deal {posted.deal_no} of game {game_id} is already recorded differently; edit it with "
            f"PUT and If-Match: {stored.version}",
            rule="deal-already-recorded",
            field="deal_no",
            extra={"stored_deal": current.model_dump(mode="json")},
        )
    if posted.deal_no != len(ctx.deals) + 1:
        raise Conflict(
            f"deal {posted.deal_no} cannot follow deal {len(ctx.deals)}: deals are numbered without gaps",
            rule="deal-number-gap",
            field="deal_no",
        )
    before = _verdict(ctx)
    if before.decided:
        raise Conflict(
            f"game {game_id} is over ({before.outcome.reason}); deal {posted.deal_no} is refused",
            rule="deal-after-game-over",
            field="deal_no",
        )
    tribute = _tribute(ctx, posted.tribute, deal_no=posted.deal_no, previous=before.trajectory)
    deal = Deal(
        game_id=game_id,
        deal_no=posted.deal_no,
        finish_order=[seat.value for seat in posted.finish_order],
        tribute=tribute,
        note=posted.note,
        posted_by=actor.ref,
        created_at=now,
        updated_at=now,
    )
    penalties = _new_penalties(ctx, posted.penalties, actor=actor, now=now, default_deal=posted.deal_no)
    ctx.deals.append(deal)
    ctx.penalties.extend(penalties)
    _verdict(ctx)  # the rules refuse a deal they cannot take (after time, after passing A)
    repository.add(session, deal, *penalties)
    verdict = settle(session, ctx, now=now)
    audit(
        session,
        ctx,
        action="deal-posted",
        actor=actor,
        now=now,
        before=_snapshot(before),
        after=_deal_audit(deal, verdict),
    )
    return DealAnswer(deal=_deal_out(deal, verdict.trajectory), game=_game_out(session, ctx, verdict))


def _deal_audit(deal: Deal, verdict: Verdict) -> dict[str, Any]:
    return {
        "deal_no": deal.deal_no,
        "finish_order": list(deal.finish_order),
        "version": deal.version,
        **_snapshot(verdict),
    }


def parse_if_match(if_match: str | None) -> int:
    """The version an edit changes, from ``If-Match: "3"`` (or W/"3", or 3)."""
    if if_match is None:
        raise InvalidInput(
            'an edit carries the version it changes: If-Match: "<version>"',
            rule="if-match-required",
            field="If-Match",
        )
    text = if_match.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise InvalidInput(
            f"If-Match {if_match!r} is not a deal version", rule="if-match-unreadable", field="If-Match"
        )
    return int(text)


def _change_deal(
    session: Session,
    ctx: LoadedGame,
    deal_no: int,
    *,
    finish_order: Sequence[Seat],
    tribute: TributeIn | None,
    note: str | None,
    now: datetime,
) -> tuple[Deal, dict[str, Any], Verdict]:
    if not 1 <= deal_no <= len(ctx.deals):
        raise NotFound(f"game {ctx.game_id} has no deal {deal_no}", rule="unknown-deal", field="deal_no")
    deal = ctx.deals[deal_no - 1]
    before_verdict = _verdict(ctx)
    before = _deal_audit(deal, before_verdict)
    deal.tribute = (
        _tribute(ctx, tribute, deal_no=deal_no, previous=before_verdict.trajectory.prefix(deal_no - 1))
        if tribute
        else deal.tribute
    )
    deal.finish_order = [seat.value for seat in finish_order]
    deal.note = deal.note if note is None else note
    _verdict(ctx)  # the rules judge the whole game again: a later deal may no longer be possible
    deal.version += 1
    deal.updated_at = now
    repository.add(session, deal)
    return deal, before, settle(session, ctx, now=now)


def edit_deal(
    session: Session,
    game_id: int,
    deal_no: int,
    edit: DealEdit,
    *,
    if_match: str | None,
    actor: Actor,
    now: datetime,
) -> DealAnswer:
    """Change a deal before the result is final; a stale If-Match is refused, never applied."""
    expected = parse_if_match(if_match)
    ctx = load_game(session, game_id, lock=True)
    _require_guandan(ctx)
    require_open(ctx, action="an edit")
    if 1 <= deal_no <= len(ctx.deals) and ctx.deals[deal_no - 1].version != expected:
        stored = ctx.deals[deal_no - 1]
        raise Conflict(
            f"deal {deal_no} is at version {stored.version}, the edit was made to version {expected}; "
            "reload and edit again",
            rule="stale-version",
            field="If-Match",
            extra={"stored_deal": _deal_out(stored, _verdict(ctx).trajectory).model_dump(mode="json")},
        )
    deal, before, verdict = _change_deal(
        session, ctx, deal_no, finish_order=edit.finish_order, tribute=edit.tribute, note=edit.note, now=now
    )
    audit(
        session,
        ctx,
        action="deal-edited",
        actor=actor,
        now=now,
        before=before,
        after=_deal_audit(deal, verdict),
    )
    return DealAnswer(deal=_deal_out(deal, verdict.trajectory), game=_game_out(session, ctx, verdict))


# --- the end of a game ----------------------------------------------------------------------


def _record(
    session: Session,
    game_id: int,
    *,
    action: str,
    actor: Actor,
    now: datetime,
    change: Callable[[LoadedGame], None],
    reason: str = "",
) -> GameOut:
    """Apply ``change`` to an open game, let the rules judge it, store, audit."""
    ctx = load_game(session, game_id, lock=True)
    require_open(ctx, action=action.replace("-", " "))
    before = _snapshot(_verdict(ctx))
    change(ctx)
    verdict = settle(session, ctx, now=now)
    audit(
        session,
        ctx,
        action=action,
        actor=actor,
        now=now,
        before=before,
        after=_snapshot(verdict),
        reason=reason,
    )
    return _game_out(session, ctx, verdict)


def time_up(session: Session, game_id: int, posted: TimeUpIn, *, actor: Actor, now: datetime) -> GameOut:
    """Time ran out; the winner follows the rule set (higher level, first to reach, declarer,
    one more deal)."""

    def change(ctx: LoadedGame) -> None:
        _require_guandan(ctx)
        if ctx.result.time_up_after is not None and not actor.referee:
            raise Conflict(
                f"time-up is already recorded after deal {ctx.result.time_up_after}; a referee may change it",
                rule="time-up-already-recorded",
            )
        ctx.result.time_up_after = (
            len(ctx.deals) if posted.deals_completed is None else posted.deals_completed
        )
        _verdict(ctx)

    return _record(session, game_id, action="time-up", actor=actor, now=now, change=change)


def final_result(
    session: Session, game_id: int, posted: FinalResultIn, *, actor: Actor, now: datetime
) -> GameOut:
    """The levels reached, for events whose rules do not require every deal."""

    def change(ctx: LoadedGame) -> None:
        _require_guandan(ctx)
        if ctx.rules.per_deal_record_required:
            raise RuleViolation(
                f"rule set {ctx.rules.name} requires every deal to be recorded ({ctx.rules.citation}); "
                "post the deals instead",
                rule="per-deal-record-required",
            )
        if ctx.deals:
            raise Conflict(
                f"game {game_id} has {len(ctx.deals)} recorded deals; its result follows from them",
                rule="deals-recorded",
            )
        verdict = _verdict(ctx, reported=posted)
        if not verdict.decided:
            raise InvalidInput(
                f"levels {posted.ns_level}:{posted.ew_level} decide nothing under {ctx.rules.name} "
                f"({verdict.outcome.reason}); report the levels after the extra deal",
                rule="final-result-undecided",
                field="ns_level",
            )
        ctx.result.reported = posted.model_dump(mode="json")

    return _record(session, game_id, action="final-result", actor=actor, now=now, change=change)


def forfeit(session: Session, game_id: int, posted: ForfeitIn, *, actor: Actor, now: datetime) -> GameOut:
    """A forfeit (late arrival, substitution, absence) with the rule set's points (15:2, 14:0)."""
    require_referee(actor, action="a forfeit")

    def change(ctx: LoadedGame) -> None:
        ctx.result.forfeit_side = posted.forfeiting.value
        ctx.result.forfeit_reason = posted.reason.value

    return _record(
        session,
        game_id,
        action="forfeit",
        actor=actor,
        now=now,
        change=change,
        reason=posted.note or posted.reason.value,
    )


def record_penalty(
    session: Session, game_id: int, posted: PenaltyIn, *, actor: Actor, now: datetime
) -> GameOut:
    """A warning, foul or missed report; the rule set's thresholds may lose the game."""
    require_referee(actor, action="a penalty")

    def change(ctx: LoadedGame) -> None:
        added = _new_penalties(ctx, [posted], actor=actor, now=now, default_deal=len(ctx.deals) or None)
        ctx.penalties.extend(added)
        repository.add(session, *added)

    return _record(
        session, game_id, action="penalty", actor=actor, now=now, change=change, reason=posted.note
    )


def record_match_game(
    session: Session, game_id: int, posted: MatchGameIn, *, actor: Actor, now: datetime
) -> GameOut:
    """One game of a chess/Go best-of-N match (seed 004 §三.1); the match ends when decided."""

    def change(ctx: LoadedGame) -> None:
        if ctx.rules.discipline not in (Discipline.XIANGQI, Discipline.GO):
            raise RuleViolation(
                f"game {game_id} is {ctx.rules.discipline.value}: it has no match games",
                rule="not-a-match-game",
            )
        games = list((ctx.result.reported or {}).get("games", []))
        if posted.game_no != len(games) + 1:
            raise Conflict(
                f"game {posted.game_no} cannot follow game {len(games)} of the match",
                rule="match-game-number",
                field="game_no",
            )
        match_verdict([*games, posted.result], ctx.rules)
        ctx.result.reported = {"games": [*games, posted.result]}

    return _record(session, game_id, action="match-game", actor=actor, now=now, change=change)


def confirm(
    session: Session, game_id: int, posted: ConfirmationIn, *, actor: Actor, now: datetime
) -> GameOut | TableGameOut:
    """One side confirms the ended game; once both have, the result is final (seed 000 §九.4)."""
    ctx = load_game(session, game_id, lock=True)
    if ctx.result.state == GameState.IN_PLAY.value or not ctx.result.outcome:
        raise Conflict(
            f"game {game_id} is still in play; a side confirms the result once it has ended",
            rule="game-not-ended",
        )
    result = ctx.result
    if ctx.rules.discipline is Discipline.GONGZHU:
        gongzhu.require_no_tie_at_cut(game_id, result)
    if posted.side is Side.NS:
        result.confirmed_a_at = result.confirmed_a_at or now
    else:
        result.confirmed_b_at = result.confirmed_b_at or now
    became_final = bool(result.confirmed_a_at and result.confirmed_b_at and result.final_at is None)
    if became_final:
        result.final_at = now
    verdict = settle(session, ctx, now=now, clear_confirmations=False)
    if became_final:
        _announce_final(session, ctx, verdict, now=now)
    audit(
        session,
        ctx,
        action="confirmation",
        actor=actor,
        now=now,
        before=None,
        after={"side": posted.side.value, "final": result.final_at is not None},
    )
    return _view(session, ctx, verdict)


# --- announcements (webhooks, queued in the same transaction) ----------------------------------


def _announce_final(session: Session, ctx: LoadedGame, verdict: Verdict, *, now: datetime) -> None:
    """A result became final, or a final one was corrected: its figures, then the standings."""
    webhooks_service.emit(
        session,
        event_id=ctx.game.event_id,
        kind=WebhookKind.result_final,
        payload={
            "game_id": ctx.game_id,
            "round_id": ctx.game.round_id,
            "match_id": ctx.game.match_id,
            "table_no": ctx.game.table_no,
            "winner": ctx.result.winner_side,
            "reason": ctx.result.end_reason,
            "points": ctx.result.outcome.get("points", {}),
            "version": ctx.result.version,
        },
        now=now,
    )
    _announce_standings(session, ctx, now=now)


def _announce_standings(session: Session, ctx: LoadedGame, *, now: datetime) -> None:
    webhooks_service.emit(
        session,
        event_id=ctx.game.event_id,
        kind=WebhookKind.standings_changed,
        payload={"results_version": repository.results_version(session, ctx.game.event_id)},
        now=now,
    )


# --- corrections ----------------------------------------------------------------------------


Window = Literal["before_confirmation", "entry_error", "published_results"]


def correction_window(session: Session, ctx: LoadedGame, *, now: datetime) -> tuple[Window, datetime | None]:
    """Which window of seed 000 §十 admits a correction now; WindowClosed outside them all."""
    if ctx.result.final_at is None:
        return "before_confirmation", None
    config = events_service.event_config(ctx.event)
    round_ = repository.round_(session, ctx.game.round_id)
    assert round_ is not None
    round_end = round_.finished_at or round_.ends_at
    if round_end is not None:
        entry_closes = round_end + timedelta(minutes=config.entry_error_minutes)
        if now <= entry_closes:
            return "entry_error", entry_closes
    ends = [r.finished_at or r.ends_at for r in repository.stage_rounds(session, round_)]
    if any(end is None for end in ends):
        return "published_results", None  # the stage is not over: its window has not started to run
    stage_closes = max(end for end in ends if end is not None) + timedelta(
        minutes=config.published_results_minutes
    )
    if now <= stage_closes:
        return "published_results", stage_closes
    raise WindowClosed(
        f"corrections to game {ctx.game_id} closed at {stage_closes.isoformat()} "
        f"({config.entry_error_minutes} min after the round for entry errors, {config.published_results_minutes} "
        "min after the stage for published results, seed 000 §十.2–4); it is not corrected",
        rule="correction-window-closed",
    )


def correct(
    session: Session, game_id: int, posted: CorrectionIn, *, actor: Actor, now: datetime
) -> CorrectionOut:
    """A referee's correction with its reason: inside the window, audited; the answer names the
    standings that move and the later rounds already published, which stay as they are."""
    require_referee(actor, action="a correction")
    if (posted.finish_order is None or posted.deal_no is None) == (posted.final_result is None):
        raise InvalidInput(
            "a correction changes either one deal (deal_no and finish_order) or the final result",
            rule="correction-shape",
            field="deal_no",
        )
    ctx = load_game(session, game_id, lock=True)
    window, closes = correction_window(session, ctx, now=now)
    round_ = repository.round_(session, ctx.game.round_id)
    assert round_ is not None
    before_table = _compute(session, ctx.event, stage=round_.stage, provisional=False)
    before = _snapshot(_verdict(ctx))
    if posted.final_result is not None:
        if not ctx.result.reported:
            raise Conflict(
                f"game {game_id} was scored deal by deal; correct a deal",
                rule="correction-shape",
                field="final_result",
            )
        ctx.result.reported = posted.final_result.model_dump(mode="json")
        if not _verdict(ctx).decided:
            raise InvalidInput(
                "the corrected levels decide nothing", rule="final-result-undecided", field="final_result"
            )
        verdict = settle(session, ctx, now=now, clear_confirmations=False)
    else:
        assert posted.deal_no is not None
        assert posted.finish_order is not None
        _, _, verdict = _change_deal(
            session, ctx, posted.deal_no, finish_order=posted.finish_order, tribute=None, note=None, now=now
        )
    audit(
        session,
        ctx,
        action="correction",
        actor=actor,
        now=now,
        before=before,
        after=_snapshot(verdict),
        reason=posted.reason,
    )
    if ctx.result.final_at is not None:
        _announce_final(session, ctx, verdict, now=now)
    else:
        _announce_standings(session, ctx, now=now)
    after_table = _compute(session, ctx.event, stage=round_.stage, provisional=False)
    return CorrectionOut(
        game=_game_out(session, ctx, verdict),
        window=window,
        window_closes_at=closes,
        standings_moves=_moves(before_table, after_table),
        published_later_rounds=repository.later_published_rounds(session, round_),
    )


def _moves(before: StandingsOut, after: StandingsOut) -> list[StandingsMove]:
    def index(table: StandingsOut) -> dict[int, tuple[str | None, StandingOut]]:
        return {row.entry_id: (group.group, row) for group in table.groups for row in group.rows}

    old, new = index(before), index(after)
    moves = []
    for entry_id in sorted(set(old) | set(new)):
        was, now_ = old.get(entry_id), new.get(entry_id)
        if was and now_ and (was[1].rank, was[1].points) == (now_[1].rank, now_[1].points):
            continue
        row = now_ or was
        assert row is not None
        moves.append(
            StandingsMove(
                entry_id=entry_id,
                entry_name=row[1].entry_name,
                group=row[0],
                rank_before=was[1].rank if was else None,
                rank_after=now_[1].rank if now_ else None,
                points_before=was[1].points if was else None,
                points_after=now_[1].points if now_ else None,
            )
        )
    return moves


def audit_trail(session: Session, game_id: int, *, actor: Actor, page: Page) -> Paged[AuditOut]:
    require_referee(actor, action="reading the audit trail")
    _game(session, game_id)
    return repository.audit_of(session, game_id, page=page).map(
        lambda row: AuditOut(
            id=row.id or 0,
            action=row.action,
            actor=row.actor,
            reason=row.reason,
            before=row.before,
            after=row.after,
            created_at=row.created_at,
        )
    )


# --- standings and awards -------------------------------------------------------------------


def _event_results(session: Session, event: Event, *, stage: str | None, rules: RuleSet) -> EventResults:
    assert event.id is not None
    entries = {entry.entry_id: entry for entry in events_service.confirmed_entries(session, event.id)}
    sides = repository.stage_match_sides(session, event.id, stage) if stage else []
    groups: dict[int, str | None] = {}
    by_match: dict[int, dict[Side, int]] = {}
    brackets: dict[int, str] = {}
    byes: list[tuple[int, int, str | None]] = []
    for side in sides:
        groups.setdefault(side.entry_id, side.group)
        brackets[side.match_id] = side.bracket
        label = Side(side.side) if side.side else (Side.NS if side.position == 1 else Side.EW)
        by_match.setdefault(side.match_id, {})[label] = side.entry_id
        if side.is_bye:
            byes.append((side.round_no, side.entry_id, side.group))
    ranked = groups or dict.fromkeys(entries)
    pure_entries = tuple(
        Entry(
            entry_id=str(entry_id),
            display_name=entries[entry_id].name,
            branch=entries[entry_id].branch_name or "",
            group=group,
        )
        for entry_id, group in ranked.items()
        if entry_id in entries
    )
    games: list[GameResult] = []
    guandan = rules.discipline is Discipline.GUANDAN
    # a Gongzhu table seats four: it is a table result, not a game between two sides
    tabled = rules.discipline is Discipline.GONGZHU
    for row in repository.stage_games(session, event.id, stage) if stage and not tabled else []:
        pair = by_match.get(row.match_id, {})
        if row.state is None or Side.NS not in pair or Side.EW not in pair:
            continue
        games.append(
            GameResult(
                round_no=row.round_no,
                side_one=str(pair[Side.NS]),
                side_two=str(pair[Side.EW]),
                points_one=row.points_ns,
                points_two=row.points_ew,
                level_one=row.level_ns if guandan else None,
                level_two=row.level_ew if guandan else None,
                winner=str(pair[Side(row.winner_side)]) if row.winner_side else None,
                final=row.state == GameState.FINAL.value,
                forfeit=row.forfeit_side is not None,
                pair_no=row.game_no,
                bracket=brackets[row.match_id],
            )
        )
    # a bye scores as a won forfeit (the entry advances / is not punished for the odd count)
    games.extend(
        GameResult(
            round_no=round_no,
            side_one=str(entry_id),
            side_two=None,
            points_one=rules.forfeit_winner_points,
            winner=str(entry_id),
        )
        for round_no, entry_id, _group in byes
    )
    config = events_service.event_config(event)
    bonus = (
        {
            str(entry_id): deans * config.dean_bonus_per_member
            for entry_id, deans in _deans_playing(session, ranked, {side.round_no for side in sides}).items()
        }
        if config.dean_bonus_per_member
        else {}
    )
    tables = (
        gongzhu.table_results(
            repository.stage_tables(session, event.id, stage),
            bye_rounds={round_no for round_no, _, _ in byes},
        )
        if stage and tabled
        else ()
    )
    return EventResults(
        entries=pure_entries,
        games=tuple(games),
        tables=tables,
        bonus_counts=bonus,
        lots=_drawn_lots(session, event.id, [entry.entry_id for entry in pure_entries]),
    )


def _drawn_lots(session: Session, event_id: int, entry_ids: list[str]) -> dict[str, int]:
    """The tie lots, from the main draw's revealed seed; none while the draw is physical or unmade
    (the ranking then shares the place and says the lot is not yet drawn)."""
    try:
        seed = schedule_service.get_draw(session, event_id).seed
    except NotFound:
        return {}
    return draw.lot_numbers(entry_ids, seed) if seed else {}


def _deans_playing(
    session: Session, entry_ids: Iterable[int], round_numbers: Iterable[int]
) -> dict[int, int]:
    """Distinct deans and party secretaries each team fielded in its lineups (seed 000 §七:
    参赛队若有正职院长或书记参赛); the cap is the standings'."""
    counts = {}
    for entry_id in entry_ids:
        lineups = [
            events_service.lineup_for(session, entry_id=entry_id, round_number=number)
            for number in sorted(round_numbers)
        ]
        deans = frozenset().union(*(lineup.deans for lineup in lineups if lineup is not None))
        if deans:
            counts[entry_id] = len(deans)
    return counts


def _tiers(config: EventConfig) -> tuple[PrizeTier, ...]:
    return tuple(
        PrizeTier(name=tier.name, round_no=tier.round, outcome=tier.result, bracket=tier.bracket)
        for tier in config.awards.tiers
    )


def _standings_tables(
    session: Session, event: Event, *, stage: str | None, provisional: bool
) -> tuple[EventResults, tuple[GroupStandings, ...]]:
    rules = events_service.event_rules(event)
    config = events_service.event_config(event)
    results = _event_results(session, event, stage=stage, rules=rules)
    tables = compute_standings(
        results,
        scheme=rules.standings.value,
        chain=[criterion.value for criterion in rules.tie_breaks],
        provisional=provisional,
        bonus_cap=config.dean_bonus_cap,
        tiers=_tiers(config),
        match_points=(rules.match_win_points, rules.match_draw_points, rules.match_loss_points),
    )
    return results, tables


def _compute(session: Session, event: Event, *, stage: str | None, provisional: bool) -> StandingsOut:
    assert event.id is not None
    _, tables = _standings_tables(session, event, stage=stage, provisional=provisional)
    return StandingsOut(
        event_id=event.id,
        stage=stage,
        results_version=event.results_version,
        provisional=provisional,
        groups=[
            GroupStandingsOut(
                group=table.group,
                scheme=table.scheme,
                chain=list(table.chain),
                rows=[
                    StandingOut(
                        rank=row.rank,
                        entry_id=int(row.entry.entry_id),
                        entry_name=row.entry.display_name,
                        branch=row.entry.branch,
                        points=row.points,
                        bonus=row.bonus,
                        wins=row.wins,
                        draws=row.draws,
                        losses=row.losses,
                        games=row.games,
                        provisional_games=row.provisional_games,
                        figures=dict(row.figures),
                        tie=None
                        if row.tie is None
                        else TieOut(
                            tied_on=row.tie.tied_on,
                            tied_value=row.tie.tied_value,
                            tied_with=len(row.tie.tied_group),
                            separated_by=row.tie.separated_by,
                            text=row.tie.text,
                        ),
                    )
                    for row in table.rows
                ],
            )
            for table in tables
        ],
    )


@dataclass(frozen=True, slots=True)
class _Cached:
    body: StandingsOut
    json: bytes


class _StandingsCache:
    """Computed standings keyed by the results version, with their JSON: an unchanged poll costs
    neither a recompute nor a serialization."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[tuple[object, ...], _Cached] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: tuple[object, ...]) -> _Cached | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[object, ...], value: _Cached) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_cache = _StandingsCache()


@dataclass(frozen=True, slots=True)
class StandingsAnswer:
    etag: str
    body: StandingsOut | None
    """None when the client's If-None-Match already names this version."""
    json: bytes | None
    """``body`` serialized once per version, for the HTTP answer."""


def standings_etag(event_id: int, version: int, *, provisional: bool, stage: str | None) -> str:
    # A header carries ASCII only: a stage named in Chinese (决赛) is percent-encoded.
    return f'"standings-{event_id}-v{version}-{"p" if provisional else "f"}-{quote(stage or "", safe="")}"'


def standings(
    session: Session,
    event_id: int,
    *,
    provisional: bool,
    stage: str | None = None,
    if_none_match: str | None = None,
) -> StandingsAnswer:
    """The event's standings (per group), cached per results version; None body on a match."""
    version = repository.results_version(session, event_id)
    if version is None:
        raise NotFound(f"no event {event_id}", rule="unknown-event", field="event_id")
    chosen = stage or repository.latest_stage(session, event_id)
    etag = standings_etag(event_id, version, provisional=provisional, stage=chosen)
    if if_none_match is not None and etag in [tag.strip() for tag in if_none_match.split(",")]:
        return StandingsAnswer(etag=etag, body=None, json=None)
    key = (str(session.get_bind().engine.url), event_id, version, provisional, chosen)
    cached = _cache.get(key)
    if cached is None:
        body = _compute(session, _event(session, event_id), stage=chosen, provisional=provisional)
        cached = _Cached(body=body, json=body.model_dump_json().encode())
        _cache.put(key, cached)
    return StandingsAnswer(etag=etag, body=cached.body, json=cached.json)


def stage_ranking(
    session: Session, event_id: int, *, stage: str, provisional: bool
) -> dict[str, list[tuple[int, int]]]:
    """Each group's (entry id, rank) in standing order: what the schedule draws a next stage from."""
    _, tables = _standings_tables(session, _event(session, event_id), stage=stage, provisional=provisional)
    return {
        table.group or "": [(int(row.entry.entry_id), row.rank) for row in table.rows] for table in tables
    }


def event_awards(session: Session, event_id: int) -> AwardsOut:
    """Awards as the event says: the top N of each table, or knockout prize tiers (final results only)."""
    event = _event(session, event_id)
    config = events_service.event_config(event)
    stage = repository.latest_stage(session, event_id)
    results, tables = _standings_tables(session, event, stage=stage, provisional=False)
    if config.awards.tiers:
        found = pure_awards.tier_awards(results, _tiers(config))
    elif config.awards.top_n is not None:
        found = tuple(
            award
            for table in tables
            for award in pure_awards.top_n_awards(
                table, n=config.awards.top_n, prize=f"top {config.awards.top_n}"
            )
        )
    else:
        found = ()
    assert event.id is not None
    return AwardsOut(
        event_id=event.id,
        results_version=event.results_version,
        final=event.state == EventState.FINISHED.value,
        awards=[
            AwardOut(
                prize=award.prize,
                entry_id=int(award.entry.entry_id),
                entry_name=award.entry.display_name,
                branch=award.entry.branch,
                group=award.group,
                rank=award.rank,
            )
            for award in found
        ],
    )
