"""Rule sets: every variant a seed notice chooses, as data, with one named preset per seed.

Behaviour elsewhere branches only on these fields, never on a preset's name. A preset is
served as-is by ``GET /api/v1/rules/presets/{name}``, hence a description on every field.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from domain.errors import InvalidInput, NotFound

ACE = 14
LOWEST_LEVEL = 2


class Discipline(StrEnum):
    GUANDAN = "guandan"
    GONGZHU = "gongzhu"
    XIANGQI = "xiangqi"
    GO = "go"


class AtTime(StrEnum):
    """What the clock's end does to the deal in hand (Guandan)."""

    STOP_AT_ONCE = "stop_at_once"
    FINISH_DEAL = "finish_deal"


class TieAtTime(StrEnum):
    """Who wins at time when neither side passed A and the levels are equal."""

    POINTS_ONLY = "points_only"
    DRAW = "draw"
    FIRST_TO_REACH = "first_to_reach"
    DECLARER = "declarer"
    EXTRA_DEAL = "extra_deal"


class PassACondition(StrEnum):
    """How a deal played at the declaring side's A passes A."""

    FIRST_AND_PARTNER_NOT_LAST = "first_and_partner_not_last"
    NO_LAST_ON_SIDE = "no_last_on_side"


class StandingsScheme(StrEnum):
    LEVEL_POINTS = "level_points"
    WINS_THEN_POINTS = "wins_then_points"
    MATCH_POINTS = "match_points"
    PLACEMENT = "placement"


class TieBreak(StrEnum):
    POINTS = "points"
    WINS = "wins"
    SUB_SCORE = "sub_score"
    HEAD_TO_HEAD = "head_to_head"
    OPPONENTS_SCORE = "opponents_score"
    LOT = "lot"


def _identity_level_points() -> dict[int, int]:
    # seed 000 §九.2: a pair scores the level it reached, A = 14.
    return {level: level for level in range(LOWEST_LEVEL, ACE + 1)}


