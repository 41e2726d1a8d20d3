"""The generic sections of game.yaml: options, data files, generated lists, icon sets, needs.

Each is optional; a game that declares none behaves as before. The models only describe
the YAML; `pnp.load.*` applies them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from .svgpath import viewbox_problem
from .validation import StrictModel

Scalar = str | int | float | bool


class OptionSpec(StrictModel):
    """One game option: `--players N` is the option `players`, any other is `--set KEY=VALUE`."""

    type: Literal["text", "int", "number", "bool"] = Field("text", description="how the value is read from the command line")
    choices: list[Scalar] | str | None = Field(
        None, description="the allowed values, or a dotted path into the content (e.g. 'rules.versions') whose keys or record ids are the choices")
    min: float | None = Field(None, description="smallest allowed number")
    max: float | None = Field(None, description="largest allowed number")
    default: Scalar | None = Field(None, description="value when the option is not given (none: templates see null)")
    description: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> "OptionSpec":
        if (self.min is not None or self.max is not None) and self.type not in ("int", "number"):
            raise ValueError("min/max need `type: int` or `type: number`")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is greater than max {self.max:g}")
        return self


FieldType = Literal["text", "int", "number", "bool", "id", "colour", "list"]


class FieldSpec(StrictModel):
    """One field of a record in a data file (a YAML list or a spreadsheet row)."""

    type: FieldType = Field("text", description="text, int, number, bool, id (a slug), colour (#rrggbb) or list (of text; in a sheet, ';'-separated)")
    required: bool = Field(True, description="a record without it is an error (unless `default` is given)")
    default: Any = Field(None, description="value of a missing field; implies required: false")
    one_of: list[Scalar] | None = Field(None, description="the allowed values")
    min: float | None = None
    max: float | None = None
    ref: str | None = Field(None, description="the value (each value of a list) is the id of a record of another file, e.g. 'suits' or 'deck.suits'")
    unique: bool = Field(False, description="no two records share the value")
    description: str = ""


def _field(value: Any) -> Any:
    """`name: int` is short for `name: {type: int}`."""
    return {"type": value} if isinstance(value, str) else value


class DataSpec(StrictModel):
    """The schema of one data file `<stem>.yaml`, `<stem>.csv` or `<stem>.xlsx` (or a YAML
    file whose record list comes from a sheet of the same stem)."""

    records: str | None = Field(None, description="key of the YAML mapping that holds the list of records (none: the file is the list); rows of a sheet of the same stem go there")
    sheet: str | None = Field(None, description="worksheet of an .xlsx file (default: the first)")
    id: str | None = Field("id", description="field that names a record: unique, and what `ref` and `needs` look up (null: records have no id)")
    fields: dict[str, Annotated[FieldSpec, BeforeValidator(_field, json_schema_input_type=FieldSpec | FieldType)]] = Field(
        default_factory=dict, description="field name -> type name (`points: int`) or {type, one_of, min, max, ref, unique, required, default}")
    extra_fields: bool = Field(False, description="allow fields that are not declared")
    count: int | dict[Literal["min", "max"], int] | None = Field(None, description="how many records: a number, or {min, max}")
    variants: str | None = Field(None, description="the file maps variant names to content; a variant may `extends` another; this option picks one")


class GenerateSpec(StrictModel):
    """A list of records made from the product of other lists, e.g. every suit x value."""

    product: dict[str, str | list[Any]] = Field(description="name -> a Jinja expression giving a list (or a literal list); one record per combination, in order")
    id: str = Field(description="Jinja template of each record's id, e.g. '{{ suit.id }}-{{ value }}'")
    where: str | None = Field(None, description="Jinja expression: keep a record only when true (may use `options`, e.g. 'value <= options.players + 5')")
    fields: dict[str, str] = Field(default_factory=dict, description="extra field -> Jinja expression over the product names")


def _viewbox(value: Any) -> Any:
    """A set's `viewbox`, refused here unless it is four numbers (an icon's own: icons.py)."""
    if (problem := viewbox_problem(value)) is not None:
        raise ValueError(problem)
    return value


class IconSetSpec(StrictModel):
    """Icons by id: a folder of SVG files (the id is the file name) or a YAML file of paths."""

    folder: str | None = Field(None, description="folder under content/<game>/ holding <id>.svg files")
    file: str | None = Field(None, description="YAML file under content/<game>/: id -> SVG path data, or {d, fill, viewbox}")
    viewbox: Annotated[str, BeforeValidator(_viewbox)] = Field("0 0 24 24", description="viewBox of path data icons")

    @model_validator(mode="after")
    def _one(self) -> "IconSetSpec":
        if (self.folder is None) == (self.file is None):
            raise ValueError("give exactly one of `folder` or `file`")
        return self


class NeedSpec(StrictModel):
    """Every id in a content list must have something the game needs (a scorer, an icon, a colour)."""

    each: str = Field(description="dotted path to a list of records (their ids) or a mapping (its keys), e.g. 'monsters.monsters'")
    has: str = Field(description="Jinja expression giving what must hold each id, e.g. 'icons.suits' or 'plugin.scorers'")
    what: str = Field(description="what is needed, in words, for the error message, e.g. 'a craving scorer'")
