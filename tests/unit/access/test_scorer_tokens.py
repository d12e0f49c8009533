from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.access import scorer_tokens
from domain.errors import Unauthenticated

SECRET = "s" * 48
NOW = datetime(2023, 12, 29, 5, 30, tzinfo=UTC)  # 13:30 in Asia/Shanghai


def test_a_token_names_its_game_until_it_expires() -> None:
    token = scorer_tokens.issue(SECRET, game_id=42, nonce="abcd", expires_at=NOW + timedelta(minutes=70))
    assert len(token) < 60  # fits a small QR code
    claim = scorer_tokens.verify(SECRET, token, now=NOW)
    assert (claim.game_id, claim.nonce) == (42, "abcd")
    with pytest.raises(Unauthenticated) as expired:
        scorer_tokens.verify(SECRET, token, now=NOW + timedelta(minutes=70))
    assert expired.value.rule == "scorer-token-expired"


def test_a_token_for_another_game_cannot_be_forged_from_one_you_hold() -> None:
    token = scorer_tokens.issue(SECRET, game_id=42, nonce="abcd", expires_at=NOW + timedelta(hours=1))
    _game, nonce, expires, signature = token.split(".")
    forged = f"43.{nonce}.{expires}.{signature}"
    with pytest.raises(Unauthenticated) as refused:
        scorer_tokens.verify(SECRET, forged, now=NOW)
    assert refused.value.rule == "scorer-token-invalid"
    with pytest.raises(Unauthenticated):
        scorer_tokens.verify("another secret" * 4, token, now=NOW)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_garbage_is_refused_never_crashes(garbage: str) -> None:
    with pytest.raises(Unauthenticated):
        scorer_tokens.verify(SECRET, garbage, now=NOW)


@settings(max_examples=60, deadline=None)
@given(position=st.integers(min_value=0, max_value=200), replacement=st.characters(codec="ascii"))
def test_any_single_character_change_is_refused(position: int, replacement: str) -> None:
    token = scorer_tokens.issue(SECRET, game_id=7, nonce="00ff", expires_at=NOW + timedelta(hours=1))
    index = position % len(token)
    if token[index] == replacement:
        return
    tampered = token[:index] + replacement + token[index + 1 :]
    with pytest.raises(Unauthenticated):
        scorer_tokens.verify(SECRET, tampered, now=NOW)
