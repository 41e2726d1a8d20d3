"""A duplex calibration sheet: find the `--back-offset` that puts backs behind fronts.

The front carries five pairs of scales (the centre and near each corner); the back, at the
mirrored places, one line across each scale. Printed double-sided (long edge) and held up
to the light, each back line crosses its scale at the correction: the horizontal scales
read X (across) and the vertical ones Y (down), in mm, ready for `--back-offset X,Y`.
"""

from __future__ import annotations

from . import labels
from .impose import Bookmark, Label, Line, Page, Paper

SPAN = 5.0  # mm each side of zero
STEP = 0.5
INSET = 40.0  # mm from the paper's edges to the corner scales' zero
NUMBERS = 6.0  # pt: the scales' numbers and X/Y, at the faces' floor (pnp/render/textfit.py)


def calibration_pages(sheet: Paper, back_offset: tuple[float, float] = (0.0, 0.0),
                      measure: labels.Measure = labels.DEFAULT) -> tuple[Page, Page]:
    """The front and back page; backs already shifted by `back_offset`; text laid out by `measure`."""
    front = Page([Bookmark("Duplex calibration")])
    back = Page()
    dx, dy = back_offset
    spots = [(sheet.width / 2, sheet.height / 2), (INSET, INSET), (sheet.width - INSET, INSET),
             (INSET, sheet.height - INSET), (sheet.width - INSET, sheet.height - INSET)]  # the middle and the four corners
    for cx, cy in spots:
        _scale(front, cx, cy + 10, True, measure)
        _scale(front, cx + 10, cy, False, measure)
        bx = sheet.width - cx + dx  # long-edge duplex mirrors x
        back.add(Line(bx, cy + 4 + dy, bx, cy + 16 + dy, 0.3))
        back.add(Line(sheet.width - cx - 16 + dx, cy + dy, sheet.width - cx - 4 + dx, cy + dy, 0.3))
    m = max(sheet.margin, 12.0)
    text = ("Duplex calibration: print this sheet double-sided (flip on long edge) at 100%, hold it up to the light. "
            "Where each line of the back crosses a scale is the correction in mm: horizontal scales give X, vertical ones Y. "
            f"Build with --back-offset X,Y (or back_offset: [X, Y] in pnp.yaml); now {dx:g},{dy:g}: add the reading to it.")
    # between the top corners' scales (down to INSET + 19 mm) and the centre's (from 8 mm above it)
    above, below = INSET + 19, sheet.height / 2 - 8
    lines = measure.block(text, m, 0, sheet.width - 2 * m, 8)
    height = (len(lines) - 1) * labels.step(8) + (labels.ASCENT + labels.DESCENT) * 8 * labels.PT
    shift = max(above, (above + below - height) / 2)
    front.marks += [Label(line.text, line.x, line.y + shift, line.size) for line in lines]
    back.add(measure.line("Back of the duplex calibration sheet", m, sheet.height - m, sheet.width - 2 * m, 6, 6))
    return front, back


def _scale(page: Page, x: float, y: float, horizontal: bool, measure: labels.Measure) -> None:
    """A scale from -SPAN to +SPAN mm around (x, y) with a tick every STEP mm. Vertical
    scales are numbered with the sign flipped, so both read as the correction to make."""
    steps = int(SPAN / STEP)
    for i in range(-steps, steps + 1):
        at = i * STEP
        tick = 3.0 if i % 2 == 0 else 1.5
        if i == 0:
            tick = 5.0
        if horizontal:
            page.add(Line(x + at, y, x + at, y + tick, 0.2))
            if i % 10 == 0:  # every 5 mm: 6 pt numbers (the faces' floor) are too wide for every 2 mm
                page.add(measure.centred(f"{at:g}", x + at, y + 7.5, NUMBERS))
        else:
            page.add(Line(x, y + at, x + tick, y + at, 0.2))
            if i % 10 == 0:
                page.add(Label(f"{-at + 0:g}", x + 6, y + at + 0.75, NUMBERS))
    if horizontal:
        page.add(Line(x - SPAN, y, x + SPAN, y, 0.2))
        page.add(Label("X", x + SPAN + 1.5, y + 2, NUMBERS))
    else:
        page.add(Line(x, y - SPAN, x, y + SPAN, 0.2))
        page.add(Label("Y", x - 1, y - SPAN - 1.5, NUMBERS))
