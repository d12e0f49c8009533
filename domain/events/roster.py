"""Rosters, phones and lineups: the checks that need no database."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from domain.errors import InvalidInput, RuleViolation
from domain.events.models import EntryKind, EventConfig

# Mainland mobile numbers: 11 digits starting 13–19 (the seed 001 form's 139…).
MOBILE = re.compile(r"1[3-9]\d{9}")
PHONE_NOISE = re.compile(r"[\s\-()]")


def normalize_phone(text: str, *, field: str = "phone") -> str:
    """``text`` as 11 bare digits; spaces, dashes and a +86 / 0086 prefix are dropped."""
    digits = PHONE_NOISE.sub("", text)
    for prefix in ("+86", "0086"):
        digits = digits.removeprefix(prefix)
    if not MOBILE.fullmatch(digits):
        raise InvalidInput(
            f"{text!r} is not a mainland mobile number (11 digits starting 13–19)",
            rule="phone-format",
            field=field,
        )
    return digits


def check_roster_size(size: int, *, config: EventConfig, entry_kind: EntryKind) -> None:
    low, high = config.roster_min, config.roster_max
    if low <= size <= high:
        return
    if entry_kind is EntryKind.TEAM:
        rule_text = f"a team has {low} to {high} members including leader and coach (seed 000 §六.1)"
    elif low == high:
        rule_text = f"an entry of this event has exactly {low} player(s)"
    else:
        rule_text = f"an entry of this event has {low} to {high} people"
    raise RuleViolation(
        f"{rule_text}; this roster has {size}",
        rule="roster-size",
        field="roster",
        extra={"roster_min": low, "roster_max": high, "roster_size": size},
    )


def check_lineup(
    pairs: Sequence[tuple[int, tuple[str, str]]], *, roster: set[str], pairs_per_match: int
) -> None:
    """A team's pairs for a round (seed 000 §八.2): ``pairs_per_match`` pairs numbered 1..N,
    players from the roster only, nobody twice. Players are named by staff id."""
    numbers = sorted(pair_no for pair_no, _ in pairs)
    if numbers != list(range(1, pairs_per_match + 1)):
        raise RuleViolation(
            f"a team fields {pairs_per_match} pairs numbered 1 to {pairs_per_match} each round "
            f"(seed 000 §八.2); this lineup has pair numbers {numbers}",
            rule="lineup-pairs",
            field="pairs",
            extra={"pairs_per_match": pairs_per_match, "pair_numbers": numbers},
        )
    players = [staff_id for _, pair in pairs for staff_id in pair]
    twice = sorted(staff_id for staff_id, n in Counter(players).items() if n > 1)
    if twice:
        raise RuleViolation(
            f"a player plays in one pair per round; {', '.join(twice)} appear(s) more than once",
            rule="lineup-player-twice",
            field="pairs",
        )
    strangers = sorted(set(players) - roster)
    if strangers:
        raise RuleViolation(
            f"pairs come from the team's roster (seed 000 §八.2); {', '.join(strangers)} "
            "is not a player on it",
            rule="lineup-not-on-roster",
            field="pairs",
        )
