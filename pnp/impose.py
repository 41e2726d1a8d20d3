"""Impose component faces on printable PDF sheets.

Pieces are laid out in a centred grid at 100% physical size, each with its bleed; crop
marks in the margins extend every cut line. When a component has backs, each sheet of
fronts is followed by a sheet of backs mirrored for long-edge duplex, so every back lands
behind its front. A piece larger than the paper is split over several pages that overlap.
Faces are embedded once as PDF form XObjects however often they are printed.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Iterator

from reportlab.graphics import renderPDF
from reportlab.pdfgen import canvas as rl_canvas
from svglib.svglib import svg2rlg

from .errors import PnpError
from .manifest import presets
from .render import Face, RenderedComponent
from .units import MM_TO_PT

MARK_OFFSET = 1.0  # mm between the bleed edge and the start of a crop mark
MARK_LENGTH = 4.0  # mm
MARK_WIDTH = 0.25  # pt
TILE_OVERLAP = 10.0  # mm shared by neighbouring pages of an oversize piece


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float
    margin: float = 5.0


def paper(name: str, margin: float = 5.0) -> Paper:
    """A paper preset by name (letter, a4, a3, tabloid)."""
    table = presets()["papers"]
    if name not in table:
        raise PnpError(f"unknown paper {name!r}: expected one of {', '.join(table)}")
    return Paper(name, table[name]["width"], table[name]["height"], margin)


@dataclass(frozen=True)
class Grid:
    """Where pieces go on a sheet; all in mm, origin top-left of the page."""

    cols: int
    rows: int
    rotated: bool
    cell_w: float  # on-page size of a piece including its bleed
    cell_h: float
    gap: float
    left: float
    top: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot(self, index: int) -> tuple[float, float]:
        """Top-left corner of slot `index` (row-major)."""
        row, col = divmod(index, self.cols)
        return self.left + col * (self.cell_w + self.gap), self.top + row * (self.cell_h + self.gap)


def plan_grid(width: float, height: float, bleed: float, gap: float, sheet: Paper, rotate: bool) -> Grid | None:
    """The grid that fits most pieces (unrotated wins ties); None if none fits."""
    area_w = sheet.width - 2 * sheet.margin
    area_h = sheet.height - 2 * sheet.margin
    best: Grid | None = None
    for rotated in (False, True) if rotate else (False,):
        cw, ch = (height, width) if rotated else (width, height)
        cw, ch = cw + 2 * bleed, ch + 2 * bleed
        cols = int((area_w + gap + 1e-9) // (cw + gap))
        rows = int((area_h + gap + 1e-9) // (ch + gap))
        if cols < 1 or rows < 1:
            continue
        if best is not None and cols * rows <= best.per_page:
            continue
        used_w = cols * cw + (cols - 1) * gap
        used_h = rows * ch + (rows - 1) * gap
        best = Grid(cols, rows, rotated, cw, ch, gap, (sheet.width - used_w) / 2, (sheet.height - used_h) / 2)
    return best


class Sheets:
    """A PDF being written, with each face embedded once."""

    def __init__(self, sheet: Paper, title: str):
        self.sheet = sheet
        self.buffer = io.BytesIO()
        # invariant: no creation date or random document id, so builds are byte-identical
        self.canvas = rl_canvas.Canvas(
            self.buffer, pagesize=(sheet.width * MM_TO_PT, sheet.height * MM_TO_PT), invariant=1, pageCompression=1
        )
        self.canvas.setTitle(title)
        self.canvas.setCreator("pnp")
        self.canvas.setAuthor("pnp")
        self.forms: dict[str, str] = {}

    def form(self, face: Face) -> str:
        """Name of the form XObject holding `face`, drawing it on first use."""
        key = f"{face.component}/{face.name}"
        if key not in self.forms:
            name = f"F{len(self.forms)}"
            drawing = svg2rlg(io.BytesIO(face.svg.encode("utf-8")))
            if drawing is None:
                raise PnpError(f"{face.relpath}: could not convert the SVG for the PDF")
            c = self.canvas
            c.beginForm(name, 0, 0, drawing.width, drawing.height)  # the default box is the page: too small for boards
            path = c.beginPath()
            path.rect(0, 0, drawing.width, drawing.height)
            c.clipPath(path, stroke=0, fill=0)  # artwork outside the bleed never spills onto neighbours
            renderPDF.draw(drawing, c, 0, 0)
            c.endForm()
            self.forms[key] = name
        return self.forms[key]

    def place(self, face: Face, x: float, y: float, w: float, h: float, turn: int = 0) -> None:
        """Draw `face` into the on-page box (x, y, w, h) in mm from the top-left, turned by
        `turn` degrees (0, 90 counter-clockwise, -90 clockwise)."""
        c = self.canvas
        name = self.form(face)
        bottom = self.sheet.height - y - h
        c.saveState()
        if turn == 0:
            c.translate(x * MM_TO_PT, bottom * MM_TO_PT)
        elif turn == 90:
            c.translate((x + w) * MM_TO_PT, bottom * MM_TO_PT)
            c.rotate(90)
        else:
            c.translate(x * MM_TO_PT, (bottom + h) * MM_TO_PT)
            c.rotate(-90)
        c.doForm(name)
        c.restoreState()

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = MARK_WIDTH, dash: list[float] | None = None) -> None:
        c = self.canvas
        h = self.sheet.height
        c.saveState()
        c.setLineWidth(width)
        c.setStrokeColorRGB(0, 0, 0)
        if dash:
            c.setDash(dash)
        c.line(x1 * MM_TO_PT, (h - y1) * MM_TO_PT, x2 * MM_TO_PT, (h - y2) * MM_TO_PT)
        c.restoreState()

    def label(self, text: str, x: float, y: float, size_pt: float = 6) -> None:
        c = self.canvas
        c.saveState()
        c.setFont("Helvetica", size_pt)
        c.setFillColorRGB(0.3, 0.3, 0.3)
        c.drawString(x * MM_TO_PT, (self.sheet.height - y) * MM_TO_PT, text)
        c.restoreState()

    def next_page(self) -> None:
        self.canvas.showPage()

    def finish(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()


def _crop_marks(pdf: Sheets, grid: Grid, count: int, bleed: float) -> None:
    """Short lines in the margins on the extension of every cut line of the used slots."""
    xs: set[float] = set()
    ys: set[float] = set()
    boxes = []
    for i in range(count):
        x, y = grid.slot(i)
        boxes.append((x, y, x + grid.cell_w, y + grid.cell_h))
        xs.update((round(x + bleed, 4), round(x + grid.cell_w - bleed, 4)))
        ys.update((round(y + bleed, 4), round(y + grid.cell_h - bleed, 4)))
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    page_w, page_h = pdf.sheet.width, pdf.sheet.height

    def span(edge: float, outward: int, limit: float) -> tuple[float, float] | None:
        start = edge + outward * MARK_OFFSET
        room = (limit - start) * outward
        if room <= 0.5:
            return None
        return start, start + outward * min(MARK_LENGTH, room - 0.5)

    for x in sorted(xs):
        for edge, outward, limit in ((top, -1, 0.0), (bottom, 1, page_h)):
            s = span(edge, outward, limit)
            if s:
                pdf.line(x, s[0], x, s[1])
    for y in sorted(ys):
        for edge, outward, limit in ((left, -1, 0.0), (right, 1, page_w)):
            s = span(edge, outward, limit)
            if s:
                pdf.line(s[0], y, s[1], y)


def _expand(rendered: RenderedComponent) -> list[tuple[Face, Face | None]]:
    return [(p.front, p.back) for p in rendered.pieces for _ in range(p.copies)]


def _chunks(seq: list, size: int) -> Iterator[list]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


def impose(rendered: RenderedComponent, sheet: Paper, title: str) -> bytes:
    """The PDF of one component: fronts (and duplex backs) on `sheet`-sized pages."""
    spec = rendered.spec
    bleed = rendered.bleed
    copies = _expand(rendered)
    pdf = Sheets(sheet, title)
    if not copies:
        pdf.label(f"{title}: no pieces to print", sheet.margin, sheet.margin + 5, 9)
        return pdf.finish()
    grid = plan_grid(spec.size.width, spec.size.height, bleed, spec.gap, sheet, spec.rotate == "auto")
    if grid is None:
        return _impose_oversize(copies, pdf, bleed)
    has_backs = any(back is not None for _, back in copies)
    turn = 90 if grid.rotated else 0
    for page in _chunks(copies, grid.per_page):
        for i, (front, _) in enumerate(page):
            x, y = grid.slot(i)
            pdf.place(front, x, y, grid.cell_w, grid.cell_h, turn)
        _crop_marks(pdf, grid, len(page), bleed)
        pdf.next_page()
        if has_backs:
            for i, (_, back) in enumerate(page):
                if back is None:
                    continue
                x, y = grid.slot(i)
                # long-edge duplex flips the sheet about its vertical axis: mirror x
                pdf.place(back, sheet.width - x - grid.cell_w, y, grid.cell_w, grid.cell_h, -turn)
            pdf.next_page()
    return pdf.finish()


def _impose_oversize(copies: list[tuple[Face, Face | None]], pdf: Sheets, bleed: float) -> bytes:
    """Split each piece over a grid of pages that overlap by TILE_OVERLAP mm."""
    sheet = pdf.sheet
    area_w = sheet.width - 2 * sheet.margin
    area_h = sheet.height - 2 * sheet.margin
    for front, back in copies:
        full_w, full_h = front.width + 2 * bleed, front.height + 2 * bleed
        xs, ys = _windows(full_w, area_w), _windows(full_h, area_h)
        turn = 0
        turned_xs, turned_ys = _windows(full_h, area_w), _windows(full_w, area_h)
        if len(turned_xs) * len(turned_ys) < len(xs) * len(ys):  # fewer pages with the piece turned
            full_w, full_h, xs, ys, turn = full_h, full_w, turned_xs, turned_ys, 90
        for row, (oy, win_h) in enumerate(ys):
            for col, (ox, win_w) in enumerate(xs):
                _tile_page(pdf, front, ox, oy, win_w, win_h, full_w, full_h, turn)
                _overlap_marks(pdf, col > 0, row > 0, win_w, win_h)
                _landing_marks(pdf, col < len(xs) - 1, row < len(ys) - 1, win_w, win_h)
                # right under the art when there is room, else in the bottom margin
                below = sheet.margin + win_h + 3.5
                pdf.label(f"{front.component}/{front.name}: page {row * len(xs) + col + 1} of {len(xs) * len(ys)} "
                          f"(row {row + 1} of {len(ys)}, column {col + 1} of {len(xs)}). Cut along the dashed lines, "
                          "lay each page over its neighbour up to the solid ticks so the art lines up, and glue.",
                          sheet.margin, min(below, sheet.height - sheet.margin / 2 + 1), 6)
                pdf.next_page()
                if back is not None:
                    _tile_page(pdf, back, full_w - ox - win_w, oy, win_w, win_h, full_w, full_h, -turn, mirror=True)
                    pdf.next_page()
    return pdf.finish()


def _tile_page(pdf: Sheets, face: Face, ox: float, oy: float, win_w: float, win_h: float, full_w: float, full_h: float,
               turn: int, mirror: bool = False) -> None:
    """Show the window (ox, oy, win_w, win_h) of `face`, as laid on the page (turned by
    `turn`), at the page margin; backs sit at the mirrored side for duplex."""
    sheet = pdf.sheet
    left = sheet.width - sheet.margin - win_w if mirror else sheet.margin
    top = sheet.margin
    c = pdf.canvas
    c.saveState()
    clip = c.beginPath()
    clip.rect(left * MM_TO_PT, (sheet.height - top - win_h) * MM_TO_PT, win_w * MM_TO_PT, win_h * MM_TO_PT)
    c.clipPath(clip, stroke=0, fill=0)
    pdf.place(face, left - ox, top - oy, full_w, full_h, turn)
    c.restoreState()


def _windows(full: float, area: float) -> list[tuple[float, float]]:
    """(offset, length) of each page's window along one axis; neighbours share TILE_OVERLAP mm."""
    if full <= area:
        return [(0.0, full)]
    step = area - TILE_OVERLAP
    count = math.ceil((full - TILE_OVERLAP) / step)
    return [(i * step, min(area, full - i * step)) for i in range(count)]


