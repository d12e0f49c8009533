"""A hall to look at: a Guandan pairs event whose published round has tables in groups A and B,
built as rows (the scoring tests' way) with full seat maps, names as the draw would store them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine

from domain.access.scorer_tokens import new_nonce
from storage.db import unit_of_work
from storage.tables import Game, Match, MatchEntry
from tests.integration.scoring.scoring_rows import ROUND_MINUTES, make_entries, make_event, make_round


@dataclass(frozen=True)
class Hall:
    event_id: int
    round_id: int
    game_ids: list[int]
    sides: dict[int, tuple[str, str]]
    """game id → (N–S entry name, E–W entry name)"""
    players: dict[int, dict[str, str]]
    """game id → seat → player name"""


def make_hall(
    engine: Engine,
    *,
    event_name: str,
    entry_names: list[str],
    starts_at: datetime,
    started: bool,
    preset: str = "nsi-2023",
) -> Hall:
    """Entries 2k and 2k+1 meet at table k+1, N–S against E–W; even tables in group A, odd in B."""
    with unit_of_work(engine) as session:
        event = make_event(session, preset=preset)
        event.name = event_name
        entries = make_entries(session, event, entry_names)
        round_ = make_round(session, event, 1)
        round_.starts_at = starts_at
        round_.ends_at = starts_at + timedelta(minutes=ROUND_MINUTES)
        round_.pairing_published_at = starts_at - timedelta(minutes=10)
        if started:
            round_.state = "started"
            round_.started_at = starts_at
        session.add_all([event, round_])
        games: list[Game] = []
        for table in range(len(entries) // 2):
            ns, ew = entries[2 * table], entries[2 * table + 1]
            assert round_.id is not None and ns.id is not None and ew.id is not None
            match = Match(
                round_id=round_.id,
                event_id=round_.event_id,
                match_no=table + 1,
                group_label="AB"[table % 2],
                created_at=starts_at,
            )
            session.add(match)
            session.flush()
            assert match.id is not None
            session.add(MatchEntry(match_id=match.id, entry_id=ns.id, position=1, side="NS"))
            session.add(MatchEntry(match_id=match.id, entry_id=ew.id, position=2, side="EW"))
            seats = {
                seat: {
                    "entry_id": entry.id,
                    "entry_name": entry.name,
                    "member_id": None,
                    "name": f"{entry.name}·{seat}",
                    "branch": f"{entry.name} branch",
                }
                for seat, entry in zip("NESW", (ns, ew, ns, ew), strict=True)
            }
            game = Game(
                match_id=match.id,
                round_id=round_.id,
                event_id=round_.event_id,
                game_no=1,
                table_no=table + 1,
                seats=seats,
                token_nonce=new_nonce(),
                created_at=starts_at,
            )
            session.add(game)
            games.append(game)
        session.flush()
        game_ids = [game.id for game in games if game.id is not None]
        sides = {game.id: (game.seats["N"]["entry_name"], game.seats["E"]["entry_name"]) for game in games}
        players = {game.id: {seat: game.seats[seat]["name"] for seat in "NESW"} for game in games}
        assert event.id is not None and round_.id is not None
        return Hall(
            event_id=event.id,
            round_id=round_.id,
            game_ids=game_ids,
            sides={k: v for k, v in sides.items() if k is not None},
            players={k: v for k, v in players.items() if k is not None},
        )
