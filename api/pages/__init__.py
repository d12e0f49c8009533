"""Printable HTML pages (Jinja2, autoescaped): what the referees pin up in the hall."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from domain.events.models import local_text
from domain.schedule.models import RoundOut

_env = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["local"] = lambda moment: local_text(moment) if moment else ""

SEAT_LABELS = {"N": "北 N", "E": "东 E", "S": "南 S", "W": "西 W", "first": "先手", "second": "后手"}


def round_page(round_: RoundOut) -> str:
    """One round on A4: every table with its seats, names and branches, then the byes."""
    seat_keys = [key for key in SEAT_LABELS if any(key in table.seats for table in round_.tables)]
    return _env.get_template("round.html").render(
        round=round_,
        seat_keys=seat_keys,
        seat_labels=SEAT_LABELS,
        byes=[match for match in round_.matches if match.is_bye],
    )
