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
class EventFacts:
    """What the guards look at, gathered by the service."""

    has_window: bool
    window_ends_in_future: bool
    entries_awaiting_decision: int
    confirmed_entries: int


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
