"""The event configuration refuses award tiers it cannot give."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from domain.events.models import Bracket, EntryKind, EventConfig

THIRD_PLACE_TIER = {"name": "第三名", "round": 3, "result": "winners", "bracket": "third_place"}


def test_a_third_place_tier_needs_the_third_place_match() -> None:
    # seed 004 掼蛋 §1: 3rd and 4th come from the third-place match, so the event must play it
    awards = {"tiers": [THIRD_PLACE_TIER]}
    with pytest.raises(ValidationError, match="third-place match"):
        EventConfig.for_kind(EntryKind.PAIR, {"awards": awards})
    config = EventConfig.for_kind(EntryKind.PAIR, {"awards": awards, "third_place_match": True})
    assert config.awards.tiers[0].bracket is Bracket.THIRD_PLACE
