"""The options of a build, in one place: the command line's, pnp.yaml's and the defaults.

- `BuildOptions`: what every command that makes or plans pieces runs with (formats, paper,
  bleed, layout, dpi, ...); `FORMAT_NAMES` the formats `pnp build` knows.
- Papers and sheet layouts as data: the built-in ones live in pnp/data/presets.yaml
  (`papers:`, `layouts:`); a project adds or overrides them in its pnp.yaml. `papers(extra)`
  and `sheet_layout(name, extra)` are the one lookup every command uses.
- `Settings`: pnp.yaml in the project folder, read by every command. It holds what a user
  would otherwise type on every command (paper, bleed, formats, sheet layout, dpi, back
  offset, packing) and the project's own papers and sheet layouts. A command-line option
  overrides the file; an unknown key or a bad value is an error naming the file and line.

It sits just above pnp/load (it reads pnp.yaml with load's YAML reader and checks it with
load's models) and below everything that takes options (plan, render, formats, build,
score, tools, cli): see tests/test_layers.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from .errors import ContentError, OptionError, PnpError, did_you_mean
from .load import project_files
from .load.content import GameContent
from .load.manifest import Length, presets
from .load.options import resolve_all
from .load.validation import Colour, Slug, StrictModel, validate
from .load.yamlio import load_located

FILE = project_files.CONFIG
# the formats `pnp build` writes (pnp/build/driver.py's FORMATS makes each)
FORMAT_NAMES = ("svg", "pdf", "png", "tts", "pdf-single")
DPI_RANGE = (10, 1200)  # of png and tts images: below, unreadable; above, files of hundreds of MB
# a PDF page is 3 to 14400 pt a side (PDF 1.7, annex C.2): the papers pnp can print on
PAPER_RANGE = (3 * 25.4 / 72, 14400 * 25.4 / 72)  # mm: about 1.06 to 5080


@dataclass(frozen=True)
class BuildOptions:
    formats: tuple[str, ...] = ("svg", "pdf")
    paper: str = "letter"
    bleed: float = 3.0
    out: Path | None = None  # defaults to <project>/output
    players: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # game options, e.g. {"rules": "0.2.8"}
    dpi: int = 300  # for raster formats (png, tts)
    force: bool = False  # ignore the build cache: render and produce everything again
    layout: str = "tight"  # sheet layout of the per-game print PDF (`table` below): 9 poker cards a Letter or A4 sheet (4 with cut-file marks)
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm the print PDF shifts backs (across, down)
    pack: bool = True  # pack the pieces no component sheet is full of onto shared sheets
    cut_file: bool = False  # print-then-cut: registration marks in the print PDF and an SVG cut file per sheet
    papers: dict[str, Any] = field(default_factory=dict)  # a project's own papers (pnp.yaml), name -> PaperSize
    layouts: dict[str, Any] = field(default_factory=dict)  # a project's own sheet layouts (pnp.yaml)

    def game_options(self, games: list[GameContent]) -> dict[str, dict[str, Any]]:
        """What each game's templates and `items:` expressions see as `options`: its declared
        options checked and typed (defaults filled in) and the paper; raises PnpError on a
        bad value or a `--set` key no game declares."""
        return {name: {"paper": self.paper, **values} for name, values in resolve_all(games, self.players, self.extra).items()}


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
    # laser printers leave about 4.2 mm at each edge unprinted, inkjets about 3 mm: 4.2 mm suits both
    inset: Length = Field(4.2, description="space at each paper edge a desktop printer may leave unprinted; sheet labels, "
                          "instructions and at least part of every crop mark stay inside it")


class PaperSize(StrictModel):
    width: Length
    height: Length

    @model_validator(mode="after")
    def _printable(self) -> "PaperSize":
        low, high = PAPER_RANGE
        if not (low <= self.width <= high and low <= self.height <= high):
            raise ValueError(f"a paper is {low:.2f} to {high:.0f} mm a side (what a PDF page can be), got {self.width:g} x {self.height:g} mm")
        return self


# the most a back may be shifted, each way: the calibration sheet reads up to 5 mm, and a
# printer further off than this was fed the sheet the wrong way, which no shift mends
BACK_OFFSET_MAX = 10.0


def back_offset_problem(offset: tuple[float, float]) -> str | None:
    """Why a back offset (across, down) is refused, or None."""
    if any(not math.isfinite(v) or abs(v) > BACK_OFFSET_MAX for v in offset):
        return (f"back offset {offset[0]:g},{offset[1]:g}: expected each within {BACK_OFFSET_MAX:g} mm either way "
                "(the duplex calibration sheet reads up to 5 mm; further off, the sheet was fed the wrong way)")
    return None


def _pair(value: Any) -> Any:
    """`back_offset` as two numbers, or one message saying so (not pydantic's about tuples)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"expected [across, down] in mm, e.g. [0.5, -1], got {value!r}")
    return value


def table(extra: dict[str, SheetLayout] | None = None) -> dict[str, SheetLayout]:
    """The built-in layouts, then a project's own (which may replace a built-in one)."""
    built_in = {name: SheetLayout.model_validate(value) for name, value in presets()["layouts"].items()}
    return {**built_in, **(extra or {})}


def sheet_layout(name: str, extra: dict[str, SheetLayout] | None = None) -> SheetLayout:
    layouts = table(extra)
    if name not in layouts:
        raise OptionError(unknown("layout", name, layouts))
    return layouts[name]


def unknown(kind: str, name: str, known: dict[str, Any]) -> str:
    """`unknown paper 'a5': ...`: the names known, and where a project adds its own (an A5
    paper, a wider layout), which the built-in list alone does not say; the one meant if near."""
    return (f"unknown {kind} {name!r}: expected one of {', '.join(known)}, or one of your own under "
            f"`{kind}s:` in pnp.yaml{did_you_mean(name, list(known))}")


def papers(extra: dict[str, PaperSize] | None = None) -> dict[str, tuple[float, float]]:
    """Paper name -> (width, height) in mm, portrait: the built-in papers and a project's own."""
    found = {name: (size["width"], size["height"]) for name, size in presets()["papers"].items()}
    found.update({name: (size.width, size.height) for name, size in (extra or {}).items()})
    return found


class Settings(StrictModel):
    """The keys of pnp.yaml; each is optional (unset: the command's own default)."""

    paper: str | None = Field(default=None, description="paper name: letter, legal, a4, a3, tabloid or one under `papers`")
    bleed: Length | None = Field(default=None, description="bleed around every piece")
    formats: list[str] | None = Field(default=None, description="formats `pnp build` writes, e.g. [svg, pdf]")
    layout: str | None = Field(default=None, description="sheet layout of the print PDF: tight (the default), standard, fold, scissors or one under `layouts`")
    dpi: int | None = Field(default=None, description="resolution of png and tts images")
    back_offset: Annotated[tuple[float, float], BeforeValidator(_pair)] | None = Field(default=None, description="[across, down] mm to shift backs in the print PDF")
    pack: bool | None = Field(default=None, description="pack what is left of every component onto shared sheets (default true)")
    cut_file: bool | None = Field(default=None, description="print-then-cut: registration marks and an SVG cut file per sheet (default false)")
    papers: dict[Slug, PaperSize] = Field(default_factory=dict, description="the project's own paper sizes")
    layouts: dict[Slug, SheetLayout] = Field(default_factory=dict, description="the project's own sheet layouts")


def load_settings(root: Path) -> Settings:
    """The settings in `root`/pnp.yaml (all unset when there is no such file)."""
    path = root / FILE
    if not path.is_file():
        return Settings()
    doc = load_located(project_files.inside(root, path, None, "settings file"))
    if doc.data is None:
        return Settings()
    settings, errors = validate(doc, Settings)
    if settings is not None:
        if settings.paper is not None:  # paper names are lower-case: `paper: A4` is a4
            settings = settings.model_copy(update={"paper": settings.paper.strip().lower()})
        if settings.paper is not None and settings.paper not in papers(settings.papers):
            errors.append(doc.value_error(("paper",), unknown("paper", settings.paper, papers(settings.papers))))
        if settings.formats == []:
            errors.append(doc.value_error(("formats",), f"no format: expected some of {', '.join(FORMAT_NAMES)}"))
        if settings.dpi is not None and not DPI_RANGE[0] <= settings.dpi <= DPI_RANGE[1]:
            errors.append(doc.value_error(("dpi",), f"dpi must be between {DPI_RANGE[0]} and {DPI_RANGE[1]}, got {settings.dpi}"))
        for i, name in enumerate(settings.formats or []):
            if name not in FORMAT_NAMES:
                errors.append(doc.error(("formats", i), f"unknown format {name!r}: expected some of {', '.join(FORMAT_NAMES)}"))
        if settings.back_offset is not None and (problem := back_offset_problem(settings.back_offset)):
            errors.append(doc.value_error(("back_offset",), problem))
        if settings.layout is not None and settings.layout not in table(settings.layouts):
            errors.append(doc.value_error(("layout",), unknown("layout", settings.layout, table(settings.layouts))))
    if errors:
        raise PnpError(errors)
    assert settings is not None
    return settings


def blame(root: Path, message: str, *choices: tuple[tuple[str, ...], Any]) -> ContentError | str:
    """`message` at the first key of `choices` (key path, the value in use) that pnp.yaml in
    `root` holds with that value: where the user chose what the message is about (at a plain
    value, `layout: fold` at fold; a mapping, a paper's, at its key); `message` alone when
    none of it came from there."""
    path = root / FILE
    if not path.is_file():
        return message
    doc = load_located(project_files.inside(root, path, None, "settings file"))
    for at, value in choices:
        found = doc.data
        for key in at:
            found = found.get(key) if isinstance(found, dict) else None
        if found is not None and (value is None or str(found).strip().lower() == value) and at in doc.marks:
            return (doc.error if isinstance(found, (dict, list)) else doc.value_error)(at, message)
    return message


def merged(settings: Settings, given: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Each key: the command line's value when given (not None), else pnp.yaml's, else the default."""
    out = {}
    for key, default in defaults.items():
        value = given.get(key)
        if value is None:
            value = getattr(settings, key, None)
        out[key] = default if value is None else value
    return out
