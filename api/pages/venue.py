"""The venue's pages rendered from the venue and scoring views (Jinja2, autoescaped): score sheets
to print, the scoring form behind each sheet's QR code, the big screen and its board."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from domain.events.models import COMPETITION_TZ, local_text
from domain.rules.levels import Side
from domain.scoring.models import GameOut, GameState, SideOut
from domain.scoring.service import level_label
from domain.venue.models import Board, ScoreSheets

STATIC = Path(__file__).parent / "static"
SEAT_NAMES = {"N": "北", "E": "东", "S": "南", "W": "西"}
SIDE_NAMES = {Side.NS: "南北", Side.EW: "东西"}
FINISH_PLACES = ("上游", "二游", "三游", "下游")

_env = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["local"] = lambda moment: local_text(moment) if moment else ""
_env.filters["clock"] = lambda moment: moment.astimezone(COMPETITION_TZ).strftime("%H:%M") if moment else ""
_env.filters["mmss"] = lambda seconds: (
    f"{seconds // 60:02d}:{seconds % 60:02d}" if seconds is not None else ""
)
_env.globals.update(
    seat_names=SEAT_NAMES,
    finish_places=FINISH_PLACES,
    round_states={"scheduled": "编排中", "published": "已公布", "started": "进行中", "finished": "已结束"},
    game_states={"in_play": "进行中", "ended": "待确认", "final": "已确认"},
)


def _iso(moment: datetime | None) -> str:
    return moment.isoformat() if moment else ""


_env.filters["iso"] = _iso


def side_level(side: SideOut) -> str:
    return "过A" if side.passed_a else level_label(side.level)


def declares(game: GameOut) -> str:
    """Who plays what, as the form says it (score.js says it again after each deal)."""
    if game.state is not GameState.IN_PLAY:
        return f"本局结束：南北 {side_level(game.ns)}，东西 {side_level(game.ew)}"
    if game.declarer is None:
        return "双方打 2"
    on, off = (game.ns, game.ew) if game.declarer is Side.NS else (game.ew, game.ns)
    return f"{SIDE_NAMES[on.side]}打 {side_level(on)}，{SIDE_NAMES[off.side]}在 {side_level(off)}"


_env.filters["side_level"] = side_level
_env.globals["declares"] = declares


def score_sheets_page(sheets: ScoreSheets, *, links: Mapping[int, str], qr_codes: Mapping[int, str]) -> str:
    """Every table's sheet on its own A4 page; ``links`` and ``qr_codes`` (PNG data URIs) by game id."""
    return _env.get_template("score_sheets.html").render(sheets=sheets, links=links, qr_codes=qr_codes)


def score_page(game: GameOut, *, api_path: str) -> str:
    """The phone form of one game: the seats to tap in finishing order, levels, confirmation."""
    return _env.get_template("score.html").render(game=game, api_path=api_path)


def screen_page(board: Board, *, board_path: str) -> str:
    return _env.get_template("screen.html").render(board=board, board_path=board_path)


def board_fragment(board: Board) -> str:
    """The part of the big screen that polling replaces."""
    return _env.get_template("screen_board.html").render(board=board)
