"""Scoring a Gongzhu table (seed 004 拱猪比赛规则) hand by hand: post, edit, and the referee's order
of a tie at the advancing cut.

A table game is loaded, locked, settled, audited and confirmed by the scoring service like any
game; this module is what differs: hands instead of deals.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from domain.errors import Conflict, NotFound, RuleViolation
from domain.rules.ruleset import Discipline
from domain.scoring import gongzhu, repository
from domain.scoring import service as scoring_service
from domain.scoring.models import HandEdit, HandIn, TableGameOut, TableOrderIn
from storage.tables import GongzhuHand


def _open_table(session: Session, game_id: int, *, action: str) -> scoring_service.LoadedGame:
    ctx = scoring_service.load_game(session, game_id, lock=True)
    if ctx.rules.discipline is not Discipline.GONGZHU:
        raise RuleViolation(
            f"game {game_id} is {ctx.rules.discipline.value}, not Gongzhu: it has no hands",
            rule="not-a-gongzhu-game",
        )
    scoring_service.require_open(ctx, action=action)
    return ctx


def _view(ctx: scoring_service.LoadedGame) -> TableGameOut:
    return gongzhu.table_out(ctx.game, ctx.result, ctx.hands, ctx.rules)


def _stored_hand(ctx: scoring_service.LoadedGame, hand_no: int) -> dict[str, object]:
    table = gongzhu.standing(ctx.hands, ctx.rules, referee_order=None)
    hand = ctx.hands[hand_no - 1]
    return gongzhu.hand_out(hand, table.totals_after[hand_no - 1]).model_dump(mode="json")


def _snapshot(ctx: scoring_service.LoadedGame) -> dict[str, object]:
    return dict(ctx.result.outcome)


def post_hand(
    session: Session, game_id: int, posted: HandIn, *, actor: scoring_service.Actor, now: datetime
) -> TableGameOut:
    """Record the next hand, scored by the rules; the same hand again answers the stored one (a
    retry without an Idempotency-Key), different content for a stored number is a Conflict."""
    ctx = _open_table(session, game_id, action="a new hand")
    captured = gongzhu.piles(posted.captured)
    if posted.hand_no <= len(ctx.hands):
        stored = ctx.hands[posted.hand_no - 1]
        if stored.captured == captured and stored.exposed == posted.exposed:
            return _view(ctx)
        raise Conflict(
            f"hand {posted.hand_no} of game {game_id} is already recorded differently; edit it with "
            f"PUT and If-Match: {stored.version}",
            rule="hand-already-recorded",
            field="hand_no",
            extra={"stored_hand": _stored_hand(ctx, posted.hand_no)},
        )
    if posted.hand_no != len(ctx.hands) + 1:
        raise Conflict(
            f"hand {posted.hand_no} cannot follow hand {len(ctx.hands)}: hands are numbered without gaps",
            rule="hand-number-gap",
            field="hand_no",
        )
    before = gongzhu.standing(ctx.hands, ctx.rules, referee_order=None)
    if before.over:
        raise Conflict(
            f"game {game_id} is over: a total reached ±{ctx.rules.gongzhu_target} after hand "
            f"{len(ctx.hands)} (拱猪 §7); hand {posted.hand_no} is refused",
            rule="hand-after-game-over",
            field="hand_no",
        )
    hand = GongzhuHand(
        game_id=game_id,
        hand_no=posted.hand_no,
        captured=captured,
        exposed=list(posted.exposed),
        scores=gongzhu.score(posted.captured, posted.exposed),
        posted_by=actor.ref,
        created_at=now,
    )
    before_outcome = _snapshot(ctx)
    ctx.hands.append(hand)
    repository.add(session, hand)
    scoring_service.settle(session, ctx, now=now)
    scoring_service.audit(
        session,
        ctx,
        action="hand-posted",
        actor=actor,
        now=now,
        before=before_outcome,
        after={"hand_no": hand.hand_no, "scores": hand.scores, **ctx.result.outcome},
    )
    return _view(ctx)


def edit_hand(
    session: Session,
    game_id: int,
    hand_no: int,
    edit: HandEdit,
    *,
    if_match: str | None,
    actor: scoring_service.Actor,
    now: datetime,
) -> TableGameOut:
    """Change a hand before the result is final; a stale If-Match is refused, never applied. The
    totals change, so a referee's order of a tie is dropped and both sides confirm again."""
    expected = scoring_service.parse_if_match(if_match)
    ctx = _open_table(session, game_id, action="an edit")
    if not 1 <= hand_no <= len(ctx.hands):
        raise NotFound(f"game {game_id} has no hand {hand_no}", rule="unknown-hand", field="hand_no")
    hand = ctx.hands[hand_no - 1]
    if hand.version != expected:
        raise Conflict(
            f"hand {hand_no} is at version {hand.version}, the edit was made to version {expected}; "
            "reload and edit again",
            rule="stale-version",
            field="If-Match",
            extra={"stored_hand": _stored_hand(ctx, hand_no)},
        )
    scores = gongzhu.score(edit.captured, edit.exposed)
    before_outcome = _snapshot(ctx)
    before = _stored_hand(ctx, hand_no)
    hand.captured, hand.exposed, hand.scores = gongzhu.piles(edit.captured), list(edit.exposed), scores
    # the rules judge every hand again: an earlier end refuses the hands after it
    gongzhu.standing(ctx.hands, ctx.rules, referee_order=None)
    hand.version += 1
    ctx.result.reported = None
    repository.add(session, hand)
    scoring_service.settle(session, ctx, now=now)
    scoring_service.audit(
        session,
        ctx,
        action="hand-edited",
        actor=actor,
        now=now,
        before={"hand": before, **before_outcome},
        after={"hand": _stored_hand(ctx, hand_no), **ctx.result.outcome},
    )
    return _view(ctx)


def order_table(
    session: Session, game_id: int, posted: TableOrderIn, *, actor: scoring_service.Actor, now: datetime
) -> TableGameOut:
    """A referee orders players level on the total (seed 004 四.1 服从裁判的判罚); the order decides
    who advances and, at the final table, the places."""
    scoring_service.require_referee(actor, action="ordering a tie")
    ctx = _open_table(session, game_id, action="ordering the table")
    ranking = [seat.value for seat in posted.ranking]
    gongzhu.standing(ctx.hands, ctx.rules, referee_order=ranking)  # the rules check the order
    before = _snapshot(ctx)
    ctx.result.reported = {"ranking": ranking, "reason": posted.reason}
    scoring_service.settle(session, ctx, now=now)
    scoring_service.audit(
        session,
        ctx,
        action="table-ordered",
        actor=actor,
        now=now,
        before=before,
        after=dict(ctx.result.outcome),
        reason=posted.reason,
    )
    return _view(ctx)
