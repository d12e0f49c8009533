"""The public rules endpoints answer as the seeds' rules say, with problems naming the field."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers import assert_problem

SEED_PRESETS = {"nuist-2023", "nsi-2023", "ahut-2017", "institute-2021", "hlju-2016"}


def test_presets_cover_every_seed_and_explain_their_fields(client: TestClient) -> None:
    presets = client.get("/api/v1/rules/presets").json()
    assert SEED_PRESETS | {"default"} <= {preset["name"] for preset in presets}
    nuist = client.get("/api/v1/rules/presets/nuist-2023").json()
    # seed 000 §九.2–3: passed A scores 15, a forfeit 15:2, 50-minute rounds
    assert (nuist["passed_a_points"], nuist["forfeit_winner_points"], nuist["forfeit_loser_points"]) == (
        15,
        15,
        2,
    )
    assert nuist["time_limit_minutes"] == 50
    nsi = client.get("/api/v1/rules/presets/nsi-2023").json()
    assert (nsi["forfeit_winner_points"], nsi["forfeit_loser_points"]) == (14, 0)  # seed 001 补充说明 9
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["RuleSet"]
    assert all(spec.get("description") for spec in schema["properties"].values())
    assert_problem(client.get("/api/v1/rules/presets/no-such-rules"), 404, "unknown-preset")


def test_classify_a_bomb_and_a_wildcard_straight(client: TestClient) -> None:
    bomb = client.post(
        "/api/v1/rules/guandan/classify", json={"level": "9", "cards": ["H7", "S7", "C7", "D7"]}
    )
    assert bomb.status_code == 200
    assert bomb.json()["readings"][0] == {"type": "bomb", "rank": "7", "size": 4, "wildcards_as": []}

    straight = client.post(
        "/api/v1/rules/guandan/classify", json={"level": "Q", "cards": ["S3", "D4", "♥Q", "C6", "S7"]}
    ).json()
    assert straight["valid"] is True
    assert straight["cards"] == ["S3", "D4", "HQ", "C6", "S7"]
    (reading,) = [r for r in straight["readings"] if r["type"] == "straight"]
    assert (reading["rank"], reading["size"]) == ("7", 5)
    assert [card[1:] for card in reading["wildcards_as"]] == ["5"]

    nothing = client.post("/api/v1/rules/guandan/classify", json={"level": "2", "cards": ["S3", "D9"]}).json()
    assert nothing == {"level": "2", "cards": ["S3", "D9"], "valid": False, "readings": []}


def test_classify_refuses_bad_cards_levels_and_counts(client: TestClient) -> None:
    bad_card = client.post("/api/v1/rules/guandan/classify", json={"level": "7", "cards": ["H7", "X9"]})
    body = assert_problem(bad_card, 422, "card-notation")
    assert body["field"] == "cards[1]" and "X9" in body["detail"]
    bad_level = client.post("/api/v1/rules/guandan/classify", json={"level": "1", "cards": ["H7"]})
    assert assert_problem(bad_level, 422, "unknown-level")["field"] == "level"
    third_copy = client.post(
        "/api/v1/rules/guandan/classify", json={"level": "7", "cards": ["H9", "H9", "H9"]}
    )
    assert_problem(third_copy, 422, "card-copies")
    too_many = client.post("/api/v1/rules/guandan/classify", json={"level": "7", "cards": ["S2"] * 11})
    assert assert_problem(too_many, 422, "request-validation")["field"] == "body.cards"


def test_compare_follows_the_bomb_order(client: TestClient) -> None:
    flush = ["S5", "S6", "S7", "S8", "S9"]
    five_bomb = ["DK", "SK", "CK", "HK", "HK"]
    six_bomb = ["D3", "S3", "C3", "H3", "D3", "S3"]
    verdict = client.post(
        "/api/v1/rules/guandan/compare", json={"level": "2", "play": flush, "against": five_bomb}
    ).json()
    assert verdict["beats"] is True
    assert verdict["play"]["type"] == "straight_flush" and verdict["against"] == {
        "type": "bomb",
        "rank": "K",
        "size": 5,
        "wildcards_as": [],
    }
    six = client.post(
        "/api/v1/rules/guandan/compare", json={"level": "2", "play": six_bomb, "against": flush}
    )
    assert six.json()["beats"] is True
    # the level card outranks A in bombs: at level 5, 5555 beats AAAA
    level_bomb = client.post(
        "/api/v1/rules/guandan/compare",
        json={"level": "5", "play": ["S5", "C5", "D5", "S5"], "against": ["SA", "CA", "DA", "HA"]},
    )
    assert level_bomb.json()["beats"] is True
    mismatch = client.post(
        "/api/v1/rules/guandan/compare", json={"level": "2", "play": ["S9", "D9"], "against": ["S3"]}
    )
    assert mismatch.json()["beats"] is False
    invalid = client.post(
        "/api/v1/rules/guandan/compare", json={"level": "2", "play": ["S9", "D4"], "against": ["S3"]}
    )
    assert assert_problem(invalid, 422, "combo-invalid")["field"] == "play"


def test_levels_replay_a_seed_000_game(client: TestClient) -> None:
    deals = [["N", "S", "E", "W"], ["E", "N", "W", "S"], ["S", "E", "N", "W"]]
    answer = client.post(
        "/api/v1/rules/guandan/levels",
        json={"preset": "nuist-2023", "deals": [{"finish_order": order} for order in deals]},
    ).json()
    # N first with partner S second: +3 → NS 5; E first, partner W third: +2 → EW 4; S first, N third: +2 → NS 7
    assert [deal["promotion"] for deal in answer["deals"]] == [3, 2, 2]
    assert answer["sides"]["NS"]["level"] == 7 and answer["sides"]["EW"]["level"] == 4
    assert answer["declarer"] == "NS" and answer["next_level"] == 7
    assert answer["outcome"]["status"] == "in_progress"


def test_time_up_with_equal_levels_follows_each_preset(client: TestClient) -> None:
    # NS reach 4 in deal 1, EW reach 4 in deal 2; time runs out with EW on stage.
    deals = [{"finish_order": ["N", "E", "S", "W"]}, {"finish_order": ["E", "N", "W", "S"]}]

    def outcome(preset: str) -> dict[str, object]:
        body = {"preset": preset, "deals": deals, "time_up_after": 2}
        response = client.post("/api/v1/rules/guandan/levels", json=body)
        assert response.status_code == 200, response.text
        result: dict[str, object] = response.json()["outcome"]
        return result

    assert outcome("ahut-2017")["winner"] == "NS"  # seed 002 §二.5: the side that reached the level first
    assert outcome("institute-2021")["winner"] == "EW"  # seed 003 §六: the side on stage
    assert outcome("hlju-2016")["status"] == "extra_deal_required"  # seed 004 §1: 同级加赛一次
    nuist = outcome("nuist-2023")  # seed 000 §九.2: each side simply scores its level
    assert nuist["status"] == "points_only" and nuist["points"] == {"NS": 4, "EW": 4}


def test_levels_refuse_a_bad_seat_and_an_unknown_override(client: TestClient) -> None:
    bad = client.post(
        "/api/v1/rules/guandan/levels", json={"deals": [{"finish_order": ["N", "E", "S", "X"]}]}
    )
    assert assert_problem(bad, 422)["field"] == "deals[0].finish_order"
    unknown = client.post("/api/v1/rules/guandan/levels", json={"rules": {"no_such_rule": 1}, "deals": []})
    assert_problem(unknown, 422, "unknown-rule-field")


def test_tribute_single_double_down_and_refused(client: TestClient) -> None:
    single = {"preset": "nuist-2023", "level": "5", "finish_order": ["N", "E", "S", "W"]}
    answer = client.post(
        "/api/v1/rules/guandan/tribute", json={**single, "paid": {"W": "HA"}, "returned": {"N": "C3"}}
    ).json()
    # seed 000 附件 §三.1: the last pays the first, the first returns a card of 10 or lower, the last leads
    assert answer["tributes"] == [{"giver": "W", "receiver": "N", "card": "HA"}]
    assert answer["returns"] == [{"giver": "N", "receiver": "W", "card": "C3"}]
    assert answer["leader"] == "W" and answer["refused"] is False

    too_high = client.post(
        "/api/v1/rules/guandan/tribute", json={**single, "paid": {"W": "HA"}, "returned": {"N": "CQ"}}
    )
    assert_problem(too_high, 422, "tribute-return-too-high")
    # seed 004 §3: any card may be returned
    any_card = client.post(
        "/api/v1/rules/guandan/tribute",
        json={**single, "preset": "hlju-2016", "paid": {"W": "HA"}, "returned": {"N": "CQ"}},
    )
    assert any_card.status_code == 200

    refused = client.post("/api/v1/rules/guandan/tribute", json={**single, "big_jokers": {"W": 2}}).json()
    assert refused["refused"] is True and refused["leader"] == "N" and refused["tributes"] == []


def test_gongzhu_hand_scores(client: TestClient) -> None:
    hearts = ["H2", "H3", "H4", "H6", "H7", "H8", "H9", "HT", "HJ", "HQ", "HK", "HA"]
    answer = client.post(
        "/api/v1/rules/gongzhu/score",
        json={"captured": [["SQ", "H5"], ["DJ", "C2"], ["CT", *hearts], []], "exposed": ["SQ"]},
    )
    assert answer.status_code == 200, answer.text
    # exposed pig −200 and H5 −10; sheep +100; hearts 6–10 −50, J Q K A −140, doubled by the transformer
    assert answer.json() == {"scores": [-210, 100, -380, 0]}
    twice = client.post(
        "/api/v1/rules/gongzhu/score", json={"captured": [["SQ"], ["SQ", "DJ", "CT"], hearts, []]}
    )
    assert_problem(twice, 422, "card-captured-twice")
