"""The per-game print PDF (`output/<game>/<game>-print.pdf`) as plain data.

A title page (title, checklist of components with piece and sheet counts, how to print,
a 50 mm calibration ruler; what does not fit runs onto further pages), then each
component's sheets drawn with a named sheet layout (pnp.config), every page labelled in
its margin and bookmarked per component. A component's full grid sheets print as in its
own PDF; what is left of every component is
packed together (pnp.formats.packing; double-sided pieces apart, with their backs, folded
ones on fold sheets, one-sided ones in their free space where that saves a sheet, then in
that of a component's leftover sheet laid alone on its grid, double-sided ones first) instead of
wasting a nearly empty sheet each. Backs can be shifted by `back_offset` mm for a printer
that misaligns its second side; a duplex calibration sheet at the end measures that.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, cast

from .impose import HALO, PRINTED_MARK, TEXT_ROOM, Bookmark, Grid, Label, Layout, Line, Mark, Page, Paper, Place, _oversize_pages, margin_marks, plan_grid
from ..config import SheetLayout, sheet_layout, table
from ..errors import counted
from ..render.faces import Face, RenderedComponent

from . import labels
from .packing import Block, Group, fill, pack

if TYPE_CHECKING:
    from ..load.fonts import Fonts

RULER = 50.0  # mm
CALIBRATION = "Duplex calibration"


@dataclass
class Section:
    """The sheets of one component (or of the packed leftovers): pages and the side each prints."""

    name: str
    pages: list[Page] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)  # "front", "back", "single" or "fold"

    @property
    def sheets(self) -> int:
        return sum(side != "back" for side in self.sides)

    @property
    def duplex(self) -> bool:
        return "back" in self.sides


@dataclass(frozen=True)
class Plan:
    """The whole print PDF and the counts its title page lists."""

    layout: Layout
    sections: list[Section]
    first_page: dict[str, int]  # section name -> 1-based page number
    sheets_per_component: dict[str, int]  # component name -> sheets holding its pieces
    sheets_unpacked: int  # sheets the per-component PDFs take
    cut_pages: list[tuple[int, Page]] = field(default_factory=list)  # (page number, page) with registration marks

    @property
    def sheets(self) -> int:
        """Sheets of the game's pieces (not the title page nor the calibration sheet)."""
        return sum(s.sheets for s in self.sections if s.name != CALIBRATION)


def _copies(comp: RenderedComponent) -> list[tuple[Face, Face | None]]:
    return [(p.front, p.back) for p in comp.pieces for _ in range(p.copies)]


LABEL_SIZE = LABEL_SMALLEST = 6.0  # pt: a sheet's label, never under the faces' floor (pnp/render/textfit.py)
LABEL_BAND = (labels.ASCENT + labels.DESCENT) * LABEL_SIZE * labels.PT + 0.6  # mm: its line and a gap (0.5 mm, and some) above it


def _grid_pages(section: Section, chunk: list[tuple[Face, Face | None]], sheet: Paper, grid: Grid, bleed: float,
                style: SheetLayout, back_offset: tuple[float, float], fold: bool = False,
                fillers: "_Fillers | None" = None) -> None:
    """One sheet of fronts (and its mirrored backs) on `grid`. With shared cuts the grid's
    cells are trim size and a piece's bleed shows only where no neighbour abuts it. With
    `fold` the grid fills the left half and the backs, mirrored about the fold line in the
    middle, the right half of the same page: fold, glue and cut. `fillers`: one-sided
    pieces in its free space (see `_lone_fill`), their backs left blank."""
    if fold:
        back_offset = (0.0, 0.0)  # one side printed: nothing to misalign
    shared = style.cut == "shared"
    turn = 90 if grid.rotated else 0
    has_backs = any(back is not None for _, back in chunk)
    fronts, backs = Page(), Page()
    xs: list[float] = []
    ys: list[float] = []
    for i, (front, back) in enumerate(chunk):
        x, y = grid.slot(i)
        if shared:
            box, clip = _shared_cell(x, y, grid.cell_w, grid.cell_h, bleed, i, grid.cols, len(chunk))
            xs += [x, x + grid.cell_w]
            ys += [y, y + grid.cell_h]
        else:
            clip = None
            box = (x, y, grid.cell_w, grid.cell_h)
            xs += [x + bleed, x + grid.cell_w - bleed]
            ys += [y + bleed, y + grid.cell_h - bleed]
        fronts.add(Place(front, *box, turn, clip))
        if back is not None:
            # long-edge duplex flips the sheet about its vertical axis: mirror x
            dx, dy = back_offset
            mirrored = (sheet.width - box[0] - box[2] + dx, box[1] + dy, box[2], box[3])
            back_clip = None if clip is None else (sheet.width - clip[0] - clip[2] + dx, clip[1] + dy, clip[2], clip[3])
            backs.add(Place(back, *mirrored, -turn, back_clip))
    outer = _art_box(fronts)
    lift = _label_lift(sheet, outer, bleed, style, fold)
    if lift:
        for page in (fronts, backs):
            page.marks[:] = [_lifted(p, lift) for p in page.places]
        ys = [y - lift for y in ys]
        outer = _art_box(fronts)
    ours = [p.clip or (p.x, p.y, p.w, p.h) for p in fronts.places]
    theirs = _add_fillers(fronts, sheet, fillers, ours, style, fold) if fillers else []
    margin_marks(fronts, sheet, xs, ys, outer, style, inner=bleed - 0.5, fold=fold,
                 floor=sheet.height - style.inset - LABEL_BAND if lift else None, others=theirs)
    section.pages.append(fronts)
    if fold:
        fronts.marks += backs.marks
        fronts.add(Line(sheet.width / 2, 0, sheet.width / 2, sheet.height, 0.5, dash=(4, 3), colour=style.mark_colour))
        section.sides.append("fold")
    else:
        section.sides.append("front" if has_backs else "single")
    if has_backs and not fold:
        section.pages.append(backs)
        section.sides.append("back")


def _shared_cell(x: float, y: float, w: float, h: float, bleed: float, i: int, cols: int,
                 count: int) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    """The box (x, y, w, h) of the `i`th of `count` pieces in a grid of `cols` columns of
    trim-size cells under shared cuts, its trim at (x, y), `w` x `h`, and its clip: its
    bleed shows only where no neighbour abuts it. Over a short last row, the full row's last
    piece bleeds down and the short row's last piece right into the same bleed x bleed square
    beyond both corners; the later one shows there. Harmless: the square is outside both trim
    lines (cut away), and a cut that strays into it shows a neighbour's colour as any shared
    cut line does."""
    row, col = divmod(i, cols)
    right = col + 1 < cols and i + 1 < count
    below = i + cols < count
    cx, cy = x - (bleed if col == 0 else 0), y - (bleed if row == 0 else 0)
    clip = (cx, cy, x + w + (0 if right else bleed) - cx, y + h + (0 if below else bleed) - cy)
    return (x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed), clip


