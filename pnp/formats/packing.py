"""Pack groups of pieces of different sizes onto sheets: a first-fit shelf packer of blocks.

Each group (what is left of one component) is laid as a block: a grid of its pieces, their
own gap apart, as on the component's own sheet (with shared cuts: trim size, abutting, the
group's `pad`, their bleed, around the block). Groups go largest piece first into
horizontal shelves (rows of blocks, `gap` apart), so a sheet still cuts into strips and
then pieces. A group goes as one block onto the first started sheet with room for that
(a shelf's free end, or a new shelf), else whole onto the first sheet with room for all
of it (in blocks at its shelves' ends and on new shelves); when no sheet has, it is
spread over the free space of the sheets already started if that holds it all; only
then is a sheet started, and the group put on it whole. So a group that fits one sheet
stays on one sheet, in one block where a started sheet has room for one, no sheet is
started for pieces the free space could hold, and the sheets never outnumber the groups
(each group fitting an empty sheet). `fill` adds groups to sheets already packed, only
where they have room (also in the hole a block's short last row leaves). The result
depends only on the input order, so builds stay byte-identical.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

EPS = 1e-9


@dataclass(frozen=True)
class Group:
    """`count` pieces of one size to place: `w` x `h` mm each (with bleed), `gap` mm apart
    among themselves; `turnable` when they may be turned 90°; `pad` mm kept around their
    block (shared cuts: trim-size pieces abutting, their bleed only around the block)."""

    key: object
    count: int
    w: float
    h: float
    gap: float = 0.0
    turnable: bool = True
    pad: float = 0.0


@dataclass(frozen=True)
class Spot:
    key: object  # the group's
    index: int  # which of the group's pieces
    x: float  # top-left within the packing area, mm
    y: float
    w: float  # as placed (turned when `turned`)
    h: float
    turned: bool


@dataclass(frozen=True)
class Block:
    """Pieces `first`..`first + count - 1` of a group, row by row in a grid of `cols`
    columns at (x, y) of the packing area; each cell `w` x `h` as placed, `gap` apart, the
    grid `pad` mm inside the block's edges."""

    key: object
    first: int
    count: int
    cols: int
    x: float
    y: float
    w: float
    h: float
    gap: float
    turned: bool
    pad: float = 0.0

    @property
    def rows(self) -> int:
        return math.ceil(self.count / self.cols)

    @property
    def width(self) -> float:
        return self.cols * self.w + (self.cols - 1) * self.gap + 2 * self.pad

    @property
    def height(self) -> float:
        return self.rows * self.h + (self.rows - 1) * self.gap + 2 * self.pad

    @property
    def spots(self) -> list[Spot]:
        out = []
        for i in range(self.count):
            row, col = divmod(i, self.cols)
            out.append(Spot(self.key, self.first + i, self.x + self.pad + col * (self.w + self.gap),
                            self.y + self.pad + row * (self.h + self.gap),
                            self.w, self.h, self.turned))
        return out


@dataclass
class _Shelf:
    y: float
    h: float
    used: float = 0.0
    end: float | None = None  # where its room ends on the right (None: the area's edge); a block's hole has one


@dataclass
class _Sheet:
    shelves: list[_Shelf] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    @property
    def bottom(self) -> float:
        return max((s.y + s.h for s in self.shelves), default=0.0)


def pack(groups: list[Group], width: float, height: float, gap: float) -> list[list[Block]]:
    """Sheets of blocks for `groups` in an area `width` x `height`, blocks `gap` apart; a
    piece larger than the area raises ValueError (impose those separately)."""
    sheets: list[_Sheet] = []
    for group in sorted(groups, key=lambda g: (-max(g.w, g.h), -min(g.w, g.h))):  # stable: equal sizes keep their order
        shapes = _shapes(group, width, height)
        if not shapes:
            raise ValueError(f"{group.key}: {group.w} x {group.h} mm does not fit {width} x {height} mm")
        placed = _place(sheets, group, shapes, width, height, gap)
        assert placed is not None  # a new sheet holds it
        sheets = placed
    return [s.blocks for s in sheets]


def fill(sheets: list[list[Block]], groups: list[Group], width: float, height: float, gap: float) -> tuple[list[list[Block]], list[Group]]:
    """`sheets` (as `pack` gives them) with each of `groups` added whole where their free
    space holds it, tried as `pack` tries a started sheet, in `pack`'s order; never a sheet
    more. Returns the sheets and the groups left out, in their order."""
    started = [_started(blocks, gap) for blocks in sheets]
    out: list[Group] = []
    for group in sorted(groups, key=lambda g: (-max(g.w, g.h), -min(g.w, g.h))):
        placed = _place(started, group, _shapes(group, width, height), width, height, gap, new=False)
        if placed is None:
            out.append(group)
        else:
            started = placed
    return [s.blocks for s in started], [g for g in groups if g in out]


def _started(blocks: list[Block], gap: float) -> _Sheet:
    """The shelves of a sheet `pack` laid: a block at the left starts one (as tall as it
    is); those beside it, at its height, fill its free end. And the hole a block's short
    last row leaves (5 cards in 3 columns: one card's room), `gap` from its pieces, as a
    shelf of its own."""
    sheet = _Sheet(blocks=list(blocks))
    holes = []
    for block in sorted(blocks, key=lambda b: (b.y, b.x)):
        if block.x <= EPS:
            sheet.shelves.append(_Shelf(block.y, block.height, block.width))
        else:
            shelf = next(s for s in sheet.shelves if abs(s.y - block.y) <= EPS)
            shelf.used = max(shelf.used, block.x + block.width)
        short = block.count - (block.rows - 1) * block.cols  # pieces in the last row
        if block.rows > 1 and short < block.cols:  # its pad: the bleed of the pieces beside the hole (shared cuts)
            top = block.y + 2 * block.pad + (block.rows - 1) * (block.h + block.gap) - block.gap + gap
            used = block.x + 2 * block.pad + short * block.w + (short - 1) * block.gap
            holes.append(_Shelf(top, block.y + block.height - top, used, block.x + block.width))
    sheet.shelves += holes  # after the shelves: a block goes at a shelf's end first, as `pack` would put it
    return sheet


