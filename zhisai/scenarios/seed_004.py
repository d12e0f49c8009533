"""Seed 004: HLJU 2016 教职工智力赛, one competition of four events (象棋, 围棋, 掼蛋, 拱猪).

Five departments enter two players each in chess, Go and Gongzhu and one pair in Guandan; a member
plays one event only (§一.3 不得兼报). 象棋 and 围棋: groups by lot, Berger round robins of best-of-3
matches scored by the referee, the top two of each group into a final round robin drawn by a new
lot. 掼蛋: a knockout of 60-minute games finished at time (one extra deal on equal levels), a
third-place match, a late pair forfeiting. 拱猪: tables of four played to ±1000, the top two of each
table on to a final table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from zhisai.demo_driver import Driver
from zhisai.scenarios.common import Record
from zhisai.scenarios.hlju import (
    GongzhuTable,
    GuandanGame,
    MatchPlayed,
    play_match,
    play_table,
    simulate_guandan,
)

# --- the competition ------------------------------------------------------------------------

# seed 004 二.1–2: entries by 3月22日下班前, play 3月23–25日 13:50
WINDOW = {
    "registration_opens_at": "2016-03-15T08:00:00+08:00",
    "registration_closes_at": "2016-03-22T17:30:00+08:00",
}
COMPETITION: dict[str, Any] = {
    "name": "2016年教职工智力赛（象棋、围棋、掼蛋、拱猪）",
    "organiser": "黑龙江大学工会",
    "venue": "职工活动中心三楼",
    "starts_on": "2016-03-23",
    "ends_on": "2016-03-25",
    "one_event_per_member": True,  # seed 004 §一.3 不得兼报
}
DEPARTMENTS = (
    ("MATH", "数学科学学院"),
    ("PHYS", "物理科学与技术学院"),
    ("CHEM", "化学化工与材料学院"),
    ("LAW", "法学院"),
    ("HIST", "历史文化旅游学院"),
)
# seed 004 §一.2: 象棋围棋各限报两人，掼蛋报一队（每队两人），拱猪每队报两人
QUOTA_CITATION = "seed 004 §一.2"
XIANGQI, GO, GUANDAN, GONGZHU = "xiangqi", "go", "guandan", "gongzhu"
# Guandan rounds: one a day at 13:50 (seed 004 二.2), 60 minutes (掼蛋 §1)
GUANDAN_ROUND_TIMES = [
    {
        "number": n,
        "starts_at": f"2016-03-{22 + n}T13:50:00+08:00",
        "ends_at": f"2016-03-{22 + n}T14:50:00+08:00",
    }
    for n in (1, 2, 3)
]


def staff_id(code: str, n: int) -> str:
    return f"{code}-{n:02d}"


def member_rows() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Five departments of 10 members: 8 play (2 per event); the union tries the others where the
    seed refuses them."""
    branches = [{"code": code, "name": f"{name}分工会", "member_count": 60} for code, name in DEPARTMENTS]
    members = [
        {
            "staff_id": staff_id(code, n),
            "name": f"{name[:2]}教工{n}",  # member_name
            "branch_code": code,
            "phone": f"1390451{k:02d}{n:02d}",
        }
        for k, (code, name) in enumerate(DEPARTMENTS)
        for n in range(1, 11)
    ]
    return branches, members


def roster_of(discipline: str) -> range:
    """Members 1–2 play chess, 3–4 Go, 5–6 are the Guandan pair, 7–8 play Gongzhu."""
    first = {XIANGQI: 1, GO: 3, GUANDAN: 5, GONGZHU: 7}[discipline]
    return range(first, first + 2)


