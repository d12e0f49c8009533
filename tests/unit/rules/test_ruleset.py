"""Rule set presets carry each seed's figures; overrides are validated field by field."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from domain.errors import InvalidInput, NotFound
from domain.rules.ruleset import (
    AtTime,
    Discipline,
    PassACondition,
    RuleSet,
    StandingsScheme,
    TieAtTime,
    preset,
    presets,
    with_overrides,
)


def test_one_preset_per_seed_and_discipline() -> None:
    assert [rules.name for rules in presets()] == [
        "ahut-2017",
        "default",
        "hlju-2016",
        "hlju-2016-go",
        "hlju-2016-gongzhu",
        "hlju-2016-xiangqi",
        "institute-2021",
        "nsi-2023",
        "nuist-2023",
    ]


@pytest.mark.parametrize(
    ("name", "minutes", "late", "at_time", "no_new", "tie", "a_limit"),
    [
        (
            "nuist-2023",
            50,
            5,
            AtTime.FINISH_DEAL,
            5,
            TieAtTime.POINTS_ONLY,
            None,
        ),  # seed 000 §九.1, 附件 九.1
        ("nsi-2023", 50, 15, AtTime.STOP_AT_ONCE, 0, TieAtTime.DRAW, 3),  # seed 001 二, 补充说明 3, 9
        ("ahut-2017", 60, 15, AtTime.STOP_AT_ONCE, 0, TieAtTime.FIRST_TO_REACH, None),  # seed 002 §二.5, §四
        ("institute-2021", 45, 10, AtTime.STOP_AT_ONCE, 0, TieAtTime.DECLARER, 3),  # seed 003 §六, §九.1
        ("hlju-2016", 60, 15, AtTime.FINISH_DEAL, 0, TieAtTime.EXTRA_DEAL, 3),  # seed 004 §1, 四.2
    ],
)
def test_guandan_presets_carry_the_seed_figures(
    name: str, minutes: int, late: int, at_time: AtTime, no_new: int, tie: TieAtTime, a_limit: int | None
) -> None:
    rules = preset(name)
    assert rules.discipline is Discipline.GUANDAN
    assert (rules.time_limit_minutes, rules.late_forfeit_minutes) == (minutes, late)
    assert (rules.at_time, rules.no_new_deal_minutes, rules.tie_at_time) == (at_time, no_new, tie)
    assert rules.a_attempts_limit == a_limit
    assert rules.a_failure_reset_level == 2
    assert rules.citation
    assert rules.notes


def test_seed_000_points() -> None:
    rules = preset("nuist-2023")
    assert rules.level_points[2] == 2
    assert rules.level_points[13] == 13
    assert rules.level_points[14] == 14
    assert rules.passed_a_points == 15
    assert (rules.forfeit_winner_points, rules.forfeit_loser_points) == (15, 2)
    assert rules.standings is StandingsScheme.LEVEL_POINTS


def test_seed_001_forfeit_and_ranking() -> None:
    rules = preset("nsi-2023")
    assert (rules.forfeit_winner_points, rules.forfeit_loser_points) == (14, 0)
    assert rules.per_deal_record_required
    assert rules.standings is StandingsScheme.WINS_THEN_POINTS
    assert [key.value for key in rules.tie_breaks][:2] == ["wins", "points"]


def test_seed_002_card_report_and_warnings() -> None:
    rules = preset("ahut-2017")
    assert (rules.card_report_threshold, rules.missed_report_level_penalty, rules.missed_reports_to_lose) == (
        7,
        1,
        2,
    )
    assert rules.warnings_to_lose == 2
    assert (rules.final_phase_minutes, rules.final_phase_play_seconds) == (10, 60)


def test_tribute_return_rules_per_seed() -> None:
    assert (
        preset("nuist-2023").tribute_return_max_rank,
        preset("nuist-2023").tribute_return_excludes_level_and_ace,
    ) == (
        10,
        False,
    )
    institute = preset("institute-2021")
    assert (institute.tribute_return_max_rank, institute.tribute_return_excludes_level_and_ace) == (10, True)
    assert institute.fouls_to_lose == 3
    assert preset("hlju-2016").tribute_return_max_rank is None


def test_seed_004_other_disciplines() -> None:
    assert preset("hlju-2016").pass_a_condition is PassACondition.NO_LAST_ON_SIDE
    gongzhu = preset("hlju-2016-gongzhu")
    assert (gongzhu.discipline, gongzhu.gongzhu_target, gongzhu.advance_count) == (
        Discipline.GONGZHU,
        1000,
        2,
    )
    for name, discipline in (("hlju-2016-xiangqi", Discipline.XIANGQI), ("hlju-2016-go", Discipline.GO)):
        rules = preset(name)
        assert (rules.discipline, rules.best_of, rules.advance_count) == (discipline, 3, 2)
        assert (rules.match_win_points, rules.match_draw_points, rules.match_loss_points) == (2, 1, 0)


def test_unknown_preset_is_not_found() -> None:
    with pytest.raises(NotFound) as error:
        preset("nuist-2024")
    assert error.value.rule == "unknown-preset"


def test_preset_hands_out_a_copy() -> None:
    mine = preset("nuist-2023")
    mine.level_points[14] = 99
    assert preset("nuist-2023").level_points[14] == 14


def test_rule_sets_are_frozen_and_closed() -> None:
    rules = preset("default")
    with pytest.raises(ValidationError):
        rules.time_limit_minutes = 10  # type: ignore[misc]
    with pytest.raises(ValidationError):
        RuleSet.model_validate({**rules.model_dump(), "colour": "red"})


def test_every_field_is_described_for_the_presets_endpoint() -> None:
    assert all(info.description for info in RuleSet.model_fields.values())


def test_presets_survive_a_json_round_trip() -> None:
    for rules in presets():
        assert RuleSet.model_validate_json(rules.model_dump_json()) == rules


def test_override_replaces_fields_and_keeps_the_base() -> None:
    base = preset("nuist-2023")
    custom = with_overrides(base, {"time_limit_minutes": 40, "tie_at_time": "declarer"})
    assert (custom.time_limit_minutes, custom.tie_at_time) == (40, TieAtTime.DECLARER)
    assert custom.forfeit_loser_points == 2
    assert base.time_limit_minutes == 50


def test_override_level_points_from_json_keys() -> None:
    table = {str(level): 2 * level for level in range(2, 15)}
    assert with_overrides(preset("default"), {"level_points": table}).level_points[14] == 28


@pytest.mark.parametrize(
    ("overrides", "field", "rule"),
    [
        ({"colour": "red"}, "colour", "unknown-rule-field"),
        ({"time_limit_minutes": -5}, "time_limit_minutes", "invalid-rule-field"),
        ({"tie_at_time": "coin"}, "tie_at_time", "invalid-rule-field"),
        ({"tie_breaks": ["points", "age"]}, "tie_breaks.1", "invalid-rule-field"),
        ({"best_of": 2}, "best_of", "invalid-rule-field"),
        ({"level_points": {"2": 2}}, "level_points", "invalid-rule-field"),
        (
            {"forfeit_winner_points": 0, "forfeit_loser_points": 2},
            "forfeit_winner_points",
            "invalid-rule-field",
        ),
    ],
)
def test_invalid_overrides_name_the_field(overrides: dict[str, object], field: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as error:
        with_overrides(preset("default"), overrides)
    assert (error.value.field, error.value.rule) == (field, rule)