def _shapes(group: Group, width: float, height: float) -> list[tuple[float, float, bool]]:
    """The ways a piece of `group` fits the area: lying down first, which keeps shelves low."""
    ways = [(group.w, group.h, False)]
    if group.turnable and group.w != group.h:
        ways.append((group.h, group.w, True))
        ways.sort(key=lambda s: s[1] > s[0])
    return [s for s in ways if s[0] + 2 * group.pad <= width + EPS and s[1] + 2 * group.pad <= height + EPS]


def _place(sheets: list[_Sheet], group: Group, shapes: list[tuple[float, float, bool]], width: float, height: float,
           gap: float, new: bool = True) -> list[_Sheet] | None:
    """The sheets with `group` added (see the module's docstring for the order of tries);
    unless `new`, None where that would start a sheet."""
    for n, sheet in enumerate(sheets):  # one block, on a started sheet: the fewest cuts
        for shape in shapes:
            trial = copy.deepcopy(sheet)
            if _one_block(trial, group, shape, width, height, gap):
                return sheets[:n] + [trial] + sheets[n + 1:]
    for n, sheet in enumerate(sheets):  # whole, on one started sheet
        for shape in shapes:
            trial = copy.deepcopy(sheet)
            if _fill(trial, group, 0, group.count, shape, width, height, gap) == group.count:
                return sheets[:n] + [trial] + sheets[n + 1:]
    spread, done = copy.deepcopy(sheets), 0  # over the free space of the started sheets
    for sheet in spread:
        for shape in shapes:
            done += _fill(sheet, group, done, group.count - done, shape, width, height, gap)
    if done == group.count:
        return spread
    if not new:
        return None
    for shape in shapes:  # whole, on a new sheet
        trial = _Sheet()
        if _fill(trial, group, 0, group.count, shape, width, height, gap) == group.count:
            return sheets + [trial]
    out, done = list(sheets), 0  # more than a sheet's worth: as many new sheets as it takes
    while done < group.count:
        out.append(_Sheet())
        done += _fill(out[-1], group, done, group.count - done, shapes[0], width, height, gap)
    return out


def _fill(sheet: _Sheet, group: Group, first: int, count: int, shape: tuple[float, float, bool], width: float,
          height: float, gap: float) -> int:
    """Put up to `count` pieces of `group` (from piece `first`) on `sheet`: into the free
    ends of its shelves, then into new shelves. Returns how many went on."""
    w, h, turned = shape
    g, pad = group.gap, 2 * group.pad  # the pad on both sides of the block
    placed = 0
    for shelf in sheet.shelves:
        if placed == count:
            return placed
        x = shelf.used + gap
        cols = int(((width if shelf.end is None else shelf.end) - x - pad + g + EPS) // (w + g))
        rows = int((shelf.h - pad + g + EPS) // (h + g))
        if cols < 1 or rows < 1:
            continue
        block = _block(group, first + placed, min(count - placed, cols * rows), cols, x, shelf.y, shape)
        sheet.blocks.append(block)
        shelf.used = x + block.width
        placed += block.count
    while placed < count:
        y = sheet.bottom + (gap if sheet.shelves else 0.0)
        cols = int((width - pad + g + EPS) // (w + g))
        rows = int((height - y - pad + g + EPS) // (h + g))
        if cols < 1 or rows < 1:
            break
        block = _block(group, first + placed, min(count - placed, cols * rows), cols, 0.0, y, shape)
        sheet.blocks.append(block)
        sheet.shelves.append(_Shelf(y, block.height, block.width))
        placed += block.count
    return placed


def _one_block(sheet: _Sheet, group: Group, shape: tuple[float, float, bool], width: float, height: float, gap: float) -> bool:
    """Put all of `group` on `sheet` as one block, at the free end of a shelf or on a new
    shelf below the others; False (the sheet as it was) when neither holds it."""
    w, h, g, pad = shape[0], shape[1], group.gap, 2 * group.pad
    ends = [(shelf.used + gap, shelf.y, shelf.h, shelf) for shelf in sheet.shelves]
    below = sheet.bottom + (gap if sheet.shelves else 0.0)
    for x, y, room, shelf in ends + [(0.0, below, height - below, None)]:
        cols = int(((width if shelf is None or shelf.end is None else shelf.end) - x - pad + g + EPS) // (w + g))
        rows = int((room - pad + g + EPS) // (h + g))
        if cols >= 1 and rows >= 1 and cols * rows >= group.count:
            block = _block(group, 0, group.count, cols, x, y, shape)
            sheet.blocks.append(block)
            if shelf is None:
                sheet.shelves.append(_Shelf(y, block.height, block.width))
            else:
                shelf.used = x + block.width
            return True
    return False


def _block(group: Group, first: int, count: int, cols: int, x: float, y: float, shape: tuple[float, float, bool]) -> Block:
    """`count` pieces in as few rows as `cols` columns allow, then as few columns as those rows need."""
    rows = math.ceil(count / cols)
    return Block(group.key, first, count, math.ceil(count / rows), x, y, shape[0], shape[1], group.gap, shape[2], group.pad)
