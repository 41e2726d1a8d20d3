"""Impose component faces on printable PDF sheets.

Pieces are laid out in a centred grid at 100% physical size, each with its bleed; crop
marks in the margins extend every cut line. When a component has backs, each sheet of
fronts is followed by a sheet of backs mirrored for long-edge duplex, so every back lands
behind its front. A piece larger than the paper is split over several pages that overlap.

The plan is plain data (`layout` gives a `Layout` of `Page`s of `Place`, `Line` and
`Label` marks, in mm from the page's top-left corner); `pnp.formats.pdf.write_pdf` draws it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from ..errors import PnpError
from ..config import PaperSize, SheetLayout, papers, sheet_layout, unknown
from ..render.faces import Face, RenderedComponent

if TYPE_CHECKING:
    from ..load.fonts import Fonts
    from .labels import Measure

MARK_OFFSET = 1.0  # mm between the bleed edge and the start of a crop mark
MARK_LENGTH = 4.0  # mm
MARK_WIDTH = 0.25  # pt
TILE_OVERLAP = 10.0  # mm shared by neighbouring pages of an oversize piece
PRINTED_TICK = 3.0  # mm of a split piece's landing tick inside a printer's printable area


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float
    margin: float = 5.0


def paper(name: str, margin: float = 5.0, extra: dict[str, PaperSize] | None = None) -> Paper:
    """A paper by name: a built-in one (letter, a4, ...) or one of the project's own (`extra`)."""
    table = papers(extra)
    if name not in table:
        raise PnpError(unknown("paper", name, table))
    return Paper(name, *table[name], margin)


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


@dataclass(frozen=True)
class Place:
    """`face` drawn into the on-page box (x, y, w, h), turned by `turn` degrees (0, 90
    counter-clockwise, -90 clockwise); with `clip`, only the part inside that page box shows.
    `cut` is where a cutting machine cuts this page's part of a piece split over pages
    (x, y, w, h), when that is not the piece's whole trim line."""

    face: Face
    x: float
    y: float
    w: float
    h: float
    turn: int = 0
    clip: tuple[float, float, float, float] | None = None
    cut: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = MARK_WIDTH  # pt
    dash: tuple[float, ...] | None = None  # pt
    colour: str = "#000000"


@dataclass(frozen=True)
class Label:
    text: str
    x: float  # left end of the baseline (its lower end, turned)
    y: float
    size: float = 6  # pt
    turn: int = 0  # 90: turned counter-clockwise, read from the bottom up (in a side margin)


@dataclass(frozen=True)
class Bookmark:
    """An entry of a PDF viewer's sidebar pointing at this page; nothing shows on it."""

    text: str


Mark = Place | Line | Label | Bookmark


@dataclass
class Page:
    """One printed page: what goes where, in mm from its top-left corner."""

    marks: list[Mark] = field(default_factory=list)

    def add(self, mark: Mark) -> None:
        self.marks.append(mark)

    @property
    def places(self) -> list[Place]:
        return [m for m in self.marks if isinstance(m, Place)]

    @property
    def lines(self) -> list[Line]:
        return [m for m in self.marks if isinstance(m, Line)]


@dataclass(frozen=True)
class Layout:
    """The pages of one PDF on one paper size; `pdf.write_pdf` turns it into bytes."""

    sheet: Paper
    title: str
    pages: list[Page]
    bleed: float | None = None  # a print shop's pages: the bleed (mm) around the trim, declared as TrimBox and BleedBox


PRINTED_MARK = 2.0  # mm of a crop mark, at least, inside the printable area: enough to lay a ruler on
HALO = 1.0  # pt: the white stroke under a crop mark drawn over a piece's bleed, so it shows on dark art


