"""Chess and Go matches: games won, drawn or lost, a match best of N (seed 004 三局两胜制).

A drawn game gives each player ½. A match stops once its leader is ahead by more than the
games left (two wins out of three end it after two games); otherwise all N are played and a
level score is a drawn match. Match points (win/draw/loss) come from the rule set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.errors import Conflict, InvalidInput
from domain.rules.ruleset import RuleSet


class GameResult(StrEnum):
    """One game from the first-named player's view."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


_SPELLINGS: dict[str, GameResult] = {
    **{result.value: result for result in GameResult},
    "1-0": GameResult.WIN,
    "0-1": GameResult.LOSS,
    "½-½": GameResult.DRAW,
    "1/2-1/2": GameResult.DRAW,
    "0.5-0.5": GameResult.DRAW,
}
# Half points, so that a draw stays an integer.
_HALVES = {GameResult.WIN: (2, 0), GameResult.DRAW: (1, 1), GameResult.LOSS: (0, 2)}


class MatchStatus(StrEnum):
    IN_PROGRESS = "in_progress"
    WON = "won"
    DRAWN = "drawn"


@dataclass(frozen=True, slots=True)
class MatchResult:
    status: MatchStatus
    winner: str | None
    games_played: int
    game_points: dict[str, float]
    """Each player's games won plus ½ per draw: the match's sub-score."""
    match_points: dict[str, int] | None
    """Win/draw/loss points once the match is over; None while it is being played."""


def parse_game_result(text: str, *, field_name: str = "result") -> GameResult:
    result = _SPELLINGS.get(text.strip().lower()) if isinstance(text, str) else None
    if result is None:
        raise InvalidInput(
            f"unreadable game result {text!r}: expected win, draw, loss, 1-0, 0-1 or ½-½ "
            "(from the first-named player's view)",
            rule="game-result",
            field=field_name,
        )
    return result


def match_result(games: Sequence[str], rules: RuleSet, *, first: str, second: str) -> MatchResult:
    """The match between ``first`` and ``second`` after ``games`` (each from ``first``'s view)."""
    if first == second:
        raise InvalidInput(
            f"a match needs two players, got {first!r} twice", rule="match-players", field="second"
        )
    halves = [0, 0]
    status = MatchStatus.IN_PROGRESS
    for index, text in enumerate(games):
        if status is not MatchStatus.IN_PROGRESS:
            raise Conflict(
                f"game {index + 1} was recorded after the best-of-{rules.best_of} match was decided "
                f"{halves[0] / 2:g}–{halves[1] / 2:g} in game {index}",
                rule="match-already-decided",
                field=f"games[{index}]",
            )
        mine, theirs = _HALVES[parse_game_result(text, field_name=f"games[{index}]")]
        halves = [halves[0] + mine, halves[1] + theirs]
        left = rules.best_of - (index + 1)
        lead = abs(halves[0] - halves[1])
        if lead > 2 * left:
            status = MatchStatus.WON
        elif left == 0:
            status = MatchStatus.DRAWN
    winner = (first if halves[0] > halves[1] else second) if status is MatchStatus.WON else None
    return MatchResult(
        status=status,
        winner=winner,
        games_played=len(games),
        game_points={first: halves[0] / 2, second: halves[1] / 2},
        match_points=_match_points(status, rules, first=first, winner=winner, second=second),
    )


def _match_points(
    status: MatchStatus, rules: RuleSet, *, first: str, second: str, winner: str | None
) -> dict[str, int] | None:
    if status is MatchStatus.IN_PROGRESS:
        return None
    if winner is None:
        return {first: rules.match_draw_points, second: rules.match_draw_points}
    loser = second if winner == first else first
    return {winner: rules.match_win_points, loser: rules.match_loss_points}
