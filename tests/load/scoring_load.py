"""Scorers at many tables at once, over real HTTP: what they post, what they were told."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

# Each side climbs one level every other deal (first finisher's partner last: +1), so no game
# ends inside DEALS deals and every deal number is postable.
ORDERS = (["N", "E", "W", "S"], ["E", "N", "S", "W"])
DEALS = 8
DEADLINE_SECONDS = 120


def order_of(deal_no: int) -> list[str]:
    return ORDERS[(deal_no - 1) % 2]


def idempotency_key(game_id: int, deal_no: int) -> str:
    return f"sheet-{game_id}-deal-{deal_no}"


@dataclass
class Ledger:
    """Every 2xx the scorers were given, and every answer that was neither 2xx nor a lost line."""

    acknowledged: set[tuple[int, int]] = field(default_factory=set)
    unexpected: list[str] = field(default_factory=list)
    transport_errors: int = 0
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, game_id: int, deal_no: int, answer: httpx.Response) -> None:
        with self.lock:
            self.requests += 1
            if answer.status_code == 201:
                body = answer.json()
                assert body["deal"]["deal_no"] == deal_no and body["deal"]["finish_order"] == order_of(
                    deal_no
                )
                self.acknowledged.add((game_id, deal_no))
            else:
                self.unexpected.append(
                    f"game {game_id} deal {deal_no}: {answer.status_code} {answer.text[:200]}"
                )


def post_deal(client: httpx.Client, headers: dict[str, str], game_id: int, deal_no: int) -> httpx.Response:
    return client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"deal_no": deal_no, "finish_order": order_of(deal_no)},
        headers={**headers, "Idempotency-Key": idempotency_key(game_id, deal_no)},
    )


def score_games(
    base_url: str,
    headers: dict[str, str],
    game_ids: list[int],
    ledger: Ledger,
    *,
    copies: int = 2,
    retries: int = 1,
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """Two scorers per table (``copies``) post the same sheet with the same keys at once, and each
    sends every post ``retries`` extra times, as a phone on a weak line does."""
    deadline = time.monotonic() + DEADLINE_SECONDS

    def scorer(game_id: int) -> None:
        with httpx.Client(base_url=base_url, timeout=30) as client:
            for deal_no in range(1, DEALS + 1):
                for _ in range(1 + retries):
                    if stop() or time.monotonic() > deadline:
                        return
                    try:
                        answer = post_deal(client, headers, game_id, deal_no)
                    except httpx.TransportError:
                        with ledger.lock:
                            ledger.transport_errors += 1
                        if stop():
                            return
                        continue
                    ledger.note(game_id, deal_no, answer)

    threads = [threading.Thread(target=scorer, args=(g,)) for g in game_ids for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=DEADLINE_SECONDS + 30)
