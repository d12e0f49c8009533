"""The rules, public: presets, and the engine that settles a dispute at the table."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from api.problems import responses
from domain.rules import service as rules_service
from domain.rules.ruleset import RuleSet
from domain.rules.schemas import (
    ClassifyAnswer,
    ClassifyRequest,
    CompareAnswer,
    CompareRequest,
    GongzhuAnswer,
    GongzhuRequest,
    LevelsAnswer,
    LevelsRequest,
    TributeAnswer,
    TributeRequest,
)

router = APIRouter(prefix="/rules", tags=["rules"])


@router.get("/presets", response_model=list[RuleSet], summary="Every rule preset")
def list_presets() -> list[RuleSet]:
    """One preset per competition notice the service runs, plus `default`; every field explained."""
    return rules_service.list_presets()


@router.get("/presets/{name}", response_model=RuleSet, responses=responses(404), summary="One rule preset")
def get_preset(name: str) -> RuleSet:
    """A preset by name, e.g. `nuist-2023` (seed 000) or `nsi-2023` (seed 001)."""
    return rules_service.get_preset(name)


@router.post(
    "/guandan/classify", response_model=ClassifyAnswer, responses=responses(422), summary="Read a play"
)
def classify(
    body: Annotated[
        ClassifyRequest,
        Body(
            openapi_examples={
                "bomb": {
                    "summary": "a four-card bomb of 7s at level 7",
                    "value": {"level": "7", "cards": ["H7", "S7", "C7", "D7"]},
                },
                "wildcard": {
                    "summary": "a straight with a heart level card as wildcard",
                    "value": {"level": "Q", "cards": ["S3", "D4", "HQ", "C6", "S7"]},
                },
            }
        ),
    ],
) -> ClassifyAnswer:
    """Every valid reading of 1–10 cards at a level, strongest first (the two heart level cards are wildcards)."""
    return rules_service.classify(body)


@router.post(
    "/guandan/compare",
    response_model=CompareAnswer,
    responses=responses(422),
    summary="Does a play beat another",
)
def compare(
    body: Annotated[
        CompareRequest,
        Body(
            openapi_examples={
                "flush over bomb": {
                    "summary": "a straight flush beats a five-card bomb",
                    "value": {
                        "level": "2",
                        "play": ["S5", "S6", "S7", "S8", "S9"],
                        "against": ["DK", "SK", "CK", "HK", "HK"],
                    },
                }
            }
        ),
    ],
) -> CompareAnswer:
    """Whether `play` may be laid on `against`. `play_as` / `against_as` settle a wildcard ambiguity;
    without them the play on the table takes its strongest reading."""
    return rules_service.compare(body)


@router.post(
    "/guandan/levels",
    response_model=LevelsAnswer,
    responses=responses(404, 409, 422),
    summary="Replay a game's levels",
)
def levels(
    body: Annotated[
        LevelsRequest,
        Body(
            openapi_examples={
                "three deals": {
                    "summary": "seed 000 rules, three deals",
                    "value": {
                        "preset": "nuist-2023",
                        "deals": [
                            {"finish_order": ["N", "S", "E", "W"]},
                            {"finish_order": ["E", "N", "W", "S"]},
                            {"finish_order": ["S", "E", "N", "W"]},
                        ],
                    },
                }
            }
        ),
    ],
) -> LevelsAnswer:
    """Both sides' levels after every deal, who declares next, failed attempts at A, passing A, and the
    outcome (with `time_up_after`, the winner at time by the preset's rule)."""
    return rules_service.trajectory(body)


@router.post(
    "/guandan/tribute",
    response_model=TributeAnswer,
    responses=responses(404, 409, 422),
    summary="Check a tribute",
)
def tribute(
    body: Annotated[
        TributeRequest,
        Body(
            openapi_examples={
                "single": {
                    "summary": "W was last: W pays N its highest card, N returns a card of 10 or lower",
                    "value": {
                        "preset": "nuist-2023",
                        "level": "5",
                        "finish_order": ["N", "E", "S", "W"],
                        "paid": {"W": "HA"},
                        "returned": {"N": "C3"},
                    },
                }
            }
        ),
    ],
) -> TributeAnswer:
    """Validates a recorded tribute and return (进贡/还牌, 抗贡) and says who leads the deal."""
    return rules_service.settle_tribute(body)


@router.post(
    "/gongzhu/score", response_model=GongzhuAnswer, responses=responses(422), summary="Score a Gongzhu hand"
)
def gongzhu_score(
    body: Annotated[
        GongzhuRequest,
        Body(
            openapi_examples={
                "pig and sheep": {
                    "summary": "each player's captured cards; the pig exposed",
                    "value": {
                        "captured": [
                            ["SQ", "H5"],
                            ["DJ", "C2"],
                            ["CT", "H2", "H3", "H4", "H6", "H7", "H8", "H9", "HT", "HJ", "HQ", "HK", "HA"],
                            [],
                        ],
                        "exposed": ["SQ"],
                    },
                }
            }
        ),
    ],
) -> GongzhuAnswer:
    """Each player's score for one hand from the cards they captured and the exposed (亮) cards (seed 004)."""
    return rules_service.score_gongzhu_hand(body)
