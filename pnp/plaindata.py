"""What templates and expressions may hold: plain data (str, int, float, bool, None, lists,
tuples, dicts, Markup) and pnp's helper functions, never a live object of pnp or Python.

A live object hands a sandboxed template its methods: `asset.game.project.root` was a Path,
and `joinpath(...).write_text(...)` wrote anywhere. `plain` copies a value into plain data
(a model or dataclass becomes a dict of its fields and properties, its methods helpers);
`helper` wraps a function so that what it returns is plain data too, and hides the function
itself (its closure is out of the sandbox's reach, as every name starting with `_` is).
"""

from __future__ import annotations

import dataclasses
import inspect
from enum import Enum
from functools import cached_property
from os import PathLike
from types import FunctionType
from typing import Any, Callable

from jinja2 import TemplateRuntimeError
from markupsafe import Markup

SCALARS = (str, int, float, bool, type(None))
_AS_IS = frozenset({*SCALARS, Markup})
_NUMBER_HINTS = {"int", "float"}  # a helper's parameter annotated so takes a number
MAX_DEPTH = 64  # a property that makes a new object on every call must not loop forever
_SKIP_MODULES = ("pydantic", "builtins", "typing")


def is_helper(value: Any) -> bool:
    """A function made by `helper`."""
    return isinstance(value, FunctionType) and getattr(value, "__pnp_helper__", False) is True


class HelperStopped(Exception):
    """A helper raised StopIteration (e.g. `next()` of an empty iterator): Jinja would turn it
    into an undefined value, dropping where it was raised. Raised from it instead, so it is
    located like any other exception of a helper (pnp/load/plugins.py `plugin_frame` follows
    `__cause__`) and said as the StopIteration (`exception_text`)."""


def helper(fn: Callable[..., Any], copier: "Copier | None" = None) -> Callable[..., Any]:
    """`fn` as a template helper: it returns plain data; the template cannot reach `fn`.
    With `copier`, an argument that is its copy of an object is given to `fn` as that
    object (a model's method called with other records gets the models it expects)."""
    if is_helper(fn):
        return fn

    def call(*args: Any, **kwargs: Any) -> Any:
        if copier is not None:
            args = tuple(copier.original(a) for a in args)
            kwargs = {k: copier.original(v) for k, v in kwargs.items()}
        try:
            value = fn(*args, **kwargs)
        except StopIteration as exc:
            raise HelperStopped() from exc
        except (TypeError, ValueError) as exc:  # Python's own words ("could not convert string to float") name no argument
            wrong = not_a_number(fn, args, kwargs, exc)
            if wrong is None:
                raise
            raise TemplateRuntimeError(wrong) from exc
        return plain(value)

    call.__name__ = call.__qualname__ = str(getattr(fn, "__name__", "helper"))
    call.__pnp_helper__ = True  # type: ignore[attr-defined]
    if hasattr(fn, "jinja_pass_arg"):  # @pass_context and the like: Jinja passes it on
        call.jinja_pass_arg = fn.jinja_pass_arg  # type: ignore[attr-defined]
    return call


