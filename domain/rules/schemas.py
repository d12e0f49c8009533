"""Request and answer models of the rules endpoints (public: scoring forms, referees)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from domain.rules.levels import Seat, Side

Level = str | int
CardText = str


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReadingSpec(_In):
    """Settles a wildcard ambiguity: read the cards as this type (and rank)."""

    type: str = Field(description="combo type, e.g. full_house", examples=["full_house"])
    rank: Level | None = Field(default=None, description="deciding rank, e.g. 7 or A")


class ReadingOut(BaseModel):
    type: str = Field(
        description="single, pair, triple, full_house, straight, three_pairs, two_triples, "
        "bomb, straight_flush or four_jokers"
    )
    rank: str = Field(description="deciding rank: a run's top card in natural order, a full house's triple")
    size: int = Field(description="number of cards")
    wildcards_as: list[str] = Field(description="the natural card each heart level card stands for")


class ClassifyRequest(_In):
    level: Level = Field(description="the level being played: 2..10 (or T), J, Q, K, A")
    cards: list[CardText] = Field(
        min_length=1, max_length=10, description="1 to 10 cards, e.g. H7 ST SB HR ♠10"
    )


class ClassifyAnswer(BaseModel):
    level: str
    cards: list[str] = Field(description="the cards in canonical notation")
    valid: bool = Field(description="whether the cards form at least one combo")
    readings: list[ReadingOut] = Field(description="every valid reading, strongest first")


class CompareRequest(_In):
    level: Level
    play: list[CardText] = Field(min_length=1, max_length=10, description="the cards being played")
    against: list[CardText] = Field(min_length=1, max_length=10, description="the play on the table")
    play_as: ReadingSpec | None = None
    against_as: ReadingSpec | None = None


class CompareAnswer(BaseModel):
    beats: bool
    play: ReadingOut = Field(description="the play's strongest reading that beats, else its strongest")
    against: ReadingOut = Field(description="the reading of the play on the table")


class RulesChoice(_In):
    """A rule set: a preset by name, optionally with overridden fields."""

    preset: str = Field(default="default", description="a preset name from GET /rules/presets")
    rules: dict[str, Any] = Field(default_factory=dict, description="fields of the preset to override")


class DealIn(_In):
    finish_order: list[str] = Field(
        min_length=4, max_length=4, description="seats first to last, e.g. N S E W"
    )
    level_adjustments: dict[str, int] = Field(
        default_factory=dict, description='level changes from penalties, e.g. {"EW": -1}'
    )


class LevelsRequest(RulesChoice):
    deals: list[DealIn] = Field(max_length=500, description="the game's deals in order")
    time_up_after: int | None = Field(
        default=None, ge=0, description="deals completed when time ran out (omit while the game runs)"
    )


class SideOut(BaseModel):
    level: int = Field(description="2..14 (14 = A)")
    label: str = Field(description="2..10, J, Q, K, A")
    reached_at: int = Field(description="deal after which the side stood at this level (0: from the start)")
    a_failures: int
    passed_a: bool


class DealOut(BaseModel):
    number: int
    finish_order: list[Seat]
    declarer: Side | None = Field(description="side whose level was played; none for the first deal")
    level_played: int
    winner: Side
    promotion: int
    failed_a: bool
    sides: dict[Side, SideOut]


class OutcomeOut(BaseModel):
    status: str = Field(description="in_progress, won, drawn, points_only or extra_deal_required")
    winner: Side | None
    reason: str
    points: dict[Side, int]


class LevelsAnswer(BaseModel):
    preset: str
    deals: list[DealOut]
    sides: dict[Side, SideOut]
    declarer: Side | None = Field(description="the side on stage, declaring the next deal")
    next_level: int = Field(description="the level the next deal is played at")
    passed_a: Side | None
    over: bool
    outcome: OutcomeOut


class TributeRequest(RulesChoice):
    level: Level = Field(description="the coming deal's level")
    finish_order: list[str] = Field(
        min_length=4, max_length=4, description="the previous deal's, first to last"
    )
    paid: dict[str, CardText] = Field(default_factory=dict, description="tribute card by paying seat")
    returned: dict[str, CardText] = Field(
        default_factory=dict,
        description="returned card, by the seat that returns it (the tribute's receiver)",
    )
    big_jokers: dict[str, int] | None = Field(default=None, description="big jokers each paying seat holds")
    hands: dict[str, list[CardText]] | None = Field(
        default=None, description="the paying seats' hands as dealt (lets the engine check 'highest card')"
    )


class TransferOut(BaseModel):
    giver: Seat
    receiver: Seat
    card: str


class TributeAnswer(BaseModel):
    refused: bool = Field(description="抗贡: the paying side held both big jokers")
    tributes: list[TransferOut]
    returns: list[TransferOut]
    leader: Seat = Field(description="who leads the deal")


class GongzhuRequest(_In):
    captured: list[list[CardText]] = Field(
        min_length=4, max_length=4, description="each player's captured cards, in seat order"
    )
    exposed: list[CardText] = Field(default_factory=list, max_length=4, description="exposed (亮) cards")


class GongzhuAnswer(BaseModel):
    scores: list[int] = Field(description="each player's score for the hand, in seat order")
