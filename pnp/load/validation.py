"""Validate located YAML against pydantic models and turn failures into located errors."""

from __future__ import annotations

import re
import string
from typing import Annotated, Any, Iterable, Mapping, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from ..errors import ContentError
from .yamlio import Located

M = TypeVar("M", bound=BaseModel)


SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def check_slug(value: str) -> str:
    """An id made of lower-case letters, digits and '-'."""
    if not SLUG.match(value):
        raise ValueError(f"{value!r} is not a slug: expected lower-case letters, digits and '-'")
    return value


def check_colour(value: str) -> str:
    """A colour written #rrggbb."""
    if not COLOUR.match(value):
        raise ValueError(f"{value!r} is not a colour: expected #rrggbb")
    return value


Slug = Annotated[str, BeforeValidator(lambda v: check_slug(v) if isinstance(v, str) else v)]
Colour = Annotated[str, BeforeValidator(lambda v: check_colour(v) if isinstance(v, str) else v)]


def one_of(choices: Iterable[str], what: str) -> AfterValidator:
    """The check of a text that must be one of `choices` (listed in that order when it is
    not): `Annotated[str, one_of(...)]`, a type the type checker reads too."""
    allowed = list(choices)

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"unknown {what} {value!r}: expected one of {', '.join(allowed)}")
        return value

    return AfterValidator(check)


def text_with(*fields: str) -> AfterValidator:
    """The check of a text that may hold only these `{field}` placeholders, filled in from
    other content when printed (so a card's number and the scorer's come from one place):
    `Annotated[str, text_with(...)]`."""

    def check(value: str) -> str:
        try:
            names = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        except ValueError as exc:
            raise ValueError(f"is not a valid text ({exc}): write a literal brace as '{{{{' or '}}}}'") from None
        unknown = sorted(names - set(fields))
        if unknown:
            raise ValueError(f"unknown placeholder {{{unknown[0]}}}: expected only {', '.join('{' + f + '}' for f in fields)}")
        return value

    return AfterValidator(check)


class StrictModel(BaseModel):
    """Base for every content schema: unknown keys are errors, values are not coerced loosely."""

    # defer_build: a model's validator is built when first used, not when pnp is imported
    # (about 0.1 s of every command, most of which uses a few of the models)
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


def _allowed_keys(model: type[BaseModel] | None, at: tuple, data: Any) -> list[str]:
    """Keys the model accepts at the mapping that holds the unknown key (best effort)."""
    annotation: Any = model
    for part in at[:-1]:
        annotation = _step(annotation, part)
        if annotation is None:
            return []
    found = _model_inside(annotation)
    if found is None:
        return []
    return [f.alias or name for name, f in found.model_fields.items()]


def _step(annotation: Any, part: Any) -> Any:
    """The annotation of the value at `part` inside a value of type `annotation`."""
    found = _model_inside(annotation, containers=False)
    if found is not None and isinstance(part, str) and part in found.model_fields:
        return found.model_fields[part].annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        if arg is not type(None) and (inner := _element(arg)) is not None:
            return inner
    return _element(annotation)


def _element(annotation: Any) -> Any:
    """The type of an item of a list, tuple or set type, or of a value of a dict type; else None."""
    origin = getattr(annotation, "__origin__", None)
    if origin in (list, tuple, set, frozenset):
        return annotation.__args__[0]
    return annotation.__args__[1] if origin is dict else None


def _model_inside(annotation: Any, containers: bool = True) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = getattr(annotation, "__origin__", None)
    if not containers and origin in (list, tuple, set, frozenset, dict):
        return None
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_inside(arg, containers)
        if found is not None:
            return found
    return None


def describe(err: Mapping[str, Any], model: type[BaseModel] | None = None, data: Any = None) -> str:
    """One readable sentence for one pydantic error."""
    kind = err["type"]
    loc = err["loc"]
    got = err.get("input")
    field = next((str(p) for p in reversed(loc) if isinstance(p, str)), None)
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc, data)
        hint = f" (expected one of: {', '.join(allowed)})" if allowed else ""
        return f"unknown key {loc[-1]!r}{hint}"
    if kind == "missing":
        return f"missing required key {loc[-1]!r}"
    if kind in {"model_type", "dict_type"}:
        return f"{field + ': ' if field else ''}expected a mapping of `key: value` lines, got {_kind(got)}"
    if kind == "list_type":
        return f"{field + ': ' if field else ''}expected a list of `- item` lines, got {_kind(got)}"
    msg = err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    prefix = f"{field}: " if field else ""
    if kind in {"value_error", "assertion_error"}:
        return prefix + msg
    return f"{prefix}{msg[0].lower() + msg[1:]}, got {got!r}"


def _kind(value: Any) -> str:
    """How a YAML value reads to a person: 'a list', 'the text 'x'', 'nothing'..."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"{value!r}"


def validate(doc: Located, model: type[M], at: tuple = ()) -> tuple[M | None, list[ContentError]]:
    """Validate `doc.data` (or the part at `at`) against `model`; errors point into the file."""
    data = doc.data
    for part in at:
        data = data[part]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        errors = []
        for err in exc.errors(include_url=False):
            # Errors from union branches repeat the same place; keep the first of each.
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-"))))
            err = {**err, "loc": loc}
            errors.append(doc.error(at + loc, describe(err, model, data)))
        return None, list(dict.fromkeys(errors))