def _art_box(page: Page) -> tuple[float, float, float, float]:
    """The area (left, top, right, bottom) the page's pieces cover."""
    edges = [p.clip or (p.x, p.y, p.w, p.h) for p in page.places]
    return min(e[0] for e in edges), min(e[1] for e in edges), max(e[0] + e[2] for e in edges), max(e[1] + e[3] for e in edges)


def _label_lift(sheet: Paper, art: tuple[float, float, float, float], bleed: float, style: SheetLayout, fold: bool) -> float:
    """How far (mm) to move a sheet's pieces up so its label fits under them, inside the
    printable inset: 0 when some margin is deep enough for the label beside its crop marks
    (or no move keeps the top trim line printable). The marks at the bottom then go over
    the bleed, above the label."""
    left, top, right, bottom = art
    spares = (left, top, (sheet.width / 2 if fold else sheet.width) - right, sheet.height - bottom)
    if max(spares) >= style.inset + LABEL_BAND + style.mark_offset + PRINTED_MARK + 0.5:
        return 0.0
    lift = style.inset + LABEL_BAND - spares[3]
    return lift if lift > 0 and top - lift + bleed >= style.inset + 0.5 else 0.0


def _lifted(place: Place, lift: float) -> Place:
    clip = None if place.clip is None else (place.clip[0], place.clip[1] - lift, place.clip[2], place.clip[3])
    return replace(place, y=place.y - lift, clip=clip)


def fold_half(sheet: Paper) -> Paper:
    """The left half of `sheet`, where the fold layout puts the fronts."""
    return Paper(sheet.name, sheet.width / 2, sheet.height, sheet.margin)


def component_grid(comp: RenderedComponent, sheet: Paper, style: SheetLayout) -> Grid | None:
    """The grid `comp`'s pieces take on `sheet` in the layout `style`; None when none fits whole."""
    spec, bleed = comp.spec, comp.bleed
    if style.cut == "shared":  # cells at trim size, the outer bleed inside the margin
        inner = Paper(sheet.name, sheet.width, sheet.height, style.margin + bleed)
        return plan_grid(spec.size.width, spec.size.height, 0.0, 0.0, inner, spec.rotate == "auto")
    gap = spec.gap if style.gap is None else style.gap
    return plan_grid(spec.size.width, spec.size.height, bleed, gap, sheet, spec.rotate == "auto")


def laid_grid(comp: RenderedComponent, sheet: Paper, style: SheetLayout, backs: bool) -> tuple[Grid | None, bool]:
    """The grid `comp`'s pieces take (see `component_grid`) and whether they fold: in a fold
    layout pieces with `backs` go on the left half, their backs mirrored on the right; those
    too big for the half go on whole sheets, each followed by its backs, as in other layouts."""
    if style.fold and backs:
        half = component_grid(comp, fold_half(sheet), style)
        if half is not None:
            return half, True
    return component_grid(comp, sheet, style), False


Leftover = tuple[RenderedComponent, Face, "Face | None"]


def _packed(name: str, leftovers: list[Leftover], sheet: Paper, style: SheetLayout, back_offset: tuple[float, float],
            fillers: list[Leftover] | None = None, fold: bool = False) -> tuple[Section, list[RenderedComponent], list[Leftover]]:
    """What is left of several components packed onto shared sheets, each component's
    pieces as a block with crop marks on its cut lines (pnp.formats.packing; with shared
    cuts, as on the component's own sheet: trim-size cells abutting, the bleed only around
    the block, see `_block_pieces`); where they have
    backs, each sheet is followed by its backs mirrored for long-edge duplex (with `fold`:
    the blocks on the left half, their backs mirrored on the right, as `_grid_pages` folds
    a component's grid). A sheet that
    would hold one component only is left out: that component is returned, to print on
    a sheet of its own as its own grid lays it (all of them are, when that takes fewer
    sheets than packing). Then each component of `fillers` (one-sided leftovers) goes
    whole into the free space of the packed sheets, where there is room, its back left
    blank. Returns the section, the components left alone and the fillers left out."""
    section = Section(name)
    duplex = any(back is not None for _, _, back in leftovers)
    groups, pieces = _groups(leftovers + (fillers or []), style)
    ours = {id(comp) for comp, _, _ in leftovers}
    main = [g for g in groups if id(pieces[cast(int, g.key)][0][0]) in ours]
    width = sheet.width / 2 if fold else sheet.width
    area_w, area_h = _pack_area(sheet, style, fold)
    sheets = pack(main, area_w, area_h, style.pack_gap)
    kept = [blocks for blocks in sheets if len({b.key for b in blocks}) > 1]
    alone = [pieces[cast(int, blocks[0].key)][0][0] for blocks in sheets if len({b.key for b in blocks}) == 1]
    if len(sheets) > len(main):  # never more sheets than each component's leftovers on a sheet of its own
        kept, alone = [], [pieces[cast(int, g.key)][0][0] for g in main]
    kept, out = fill(kept, [g for g in groups if g not in main], area_w, area_h, style.pack_gap)
    for blocks in kept:
        used_w = max(b.x + b.width for b in blocks)
        used_h = max(b.y + b.height for b in blocks)
        left, top = (width - used_w) / 2, min((sheet.height - used_h) / 2, style.margin + area_h - used_h)
        page, backs = Page(), Page()
        offset = (0.0, 0.0) if fold else back_offset  # one side printed: nothing to misalign
        for block in blocks:
            _block_pieces(page, backs, sheet, left, top, block, pieces[cast(int, block.key)], style, offset)
            boxes = [box for b in blocks if b is not block for box in _art_boxes(b, block, left, top)]
            _block_marks(page, sheet, left, top, block, pieces[cast(int, block.key)][0][0].bleed, style, boxes, fold)
        section.pages.append(page)
        if fold:
            page.marks += backs.marks
            page.add(Line(sheet.width / 2, 0, sheet.width / 2, sheet.height, 0.5, dash=(4, 3), colour=style.mark_colour))
            section.sides.append("fold")
            continue
        section.sides.append("front" if duplex else "single")
        if duplex:
            section.pages.append(backs)
            section.sides.append("back")
    return section, alone, [item for g in out for item in pieces[cast(int, g.key)]]


