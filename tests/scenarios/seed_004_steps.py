"""Seed 004 (HLJU 2016 教职工智力赛) specifics: the four events, simulated play, and the seed's
rules re-stated here so the expected placements never come from the service's own code.

Nothing in this module imports ``domain``: levels, matches, Gongzhu scores and knockout places
are computed from the seed's text (the readings the presets document where the text is ambiguous).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.scenarios.driver import ApiError, Driver
from tests.scenarios.simulate import random_order

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
PLAYERS_PER_DEPARTMENT = {XIANGQI: 2, GO: 2, GUANDAN: 2, GONGZHU: 2}
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


# --- registration: the four events of one competition ---------------------------------------


@dataclass
class Hlju:
    """The registered competition: event ids and, per event, entry id → (department, players)."""

    competition_id: int
    events: dict[str, int]
    entries: dict[str, dict[int, tuple[str, tuple[str, ...]]]]
    refusals: dict[str, tuple[int, str | None]]
    """what the union system tried that the seed forbids → (status, rule)"""


def register(driver: Driver, *, playing: str | None = None) -> Hlju:
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
    entries: dict[str, dict[int, tuple[str, tuple[str, ...]]]] = {d: {} for d in events}
    refusals: dict[str, tuple[int, str | None]] = {}
    for discipline, event_id in events.items():
        if playing is not None and discipline != playing:
            continue
        if discipline == GO and playing is None:
            # §一.3 不得兼报: a chess player cannot also play Go (MATH's Go places are still free)
            refusals["second-event"] = refusal(driver, event_id, "MATH", [staff_id("MATH", 1)])
        for code, _name in DEPARTMENTS:
            players = [staff_id(code, n) for n in roster_of(discipline)]
            for roster in [players] if discipline == GUANDAN else [[p] for p in players]:
                name = "·".join(member_name(code, p) for p in roster)
                entry_id = driver.enter(event_id, branch_code=code, roster=roster, name=name)
                entries[discipline][entry_id] = (code, tuple(roster))
    if playing is not None:
        driver.at("2016-03-22T17:30")
        for event_id in events.values():
            driver.transition(event_id, "registration_closed")
        return Hlju(competition_id, events, entries, refusals)
    # §一.2 象棋限报两人: a third chess player of a department
    refusals["third-chess-player"] = refusal(driver, events[XIANGQI], "MATH", [staff_id("MATH", 9)])
    # §一.2 掼蛋报一队: a second pair of a department
    refusals["second-guandan-pair"] = refusal(
        driver, events[GUANDAN], "PHYS", [staff_id("PHYS", 9), staff_id("PHYS", 10)]
    )
    driver.at("2016-03-22T17:30")
    refusals["after-the-deadline"] = refusal(driver, events[GONGZHU], "HIST", [staff_id("HIST", 9)])
    for event_id in events.values():
        driver.transition(event_id, "registration_closed")
    return Hlju(competition_id, events, entries, refusals)


def refusal(driver: Driver, event_id: int, code: str, roster: list[str]) -> tuple[int, str | None]:
    """The status and rule of an entry the seed forbids ((201, None) if it was accepted)."""
    try:
        driver.create_entry(event_id, branch_code=code, roster=roster)
    except ApiError as refused:
        return refused.status, refused.rule
    return 201, None


def member_name(code: str, staff: str) -> str:
    name = dict(DEPARTMENTS)[code]
    return f"{name[:2]}教工{int(staff.rsplit('-', 1)[1])}"


def draw(driver: Driver, event_id: int) -> dict[str, Any]:
    """The lot (抽签, seed 004 三.1): the seed's hash is public before the draw, the seed after."""
    commitment = driver.commit_draw(event_id)["commitment"]
    driver.run_draw(event_id)
    public = driver.draw(event_id)
    assert hashlib.sha256(public["seed"].encode()).hexdigest() == commitment
    result: dict[str, Any] = public["result"]
    return result


# --- chess and Go: best of 3 (seed 004 三.1 三局两胜制) ----------------------------------------

