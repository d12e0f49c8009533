"""Seed 004 (HLJU 2016 教职工智力赛) end to end over HTTP: one competition, four events.

象棋 and 围棋: two players per department, groups by lot, Berger round robin, best of 3 with the
first move alternating, the top two of each group into a final round robin (a new lot), places
1–4. 掼蛋: one pair per department, knockout, 60-minute single games finished at time with one
extra deal on equal levels, a third-place match, places 1–4. 拱猪: two players per department,
tables of four played to ±1000, the top two of each table go on to a final table, places 1–4.
A member enters one event only (§一.3 不得兼报).

The script (``zhisai.scenarios.seed_004``) plays it once per module; every expectation is computed
here from what it posted and the seed's rules (``seed_004_steps``, ``zhisai.scenarios.hlju``),
never read back from the service.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

import pytest

from tests.scenarios import seed_004_steps as expect
from tests.scenarios.driver import Driver
from zhisai.scenarios import hlju, seed_004
from zhisai.scenarios.seed_004 import GO, GONGZHU, GUANDAN, XIANGQI, HljuRecord, MatchTable

FINAL_DRAW_PATH = "/api/v1/events/{event_id}/stages/{stage}/draw"


@pytest.fixture(scope="module")
def played(module_driver: Driver) -> HljuRecord:
    return seed_004.run(module_driver)


def _revealed(record: HljuRecord, key: str) -> dict[str, Any]:
    """The public draw, checked against the commitment published before the lot."""
    public = record.draws[key]
    assert hashlib.sha256(public["seed"].encode()).hexdigest() == record.commitments[key], key
    return public


# --- registration ---------------------------------------------------------------------------


def test_one_competition_four_events_quotas_and_one_event_per_member(
    module_driver: Driver, played: HljuRecord
) -> None:
    body = module_driver.call("GET", f"/competitions/{played.competition_id}")
    assert body["one_event_per_member"] is True
    assert sorted(e["discipline"] for e in body["events"]) == sorted(seed_004.event_bodies())
    for discipline, event_id in played.events.items():
        listed = module_driver.entries(event_id, status="confirmed")
        assert {e["id"] for e in listed} == set(played.rosters[discipline]), discipline
        per_department = Counter(e["branch_code"] for e in listed)
        expected = 1 if discipline == GUANDAN else 2  # §一.2 entries per department
        assert per_department == {code: expected for code, _ in seed_004.DEPARTMENTS}, discipline
    # §一.3 不得兼报; §一.2 象棋限报两人, 掼蛋报一队; §二.1 报名 3月22日下班前
    refused = {key: (r.status, r.rule) for key, r in played.refusals.items()}
    assert refused["second-event"] == (422, "one-event-per-member")
    assert refused["third-chess-player"] == (422, "quota")
    assert refused["second-guandan-pair"] == (422, "quota")
    assert refused["after-the-deadline"] == (409, "registration-window")
    # nobody plays two events
    rostered = Counter(p for event in played.rosters.values() for roster in event.values() for p in roster)
    assert max(rostered.values()) == 1


# --- chess and Go -----------------------------------------------------------------------------


def _check_round_robin_rounds(
    record: HljuRecord, key: str, groups: dict[str, list[int]]
) -> list[hlju.MatchPlayed]:
    """Every round seats the Berger tables in the drawn order, each meeting a best of 3 with the
    first move alternating, ended with the winner of the games posted; answers the matches."""
    tables: list[MatchTable] = record.matches[key]
    for number, started in enumerate(record.started[key], start=1):
        for name, drawn in groups.items():
            meetings, bye = expect.berger_round(drawn, number)
            seated = [t for t in started["tables"] if t["group"] == name]
            assert {
                (t["seats"]["first"]["entry_id"], t["seats"]["second"]["entry_id"]) for t in seated
            } == meetings
            byes = [
                m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"] and m["group"] == name
            ]
            assert byes == ([bye] if bye else []), (key, number, name)
    for table in tables:
        assert table.table["first_movers"] == ["first", "second", "first"]  # 三局两胜制
        assert table.answer["state"] == "ended", table.answer
        match = table.match
        assert table.answer["winner"] == {match.first: "NS", match.second: "EW"}.get(match.winner or 0)
    return [t.match for t in tables]


@pytest.mark.parametrize("discipline", [XIANGQI, GO])
def test_group_round_robin_best_of_three_top_two_of_each_group(played: HljuRecord, discipline: str) -> None:
    groups = {name: list(ids) for name, ids in played.draws[discipline]["result"]["groups"].items()}
    # 抽签 on site: the groups are the lots the referee recorded, the ten players in two of five
    assert groups == played.lots[discipline]
    assert sorted(i for ids in groups.values() for i in ids) == sorted(played.rosters[discipline])
    assert sorted(len(ids) for ids in groups.values()) == [5, 5]
    matches = _check_round_robin_rounds(played, f"{discipline}/main", groups)
    refused = played.refusals[f"{discipline}-round-6"]  # the Berger tables of six have five rounds
    assert refused.status is not None, refused
    # every pair of a group met exactly once (单循环), and nobody met across groups
    assert {frozenset((m.first, m.second)) for m in matches} == expect.pairs_of(list(groups.values()))
    assert len(matches) == 2 * 10
    table = {g["group"]: g["rows"] for g in played.standings[f"{discipline}/main"]["groups"]}
    for name, players in groups.items():
        expected = expect.expected_ranks(players, matches)
        # the seed's cut is clear-cut in this simulation: exactly two players above it
        assert sorted(expected.values())[:3] == [1, 2, 3], (name, expected)
        assert {row["entry_id"]: row["rank"] for row in table[name]} == expected, name


@pytest.mark.parametrize("discipline", [XIANGQI, GO])
def test_final_round_robin_of_the_group_winners_gives_places_one_to_four(
    module_driver: Driver, played: HljuRecord, discipline: str
) -> None:
    # the contract first: without a final-stage draw there is nothing to play the groups for
    paths = module_driver.call("GET", "/openapi.json")["paths"]
    assert FINAL_DRAW_PATH in paths, sorted(p for p in paths if "draw" in p)
    groups = played.draws[discipline]["result"]["groups"]
    group_matches = [t.match for t in played.matches[f"{discipline}/main"]]
    qualified = set()
    for players in groups.values():
        ranks = expect.expected_ranks(players, group_matches)
        qualified |= {p for p, rank in ranks.items() if rank <= 2}
    # the final stage is drawn by a new lot (对阵顺序抽签决定)
    final_draw = _revealed(played, f"{discipline}/final")
    final_groups = {name: list(ids) for name, ids in final_draw["result"]["groups"].items()}
    assert sorted(i for ids in final_groups.values() for i in ids) == sorted(qualified)
    final = _check_round_robin_rounds(played, f"{discipline}/final", final_groups)
    assert len(played.started[f"{discipline}/final"]) == 3
    assert {frozenset((m.first, m.second)) for m in final} == expect.pairs_of([sorted(qualified)])
    places = expect.expected_ranks(sorted(qualified), final)
    rows = [row for g in played.standings[f"{discipline}/final"]["groups"] for row in g["rows"]]
    assert {row["entry_id"]: row["rank"] for row in rows} == places
    assert {a["entry_id"]: a["rank"] for a in played.awards[discipline]["awards"]} == places


# --- Guandan ----------------------------------------------------------------------------------


def _guandan(record: HljuRecord) -> tuple[list[set[frozenset[int]]], list[int]]:
    """The bracket as drawn, and each round's meetings and places 1–4 from the posted games."""
    brackets = _revealed(record, GUANDAN)["result"]["brackets"]
    assert len(brackets) == 1
    slots: list[int | None] = brackets[0]["slots"]
    assert len(slots) == 8 and slots.count(None) == 3  # five pairs, three byes
    assert sorted(s for s in slots if s is not None) == sorted(record.rosters[GUANDAN])
    winner_of: dict[frozenset[int], int] = {}
    for game in record.guandan:
        ns, ew = game.table["seats"]["N"]["entry_id"], game.table["seats"]["E"]["entry_id"]
        won = "NS" if game.play is None else game.play.winner  # only the late E–W pair forfeited
        winner_of[frozenset((ns, ew))] = ns if won == "NS" else ew
    return expect.knockout(slots, winner_of)