def _landing_marks(pdf: Sheets, right: bool, below: bool, win_w: float, win_h: float) -> None:
    """Short solid ticks in the margins where the cut edge of the page to the right (or
    below) lands on this one: the strip beyond them is where that page is glued on."""
    m = pdf.sheet.margin
    tick = min(MARK_LENGTH, m - MARK_OFFSET)
    if right:
        x = m + win_w - TILE_OVERLAP / 2
        pdf.line(x, m - MARK_OFFSET, x, m - MARK_OFFSET - tick, width=0.6)
        pdf.line(x, m + win_h + MARK_OFFSET, x, m + win_h + MARK_OFFSET + tick, width=0.6)
    if below:
        y = m + win_h - TILE_OVERLAP / 2
        pdf.line(m - MARK_OFFSET, y, m - MARK_OFFSET - tick, y, width=0.6)
        pdf.line(m + win_w + MARK_OFFSET, y, m + win_w + MARK_OFFSET + tick, y, width=0.6)


def _overlap_marks(pdf: Sheets, left: bool, top: bool, win_w: float, win_h: float) -> None:
    """Dashed cut lines through the middle of the strips this page shares with the pages
    to its left and above, so the pieces overlap by half a strip when laid together."""
    m = pdf.sheet.margin
    if left:
        x = m + TILE_OVERLAP / 2
        pdf.line(x, m, x, m + win_h, dash=[3, 2])
    if top:
        y = m + TILE_OVERLAP / 2
        pdf.line(m, y, m + win_w, y, dash=[3, 2])
