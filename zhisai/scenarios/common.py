"""Steps every seed scenario shares: a round from generation to confirmed results, game by game."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from zhisai.demo_driver import ApiError, Driver
from zhisai.scenarios.simulate import Play, Variant, simulate


@dataclass
class GameRecord:
    """One game as the scenario played it: who sat N–S and E–W, and what the scorers posted."""

    game_id: int
    round_no: int
    match_no: int
    game_no: int
    table_no: int | None
    ns_entry: int
    ew_entry: int
    play: Play | None = None
    forfeit: str | None = None  # the forfeiting side
    answer: dict[str, Any] = field(default_factory=dict)  # the game as the service left it


@dataclass
class Refusal:
    """A call the scenario expected the service to refuse, and how it answered."""

    what: str
    status: int | None  # None: it was accepted
    rule: str | None


@dataclass
class Record:
    """What a scenario did, for the tests to check against the service's answers."""

    event_id: int
    competition_id: int
    events: dict[str, int] = field(default_factory=dict)  # a competition of several: name → event id
    entries: dict[int, str] = field(default_factory=dict)  # entry id → name
    branches: dict[int, str] = field(default_factory=dict)  # entry id → branch code
    draw: dict[str, Any] = field(default_factory=dict)
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)  # number → the published round
    games: list[GameRecord] = field(default_factory=list)
    refusals: dict[str, Refusal] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    def refuse(self, key: str, what: str, action: Callable[..., object], *args: Any, **kwargs: Any) -> None:
        """Runs ``action(*args, **kwargs)``, a call that should be refused, and keeps its answer."""
        try:
            action(*args, **kwargs)
        except ApiError as error:
            self.refusals[key] = Refusal(what, error.status, error.rule)
        else:
            self.refusals[key] = Refusal(what, None, None)


def enter_pairs(driver: Driver, record: Record, event_id: int, *, code: str, count: int, label: str) -> None:
    """The branch's first ``count`` pairs of members ``<code>-01``, ``-02``, … named ``<label>1对`` …"""
    for p in range(count):
        roster = [f"{code}-{2 * p + 1:02d}", f"{code}-{2 * p + 2:02d}"]
        name = f"{label}{p + 1}对"
        entry_id = driver.enter(event_id, branch_code=code, roster=roster, name=name)
        record.entries[entry_id] = name
        record.branches[entry_id] = code


def later(day: str, hhmm: str, minutes: int) -> str:
    """The wall time ``minutes`` after ``hhmm`` on ``day``, as ``Driver.at`` takes it."""
    moment = datetime.fromisoformat(f"{day}T{hhmm}") + timedelta(minutes=minutes)
    return moment.isoformat(timespec="minutes")


def round_games(body: Mapping[str, Any], number: int) -> list[GameRecord]:
    """The games of a published round, with the entry seated N–S and E–W."""
    return [
        GameRecord(
            game_id=int(table["game_id"]),
            round_no=number,
            match_no=int(table["match_no"]),
            game_no=int(table["game_no"]),
            table_no=table["table_no"],
            ns_entry=int(table["seats"]["N"]["entry_id"]),
            ew_entry=int(table["seats"]["E"]["entry_id"]),
        )
        for table in body["tables"]
    ]


def open_round(driver: Driver, record: Record, number: int) -> tuple[list[GameRecord], dict[int, str]]:
    """Generates, publishes and starts round ``number``; answers its games and scorer tokens."""
    event_id = record.event_id
    driver.generate_round(event_id, number)
    driver.publish_round(event_id, number)
    started = driver.start_round(event_id, number)
    record.rounds[number] = driver.round(int(started["id"]))
    games = round_games(record.rounds[number], number)
    record.games.extend(games)
    driver.say(f"round {number}: {len(games)} games at {len(games)} tables, published and started")
    return games, driver.scorer_tokens(int(started["id"]))


def score_game(
    driver: Driver,
    game: GameRecord,
    token: str,
    play: Play,
    *,
    penalties: Mapping[int, tuple[str, str]] | None = None,
) -> None:
    """The table's scorer posts every deal (with an idempotency key, as the form does); the
    referee records ``penalties`` (deal → (seat, kind)) right after their deal; time-up is posted
    when nobody passed A."""
    game.play = play
    for deal_no, order in enumerate(play.orders, start=1):
        driver.post_deal(game.game_id, token, deal_no, order, idempotency_key=f"g{game.game_id}-d{deal_no}")
        if penalties and deal_no in penalties:
            seat, kind = penalties[deal_no]
            driver.penalty(game.game_id, seat, kind, deal_no=deal_no, note="did not report the cards left")
    if play.ending == "time_up":
        driver.time_up(game.game_id, token)


def forfeit_game(driver: Driver, game: GameRecord, side: str) -> None:
    game.forfeit = side
    driver.forfeit(game.game_id, side, reason="late_arrival", note="absent at the late-arrival limit")


def play_random(
    driver: Driver,
    games: list[GameRecord],
    tokens: Mapping[int, str],
    rng: random.Random,
    variant: Variant,
    *,
    pass_a_share: float = 0.3,
    max_deals: int = 10,
    skip: frozenset[int] = frozenset(),
) -> None:
    """Every game not in ``skip``: a simulated game, some passing A, the rest stopped by the clock."""
    for game in games:
        if game.game_id in skip:
            continue
        play = simulate(rng, variant, pass_a=rng.random() < pass_a_share, max_deals=max_deals)
        score_game(driver, game, tokens[game.game_id], play)


def confirm_all(driver: Driver, games: list[GameRecord], tokens: Mapping[int, str]) -> None:
    """Both sides sign every ended game (seed 000 §九.4); the game's final state is kept."""
    for game in games:
        game.answer = driver.confirm_both(game.game_id, tokens[game.game_id])
