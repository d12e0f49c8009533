"""Seed 004 (HLJU 2016 教职工智力赛) end to end over HTTP: one competition, four events.

象棋 and 围棋: two players per department, groups by lot, Berger round robin, best of 3 with the
first move alternating, the top two of each group into a final round robin (a new lot), places
1–4. 掼蛋: one pair per department, knockout, 60-minute single games finished at time with one
extra deal on equal levels, a third-place match, places 1–4. 拱猪: two players per department,
tables of four played to ±1000, the top two of each table go on to a final table, places 1–4.
A member enters one event only (§一.3 不得兼报).

Every expectation is computed here from the posted results and the seed's rules
(``seed_004_steps``), never read back from the service.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tests.scenarios import seed_004_steps as hlju
from tests.scenarios.driver import ApiError, Driver

FINAL_DRAW_PATH = "/api/v1/events/{event_id}/stages/{stage}/draw"


# --- registration ---------------------------------------------------------------------------


def test_one_competition_four_events_quotas_and_one_event_per_member(driver: Driver) -> None:
    competition = hlju.register(driver)
    body = driver.call("GET", f"/competitions/{competition.competition_id}")
    assert body["one_event_per_member"] is True
    assert sorted(e["discipline"] for e in body["events"]) == sorted(hlju.event_bodies())
    for discipline, event_id in competition.events.items():
        listed = driver.entries(event_id, status="confirmed")
        per_department = Counter(e["branch_code"] for e in listed)
        expected = 1 if discipline == hlju.GUANDAN else 2  # §一.2 entries per department
        assert per_department == {code: expected for code, _ in hlju.DEPARTMENTS}, discipline
    # §一.3 不得兼报; §一.2 象棋限报两人, 掼蛋报一队; §二.1 报名 3月22日下班前
    assert competition.refusals["second-event"] == (422, "one-event-per-member")
    assert competition.refusals["third-chess-player"] == (422, "quota")
    assert competition.refusals["second-guandan-pair"] == (422, "quota")
    assert competition.refusals["after-the-deadline"] == (409, "registration-window")
    # nobody plays two events
    rostered = Counter(
        p for event in competition.entries.values() for _, roster in event.values() for p in roster
    )
    assert max(rostered.values()) == 1


# --- chess and Go -----------------------------------------------------------------------------


def play_group_stage(
    driver: Driver, discipline: str
) -> tuple[hlju.Hlju, dict[str, list[int]], list[hlju.MatchPlayed], random.Random, dict[int, float]]:
    """Draws the groups and plays every Berger round, each meeting a best of 3 scored by the
    referee game by game; answers the groups as drawn and the matches as played."""
    competition = hlju.register(driver, playing=discipline)
    event_id = competition.events[discipline]
    rng = random.Random(f"seed-004-{discipline}")
    strength = {entry_id: rng.gauss(1500, 150) for entry_id in sorted(competition.entries[discipline])}
    driver.at("2016-03-23T13:00")
    # 抽签 on site: the referee records the lots drawn in the hall (the order in a group is the
    # Berger number, 对阵顺序抽签决定)
    lots = sorted(competition.entries[discipline])
    rng.shuffle(lots)
    recorded = {"groups": [{"name": "A", "entry_ids": lots[:5]}, {"name": "B", "entry_ids": lots[5:]}]}
    driver.physical_draw(event_id, recorded)
    groups = {name: list(ids) for name, ids in driver.draw(event_id)["result"]["groups"].items()}
    assert groups == {"A": lots[:5], "B": lots[5:]}
    assert sorted(i for ids in groups.values() for i in ids) == sorted(competition.entries[discipline])
    assert sorted(len(ids) for ids in groups.values()) == [5, 5]  # ten players by lot
    played: list[hlju.MatchPlayed] = []
    rounds = 5  # five players: the Berger tables of six, one bye a round
    for number in range(1, rounds + 1):
        driver.at(f"2016-03-{23 + (number - 1) // 2}T{13 + 2 * ((number - 1) % 2)}:50")
        played.extend(
            play_round_robin_round(driver, event_id, number, rng=rng, strength=strength, groups=groups)
        )
    with pytest.raises(ApiError):  # the Berger tables of six have five rounds
        driver.generate_round(event_id, rounds + 1)
    return competition, groups, played, rng, strength


def play_round_robin_round(
    driver: Driver,
    event_id: int,
    number: int,
    *,
    rng: random.Random,
    strength: dict[int, float],
    groups: dict[str, list[int]],
    stage_path: str = "",
) -> list[hlju.MatchPlayed]:
    base = f"/events/{event_id}{stage_path}/rounds/{number}"
    driver.call("POST", f"{base}/generate", json={}, headers=driver.referee)
    driver.call("POST", f"{base}/publish", headers=driver.referee)
    started = driver.call("POST", f"{base}/start", headers=driver.referee)
    for name, drawn in groups.items():  # the Berger tables in the drawn order
        meetings, bye = hlju.berger_round(drawn, number)
        tables = [t for t in started["tables"] if t["group"] == name]
        assert {
            (t["seats"]["first"]["entry_id"], t["seats"]["second"]["entry_id"]) for t in tables
        } == meetings
        byes = [m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"] and m["group"] == name]
        assert byes == ([bye] if bye else [])
    played = []
    for table in started["tables"]:
        first, second = table["seats"]["first"]["entry_id"], table["seats"]["second"]["entry_id"]
        # 三局两胜制 with the first move alternating game by game
        assert table["first_movers"] == ["first", "second", "first"]
        match = hlju.play_match(rng, strength, first, second)
        for game_no, result in enumerate(match.games, start=1):
            body = {"game_no": game_no, "result": result}
            game = driver.call(
                "POST", f"/games/{table['game_id']}/match-games", json=body, headers=driver.referee
            )
        assert game["state"] == "ended", game
        expected_winner = {match.first: "NS", match.second: "EW"}.get(match.winner or 0)
        assert game["winner"] == expected_winner
        for side in ("NS", "EW"):
            driver.call(
                "POST",
                f"/games/{table['game_id']}/confirmations",
                json={"side": side},
                headers=driver.referee,
            )
        played.append(match)
    driver.call("POST", f"{base}/finish", headers=driver.referee)
    return played


def expected_ranks(players: list[int], matches: list[hlju.MatchPlayed]) -> dict[int, int]:
    ranks, above = {}, 0
    for block in hlju.round_robin_ranking(
        players, [m for m in matches if {m.first, m.second} <= set(players)]
    ):
        for player in block:
            ranks[player] = above + 1
        above += len(block)
    return ranks


@pytest.mark.parametrize("discipline", [hlju.XIANGQI, hlju.GO])
def test_group_round_robin_best_of_three_top_two_of_each_group(driver: Driver, discipline: str) -> None:
    competition, groups, played, _, _ = play_group_stage(driver, discipline)
    event_id = competition.events[discipline]
    # every pair of a group met exactly once (单循环), and nobody met across groups
    assert {frozenset((m.first, m.second)) for m in played} == hlju.pairs_of(list(groups.values()))
    assert len(played) == 2 * 10
    table = {g["group"]: g["rows"] for g in driver.standings(event_id, stage="main")["groups"]}
    for name, players in groups.items():
        expected = expected_ranks(players, played)
        # the seed's cut is clear-cut in this simulation: exactly two players above it
        assert sorted(expected.values())[:3] == [1, 2, 3], (name, expected)
        assert {row["entry_id"]: row["rank"] for row in table[name]} == expected, name


@pytest.mark.parametrize("discipline", [hlju.XIANGQI, hlju.GO])
def test_final_round_robin_of_the_group_winners_gives_places_one_to_four(
    driver: Driver, discipline: str
) -> None:
    # the contract first: without a final-stage draw there is nothing to play the groups for
    paths = driver.call("GET", "/openapi.json")["paths"]
    assert FINAL_DRAW_PATH in paths, sorted(p for p in paths if "draw" in p)
    competition, groups, played, rng, strength = play_group_stage(driver, discipline)
    event_id = competition.events[discipline]
    qualified = set()
    for players in groups.values():
        ranks = expected_ranks(players, played)
        qualified |= {p for p, rank in ranks.items() if rank <= 2}
    driver.at("2016-03-25T13:00")
    # the final stage is drawn by a new lot (对阵顺序抽签决定)
    driver.call("POST", f"/events/{event_id}/stages/final/draw/commitment", headers=driver.union)
    driver.call("POST", f"/events/{event_id}/stages/final/draw", headers=driver.union)
    final_draw = driver.call("GET", f"/events/{event_id}/stages/final/draw")
    final_groups = {name: list(ids) for name, ids in final_draw["result"]["groups"].items()}
    assert sorted(i for ids in final_groups.values() for i in ids) == sorted(qualified)
    final: list[hlju.MatchPlayed] = []
    for number in (1, 2, 3):
        driver.at(f"2016-03-25T{12 + 2 * number}:00")
        final.extend(
            play_round_robin_round(
                driver,
                event_id,
                number,
                rng=rng,
                strength=strength,
                groups=final_groups,
                stage_path="/stages/final",
            )
        )
    assert {frozenset((m.first, m.second)) for m in final} == hlju.pairs_of([sorted(qualified)])
    places = expected_ranks(sorted(qualified), final)
    rows = [row for g in driver.standings(event_id, stage="final")["groups"] for row in g["rows"]]
    assert {row["entry_id"]: row["rank"] for row in rows} == places
    awards = driver.awards(event_id)["awards"]
    assert {a["entry_id"]: a["rank"] for a in awards} == places


# --- Guandan ----------------------------------------------------------------------------------


def play_guandan(driver: Driver) -> tuple[list[int], list[dict[str, Any]], int]:
    """The pairs knockout, every deal posted by the table's scoring form; answers the places 1–4
    expected from the seed's rules, the games as the service ended them, and the event id."""
    competition = hlju.register(driver, playing=hlju.GUANDAN)
    event_id = competition.events[hlju.GUANDAN]
    rng = random.Random("seed-004-guandan")
    driver.at("2016-03-23T13:00")
    brackets = hlju.draw(driver, event_id)["brackets"]
    assert len(brackets) == 1
    slots: list[int | None] = brackets[0]["slots"]
    assert len(slots) == 8 and slots.count(None) == 3  # five pairs, three byes
    assert sorted(s for s in slots if s is not None) == sorted(competition.entries[hlju.GUANDAN])
    winner_of: dict[frozenset[int], int] = {}
    games: list[dict[str, Any]] = []
    alive: list[int | None] = list(slots)
    semi_losers: list[int] = []
    # the round-1 game runs to a time-up tie, the next game passes A (both 掼蛋 §1)
    wishes = ["extra-deal", "passed-a"]
    for number in (1, 2, 3):
        driver.at(f"2016-03-{22 + number}T13:50")
        driver.generate_round(event_id, number)
        driver.publish_round(event_id, number)
        started = driver.start_round(event_id, number)
        tokens = driver.scorer_tokens(started["id"])
        meetings = {frozenset((a, b)) for a, b in zip(alive[::2], alive[1::2], strict=True) if a and b}
        if number == 3:
            meetings.add(frozenset(semi_losers))  # 最后角逐一、二、三、四名: the third-place match
        tables = started["tables"]
        assert {
            frozenset((t["seats"]["N"]["entry_id"], t["seats"]["E"]["entry_id"])) for t in tables
        } == meetings
        # 四.2 迟到15分钟以上的，按弃权处理: on the last day one pair of the third-place match is late
        late = next(
            (
                t["seats"]["E"]["entry_id"]
                for t in tables
                if number == 3 and t["seats"]["N"]["entry_id"] in semi_losers
            ),
            None,
        )
        arrived = [t["seats"][seat]["entry_id"] for t in tables for seat in "NE"]
        check_in = {"entry_ids": [e for e in arrived if e != late]}
        driver.call("POST", f"/rounds/{started['id']}/check-ins", json=check_in, headers=driver.referee)
        driver.at(f"2016-03-{22 + number}T14:06")
        missing = driver.call(
            "GET",
            f"/rounds/{started['id']}/check-ins/missing",
            params={"at": "late-limit"},
            headers=driver.referee,
        )
        assert missing["late_forfeit_minutes"] == 15
        assert [m["entry_id"] for m in missing["missing"]] == ([late] if late else [])
        for table in tables:
            ns, ew = table["seats"]["N"]["entry_id"], table["seats"]["E"]["entry_id"]
            game_id, token = table["game_id"], tokens[table["game_id"]]
            if ew == late:
                driver.forfeit(game_id, "EW", reason="late_arrival", note="16 minutes late")
                game = driver.confirm_both(game_id, token)
                assert (game["winner"], game["reason"]) == ("NS", "forfeit")
                games.append(game)
                winner_of[frozenset((ns, ew))] = ns
                continue
            play = hlju.simulate_guandan(rng, want=wishes.pop(0) if wishes else None)
            for deal_no, order in enumerate(play.orders, start=1):
                if play.time_up_after is not None and deal_no == play.time_up_after + 1:
                    # 时间终了 … 同级加赛一次: the form hears that one more deal decides
                    tied = driver.time_up(game_id, token, deals_completed=play.time_up_after)
                    assert (tied["status"], tied["reason"]) == ("extra_deal_required", "equal-levels")
                    assert play.levels_at_time is not None
                    assert tied["ns"]["level"] == tied["ew"]["level"] == play.levels_at_time["NS"]
                driver.post_deal(game_id, token, deal_no, list(order))
            if play.reason == "higher-level":
                driver.time_up(game_id, token, deals_completed=play.time_up_after)
            game = driver.confirm_both(game_id, token)
            assert (game["winner"], game["reason"]) == (play.winner, play.reason), (table, play)
            assert (game["ns"]["level"], game["ew"]["level"]) == (play.levels["NS"], play.levels["EW"])
            games.append(game)
            winner_of[frozenset((ns, ew))] = ns if play.winner == "NS" else ew
        driver.finish_round(event_id, number)
        if number < 3:
            nxt: list[int | None] = []
            for a, b in zip(alive[::2], alive[1::2], strict=True):
                winner = a if b is None else b if a is None else winner_of[frozenset((a, b))]
                nxt.append(winner)
                if number == 2 and a and b:
                    semi_losers.append(b if winner == a else a)
            alive = nxt
    assert {g["reason"] for g in games} >= {"extra-deal", "passed-a", "forfeit"}
    return hlju.knockout_places(slots, winner_of), games, event_id