def margin_marks(page: Page, sheet: Paper, xs: list[float], ys: list[float], box: tuple[float, float, float, float],
                 style: SheetLayout, inner: float = 0.0, fold: bool = False,
                 floor: float | None = None, others: list[tuple[float, float, float, float]] | None = None) -> None:
    """Crop marks in the margins, on the extension of every cut line, outside `box`. A mark stops at the printable inset; where the
    margin leaves less than PRINTED_MARK mm of it printable, it moves in over the bleed,
    up to `inner` mm inside `box` (where the bleed is cut away), on a white halo. With
    `fold`, the right-hand marks stop at the fold line down the middle of the sheet; with
    `floor`, the marks below `box` stop there (above the sheet's label); with `others` (the
    areas of other art, as `box`), a mark stops 0.5 mm short of the middle of the gap
    between `box` and the first it would run into: it stays on its own side, so that it is
    read as `box`'s mark, not the other art's."""
    lowest = sheet.height - style.inset if floor is None else floor
    left, top, right, bottom = box
    right_edge = sheet.width / 2 if fold else sheet.width

    def span(edge: float, outward: int, limit: float, printable: float, at: float, vertical: bool) -> tuple[float, float] | None:
        for o in others or []:  # art across the mark's line, beyond `edge`: the mark stops before it
            low, high, start, stop = (o[0], o[2], o[1], o[3]) if vertical else (o[1], o[3], o[0], o[2])
            if low - 0.5 < at < high + 0.5:
                if outward > 0 and start >= edge - 1e-9:
                    limit = min(limit, (edge + start) / 2)
                elif outward < 0 and stop <= edge + 1e-9:
                    limit = max(limit, (edge + stop) / 2)
        end = limit - outward * 0.5
        clipped = (printable - end) * outward < 0
        if clipped:
            end = printable
        start = edge + outward * style.mark_offset
        if (end - start) * outward >= (min(style.mark_length, PRINTED_MARK) if clipped else 1e-9):
            return start, start + outward * min(style.mark_length, (end - start) * outward)
        if not clipped:  # no room beside the neighbours: no mark, as before
            return None
        start = edge - outward * inner  # over the bleed, short of the trim line
        if (end - start) * outward < min(style.mark_length, PRINTED_MARK):
            return None
        return end - outward * min(style.mark_length, (end - start) * outward), end

    def add(x1: float, y1: float, x2: float, y2: float) -> None:
        over_art = left < max(x1, x2) and min(x1, x2) < right and top < max(y1, y2) and min(y1, y2) < bottom
        if over_art:
            page.add(Line(x1, y1, x2, y2, HALO, colour="#ffffff"))
        page.add(Line(x1, y1, x2, y2, colour=style.mark_colour))

    inset = style.inset
    for x in sorted({round(v, 4) for v in xs}):  # one mark for neighbours' shared cut line
        for edge, outward, limit, printable in ((top, -1, 0.0, inset), (bottom, 1, sheet.height, lowest)):
            if s := span(edge, outward, limit, printable, x, True):
                add(x, s[0], x, s[1])
    for y in sorted({round(v, 4) for v in ys}):
        for edge, outward, limit, printable in ((left, -1, 0.0, inset),
                                                (right, 1, right_edge, right_edge + 1 if fold else sheet.width - inset)):
            if s := span(edge, outward, limit, printable, y, False):
                add(s[0], y, s[1], y)


def _crop_marks(page: Page, sheet: Paper, grid: Grid, count: int, bleed: float) -> None:
    """Crop marks in the margins on the extension of every cut line of the used slots, in
    the `standard` sheet layout's style (pnp/data/presets.yaml)."""
    xs: list[float] = []
    ys: list[float] = []
    boxes = []
    for i in range(count):
        x, y = grid.slot(i)
        boxes.append((x, y, x + grid.cell_w, y + grid.cell_h))
        xs += [x + bleed, x + grid.cell_w - bleed]
        ys += [y + bleed, y + grid.cell_h - bleed]
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    margin_marks(page, sheet, xs, ys, box, sheet_layout("standard"), inner=bleed - 0.5)


def _expand(rendered: RenderedComponent) -> list[tuple[Face, Face | None]]:
    return [(p.front, p.back) for p in rendered.pieces for _ in range(p.copies)]


def _chunks(seq: list, size: int) -> Iterator[list]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


