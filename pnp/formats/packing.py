"""Pack rectangles of different sizes onto sheets: a first-fit shelf packer.

Pieces go largest-first into horizontal shelves (rows); a piece goes into the first shelf,
on any open sheet, with room for it, else opens a shelf, else a sheet. Shelves suit
guillotine cutting (cut the strips apart, then each strip) and the result depends only on
the input order, so builds stay byte-identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Box:
    """Something to place: its key, its size (mm) and whether it may be turned 90°."""

    key: object
    w: float
    h: float
    turnable: bool = True


@dataclass(frozen=True)
class Spot:
    key: object
    x: float  # top-left within the packing area, mm
    y: float
    w: float  # as placed (turned when `turned`)
    h: float
    turned: bool


@dataclass
class _Shelf:
    y: float
    h: float
    used: float = 0.0


@dataclass
class _Sheet:
    shelves: list[_Shelf] = field(default_factory=list)
    spots: list[Spot] = field(default_factory=list)

    @property
    def bottom(self) -> float:
        return self.shelves[-1].y + self.shelves[-1].h if self.shelves else 0.0


def pack(boxes: list[Box], width: float, height: float, gap: float) -> list[list[Spot]]:
    """Sheets of spots for `boxes` in an area `width` x `height`, `gap` apart; a box larger
    than the area raises ValueError (impose those separately)."""
    sheets: list[_Sheet] = []
    for box in sorted(boxes, key=lambda b: (-max(b.w, b.h), -min(b.w, b.h))):  # stable: equal sizes keep their order
        w, h, turned = box.w, box.h, False
        if box.turnable and h > w and h <= width:  # lying down keeps shelves low
            w, h, turned = h, w, True
        if w > width + 1e-9 or h > height + 1e-9:
            if box.turnable and h <= width + 1e-9 and w <= height + 1e-9:
                w, h, turned = h, w, not turned
            else:
                raise ValueError(f"{box.key}: {box.w} x {box.h} mm does not fit {width} x {height} mm")
        _place(sheets, box.key, w, h, turned, width, height, gap)
    return [s.spots for s in sheets]


def _place(sheets: list[_Sheet], key: object, w: float, h: float, turned: bool, width: float, height: float, gap: float) -> None:
    for sheet in sheets:
        for shelf in sheet.shelves:
            x = shelf.used + (gap if shelf.used else 0.0)
            if h <= shelf.h + 1e-9 and x + w <= width + 1e-9:
                sheet.spots.append(Spot(key, x, shelf.y, w, h, turned))
                shelf.used = x + w
                return
        y = sheet.bottom + (gap if sheet.shelves else 0.0)
        if y + h <= height + 1e-9:
            sheet.shelves.append(_Shelf(y, h, w))
            sheet.spots.append(Spot(key, 0.0, y, w, h, turned))
            return
    sheets.append(_Sheet([_Shelf(0.0, h, w)], [Spot(key, 0.0, 0.0, w, h, turned)]))