def event_bodies() -> dict[str, dict[str, Any]]:
    def quota(n: int) -> dict[str, Any]:
        return {"kind": "fixed", "per_branch": n, "citation": QUOTA_CITATION}

    round_robin = {
        "entry_kind": "individual",
        "format": "round_robin",
        # seed 004 三.1: 小组循环赛制，取前两名，第二阶段单循环决定名次
        "config": {"groups": ["A", "B"], "quota": quota(2), "advance_per_group": 2, "awards": {"top_n": 4}},
        **WINDOW,
    }
    return {
        XIANGQI: {"name": "中国象棋", "discipline": XIANGQI, "preset": "hlju-2016-xiangqi", **round_robin},
        GO: {"name": "围棋", "discipline": GO, "preset": "hlju-2016-go", **round_robin},
        GUANDAN: {
            "name": "掼蛋",
            "discipline": GUANDAN,
            "entry_kind": "pair",
            "format": "knockout",
            "preset": "hlju-2016",
            # 掼蛋 §1: 淘汰制 … 最后角逐一、二、三、四名: five pairs make a bracket of 8, three rounds; the
            # final gives 1st and 2nd, the third-place match beside it 3rd and 4th
            "config": {
                "quota": quota(1),
                "third_place_match": True,
                "round_times": GUANDAN_ROUND_TIMES,
                "awards": {
                    "tiers": [
                        {"name": "第一名", "round": 3, "result": "winners"},
                        {"name": "第二名", "round": 3, "result": "losers"},
                        {"name": "第三名", "round": 3, "result": "winners", "bracket": "third_place"},
                        {"name": "第四名", "round": 3, "result": "losers", "bracket": "third_place"},
                    ]
                },
            },
            **WINDOW,
        },
        GONGZHU: {
            "name": "拱猪",
            "discipline": GONGZHU,
            "entry_kind": "individual",
            "format": "knockout",
            "preset": "hlju-2016-gongzhu",
            "config": {"quota": quota(2), "awards": {"top_n": 4}},
            **WINDOW,
        },
    }


GROUP_ROUNDS = 5  # five players a group: the Berger tables of six, one bye a round
FINAL_ROUNDS = 3  # the four group winners and runners-up


@dataclass
class MatchTable:
    """A best-of-3 meeting as the referee scored it game by game."""

    round_no: int
    table: dict[str, Any]  # as the started round seated it
    match: MatchPlayed
    answer: dict[str, Any]  # the game after its last result


@dataclass
class GuandanTable:
    """A knockout game as its scoring form posted it."""

    round_no: int
    table: dict[str, Any]
    play: GuandanGame | None  # None: the late pair forfeited
    at_time: dict[str, Any] | None  # the time-up answer when equal levels need an extra deal
    answer: dict[str, Any]  # the game as both sides confirmed it


@dataclass
class GongzhuPlayed:
    """A Gongzhu table played to ±1000, hand by hand as the referee recorded it."""

    round_no: int
    table: dict[str, Any]
    played: GongzhuTable
    hand_scores: list[dict[str, int]]  # each hand's scores as the service answered its posting
    answer: dict[str, Any]  # the game after its last hand


@dataclass
class HljuRecord(Record):
    """Seed 004's record: ``event_id`` and ``rounds`` are the Guandan event's; the rest per event.

    Keys of ``started``, ``matches`` and ``standings`` are ``xiangqi/main``, ``xiangqi/final``,
    ``go/…``, ``guandan`` and ``gongzhu``; of ``draws`` the same without ``/main``."""

    rosters: dict[str, dict[int, tuple[str, ...]]] = field(default_factory=dict)  # entry → staff ids
    lots: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # groups the referee recorded
    commitments: dict[str, str] = field(default_factory=dict)  # published before the lot
    draws: dict[str, dict[str, Any]] = field(default_factory=dict)  # the public draws
    started: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # the rounds as started
    matches: dict[str, list[MatchTable]] = field(default_factory=dict)
    guandan: list[GuandanTable] = field(default_factory=list)
    missing: dict[int, dict[str, Any]] = field(default_factory=dict)  # round → absent at the late limit
    late: int | None = None  # the Guandan pair 16 minutes late on the last day
    gongzhu: list[GongzhuPlayed] = field(default_factory=list)
    standings: dict[str, dict[str, Any]] = field(default_factory=dict)
    awards: dict[str, dict[str, Any]] = field(default_factory=dict)


# --- registration: the four events of one competition ---------------------------------------