def test_guandan_knockout_single_games_finished_at_time_with_an_extra_deal_on_a_tie(
    played: HljuRecord,
) -> None:
    meetings, places = _guandan(played)
    for number, expected in enumerate(meetings, start=1):
        tables = played.rounds[number]["tables"]
        assert {
            frozenset((t["seats"]["N"]["entry_id"], t["seats"]["E"]["entry_id"])) for t in tables
        } == expected
    # 四.2 迟到15分钟以上的，按弃权处理: on the last day one pair of the third-place match is late
    assert played.late in places[2:]
    for number, missing in played.missing.items():
        assert missing["late_forfeit_minutes"] == 15
        assert [m["entry_id"] for m in missing["missing"]] == ([played.late] if number == 3 else []), number
    for game in played.guandan:
        if game.play is None:
            assert game.table["seats"]["E"]["entry_id"] == played.late
            assert (game.answer["winner"], game.answer["reason"]) == ("NS", "forfeit")
            continue
        play = game.play
        if play.time_up_after is not None and len(play.orders) > play.time_up_after:
            # 时间终了 … 同级加赛一次: the form heard that one more deal decides
            assert game.at_time is not None and play.levels_at_time is not None
            assert (game.at_time["status"], game.at_time["reason"]) == ("extra_deal_required", "equal-levels")
            assert game.at_time["ns"]["level"] == game.at_time["ew"]["level"] == play.levels_at_time["NS"]
        assert (game.answer["winner"], game.answer["reason"]) == (play.winner, play.reason), game
        assert (game.answer["ns"]["level"], game.answer["ew"]["level"]) == (
            play.levels["NS"],
            play.levels["EW"],
        )
    assert {g.answer["reason"] for g in played.guandan} >= {"extra-deal", "passed-a", "forfeit"}
    assert len(played.guandan) == 1 + 2 + 2  # round 1: 1 game beside 3 byes; semi-finals; final and 3rd
    assert len(set(places)) == 4