# FIDE Handbook C.05 Annex 1, the Berger tables as printed (the first-named has white / moves
# first); with an odd count the highest number is the bye. 对阵顺序抽签决定: the lot gives the numbers.
BERGER = {
    4: ((1, 4, 2, 3), (4, 3, 1, 2), (2, 4, 3, 1)),
    6: ((1, 6, 2, 5, 3, 4), (6, 4, 5, 3, 1, 2), (2, 6, 3, 1, 4, 5), (6, 5, 1, 4, 2, 3), (3, 6, 4, 2, 5, 1)),
}


def berger_round(drawn: Sequence[int], number: int) -> tuple[set[tuple[int, int]], int | None]:
    """Round ``number`` of a group whose drawn order is ``drawn``: (first, second) meetings, bye."""
    size = len(drawn) + len(drawn) % 2
    flat = BERGER[size][number - 1]
    meetings: set[tuple[int, int]] = set()
    bye = None
    for a, b in zip(flat[::2], flat[1::2], strict=True):
        if max(a, b) > len(drawn):
            bye = drawn[min(a, b) - 1]
        else:
            meetings.add((drawn[a - 1], drawn[b - 1]))
    return meetings, bye


WIN, DRAW, LOSS = "1-0", "½-½", "0-1"
GAME_HALVES = {WIN: (2, 0), DRAW: (1, 1), LOSS: (0, 2)}


@dataclass(frozen=True)
class MatchPlayed:
    first: int
    second: int
    games: tuple[str, ...]  # from the first-named player's view

    @property
    def halves(self) -> tuple[int, int]:
        a = sum(GAME_HALVES[g][0] for g in self.games)
        return a, 2 * len(self.games) - a

    @property
    def winner(self) -> int | None:
        a, b = self.halves
        return self.first if a > b else self.second if b > a else None


def play_match(rng: random.Random, strength: Mapping[int, float], first: int, second: int) -> MatchPlayed:
    """Games until one player leads by more than the games left (2 wins of 3), else all three."""
    games: list[str] = []
    while len(games) < 3:
        edge = strength[first] - strength[second]
        draw_chance = 0.12
        win_chance = (1 - draw_chance) / (1 + 10 ** (-edge / 400))
        roll = rng.random()
        games.append(WIN if roll < win_chance else DRAW if roll < win_chance + draw_chance else LOSS)
        a, b = MatchPlayed(first, second, tuple(games)).halves
        if abs(a - b) > 2 * (3 - len(games)):
            break
    return MatchPlayed(first, second, tuple(games))


def round_robin_ranking(players: Sequence[int], matches: Sequence[MatchPlayed]) -> list[list[int]]:
    """Places of a round robin as blocks (a block of more than one is an unresolved tie).

    Match points 2/1/0 (seed 004 names none; the hlju-2016 chess/Go presets read them), then the
    mutual matches among the tied (again among those still tied), then the game-point difference.
    """

    def match_points(pool: Sequence[int], among: set[int] | None) -> dict[int, int]:
        points = dict.fromkeys(pool, 0)
        for m in matches:
            if among is not None and not {m.first, m.second} <= among:
                continue
            for player in (m.first, m.second):
                if player in points:
                    points[player] += 2 if m.winner == player else 1 if m.winner is None else 0
        return points

    difference = dict.fromkeys(players, 0)
    for m in matches:
        a, b = m.halves
        difference[m.first] += a - b
        difference[m.second] += b - a

    def split(block: list[int], key: Mapping[int, int]) -> list[list[int]]:
        values = sorted({key[p] for p in block}, reverse=True)
        return [sorted(p for p in block if key[p] == v) for v in values]

    def order(block: list[int], *, first_key: bool) -> list[list[int]]:
        if len(block) == 1:
            return [block]
        parts = split(block, match_points(block, None if first_key else set(block)))
        if len(parts) > 1:
            return [b for part in parts for b in order(part, first_key=False)]
        if first_key:
            return order(block, first_key=False)
        parts = split(block, difference)
        return parts if len(parts) > 1 else [block]

    return order(list(players), first_key=True)


# --- Guandan (掼蛋比赛规则) ---------------------------------------------------------------------

SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
ACE = 14