def register(driver: Driver, *, playing: str | None = None) -> HljuRecord:
    """The union system syncs five departments, opens the four events and enters every
    department's players (seed 004 §一.2 quotas, §一.3 one event per member), then closes
    registration at 3月22日下班前 (§二.1). With ``playing`` only that event's players are entered
    and nothing refused is tried: a scenario that plays one event needs no more."""
    driver.at("2016-03-16T09:00")
    branches, members = member_rows()
    driver.sync(branches, members)
    competition_id = driver.create_competition(**COMPETITION)
    events: dict[str, int] = {}
    for discipline, body in event_bodies().items():
        events[discipline] = int(driver.create_event(competition_id, body)["id"])
        driver.transition(events[discipline], "registration_open")
    record = HljuRecord(event_id=events[GUANDAN], competition_id=competition_id, events=events)
    for discipline, event_id in events.items():
        record.rosters[discipline] = {}
        if playing is not None and discipline != playing:
            continue
        if discipline == GO and playing is None:
            # §一.3 不得兼报: a chess player cannot also play Go (MATH's Go places are still free)
            _refuse_entry(
                driver, record, "second-event", event_id=event_id, code="MATH", roster=[staff_id("MATH", 1)]
            )
        for code, _name in DEPARTMENTS:
            players = [staff_id(code, n) for n in roster_of(discipline)]
            for roster in [players] if discipline == GUANDAN else [[p] for p in players]:
                name = "·".join(member_name(code, p) for p in roster)
                entry_id = driver.enter(event_id, branch_code=code, roster=roster, name=name)
                record.rosters[discipline][entry_id] = tuple(roster)
                record.entries[entry_id] = name
                record.branches[entry_id] = code
    if playing is None:
        # §一.2 象棋限报两人: a third chess player of a department; 掼蛋报一队: a second pair
        _refuse_entry(
            driver,
            record,
            "third-chess-player",
            event_id=events[XIANGQI],
            code="MATH",
            roster=[staff_id("MATH", 9)],
        )
        second_pair = [staff_id("PHYS", 9), staff_id("PHYS", 10)]
        _refuse_entry(
            driver, record, "second-guandan-pair", event_id=events[GUANDAN], code="PHYS", roster=second_pair
        )
    driver.at("2016-03-22T17:30")
    if playing is None:
        late_entry = [staff_id("HIST", 9)]
        _refuse_entry(
            driver, record, "after-the-deadline", event_id=events[GONGZHU], code="HIST", roster=late_entry
        )
    for event_id in events.values():
        driver.transition(event_id, "registration_closed")
    return record


def _refuse_entry(
    driver: Driver, record: Record, key: str, *, event_id: int, code: str, roster: list[str]
) -> None:
    what = f"an entry of {code} ({', '.join(roster)}) the seed forbids"
    record.refuse(key, what, driver.create_entry, event_id, branch_code=code, roster=roster)


def member_name(code: str, staff: str) -> str:
    name = dict(DEPARTMENTS)[code]
    return f"{name[:2]}教工{int(staff.rsplit('-', 1)[1])}"


def draw(driver: Driver, event_id: int) -> tuple[str, dict[str, Any]]:
    """The lot (抽签, seed 004 三.1): answers the seed's hash, public before the draw, and the
    public draw revealing the seed."""
    commitment = str(driver.commit_draw(event_id)["commitment"])
    driver.run_draw(event_id)
    return commitment, driver.draw(event_id)


# --- chess and Go -----------------------------------------------------------------------------


