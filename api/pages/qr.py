"""QR codes for the score sheets (segno): a PNG for the HTML page, the module grid for the PDF."""

from __future__ import annotations

import segno

ERROR_LEVEL = "m"
"""15 % of the code may be smudged or folded and it still reads: sheets travel across card tables."""


def png_data_uri(payload: str, *, scale: int = 4) -> str:
    return str(segno.make(payload, error=ERROR_LEVEL, micro=False).png_data_uri(scale=scale, border=4))


def modules(payload: str) -> list[list[bool]]:
    """Dark (True) and light modules row by row, without the quiet zone."""
    code = segno.make(payload, error=ERROR_LEVEL, micro=False)
    return [[bool(bit) for bit in row] for row in code.matrix]