def _block_pieces(page: Page, backs: Page | None, sheet: Paper, left: float, top: float, block: Block, items: list[Leftover],
                  style: SheetLayout, offset: tuple[float, float]) -> None:
    """`block`'s pieces (`items`, the group's) on `page`, its packing area starting at (left,
    top), and their backs on `backs` mirrored for long-edge duplex (shifted by `offset`). With
    shared cuts its cells are trim size and abut, a piece's bleed showing only where no
    neighbour does, as on the component's own sheet (`_grid_pages`)."""
    shared = style.cut == "shared"
    for i, spot in enumerate(block.spots):
        comp, face, back = items[spot.index]
        x, y = left + spot.x, top + spot.y
        turn = 90 if spot.turned else 0
        box, clip = _shared_cell(x, y, spot.w, spot.h, comp.bleed, i, block.cols, block.count) if shared else ((x, y, spot.w, spot.h), None)
        page.add(Place(face, *box, turn, clip))
        if back is not None and backs is not None:
            mirrored = (sheet.width - box[0] - box[2] + offset[0], box[1] + offset[1], box[2], box[3])
            back_clip = None if clip is None else (sheet.width - clip[0] - clip[2] + offset[0], clip[1] + offset[1], clip[2], clip[3])
            backs.add(Place(back, *mirrored, -turn, back_clip))


def _art_boxes(block: Block, inner: Block, left: float, top: float) -> list[tuple[float, float, float, float]]:
    """The area (left, top, right, bottom) of `block`'s art on a sheet whose packing area
    starts at (left, top): its box; or, around a block `inner` filling the hole of its
    short last row (pnp.formats.packing.fill), its full rows and its last row apart (under
    shared cuts the last row's art starts at its trim line, the full rows' bleed over it)."""
    x, y, right, bottom = left + block.x, top + block.y, left + block.x + block.width, top + block.y + block.height
    if not (x <= left + inner.x and left + inner.x + inner.width <= right and y <= top + inner.y < bottom):
        return [(x, y, right, bottom)]
    short = block.count - (block.rows - 1) * block.cols
    last = bottom - block.pad - block.h
    return [(x, y, right, last - block.gap + block.pad), (x, last, x + 2 * block.pad + short * block.w + (short - 1) * block.gap, bottom)]


def _pack_area(sheet: Paper, style: SheetLayout, fold: bool = False) -> tuple[float, float]:
    """The width and height (mm) packed blocks may take on `sheet`: inside its margins;
    with `fold`, on the left half and above a foot deep enough for the sheet's label beside
    the crop marks (`_label_lift`): the art of both halves leaves it no side margin. So too
    with shared cuts, whose blocks' bleed reaches the margin (their marks move in over it)."""
    foot = _foot(style) if fold or style.cut == "shared" else style.margin
    return (sheet.width / 2 if fold else sheet.width) - 2 * style.margin, sheet.height - style.margin - foot


def _foot(style: SheetLayout) -> float:
    """The bottom margin (mm) deep enough for a sheet's label beside the crop marks (`_label_lift`)."""
    return max(style.margin, style.inset + LABEL_BAND + style.mark_offset + PRINTED_MARK + 0.5)


@dataclass(frozen=True)
class _Fillers:
    """One-sided pieces on a component's own leftover sheet: `blocks` (pnp.formats.packing)
    in an area whose top-left is (`left`, `top`) on the page, each block's pieces in
    `pieces` under its key."""

    left: float
    top: float
    blocks: list[Block]
    pieces: list[list[Leftover]]


def _lone_fill(chunk: list[tuple[Face, Face | None]], sheet: Paper, grid: Grid, bleed: float, style: SheetLayout,
               fold: bool, items: list[Leftover]) -> tuple[_Fillers | None, list[Leftover]]:
    """Which of the one-sided leftovers `items` go, whole components, into the free space of
    the sheet `chunk` takes alone on `grid`: beside its pieces, in the hole of its short last
    row and under them, inside the margins (the left half with `fold`) and above a foot deep
    enough for the sheet's label; and the items left out. None when none goes."""
    scratch = Section("")
    _grid_pages(scratch, chunk, sheet, grid, bleed, style, (0.0, 0.0), fold)
    first = scratch.pages[0].places[0]  # where the grid starts after `_label_lift`
    pad = bleed if style.cut == "shared" else 0.0  # shared cuts: trim-size cells, the bleed around the grid
    left, top = first.x, first.y  # its art's top left corner
    ours = Block(None, 0, len(chunk), min(grid.cols, len(chunk)), 0.0, 0.0, grid.cell_w, grid.cell_h, grid.gap, False, pad)
    bottom = sheet.height - _foot(style)
    if top + ours.height > bottom:  # its pieces take the label's strip under them
        return None, items
    groups, pieces = _groups(items, style)
    right = (sheet.width / 2 if fold else sheet.width) - style.margin
    sheets, out = fill([[ours]], groups, right - left, bottom - top, style.pack_gap)
    blocks = [b for b in sheets[0] if b.key is not None]
    if not blocks:
        return None, items
    return _Fillers(left, top, blocks, pieces), [item for g in out for item in pieces[cast(int, g.key)]]


def _add_fillers(page: Page, sheet: Paper, fillers: _Fillers, grid_art: list[tuple[float, float, float, float]],
                 style: SheetLayout, fold: bool) -> list[tuple[float, float, float, float]]:
    """Put `fillers` on `page`, with crop marks that stop short of the grid's art `grid_art`
    (x, y, w, h each) and of each other; returns their art areas (left, top, right, bottom)."""
    left, top = fillers.left, fillers.top
    boxes = [(left + b.x, top + b.y, left + b.x + b.width, top + b.y + b.height) for b in fillers.blocks]
    around = [(x, y, x + w, y + h) for x, y, w, h in grid_art]
    for block, box in zip(fillers.blocks, boxes):
        items = fillers.pieces[cast(int, block.key)]
        _block_pieces(page, None, sheet, left, top, block, items, style, (0.0, 0.0))  # their backs left blank
        _block_marks(page, sheet, left, top, block, items[0][0].bleed, style, around + [b for b in boxes if b is not box], fold)
    return boxes


def _packs_on_one_sheet(comp: RenderedComponent, count: int, sheet: Paper, style: SheetLayout, fold: bool = False) -> bool:
    """Whether `count` pieces of `comp` go on one packed sheet (a fold sheet's left half with `fold`) as a block."""
    groups, _ = _groups([(comp, comp.pieces[0].front, None)] * count, style)
    try:
        return len(pack(groups, *_pack_area(sheet, style, fold), style.pack_gap)) == 1
    except ValueError:  # a piece too big for the area (a fold sheet's foot): its own grid lays it
        return False


