"""Seed 001: NSI 2023 教职工掼蛋单项比赛, Guandan pairs in four Swiss rounds (preset nsi-2023).

Branch quotas by member count (<30 → 2 pairs, 30–50 → 3, >50 → 4; a fifth pair of the 60-member
branch is refused), two school leaders' pairs outside the quota, registration refused after
2023-12-20 16:00, round 1 drawn by the computer and later rounds paired by standing without a
rematch, every deal recorded, one forfeit (14:0); ranking by wins, then points; top 8 pairs.
"""

from __future__ import annotations

import random
from typing import Any

from zhisai.demo_driver import Driver, member_row
from zhisai.scenarios.common import Record, confirm_all, enter_pairs, forfeit_game, open_round, play_random
from zhisai.scenarios.simulate import NSI_2023

DAY = "2023-12-23"
ROUND_TIMES = [("13:00", "13:50"), ("14:00", "14:50"), ("15:00", "15:50"), ("16:00", "16:50")]
# code, name, member count → pairs the branch fields (its quota, seed 001 §一)
BRANCHES = [
    ("SPORT", "运动训练学院", 25, 2),
    ("PE", "体育教育学院", 40, 3),
    ("ADMIN", "机关", 60, 4),
    ("ART", "艺术学院", 28, 2),
    ("HEALTH", "运动健康学院", 45, 3),
    ("LOG", "后勤", 55, 4),
]
LEADERS = ("SCHOOL-1", "SCHOOL-2")  # two school leaders, each with a partner of their choice


def pairs_event() -> dict[str, Any]:
    return {
        "name": "教职工掼蛋单项比赛",
        "discipline": "guandan",
        "entry_kind": "pair",
        "format": "swiss",
        "preset": "nsi-2023",
        "registration_opens_at": "2023-12-15T08:00:00+08:00",
        "registration_closes_at": "2023-12-20T16:00:00+08:00",  # seed 001 §四
        "config": {
            "rounds": 4,
            "round_times": [
                {"number": n, "starts_at": f"{DAY}T{a}:00+08:00", "ends_at": f"{DAY}T{b}:00+08:00"}
                for n, (a, b) in enumerate(ROUND_TIMES, start=1)
            ],
            "leader_entries_outside_quota": True,
            "quota": {
                "kind": "tiered",
                "tiers": [
                    {"up_to_members": 29, "entries": 2},
                    {"up_to_members": 50, "entries": 3},
                    {"entries": 4},
                ],
                "citation": "seed 001 §一",
            },
            "awards": {"top_n": 8},  # seed 001 §三
        },
    }


def run(driver: Driver, *, seed: int = 2023) -> Record:
    rng = random.Random(seed)  # noqa: S311 - a reproducible simulation, not a secret
    driver.at("2023-12-15T09:00")
    competition_id = driver.create_competition(
        "南京体育学院教职工掼蛋比赛", organiser="南京体育学院工会委员会", starts_on=DAY, ends_on=DAY
    )
    event_id = int(driver.create_event(competition_id, pairs_event())["id"])
    driver.transition(event_id, "registration_open")
    record = Record(event_id=event_id, competition_id=competition_id)
    driver.say(f"seed 001: competition {competition_id}, Swiss pairs event {event_id} open")

    branches = [{"code": c, "name": f"{n}分工会", "member_count": m} for c, n, m, _ in BRANCHES]
    branches.append({"code": "LEAD", "name": "校领导", "member_count": 8})
    members = [
        member_row(f"{code}-{k:02d}", f"{name}会员{k}", code)
        for code, name, _, pairs in BRANCHES
        for k in range(1, 2 * pairs + 5)
    ]
    members += [
        member_row(leader, f"校领导{i}", "LEAD", is_school_leader=True)
        for i, leader in enumerate(LEADERS, start=1)
    ]
    driver.sync(branches, members)

    driver.at("2023-12-19T10:00")
    for code, name, _, pairs in BRANCHES:
        enter_pairs(driver, record, event_id, code=code, count=pairs, label=name)
        if code == "ADMIN":
            extra = [f"{code}-{2 * pairs + 1:02d}", f"{code}-{2 * pairs + 2:02d}"]
            record.refuse(
                "fifth_pair",
                "a fifth pair of the 60-member branch (seed 001 §一: 4 pairs above 50 members)",
                driver.create_entry,
                event_id,
                branch_code=code,
                roster=extra,
                name=f"{name}5对",
            )
    # seed 001 §一: a school leader enters with any member, outside the branch quotas
    for leader, partner in zip(LEADERS, ("SPORT-05", "LOG-09"), strict=True):
        entry_id = driver.enter(
            event_id, branch_code="LEAD", roster=[leader, partner], outside_quota=True, name=f"{leader}组合"
        )
        record.entries[entry_id] = f"{leader}组合"
        record.branches[entry_id] = "LEAD"
    driver.say(f"{len(record.entries)} pairs entered (quotas 2/3/4 by member count, two leaders' pairs)")

    driver.at("2023-12-20T16:01")  # one minute past the deadline (seed 001 §四)
    record.refuse(
        "after_deadline",
        "a pair entered at 16:01 on 12-20 (seed 001 §四: 4 pm deadline)",
        driver.create_entry,
        event_id,
        branch_code="SPORT",
        roster=["SPORT-07", "SPORT-08"],
        name="运动训练学院3对",
    )
    driver.transition(event_id, "registration_closed")
    driver.at(f"{DAY}T12:30")  # 12:30 check-in (seed 001 §五)
    committed = driver.commit_draw(event_id)
    driver.run_draw(event_id)
    record.draw = driver.draw(event_id)
    record.notes["commitment_before_draw"] = committed["commitment"]
    driver.say("round 1 drawn by the computer (seed 001 补充说明 10), seed revealed")

    for number, (start, end) in enumerate(ROUND_TIMES, start=1):
        driver.at(f"{DAY}T{start}")
        games, tokens = open_round(driver, record, number)
        driver.at(f"{DAY}T{start[:2]}:30")
        skip: set[int] = set()
        if number == 1:
            record.refuse(
                "final_result_only",
                "a final result without its deals (seed 001 补充说明 4: every deal is recorded)",
                driver.final_result,
                games[0].game_id,
                tokens[games[0].game_id],
                {"ns_level": 9, "ew_level": 7, "on_stage": "NS"},
            )
        if number == 3:
            # seed 001 补充说明 9: 15 minutes late is a forfeit, 14 to the opponent, 0 to the absent
            forfeit_game(driver, games[-1], "NS")
            skip.add(games[-1].game_id)
        play_random(driver, games, tokens, rng, NSI_2023, pass_a_share=0.2, max_deals=8, skip=frozenset(skip))
        driver.at(f"{DAY}T{end}")
        confirm_all(driver, games, tokens)
        driver.finish_round(event_id, number)
        driver.say(f"round {number}: {len(games)} games scored deal by deal and confirmed")
    record.notes["standings"] = driver.standings(event_id)
    record.notes["awards"] = driver.awards(event_id)
    driver.say("standings (wins, then points) and the top 8 pairs published")
    return record
