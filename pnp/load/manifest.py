"""The schema of `content/<game>/game.yaml`: what a game is made of and how each
component is sized, filled from the content and drawn."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

import yaml
from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from ..limits import PIECES
from .spec import DataSpec, GenerateSpec, IconSetSpec, NeedSpec, OptionSpec
from ..units import MM_TO_PT, to_mm
from .validation import SLUG, Expression, StrictModel
from .yamlio import Located
from ..errors import ContentError, did_you_mean

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")  # a name templates can use: options.<name>, a generated list


@lru_cache(maxsize=1)
def presets() -> dict[str, dict[str, dict[str, float]]]:
    """Built-in card sizes and papers (pnp/data/presets.yaml)."""
    text = resources.files("pnp").joinpath("data/presets.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml where PyYAML has it: 5 ms less a start


# a number of mm or a text with a unit ("2mm", "0.75in"); the JSON Schema says so for editors
Length = Annotated[float, BeforeValidator(to_mm, json_schema_input_type=float | str)]


MAX_ID = 100  # component ids name files (`<id>-back.png`); item ids: PNP_BUILD_LIMITS `id`, the same default


class Size(StrictModel):
    """A physical size in mm."""

    width: Length
    height: Length

    @model_validator(mode="after")
    def _positive(self) -> "Size":
        if not (math.isfinite(self.width) and math.isfinite(self.height)):
            raise ValueError("width and height must be numbers of mm")
        if self.width <= 0 or self.height <= 0:
            raise ValueError("width and height must be greater than 0")
        limit = PIECES["mm"]
        if self.width > limit or self.height > limit:
            raise ValueError(f"{self.width:g} x {self.height:g} mm: a side longer than {limit:,} mm, {PIECES.hint('mm')}")
        return self


def _size(value: Any) -> Any:
    """Accept a preset name, `63mm x 88mm` (or `2.5 x 3.5 in`), or a mapping."""
    if isinstance(value, str):
        table = presets()["sizes"]
        if value in table:
            return table[value]
        parts = re.split(r"\s*[x×]\s*", value.strip())
        # a word with an x in it (`hex`, `box`) is a preset misspelt, not the sides 'he' and ''
        if len(parts) == 2 and not re.fullmatch(r"[A-Za-z-]+", value.strip()):
            # "2.5 x 3.5 in" means inches both ways, as people write it: a side without a
            # unit takes the other's (read alone, the bare 2.5 would be 2.5 mm)
            units = [m.group() if (m := re.search(r"(mm|cm|in|pt)$", part)) else "" for part in parts]
            if bool(units[0]) != bool(units[1]):  # only to a bare number: `3.5 IN` or nothing is told as written
                parts = [part + (units[0] or units[1]) if not unit and part.isascii() and part.replace(".", "", 1).isdigit() else part
                         for part, unit in zip(parts, units)]
            return {"width": parts[0], "height": parts[1]}
        raise ValueError(
            f"unknown size {value!r}: expected a preset ({', '.join(table)}), "
            "'WIDTH x HEIGHT' such as '63mm x 88mm', or {width, height}" + did_you_mean(value.strip().lower(), list(table))
        )
    return value


class Component(StrictModel):
    """One kind of physical piece: a deck of cards, a set of tiles, a board."""

    id: str = Field(description="slug used for output folders and file names")
    name: str = Field(description="human name shown in listings")
    size: Annotated[Size, BeforeValidator(_size, json_schema_input_type=Size | str)]
    items: Expression | list[dict[str, Any]] = Field(
        description="a Jinja expression over the content (e.g. 'adventurers.cards') giving a "
        "list of records, each with an `id`; or a literal list of records"
    )
    front: str = Field(description="template file under templates/<game>/ for the front face")
    back: str | None = Field(None, description="template for the back face, if any")
    back_per_item: bool = Field(False, description="render one back per item instead of one shared back")
    copies: int | Expression = Field(1, description="copies of each item: a number or a Jinja expression using `item`")
    shape: Literal["rectangle", "round"] = Field(
        "rectangle", description="round: the piece is cut along the circle filling its size (Tabletop Simulator makes it a "
        "round token or tile, its image transparent outside the circle)"
    )
    rotate: Literal["auto", "never"] = Field("auto", description="turn pieces 90° on the sheet when more fit")
    gap: Length = Field(0.0, description="space between neighbouring pieces on a sheet, outside the bleed")
    bleed: Length | None = Field(None, description="bleed for this component, overriding --bleed (e.g. 0 for a paper sheet)")

    @field_validator("id")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not SLUG.match(v):
            raise ValueError(f"id must be lower-case letters, digits and '-', got {v!r}")
        if len(v) > MAX_ID:
            raise ValueError(f"id of {len(v)} characters: expected at most {MAX_ID} (it names the component's files)")
        return v

    @field_validator("copies")
    @classmethod
    def _copies(cls, v: int | str) -> int | str:
        if isinstance(v, int) and v < 0:
            raise ValueError("copies cannot be negative")
        return v

    @field_validator("shape")
    @classmethod
    def _round_is_square(cls, v: str, info: ValidationInfo) -> str:
        size = info.data.get("size")  # validated before `shape`; absent when it was wrong
        if v == "round" and size is not None and size.width != size.height:
            raise ValueError(f"round needs a square size (its circle's diameter), got {size.width:g} x {size.height:g} mm")
        return v


class RulebookPiece(StrictModel):
    """One line of the rule book's component list and the built pieces that provide it."""

    name: str = Field(description="the piece as the rule book names it")
    count: int = Field(ge=0, description="how many the rule book lists")
    rule: str = Field(description="rule file and line the count comes from")
    component: str | None = Field(None, description="id of the component that prints it; none when it is not printed (say why in `note`)")
    ids: str = Field("*", description="fnmatch pattern over that component's item ids")
    options: dict[str, Any] = Field(default_factory=dict, description="build options the count holds for (e.g. players: 6)")
    note: str = ""


