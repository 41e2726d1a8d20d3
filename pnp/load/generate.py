"""Generated lists: records made from the product of other lists (every suit x value),
filtered by a condition that may use the options, each named by an id template.

`generate:` in game.yaml names each list; templates and `items:` see it by that name.
The `product` Jinja filter does the same inside an expression:
`suits | product(values)` gives every (suit, value) pair.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

import jinja2
from jinja2.exceptions import SecurityError

from ..errors import ContentError, failure, without_addresses
from ..limits import BUILD
from ..sandbox import MAX_SIZE
from .spec import GenerateSpec

if TYPE_CHECKING:
    from .yamlio import Located
    from ..plaindata import Copier


def product(first: Any, *others: Any) -> list[tuple[Any, ...]]:
    """Every combination of one value from each list, in order (a Jinja filter), counted
    before any is made (as `generate:` counts its own): at most the sandbox's MAX_SIZE."""
    lists = [list(x.values()) if isinstance(x, dict) else list(x) for x in (first, *others)]
    combinations = math.prod(len(x) for x in lists)
    if combinations > MAX_SIZE:
        sizes = " x ".join(f"{len(x):,}" for x in lists)
        raise SecurityError(f"product of {sizes} makes {combinations:,} combinations, more than {MAX_SIZE:,}: refused")
    return list(itertools.product(*lists))


def _combination(local: dict[str, Any]) -> str:
    """The product's names and values as a designer reads them: a record by its id."""
    def one(value: Any) -> str:
        if isinstance(value, dict) and "id" in value:
            return repr(value["id"])
        return "a function" if callable(value) else repr(value)

    return without_addresses(", ".join(f"{k} = {one(v)}" for k, v in local.items()))


def _expression(env: jinja2.Environment, source: str | list[Any], names: dict[str, Any]) -> Any:
    if isinstance(source, list):
        return source
    value = env.compile_expression(source, undefined_to_none=False)(**names)
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()
    return value


def generate(env: jinja2.Environment, name: str, spec: GenerateSpec, names: dict[str, Any], manifest: "Located") -> tuple[list[dict[str, Any]], list[ContentError]]:
    """The records of one generated list, or the errors located at its game.yaml keys."""
    at = ("generate", name)
    lists: dict[str, list[Any]] = {}
    errors: list[ContentError] = []
    for key, source in spec.product.items():
        try:
            value = _expression(env, source, names)
        except Exception as exc:  # a designer's expression: report it, never a traceback
            errors.append(manifest.error(at + ("product", key), f"{key}: expression {source!r} failed: {failure(exc)}"))
            continue
        if isinstance(value, dict):
            value = list(value.values())
        if not isinstance(value, (list, tuple, range)):
            errors.append(manifest.error(at + ("product", key), f"{key}: {source!r} gave {type(value).__name__}: expected a list"))
            continue
        lists[key] = list(value)
    if errors:
        return [], errors
    limits = BUILD.values()
    combinations = math.prod(len(v) for v in lists.values())
    if combinations > limits["pieces"]:  # before any is made
        return [], [manifest.error(at + ("product",), f"generate {name!r}: {combinations:,} combinations, more than {limits['pieces']:,}: {BUILD.hint('pieces')}")]
    try:
        make_id = env.from_string(spec.id)
        keep = env.compile_expression(spec.where, undefined_to_none=False) if spec.where else None
        extra = {k: env.compile_expression(v, undefined_to_none=False) for k, v in spec.fields.items()}
    except jinja2.TemplateSyntaxError as exc:
        return [], [manifest.error(at, f"generate {name!r}: {without_addresses(exc.message)}")]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for combo in itertools.product(*lists.values()):
        local = dict(zip(lists, combo))
        scope = {**names, **local}
        try:
            if keep is not None and not keep(**scope):
                continue
            record: dict[str, Any] = {"id": make_id.render(**scope).strip(), **local}
            for key, fn in extra.items():
                value = fn(**{**scope, **record})  # a field may use the product's names and the fields before it
                if isinstance(value, jinja2.Undefined):
                    value._fail_with_undefined_error()
                record[key] = value
        except Exception as exc:
            errors.append(manifest.error(at, f"generate {name!r} failed for {_combination(local)}: {failure(exc)}"))
            break
        if record["id"] in seen:
            errors.append(manifest.error(at + ("id",), f"generate {name!r}: id {record['id']!r} is made twice: expected an id template that differs for every combination"))
            break
        seen.add(record["id"])
        out.append(record)
    return out, errors


def expression_environment(given: Copier | None = None) -> jinja2.Environment:
    """The environment of `generate:` and `needs:` expressions: pnp's one sandbox
    (pnp/sandbox.py; strict: a typo fails), where the copies `given` made are read only."""
    from ..sandbox import environment

    env = environment(given)
    env.filters["product"] = product
    return env