def test_guandan_knockout_single_games_finished_at_time_with_an_extra_deal_on_a_tie(
    driver: Driver,
) -> None:
    places, games, _ = play_guandan(driver)
    assert len(games) == 1 + 2 + 2  # round 1: 1 game beside 3 byes; semi-finals; final and 3rd place
    assert len(set(places)) == 4


def test_guandan_places_one_to_four_by_the_final_and_the_third_place_match(driver: Driver) -> None:
    places, _, event_id = play_guandan(driver)
    rows = [row for g in driver.standings(event_id)["groups"] for row in g["rows"]]
    by_rank = sorted((row["rank"], row["entry_id"]) for row in rows if row["rank"] <= 4)
    assert by_rank == [(place, entry) for place, entry in enumerate(places, start=1)]
    awards = driver.awards(event_id)["awards"]
    assert sorted((a["rank"], a["entry_id"]) for a in awards) == by_rank


# --- Gongzhu ----------------------------------------------------------------------------------


def test_gongzhu_round_one_seats_every_player_at_tables_of_four(driver: Driver) -> None:
    competition = hlju.register(driver, playing=hlju.GONGZHU)
    event_id = competition.events[hlju.GONGZHU]
    driver.at("2016-03-23T13:00")
    drawn = hlju.draw(driver, event_id)
    # ten players: two tables of four, and two byes (Gongzhu is dealt to exactly four)
    assert len(drawn["tables"]) == 2 and len(drawn["byes"]) == 2
    seated = [e for t in drawn["tables"] for e in t["seats"].values()]
    assert sorted(seated + drawn["byes"]) == sorted(competition.entries[hlju.GONGZHU])
    department = {e: code for e, (code, _) in competition.entries[hlju.GONGZHU].items()}
    for table in drawn["tables"]:  # one department's players at different tables where possible
        assert len({department[e] for e in table["seats"].values()}) == 4


