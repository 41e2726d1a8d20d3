"""HTML pages (preview gallery, visual diff) from Jinja templates shipped in pnp/templates/."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2

from .faces import BUILTIN_TEMPLATES
from ..units import num


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(BUILTIN_TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = num
    return env


def render_page(template: str, **context: Any) -> bytes:
    """The page `template` (e.g. "preview.html.j2") filled with `context`, as UTF-8."""
    return _env().get_template(template).render(**context).encode("utf-8")
