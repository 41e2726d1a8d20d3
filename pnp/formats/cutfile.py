"""Print-then-cut (Silhouette, Cricut): registration marks on the printed sheets and an SVG
cut file of the piece outlines for each of them.

The marks follow the common Silhouette type-1 pattern: a filled 5 mm square at the top
left and 20 mm L-shaped corners at the top right and bottom left, each 10 mm in from the
paper edge. The machine's optical sensor looks for each mark around where it expects it,
so nothing else is printed there: art (bleed included), crop marks and labels stay out of each mark's
square grown by `CLEAR` mm (`clear_zones`). Pieces stay at least `MARGIN` mm from the
edges, and `MARGIN + CORNER` mm from the two side edges or from the top and bottom edges
(pnp.formats.print_pdf.plan takes the one that needs fewer sheets), which keeps them out of
the L marks' squares.
A cut file has the paper's size in mm, the same marks (filled, not cut, for lining up
in the cutting software) and one closed path per piece along its trim line: a circle for a
round piece (`shape: round`).
"""

from __future__ import annotations

from dataclasses import replace
from xml.sax.saxutils import quoteattr

from ..units import MM_TO_PT
from .impose import PRINTED_MARK, Line, Page, Paper

INSET = 10.0  # mm from the paper edge to a mark's outer edge
SQUARE = 5.0
ARM = 20.0
THICK = 0.5  # mm, the L-shaped marks' line width
# Nothing else is printed within CLEAR mm of a mark's square, where the sensor looks for it.
# Silhouette Card Maker (github.com/Alan-Cha/silhouette-card-maker: SPECIFICATION.md and
# page_manager.py, "corner exclusion zones where NOTHING may appear (neither cards nor
# bleed)") keeps art out of each L mark's length x length corner square and 1.5 mm more
# around the marks (REG_PADDING_MM); for Cricut's own marks a user reports 14 mm kept clear
# at every edge (github.com/luziferius/MTGProxyPrinter, discussion 4). We keep 2 mm.
CLEAR = 2.0
MARGIN = INSET + SQUARE + CLEAR  # mm kept clear of art at every edge (17)
CORNER = ARM - SQUARE  # mm more on two opposite sides, clear of the L marks' squares (art 32 mm in)


def _mark_rects(sheet: Paper) -> list[tuple[float, float, float, float]]:
    """The marks as filled rectangles (x, y, w, h) in mm from the top-left."""
    w, h = sheet.width, sheet.height
    return [
        (INSET, INSET, SQUARE, SQUARE),
        (w - INSET - ARM, INSET, ARM, THICK), (w - INSET - THICK, INSET, THICK, ARM),  # top right: ¬
        (INSET, h - INSET - THICK, ARM, THICK), (INSET, h - INSET - ARM, THICK, ARM),  # bottom left: L
    ]


def clear_zones(sheet: Paper) -> list[tuple[float, float, float, float]]:
    """The areas (x, y, w, h) nothing else may print in: each mark's square, `CLEAR` mm wider all round."""
    w, h = sheet.width, sheet.height
    squares = [(INSET, INSET, SQUARE), (w - INSET - ARM, INSET, ARM), (INSET, h - INSET - ARM, ARM)]
    return [(x - CLEAR, y - CLEAR, side + 2 * CLEAR, side + 2 * CLEAR) for x, y, side in squares]


def _outside(line: Line, zone: tuple[float, float, float, float]) -> list[Line]:
    """The parts of a crop mark (`line`, across or down) outside `zone`, each kept when
    PRINTED_MARK mm or longer (a shorter stub reads as no mark)."""
    zx, zy, zw, zh = zone
    across = line.y1 == line.y2
    if not across and line.x1 != line.x2:
        return [line]
    at, ends = (line.y1, (line.x1, line.x2)) if across else (line.x1, (line.y1, line.y2))
    (low, high), (side_low, side_high) = ((zx, zx + zw), (zy, zy + zh)) if across else ((zy, zy + zh), (zx, zx + zw))
    a, b = min(ends), max(ends)
    if not side_low < at < side_high or b <= low or high <= a:
        return [line]
    parts = [(s, e) for s, e in ((a, min(b, low)), (max(a, high), b)) if e - s >= PRINTED_MARK - 1e-9]
    return [replace(line, x1=s, x2=e) if across else replace(line, y1=s, y2=e) for s, e in parts]


def add_registration(page: Page, sheet: Paper) -> None:
    """Clear the marks' zones of crop marks (a part of one outside them stays), then draw
    the marks as thick lines (a line of width t along the middle of each rectangle)."""
    for zone in clear_zones(sheet):
        page.marks[:] = [part for m in page.marks for part in (_outside(m, zone) if isinstance(m, Line) else [m])]
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
