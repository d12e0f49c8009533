"""Seed 003: the 2021 institute Guandan pairs knockout (preset institute-2021).

13 branches, 32 pairs (行政, 党群, 智控, 轨道, 经管 and 信息 three pairs each, the other seven two),
seated by the draw; three rounds of 45 minutes stopped at the bell; a game with equal levels at the
bell won by the side on stage (the declarer); prizes by the round: round-3 winners first, round-3
losers second, round-2 losers third.
"""

from __future__ import annotations

import random
from typing import Any

from zhisai.demo_driver import Driver, member_row
from zhisai.scenarios.common import (
    Record,
    confirm_all,
    enter_pairs,
    later,
    open_round,
    play_random,
    score_game,
)
from zhisai.scenarios.simulate import INSTITUTE_2021, find

DAY = "2021-10-27"
ROUND_TIMES = [("17:30", "18:15"), ("18:25", "19:10"), ("19:20", "20:05")]
THREE = {"XZ": "行政", "DQ": "党群", "ZK": "智控", "GD": "轨道", "JG": "经管", "XX": "信息"}
TWO = {"JC": "基础", "JD": "机电", "TJ": "土建", "YS": "艺术", "WY": "外语", "TY": "体育", "HQ": "后勤"}
TIERS = [
    {"name": "一等奖", "round": 3, "result": "winners"},
    {"name": "二等奖", "round": 3, "result": "losers"},
    {"name": "三等奖", "round": 2, "result": "losers"},
]


def knockout_event() -> dict[str, Any]:
    return {
        "name": "教职工掼蛋比赛",
        "discipline": "guandan",
        "entry_kind": "pair",
        "format": "knockout",
        "preset": "institute-2021",
        "registration_opens_at": "2021-09-30T08:00:00+08:00",
        "registration_closes_at": "2021-10-20T00:00:00+08:00",  # seed 003 §十一.1
        "config": {
            "rounds": 3,  # seed 003 §十: 比赛进行三轮
            "round_times": [
                {"number": n, "starts_at": f"{DAY}T{a}:00+08:00", "ends_at": f"{DAY}T{b}:00+08:00"}
                for n, (a, b) in enumerate(ROUND_TIMES, start=1)
            ],
            "quota": {
                "kind": "table",
                "table": dict.fromkeys(THREE, 3),
                "default": 2,
                "citation": "seed 003 §五.1",
            },
            "awards": {"tiers": TIERS},
        },
    }


def run(driver: Driver, *, seed: int = 2021) -> Record:
    rng = random.Random(seed)  # noqa: S311 - a reproducible simulation, not a secret
    driver.at("2021-10-08T09:00")
    competition_id = driver.create_competition(
        "2021年教职工掼蛋比赛", organiser="院工会", venue="第一食堂三楼教工餐厅"
    )
    event_id = int(driver.create_event(competition_id, knockout_event())["id"])
    driver.transition(event_id, "registration_open")
    record = Record(event_id=event_id, competition_id=competition_id)
    driver.say(f"seed 003: competition {competition_id}, knockout event {event_id} open")

    names = THREE | TWO
    driver.sync(
        [{"code": c, "name": f"{n}分工会", "member_count": 40} for c, n in names.items()],
        [member_row(f"{c}-{k:02d}", f"{n}会员{k}", c) for c, n in names.items() for k in range(1, 9)],
    )
    for code, name in names.items():
        enter_pairs(driver, record, event_id, code=code, count=3 if code in THREE else 2, label=name)
    record.refuse(
        "third_pair_of_a_two_pair_branch",
        "a third pair from 基础 (seed 003 §五.1: two pairs)",
        driver.create_entry,
        event_id,
        branch_code="JC",
        roster=["JC-05", "JC-06"],
        name="基础3对",
    )
    driver.say(f"{len(record.entries)} pairs of {len(names)} branches entered")

    driver.at("2021-10-20T09:00")
    driver.transition(event_id, "registration_closed")
    driver.at(f"{DAY}T17:00")
    committed = driver.commit_draw(event_id)
    driver.run_draw(event_id)
    record.draw = driver.draw(event_id)
    record.notes["commitment_before_draw"] = committed["commitment"]
    driver.say("seats drawn (seed 003 §六: 按抽签排好座次), seed revealed")

    for number, (start, end) in enumerate(ROUND_TIMES, start=1):
        driver.at(f"{DAY}T{start}")
        games, tokens = open_round(driver, record, number)
        driver.at(later(DAY, start, 30))
        skip: set[int] = set()
        if number == 1:
            tie = find(
                rng,
                INSTITUTE_2021,
                lambda play, out: out.passed_a is None and out.levels["NS"] == out.levels["EW"],
                max_deals=8,
            )
            score_game(driver, games[0], tokens[games[0].game_id], tie)
            record.notes["declarer_game"] = games[0].game_id
            skip.add(games[0].game_id)
        play_random(
            driver, games, tokens, rng, INSTITUTE_2021, pass_a_share=0.2, max_deals=8, skip=frozenset(skip)
        )
        driver.at(f"{DAY}T{end}")
        confirm_all(driver, games, tokens)
        driver.finish_round(event_id, number)
        driver.say(f"round {number}: {len(games)} games decided at the bell or by passing A")
    record.notes["standings"] = driver.standings(event_id)
    record.notes["awards"] = driver.awards(event_id)
    driver.say("prizes published: 一等奖 (round-3 winners), 二等奖 (round-3 losers), 三等奖 (round-2 losers)")
    return record
