"""Validate located YAML against pydantic models and turn failures into located errors."""

from __future__ import annotations

import difflib
import re
import string
from dataclasses import dataclass
from typing import Annotated, Any, Callable, Container, Iterable, Literal, Mapping, Sequence, TypeVar, cast, get_args, get_origin

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, GetCoreSchemaHandler, ValidationError
from pydantic_core import PydanticCustomError, core_schema

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


@dataclass(frozen=True)
class Named:
    """What an alternative of a union is called in a message, when its type alone says too
    little: `int | Annotated[str, Named("an expression")]` reads "a whole number or an expression"."""

    what: str


Expression = Annotated[str, Named("an expression")]  # a Jinja expression over the content

# What a value failing one of these checks was expected to be, as a designer would say it.
_EXPECTED = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "string_type": "a text",
    "bool_type": "true or false", "bool_parsing": "true or false", "none_required": "nothing",
    "list_type": "a list", "tuple_type": "a list", "set_type": "a list",
    "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
}


def keys_of(keys: Iterable[str], what: str, why: str) -> AfterValidator:
    """The check of a mapping that must have exactly `keys`, in that order (`what` they are,
    `why` they are those): `Annotated[dict[str, T], keys_of(...)]`, words a file gives for
    values a scoring sheet takes, say."""
    wanted = list(keys)

    def check(value: dict[str, Any]) -> dict[str, Any]:
        if list(value) != wanted:
            raise ValueError(f"expected the {what} {', '.join(wanted)}, in that order ({why})")
        return value

    return AfterValidator(check)


def one_of(choices: Iterable[str], what: str) -> AfterValidator:
    """The check of a text that must be one of `choices` (listed in that order when it is
    not): `Annotated[str, one_of(...)]`, a type the type checker reads too."""
    allowed = list(choices)

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"unknown {what} {value!r}: expected one of {', '.join(allowed)}")
        return value

    return AfterValidator(check)


def beyond_name(text: str, spec_ok: Callable[[str], bool] = lambda spec: False) -> tuple[str, str] | None:
    """The first `{field}` of the format string `text` that is more than its name, as (the
    name, the field as written): a conversion, or a format spec `spec_ok` does not allow.
    str.format would fill a width in (`{n:>999999999}`: a text of a gigabyte on every card),
    so a text filled in from content takes plain names. ValueError on a lone brace."""
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion is not None or (spec and not spec_ok(spec))):
            return name, "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
    return None


def text_with(*fields: str) -> AfterValidator:
    """The check of a text that may hold only these `{field}` placeholders, filled in from
    other content when printed (so a card's number and the scorer's come from one place):
    `Annotated[str, text_with(...)]`."""

    def check(value: str) -> str:
        try:
            names = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        except ValueError as exc:
            raise ValueError(f"is not a valid text ({exc}): write a literal brace as '{{{{' or '}}}}'") from None
        if more := beyond_name(value):
            raise ValueError(f"placeholder {more[1]}: expected {{{more[0]}}} as it is")
        unknown = sorted(names - set(fields))
        if unknown:
            raise ValueError(f"unknown placeholder {{{unknown[0]}}}: expected only {', '.join('{' + f + '}' for f in fields)}")
        return value

    return AfterValidator(check)


def _no_bool(expected: str) -> Callable[[Any], Any]:
    def refuse(value: Any) -> Any:
        if isinstance(value, bool):  # as pydantic's own type error, so a union names all it takes
            raise PydanticCustomError(expected, "expected {what}", {"what": _EXPECTED[expected]})
        return value

    return refuse


_NUMBERS = {"int": _no_bool("int_type"), "float": _no_bool("float_type")}


def _numbers_refuse_bools(schema: Any) -> Any:
    """`schema` (a pydantic core schema) with each whole number and number in it refusing
    true and false, which pydantic's lax mode reads as 1 and 0 (`copies: true`, `points: yes`):
    a scoring sheet's `Count` check, made for every content model at once."""
    if isinstance(schema, (list, tuple)):  # a union's choices; a choice (schema, its name)
        return type(schema)(_numbers_refuse_bools(s) for s in schema)
    if not isinstance(schema, dict) or isinstance(schema.get("function"), dict) and schema["function"].get("function") in _NUMBERS.values():  # not twice: a model's
        return schema  # schema holds those of the models in it, made already
    out = {k: _numbers_refuse_bools(v) if k != "metadata" else v for k, v in schema.items()}
    kind = schema.get("type")
    if kind == "union":  # an alternative keeps its name (`int`), by which a message groups a union's errors (`_lines`)
        out["choices"] = [(new, old["type"]) if isinstance(old, dict) and old.get("type") in _NUMBERS and new is not old else new
                          for old, new in zip(schema["choices"], out["choices"])]
    if isinstance(kind, str) and kind in _NUMBERS and not schema.get("strict"):
        return core_schema.no_info_before_validator_function(_NUMBERS[kind], out)
    return out