class Manifest(StrictModel):
    """A game: its title, optional Python plugin, components and the rule book's contents."""

    title: str
    description: str = ""
    plugin: str | None = Field(None, description="game Python: a project file (plugins/<game>.py), or an entry point in group pnp.games")
    options: dict[str, OptionSpec] = Field(default_factory=dict, description="game options: `players` (--players) and any --set KEY=VALUE, with type, choices, min, max, default")
    data: dict[str, DataSpec] = Field(default_factory=dict, description="data file stem -> schema of its records (YAML, CSV or XLSX), or its variants")
    generate: dict[str, GenerateSpec] = Field(default_factory=dict, description="name -> a list of records made from the product of lists")
    icons: dict[str, IconSetSpec] = Field(default_factory=dict, description="icon set name -> a folder of SVG files or a YAML file of paths, placed with icon()")
    needs: list[NeedSpec] = Field(default_factory=list, description="every id of a content list must have something (a scorer, an icon, a colour)")
    fonts: list[str] = Field(
        default_factory=list,
        description="font files (.ttf/.otf) the faces draw text with, relative to the game's content folder or the "
        "project's assets/ folder; the first file's family is the default. Empty: pnp's Liberation Sans",
    )
    min_font_size: Length = Field(
        6 / MM_TO_PT, description="the smallest size text may shrink to when fitting (e.g. 6pt, 2mm; default 6pt); smaller is an error"
    )
    components: list[Component]
    contents: list[RulebookPiece] = Field(default_factory=list, description="the rule book's component list, checked against the build")

    @field_validator("options", "generate")
    @classmethod
    def _names(cls, v: dict[str, Any]) -> dict[str, Any]:
        for name in v:
            if not NAME.match(name):
                raise ValueError(f"{name!r} is not a name templates can use: expected letters, digits and '_', not starting with a digit")
        return v


def cross_check(manifest: Manifest, doc: Located) -> list[ContentError]:
    """Each component id once; each `contents` line names a component, or says why it is not
    printed: located at the line at fault (a model validator could only name game.yaml's top)."""
    errors: list[ContentError] = []
    seen: set[str] = set()
    for i, c in enumerate(manifest.components):
        if c.id in seen:
            errors.append(doc.error(("components", i, "id"), f"component id {c.id!r} appears twice: expected unique ids"))
        seen.add(c.id)
    for i, piece in enumerate(manifest.contents):
        if piece.component is None and not piece.note:
            errors.append(doc.error(("contents", i), f"contents {piece.name!r}: not printed, so expected a note saying why"))
        if piece.component is not None and piece.component not in seen:
            errors.append(doc.error(("contents", i, "component"), f"contents {piece.name!r}: component {piece.component!r}: expected one of {', '.join(sorted(seen))}"))
    return errors