def play_round_robin(driver: Driver, record: HljuRecord, discipline: str) -> None:
    """Groups by lot recorded by the referee, every Berger round of best-of-3 matches, then the
    top two of each group into a final round robin drawn by a new lot (seed 004 三.1)."""
    event_id = record.events[discipline]
    rng = random.Random(f"seed-004-{discipline}")  # noqa: S311 - a reproducible simulation
    strength = {entry_id: rng.gauss(1500, 150) for entry_id in sorted(record.rosters[discipline])}
    driver.at("2016-03-23T13:00")
    # 抽签 on site: the order in a group is the Berger number (对阵顺序抽签决定)
    lots = sorted(record.rosters[discipline])
    rng.shuffle(lots)
    record.lots[discipline] = {"A": lots[:5], "B": lots[5:]}
    groups = [{"name": name, "entry_ids": ids} for name, ids in record.lots[discipline].items()]
    driver.physical_draw(event_id, {"groups": groups})
    record.draws[discipline] = driver.draw(event_id)
    for number in range(1, GROUP_ROUNDS + 1):
        driver.at(f"2016-03-{23 + (number - 1) // 2}T{13 + 2 * ((number - 1) % 2)}:50")
        _play_round_robin_round(
            driver,
            record,
            f"{discipline}/main",
            stage_path=f"/events/{event_id}",
            number=number,
            rng=rng,
            strength=strength,
        )
    record.refuse(
        f"{discipline}-round-{GROUP_ROUNDS + 1}",
        "a round past the Berger tables of six",
        driver.generate_round,
        event_id,
        GROUP_ROUNDS + 1,
    )
    record.standings[f"{discipline}/main"] = driver.standings(event_id, stage="main")
    driver.at("2016-03-25T13:00")
    final = f"/events/{event_id}/stages/final"
    record.commitments[f"{discipline}/final"] = driver.call(
        "POST", f"{final}/draw/commitment", headers=driver.union
    )["commitment"]
    driver.call("POST", f"{final}/draw", headers=driver.union)
    record.draws[f"{discipline}/final"] = driver.call("GET", f"{final}/draw")
    for number in range(1, FINAL_ROUNDS + 1):
        driver.at(f"2016-03-25T{12 + 2 * number}:00")
        _play_round_robin_round(
            driver,
            record,
            f"{discipline}/final",
            stage_path=final,
            number=number,
            rng=rng,
            strength=strength,
        )
    record.standings[f"{discipline}/final"] = driver.standings(event_id, stage="final")
    record.awards[discipline] = driver.awards(event_id)
    driver.say(f"{discipline}: two groups of five, a final of four, places 1–4 awarded")


def _play_round_robin_round(
    driver: Driver,
    record: HljuRecord,
    key: str,
    *,
    stage_path: str,
    number: int,
    rng: random.Random,
    strength: dict[int, float],
) -> None:
    base = f"{stage_path}/rounds/{number}"
    driver.call("POST", f"{base}/generate", json={}, headers=driver.referee)
    driver.call("POST", f"{base}/publish", headers=driver.referee)
    started = driver.call("POST", f"{base}/start", headers=driver.referee)
    record.started.setdefault(key, []).append(started)
    for table in started["tables"]:
        first, second = table["seats"]["first"]["entry_id"], table["seats"]["second"]["entry_id"]
        match = play_match(rng, strength, first, second)
        answer: dict[str, Any] = {}
        for game_no, result in enumerate(match.games, start=1):
            body = {"game_no": game_no, "result": result}
            answer = driver.call(
                "POST", f"/games/{table['game_id']}/match-games", json=body, headers=driver.referee
            )
        for side in ("NS", "EW"):
            driver.call(
                "POST",
                f"/games/{table['game_id']}/confirmations",
                json={"side": side},
                headers=driver.referee,
            )
        record.matches.setdefault(key, []).append(MatchTable(number, table, match, answer))
    driver.call("POST", f"{base}/finish", headers=driver.referee)


# --- Guandan ----------------------------------------------------------------------------------


