"""The event's life: draft → registration_open → registration_closed → drawn → running → finished.

Each step has a guard; a refused step says which one and what it saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import Conflict
from domain.events.models import EventState

NEXT: dict[EventState, tuple[EventState, ...]] = {
    EventState.DRAFT: (EventState.REGISTRATION_OPEN,),
    EventState.REGISTRATION_OPEN: (EventState.REGISTRATION_CLOSED,),
    # reopening is how the union extends a deadline (after moving the window's close)
    EventState.REGISTRATION_CLOSED: (EventState.REGISTRATION_OPEN, EventState.DRAWN),
    EventState.DRAWN: (EventState.RUNNING,),
    EventState.RUNNING: (EventState.FINISHED,),
    EventState.FINISHED: (),
}


@dataclass(frozen=True)
class PlayLeft:
    """What still stands between a running event and its end."""

    last_round_generated: bool
    """a round marked as the last of the event's last stage exists"""
    rounds_not_finished: tuple[str, ...]
    """"stage number" of every round not finished"""
    games_not_final: tuple[int, ...]

    @property
    def over(self) -> bool:
        return self.last_round_generated and not self.rounds_not_finished and not self.games_not_final


@dataclass(frozen=True)
class EventFacts:
    """What the guards look at, gathered by the service."""

    has_window: bool
    window_ends_in_future: bool
    entries_awaiting_decision: int
    confirmed_entries: int
    play: PlayLeft


def check_transition(current: EventState, target: EventState, facts: EventFacts) -> None:
    """Raises Conflict when ``current → target`` is not a step or its guard refuses it."""
    allowed = NEXT[current]
    if target not in allowed:
        options = ", ".join(state.value for state in allowed) or "nothing (the event is over)"
        raise Conflict(
            f"an event in state {current.value} cannot move to {target.value}; it can move to {options}",
            rule="event-transition",
            field="to_state",
            extra={"state": current.value, "allowed": [state.value for state in allowed]},
        )
    if target is EventState.REGISTRATION_OPEN and not (facts.has_window and facts.window_ends_in_future):
        raise Conflict(
            "registration opens only with a registration window whose close is still ahead; "
            "set registration_opens_at and registration_closes_at first",
            rule="registration-window-needed",
            field="registration_closes_at",
        )
    if target is EventState.DRAWN:
        if facts.entries_awaiting_decision:
            raise Conflict(
                f"{facts.entries_awaiting_decision} submitted entr(ies) still await the union's "
                "confirmation or rejection; decide them before the draw",
                rule="entries-awaiting-decision",
                extra={"awaiting": facts.entries_awaiting_decision},
            )
        if facts.confirmed_entries < 2:
            raise Conflict(
                f"a draw needs at least 2 confirmed entries; this event has {facts.confirmed_entries}",
                rule="too-few-entries",
                extra={"confirmed": facts.confirmed_entries},
            )
    if target is EventState.FINISHED and not facts.play.over:
        play = facts.play
        raise Conflict(
            "the event ends when the last round of its last stage is played and every result is final: "
            f"last round generated: {'yes' if play.last_round_generated else 'no'}; "
            f"{len(play.rounds_not_finished)} round(s) not finished ({', '.join(play.rounds_not_finished) or 'none'}); "
            f"{len(play.games_not_final)} game result(s) not final",
            rule="play-not-over",
            field="to_state",
            extra={
                "rounds_not_finished": list(play.rounds_not_finished),
                "games_not_final": list(play.games_not_final),
            },
        )
