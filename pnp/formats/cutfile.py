"""Print-then-cut (Silhouette, Cricut): registration marks on the printed sheets and an SVG
cut file of the piece outlines for each of them.

The marks follow the common Silhouette type-1 pattern: a filled 5 mm square at the top
left and 20 mm L-shaped corners at the top right and bottom left, each 10 mm in from the
paper edge; pieces stay at least `MARGIN` mm from the edges so no mark touches the art.
A cut file has the paper's size in mm, the same marks (filled, not cut, for lining up
in the cutting software) and one closed path per piece along its trim line: a circle for a
round piece (`shape: round`).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from ..units import MM_TO_PT
from .impose import Line, Page, Paper

INSET = 10.0  # mm from the paper edge to a mark's outer edge
SQUARE = 5.0
ARM = 20.0
THICK = 0.5  # mm, the L-shaped marks' line width
MARGIN = INSET + ARM / 4 + 2  # mm kept clear of art at every edge (17)


def _mark_rects(sheet: Paper) -> list[tuple[float, float, float, float]]:
    """The marks as filled rectangles (x, y, w, h) in mm from the top-left."""
    w, h = sheet.width, sheet.height
    return [
        (INSET, INSET, SQUARE, SQUARE),
        (w - INSET - ARM, INSET, ARM, THICK), (w - INSET - THICK, INSET, THICK, ARM),  # top right: ¬
        (INSET, h - INSET - THICK, ARM, THICK), (INSET, h - INSET - ARM, THICK, ARM),  # bottom left: L
    ]


def add_registration(page: Page, sheet: Paper) -> None:
    """Draw the marks as thick lines (a line of width t along the middle of each rectangle)."""
    for x, y, rw, rh in _mark_rects(sheet):
        if rw >= rh:
            page.add(Line(x, y + rh / 2, x + rw, y + rh / 2, rh * MM_TO_PT))
        else:
            page.add(Line(x + rw / 2, y, x + rw / 2, y + rh, rw * MM_TO_PT))


def outlines(page: Page, sheet: Paper) -> list[tuple[tuple[float, float, float, float], bool]]:
    """The rectangle (x, y, w, h) to cut of every piece on the page: its trim line, or for
    a part of a piece split over pages, that part (pnp.formats.impose.Place.cut), always
    inside what the page prints (its clip) and the paper; each with whether it is cut as the
    circle filling it: a whole round piece (`shape: round`), never a part of a split one."""
    outlines = []
    for place in page.places:
        bleed = place.face.bleed
        box = place.cut or (place.x + bleed, place.y + bleed, place.w - 2 * bleed, place.h - 2 * bleed)
        whole = box
        for limit in (place.clip, (0.0, 0.0, sheet.width, sheet.height)):
            if limit is not None:
                box = _within(box, limit)
        if box[2] > 0 and box[3] > 0:
            cut_short = any(abs(a - b) > 1e-6 for a, b in zip(box, whole))  # a window's part of a split piece
            outlines.append((box, place.face.shape == "round" and place.cut is None and not cut_short))
    return outlines


def _within(box: tuple[float, float, float, float], limit: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The part of `box` inside `limit` (both x, y, w, h); empty when they do not meet."""
    left, top = max(box[0], limit[0]), max(box[1], limit[1])
    right, bottom = min(box[0] + box[2], limit[0] + limit[2]), min(box[1] + box[3], limit[1] + limit[3])
    return left, top, max(0.0, right - left), max(0.0, bottom - top)


def _n(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def cut_svg(page: Page, sheet: Paper, title: str) -> str:
    """The cut file of one printed sheet: marks to line up, then one outline per piece."""
    w, h = _n(sheet.width), _n(sheet.height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
           f"<title>{quoteattr(title)[1:-1]}</title>",
           '<g id="registration" fill="#000000" stroke="none">']
    out += [f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(rw)}" height="{_n(rh)}"/>' for x, y, rw, rh in _mark_rects(sheet)]
    out.append('</g>\n<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">')
    for (x, y, bw, bh), round_ in sorted(outlines(page, sheet)):
        if round_:  # its trim box is square (pnp/load/manifest.py): the circle's diameter
            out.append(f'<circle cx="{_n(x + bw / 2)}" cy="{_n(y + bh / 2)}" r="{_n(bw / 2)}"/>')
        else:
            out.append(f'<path d="M{_n(x)} {_n(y)}h{_n(bw)}v{_n(bh)}h{_n(-bw)}z"/>')
    out.append("</g>\n</svg>\n")
    return "\n".join(out)