class RuleSet(BaseModel):
    """The variant rules of one event; Guandan fields are ignored by the other disciplines."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="Preset name, e.g. 'nuist-2023'; a kebab-case slug.")
    discipline: Discipline = Field(description="Game played: guandan, gongzhu, xiangqi or go.")
    citation: str = Field(description="The seed notice and sections this rule set is taken from.")
    notes: tuple[str, ...] = Field(
        default=(), description="How this rule set reads the ambiguous sentences of its source."
    )
    time_limit_minutes: int | None = Field(
        default=None, gt=0, description="Length of a timed round in minutes; null when untimed."
    )
    at_time: AtTime = Field(
        default=AtTime.FINISH_DEAL,
        description="When the time is up: 'stop_at_once' drops the deal in hand, "
        "'finish_deal' plays it to its end and counts it.",
    )
    no_new_deal_minutes: int = Field(
        default=0,
        ge=0,
        description="No new deal may start in the last N minutes of the round (0: until the end).",
    )
    tie_at_time: TieAtTime = Field(
        default=TieAtTime.DRAW,
        description="Equal levels at time: 'points_only' (no winner, each side scores its level), "
        "'draw', 'first_to_reach' (the side that reached the level first), 'declarer' (the side "
        "on stage), 'extra_deal' (one more deal, its first finisher's side wins).",
    )
    final_phase_minutes: int = Field(
        default=0, ge=0, description="Length of the closing phase with a per-play time limit (0: none)."
    )
    final_phase_play_seconds: int | None = Field(
        default=None, gt=0, description="Seconds allowed per play in the closing phase; null when none."
    )
    pass_a_condition: PassACondition = Field(
        default=PassACondition.FIRST_AND_PARTNER_NOT_LAST,
        description="'first_and_partner_not_last': the declaring side finishes first and its "
        "partner is not last; 'no_last_on_side': neither declaring player finishes last.",
    )
    a_attempts_limit: int | None = Field(
        default=3,
        gt=0,
        description="Failed deals at A after which the side drops back; null: no limit, no demotion.",
    )
    a_failure_reset_level: int = Field(
        default=LOWEST_LEVEL,
        ge=LOWEST_LEVEL,
        le=ACE - 1,
        description="Level a side drops back to after reaching the failed-A limit.",
    )
    level_points: dict[int, int] = Field(
        default_factory=_identity_level_points,
        description="Points a side scores for the level it stands at, keyed by level 2..14 (A=14).",
    )
    passed_a_points: int = Field(default=15, description="Points a side scores for passing A.")
    forfeit_winner_points: int = Field(default=15, description="Points of the side whose opponent forfeits.")
    forfeit_loser_points: int = Field(default=0, description="Points of the forfeiting side.")
    late_forfeit_minutes: int = Field(
        default=15, gt=0, description="Minutes of lateness after the start that count as a forfeit."
    )
    card_report_threshold: int = Field(
        default=10, gt=0, le=27, description="A player must report the cards left once at or below this."
    )
    missed_report_level_penalty: int = Field(
        default=0, ge=0, description="Levels a side loses for a missed card report (0: none)."
    )
    missed_reports_to_lose: int | None = Field(
        default=None, gt=0, description="Missed card reports that lose the game; null: never."
    )
    missed_report_counts_as_foul: bool = Field(
        default=False, description="Whether a missed or false card report is recorded as a foul."
    )
    warnings_to_lose: int | None = Field(
        default=None, gt=0, description="Warnings that lose the game (the last one loses); null: never."
    )
    fouls_to_lose: int | None = Field(
        default=None, gt=0, description="Fouls that lose the game; null: never."
    )
    tribute_return_max_rank: int | None = Field(
        default=10,
        ge=LOWEST_LEVEL,
        le=ACE,
        description="Highest rank the first finisher may return for a tribute (11=J … 14=A); null: any.",
    )
    tribute_return_excludes_level_and_ace: bool = Field(
        default=False, description="Whether the returned card may not be a level card or an A."
    )
    tribute_double_down_last_leads: bool = Field(
        default=False,
        description="After a double-down the last finisher leads the deal instead of the larger payer.",
    )
    per_deal_record_required: bool = Field(
        default=False,
        description="Whether every deal must be recorded; otherwise the final result alone is accepted.",
    )
    standings: StandingsScheme = Field(
        default=StandingsScheme.LEVEL_POINTS,
        description="How results become a ranking: 'level_points' (sum of game points), "
        "'wins_then_points', 'match_points' (win/draw/loss points, level difference as sub-score), "
        "'placement' (knockout tiers).",
    )
    tie_breaks: tuple[TieBreak, ...] = Field(
        default=(TieBreak.POINTS, TieBreak.LOT),
        description="Ranking keys in order, the first being the primary key.",
    )
    match_win_points: int = Field(default=2, description="Match points for a won game or match.")
    match_draw_points: int = Field(default=1, description="Match points for a drawn game or match.")
    match_loss_points: int = Field(default=0, description="Match points for a lost game or match.")
    best_of: int = Field(default=1, gt=0, description="Games in a match (chess/Go best of 3); odd.")
    advance_count: int | None = Field(
        default=None,
        gt=0,
        description="How many of a group or Gongzhu table advance to the next stage; null: not staged.",
    )
    gongzhu_target: int = Field(
        default=1000, gt=0, description="A Gongzhu game ends when a player's total reaches ±target."
    )

    @field_validator("level_points")
    @classmethod
    def _every_level(cls, table: dict[int, int]) -> dict[int, int]:
        if set(table) != set(range(LOWEST_LEVEL, ACE + 1)):
            raise ValueError(f"level_points must have exactly the levels 2..14, got {sorted(table)}")
        return table

    @field_validator("best_of")
    @classmethod
    def _odd(cls, games: int) -> int:
        if games % 2 == 0:
            raise ValueError(f"best_of must be odd, got {games}")
        return games

    @model_validator(mode="after")
    def _coherent(self) -> RuleSet:
        if self.forfeit_winner_points < self.forfeit_loser_points:
            raise ValueError(
                f"forfeit_winner_points {self.forfeit_winner_points} is below "
                f"forfeit_loser_points {self.forfeit_loser_points}"
            )
        if not self.match_win_points >= self.match_draw_points >= self.match_loss_points:
            raise ValueError("match points must satisfy win >= draw >= loss")
        if (self.final_phase_minutes > 0) != (self.final_phase_play_seconds is not None):
            raise ValueError("final_phase_minutes and final_phase_play_seconds go together")
        return self


_PRESETS: dict[str, RuleSet] = {
    rules.name: rules
    for rules in (
        RuleSet(
            name="default",
            citation="A generic timed Guandan pairs game on the common rules all five seeds share.",
            notes=(
                "60 minutes, the deal in hand is finished; higher level wins, equal levels draw.",
                "Passing A: first finisher on the declaring side and the partner not last; "
                "three failed deals at A send the side back to 2 (seeds 001, 003, 004 agree).",
                "Standings by match points 2/1/0 with the level difference as sub-score "
                "(national 2017 rules), then head-to-head, then lot.",
            ),
            time_limit_minutes=60,
            forfeit_winner_points=14,
            forfeit_loser_points=0,
            standings=StandingsScheme.MATCH_POINTS,
            tie_breaks=(TieBreak.POINTS, TieBreak.SUB_SCORE, TieBreak.HEAD_TO_HEAD, TieBreak.LOT),
            discipline=Discipline.GUANDAN,
        ),
        RuleSet(
            name="nuist-2023",
            citation="Seed 000 (NUIST 2023 team event): §九.1–3, 附件 五, 七, 八.1, 九.1, 九.4, 三.1.",
            notes=(
                "§九.1 '一方打到A … 本轮结束' is read as passing A: §九.2 scores 'passed A' 15, "
                "which reaching A alone could never earn.",
                "§九.1 + 附件 九.4: in the last 5 minutes a deal in hand is finished, no new one starts.",
                "Equal levels at time need no winner: each pair scores its level (§九.2); "
                "unequal levels: 附件 七.1 级数高者胜.",
                "Failed attempts at A are not mentioned: no limit, no demotion (a demotion would "
                "be a penalty the notice does not state).",
                "Every deal is recorded (附件 八.1 逐副比赛结果).",
                "Standings: sum of level points, then sub-scores, then lot (附件 七.2).",
            ),
            time_limit_minutes=50,
            no_new_deal_minutes=5,
            tie_at_time=TieAtTime.POINTS_ONLY,
            a_attempts_limit=None,
            forfeit_winner_points=15,
            forfeit_loser_points=2,
            late_forfeit_minutes=5,
            per_deal_record_required=True,
            standings=StandingsScheme.LEVEL_POINTS,
            tie_breaks=(TieBreak.POINTS, TieBreak.SUB_SCORE, TieBreak.LOT),
            discipline=Discipline.GUANDAN,
        ),
        RuleSet(
            name="nsi-2023",
            citation="Seed 001 (NSI 2023 pairs, Swiss): 第三条, 第四条, 第七条, 第八条, 补充说明 3, 4, 9.",
            notes=(
                "补充说明 3 '在规定时间内如未过A，则领先者获胜' is read as: the higher level wins; "
                "equal levels have no leader and the game is drawn.",
                "'在规定时间内' is read as stop at once: the deal in hand at the bell does not count.",
                "第四条 '总计三次A打不过去，退到2重打': three failed deals at A (in total while at A) "
                "send the side back to 2.",
                "Every deal is recorded (补充说明 4); forfeit 14:0 (补充说明 9).",
                "Standings: wins, then total points (三, 补充说明 3); lot as the last resort.",
            ),
            time_limit_minutes=50,
            at_time=AtTime.STOP_AT_ONCE,
            tie_at_time=TieAtTime.DRAW,
            forfeit_winner_points=14,
            forfeit_loser_points=0,
            late_forfeit_minutes=15,
            per_deal_record_required=True,
            standings=StandingsScheme.WINS_THEN_POINTS,
            tie_breaks=(TieBreak.WINS, TieBreak.POINTS, TieBreak.LOT),
            discipline=Discipline.GUANDAN,
        ),
        RuleSet(
            name="ahut-2017",
            citation="Seed 002 (AHUT 2017 pairs knockout): §二.4 亮牌规则, §二.5, §二.6, §四.",
            notes=(
                "'在1小时中' is read as stop at once; the last 10 minutes allow 1 minute per play.",
                "Equal levels at time: the side that reached that level first wins (§二.5).",
                "'A未打过不降级': failed deals at A are unlimited and never demote.",
                "'手中牌剩余7张时应主动报牌，否则扣一级，两次以上判负': a missed report costs one "
                "level; the second missed report loses the game.",
                "Warnings: the second loses the game (§二.5, §二.6).",
                "Forfeit points are irrelevant in a knockout; the default figures are kept.",
            ),
            time_limit_minutes=60,
            at_time=AtTime.STOP_AT_ONCE,
            tie_at_time=TieAtTime.FIRST_TO_REACH,
            final_phase_minutes=10,
            final_phase_play_seconds=60,
            a_attempts_limit=None,
            late_forfeit_minutes=15,
            card_report_threshold=7,
            missed_report_level_penalty=1,
            missed_reports_to_lose=2,
            warnings_to_lose=2,
            standings=StandingsScheme.PLACEMENT,
            tie_breaks=(),
            discipline=Discipline.GUANDAN,
        ),
        RuleSet(
            name="institute-2021",
            citation="Seed 003 (2021 institute pairs knockout): §六, §七.5, §七.6, §八.3, §八.5, §九.1, §十.",
            notes=(
                "'到时即停': the deal in hand at the bell does not count.",
                "Equal levels at time: the side on stage (the declarer of the next deal) wins; "
                "before any deal is completed nobody is on stage and the game is drawn.",
                "§七.5 '三次打A不升级则当局一家回到打2': three failed deals at A send the side to 2.",
                "A missed or false card report is a foul (§八.3); three fouls lose (§八.5(3)).",
                "Tribute return: at most 10 and neither a level card nor an A (§七.6).",
            ),
            time_limit_minutes=45,
            at_time=AtTime.STOP_AT_ONCE,
            tie_at_time=TieAtTime.DECLARER,
            late_forfeit_minutes=10,
            missed_report_counts_as_foul=True,
            fouls_to_lose=3,
            tribute_return_excludes_level_and_ace=True,
            standings=StandingsScheme.PLACEMENT,
            tie_breaks=(),
            discipline=Discipline.GUANDAN,
        ),
        RuleSet(
            name="hlju-2016",
            citation="Seed 004 (HLJU 2016) 掼蛋比赛规则 §1–3; notice 四.2.",
            notes=(
                "The seed has four events; each has its own preset: hlju-2016 (Guandan), "
                "hlju-2016-gongzhu, hlju-2016-xiangqi, hlju-2016-go.",
                "'打A时，只要已方不出现末游就算通过' is read literally: a deal at the side's A passes "
                "when neither of its players finishes last, even if an opponent finishes first.",
                "'时间终了时，必须将当次牌打完': the deal in hand counts; '同级加赛一次，先升级的为获胜方': "
                "equal levels play one extra deal and its first finisher's side wins.",
                "Three failed deals at A send the side back to 2 (§1, §2).",
                "Tribute return: any card (§3 还一张任意牌).",
            ),
            time_limit_minutes=60,
            tie_at_time=TieAtTime.EXTRA_DEAL,
            pass_a_condition=PassACondition.NO_LAST_ON_SIDE,
            late_forfeit_minutes=15,
            tribute_return_max_rank=None,
            tribute_double_down_last_leads=True,  # seed 004 §3: 双下 … 末游先出牌
            standings=StandingsScheme.PLACEMENT,
            tie_breaks=(),
            discipline=Discipline.GUANDAN,
        ),
        RuleSet(
            name="hlju-2016-gongzhu",
            discipline=Discipline.GONGZHU,
            citation="Seed 004 (HLJU 2016) 拱猪比赛规则 §1–7; notice 四.2.",
            notes=(
                "The sheep is J♦: the 得分牌 line's 羊'红桃J' contradicts the seed's own §2 and "
                "the sheep's line (方片J); J♥ is an ordinary heart worth −20.",
                "The transformer doubles (exposed: ×4) the sum of its holder's other scoring cards, "
                "pig and 满红 included; it is +50 (exposed +100) only when its holder has no other "
                "scoring card at all, a 0-point heart 2–4 counting as one (得分牌 lists 所有红桃).",
                "满红 (+200, exposed A♥ +400) replaces the hearts' negative sum; a pig or sheep "
                "taken with it still counts.",
                "满贯 is read as the standard tally: hearts +200, pig +100, sheep +100, ×2 for the "
                "transformer = 800; each exposure doubles its own part, so at most (400+200+200)×4.",
                "Three exposed specials expose the fourth.",
                "The game ends after the hand in which a total reaches +1000 or −1000; the top two "
                "of the table by total advance.",
            ),
            gongzhu_target=1000,
            advance_count=2,
            late_forfeit_minutes=15,
            standings=StandingsScheme.PLACEMENT,
            tie_breaks=(TieBreak.POINTS,),
        ),
        *(
            RuleSet(
                name=f"hlju-2016-{discipline.value}",
                discipline=discipline,
                citation="Seed 004 (HLJU 2016) notice 三.1, 四.2.",
                notes=(
                    "Group round robin, top two advance, final round robin; matches are best of 3 "
                    "(三局两胜制).",
                    "A drawn game gives each player ½; a match is decided once the leader is ahead "
                    "by more than the games left, else after the third game; a level match is drawn.",
                    "Match points 2/1/0 for a won/drawn/lost match; ties by head-to-head, then game "
                    "points (sub-score), then lot — the notice states no tie-break.",
                ),
                best_of=3,
                advance_count=2,
                late_forfeit_minutes=15,
                standings=StandingsScheme.MATCH_POINTS,
                tie_breaks=(TieBreak.POINTS, TieBreak.HEAD_TO_HEAD, TieBreak.SUB_SCORE, TieBreak.LOT),
            )
            for discipline in (Discipline.XIANGQI, Discipline.GO)
        ),
    )
}


def preset(name: str) -> RuleSet:
    """The named preset; a deep copy, so callers cannot alter the shared one."""
    try:
        return _PRESETS[name].model_copy(deep=True)
    except KeyError:
        raise NotFound(
            f"no rule set preset named {name!r}; known: {', '.join(sorted(_PRESETS))}",
            rule="unknown-preset",
            field="name",
        ) from None


def presets() -> list[RuleSet]:
    """All presets, ordered by name."""
    return [preset(name) for name in sorted(_PRESETS)]


def with_overrides(base: RuleSet, overrides: dict[str, Any]) -> RuleSet:
    """``base`` with some fields replaced, validated as a whole."""
    unknown = sorted(set(overrides) - set(RuleSet.model_fields))
    if unknown:
        raise InvalidInput(
            f"unknown rule set field(s): {', '.join(unknown)}", rule="unknown-rule-field", field=unknown[0]
        )
    try:
        return RuleSet.model_validate({**base.model_dump(), **overrides})
    except ValidationError as error:
        first = error.errors()[0]
        location = ".".join(str(part) for part in first["loc"])
        raise InvalidInput(
            f"invalid rule set override {location or '(whole rule set)'}: {first['msg']}",
            rule="invalid-rule-field",
            field=location or next(iter(overrides), None),
        ) from None
