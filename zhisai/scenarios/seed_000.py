"""Seed 000: NUIST 2023 迎新智力竞赛, the Guandan team event with rotating seats (preset nuist-2023).

16 branch teams of 10–15 (leader and coach included), drawn into A (N–S) and B (E–W); four rounds
on 2023-12-29 at 13:30, 14:30, 15:30 and 16:30 (Asia/Shanghai), five pairs per team per round
named by the leader before each round; level points (A 14, passed A 15), one forfeit (15:2), the
dean bonus (+1 each, +2 at most), a correction inside the window and one refused after it.
"""

from __future__ import annotations

import random
from typing import Any

from zhisai.demo_driver import Driver, member_row
from zhisai.scenarios.common import Record, confirm_all, forfeit_game, open_round, play_random, score_game
from zhisai.scenarios.simulate import NUIST_2023, simulate

BRANCHES = [
    ("ATM", "大气科学学院"),
    ("CS", "计算机学院"),
    ("MATH", "数学与统计学院"),
    ("PHY", "物理与光电工程学院"),
    ("GEO", "地理科学学院"),
    ("ENV", "环境科学与工程学院"),
    ("EE", "电子与信息工程学院"),
    ("AUTO", "自动化学院"),
    ("MGMT", "管理工程学院"),
    ("LAW", "法政学院"),
    ("LIT", "文学院"),
    ("FL", "外国语学院"),
    ("ART", "传媒与艺术学院"),
    ("MARX", "马克思主义学院"),
    ("LIB", "图书馆"),
    ("ADM", "机关"),
]
ROUND_TIMES = [("13:30", "14:20"), ("14:30", "15:20"), ("15:30", "16:20"), ("16:30", "17:20")]
DAY = "2023-12-29"
DEANS = {"ATM": 3, "CS": 1}  # seed 000 §七: ATM fields three deans (+2 at most), CS one (+1)


def roster_size(index: int) -> int:
    """10 to 15 people per team (seed 000 §六.1)."""
    return 10 + index % 6


def team_event() -> dict[str, Any]:
    return {
        "name": "迎新智力竞赛（掼蛋团体赛）",
        "discipline": "guandan",
        "entry_kind": "team",
        "format": "team_rotation",
        "preset": "nuist-2023",
        "registration_opens_at": "2023-12-13T00:00:00+08:00",  # seed 000 §六.2: 12-13 to 12-22
        "registration_closes_at": "2023-12-23T00:00:00+08:00",
        "config": {
            "rounds": 4,
            "groups": ["A", "B"],
            "round_times": [
                {"number": n, "starts_at": f"{DAY}T{a}:00+08:00", "ends_at": f"{DAY}T{b}:00+08:00"}
                for n, (a, b) in enumerate(ROUND_TIMES, start=1)
            ],
            "awards": {"top_n": 8},  # seed 000 §七
            "dean_bonus_per_member": 1,
            "dean_bonus_cap": 2,
        },
    }


def staff(code: str, n: int) -> str:
    return f"{code}-{n:02d}"