@dataclass
class Levels:
    """Both sides' levels deal by deal under 掼蛋 §1–2: 2→A, up 3/2/1 by the partner's place;
    at the side's own A a deal passes when neither of its players is last (只要己方不出现末游, the
    hlju-2016 preset's literal reading); three failed deals at A send the side back to 2."""

    levels: dict[str, int] = field(default_factory=lambda: {"NS": 2, "EW": 2})
    failures: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    declarer: str | None = None
    passed_a: str | None = None

    def deal(self, order: str) -> None:
        assert self.passed_a is None, "no deal after a side passed A"
        first = SIDE[order[0]]
        up = 3 if SIDE[order[1]] == first else 2 if SIDE[order[2]] == first else 1
        at_a = self.declarer if self.declarer and self.levels[self.declarer] == ACE else None
        if at_a and SIDE[order[3]] != at_a:
            self.passed_a = at_a
            return
        self.levels[first] = min(ACE, self.levels[first] + up)
        if at_a:
            self.failures[at_a] += 1
            if self.failures[at_a] == 3:
                self.levels[at_a] = 2
        for side, level in self.levels.items():
            if level != ACE:
                self.failures[side] = 0
        self.declarer = first


@dataclass(frozen=True)
class GuandanGame:
    orders: list[str]
    time_up_after: int | None  # deals completed at time (the deal in hand finished); None: passed A
    levels_at_time: dict[str, int] | None
    winner: str  # NS or EW
    reason: str  # passed-a, higher-level, extra-deal
    levels: dict[str, int]  # after the last deal


def simulate_guandan(rng: random.Random, *, want: str | None = None) -> GuandanGame:
    """A 60-minute game (掼蛋 §1 每局比赛时间为60分钟) of random finishing orders, 7–11 deals in the
    time; the deal in hand at time is finished and counts (必须将当次牌打完); equal levels then play
    one extra deal whose first finisher's side wins (同级加赛一次，先升级的为获胜方), unless its
    declarer passes A in it. ``want`` draws again until the game ends that way."""
    while True:
        in_time = rng.randint(7, 11)
        stronger = rng.choice(("NS", "EW"))
        state = Levels()
        orders: list[str] = []
        while state.passed_a is None and len(orders) < in_time:
            orders.append("".join(random_order(rng, favour=stronger, bias=0.6)))
            state.deal(orders[-1])
        if state.passed_a is not None:
            game = GuandanGame(orders, None, None, state.passed_a, "passed-a", dict(state.levels))
        elif state.levels["NS"] != state.levels["EW"]:
            winner = max(state.levels, key=lambda side: state.levels[side])
            game = GuandanGame(
                orders, in_time, dict(state.levels), winner, "higher-level", dict(state.levels)
            )
        else:
            at_time = dict(state.levels)
            orders.append("".join(random_order(rng)))
            state.deal(orders[-1])
            if state.passed_a is not None:
                game = GuandanGame(orders, in_time, at_time, state.passed_a, "passed-a", dict(state.levels))
            else:
                game = GuandanGame(
                    orders, in_time, at_time, SIDE[orders[-1][0]], "extra-deal", dict(state.levels)
                )
        if want is None or game.reason == want:
            return game


def knockout_places(slots: Sequence[int | None], winner_of: Mapping[frozenset[int], int]) -> list[int]:
    """Places 1–4 of a bracket with a third-place match (掼蛋 §1 最后角逐一、二、三、四名)."""
    alive: list[int | None] = list(slots)
    semi_losers: list[int] = []
    while len(alive) > 2:
        nxt: list[int | None] = []
        for a, b in zip(alive[::2], alive[1::2], strict=True):
            if a is None or b is None:
                nxt.append(a if b is None else b)
                continue
            w = winner_of[frozenset((a, b))]
            nxt.append(w)
            if len(alive) == 4:
                semi_losers.append(b if w == a else a)
        alive = nxt
    a, b = alive
    assert a is not None and b is not None
    champion = winner_of[frozenset((a, b))]
    third = winner_of[frozenset(semi_losers)]
    return [champion, b if champion == a else a, third, next(p for p in semi_losers if p != third)]


# --- Gongzhu (拱猪比赛规则) ---------------------------------------------------------------------