def not_a_number(fn: Callable[..., Any], args: tuple, kwargs: dict, error: Exception) -> str | None:
    """`name(): size must be a number, got 'big'` for the first argument of a call of `fn`
    that its annotation says is a number (`float`, `int`, maybe `| None`) and is not; None
    when there is none (or the call does not fit `fn`). Asked only once a helper failed
    (with `error`). A bool is not named as the cause: Python counts True as 1, so a helper
    given one mostly works, and fails, if at all, for a reason its own words say; they are
    kept, and the bool is mentioned beside them."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    flags: list[str] = []
    for name, value in bound.arguments.items():
        hint = bound.signature.parameters[name].annotation
        kinds = {k.strip() for k in (hint if isinstance(hint, str) else getattr(hint, "__name__", str(hint))).split("|")}
        if not kinds & _NUMBER_HINTS or not kinds <= _NUMBER_HINTS | {"None"}:
            continue
        if (value is None and "None" in kinds) or (type(value) in (int, float)):
            continue
        if type(value) is bool:
            flags.append(f"{name} is {str(value).lower()}")
            continue
        shown = repr(value) if len(repr(value)) <= 40 else f"a {type(value).__name__}"
        return f"{_name(fn)}(): {name} must be a number, got {shown}"
    return f"{_name(fn)}(): {error} ({', '.join(flags)}, where a number belongs)" if flags else None


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", "helper")


def plain(value: Any) -> Any:
    """`value` as plain data (see the module docstring); shared parts stay shared."""
    if type(value) in _AS_IS:  # most helpers' answers: text and numbers
        return value
    return Copier().copy(value)


class Copier:
    """Copies values into plain data, each object once (a game keeps one: its names, its
    plugin's helpers and its records share copies, and helpers know the originals)."""

    def __init__(self) -> None:
        # id -> (original, copy), and id of a copy -> (copy, original): both kept alive so
        # that no id is reused while it is a key
        self.memo: dict[int, tuple[Any, Any]] = {}
        self.originals: dict[int, tuple[Any, Any]] = {}
        # id of a record -> (record, the fields its file has that it leaves empty): a template's
        # `item.flavour` on such a record says so, not "no field" (pnp/load/records.py `blank_fields`)
        self.blanks: dict[int, tuple[Any, frozenset[str]]] = {}

    def made(self, value: Any) -> bool:
        """Whether `value` is one of this copier's copies."""
        found = self.originals.get(id(value))
        return found is not None and found[0] is value

    def original(self, value: Any) -> Any:
        """The object `value` is this copier's copy of, else `value`."""
        found = self.originals.get(id(value))
        return found[1] if found is not None and found[0] is value else value

    def blank(self, value: Any) -> frozenset[str]:
        """The fields the record `value` (or its copy) leaves empty although its file has them."""
        record = self.original(value)
        found = self.blanks.get(id(record))
        return found[1] if found is not None and found[0] is record else frozenset()

    def copy(self, value: Any, depth: int = 0) -> Any:
        if isinstance(value, Markup):
            return value
        if isinstance(value, Enum):
            value = value.value
        if isinstance(value, bool) or value is None:
            return value
        for kind in (str, int, float):
            if isinstance(value, kind):
                return value if type(value) is kind else kind(value)
        if depth > MAX_DEPTH:
            raise ValueError(f"data nested more than {MAX_DEPTH} levels deep: {type(value).__name__}")
        seen = self.memo.get(id(value))
        if seen is not None:
            return seen[1]
        if self.made(value):  # already one of this copier's copies
            return value
        if isinstance(value, PathLike):
            return self._keep(value, str(value))
        if isinstance(value, dict):
            out: dict[Any, Any] = self._keep(value, {})
            for k, v in value.items():
                key = self.copy(k, depth + 1)
                out[key if isinstance(key, (str, int, float, bool, tuple, type(None))) else str(k)] = self.copy(v, depth + 1)
            return out
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            return self._keep(value, tuple(self.copy(v, depth + 1) for v in value))
        if isinstance(value, (list, set, frozenset, range)):
            items: list[Any] = self._keep(value, [])
            items.extend(self.copy(v, depth + 1) for v in value)
            return items
        if isinstance(value, (bytes, bytearray)):
            return self._keep(value, bytes(value).decode("utf-8", "replace"))
        if callable(value):  # a function, a method, a class, a callable object: a helper
            return self._keep(value, helper(value, self))
        if hasattr(type(value), "model_fields") or dataclasses.is_dataclass(value) or hasattr(value, "_fields") or hasattr(value, "__dict__"):
            return self._record(value, depth)
        return self._keep(value, str(value))  # a date, a Decimal: as the text a template printed

    def _keep(self, original: Any, copy: Any) -> Any:
        self.memo[id(original)] = (original, copy)
        self.originals[id(copy)] = (copy, original)
        return copy

    def _record(self, obj: Any, depth: int) -> dict[str, Any]:
        """A model, dataclass, named tuple or other object: its fields, then its public
        properties (computed now) and methods (as helpers), by name."""
        out: dict[str, Any] = self._keep(obj, {})
        for name, value in _fields(obj).items():
            out[name] = self.copy(value, depth + 1)
        for cls in type(obj).__mro__:
            if cls.__module__.split(".")[0] in _SKIP_MODULES:
                continue
            for name, attr in vars(cls).items():
                if name.startswith(("_", "model_")) or name in out:
                    continue
                if isinstance(attr, (property, cached_property)):
                    try:
                        found = getattr(obj, name)
                    except Exception:  # a property that does not apply to this record: absent
                        continue
                    out[name] = self.copy(found, depth + 1)
                elif isinstance(attr, (FunctionType, classmethod, staticmethod)):
                    out[name] = helper(getattr(obj, name), self)
        return out


def _fields(obj: Any) -> dict[str, Any]:
    if hasattr(type(obj), "model_fields"):  # a pydantic model: declared fields, then extra ones
        names = list(type(obj).model_fields)
        extra = getattr(obj, "model_extra", None) or {}
        return {**{n: getattr(obj, n) for n in names}, **extra}
    if dataclasses.is_dataclass(obj):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if hasattr(obj, "_fields"):  # a named tuple
        return {n: getattr(obj, n) for n in obj._fields}
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}
