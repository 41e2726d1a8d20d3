"""Declarative data schemas: check a file's records against the `data:` section of game.yaml.

A game with no Python gets the errors a plugin model would give, located in the data file
(YAML line or sheet row:column): unknown or missing fields, wrong types, values outside
`one_of`/`min`/`max`, duplicate ids, the wrong number of records and `ref`s to ids another
file does not have. Values are converted in place (a sheet's "3" becomes 3), so templates
see typed records.
"""

from __future__ import annotations

import math

import difflib
from typing import Any

from ..errors import ContentError
from .validation import SLUG, check_colour, meant_key
from .yamlio import Located
from .paths import lookup, member_ids, split
from .sheets import Sheet, columns_of, sheet_of
from .spec import DataSpec, FieldSpec

_BOOLS = {"true": True, "yes": True, "false": False, "no": False}


def records_at(spec: DataSpec) -> tuple[Any, ...]:
    return (spec.records,) if spec.records else ()


_YAML_FLOATS = {"inf": ".inf", "-inf": "-.inf", "nan": ".nan"}  # as a YAML file spells them, not Python


def convert(spec: FieldSpec, value: Any) -> Any:
    """`value` as the field's type; ValueError saying what was expected."""
    kind = spec.type
    if kind in ("text", "id", "colour"):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ValueError("expected text")
        value = str(value) if not isinstance(value, str) else value
        if kind == "id" and not SLUG.match(value):
            raise ValueError(f"{value!r} is not an id: expected lower-case letters, digits and '-'")
        return check_colour(value) if kind == "colour" else value
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _BOOLS:
            return _BOOLS[value.lower()]
        raise ValueError(f"{value!r}: expected true or false")
    if kind == "list":
        if isinstance(value, str):  # a sheet cell: "a; b; c"
            return [part.strip() for part in value.split(";") if part.strip()]
        if isinstance(value, list):
            return value
        raise ValueError(f"{value!r}: expected a list (in a sheet: values separated by ';')")
    if isinstance(value, bool):  # as the file spells it, not Python's True
        raise ValueError(f"{str(value).lower()}: expected a number")
    written = repr(value) if isinstance(value, str) else None  # a cell's text, as typed
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise ValueError(f"{value!r}: expected {'a whole number' if kind == 'int' else 'a number'}") from None
    if not isinstance(value, (int, float)):
        raise ValueError(f"{value!r}: expected a number")
    # float() reads "nan", "inf" and "1e999", YAML .inf and .nan: no size, count or score is
    # one (int() of one was an internal error)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{written or _YAML_FLOATS.get(str(value), value)}: expected a finite number")
    if kind == "int":
        if float(value) != int(value):
            raise ValueError(f"{value!r}: expected a whole number")
        return int(value)
    return value


def _check_value(spec: FieldSpec, value: Any) -> str | None:
    values = value if spec.type == "list" else [value]
    for v in values:
        if spec.one_of is not None and v not in spec.one_of:
            return f"{v!r} is not allowed: expected one of {', '.join(str(c) for c in spec.one_of)}"
        if spec.min is not None and isinstance(v, (int, float)) and v < spec.min:
            return f"{v!r} is too small: expected {spec.min:g} or more"
        if spec.max is not None and isinstance(v, (int, float)) and v > spec.max:
            return f"{v!r} is too large: expected {spec.max:g} or less"
    return None


def check_file(doc: Located, spec: DataSpec) -> list[ContentError]:
    """Check and type the records of one file in place; refs are checked by `check_refs`."""
    at = records_at(spec)
    records = lookup(doc.data, at) if at else doc.data
    if not isinstance(records, list):
        where = f"under the key {spec.records!r}" if spec.records else "as the whole file"
        return [doc.error(at, f"expected a list of records {where}")]
    errors: list[ContentError] = []
    fields = spec.fields
    if spec.count is not None:
        low, high = (spec.count, spec.count) if isinstance(spec.count, int) else (spec.count.get("min"), spec.count.get("max"))
        n = len(records)
        if (low is not None and n < low) or (high is not None and n > high):
            want = f"exactly {low}" if low == high else (f"{low} to {high}" if low is not None and high is not None else (f"at least {low}" if low is not None else f"at most {high}"))
            errors.append(doc.error(at, f"{n} records: expected {want} (count in game.yaml)"))
    seen: dict[str, dict[Any, int]] = {name: {} for name, f in fields.items() if f.unique or name == spec.id}
    sheet = sheet_of(doc, at)
    columns = sheet.columns if sheet is not None else None
    if sheet is not None:  # a sheet: a wrong column is one error at its header, not one a row
        errors += _check_header(sheet, spec)
    for i, record in enumerate(records):
        here = at + (i,)
        if not isinstance(record, dict):
            errors.append(doc.error(here, f"record {i + 1}: expected a mapping of field: value"))
            continue
        meant: set[str] = set()  # fields misspelt: told at the misspelling, not also missing
        if not spec.extra_fields and fields and columns is None:
            for key in record:
                if key not in fields:
                    # as `unknown_key` says it of every validated file: the nearest field the record lacks
                    near = meant_key(key, [f for f in fields if f not in meant], record)
                    needed = near is not None and fields[near].required and fields[near].default is None
                    hint = f"did you mean {near!r}{' (required)' if needed else ''}?" if near is not None else f"expected one of {', '.join(fields)}"
                    if near is not None:
                        meant.add(near)
                    errors.append(doc.error(here + (key,), f"unknown field {key!r}: {hint}"))
        for name, fspec in fields.items():
            if name not in record or record[name] is None:
                if fspec.default is not None:
                    record[name] = fspec.default
                elif fspec.required and (columns is None or name in columns) and name not in meant:
                    # a sheet's column is there, its cell empty; a YAML key left out or `name:`
                    missing = f"{name}: empty cell: expected a value (a required field)" if columns is not None else f"missing field {name!r}"
                    errors.append(doc.error(here + (name,), missing))
                continue
            try:
                record[name] = convert(fspec, record[name])
            except ValueError as exc:
                errors.append(doc.error(here + (name,), f"{name}: {exc}"))
                continue
            problem = _check_value(fspec, record[name])
            if problem:
                errors.append(doc.error(here + (name,), f"{name}: {problem}"))
        for name, first in seen.items():
            value = record.get(name)
            if value is None or isinstance(value, (list, dict)):
                continue
            if value in first:
                line = doc.where(at + (first[value],))[0]  # a line, as every message names: a record's number is nowhere in the file
                shown = f"line {line}" if line is not None else f"record {first[value] + 1}"
                errors.append(doc.error(here + (name,), f"{name} {value!r} appears twice (first on {shown}): expected unique values"))
            else:
                first[value] = i
    return errors


