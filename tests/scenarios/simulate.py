"""The seeded deal generator and the seeds' level arithmetic (shared with ``zhisai demo``)."""

from __future__ import annotations

from zhisai.scenarios.simulate import (
    AHUT_2017,
    INSTITUTE_2021,
    NSI_2023,
    NUIST_2023,
    Outcome,
    Play,
    Variant,
    find,
    level_points,
    promotion,
    random_order,
    replay,
    simulate,
)

__all__ = [
    "AHUT_2017",
    "INSTITUTE_2021",
    "NSI_2023",
    "NUIST_2023",
    "Outcome",
    "Play",
    "Variant",
    "find",
    "level_points",
    "promotion",
    "random_order",
    "replay",
    "simulate",
]
