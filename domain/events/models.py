"""Competitions, events and entries as plain values: the event configuration and what the
schedule and scoring areas read back (confirmed entries, lineups).

Times are timezone-aware; a naive time is read as Asia/Shanghai, where every competition runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

COMPETITION_TZ = ZoneInfo("Asia/Shanghai")


def as_utc(moment: datetime) -> datetime:
    """An aware moment in UTC; a naive one is read as Asia/Shanghai local time."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=COMPETITION_TZ)
    return moment.astimezone(UTC)


def local_text(moment: datetime) -> str:
    """How a moment reads on a notice: Asia/Shanghai wall time."""
    return moment.astimezone(COMPETITION_TZ).strftime("%Y-%m-%d %H:%M")


Moment = Annotated[
    datetime,
    AfterValidator(as_utc),
    Field(
        description="ISO 8601; with an offset, or read as Asia/Shanghai time when it has none. Stored UTC."
    ),
]


class EntryKind(StrEnum):
    TEAM = "team"
    PAIR = "pair"
    INDIVIDUAL = "individual"


class Format(StrEnum):
    TEAM_ROTATION = "team_rotation"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    ROUND_ROBIN = "round_robin"


class EventState(StrEnum):
    DRAFT = "draft"
    REGISTRATION_OPEN = "registration_open"
    REGISTRATION_CLOSED = "registration_closed"
    DRAWN = "drawn"
    RUNNING = "running"
    FINISHED = "finished"


class EntryStatus(StrEnum):
    DRAFT = "draft"  # formed by the branch
    SUBMITTED = "submitted"  # approved by the branch and sent to the union
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    WITHDRAWN = "withdrawn"


class QuotaKind(StrEnum):
    NONE = "none"
    FIXED = "fixed"
    TABLE = "table"
    TIERED = "tiered"


class QuotaTier(BaseModel):
    model_config = ConfigDict(extra="forbid")

    up_to_members: int | None = Field(
        default=None, ge=0, description="Highest member count of this tier (inclusive); null: no ceiling."
    )
    entries: int = Field(ge=0, description="Entries a branch of this tier may field.")


class QuotaPolicy(BaseModel):
    """How many entries (名额) a branch may field in one event.

    ``fixed``: ``per_branch`` each (seed 004: chess 2, Go 2, Guandan 1 pair, Gongzhu 2);
    ``table``: ``table[branch code]``, else ``default`` (seeds 002, 003);
    ``tiered``: by the branch's member count, tiers in ascending order (seed 001 §一).
    """

    model_config = ConfigDict(extra="forbid")

    kind: QuotaKind = QuotaKind.NONE
    per_branch: int | None = Field(default=None, ge=0, description="For kind fixed.")
    table: dict[str, int] = Field(default_factory=dict, description="For kind table: branch code → entries.")
    default: int = Field(default=0, ge=0, description="For kind table: entries of a branch not in the table.")
    tiers: list[QuotaTier] = Field(default_factory=list, description="For kind tiered, ascending.")
    citation: str = Field(default="", description="Where the figures come from, quoted in refusals.")

    @model_validator(mode="after")
    def _complete(self) -> QuotaPolicy:
        if self.kind is QuotaKind.FIXED and self.per_branch is None:
            raise ValueError("a fixed quota needs per_branch")
        if self.kind is QuotaKind.TIERED:
            if not self.tiers or self.tiers[-1].up_to_members is not None:
                raise ValueError("tiered quotas need tiers, the last one without a ceiling")
            ceilings = [tier.up_to_members for tier in self.tiers[:-1]]
            bounded = [c for c in ceilings if c is not None]
            if len(bounded) != len(ceilings) or bounded != sorted(set(bounded)):
                raise ValueError("tier ceilings must rise strictly; only the last tier has none")
        if any(n < 0 for n in self.table.values()):
            raise ValueError("table quotas cannot be negative")
        return self


class Bracket(StrEnum):
    """Which draw of a knockout a match belongs to: the main draw, or the match of the semi-final
    losers for third place (seed 004 掼蛋 §1 最后角逐一、二、三、四名)."""

    MAIN = "main"
    THIRD_PLACE = "third_place"