def blank_fields(doc: Located, spec: DataSpec | None) -> list[tuple[dict[str, Any], frozenset[str]]]:
    """Each record of the file with the fields it leaves empty that the file has (its sheet's
    columns, its declared fields): templates then say "empty in this record", not "no field"."""
    at = records_at(spec) if spec is not None else ()
    records = lookup(doc.data, at) if at else doc.data
    names = set(spec.fields if spec is not None else ()) | set(columns_of(doc, at) or ())
    if not names or not isinstance(records, list):
        return []
    return [(r, frozenset(names - r.keys())) for r in records if isinstance(r, dict) and not names <= r.keys()]


def ids_of(ref: str, docs: dict[str, Located], specs: dict[str, DataSpec]) -> list[Any] | None:
    """The ids a `ref` names: a data file's records ('suits') or a path ('deck.suits')."""
    parts = split(ref)
    if not parts or parts[0] not in docs:
        return None
    stem = parts[0]
    spec = specs.get(stem)
    if len(parts) == 1 and spec is not None:
        records = lookup(docs[stem].data, records_at(spec)) if spec.records else docs[stem].data
        return member_ids(records, spec.id or "id")
    return member_ids(lookup(docs[stem].data, parts[1:]))


def _undeclared_records(ref: str, docs: dict[str, Located], specs: dict[str, DataSpec]) -> str | None:
    """Why `ref` cannot name a file whose records sit under a key that game.yaml does not
    declare (its ids would be the file's keys: every value "not an id"), or None."""
    parts = split(ref)
    if len(parts) != 1 or parts[0] not in docs or parts[0] in specs or not isinstance(docs[parts[0]].data, dict):
        return None
    keys = [key for key, value in docs[parts[0]].data.items() if isinstance(value, list)]
    if not keys:
        return None  # a mapping of id -> record: its keys are the ids
    stem, key = parts[0], keys[0]
    return (f"ref {ref!r}: the records of {docs[stem].path.name} are not declared: expected `{stem}: {{records: {key}}}` "
            f"under `data:` (the key of {docs[stem].path.name} holding the list), or `ref: {stem}.{key}`")


def _check_header(sheet: Sheet, spec: DataSpec) -> list[ContentError]:
    """A sheet's header against the declared fields: each unknown column (with the field it
    may be a typo of), and each required field no column holds, once."""
    fields, columns = spec.fields, sheet.columns
    if not fields:
        return []
    errors: list[ContentError] = []
    missing = [name for name, f in fields.items() if f.required and f.default is None and name not in columns]
    guessed: set[str] = set()
    if not spec.extra_fields:
        for name, (line, col) in columns.items():
            if name in fields:
                continue
            close = difflib.get_close_matches(name, [f for f in fields if f not in columns], n=1, cutoff=0.5)
            # the typo may be game.yaml's: a field `coppies` beside a column `copies`
            hint = (f"did you mean {close[0]!r}? game.yaml's `data:` declares that field and no column holds it: "
                    "one of the two names is misspelt") if close else f"expected one of {', '.join(fields)}"
            guessed.update(close)
            errors.append(sheet.at(line, col, f"unknown column {name!r} ({hint})" if close else f"unknown column {name!r}: {hint}"))
    first_line = min((line for line, _ in columns.values()), default=1)
    for name in missing:
        if name not in guessed:
            errors.append(sheet.at(first_line, None, f"missing column {name!r}: expected a header naming every required field"))
    return errors


def check_refs(docs: dict[str, Located], specs: dict[str, DataSpec], manifest: Located) -> list[ContentError]:
    """Every `ref` field value is an id of the file it names."""
    errors: list[ContentError] = []
    for stem, spec in specs.items():
        if stem not in docs or spec.variants:
            continue
        doc = docs[stem]
        records = lookup(doc.data, records_at(spec)) if spec.records else doc.data  # a list of mappings: check_file passed
        for name, fspec in spec.fields.items():
            if fspec.ref is None:
                continue
            undeclared = _undeclared_records(fspec.ref, docs, specs)
            if undeclared:
                errors.append(manifest.error(("data", stem, "fields", name, "ref"), undeclared))
                continue
            ids = ids_of(fspec.ref, docs, specs)
            if ids is None:
                errors.append(manifest.error(("data", stem, "fields", name, "ref"), f"ref {fspec.ref!r} names no list of records: expected a data file or a dotted path into one"))
                continue
            for i, record in enumerate(records):
                if record.get(name) is None:
                    continue
                values = record[name] if isinstance(record[name], list) else [record[name]]
                for value in values:
                    if value not in ids:
                        errors.append(doc.error(records_at(spec) + (i, name), f"{name}: {value!r} is not an id in {fspec.ref}: expected one of {', '.join(map(str, ids))}"))
    return errors