def test_gongzhu_tables_to_plus_minus_1000_top_two_go_on_to_a_final_table(driver: Driver) -> None:
    competition = hlju.register(driver, playing=hlju.GONGZHU)
    event_id = competition.events[hlju.GONGZHU]
    rng = random.Random("seed-004-gongzhu")
    skill = {e: rng.uniform(0.6, 1.4) for e in sorted(competition.entries[hlju.GONGZHU])}
    driver.at("2016-03-23T13:00")
    hlju.draw(driver, event_id)
    still_in = set(competition.entries[hlju.GONGZHU])
    final: hlju.GongzhuTable | None = None
    for number in (1, 2, 3):
        driver.at(f"2016-03-{22 + number}T13:50")
        driver.generate_round(event_id, number)
        driver.publish_round(event_id, number)
        started = driver.start_round(event_id, number)
        seated = {t["seats"][seat]["entry_id"] for t in started["tables"] for seat in "NESW"}
        byes = {m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"]}
        assert seated | byes == still_in and not seated & byes
        assert len(byes) == len(still_in) % 4
        through = set(byes)
        for table in started["tables"]:
            players = {seat: table["seats"][seat]["entry_id"] for seat in "NESW"}
            played = hlju.play_table(rng, players, skill)
            for hand_no, hand in enumerate(played.hands, start=1):
                body = {"hand_no": hand_no, "captured": hand.captured, "exposed": hand.exposed}
                answer = driver.call(
                    "POST", f"/games/{table['game_id']}/hands", json=body, headers=driver.referee
                )
                assert answer["hands"][-1]["scores"] == hand.scores
            game = driver.call("GET", f"/games/{table['game_id']}")
            assert game["totals"] == played.totals()
            assert game["over"] and [players[seat] for seat in game["ranking"]] == played.ranking()
            assert [players[seat] for seat in game["advancing"]] == played.ranking()[:2]
            for side in ("NS", "EW"):
                driver.call(
                    "POST",
                    f"/games/{table['game_id']}/confirmations",
                    json={"side": side},
                    headers=driver.referee,
                )
            through |= set(played.ranking()[:2])
            final = played
        driver.finish_round(event_id, number)
        if len(still_in) == 4:
            break
        still_in = through
    assert final is not None and len(still_in) == 4
    places = final.ranking()
    rows = [row for g in driver.standings(event_id)["groups"] for row in g["rows"]]
    assert sorted((r["rank"], r["entry_id"]) for r in rows if r["rank"] <= 4) == list(
        enumerate(places, start=1)
    )
    awards = driver.awards(event_id)["awards"]
    assert sorted((a["rank"], a["entry_id"]) for a in awards) == list(enumerate(places, start=1))


def test_simulated_gongzhu_hands_are_partitions_of_one_deck() -> None:
    rng = random.Random("seed-004-gongzhu-deck")
    for _ in range(50):
        hand = hlju.simulate_hand(rng, {"N": 1.0, "E": 0.8, "S": 1.2, "W": 1.0})
        cards = [c for pile in hand.captured.values() for c in pile]
        assert sorted(cards) == sorted(hlju.DECK)
        assert all(len(pile) % 4 == 0 for pile in hand.captured.values())  # whole tricks


def test_seed_readings_of_the_gongzhu_scores() -> None:
    # 拱猪 §3: pig −100, sheep +100, transformer alone +50, with hearts ×2
    assert hlju.gongzhu_score({"SQ"}, set()) == -100
    assert hlju.gongzhu_score({"DJ"}, {"DJ"}) == 200
    assert hlju.gongzhu_score({"CT", "S2"}, set()) == 50
    assert hlju.gongzhu_score({"CT", "H5", "HA"}, set()) == -120
    assert hlju.gongzhu_score({f"H{r}" for r in hlju.RANKS}, {"HA"}) == 400  # §5 满红, A exposed
    assert hlju.gongzhu_score(set(hlju.SCORING), set()) == 800  # §6 满贯
