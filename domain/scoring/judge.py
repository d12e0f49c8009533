"""A game's verdict from what was recorded: deals, penalties, time-up, forfeit, reported levels.

Pure: every judgement is the rules' (``domain.rules``); this module only puts the records in the
shape the rules read and decides which record speaks first (forfeit, then a penalty loss, then play).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import InvalidInput
from domain.rules import timeup
from domain.rules.levels import SIDE_OF, DealRecord, DealResult, Seat, Side, SideState, Trajectory, replay
from domain.rules.matchplay import MatchResult, MatchStatus, match_result
from domain.rules.ruleset import ACE, RuleSet
from domain.rules.timeup import GameOutcome, GameStatus
from domain.scoring.models import FinalResultIn, PenaltyKind

FIRST_NAMED, SECOND_NAMED = "first", "second"


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    seat: Seat
    kind: PenaltyKind
    deal_no: int | None


@dataclass(frozen=True, slots=True)
class Verdict:
    trajectory: Trajectory
    outcome: GameOutcome
    match: MatchResult | None = None

    @property
    def decided(self) -> bool:
        return self.outcome.status not in (GameStatus.IN_PROGRESS, GameStatus.EXTRA_DEAL_REQUIRED)


def with_penalties(
    deals: Sequence[DealResult], penalties: Sequence[PenaltyRecord], rules: RuleSet
) -> list[DealResult]:
    """The deals with the level cost of missed card reports (seed 002 §二.4 扣一级) applied after
    the deal they belong to."""
    cost = rules.missed_report_level_penalty
    adjusted = list(deals)
    if cost == 0:
        return adjusted
    for penalty in penalties:
        if penalty.kind is PenaltyKind.MISSED_REPORT and penalty.deal_no and penalty.deal_no <= len(adjusted):
            index = penalty.deal_no - 1
            deal = adjusted[index]
            side = SIDE_OF[penalty.seat].value
            changes = dict(deal.level_adjustments)
            changes[side] = changes.get(side, 0) - cost
            adjusted[index] = DealResult(deal.finish_order, changes)
    return adjusted


def penalty_loser(penalties: Sequence[PenaltyRecord], rules: RuleSet) -> tuple[Side, str] | None:
    """The side that lost by penalties and the rule's slug; counted per side, since the seeds
    punish the pair (seed 002 §二.6 判该队负, seed 003 §八.5(3) 本轮比赛判负)."""
    counts: dict[Side, Counter[PenaltyKind]] = {Side.NS: Counter(), Side.EW: Counter()}
    for penalty in penalties:
        counts[SIDE_OF[penalty.seat]][penalty.kind] += 1
    for side, seen in counts.items():
        slug = timeup.penalty_loss_due(
            rules,
            warnings=seen[PenaltyKind.WARNING],
            fouls=seen[PenaltyKind.FOUL],
            missed_reports=seen[PenaltyKind.MISSED_REPORT],
        )
        if slug is not None:
            return side, slug
    return None


def judge(
    deals: Sequence[DealResult],
    rules: RuleSet,
    *,
    penalties: Sequence[PenaltyRecord] = (),
    time_up_after: int | None = None,
    forfeit_side: Side | None = None,
    reported: FinalResultIn | None = None,
) -> Verdict:
    """The game as the rules see it; a forfeit outranks a penalty loss, which outranks play."""
    trajectory = (
        reported_trajectory(reported)
        if reported is not None
        else replay(with_penalties(deals, penalties, rules), rules)
    )
    if forfeit_side is not None:
        return Verdict(trajectory, timeup.forfeit_outcome(rules, forfeiting=forfeit_side))
    lost = penalty_loser(penalties, rules)
    if lost is not None:
        return Verdict(trajectory, timeup.penalty_loss_outcome(rules, losing=lost[0]))
    if reported is not None:
        return Verdict(trajectory, timeup.game_outcome(trajectory, rules, time_up_after=1))
    return Verdict(trajectory, timeup.game_outcome(trajectory, rules, time_up_after=time_up_after))


def reported_trajectory(reported: FinalResultIn) -> Trajectory:
    """A game summed up by its final levels, as one record the time-up rules can read."""
    for side, level in ((Side.NS, reported.ns_level), (Side.EW, reported.ew_level)):
        if reported.passed_a is side and level != ACE:
            raise InvalidInput(
                f"{side} is reported to have passed A but stands at level {level}; passing A needs A (14)",
                rule="passed-a-needs-a",
                field="passed_a",
            )

    def state(side: Side, level: int) -> SideState:
        # the side that reached an equal level first holds it from an earlier deal (seed 002 §二.5)
        reached = 0 if reported.reached_first in (side, None) else 1
        return SideState(level=level, reached_at=reached, passed_a=reported.passed_a is side)

    ns, ew = state(Side.NS, reported.ns_level), state(Side.EW, reported.ew_level)
    record = DealRecord(
        number=1,
        finish_order=(Seat.N, Seat.E, Seat.S, Seat.W),
        declarer=None,
        level_played=reported.ns_level if reported.on_stage is Side.NS else reported.ew_level,
        winner=reported.on_stage,
        promotion=0,
        failed_a=False,
        ns=ns,
        ew=ew,
    )
    return Trajectory(deals=(record,), ns=ns, ew=ew, declarer=reported.on_stage, passed_a=reported.passed_a)


def match_verdict(games: Sequence[str], rules: RuleSet) -> Verdict:
    """A chess/Go best-of-N match (seed 004 §三.1 三局两胜制); N–S stands for the first-named player."""
    result = match_result(games, rules, first=FIRST_NAMED, second=SECOND_NAMED)
    winner = {FIRST_NAMED: Side.NS, SECOND_NAMED: Side.EW}.get(result.winner or "")
    # sub-score in half points: a drawn game is worth 1 to each, a won one 2 (matchplay's ½)
    points = {
        Side.NS: int(2 * result.game_points[FIRST_NAMED]),
        Side.EW: int(2 * result.game_points[SECOND_NAMED]),
    }
    status = {
        MatchStatus.IN_PROGRESS: GameStatus.IN_PROGRESS,
        MatchStatus.WON: GameStatus.WON,
        MatchStatus.DRAWN: GameStatus.DRAWN,
    }[result.status]
    reason = "in-progress" if status is GameStatus.IN_PROGRESS else "match-decided"
    empty = Trajectory(deals=(), ns=SideState(), ew=SideState(), declarer=None, passed_a=None)
    return Verdict(empty, GameOutcome(status, winner, reason, points), match=result)