class StrictModel(BaseModel):
    """Base for every content schema: unknown keys are errors, values are not coerced loosely
    (a number field refuses true and false)."""

    # defer_build: a model's validator is built when first used, not when pnp is imported
    # (about 0.1 s of every command, most of which uses a few of the models)
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type[BaseModel], handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return cast(core_schema.CoreSchema, _numbers_refuse_bools(handler(source)))


def _allowed_keys(model: type[BaseModel] | None, at: tuple, data: Any) -> list[str]:
    """Keys the model accepts at the mapping that holds the unknown key (best effort)."""
    found = _model_inside(_annotation_at(model, at[:-1]))
    if found is None:
        return []
    return [f.alias or name for name, f in found.model_fields.items()]


def _annotation_at(model: type[BaseModel] | None, at: tuple) -> Any:
    """The annotation of the value at path `at` inside `model` (None where it is lost)."""
    annotation: Any = model
    for part in at:
        if annotation is None:
            return None
        annotation = _step(annotation, part)
    return annotation


def _step(annotation: Any, part: Any) -> Any:
    """The annotation of the value at `part` inside a value of type `annotation`."""
    found = _model_inside(annotation, containers=False)
    if found is not None and isinstance(part, str) and part in found.model_fields:
        return found.model_fields[part].annotation
    tagged = [m for m in _models_in_place(annotation) if isinstance(part, str) and _has_tag(m, part)]
    if len(tagged) == 1:  # pydantic's step into a discriminated union: the alternative's tag (`kind: cat`)
        return tagged[0]
    for arg in getattr(annotation, "__args__", ()) or ():
        if arg is not type(None) and (inner := _element(arg)) is not None:
            return inner
    return _element(annotation)


