"""The end of a Guandan game: passing A, the clock, forfeits and penalty losses, and its points."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.errors import Conflict, InvalidInput
from domain.rules.levels import OPPONENT, Side, Trajectory
from domain.rules.ruleset import AtTime, RuleSet, TieAtTime


class GameStatus(StrEnum):
    IN_PROGRESS = "in_progress"
    WON = "won"
    DRAWN = "drawn"
    POINTS_ONLY = "points_only"
    """Ended at time without a winner: each side simply scores its level (seed 000 §九.2)."""
    EXTRA_DEAL_REQUIRED = "extra_deal_required"


@dataclass(frozen=True, slots=True)
class GameOutcome:
    status: GameStatus
    winner: Side | None
    reason: str
    """Stable slug: passed-a, higher-level, first-to-reach, declarer, extra-deal, equal-levels,
    forfeit, penalty-loss, in-progress."""
    points: dict[Side, int]


def side_points(trajectory: Trajectory, rules: RuleSet) -> dict[Side, int]:
    """Each side's points by the level table; passing A scores its own figure (seed 000 §九.2)."""
    return {
        side: rules.passed_a_points if state.passed_a else rules.level_points[state.level]
        for side, state in ((Side.NS, trajectory.ns), (Side.EW, trajectory.ew))
    }


def game_outcome(trajectory: Trajectory, rules: RuleSet, *, time_up_after: int | None = None) -> GameOutcome:
    """Where the game stands; ``time_up_after`` is the number of deals completed when time ran out.

    A deal recorded after that is only allowed as the single extra deal of ``extra_deal`` ties.
    """
    points = side_points(trajectory, rules)
    if time_up_after is not None:
        _check_deals_after_time(trajectory, rules, time_up_after=time_up_after)
    if trajectory.passed_a is not None:
        return GameOutcome(GameStatus.WON, trajectory.passed_a, "passed-a", points)
    if time_up_after is None:
        return GameOutcome(GameStatus.IN_PROGRESS, None, "in-progress", points)
    at_time = trajectory.prefix(time_up_after)
    ns, ew = at_time.ns, at_time.ew
    if ns.level != ew.level:
        return GameOutcome(
            GameStatus.WON, Side.NS if ns.level > ew.level else Side.EW, "higher-level", points
        )
    tie = rules.tie_at_time
    if tie is TieAtTime.POINTS_ONLY:
        return GameOutcome(GameStatus.POINTS_ONLY, None, "equal-levels", points)
    if tie is TieAtTime.FIRST_TO_REACH and ns.reached_at != ew.reached_at:
        # seed 002 §二.5: 同时打8，则先打8的队伍获胜
        first = Side.NS if ns.reached_at < ew.reached_at else Side.EW
        return GameOutcome(GameStatus.WON, first, "first-to-reach", points)
    if tie is TieAtTime.DECLARER and at_time.declarer is not None:
        # seed 003 §六: 若级数相同，在台上的一方获胜
        return GameOutcome(GameStatus.WON, at_time.declarer, "declarer", points)
    if tie is TieAtTime.EXTRA_DEAL:
        # seed 004 §2: 同级加赛一次，先升级的为获胜方
        if len(trajectory.deals) > time_up_after:
            return GameOutcome(GameStatus.WON, trajectory.deals[time_up_after].winner, "extra-deal", points)
        return GameOutcome(GameStatus.EXTRA_DEAL_REQUIRED, None, "equal-levels", points)
    return GameOutcome(GameStatus.DRAWN, None, "equal-levels", points)


def _check_deals_after_time(trajectory: Trajectory, rules: RuleSet, *, time_up_after: int) -> None:
    played = len(trajectory.deals)
    if not 0 <= time_up_after <= played:
        raise InvalidInput(
            f"time ran out after deal {time_up_after}, but the game has {played} deals",
            rule="time-up-deal-count",
            field="time_up_after",
        )
    extra = played - time_up_after
    if extra == 0:
        return
    at_time = trajectory.prefix(time_up_after)
    extra_allowed = (
        rules.tie_at_time is TieAtTime.EXTRA_DEAL
        and at_time.passed_a is None
        and at_time.ns.level == at_time.ew.level
    )
    if not extra_allowed or extra > 1:
        raise Conflict(
            f"{extra} deal(s) recorded after time ran out at deal {time_up_after} "
            f"(levels {at_time.ns.level}:{at_time.ew.level}); only one extra deal at equal levels "
            "is allowed, and only where the rules play one",
            rule="deal-after-time",
            field=f"deals[{time_up_after + (1 if extra_allowed else 0)}]",
        )


def forfeit_outcome(rules: RuleSet, *, forfeiting: Side) -> GameOutcome:
    """The opponent of ``forfeiting`` wins with the forfeit points (seed 000 §九.3, seed 001 补充说明 9)."""
    return _award(rules, loser=forfeiting, reason="forfeit")


def penalty_loss_outcome(rules: RuleSet, *, losing: Side) -> GameOutcome:
    """A game lost by penalty (判负) scores as a forfeit: seed 000 §九.3 calls a forfeit 直接判负."""
    return _award(rules, loser=losing, reason="penalty-loss")


def _award(rules: RuleSet, *, loser: Side, reason: str) -> GameOutcome:
    winner = OPPONENT[loser]
    points = {winner: rules.forfeit_winner_points, loser: rules.forfeit_loser_points}
    return GameOutcome(GameStatus.WON, winner, reason, points)


def penalty_loss_due(
    rules: RuleSet, *, warnings: int = 0, fouls: int = 0, missed_reports: int = 0
) -> str | None:
    """The rule slug under which a side with these penalties has lost the game, or None."""
    # seed 003 §八.3: a missed or false card report is a foul
    counted_fouls = fouls + (missed_reports if rules.missed_report_counts_as_foul else 0)
    checks = (
        ("warnings-to-lose", warnings, rules.warnings_to_lose),
        ("fouls-to-lose", counted_fouls, rules.fouls_to_lose),
        ("missed-reports-to-lose", missed_reports, rules.missed_reports_to_lose),
    )
    return next((slug for slug, count, limit in checks if limit is not None and count >= limit), None)


def deal_may_start(rules: RuleSet, *, minutes_left: float) -> bool:
    """Whether a new deal may still begin (seed 000 §九.1: none in the last 5 minutes)."""
    return minutes_left > 0 and minutes_left > rules.no_new_deal_minutes


def deal_in_hand_counts(rules: RuleSet) -> bool:
    """Whether the deal in hand when time runs out is played on and counted."""
    return rules.at_time is AtTime.FINISH_DEAL
