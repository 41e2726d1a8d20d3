"""The one sandboxed Jinja environment every expression language of a project runs in:
templates, `items:`, `copies:`, `generate:` (`product`, `where`, `id`, fields) and `needs:`.

A project may come from anyone, so its expressions must not reach Python. Jinja's
SandboxedEnvironment refuses names starting with `_` and the internals of functions and
checks `str.format`; on top of it this environment drops Jinja's globals that are Python
functions (`lipsum`, `cycler`, `joiner`), gives `range`, `dict` and `namespace` as pnp's own
functions, and every name handed to an expression is plain data (pnp/plaindata.py).
"""

from __future__ import annotations

from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment, safe_range
from jinja2.utils import Namespace

from .plaindata import helper, plain

REMOVED_GLOBALS = ("lipsum", "cycler", "joiner")


class Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, where a record's field wins over a dict method of the same name:
    a model's `items` field, once plain data, is still `requires.items`."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def _range(*args: int) -> list[int]:
    return list(safe_range(*args))  # at most jinja2.sandbox.MAX_RANGE numbers


def _dict(*args: Any, **kwargs: Any) -> dict[Any, Any]:
    return plain(dict(*args, **kwargs))


def _namespace(*args: Any, **kwargs: Any) -> Namespace:
    return Namespace(*(plain(a) for a in args), **plain(kwargs))


def environment(**options: Any) -> Sandbox:
    """A new sandbox (strict: an unknown name fails); `options` as jinja2.Environment's."""
    env = Sandbox(undefined=jinja2.StrictUndefined, **options)
    for name in REMOVED_GLOBALS:
        env.globals.pop(name, None)
    env.globals.update(range=helper(_range), dict=helper(_dict), namespace=_mark(_namespace))
    return env


def _mark(fn: Any) -> Any:
    """A pnp function handed to templates as it is (its result is Jinja's own Namespace,
    which `{% set ns.x = ... %}` requires)."""
    fn.__pnp_helper__ = True
    return fn