class AwardTier(BaseModel):
    """A prize tier by the round an entry won or lost (seed 003 §十), in the main draw or in the
    third-place match (seed 004 掼蛋 §1: the final gives 1st and 2nd, that match 3rd and 4th)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60, examples=["一等奖"])
    round: int = Field(ge=1)
    result: Literal["winners", "losers"]
    bracket: Bracket = Field(
        default=Bracket.MAIN, description="third_place: the third-place match, played beside the final."
    )


class AwardsPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    top_n: int | None = Field(default=None, ge=1, description="Places awarded (seed 000, 001: 8).")
    per_group: bool = Field(default=False, description="top_n in each group (seed 002: 8 of A and of B).")
    tiers: list[AwardTier] = Field(default_factory=list)


class RoundTime(BaseModel):
    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)
    starts_at: Moment
    ends_at: Moment

    @model_validator(mode="after")
    def _ordered(self) -> RoundTime:
        if self.ends_at <= self.starts_at:
            raise ValueError(f"round {self.number} ends before it starts")
        return self


# The roster sizes a seed names: a team of 10–15 incl. leader and coach (seed 000 §六.1),
# a pair of exactly 2, a single player; seed 000 fields 5 pairs per team match (§八.2).
KIND_DEFAULTS: dict[EntryKind, dict[str, Any]] = {
    EntryKind.TEAM: {"roster_min": 10, "roster_max": 15, "pairs_per_match": 5, "leader_required": True},
    EntryKind.PAIR: {"roster_min": 2, "roster_max": 2},
    EntryKind.INDIVIDUAL: {"roster_min": 1, "roster_max": 1},
}


class EventConfig(BaseModel):
    """Everything an event fixes beyond its rule set; stored in ``event.config``."""

    model_config = ConfigDict(extra="forbid")

    rounds: int | None = Field(
        default=None, ge=1, description="Rounds to play; null when the format decides."
    )
    round_times: list[RoundTime] = Field(default_factory=list)
    groups: list[str] = Field(default_factory=list, description='e.g. ["A", "B"]; empty for none.')
    roster_min: int = Field(ge=1, description="Fewest people on a roster, leader and coach included.")
    roster_max: int = Field(ge=1)
    pairs_per_match: int | None = Field(default=None, ge=1, description="Pairs a team fields each round.")
    quota: QuotaPolicy = Field(default_factory=QuotaPolicy)
    leader_entries_outside_quota: bool = Field(
        default=False, description="School leaders enter with any member, outside quota (seed 001 §一)."
    )
    leader_required: bool = Field(default=False, description="An entry must name its leader to be submitted.")
    awards: AwardsPolicy = Field(default_factory=AwardsPolicy)
    dean_bonus_per_member: int = Field(default=0, ge=0, description="seed 000 §七: 1 per dean who plays.")
    dean_bonus_cap: int | None = Field(default=None, ge=0, description="seed 000 §七: at most 2.")
    same_branch_apart: bool = False
    third_place_match: bool = False
    advance_per_group: int | None = Field(default=None, ge=1, description="seed 004: top 2 of each group.")
    entry_error_minutes: int = Field(default=10, ge=0, description="seed 000 附件 十.2")
    published_results_minutes: int = Field(default=20, ge=0, description="seed 000 附件 十.3")

    @model_validator(mode="after")
    def _coherent(self) -> EventConfig:
        if self.roster_min > self.roster_max:
            raise ValueError(f"roster_min {self.roster_min} is above roster_max {self.roster_max}")
        numbers = [slot.number for slot in self.round_times]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"round_times must be numbered 1, 2, … in order; got {numbers}")
        if self.rounds is not None and len(numbers) > self.rounds:
            raise ValueError(f"{len(numbers)} round times for {self.rounds} rounds")
        for earlier, later in zip(self.round_times, self.round_times[1:], strict=False):
            if later.starts_at < earlier.ends_at:
                raise ValueError(f"round {later.number} starts before round {earlier.number} ends")
        if not self.third_place_match and any(t.bracket is Bracket.THIRD_PLACE for t in self.awards.tiers):
            raise ValueError(
                "an award tier names the third-place match; the event plays none (third_place_match)"
            )
        if len(set(self.groups)) != len(self.groups):
            raise ValueError(f"group names repeat: {self.groups}")
        if self.pairs_per_match is not None and 2 * self.pairs_per_match > self.roster_max:
            raise ValueError(
                f"{self.pairs_per_match} pairs need {2 * self.pairs_per_match} players; "
                f"roster_max is {self.roster_max}"
            )
        return self

    @classmethod
    def for_kind(cls, entry_kind: EntryKind, data: dict[str, Any]) -> EventConfig:
        """``data`` completed with the roster defaults of ``entry_kind``, validated."""
        return cls.model_validate({**KIND_DEFAULTS[entry_kind], **data})

    def round_time(self, number: int) -> RoundTime | None:
        return next((slot for slot in self.round_times if slot.number == number), None)


@dataclass(frozen=True)
class RosterMember:
    member_id: int
    name: str
    position: int
    is_player: bool
    is_leader: bool
    is_coach: bool
    is_dean_or_secretary: bool
    is_school_leader: bool


@dataclass(frozen=True)
class ConfirmedEntry:
    """A confirmed entry as the draw and the scoring see it."""

    entry_id: int
    name: str
    branch_code: str | None
    branch_name: str | None
    seed: int | None
    outside_quota: bool
    members: tuple[RosterMember, ...]


@dataclass(frozen=True)
class LineupPairValue:
    pair_no: int
    members: tuple[RosterMember, RosterMember]


@dataclass(frozen=True)
class LineupValue:
    """A team's pairs for one round (seed 000 §八.2)."""

    entry_id: int
    round_number: int
    locked: bool
    pairs: tuple[LineupPairValue, ...]

    @property
    def deans(self) -> frozenset[int]:
        """The member ids of the deans and party secretaries among the players (seed 000 §七)."""
        return frozenset(m.member_id for pair in self.pairs for m in pair.members if m.is_dean_or_secretary)

    @property
    def deans_playing(self) -> int:
        """How many deans and party secretaries play this round (seed 000 §七's bonus counts them)."""
        return len(self.deans)
