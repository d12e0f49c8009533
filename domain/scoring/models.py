"""Requests and answers of the scoring endpoints: deals, game states, corrections, standings.

Plain pydantic models; the service fills them, the routers return them. Public answers carry names
and figures only (no phone numbers, no staff ids).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rules.levels import Seat, Side


class GameState(StrEnum):
    IN_PLAY = "in_play"
    ENDED = "ended"
    """Decided (passed A, time, forfeit, penalty): waiting for both sides to confirm."""
    FINAL = "final"
    """Both sides confirmed (seed 000 §九.4): only a referee's correction changes it."""


class PenaltyKind(StrEnum):
    WARNING = "warning"
    FOUL = "foul"
    MISSED_REPORT = "missed_report"
    """A card report not made (seed 002 §二.4 at 7 cards; seed 003 §八.3 at 10, a foul there)."""


class ForfeitReason(StrEnum):
    LATE_ARRIVAL = "late_arrival"
    SUBSTITUTION = "substitution"
    ABSENT = "absent"
    OTHER = "other"


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TributeIn(_In):
    """The recorded tribute before this deal, checked by the rules (seed 000 附件 三)."""

    paid: dict[Seat, str] = Field(default_factory=dict, description="each payer's tribute card, e.g. HR")
    returned: dict[Seat, str] = Field(default_factory=dict, description="each receiver's returned card")
    big_jokers: dict[Seat, int] | None = Field(
        default=None, description="big jokers each payer holds (two on the paying side refuse: 抗贡)"
    )
    leader: Seat | None = Field(
        default=None,
        description="who led the deal, when the form records it; checked against the rule set "
        "(the larger payer, or the last finisher after a double-down under seed 004 §3)",
    )


class PenaltyIn(_In):
    seat: Seat
    kind: PenaltyKind
    deal_no: int | None = Field(
        default=None, ge=1, description="the deal it belongs to; a missed report costs levels after it"
    )
    note: str = Field(default="", max_length=500)


class DealIn(_In):
    deal_no: int = Field(ge=1, description="1 for the first deal; deals are numbered without gaps")
    finish_order: list[Seat] = Field(min_length=4, max_length=4, description="seats from first to last")
    tribute: TributeIn | None = Field(default=None, description="from deal 2 on, when the form records it")
    penalties: list[PenaltyIn] = Field(
        default_factory=list, description="penalties in this deal (a referee's caller only)"
    )
    note: str = Field(default="", max_length=500)


class DealEdit(_In):
    finish_order: list[Seat] = Field(min_length=4, max_length=4)
    tribute: TributeIn | None = None
    note: str = Field(default="", max_length=500)


class TimeUpIn(_In):
    deals_completed: int | None = Field(
        default=None,
        ge=0,
        description="deals completed when time ran out; default: every deal posted so far. Where the "
        "deal in hand is finished (seed 000 §九.1), post it first.",
    )


class FinalResultIn(_In):
    """The levels reached, for events whose rules accept a final result without every deal."""

    ns_level: int = Field(ge=2, le=14, description="2..14, A = 14")
    ew_level: int = Field(ge=2, le=14)
    passed_a: Side | None = Field(default=None, description="the side that passed A, if one did")
    on_stage: Side = Field(description="the side that declared the last deal (在台上的一方)")
    reached_first: Side | None = Field(
        default=None, description="at equal levels: the side that reached that level first"
    )


class ForfeitIn(_In):
    forfeiting: Side
    reason: ForfeitReason
    note: str = Field(default="", max_length=500)


class ConfirmationIn(_In):
    side: Side = Field(description="the side confirming the result (双方确认, seed 000 §九.4)")


class MatchGameIn(_In):
    game_no: int = Field(ge=1, description="1, 2, 3 in a best of 3")
    result: str = Field(description="win, draw or loss (or 1-0, ½-½, 0-1) for the first-named player")


class CorrectionIn(_In):
    """A referee's change to a result after confirmation (seed 000 §十), with its reason."""

    reason: str = Field(min_length=3, max_length=500)
    deal_no: int | None = Field(default=None, ge=1, description="the deal to correct")
    finish_order: list[Seat] | None = Field(default=None, min_length=4, max_length=4)
    final_result: FinalResultIn | None = Field(
        default=None, description="corrected levels (final result only)"
    )


class DealOut(BaseModel):
    deal_no: int
    finish_order: list[Seat]
    declarer: Side | None = Field(description="the side whose level was played; none for deal 1")
    level_played: int
    winner: Side = Field(description="the first finisher's side")
    promotion: int = Field(description="levels its side went up (3, 2 or 1)")
    failed_a: bool
    ns_level: int = Field(description="N–S level after the deal (and its penalties)")
    ew_level: int
    tribute: dict[str, object] | None
    note: str
    version: int = Field(description="send it back in If-Match to edit this deal")


class SideOut(BaseModel):
    side: Side
    entry_id: int | None
    entry_name: str | None
    players: list[str] = Field(description="names by seat: N/S or E/W, or the chess/Go player")
    branch: str | None = Field(default=None, description="the branch's name")
    level: int
    passed_a: bool
    a_failures: int
    points: int
    confirmed: bool


class PenaltyOut(BaseModel):
    seat: Seat
    kind: PenaltyKind
    deal_no: int | None
    note: str
    created_at: datetime


