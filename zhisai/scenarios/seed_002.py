"""Seed 002: AHUT 2017 竞技扑克（掼蛋规则）比赛, Guandan pairs knockout in groups A and B (ahut-2017).

Branches enter pairs within a quota table; at the leaders' meeting the lots place every pair in
group A or B and in its group's bracket (recorded by the referee as a physical draw); two rounds
of 60 minutes (32 → 16 → 8 in each group), a game stopped by time with equal levels won by the
side that reached the level first, a missed card report at 7 cards costing a level; the top 8 of
each group are awarded.
"""

from __future__ import annotations

import random
from typing import Any

from zhisai.demo_driver import Driver, member_row
from zhisai.scenarios.common import (
    GameRecord,
    Record,
    confirm_all,
    enter_pairs,
    later,
    open_round,
    play_random,
    score_game,
)
from zhisai.scenarios.simulate import AHUT_2017, find

DAY = "2017-06-18"
ROUND_TIMES = [("08:00", "09:00"), ("09:10", "10:10")]
PER_GROUP = 32
# 16 branches; the quota table (附件 名额分配表) gives 4 pairs to most, 5 to the larger, 3 to the smaller
QUOTAS = {f"B{k:02d}": 4 for k in range(1, 17)} | {"B01": 5, "B02": 5, "B03": 3, "B04": 3}


def knockout_event() -> dict[str, Any]:
    return {
        "name": "2017年教职工竞技扑克（掼蛋规则）比赛",
        "discipline": "guandan",
        "entry_kind": "pair",
        "format": "knockout",
        "preset": "ahut-2017",
        "registration_opens_at": "2017-06-05T08:00:00+08:00",
        "registration_closes_at": "2017-06-12T16:00:00+08:00",  # seed 002 §一
        "config": {
            "rounds": 2,  # seed 002 §二.5: 32 进 16, 16 进 8
            "groups": ["A", "B"],
            "round_times": [
                {"number": n, "starts_at": f"{DAY}T{a}:00+08:00", "ends_at": f"{DAY}T{b}:00+08:00"}
                for n, (a, b) in enumerate(ROUND_TIMES, start=1)
            ],
            "quota": {"kind": "table", "table": QUOTAS, "default": 0, "citation": "seed 002 附件 名额分配表"},
            "awards": {"top_n": 8, "per_group": True},  # seed 002 §三
        },
    }


def run(driver: Driver, *, seed: int = 2017) -> Record:
    rng = random.Random(seed)  # noqa: S311 - a reproducible simulation, not a secret
    driver.at("2017-06-06T09:00")
    competition_id = driver.create_competition(
        "2017年教职工竞技扑克比赛", organiser="校工会", venue="校工会棋牌室"
    )
    event_id = int(driver.create_event(competition_id, knockout_event())["id"])
    driver.transition(event_id, "registration_open")
    record = Record(event_id=event_id, competition_id=competition_id)
    driver.say(f"seed 002: competition {competition_id}, knockout event {event_id} open")

    branches = [
        {"code": code, "name": f"{code}分工会", "member_count": 30 + 2 * n} for n, code in enumerate(QUOTAS)
    ]
    members = [
        member_row(f"{code}-{k:02d}", f"{code}会员{k}", code)
        for code, quota in QUOTAS.items()
        for k in range(1, 2 * quota + 3)
    ]
    driver.sync(branches, members)
    for code, quota in QUOTAS.items():
        enter_pairs(driver, record, event_id, code=code, count=quota, label=f"{code}第")
    record.refuse(
        "over_quota",
        "a pair beyond B03's 3 (the quota table)",
        driver.create_entry,
        event_id,
        branch_code="B03",
        roster=["B03-07", "B03-08"],
        name="B03第4对",
    )
    driver.say(f"{len(record.entries)} pairs entered within the quota table")

    driver.at("2017-06-12T16:00")
    driver.transition(event_id, "registration_closed")
    # seed 002 §四: the leaders draw the lots at their meeting; the referee records them
    ids = sorted(record.entries)
    rng.shuffle(ids)
    lots = {"A": ids[:PER_GROUP], "B": ids[PER_GROUP:]}
    record.notes["lots"] = lots
    record.draw = driver.physical_draw(
        event_id,
        {
            "groups": [{"name": g, "entry_ids": lots[g]} for g in ("A", "B")],
            "brackets": [{"group": g, "slots": lots[g]} for g in ("A", "B")],
            "note": "领队会议抽签 (421室)",
        },
    )
    driver.say("the leaders' lots recorded: groups A and B, each a bracket of 32")

    for number, (start, end) in enumerate(ROUND_TIMES, start=1):
        driver.at(f"{DAY}T{start}")
        games, tokens = open_round(driver, record, number)
        driver.at(later(DAY, start, 40))
        skip: set[int] = set()
        if number == 1:
            skip |= special_games(driver, record, games, tokens, rng)
        play_random(
            driver, games, tokens, rng, AHUT_2017, pass_a_share=0.2, max_deals=8, skip=frozenset(skip)
        )
        driver.at(f"{DAY}T{end}")
        confirm_all(driver, games, tokens)
        driver.finish_round(event_id, number)
        driver.say(f"round {number}: {len(games)} games decided")
    record.notes["standings"] = driver.standings(event_id)
    record.notes["awards"] = driver.awards(event_id)
    driver.say("the top 8 of each group published")
    return record


def special_games(
    driver: Driver, record: Record, games: list[GameRecord], tokens: dict[int, str], rng: random.Random
) -> set[int]:
    """Table 1: equal levels at time (seed 002 §二.5: the side that got there first wins);
    table 2: E does not report at 7 cards in deal 2 and E–W lose a level (§二.4)."""
    tie = find(
        rng,
        AHUT_2017,
        lambda play, out: out.passed_a is None and out.levels["NS"] == out.levels["EW"] > 2,
        max_deals=8,
    )
    score_game(driver, games[0], tokens[games[0].game_id], tie)
    record.notes["first_to_reach_game"] = games[0].game_id

    def penalised(play: Any, out: Any) -> bool:
        return len(play.orders) >= 3 and out.deals[1][1] > 2

    missed = find(rng, AHUT_2017, penalised, max_deals=8, level_penalties={2: "EW"})
    score_game(driver, games[1], tokens[games[1].game_id], missed, penalties={2: ("E", "missed_report")})
    record.notes["missed_report_game"] = games[1].game_id
    return {games[0].game_id, games[1].game_id}