def _groups(leftovers: list[Leftover], style: SheetLayout) -> tuple[list[Group], list[list[Leftover]]]:
    """One packing group per component, in order, and each group's pieces."""
    by_component: dict[int, list[Leftover]] = {}
    for item in leftovers:
        by_component.setdefault(id(item[0]), []).append(item)
    pieces = list(by_component.values())
    groups = []
    for key, items in enumerate(pieces):
        comp, face, _ = items[0]
        if style.cut == "shared":  # cells at trim size, abutting, the bleed around them, as on the component's own sheet
            groups.append(Group(key, len(items), face.width, face.height, 0.0, comp.spec.rotate == "auto", comp.bleed))
            continue
        gap = comp.spec.gap if style.gap is None else style.gap
        groups.append(Group(key, len(items), face.width + 2 * comp.bleed, face.height + 2 * comp.bleed, gap, comp.spec.rotate == "auto"))
    return groups, pieces


def _block_marks(page: Page, sheet: Paper, left: float, top: float, block: Block, bleed: float, style: SheetLayout,
                 others: list[tuple[float, float, float, float]], fold: bool = False) -> None:
    """Crop marks on the extension of every cut line of a packed block (with shared cuts,
    its cells' edges: the block's bleed is around them), each in its own half
    of the gap to the `others` blocks' art it would run into (read as this block's), and
    starting at most 0.5 mm from the block: pack_gap 6 leaves PRINTED_MARK mm of each (a
    1 mm offset left 1.5 mm), and toward the paper's edge the full mark_length."""
    xs, ys = [], []
    trim = 0.0 if style.cut == "shared" else bleed  # shared cuts: the cells are the trim boxes, the bleed around the block
    for spot in block.spots:
        x, y = left + spot.x, top + spot.y
        xs += [x + trim, x + spot.w - trim]
        ys += [y + trim, y + spot.h - trim]
    x, y = left + block.x, top + block.y
    near = style.model_copy(update={"mark_offset": min(style.mark_offset, 0.5)})
    margin_marks(page, sheet, xs, ys, (x, y, x + block.width, y + block.height), near, inner=bleed - 0.5, fold=fold, others=others)


def plan(title: str, rendered: list[RenderedComponent], sheet: Paper, style: SheetLayout, *, pack: bool = True,
         back_offset: tuple[float, float] = (0.0, 0.0), registration: bool = False, layout_name: str = "",
         fonts: "Fonts | None" = None, layouts: dict[str, SheetLayout] | None = None) -> Plan:
    """The print PDF of one game: title page (naming `layout_name`, the layout `style` is,
    and the others as the project's `layouts` in pnp.yaml make them), then every component's
    sheets; with `registration`, print-then-cut marks on every sheet that is cut
    (pnp.formats.cutfile). Its text is measured in `fonts`, the game's fonts that draw it
    (pnp's default fonts when None)."""
    measure = labels.Measure(fonts)
    base_style, base_sheet = style, Paper(sheet.name, sheet.width, sheet.height, style.margin)
    if registration:
        from .cutfile import MARGIN

        style = style.model_copy(update={"margin": max(style.margin, MARGIN)})
    sheet = Paper(sheet.name, sheet.width, sheet.height, style.margin)
    if registration:
        # the L marks' squares reach CORNER mm further in than the margin keeps clear: the
        # pieces keep that much more off the top and bottom edges, else (fewer sheets) off the
        # sides; a piece too big for that room goes in the other, or in the top-left part of the
        # sheet, CORNER mm more off its right and bottom edges (clear of both L marks)
        from .cutfile import CORNER

        def room(narrower: float, shorter: float) -> Paper:
            return Paper(sheet.name, sheet.width - narrower, sheet.height - shorter, style.margin)

        tall, wide, corner = (room(0.0, 2 * CORNER), 0.0, CORNER), (room(2 * CORNER, 0.0), CORNER, 0.0), (room(CORNER, CORNER), 0.0, 0.0)
        tries = [_laid(rendered, main[0], style, base_sheet, base_style, pack, back_offset, registration, measure, main[1:], [other, corner])
                 for main, other in ((tall, wide), (wide, tall))]
        sections, own_margin, _ = min(tries, key=lambda laid: sum(s.sheets for s in laid[0]))  # the first of equals
        unpacked = min(laid[2] for laid in tries)  # one component a sheet (--no-pack) takes the room needing fewest
    else:
        sections, own_margin, unpacked = _laid(rendered, sheet, style, base_sheet, base_style, pack, back_offset, registration, measure)
    if any(s.duplex for s in sections):
        from .calibration import calibration_pages

        calibration = Section(CALIBRATION)
        calibration.pages = list(calibration_pages(sheet, back_offset, measure))
        calibration.sides = ["front", "back"]
        sections.append(calibration)
    pieces = {c.spec.name: len(_copies(c)) for c in rendered}
    pages, first, held = _assemble(title, sections, sheet, rendered, pieces, unpacked, back_offset, own_margin, layout_name,
                                   style.inset, measure, style.fold, registration, layouts)
    cut: list[tuple[int, Page]] = []
    if registration:
        from .cutfile import add_registration

        number = {id(page): n for n, page in enumerate(pages, 1)}
        for s in sections:
            for page, side in zip(s.pages, s.sides):
                if s.name != CALIBRATION and side != "back" and id(page) not in own_margin:
                    add_registration(page, sheet)
                    cut.append((number[id(page)], page))
    return Plan(Layout(sheet, f"{title}: print", pages), sections, first, {k: len(v) for k, v in held.items()}, unpacked, cut)