def test_guandan_places_one_to_four_by_the_final_and_the_third_place_match(played: HljuRecord) -> None:
    _, places = _guandan(played)
    rows = [row for g in played.standings[GUANDAN]["groups"] for row in g["rows"]]
    by_rank = sorted((row["rank"], row["entry_id"]) for row in rows if row["rank"] <= 4)
    assert by_rank == [(place, entry) for place, entry in enumerate(places, start=1)]
    assert sorted((a["rank"], a["entry_id"]) for a in played.awards[GUANDAN]["awards"]) == by_rank


# --- Gongzhu ----------------------------------------------------------------------------------


def test_gongzhu_round_one_seats_every_player_at_tables_of_four(played: HljuRecord) -> None:
    drawn = _revealed(played, GONGZHU)["result"]
    # ten players: two tables of four, and two byes (Gongzhu is dealt to exactly four)
    assert len(drawn["tables"]) == 2 and len(drawn["byes"]) == 2
    seated = [e for t in drawn["tables"] for e in t["seats"].values()]
    assert sorted(seated + drawn["byes"]) == sorted(played.rosters[GONGZHU])
    for table in drawn["tables"]:  # one department's players at different tables where possible
        assert len({played.branches[e] for e in table["seats"].values()}) == 4


def test_gongzhu_tables_to_plus_minus_1000_top_two_go_on_to_a_final_table(played: HljuRecord) -> None:
    still_in = set(played.rosters[GONGZHU])
    final: hlju.GongzhuTable | None = None
    for number, started in enumerate(played.started[GONGZHU], start=1):
        seated = {t["seats"][seat]["entry_id"] for t in started["tables"] for seat in "NESW"}
        byes = {m["entries"][0]["entry_id"] for m in started["matches"] if m["is_bye"]}
        assert seated | byes == still_in and not seated & byes
        assert len(byes) == len(still_in) % 4
        through = set(byes)
        for table in (t for t in played.gongzhu if t.round_no == number):
            table_played, game = table.played, table.answer
            assert table_played.players == {seat: table.table["seats"][seat]["entry_id"] for seat in "NESW"}
            assert table.hand_scores == [hand.scores for hand in table_played.hands]
            assert game["totals"] == table_played.totals()
            assert (
                game["over"]
                and [table_played.players[seat] for seat in game["ranking"]] == table_played.ranking()
            )
            assert [table_played.players[seat] for seat in game["advancing"]] == table_played.ranking()[:2]
            through |= set(table_played.ranking()[:2])
            final = table_played
        if len(still_in) == 4:
            assert number == len(played.started[GONGZHU])  # the final table was the last round
            break
        still_in = through
    assert final is not None and len(still_in) == 4
    places = list(enumerate(final.ranking(), start=1))
    rows = [row for g in played.standings[GONGZHU]["groups"] for row in g["rows"]]
    assert sorted((r["rank"], r["entry_id"]) for r in rows if r["rank"] <= 4) == places
    assert sorted((a["rank"], a["entry_id"]) for a in played.awards[GONGZHU]["awards"]) == places


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
