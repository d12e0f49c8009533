"""The score sheets as a PDF (reportlab): one A4 page per table, Chinese text in the built-in CID
font STSong-Light (no font file to ship), the QR code drawn as vector modules."""

from __future__ import annotations

import io
from collections.abc import Mapping

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table, TableStyle

from api.pages import qr
from api.pages.venue import FINISH_PLACES, SEAT_NAMES
from domain.events.models import COMPETITION_TZ, local_text
from domain.venue.models import ScoreSheet, ScoreSheets

FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(FONT))

# STSong-Light has no glyph for the middle dot U+00B7 of names like 买买提·艾力; U+30FB looks the same.
GLYPHS = str.maketrans({"\u00b7": "\u30fb"})

MARGIN = 12 * mm
QR_SIZE = 36 * mm


def _title(sheets: ScoreSheets, sheet: ScoreSheet) -> list[str]:
    when = local_text(sheets.starts_at) if sheets.starts_at else ""
    if sheets.ends_at:
        when += "–" + sheets.ends_at.astimezone(COMPETITION_TZ).strftime("%H:%M")
    where = f"第{sheets.round_number}轮　{when}（北京时间）"
    if sheet.group:
        where += f"　{sheet.group}组"
    where += f"　第{sheet.match_no}场"
    if sheet.pair_no is not None:
        where += f"　第{sheet.pair_no}对"
    table = f"第 {sheet.table_no} 桌" if sheet.table_no is not None else f"对局 {sheet.game_id}"
    return [f"{sheets.event_name} · 记分表".translate(GLYPHS), where.translate(GLYPHS), table]


def _qr(canvas: Canvas, payload: str, *, x: float, y: float) -> None:
    grid = qr.modules(payload)
    cell = QR_SIZE / len(grid)
    canvas.setFillColorRGB(0, 0, 0)
    for row_no, row in enumerate(grid):
        for col_no, dark in enumerate(row):
            if dark:
                canvas.rect(
                    x + col_no * cell, y + QR_SIZE - (row_no + 1) * cell, cell, cell, stroke=0, fill=1
                )


def _grid(deal_rows: int) -> Table:
    head = [
        ["副", "出完顺序（填座位 东/南/西/北）", "", "", "", "本副后级数", "", "签名（姓）", ""],
        ["", *FINISH_PLACES, "南北", "东西", "记录", "复核"],
    ]
    rows = [[str(n), "", "", "", "", "", "", "", ""] for n in range(1, deal_rows + 1)]
    table = Table(
        head + rows,
        colWidths=[12 * mm] + [21 * mm] * 4 + [19 * mm] * 2 + [17 * mm] * 2,
        rowHeights=[6.5 * mm] * 2 + [7.2 * mm] * deal_rows,
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 10),
                ("GRID", (0, 0), (-1, -1), 0.6, (0, 0, 0)),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BACKGROUND", (0, 0), (-1, 1), (0.92, 0.92, 0.92)),
                ("SPAN", (0, 0), (0, 1)),
                ("SPAN", (1, 0), (4, 0)),
                ("SPAN", (5, 0), (6, 0)),
                ("SPAN", (7, 0), (8, 0)),
            ]
        )
    )
    return table


def _sheet(canvas: Canvas, sheets: ScoreSheets, sheet: ScoreSheet, *, link: str) -> None:
    width, height = A4
    top = height - MARGIN
    title, where, table = _title(sheets, sheet)
    canvas.setFont(FONT, 16)
    canvas.drawString(MARGIN, top - 6 * mm, title)
    canvas.setFont(FONT, 10.5)
    canvas.drawString(MARGIN, top - 13 * mm, where)
    canvas.setFont(FONT, 22)
    canvas.drawString(MARGIN, top - 24 * mm, table)
    canvas.setFont(FONT, 11)
    canvas.drawString(
        MARGIN, top - 32 * mm, f"南北方：{sheet.ns_name}　　东西方：{sheet.ew_name}".translate(GLYPHS)
    )
    _qr(canvas, link, x=width - MARGIN - QR_SIZE, y=top - QR_SIZE)
    canvas.setFont(FONT, 8)
    canvas.drawCentredString(width - MARGIN - QR_SIZE / 2, top - QR_SIZE - 4 * mm, "扫码逐副记分")

    seats = Table(
        [
            [
                (
                    f"{SEAT_NAMES[seat.seat]} {seat.seat}　{seat.name}\n{seat.entry_name}"
                    + (f" · {seat.branch}" if seat.branch else "")
                ).translate(GLYPHS)
                for seat in pair
            ]
            for pair in (sheet.seats[:2], sheet.seats[2:])
        ],
        colWidths=[(width - 2 * MARGIN) / 2] * 2,
        rowHeights=[12 * mm] * 2,
    )
    seats.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 11),
                ("GRID", (0, 0), (-1, -1), 0.6, (0, 0, 0)),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    seats_top = top - 45 * mm
    seats.wrapOn(canvas, width, height)
    seats.drawOn(canvas, MARGIN, seats_top - 24 * mm)

    grid = _grid(sheets.deal_rows)
    _, grid_height = grid.wrapOn(canvas, width, height)
    grid_top = seats_top - 28 * mm
    grid.drawOn(canvas, MARGIN, grid_top - grid_height)

    y = grid_top - grid_height - 6 * mm
    canvas.setFont(FONT, 8.5)
    canvas.drawString(
        MARGIN, y, "逐副工整记录，不得涂改；每打完一副须及时记录，不得仅记录最终结果（首副双方均打2）。"
    )
    canvas.setFont(FONT, 11)
    canvas.drawString(
        MARGIN, y - 9 * mm, "结果：南北 ______ 级　东西 ______ 级　　过A：______　　胜方：______"
    )
    canvas.drawString(
        MARGIN, y - 20 * mm, "南北方签字：____________________　　东西方签字：____________________"
    )
    canvas.drawString(MARGIN, y - 30 * mm, "裁判：____________________　　　　交表时间：____________________")


def score_sheets_pdf(sheets: ScoreSheets, *, links: Mapping[int, str]) -> bytes:
    """One page per sheet, in table order; ``links`` holds each game's QR payload."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{sheets.event_name} 第{sheets.round_number}轮 记分表")
    for sheet in sheets.sheets:
        _sheet(canvas, sheets, sheet, link=links[sheet.game_id])
        canvas.showPage()
    canvas.save()
    return out.getvalue()