class GameOut(BaseModel):
    game_id: int
    event_id: int
    round_id: int
    match_id: int
    game_no: int
    table_no: int | None
    state: GameState
    status: str = Field(description="the rules' verdict: in_progress, won, drawn, points_only, …")
    reason: str = Field(
        description="passed-a, higher-level, first-to-reach, declarer, extra-deal, forfeit, …"
    )
    winner: Side | None
    ns: SideOut
    ew: SideOut
    declarer: Side | None = Field(description="the side on stage: it declares the next deal")
    next_level: int = Field(description="the level the next deal is played at")
    summary: str = Field(description="for the form, e.g. 'N–S play 9, E–W on 7'")
    time_up_after: int | None
    forfeit_side: Side | None
    match_games: list[str] = Field(default_factory=list, description="chess/Go games of a best of N")
    deals: list[DealOut]
    penalties: list[PenaltyOut]
    version: int


class StandingsMove(BaseModel):
    entry_id: int
    entry_name: str
    group: str | None
    rank_before: int | None
    rank_after: int | None
    points_before: int | None
    points_after: int | None


class CorrectionOut(BaseModel):
    game: GameOut
    window: Literal["before_confirmation", "entry_error", "published_results"]
    window_closes_at: datetime | None
    standings_moves: list[StandingsMove] = Field(description="entries whose rank or points change")
    published_later_rounds: list[int] = Field(
        description="numbers of later rounds already published: they stay as they are (seed 000 §十.4)"
    )


class AuditOut(BaseModel):
    id: int
    action: str
    actor: str
    reason: str
    before: dict[str, object] | None
    after: dict[str, object] | None
    created_at: datetime


class ScorerTokenOut(BaseModel):
    game_id: int
    match_no: int
    game_no: int
    table_no: int | None
    token: str
    expires_at: datetime
    url_path: str = Field(
        description="the phone scoring form's link (/score/{game_id}?token=…): append it to the service's address"
    )


class TieOut(BaseModel):
    tied_on: str
    tied_value: int
    tied_with: int = Field(description="how many entries shared that figure, this one included")
    separated_by: str | None
    text: str


class StandingOut(BaseModel):
    rank: int
    entry_id: int
    entry_name: str
    branch: str
    points: int
    bonus: int
    wins: int
    draws: int
    losses: int
    games: int
    provisional_games: int = Field(description="live games counted (provisional standings only)")
    figures: dict[str, int] = Field(description="every figure of the tie-break chain")
    tie: TieOut | None


class GroupStandingsOut(BaseModel):
    group: str | None
    scheme: str
    chain: list[str]
    rows: list[StandingOut]


class StandingsOut(BaseModel):
    event_id: int
    stage: str | None
    results_version: int
    provisional: bool
    groups: list[GroupStandingsOut]


class AwardOut(BaseModel):
    prize: str
    entry_id: int
    entry_name: str
    branch: str
    group: str | None
    rank: int = Field(description="top N: the standing rank; a prize tier: 1 + the entries of better tiers")


class AwardsOut(BaseModel):
    event_id: int
    results_version: int
    final: bool = Field(description="the event is finished: every round played, every result final")
    awards: list[AwardOut]


class DealAnswer(BaseModel):
    """A posted or edited deal and the game it leaves (the form shows ``game.summary``)."""

    deal: DealOut
    game: GameOut


# --- Gongzhu tables (seed 004 拱猪比赛规则) ----------------------------------------------------

CARDS_EXAMPLE = "cards as SQ, DJ, CT (or C10), H2 … HA"


class HandIn(_In):
    """One Gongzhu hand as the table's form records it: the cards each seat captured, and the
    specials exposed (亮牌) before play."""

    hand_no: int = Field(ge=1, description="1 for the first hand; hands are numbered without gaps")
    captured: dict[Seat, list[str]] = Field(
        description=f"the cards each of N, E, S, W took in its tricks ({CARDS_EXAMPLE}); every scoring "
        "card is somewhere, no card twice"
    )
    exposed: list[str] = Field(
        default_factory=list, description="exposed specials: SQ, DJ, CT, HA (三张亮过则第四张自动亮出)"
    )


class HandEdit(_In):
    captured: dict[Seat, list[str]]
    exposed: list[str] = Field(default_factory=list)


class TableOrderIn(_In):
    """A referee's order of a finished Gongzhu table whose totals tie (seed 004 四.1 服从裁判的判罚)."""

    ranking: list[Seat] = Field(
        min_length=4, max_length=4, description="the four seats best first; only equal totals may swap"
    )
    reason: str = Field(min_length=3, max_length=500, description="how the tie was settled, e.g. 'lot'")


class HandOut(BaseModel):
    hand_no: int
    captured: dict[Seat, list[str]]
    exposed: list[str]
    scores: dict[Seat, int] = Field(description="each seat's score for the hand (拱猪 §3–6)")
    totals: dict[Seat, int] = Field(description="running totals after this hand")
    version: int = Field(description="send it back in If-Match to edit this hand")


class TablePlayerOut(BaseModel):
    seat: Seat
    entry_id: int | None
    name: str


class TableGameOut(BaseModel):
    """A Gongzhu table game: seats, hands, totals, and once a total reaches ±target, who goes on."""

    discipline: Literal["gongzhu"] = "gongzhu"
    game_id: int
    event_id: int
    round_id: int
    match_id: int
    table_no: int | None
    state: GameState
    target: int = Field(description="the game ends when a total reaches ±target (拱猪 §7: 1000)")
    players: list[TablePlayerOut]
    hands: list[HandOut]
    totals: dict[Seat, int]
    over: bool
    ranking: list[Seat] = Field(description="seats by total, best first (the referee's order on a tie)")
    advancing: list[Seat] = Field(description="the top two once the game is over (前两名进入下一轮)")
    tied_at_cut: list[Seat] = Field(
        description="seats level on the total at the advancing cut: a referee orders them "
        "(POST /games/{id}/table-order) before the result can be confirmed"
    )
    ordered_by_referee: bool
    confirmed: dict[Side, bool] = Field(description="N–S and E–W players confirm the table's result")
    version: int