def run(driver: Driver, *, seed: int = 2023) -> Record:
    rng = random.Random(seed)  # noqa: S311 - a reproducible simulation, not a secret
    driver.at("2023-12-13T09:00")
    competition_id = driver.create_competition(
        "南京信息工程大学迎新智力竞赛（牌类）",
        organiser="校工会",
        venue="教工餐厅一楼",
        starts_on=DAY,
        ends_on=DAY,
    )
    event_id = int(driver.create_event(competition_id, team_event())["id"])
    driver.transition(event_id, "registration_open")
    record = Record(event_id=event_id, competition_id=competition_id)
    driver.say(f"seed 000: competition {competition_id}, team event {event_id} open for registration")

    # the union system syncs the branches and their members (one more than the largest roster)
    members = []
    for index, (code, name) in enumerate(BRANCHES):
        deans = DEANS.get(code, 0)
        members += [
            member_row(staff(code, n), f"{name}队员{n}", code, is_dean_or_secretary=n <= deans)
            for n in range(1, roster_size(index) + 2)
        ]
    driver.sync(
        [
            {"code": code, "name": f"{name}分工会", "member_count": 40 + i}
            for i, (code, name) in enumerate(BRANCHES)
        ],
        members,
    )
    driver.say(f"synced {len(BRANCHES)} branches and {len(members)} members")

    driver.at("2023-12-18T10:00")
    rosters: dict[int, list[str]] = {}
    for index, (code, name) in enumerate(BRANCHES):
        size = roster_size(index)
        people = [staff(code, n) for n in range(1, size + 1)]
        leader = {"staff_id": people[-1], "name": f"{name}队员{size}", "phone": "13912335115"}
        roster: list[dict[str, Any]] = [{"staff_id": s} for s in people[:-2]]
        roster += [{"staff_id": people[-2], "coach": True}, {"staff_id": people[-1]}]
        if index == 2:
            record.refuse(
                "roster_of_9",
                "a roster of 9 (seed 000 §六.1: at least 10)",
                driver.create_entry,
                event_id,
                branch_code=code,
                roster=roster[:9],
                leader=leader,
                name=f"{code}队",
            )
        if index == 5:
            extra = [*roster, {"staff_id": staff(code, size + 1)}]
            assert len(extra) == 16
            record.refuse(
                "roster_of_16",
                "a roster of 16 (seed 000 §六.1: at most 15)",
                driver.create_entry,
                event_id,
                branch_code=code,
                roster=extra,
                leader=leader,
                name=f"{code}队",
            )
        entry_id = driver.enter(
            event_id, branch_code=code, roster=roster, leader=leader, name=f"{name.removesuffix('学院')}队"
        )
        record.entries[entry_id] = f"{name.removesuffix('学院')}队"
        record.branches[entry_id] = code
        # a team of 10 needs everyone at the tables, leader and coach included (5 pairs)
        rosters[entry_id] = people
    driver.say(f"{len(record.entries)} teams entered, submitted by their branches and confirmed")

    driver.at("2023-12-23T09:00")
    driver.transition(event_id, "registration_closed")
    driver.at("2023-12-29T13:00")  # 签到 at 13:00, the draw on site (seed 000 §五, §八.2)
    committed = driver.commit_draw(event_id)
    drawn = driver.run_draw(event_id)
    record.draw = driver.draw(event_id)
    record.notes["commitment_before_draw"] = committed["commitment"]
    record.notes["seed_before_draw"] = committed["seed"]
    driver.say(
        f"draw committed ({committed['commitment'][:12]}…) and revealed: groups {drawn['result']['groups']}"
    )

    forfeit_at = (2, 1, 3)  # round 2, match 1, pair 3: E–W's pair did not come (15:2)
    for number, (start, end) in enumerate(ROUND_TIMES, start=1):
        driver.at(f"{DAY}T{int(start[:2]) - 1}:{start[3:]}")
        for entry_id, players in rosters.items():
            chosen = lineup_for(
                rng, players, dean_count=DEANS.get(record.branches[entry_id], 0), number=number
            )
            driver.set_lineup(entry_id, number, chosen)
        driver.at(f"{DAY}T{start}")
        games, tokens = open_round(driver, record, number)
        if number == 1:
            team = next(iter(rosters))
            pairs = lineup_for(rng, rosters[team], dean_count=0, number=number)
            record.refuse(
                "lineup_after_start",
                "a lineup changed after its round started (seed 000 §八.2: before each round)",
                driver.set_lineup,
                team,
                1,
                pairs,
            )
        driver.at(f"{DAY}T{start[:2]}:45")
        skip: set[int] = set()
        for game in games:
            if (number, game.match_no, game.game_no) == forfeit_at:
                forfeit_game(driver, game, "EW")
                skip.add(game.game_id)
        if number == 1:
            # one table's game that the scorers will have to correct: it ends at time
            game = games[0]
            play = simulate(rng, NUIST_2023, pass_a=False, max_deals=6)
            score_game(driver, game, tokens[game.game_id], play)
            skip.add(game.game_id)
        play_random(
            driver, games, tokens, rng, NUIST_2023, pass_a_share=0.1, max_deals=6, skip=frozenset(skip)
        )
        driver.at(f"{DAY}T{end}")
        confirm_all(driver, games, tokens)
        driver.finish_round(event_id, number)
        driver.say(f"round {number}: every result posted and signed by both sides")
        if number == 1:
            correct_inside_window(driver, record, games[0])

    # seed 000 附件 十.3: published results may be corrected 20 minutes after the stage, no later
    driver.at(f"{DAY}T17:45")
    late = record.games[1]
    late_order = swapped(late.play.orders[0]) if late.play else ("N", "E", "S", "W")
    record.refuse(
        "correction_after_window",
        "a correction 25 minutes after the last round (seed 000 附件 十.3: 20 minutes)",
        driver.correct_deal,
        late.game_id,
        1,
        late_order,
        reason="noticed too late",
    )
    record.notes["standings"] = driver.standings(event_id)
    record.notes["awards"] = driver.awards(event_id)
    driver.say("standings and awards published")
    return record


def swapped(order: tuple[str, ...]) -> tuple[str, ...]:
    """The order with the first two finishers' partners exchanged: a plausible scoring slip."""
    return (order[1], order[0], order[2], order[3])


def correct_inside_window(driver: Driver, record: Record, game: Any) -> None:
    """Seed 000 附件 十.2: an entry error pointed out within 10 minutes of the round is corrected."""
    assert game.play is not None
    driver.at(f"{DAY}T14:25")
    orders = list(game.play.orders)
    orders[0] = swapped(orders[0])
    answer = driver.correct_deal(game.game_id, 1, orders[0], reason="西家记错了第1副的上游")
    game.play.orders = orders
    game.answer = answer["game"]
    record.notes["correction"] = {"game_id": game.game_id, "window": answer["window"]}
    driver.say(f"game {game.game_id}: deal 1 corrected at 14:25 ({answer['window']})")


def lineup_for(
    rng: random.Random, players: list[str], *, dean_count: int, number: int
) -> list[tuple[str, str]]:
    """Five pairs from the players; the deans (the first ``dean_count``) play every round."""
    deans = players[:dean_count]
    others = players[dean_count:]
    rng.shuffle(others)
    ten = (deans + others)[:10]
    rng.shuffle(ten)
    return [(ten[2 * k], ten[2 * k + 1]) for k in range(5)]
