"""Whether a sheet's printable area (the paper less its margins) leaves room for a game's
pieces. A piece bigger than the paper is split over overlapping pages (impose's
`_oversize_pages`); but a margin or a paper that leaves room for none of the pieces that
would fit the paper, or too little to lay even a split piece, is a mistake in the options:
said once, rather than a print PDF of every piece in strips, or of none at all."""

from __future__ import annotations

from typing import Callable

from ..config import SheetLayout
from ..render.faces import RenderedComponent
from ..units import num
from .impose import TILE_OVERLAP, Grid, Paper, plan_grid
from .print_pdf import laid_grid

# the grid a component's pieces take on the paper with margins of so many mm (None: none fits whole)
Fit = Callable[[RenderedComponent, float], "Grid | None"]


def no_room(rendered: list[RenderedComponent], sheet: Paper, fit: Fit, chosen: bool = True) -> str | None:
    """Why `sheet` (its margin included) holds none of the pieces, or None when it serves;
    `fit` lays a component on the paper. `chosen`: the margin is the user's (a layout's), so
    one that leaves room for no piece that would fit the paper is refused too; pnp's own
    margin is refused only when it leaves too little to lay a split piece."""
    printed = [comp for comp in rendered if any(p.copies for p in comp.pieces)]
    misfits = [comp for comp in printed if fit(comp, sheet.margin) is None]
    if not misfits:
        return None
    room_w, room_h = sheet.width - 2 * sheet.margin, sheet.height - 2 * sheet.margin
    splittable = room_w > TILE_OVERLAP and room_h > TILE_OVERLAP  # a split piece's pages overlap by TILE_OVERLAP
    if splittable and (not chosen or len(misfits) < len(printed) or all(fit(comp, 0.0) is None for comp in misfits)):
        return None  # some pieces fit, or those that do not are bigger than the paper: split
    smallest = min(misfits, key=_area)
    room = f"{_mm(room_w)} x {_mm(room_h)} mm" if room_w > 0 and room_h > 0 else "no room"
    return (f"paper {sheet.name} ({_mm(sheet.width)} x {_mm(sheet.height)} mm) less its {_mm(sheet.margin)} mm margins leaves {room} "
            f"to print on: the smallest piece that does not fit, {smallest.spec.id}, is {' x '.join(_mm(v) for v in _size(smallest))} mm "
            f"with its bleed; expected {'a smaller margin or ' if chosen else ''}a bigger paper")


def laid_alone(paper: Paper) -> Fit:
    """How impose.layout lays a component's own PDF on `paper` (its margin aside)."""

    def fit(comp: RenderedComponent, margin: float) -> Grid | None:
        spec = comp.spec
        sheet = Paper(paper.name, paper.width, paper.height, margin)
        return plan_grid(spec.size.width, spec.size.height, comp.bleed, spec.gap, sheet, spec.rotate == "auto")

    return fit


def laid_in_print(paper: Paper, style: SheetLayout) -> Fit:
    """How print_pdf.plan lays a component on `paper` in the layout `style` (its margin
    aside): in a fold layout, the pieces with backs on a half when they fit it."""

    def fit(comp: RenderedComponent, margin: float) -> Grid | None:
        sheet = Paper(paper.name, paper.width, paper.height, margin)
        backs = any(p.back is not None for p in comp.pieces)
        return laid_grid(comp, sheet, style.model_copy(update={"margin": margin}), backs)[0]

    return fit


def _mm(value: float) -> str:
    return num(round(value, 1))


def _size(comp: RenderedComponent) -> tuple[float, float]:
    return comp.spec.size.width + 2 * comp.bleed, comp.spec.size.height + 2 * comp.bleed


def _area(comp: RenderedComponent) -> float:
    width, height = _size(comp)
    return width * height