def play_guandan(driver: Driver, record: HljuRecord) -> None:
    """The pairs knockout, every deal posted by the table's scoring form: the round-1 game runs
    to a time-up tie, the next passes A (both 掼蛋 §1), and on the last day one pair of the
    third-place match comes 16 minutes late (四.2 迟到15分钟以上的，按弃权处理)."""
    event_id = record.events[GUANDAN]
    rng = random.Random("seed-004-guandan")  # noqa: S311 - a reproducible simulation
    driver.at("2016-03-23T13:00")
    record.commitments[GUANDAN], record.draws[GUANDAN] = draw(driver, event_id)
    wishes = ["extra-deal", "passed-a"]
    semi_losers: set[int] = set()
    for number in (1, 2, 3):
        driver.at(f"2016-03-{22 + number}T13:50")
        driver.generate_round(event_id, number)
        driver.publish_round(event_id, number)
        started = driver.start_round(event_id, number)
        record.rounds[number] = started
        tokens = driver.scorer_tokens(started["id"])
        tables = started["tables"]
        late = next(
            (t["seats"]["E"]["entry_id"] for t in tables if t["seats"]["N"]["entry_id"] in semi_losers), None
        )
        if late is not None:
            record.late = late
        arrived = [t["seats"][seat]["entry_id"] for t in tables for seat in "NE"]
        check_in = {"entry_ids": [e for e in arrived if e != late]}
        driver.call("POST", f"/rounds/{started['id']}/check-ins", json=check_in, headers=driver.referee)
        driver.at(f"2016-03-{22 + number}T14:06")
        record.missing[number] = driver.call(
            "GET",
            f"/rounds/{started['id']}/check-ins/missing",
            params={"at": "late-limit"},
            headers=driver.referee,
        )
        losers: set[int] = set()
        for table in tables:
            ns, ew = table["seats"]["N"]["entry_id"], table["seats"]["E"]["entry_id"]
            game_id, token = table["game_id"], tokens[table["game_id"]]
            if ew == late:
                driver.forfeit(game_id, "EW", reason="late_arrival", note="16 minutes late")
                record.guandan.append(
                    GuandanTable(number, table, None, None, driver.confirm_both(game_id, token))
                )
                continue
            play = simulate_guandan(rng, want=wishes.pop(0) if wishes else None)
            at_time = None
            for deal_no, order in enumerate(play.orders, start=1):
                if play.time_up_after is not None and deal_no == play.time_up_after + 1:
                    # 时间终了 … 同级加赛一次: the form hears that one more deal decides
                    at_time = driver.time_up(game_id, token, deals_completed=play.time_up_after)
                driver.post_deal(game_id, token, deal_no, list(order))
            if play.reason == "higher-level":
                driver.time_up(game_id, token, deals_completed=play.time_up_after)
            answer = driver.confirm_both(game_id, token)
            record.guandan.append(GuandanTable(number, table, play, at_time, answer))
            losers.add(ew if play.winner == "NS" else ns)
        driver.finish_round(event_id, number)
        if number == 2:
            semi_losers = losers  # the third-place match
        driver.say(f"guandan round {number}: {len(tables)} games")
    record.standings[GUANDAN] = driver.standings(event_id)
    record.awards[GUANDAN] = driver.awards(event_id)


# --- Gongzhu ----------------------------------------------------------------------------------


def play_gongzhu(driver: Driver, record: HljuRecord) -> None:
    """Tables of four played to ±1000 (拱猪 §7), the top two of each table (and the byes) on to
    the next round until four players sit at the final table."""
    event_id = record.events[GONGZHU]
    rng = random.Random("seed-004-gongzhu")  # noqa: S311 - a reproducible simulation
    skill = {e: rng.uniform(0.6, 1.4) for e in sorted(record.rosters[GONGZHU])}
    driver.at("2016-03-23T13:00")
    record.commitments[GONGZHU], record.draws[GONGZHU] = draw(driver, event_id)
    still_in = set(record.rosters[GONGZHU])
    for number in (1, 2, 3):
        driver.at(f"2016-03-{22 + number}T13:50")
        driver.generate_round(event_id, number)
        driver.publish_round(event_id, number)
        started = driver.start_round(event_id, number)
        record.started.setdefault(GONGZHU, []).append(started)
        through = {m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"]}
        for table in started["tables"]:
            players = {seat: table["seats"][seat]["entry_id"] for seat in "NESW"}
            played = play_table(rng, players, skill)
            scores = []
            for hand_no, hand in enumerate(played.hands, start=1):
                body = {"hand_no": hand_no, "captured": hand.captured, "exposed": hand.exposed}
                posted = driver.call(
                    "POST", f"/games/{table['game_id']}/hands", json=body, headers=driver.referee
                )
                scores.append(posted["hands"][-1]["scores"])
            answer = driver.call("GET", f"/games/{table['game_id']}")
            for side in ("NS", "EW"):
                driver.call(
                    "POST",
                    f"/games/{table['game_id']}/confirmations",
                    json={"side": side},
                    headers=driver.referee,
                )
            record.gongzhu.append(GongzhuPlayed(number, table, played, scores, answer))
            through |= set(played.ranking()[:2])
        driver.finish_round(event_id, number)
        driver.say(f"gongzhu round {number}: {len(started['tables'])} tables of four")
        if len(still_in) == 4:
            break
        still_in = through
    record.standings[GONGZHU] = driver.standings(event_id)
    record.awards[GONGZHU] = driver.awards(event_id)


def run(driver: Driver) -> HljuRecord:
    record = register(driver)
    driver.say(f"seed 004: competition {record.competition_id}, four events, {len(record.entries)} entries")
    play_round_robin(driver, record, XIANGQI)
    play_round_robin(driver, record, GO)
    play_guandan(driver, record)
    play_gongzhu(driver, record)
    return record