def layout(rendered: RenderedComponent, sheet: Paper, title: str, fonts: "Fonts | None" = None) -> Layout:
    """The pages of one component: fronts (and duplex backs) on `sheet`-sized pages, their
    text measured in `fonts` (the game's, which draw it; pnp's default fonts when None)."""
    from .labels import Measure

    measure = Measure(fonts)
    spec = rendered.spec
    bleed = rendered.bleed
    copies = _expand(rendered)
    pages: list[Page] = []
    if not copies:  # one measured line inside the printable inset, like every other sheet label
        left = max(sheet.margin, sheet_layout("standard").inset)
        pages.append(Page([measure.line(f"{title}: no pieces to print", left, left + 5, sheet.width - 2 * left, 9, 6)]))
        return Layout(sheet, title, pages)
    grid = plan_grid(spec.size.width, spec.size.height, bleed, spec.gap, sheet, spec.rotate == "auto")
    if grid is None:
        return Layout(sheet, title, _oversize_pages(copies, sheet, bleed, sheet_layout("standard"), measure, spec.rotate == "auto"))
    has_backs = any(back is not None for _, back in copies)
    turn = 90 if grid.rotated else 0
    for chunk in _chunks(copies, grid.per_page):
        fronts = Page()
        for i, (front, _) in enumerate(chunk):
            x, y = grid.slot(i)
            fronts.add(Place(front, x, y, grid.cell_w, grid.cell_h, turn))
        _crop_marks(fronts, sheet, grid, len(chunk), bleed)
        pages.append(fronts)
        if has_backs:
            backs = Page()
            for i, (_, back) in enumerate(chunk):
                if back is None:
                    continue
                x, y = grid.slot(i)
                # long-edge duplex flips the sheet about its vertical axis: mirror x
                backs.add(Place(back, sheet.width - x - grid.cell_w, y, grid.cell_w, grid.cell_h, -turn))
            pages.append(backs)
    return Layout(sheet, title, pages)


def impose(rendered: RenderedComponent, sheet: Paper, title: str, fonts: "Fonts | None" = None) -> bytes:
    """The PDF of one component (see `layout`), drawn with `fonts` (pnp's default fonts)."""
    from .pdf import write_pdf

    if fonts is None and rendered.pieces:
        fonts = rendered.pieces[0].front.fonts
    return write_pdf(layout(rendered, sheet, title, fonts), fonts)


def _oversize_pages(copies: list[tuple[Face, Face | None]], sheet: Paper, bleed: float, style: SheetLayout | None = None,
                    measure: "Measure | None" = None, turnable: bool = True) -> list[Page]:
    """Split each piece over a grid of pages that overlap by TILE_OVERLAP mm. The top and
    bottom margins are wide enough that the instruction line and PRINTED_TICK mm of each
    landing tick there print inside `style`'s printable inset (none when None), and the side
    margins too when a piece takes more than one row of pages (their ticks); else the side
    margins hold PRINTED_MARK mm of the crop marks of the piece's top and bottom trim lines.
    Every outer trim line has crop marks in `style` (the `standard` layout's when None).
    `measure` lays out the instruction lines (pnp's default fonts when None). A piece is
    turned where that takes fewer pages, unless not `turnable` (`rotate: never`)."""
    inset = style.inset if style is not None else 0.0
    style = style or sheet_layout("standard")
    wide = max(sheet.margin, inset + MARK_OFFSET + PRINTED_TICK) if inset else sheet.margin
    # a crop mark beside the art, or over its bleed short of the trim line (see `margin_marks`)
    side = max(sheet.margin, inset + PRINTED_MARK + min(style.mark_offset, 0.5 - bleed)) if inset else sheet.margin
    pages: list[Page] = []
    for front, back in copies:
        full_w, full_h = front.width + 2 * bleed, front.height + 2 * bleed
        options = []
        for turn, (w, h) in ((0, (full_w, full_h)), (90, (full_h, full_w)))[: 2 if turnable else 1]:
            ys = _windows(h, sheet.height - 2 * wide)
            # ticks in the side margins only where a page lies below; else room for the marks
            # of the piece's top and bottom trim lines, which also keeps the trim printable
            mx = wide if len(ys) > 1 else side
            options.append((len(_windows(w, sheet.width - 2 * mx)) * len(ys), turn, w, h, mx))
        count, turn, full_w, full_h, mx = min(options, key=lambda o: o[0])  # fewer pages turned, else as it is
        margins = (mx, wide)
        xs, ys = _windows(full_w, sheet.width - 2 * mx), _windows(full_h, sheet.height - 2 * wide)
        for row, (oy, win_h) in enumerate(ys):
            for col, (ox, win_w) in enumerate(xs):
                page = Page()
                page.add(_tile(sheet, margins, front, ox, oy, win_w, win_h, full_w, full_h, turn,
                               cut=_tile_cut(margins, bleed, col, row, xs, ys)))
                _overlap_marks(page, margins, col > 0, row > 0, win_w, win_h)
                _landing_marks(page, margins, col < len(xs) - 1, row < len(ys) - 1, win_w, win_h, inset)
                _trim_marks(page, sheet, margins, bleed, (col, row), (len(xs), len(ys)), win_w, win_h, style, inset)
                piece = front.component if front.name == front.component else f"{front.component}/{front.name}"
                where = f" (row {row + 1}, column {col + 1})" if len(xs) > 1 and len(ys) > 1 else ""
                if count > 1:  # a piece that fits one page turned is whole: no dashed line, no neighbour to glue
                    page.add(_tile_label(sheet, margins, f"{piece}: page {row * len(xs) + col + 1} of {count}{where}. Cut on the "
                                         "dashed lines; lay over the neighbour up to the solid ticks and glue.",
                                         (col, len(xs)), win_w, bleed, inset, measure))
                pages.append(page)
                if back is not None:
                    pages.append(Page([_tile(sheet, margins, back, full_w - ox - win_w, oy, win_w, win_h, full_w, full_h, -turn,
                                             mirror=True)]))
    return pages