SUITS = "SHCD"
RANKS = "23456789TJQKA"
DECK = [s + r for s in SUITS for r in RANKS]
PIG, SHEEP, TRANSFORMER, HEART_ACE = "SQ", "DJ", "CT", "HA"
EXPOSABLE = (PIG, SHEEP, TRANSFORMER, HEART_ACE)
HEART_POINTS = dict(zip(RANKS, (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50), strict=True))
SCORING = {*(f"H{r}" for r in RANKS), PIG, SHEEP, TRANSFORMER}


def gongzhu_score(pile: set[str], exposed: set[str]) -> int:
    """拱猪 §2–6 with the hlju-2016-gongzhu readings: the sheep is J♦; 10♣ doubles the holder's
    other scoring cards (×4 exposed) or is +50 (+100) alone; 满红 +200 replaces the hearts;
    满贯 = (200 + 100 + 100) × 2 with every exposure doubling its own part."""
    shown = set(EXPOSABLE) if len(exposed) >= 3 else exposed

    def times(card: str) -> int:
        return 2 if card in shown else 1

    hearts = [c for c in pile if c[0] == "H"]
    slam = pile >= SCORING
    heart_part = 200 if len(hearts) == 13 else sum(HEART_POINTS[c[1]] for c in hearts)
    total = heart_part * times(HEART_ACE)
    if PIG in pile:
        total += (100 if slam else -100) * times(PIG)
    if SHEEP in pile:
        total += 100 * times(SHEEP)
    if TRANSFORMER not in pile:
        return total
    if not hearts and PIG not in pile and SHEEP not in pile:
        return 50 * times(TRANSFORMER)
    return total * 2 * times(TRANSFORMER)


@dataclass(frozen=True)
class Hand:
    captured: dict[str, list[str]]  # seat → cards taken in its tricks
    exposed: list[str]
    scores: dict[str, int]


def simulate_hand(rng: random.Random, skill: Mapping[str, float]) -> Hand:
    """A hand as the referee records it: 13 tricks of 4 cards, each taken by one seat; a weaker
    player takes more of the scoring tricks. Now and then a special card is exposed (亮牌)."""
    deck = DECK[:]
    rng.shuffle(deck)
    captured: dict[str, list[str]] = {seat: [] for seat in skill}
    seats = list(skill)
    for trick in range(13):
        cards = deck[4 * trick : 4 * trick + 4]
        bad = any(c in SCORING and c != SHEEP for c in cards)
        weights = [(2.0 - skill[s]) if bad else skill[s] for s in seats]
        captured[rng.choices(seats, weights)[0]].extend(cards)
    exposed = [c for c in EXPOSABLE if rng.random() < 0.15]
    shown = set(exposed)
    scores = {seat: gongzhu_score(set(pile), shown) for seat, pile in captured.items()}
    return Hand(captured, exposed, scores)


@dataclass
class GongzhuTable:
    players: dict[str, int]  # seat → entry id
    hands: list[Hand] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        totals: dict[str, int] = defaultdict(int)
        for hand in self.hands:
            for seat, score in hand.scores.items():
                totals[seat] += score
        return {seat: totals[seat] for seat in self.players}

    @property
    def over(self) -> bool:
        # 拱猪 §7: 每局累计计分正负1000分为一局
        return any(abs(t) >= 1000 for t in self.totals().values())

    def ranking(self) -> list[int]:
        totals = self.totals()
        ordered = sorted(self.players, key=lambda seat: -totals[seat])
        return [self.players[seat] for seat in ordered]

    def tied(self) -> bool:
        values = list(self.totals().values())
        return len(set(values)) < len(values)


def play_table(rng: random.Random, players: Mapping[str, int], skill: Mapping[int, float]) -> GongzhuTable:
    """Hands until a total reaches ±1000, with no tie among the totals (a tie would need the
    referee; the scenario draws again)."""
    while True:
        table = GongzhuTable(dict(players))
        while not table.over:
            table.hands.append(simulate_hand(rng, {seat: skill[e] for seat, e in players.items()}))
        if not table.tied():
            return table


def pairs_of(groups: Sequence[Sequence[int]]) -> set[frozenset[int]]:
    return {frozenset(p) for g in groups for p in itertools.combinations(g, 2)}