def _models_in_place(annotation: Any) -> list[type[BaseModel]]:
    """The models a (perhaps annotated) union offers in place, not inside a container."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if get_origin(annotation) in (list, tuple, set, frozenset, dict):
        return []
    return [m for arg in get_args(annotation) for m in _models_in_place(arg)]


def _has_tag(model: type[BaseModel], tag: str) -> bool:
    """Whether a Literal field of `model` takes `tag` (its discriminator, in a tagged union)."""
    return any(get_origin(f.annotation) is Literal and tag in get_args(f.annotation) for f in model.model_fields.values())


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
    if loc and loc[-1] == "[key]":  # a mapping's key (`leaders: {true: ...}`): named by its mapping, the key is `got`
        loc = loc[:-2]
    field = next((str(p) for p in reversed(loc) if isinstance(p, str)), None)
    if kind == "extra_forbidden" and err.get("near"):
        return unknown_key(loc[-1], [err["near"]], required=[err["near"]])
    if kind == "extra_forbidden":
        allowed, mapping, told = _allowed_keys(model, loc, data), mapping_at(data, loc[:-1]), err.get("told", [])
        return unknown_key(loc[-1], allowed, [k for k in allowed if k in mapping or k in told])
    if kind == "missing":
        return f"missing required key {loc[-1]!r}"
    if kind in {"model_type", "dict_type"}:
        return f"{field + ': ' if field else ''}expected a mapping of `key: value` lines, got {_kind(got)}"
    if kind == "list_type":
        # `formats: svg,pdf`, as the command line takes it: the list YAML reads on one line
        one_line = f" (on one line: [{', '.join(p.strip() for p in got.split(','))}])" if isinstance(got, str) and "," in got and len(got) <= 80 else ""
        return f"{field + ': ' if field else ''}expected a list of `- item` lines, got {_kind(got)}{one_line}"
    msg = err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    prefix = f"{field}: " if field else ""
    if kind in {"value_error", "assertion_error"}:  # an `unknown_key` sentence names its key already
        return msg if loc and msg.startswith(f"unknown key {loc[-1]!r}") else prefix + msg
    if got is None and kind in _EXPECTED:  # `title:` with nothing after it: YAML's null, not Python's None
        return f"{prefix}expected {_EXPECTED[kind]}, got nothing (the key has no value)"
    if kind == "int_from_float":  # pydantic's own words end in a "got" of their own
        return f"{prefix}expected {_EXPECTED[kind]}, got {got!r}"
    shown = str(got).lower() if isinstance(got, bool) else repr(got)  # true as YAML spells it, not Python's True
    return f"{prefix}{msg[0].lower() + msg[1:]}, got {shown}"


def unknown_key(key: Any, allowed: Sequence[str], present: Container[Any] = (), required: Iterable[str] = ()) -> str:
    """The sentence every validated file says of an unknown key: the allowed key it is
    nearest to, among those its mapping lacks (`present`: the mapping itself, looked up,
    not copied, as a file may hold thousands of stray keys), as `unknown key 'layuot': did
    you mean 'layout'?`, else the allowed keys (none known: the key alone)."""
    near = meant_key(key, allowed, present)
    if near is not None:
        return f"unknown key {key!r}: did you mean {near!r}{' (required)' if near in set(required) else ''}?"
    return f"unknown key {key!r}" + (f" (expected one of: {', '.join(allowed)})" if allowed else "")


def meant_key(key: Any, allowed: Iterable[str], present: Container[Any] = ()) -> str | None:
    """The allowed key an unknown `key` is nearest to among those its mapping (`present`)
    lacks, as `did_you_mean` finds it; None when none is near. A checker that reports a
    misspelt key once, not also as missing, asks it which key was meant."""
    near = difflib.get_close_matches(str(key), [k for k in allowed if k not in present], n=1)
    return near[0] if near else None


def mapping_at(data: Any, loc: tuple) -> Mapping[Any, Any]:
    """The mapping at `loc` (keys and list indexes, as a pydantic error's) in `data` (a step
    naming no key, a union's tag, is skipped as `_in_data` does); an empty one when it cannot
    be found. The keys an unknown key's mapping has: `unknown_key`'s `present`."""
    for part in loc:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        elif not isinstance(part, str):
            return {}
    return data if isinstance(data, dict) else {}


def complaint(err: Mapping[str, Any]) -> str:
    """`describe`'s sentence without the field's name in front (for a caller that names it)."""
    loc = tuple(err["loc"])[-1:] if err["type"] in {"missing", "extra_forbidden"} else ()
    return describe({**err, "loc": loc})


def _tag_at(loc: tuple, data: Any, kind: str) -> int | None:
    """Where in `loc` pydantic named the alternative of a union it tried (`int`, `str`,
    `list[str]`, a model's name): the first part that is no key or index of the data."""
    here = data
    for i, part in enumerate(loc):
        if isinstance(here, dict) and part in here:
            here = here[part]
        elif isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here):
            here = here[part]
        elif kind == "missing" and i == len(loc) - 1:
            return None
        else:
            return i if isinstance(part, str) else None
    return None


def _names(model: type[BaseModel] | None, at: tuple) -> dict[str, str]:
    """The union alternatives at `at` that a `Named` names: their type's name -> the name."""
    out = {}
    for arg in get_args(_annotation_at(model, at)):
        named = [m for m in getattr(arg, "__metadata__", ()) if isinstance(m, Named)]
        if named and get_origin(arg) is Annotated:
            out[getattr(arg.__origin__, "__name__", "")] = named[0].what
    return out


def _alternatives(phrases: list[str]) -> str:
    return phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} or {phrases[-1]}"


_AT_KEY = ("missing", "extra_forbidden")  # errors about a key (placed at it), not its value


def _about_key(err: dict[str, Any]) -> bool:
    """Whether `err` is about its key (placed at the key), not its value: a missing or unknown
    key, or a model's own error saying so in its `ctx` (`at_key`: a plugin's unknown key)."""
    return err["type"] in _AT_KEY or bool((err.get("ctx") or {}).get("at_key"))


def _lines(errors: list[dict[str, Any]], model: type[BaseModel] | None, data: Any) -> list[tuple[tuple, str, bool]]:
    """(place, sentence, whether it is about the key rather than the value) for pydantic's errors. A value no alternative of a union accepts
    is one line naming the alternatives, not one line per alternative; when some
    alternative fits its shape (a mapping for a model) its own errors are the ones shown."""
    groups: dict[tuple, dict[str, list[dict[str, Any]]]] = {}
    for err in errors:
        i = _tag_at(err["loc"], data, err["type"])
        if i is not None:
            groups.setdefault(err["loc"][:i], {}).setdefault(err["loc"][i], []).append(err)
    out: list[tuple[tuple, str, bool]] = []
    done: set[tuple] = set()
    for err in errors:
        i = _tag_at(err["loc"], data, err["type"])
        at = err["loc"][:i] if i is not None else None
        if at is None or len(groups[at]) < 2:
            out.append((err["loc"], describe(err, model, data), _about_key(err)))
            continue
        if at in done:
            continue
        done.add(at)
        branches = groups[at]
        fitting = [e for errs in branches.values() for e in errs if len(e["loc"]) > len(at) + 1 or e["type"] not in _EXPECTED]
        if fitting:  # the value has the shape of an alternative: what is wrong inside it, in the
            # alternative with the fewest complaints (the one meant; a tie: the first declared)
            tag = min(dict.fromkeys(e["loc"][len(at)] for e in fitting), key=lambda t: len(branches[t]))
            out += _in_branch([e for e in fitting if e["loc"][len(at)] == tag], at, tag, model, data)
            continue
        named = _names(model, at)
        phrases = list(dict.fromkeys(named.get(tag) or _EXPECTED[errs[0]["type"]] for tag, errs in branches.items()))
        field = next((str(p) for p in reversed(at) if isinstance(p, str)), None)
        out.append((at, f"{field + ': ' if field else ''}expected {_alternatives(phrases)}, got {_kind(err.get('input'))}", False))
    return out