def _trim_marks(page: Page, sheet: Paper, margins: tuple[float, float], bleed: float, at: tuple[int, int],
                pages: tuple[int, int], win_w: float, win_h: float, style: SheetLayout, inset: float) -> None:
    """Crop marks on the extension of the piece's outer trim lines this page shows, at
    both ends of each (a user lays a ruler on them), in `style` (see `margin_marks`)."""
    mx, my = margins
    (col, row), (cols, rows) = at, pages
    box = (mx, my, mx + win_w, my + win_h)
    xs = ([mx + bleed] if col == 0 else []) + ([mx + win_w - bleed] if col == cols - 1 else [])
    ys = ([my + bleed] if row == 0 else []) + ([my + win_h - bleed] if row == rows - 1 else [])
    margin_marks(page, sheet, xs, ys, box, style.model_copy(update={"inset": inset}), inner=bleed - 0.5)


def _tile(sheet: Paper, margins: tuple[float, float], face: Face, ox: float, oy: float, win_w: float, win_h: float,
          full_w: float, full_h: float, turn: int, mirror: bool = False,
          cut: tuple[float, float, float, float] | None = None) -> Place:
    """The window (ox, oy, win_w, win_h) of `face`, as laid on the page (turned by `turn`),
    at the page's `margins` (side, top); backs sit at the mirrored side for duplex."""
    mx, my = margins
    left = sheet.width - mx - win_w if mirror else mx
    return Place(face, left - ox, my - oy, full_w, full_h, turn, clip=(left, my, win_w, win_h), cut=cut)


TILE_LABEL = 6.0  # pt: the split piece's instruction line, at the faces' floor (pnp/render/textfit.py)
TEXT_ROOM = 1.5  # mm between a crop mark and the text beside it: 0.5 mm read as a letter ("|board: page 1")


