"""JSON Schemas of the generic content: data files declared under `data:` in game.yaml.

Editors (e.g. the YAML language server) validate and complete a data file with them;
`ref` fields list the ids the referenced file holds now.
"""

from __future__ import annotations

from typing import Any

from .validation import COLOUR, SLUG
from .yamlio import Located
from .records import ids_of
from .spec import DataSpec, FieldSpec

_TYPES: dict[str, dict[str, Any]] = {
    "text": {"type": ["string", "number"]},
    "int": {"type": "integer"},
    "number": {"type": "number"},
    "bool": {"type": "boolean"},
    "id": {"type": "string", "pattern": SLUG.pattern},
    "colour": {"type": "string", "pattern": COLOUR.pattern},
    "list": {"type": "array", "items": {"type": ["string", "number"]}},
}


def field_schema(spec: FieldSpec, ids: list[Any] | None) -> dict[str, Any]:
    out = dict(_TYPES[spec.type])
    allowed = spec.one_of if spec.one_of is not None else ids
    target = out["items"] if spec.type == "list" else out
    if spec.type == "list":
        out["items"] = target = dict(target)
    if allowed is not None:
        target["enum"] = list(allowed)
    if spec.min is not None:
        target["minimum"] = spec.min
    if spec.max is not None:
        target["maximum"] = spec.max
    if spec.description:
        out["description"] = spec.description
    return out


def record_schema(spec: DataSpec, docs: dict[str, Located], specs: dict[str, DataSpec]) -> dict[str, Any]:
    fields = spec.fields
    props = {name: field_schema(f, ids_of(f.ref, docs, specs) if f.ref else None) for name, f in fields.items()}
    required = [name for name, f in fields.items() if f.required and f.default is None]
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    if fields and not spec.extra_fields:
        out["additionalProperties"] = False
    return out


def data_schema(stem: str, spec: DataSpec, docs: dict[str, Located], specs: dict[str, DataSpec]) -> dict[str, Any]:
    """The schema of one declared data file (for a sheet: of its rows as a list)."""
    if spec.variants:
        names = list(docs[stem].data) if stem in docs and isinstance(docs[stem].data, dict) else []
        variant: dict[str, Any] = {"type": "object", "properties": {"extends": {"type": "string", **({"enum": names} if names else {})}}}
        return {"title": f"{stem}: variants (option {spec.variants})", "type": "object", "additionalProperties": variant}
    records: dict[str, Any] = {"type": "array", "items": record_schema(spec, docs, specs)}
    if spec.count is not None:
        low, high = (spec.count, spec.count) if isinstance(spec.count, int) else (spec.count.get("min"), spec.count.get("max"))
        if low is not None:
            records["minItems"] = low
        if high is not None:
            records["maxItems"] = high
    if not spec.records:
        return {"title": f"{stem}: records", **records}
    return {"title": stem, "type": "object", "properties": {spec.records: records}, "required": [spec.records]}
