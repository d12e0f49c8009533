"""Seed 004's games simulated as its tables play them, and the seed's own scoring re-stated.

Written from the notices (seeds/004: 三局两胜制, 掼蛋比赛规则, 拱猪比赛规则), not from ``domain.rules``:
``seed_004`` uses it to decide what the referees and scoring forms post, and the scenario tests
to compute, independently of the service, what each game is worth.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from zhisai.scenarios.simulate import random_order

# --- chess and Go: best of 3 (seed 004 三.1 三局两胜制) ----------------------------------------


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
        if self.passed_a is not None:
            raise ValueError("no deal after a side passed A")
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
