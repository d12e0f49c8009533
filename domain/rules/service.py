"""The rules as a service: what the public rules endpoints answer. Pure: no database."""

from __future__ import annotations

from collections.abc import Mapping

from domain.errors import InvalidInput
from domain.rules import cards, combos, gongzhu, levels, ruleset, timeup, tribute
from domain.rules.schemas import (
    ClassifyAnswer,
    ClassifyRequest,
    CompareAnswer,
    CompareRequest,
    DealOut,
    GongzhuAnswer,
    GongzhuRequest,
    LevelsAnswer,
    LevelsRequest,
    OutcomeOut,
    ReadingOut,
    ReadingSpec,
    RulesChoice,
    SideOut,
    TransferOut,
    TributeAnswer,
    TributeRequest,
)


def list_presets() -> list[ruleset.RuleSet]:
    return ruleset.presets()


def get_preset(name: str) -> ruleset.RuleSet:
    return ruleset.preset(name)


def resolve_rules(choice: RulesChoice) -> ruleset.RuleSet:
    return ruleset.with_overrides(ruleset.preset(choice.preset), choice.rules)


def tribute_rules(rules: ruleset.RuleSet) -> tribute.TributeRules:
    return tribute.TributeRules(
        return_max_rank=rules.tribute_return_max_rank,
        return_excludes_level_and_ace=rules.tribute_return_excludes_level_and_ace,
        double_down_last_leads=rules.tribute_double_down_last_leads,
    )


def _reading(reading: combos.Reading) -> ReadingOut:
    return ReadingOut(
        type=reading.kind.value,
        rank=cards.rank_label(reading.rank),
        size=reading.size,
        wildcards_as=cards.format_cards(reading.wild_as),
    )


def _spec(spec: ReadingSpec | None) -> combos.ReadingSpec | None:
    if spec is None:
        return None
    return spec.type if spec.rank is None else (spec.type, spec.rank)


def classify(request: ClassifyRequest) -> ClassifyAnswer:
    level = cards.parse_level(request.level)
    played = cards.parse_cards(request.cards)
    readings = combos.classify(played, level)
    return ClassifyAnswer(
        level=cards.rank_label(level),
        cards=cards.format_cards(played),
        valid=bool(readings),
        readings=[_reading(reading) for reading in readings],
    )


def compare(request: CompareRequest) -> CompareAnswer:
    verdict = combos.compare_plays(
        cards.parse_cards(request.play, field="play"),
        cards.parse_cards(request.against, field="against"),
        level=cards.parse_level(request.level),
        play_as=_spec(request.play_as),
        against_as=_spec(request.against_as),
    )
    return CompareAnswer(beats=verdict.beats, play=_reading(verdict.play), against=_reading(verdict.against))


def _side(state: levels.SideState) -> SideOut:
    return SideOut(
        level=state.level,
        label=cards.rank_label(state.level),
        reached_at=state.reached_at,
        a_failures=state.a_failures,
        passed_a=state.passed_a,
    )


def outcome_out(outcome: timeup.GameOutcome) -> OutcomeOut:
    return OutcomeOut(
        status=outcome.status.value, winner=outcome.winner, reason=outcome.reason, points=dict(outcome.points)
    )


def trajectory(request: LevelsRequest) -> LevelsAnswer:
    rules = resolve_rules(request)
    played = levels.replay(
        [levels.DealResult(deal.finish_order, deal.level_adjustments) for deal in request.deals], rules
    )
    if request.time_up_after is not None and request.time_up_after > len(played.deals):
        raise InvalidInput(
            f"time ran out after {request.time_up_after} deals, but only {len(played.deals)} were given",
            rule="time-up-after-beyond-deals",
            field="time_up_after",
        )
    outcome = timeup.game_outcome(played, rules, time_up_after=request.time_up_after)
    return LevelsAnswer(
        preset=rules.name,
        deals=[
            DealOut(
                number=deal.number,
                finish_order=list(deal.finish_order),
                declarer=deal.declarer,
                level_played=deal.level_played,
                winner=deal.winner,
                promotion=deal.promotion,
                failed_a=deal.failed_a,
                sides={levels.Side.NS: _side(deal.ns), levels.Side.EW: _side(deal.ew)},
            )
            for deal in played.deals
        ],
        sides={levels.Side.NS: _side(played.ns), levels.Side.EW: _side(played.ew)},
        declarer=played.declarer,
        next_level=played.next_level,
        passed_a=played.passed_a,
        over=played.over,
        outcome=outcome_out(outcome),
    )


def _seat(text: str, *, field: str) -> levels.Seat:
    try:
        return levels.Seat(text.upper())
    except ValueError:
        raise InvalidInput(
            f"unknown seat {text!r}: one of N, E, S, W", rule="unknown-seat", field=field
        ) from None


def _by_seat(values: Mapping[str, str], *, field: str) -> dict[levels.Seat, cards.Card]:
    return {
        _seat(seat, field=f"{field}.{seat}"): cards.parse_card(card, field=f"{field}.{seat}")
        for seat, card in values.items()
    }


def settle_tribute(request: TributeRequest) -> TributeAnswer:
    rules = resolve_rules(request)
    order = levels.parse_finish_order(request.finish_order)
    outcome = tribute.settle_tribute(
        order,
        level=cards.parse_level(request.level),
        paid=_by_seat(request.paid, field="paid"),
        returned=_by_seat(request.returned, field="returned"),
        big_jokers=None
        if request.big_jokers is None
        else {_seat(seat, field=f"big_jokers.{seat}"): count for seat, count in request.big_jokers.items()},
        hands=None
        if request.hands is None
        else {
            _seat(seat, field=f"hands.{seat}"): cards.parse_cards(hand, field=f"hands.{seat}")
            for seat, hand in request.hands.items()
        },
        rules=tribute_rules(rules),
    )

    def transfers(moves: tuple[tribute.Transfer, ...]) -> list[TransferOut]:
        return [TransferOut(giver=move.giver, receiver=move.receiver, card=str(move.card)) for move in moves]

    return TributeAnswer(
        refused=outcome.refused,
        tributes=transfers(outcome.tributes),
        returns=transfers(outcome.returns),
        leader=outcome.leader,
    )


def score_gongzhu_hand(request: GongzhuRequest) -> GongzhuAnswer:
    return GongzhuAnswer(scores=list(gongzhu.score_hand(request.captured, request.exposed)))
