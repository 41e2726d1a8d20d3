"""Sheet layouts as data: named tables of margin, gap, crop marks and cut style.

The built-in layouts live in pnp/data/presets.yaml (`layouts:`); a project adds or
overrides layouts and papers in its pnp.yaml (see pnp.load.settings). `sheet_layout(name)`
gives the checked `SheetLayout` the per-game print PDF (pnp.formats.print_pdf) is drawn with.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..errors import PnpError
from .manifest import Length, presets
from .validation import Colour, StrictModel


class SheetLayout(StrictModel):
    """How pieces sit on a printed sheet (all lengths in mm)."""

    margin: Length = Field(5.0, description="clear space at each paper edge")
    gap: Length | None = Field(None, description="space between neighbouring pieces; null: the component's own gap")
    cut: Literal["marks", "shared"] = Field("marks", description="marks: every piece with its bleed and crop marks; "
                                            "shared: neighbours abut at the trim line and share one cut")
    mark_length: Length = Field(4.0, description="crop mark length")
    mark_offset: Length = Field(1.0, description="space between a piece's bleed edge and its crop mark")
    mark_colour: Colour = Field("#000000", description="crop mark colour, #rrggbb")
    pack_gap: Length = Field(6.0, description="space between packed pieces of different sizes (holds their corner marks)")
    fold: bool = Field(False, description="for single-sided printers: fronts on the left half, backs mirrored on the right, "
                       "a fold line between")


class PaperSize(StrictModel):
    width: Length
    height: Length


def table(extra: dict[str, SheetLayout] | None = None) -> dict[str, SheetLayout]:
    """The built-in layouts, then a project's own (which may replace a built-in one)."""
    built_in = {name: SheetLayout.model_validate(value) for name, value in presets()["layouts"].items()}
    return {**built_in, **(extra or {})}


def sheet_layout(name: str, extra: dict[str, SheetLayout] | None = None) -> SheetLayout:
    layouts = table(extra)
    if name not in layouts:
        raise PnpError(f"unknown layout {name!r}: expected one of {', '.join(layouts)}")
    return layouts[name]


def papers(extra: dict[str, PaperSize] | None = None) -> dict[str, tuple[float, float]]:
    """Paper name -> (width, height) in mm, portrait: the built-in papers and a project's own."""
    found = {name: (size["width"], size["height"]) for name, size in presets()["papers"].items()}
    found.update({name: (size.width, size.height) for name, size in (extra or {}).items()})
    return found