def _in_branch(errors: list[dict[str, Any]], at: tuple, tag: Any, model: type[BaseModel] | None, data: Any) -> list[tuple[tuple, str, bool]]:
    """`_lines` of the errors inside the alternative `tag` of the union at `at`, each placed
    without the tag. Inside a model's alternative they are read against that model, so an
    unknown key lists its own keys, not the first alternative's."""
    inner = next((m for m in _models_in_place(_annotation_at(model, at)) if m.__name__ == tag), None)
    deep = [e for e in errors if len(e["loc"]) > len(at) + 1] if inner is not None else []
    rest = [{**e, "loc": at + e["loc"][len(at) + 1:]} for e in errors if e not in deep]  # at the union itself: named by its field
    out = _lines(rest, model, data)
    if deep:
        here = data
        for part in at:  # `at` is a path in the data (`_tag_at`)
            here = here[part]
        out += [(at + loc, message, key) for loc, message, key in _lines([{**e, "loc": e["loc"][len(at) + 1:]} for e in deep], inner, here)]
    return out


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
    if isinstance(value, bool):  # as YAML spells it, not Python's True
        return str(value).lower()
    return f"{value!r}"


def validate(doc: Located, model: type[M], at: tuple = (),
             label: Callable[[tuple], str | None] | None = None) -> tuple[M | None, list[ContentError]]:
    """Validate `doc.data` (or the part at `at`) against `model`; errors point into the file.
    `label(place)` (a path in the data validated) may name what an error is in, put in front
    of its message (a sheet's player: `Ana: claimed: ...`)."""
    data = doc.data
    for part in at:
        data = data[part]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        found = []
        for err in exc.errors(include_url=False):
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-"))))
            found.append({**err, "loc": loc})
        found = _misspelt(found)
        errors = []
        for loc, message, at_key in _lines(found, model, data):
            place = _in_data(data, loc)
            name = label(place) if label is not None else None
            located = doc.error if at_key else doc.value_error  # a missing or unknown key at the key, a wrong value at the value
            errors.append(located(at + place, f"{name}: {message}" if name else message))
        return None, list(dict.fromkeys(errors))  # alternatives of a union may say the same twice


def _misspelt(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`errors` with an unknown key close to a required key missing beside it told as one
    misspelling (`stomch:` for `stomach:`) at the unknown key, without the missing line."""
    # by the mapping they are in: a file of thousands of records, each with a stray key, is
    # read in linear time (a scan of every error for each took minutes)
    missing: dict[tuple, list[str]] = {}
    for e in errors:
        if e["type"] == "missing" and e["loc"] and isinstance(e["loc"][-1], str):
            missing.setdefault(tuple(e["loc"][:-1]), []).append(e["loc"][-1])
    meant: dict[tuple, list[str]] = {}
    out: list[dict[str, Any]] = []
    for err in errors:
        loc = err["loc"]
        if err["type"] == "extra_forbidden" and loc and isinstance(loc[-1], str):
            mapping = tuple(loc[:-1])
            near = difflib.get_close_matches(loc[-1], missing.get(mapping, []), n=1)  # as `did_you_mean`
            if near:
                missing[mapping].remove(near[0])  # one misspelling per missing key
                meant.setdefault(mapping, []).append(near[0])
                err = {**err, "near": near[0]}
            else:  # nor is a later unknown key beside it said to be that key (`describe`)
                err = {**err, "told": list(meant.get(mapping, []))}
        out.append(err)
    told = {e["loc"][:-1] + (e["near"],) for e in out if "near" in e}
    return [e for e in out if not (e["type"] == "missing" and e["loc"] in told)]


def _in_data(data: Any, loc: tuple) -> tuple:
    """`loc` as a path in the data: without a step pydantic adds that names no key (a
    union's tag or member, `pets.1.cat.lifes`), so the error is at the key, not its record."""
    out: list[Any] = []
    for i, part in enumerate(loc):
        if isinstance(data, dict) and part not in data and i < len(loc) - 1:
            continue
        out.append(part)
        data = data.get(part) if isinstance(data, dict) else data[part] if isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data) else None
    return tuple(out)