def _laid(rendered: list[RenderedComponent], sheet: Paper, style: SheetLayout, base_sheet: Paper, base_style: SheetLayout,
          pack: bool, back_offset: tuple[float, float], registration: bool,
          measure: labels.Measure, at: tuple[float, float] = (0.0, 0.0),
          others: list[tuple[Paper, float, float]] | None = None) -> tuple[list[Section], dict[int, float], int]:
    """The sheets of the components' pieces laid in `sheet`'s room (its margins), in the
    layout `style` (`base_style` on `base_sheet`: the paper and layout without the cut
    file's marks), the instructions of split pieces measured in `measure`; the margin of
    each page printed whole at a margin of its own (by page id), and the sheets the
    per-component PDFs take. `sheet` is a room `at` (mm across, down) from the paper's top
    left corner; a component too big for it goes whole on sheets of their own in the first
    of `others` (rooms, each with where it lies) that holds most of it a sheet."""
    narrow = sheet_layout("standard")  # the margin a piece too big for a wider one prints at
    # pages printed whole at a margin of their own (paper forms too big for the registration marks,
    # never split for them; pieces too big for the layout's margin, at `narrow`'s): their margin
    own_margin: dict[int, float] = {}
    moved: set[int] = set()  # pages laid in one of `others`, where they lie on the paper
    sections: list[Section] = []
    leftovers: list[Leftover] = []
    folding: set[int] = set()  # the components whose pieces fold (their leftovers pack on fold sheets)
    lone: list[tuple[RenderedComponent, list[tuple[Face, Face | None]]]] = []  # leftovers on a sheet of their own
    unpacked = 0
    for comp in rendered:
        copies = _copies(comp)
        if not copies:
            continue
        name = comp.spec.name
        section = Section(name)
        has_backs = any(b is not None for _, b in copies)
        grid, fold = laid_grid(comp, sheet, style, has_backs)
        if grid is None and others:
            fits = [(g, f, room, x, y) for room, x, y in others for g, f in [laid_grid(comp, room, style, has_backs)] if g is not None]
            if fits:
                grid, fold, room, x, y = max(fits, key=lambda fit: fit[0].per_page)
                unpacked += -(-len(copies) // grid.per_page)
                for start in range(0, len(copies), grid.per_page):
                    _grid_pages(section, copies[start:start + grid.per_page], room, grid, comp.bleed, style, back_offset, fold)
                for page, side in zip(section.pages, section.sides):  # a back is mirrored about the paper's middle
                    across = base_sheet.width - room.width - x if side == "back" else x
                    page.marks[:] = [_moved(m, across, y) for m in page.marks]
                    moved.add(id(page))
                sections.append(section)
                continue
        form, form_sheet, form_style = None, base_sheet, base_style
        if grid is None and registration:
            form, fold = laid_grid(comp, base_sheet, base_style, has_backs)
        if grid is None and form is None and base_style.margin > narrow.margin:
            # too big for a wide margin (scissors' 8 mm: Tasty Humans' monster boards, Dietrick-taking's
            # scoring sheets on Letter), not for the standard layout's: whole at that margin, not split
            form_style = base_style.model_copy(update={"margin": narrow.margin})
            form_sheet = Paper(base_sheet.name, base_sheet.width, base_sheet.height, narrow.margin)
            form, fold = laid_grid(comp, form_sheet, form_style, has_backs)
        if form is not None:  # fits the paper, not inside the registration marks (or margins): printed on its own
            unpacked += -(-len(copies) // form.per_page)
            for start in range(0, len(copies), form.per_page):
                _grid_pages(section, copies[start:start + form.per_page], form_sheet, form, comp.bleed, form_style, back_offset, fold)
            own_margin.update((id(page), form_sheet.margin) for page in section.pages)
        elif grid is None:
            section.pages = _oversize_pages(copies, sheet, comp.bleed, style, measure, comp.spec.rotate == "auto")
            backs = {id(b) for _, b in copies if b is not None}
            section.sides = ["back" if any(id(p.face) in backs for p in page.places) else ("front" if backs else "single")
                             for page in section.pages]
            unpacked += section.sheets
        else:
            unpacked += -(-len(copies) // grid.per_page)
            full = len(copies) - len(copies) % grid.per_page if pack else len(copies)
            for start in range(0, full, grid.per_page):
                _grid_pages(section, copies[start:start + grid.per_page], sheet, grid, comp.bleed, style, back_offset, fold)
            rest = copies[full:]
            if fold:
                folding.add(id(comp))
            if rest and not _packs_on_one_sheet(comp, len(rest), sheet, style, fold):
                # its own grid holds them on one sheet where a packed block (above the foot a
                # packed sheet keeps for its label, under shared cuts or folding) would not
                lone.append((comp, rest))
                rest = []
            leftovers += [(comp, front, back) for front, back in rest]
        sections.append(section)
    owned = {id(c): section for c, section in zip([c for c in rendered if _copies(c)], sections)}
    one_sided = [item for item in leftovers if all(p.back is None for p in item[0].pieces)]
    folded = [item for item in leftovers if id(item[0]) in folding]
    two_sided = [item for item in leftovers if any(p.back is not None for p in item[0].pieces) and id(item[0]) not in folding]

    def leftover_sheets(fillers: list[Leftover]) -> tuple[list[Section], list[RenderedComponent], list[Leftover], int]:
        """The packed sections, the components left alone, the one-sided leftovers on the
        packed one-sided sheets (or alone) and the sheets those take, with `fillers`
        (one-sided) first tried in the free space of the double-sided and fold sheets (their
        backs blank)."""
        double, alone, rest = _packed("Packed double-sided sheets", two_sided, sheet, style, back_offset, fillers)
        fold, fold_alone, rest = _packed("Packed sheets to fold", folded, sheet, style, back_offset, rest, fold=True)
        rest = rest if fillers else one_sided
        single, single_alone, _ = _packed("Packed sheets", rest, sheet, style, back_offset)
        return [single, double, fold], alone + fold_alone + single_alone, rest, single.sheets + len(single_alone)

    packed_sections, alone, singles, taken = leftover_sheets([])
    # where that saves a sheet (Tasty Humans' Village King token and shared-King markers had an A4 sheet of their own)
    filled = leftover_sheets(one_sided)
    if filled[3] < taken:
        packed_sections, alone, singles, taken = filled
    lone += [(comp, [(f, b) for c, f, b in leftovers if c is comp]) for comp in alone]
    # then in the free space of the components' leftover sheets laid alone on their grids, where
    # that saves a sheet too (Human Harvest on A4 with a cut file: its 9 leftover tiles had a
    # sheet to themselves, the pawns and marines another): first the two-sided components'
    # sheets, then the one-sided ones', each kept only where it saves a sheet on its own
    fillers: dict[int, _Fillers] = {}
    for backed in (True, False):
        spare = singles
        packed_alone = {id(c) for c, _, _ in singles}  # alone on "Packed sheets" (when in `lone`): their items are in `spare`
        found: dict[int, _Fillers] = {}
        for comp, chunk in lone:
            hosting = [item for item in spare if item[0] is not comp]
            if any(p.back is not None for p in comp.pieces) is not backed or not hosting:
                continue
            if id(comp) in packed_alone and len(hosting) == len(spare):
                continue  # a filler already: it has no sheet of its own now
            grid, fold = laid_grid(comp, sheet, style, id(comp) in folding)
            assert grid is not None  # leftovers are what a grid sheet was not full of
            got, left_out = _lone_fill(chunk, sheet, grid, comp.bleed, style, fold, hosting)
            if got is not None:
                found[id(comp)], spare = got, left_out  # a host keeps its own sheet: its items leave `spare`
        if not found:
            continue
        single, single_alone, _ = _packed("Packed sheets", spare, sheet, style, back_offset)
        hosts = packed_alone & found.keys()  # had a sheet of their own among the one-sided ones, and keep it
        if single.sheets + len(single_alone) + len(hosts) < taken:
            packed_sections[0], singles, taken = single, spare, single.sheets + len(single_alone)
            lone = [(comp, chunk) for comp, chunk in lone if id(comp) not in packed_alone - hosts]
            lone += [(comp, [(f, b) for c, f, b in leftovers if c is comp]) for comp in single_alone]
            fillers.update(found)
    for comp, chunk in lone:
        grid, fold = laid_grid(comp, sheet, style, id(comp) in folding)
        assert grid is not None  # leftovers are what a grid sheet was not full of
        _grid_pages(owned[id(comp)], chunk, sheet, grid, comp.bleed, style, back_offset, fold, fillers.get(id(comp)))
    sections = [s for s in sections + packed_sections if s.pages]
    if at != (0.0, 0.0):  # the room centred on the paper
        for page in (page for s in sections for page in s.pages if id(page) not in own_margin and id(page) not in moved):
            page.marks[:] = [_moved(m, *at) for m in page.marks]
    return sections, own_margin, unpacked


def _moved(mark: Mark, dx: float, dy: float) -> Mark:
    """`mark` moved `dx`, `dy` mm."""
    if isinstance(mark, Place):
        move = lambda box: None if box is None else (box[0] + dx, box[1] + dy, box[2], box[3])  # noqa: E731
        return replace(mark, x=mark.x + dx, y=mark.y + dy, clip=move(mark.clip), cut=move(mark.cut))
    if isinstance(mark, Line):
        return replace(mark, x1=mark.x1 + dx, y1=mark.y1 + dy, x2=mark.x2 + dx, y2=mark.y2 + dy)
    if isinstance(mark, Label):
        return replace(mark, x=mark.x + dx, y=mark.y + dy)
    return mark


def _holdings(sections: list[Section], rendered: list[RenderedComponent], start: int) -> dict[str, list[int]]:
    """Component name -> the page numbers of the sheets (front sides) holding its pieces,
    the sections' pages numbered from `start`."""
    names = {c.spec.id: c.spec.name for c in rendered}
    found: dict[str, list[int]] = {}
    number = start
    for s in sections:
        for page, side in zip(s.pages, s.sides):
            if side != "back":
                for comp in dict.fromkeys(p.face.component for p in page.places):
                    found.setdefault(names.get(comp, comp), []).append(number)
            number += 1
    return {c.spec.name: found[c.spec.name] for c in rendered if c.spec.name in found}


def _assemble(title: str, sections: list[Section], sheet: Paper, rendered: list[RenderedComponent], pieces: dict[str, int],
              unpacked: int, back_offset: tuple[float, float], own_margin: dict[int, float] | None = None,
              layout_name: str = "", inset: float = 0.0,
              measure: labels.Measure = labels.DEFAULT,
              one_sided: bool = False,
              registration: bool = False,
              layouts: dict[str, SheetLayout] | None = None) -> tuple[list[Page], dict[str, int], dict[str, list[int]]]:
    """The pages of the print PDF, each section's first page number and the page numbers
    of the sheets holding each component; `one_sided`: the layout is for a one-sided printer;
    `registration`: the other pages carry cutting-machine marks, those in `own_margin` none;
    `layouts`: the project's own, as the title page describes them."""
    # The title pages print the numbers of the pages after them, so those numbers depend on
    # how many title pages there are: lay them out again with the count they took until it
    # holds. A larger count only widens the numbers printed (never fewer lines), so this settles.
    count = 1
    while True:
        first: dict[str, int] = {}
        number = count + 1
        for s in sections:
            first[s.name] = number
            number += len(s.pages)
        held = _holdings(sections, rendered, count + 1)
        pages = _title_pages(title, sections, sheet, held, pieces, first, unpacked, back_offset, layout_name, measure,
                             one_sided, max((c.bleed for c in rendered), default=0.0), registration, layouts)
        if len(pages) == count:
            break
        count = len(pages)
    own_margin = own_margin or {}
    names = {c.spec.id: c.spec.name for c in rendered}
    for s in sections:
        for k, (page, side) in enumerate(zip(s.pages, s.sides)):
            m = own_margin.get(id(page), sheet.margin)
            if s.name == CALIBRATION:
                pages.append(page)
                continue
            if k == 0:
                page.add(Bookmark(s.name))
            where = {"front": "front (print double-sided, flip on long edge)", "back": "back", "single": "one side",
                     "fold": "one side: fold along the dashed line, glue, then cut"}[side]
            if registration and id(page) in own_margin:
                where += "; cut by hand along the crop marks (no cutting-machine marks)"
            sheet_no = sum(x != "back" for x in s.sides[: k + 1])
            page.add(_sheet_label(page, sheet, f"{title} · {s.name} · sheet {sheet_no} of {s.sheets}{_also(page, s, names)} · {where}",
                                  m, inset, measure))
            pages.append(page)
    return pages, first, held


def _also(page: Page, section: Section, names: dict[str, str]) -> str:
    """` · also Village King, Damage tiles`: the other components whose pieces a component's
    sheet holds (laid in its free space), for its label; "" for a sheet of its own alone, or
    of a packed section (named for no component)."""
    if section.name not in names.values():
        return ""
    others = [names.get(c, c) for c in dict.fromkeys(p.face.component for p in page.places)]
    others = [name for name in others if name != section.name]
    return f" · also {', '.join(others)}" if others else ""


def _sheet_label(page: Page, sheet: Paper, text: str, margin: float, inset: float,
                 measure: labels.Measure = labels.DEFAULT) -> Label:
    """The sheet's label, `inset` mm or more from the paper edge, in the first free strip
    of the bottom, top, right and left margins (turned, read from the bottom up, at the
    sides), in the first stretch of it clear of the art, every line and other text. When
    none is free, at the bottom with the crop marks under it shortened (see `_clear_of`)."""
    size, smallest = LABEL_SIZE, LABEL_SMALLEST
    end = max(margin, inset)  # where the text may start and must end along its edge
    w, h = sheet.width, sheet.height
    ascent, descent = labels.ASCENT * size * labels.PT, labels.DESCENT * size * labels.PT
    taken = [p.clip or (p.x, p.y, p.w, p.h) for p in page.places]
    # (box, room kept along the strip): TEXT_ROOM from a line, whose mark 0.5 mm off reads as a letter ("|Game")
    boxes = [((x, y, x + bw, y + bh), 0.5) for x, y, bw, bh in taken]
    boxes += [((min(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.x1, ln.x2), max(ln.y1, ln.y2)), TEXT_ROOM) for ln in page.lines]
    boxes += [(measure.box(m), 0.5) for m in page.marks if isinstance(m, Label)]
    strips = [  # (across: the band's extent across its edge, along: which box coordinates run along it, turn)
        ((h - inset - descent - ascent, h - inset), (0, 2), 0),
        ((inset, inset + ascent + descent), (0, 2), 0),
        ((w - inset - descent - ascent, w - inset), (1, 3), 90),
        ((inset, inset + ascent + descent), (1, 3), 90),
    ]
    width = measure.width(text, size)
    for (low, high), (a, b), turn in strips:
        cross = (1, 3) if turn == 0 else (0, 2)
        blocked = sorted((bx[a] - room, bx[b] + room) for bx, room in boxes if bx[cross[0]] < high + 0.5 and low - 0.5 < bx[cross[1]])
        start, stop = end, (w if turn == 0 else h) - end
        for block_start, block_end in blocked + [(stop, stop)]:
            if min(block_start, stop) - start >= width:
                if turn == 0:
                    return Label(text, start, high - descent, size)
                return Label(text, high - descent, start + width, size, turn)  # read from the bottom up
            start = max(start, block_end)
    label = measure.line(text, end, h - inset - descent, w - 2 * end, size, smallest)
    _clear_of(page, measure.box(label))
    return label


def _clear_of(page: Page, area: tuple[float, float, float, float], room: float = 0.5) -> None:
    """Shorten the crop marks (and a fold line) that would run into `area` (left, top,
    right, bottom), or pass within TEXT_ROOM mm beside it, so they stop `room` mm short of it;
    drop those left shorter than that.
    A crop mark left shorter than PRINTED_MARK mm grows back up over the bleed of the
    piece above it (cut away), short of its trim line, on a white halo (see `margin_marks`)."""
    left, top, right, bottom = area
    kept: list = []
    for mark in page.marks:
        # and those TEXT_ROOM mm beside it: closer, a mark reads as a letter of it ("edge)|")
        if isinstance(mark, Line) and mark.x1 == mark.x2 and left - TEXT_ROOM <= mark.x1 <= right + TEXT_ROOM:
            low, high = sorted((mark.y1, mark.y2))
            if high > top - room and low < bottom + room:
                if low >= top - room or mark.colour == "#ffffff":
                    continue  # wholly in the label's band, or a halo (drawn again under its mark)
                high = top - room
                piece = _piece_above(page, mark.x1, low)
                if mark.dash is None and high - low < PRINTED_MARK and piece is not None:
                    low = min(low, max(high - PRINTED_MARK, piece[1] + room))
                if high - low < room:
                    continue
                if mark.dash is None and piece is not None and piece[0] > low:  # over the bleed: on a white halo, so it shows on dark art
                    kept.append(Line(mark.x1, low, mark.x2, min(high, piece[0]), HALO, colour="#ffffff"))
                mark = Line(mark.x1, low, mark.x2, high, mark.width, mark.dash, mark.colour)
        kept.append(mark)
    page.marks[:] = kept


def _piece_above(page: Page, x: float, y: float) -> tuple[float, float] | None:
    """The bottom edge (mm) of the art over (x, y), or ending at most 1.5 mm above it, and
    that piece's trim line (the edge less its bleed); None when there is no such art. A
    mark `margin_marks` moved in over the bleed starts inside the art, up to a bleed above
    its edge."""
    found = [(e[1] + e[3], p.face.bleed) for p in page.places for e in [p.clip or (p.x, p.y, p.w, p.h)]
             if e[0] <= x <= e[0] + e[2] and e[1] <= y <= e[1] + e[3] + 1.5]
    if not found:
        return None
    bottom, bleed = max(found)
    return bottom, bottom - bleed


# the built-in layouts (pnp/data/presets.yaml) as the title page offers them; "{poker}" is
# how many poker cards that layout puts on a sheet of the build (see `_poker_cards`)
LAYOUTS = {"tight": "{poker}neighbours share cut lines", "standard": "each piece with its bleed",
           "fold": "one-sided printers", "scissors": "room to cut"}
OWN = "{poker}as pnp.yaml sets it"  # a built-in name a project's `layouts:` replaces
POKER = (63.0, 88.0)  # mm, pnp/data/presets.yaml `sizes: poker`


def layout_names(layouts: dict[str, SheetLayout] | None) -> list[str]:
    """The layouts a build may use, in the order pnp offers them: the built-in ones as the
    title page lists them, then a project's own under new names, sorted."""
    return list(LAYOUTS) + sorted(name for name in layouts or {} if name not in LAYOUTS)


def _offered(layout_name: str, sheet: Paper, bleed: float, registration: bool, layouts: dict[str, SheetLayout] | None) -> str:
    """The title page's line naming the layout `layout_name` and the others this build's
    options allow (with a cut file, none that folds: pnp/build/driver.py, check_cut_file),
    each as `--layout NAME` would give it: a project's own `layouts:` replace built-in ones,
    and those under new names follow them, sorted."""
    styles = table(layouts)
    others = []
    for name in layout_names(layouts):
        if name == layout_name or (registration and styles[name].fold):
            continue
        about = OWN if name in (layouts or {}) else LAYOUTS[name]
        # each counts the poker cards it lays itself (of the built-in ones, only tight's text has a count)
        others.append(f"{name} ({about.format(poker=_poker_cards(sheet, bleed, registration, styles[name]))})")
    return f"Sheet layout: {layout_name}. Others: --layout {', '.join(others)}, or layout: in pnp.yaml."


def _poker_cards(sheet: Paper, bleed: float, registration: bool, style: SheetLayout) -> str:
    """"N poker cards a sheet, " for the layout `style` (`tight`, or a project's own) on
    `sheet` as this build would lay it (a cut file's registration marks widen the margins: 4
    on Letter, not 9); empty when none fits, or no one number holds (a fold layout
    puts cards with backs on half a sheet, others on a whole one)."""
    if style.fold:
        return ""
    rooms = [(sheet.width, sheet.height)]
    if registration:  # as `plan` lays them: 32 mm off the top and bottom, or the sides
        from .cutfile import CORNER, MARGIN

        style = style.model_copy(update={"margin": max(style.margin, MARGIN)})
        rooms = [(sheet.width, sheet.height - 2 * CORNER), (sheet.width - 2 * CORNER, sheet.height)]
    grids = []
    for width, height in rooms:
        if style.cut == "shared":  # cells at trim size, the bleed only outside them
            grids.append(plan_grid(*POKER, 0.0, 0.0, Paper(sheet.name, width, height, style.margin + bleed), True))
        else:  # a card's own gap is 0 unless its component sets one (pnp/load/manifest.py)
            grids.append(plan_grid(*POKER, bleed, style.gap or 0.0, Paper(sheet.name, width, height, style.margin), True))
    most = max((grid.per_page for grid in grids if grid is not None), default=0)
    return f"{most} poker cards a sheet, " if most else ""


TITLE_MARGIN = 12.0  # mm, at least, around the title pages' text


@dataclass
class _TitleFlow:
    """The title pages being filled top to bottom; `y` is where the next thing goes on the
    last of them. What would run past the bottom margin goes on a further page headed as
    a continuation (with `heading` again, once the checklist has begun)."""

    title: str
    sheet: Paper
    pages: list[Page]
    y: float
    heading: str = ""
    fresh: bool = False  # the last page holds nothing but its headings yet
    measure: labels.Measure = labels.DEFAULT

    @property
    def margin(self) -> float:
        return max(self.sheet.margin, TITLE_MARGIN)

    def fits(self, bottom: float) -> bool:
        return bottom <= self.sheet.height - self.margin

    def turn(self) -> None:
        """Start a continuation page."""
        m, room = self.margin, self.sheet.width - 2 * self.margin
        self.pages.append(Page([self.measure.line(f"{self.title} (continued from page {len(self.pages)})", m, m + 10, room, 14, 8)]))
        self.y, self.fresh = m + 20, True
        if self.heading:
            self.pages[-1].add(self.measure.line(f"{self.heading} (continued)", m, self.y, room, 12, 8))
            self.y += 8

    def text(self, text: str, x: float, room: float, size: float, after: float, tick: float | None = None) -> None:
        """`text` wrapped to `room` mm, its first baseline at `y`, or on a further page if it
        would run past the bottom margin here and this page holds more than its headings (a
        text taller than a whole page is not split); then `y` is its last baseline plus
        `after`. With `tick`, a 3 mm box to tick at that x, level with its first line."""
        def lay() -> list[Label]:
            return self.measure.block(text, x, self.y - labels.ASCENT * size * labels.PT, room, size)

        block = lay()
        if not self.fresh and not self.fits(block[-1].y + labels.DESCENT * size * labels.PT):
            self.turn()
            block = lay()
        page, y = self.pages[-1], self.y
        if tick is not None:
            for x1, y1, x2, y2 in ((0, 0, 3, 0), (0, 3, 3, 3), (0, 0, 0, 3), (3, 0, 3, 3)):
                page.add(Line(tick + x1, y - 3 + y1, tick + x2, y - 3 + y2, 0.5))
        for label in block:
            page.add(label)
            self.y = label.y + after
        self.fresh = False


def _title_pages(title: str, sections: list[Section], sheet: Paper, held: dict[str, list[int]], pieces: dict[str, int],
                 first: dict[str, int], unpacked: int, back_offset: tuple[float, float], layout_name: str = "",
                 measure: labels.Measure = labels.DEFAULT, one_sided: bool = False, bleed: float = 0.0,
                 registration: bool = False, layouts: dict[str, SheetLayout] | None = None) -> list[Page]:
    """The title page (title, how to print, the ruler, the checklist of components), and
    as many further pages as what does not fit on it needs; `one_sided`: a layout for a
    one-sided printer, told how to print the double-sided pages all the same; `bleed` and
    `registration` (cut-file marks): the build's, which the other layouts are described for,
    as the project's `layouts` (pnp.yaml) define them."""
    m = max(sheet.margin, TITLE_MARGIN)
    # a title too long for a line is shrunk, never wrapped by the engine over the text below it
    heading = measure.line(title, m, m + 10, sheet.width - 2 * m, 20, 10)
    flow = _TitleFlow(title, sheet, [Page([Bookmark("How to print"), heading])], m + 22, measure=measure)
    total = sum(s.sheets for s in sections if s.name != CALIBRATION)
    duplex = [f"{first[s.name]}-{first[s.name] + len(s.pages) - 1}" for s in sections if s.duplex]
    lines = [
        f"Print at 100% (\"actual size\"), never \"fit to page\"; paper: {sheet.name} ({sheet.width:g} x {sheet.height:g} mm).",
        f"Measure the ruler below: it must be {RULER:g} mm long, else the printer is scaling.",
        (f"Double-sided, flip on the long edge: pages {', '.join(duplex)}. All other pages: one side."
         if duplex else "Every page prints on one side."),
        f"{counted(total, 'sheet')} in all ({unpacked} if every component had its own sheets; small pieces are packed together).",
    ]
    if layout_name:
        lines.append(_offered(layout_name, sheet, bleed, registration, layouts))
    if any("fold" in s.sides for s in sections):
        lines.append("Pages with a dashed line down the middle: fold on it, printed side out, glue the halves, then cut.")
    if duplex and one_sided:  # pieces too big for half a folded sheet have their backs on the next page
        lines.append("One-sided printer: print each front of the double-sided pages alone, then feed the sheet back in, turned "
                     "over on its long edge, to print the next page (its back) on the other side.")
    if duplex:
        lines.append(f"Before the double-sided pages, print pages {duplex[-1]} (duplex calibration) and correct the back offset if needed.")
    if back_offset != (0.0, 0.0):
        lines.append(f"Backs are shifted by {back_offset[0]:g} mm across and {back_offset[1]:g} mm down for this printer.")
    for text in lines:
        flow.text(text, m, sheet.width - 2 * m, 9, 6)
    flow.y += 4
    if not flow.fits(flow.y + 7.5 + labels.DESCENT * 6 * labels.PT):  # the ruler, its numbers under it
        flow.turn()
    _ruler(flow.pages[-1], m, flow.y, measure)
    flow.y += 18
    entries = []
    for name, numbers in held.items():
        count = pieces[name]
        entries.append(f"{name}: {counted(count, 'piece')} on {counted(len(numbers), 'sheet')} "
                       f"({'page' if len(numbers) == 1 else 'pages'} {_ranges(numbers)})")
    room = sheet.width - 2 * m - 5
    first_lines = len(measure.wrap(entries[0], room, 9)) if entries else 1
    # the heading and the whole first entry under it (the heading is never left alone at the foot of a page)
    if not flow.fits(flow.y + 8 + (first_lines - 1) * labels.step(9) + labels.DESCENT * 9 * labels.PT):
        flow.turn()
    flow.pages[-1].add(Label("Checklist", m, flow.y, 12))
    flow.heading, flow.fresh = "Checklist", True
    flow.y += 8
    for text in entries:
        flow.text(text, m + 5, room, 9, 5.5, tick=m)
    return flow.pages


def _ranges(numbers: list[int]) -> str:
    """[2, 3, 4, 7] -> "2-4, 7"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _ruler(page: Page, x: float, y: float, measure: labels.Measure) -> None:
    """A 50 mm ruler with a tick every millimetre (longer every 5 and 10)."""
    page.add(Line(x, y, x + RULER, y, 0.5))
    for mm in range(int(RULER) + 1):
        tick = 4 if mm % 10 == 0 else 2.5 if mm % 5 == 0 else 1.5
        page.add(Line(x + mm, y, x + mm, y + tick, 0.3))
        if mm % 10 == 0:
            page.add(measure.centred(str(mm), x + mm, y + 7.5, 6))
    page.add(Label(f"{RULER:g} mm", x + RULER + 3, y + 3, 8))