def _tile_label(sheet: Paper, margins: tuple[float, float], text: str, at: tuple[int, int], win_w: float,
                bleed: float = 0.0, inset: float = 0.0, measure: "Measure | None" = None) -> Label:
    """One measured line in the top margin (the print PDF labels the bottom one), between
    the crop marks of the piece's side trim lines and the landing ticks there, clear of the
    registration marks 10 mm from the edge, and `inset` mm or more from the paper edge;
    `at` is the page's (column, columns)."""
    from . import labels

    mx, my = margins
    col, cols = at
    measure = measure or labels.DEFAULT
    edge = max(mx, inset)
    trim_left, trim_right = mx + bleed, mx + win_w - bleed  # where the side trim lines' crop marks are
    left = edge if col > 0 else max(trim_left + TEXT_ROOM, inset)
    end = mx + win_w - TILE_OVERLAP / 2 - 1 if col < cols - 1 else trim_right - TEXT_ROOM
    spans = [(left, end)]
    if col == cols - 1:  # a narrow last page: the line may run on past the right trim's mark
        spans.append((trim_right + TEXT_ROOM, sheet.width - edge))
    fits = [s for s in spans if measure.width(text, TILE_LABEL) <= s[1] - s[0]]
    if not fits:  # no room for the instructions (the first page has them): the page's place only
        text = text[: text.index(". ") + 1]
    left, end = fits[0] if fits else max(spans, key=lambda s: s[1] - s[0])
    top = max(1.5, inset, my / 2 - 2.5)
    return measure.line(text, left, top + labels.ASCENT * TILE_LABEL * labels.PT, end - left, TILE_LABEL, TILE_LABEL)


def _tile_cut(margins: tuple[float, float], bleed: float, col: int, row: int, xs: list[tuple[float, float]],
              ys: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """What is cut out of one page of a split piece (x, y, w, h on the page): from the dashed
    line where a page lies to the left (above), else the piece's trim line, to the window's
    edge where a page lies to the right (below; it is glued over that strip), else the trim."""

    def span(m: float, index: int, windows: list[tuple[float, float]]) -> tuple[float, float]:
        start = m + (TILE_OVERLAP / 2 if index > 0 else bleed)
        end = m + windows[index][1] - (bleed if index == len(windows) - 1 else 0.0)
        return start, end - start

    (x, w), (y, h) = span(margins[0], col, xs), span(margins[1], row, ys)
    return x, y, w, h


def _windows(full: float, area: float) -> list[tuple[float, float]]:
    """(offset, length) of each page's window along one axis; neighbours share TILE_OVERLAP mm."""
    if full <= area:
        return [(0.0, full)]
    step = area - TILE_OVERLAP
    count = math.ceil((full - TILE_OVERLAP) / step)
    return [(i * step, min(area, full - i * step)) for i in range(count)]


def _landing_marks(page: Page, margins: tuple[float, float], right: bool, below: bool, win_w: float, win_h: float,
                   inset: float = 0.0) -> None:
    """Short solid ticks in the margins where the cut edge of the page to the right (or
    below) lands on this one: the strip beyond them is where that page is glued on. They
    stop `inset` mm from the paper edge."""
    mx, my = margins
    if right:
        x, tick = mx + win_w - TILE_OVERLAP / 2, min(MARK_LENGTH, my - MARK_OFFSET - inset)
        page.add(Line(x, my - MARK_OFFSET, x, my - MARK_OFFSET - tick, width=0.6))
        page.add(Line(x, my + win_h + MARK_OFFSET, x, my + win_h + MARK_OFFSET + tick, width=0.6))
    if below:
        y, tick = my + win_h - TILE_OVERLAP / 2, min(MARK_LENGTH, mx - MARK_OFFSET - inset)
        page.add(Line(mx - MARK_OFFSET, y, mx - MARK_OFFSET - tick, y, width=0.6))
        page.add(Line(mx + win_w + MARK_OFFSET, y, mx + win_w + MARK_OFFSET + tick, y, width=0.6))


def _overlap_marks(page: Page, margins: tuple[float, float], left: bool, top: bool, win_w: float, win_h: float) -> None:
    """Dashed cut lines through the middle of the strips this page shares with the pages
    to its left and above, so the pieces overlap by half a strip when laid together."""
    mx, my = margins
    if left:
        x = mx + TILE_OVERLAP / 2
        page.add(Line(x, my, x, my + win_h, dash=(3, 2)))
    if top:
        y = my + TILE_OVERLAP / 2
        page.add(Line(mx, y, mx + win_w, y, dash=(3, 2)))
