"""`needs:` in game.yaml: every id a content list names must have what the game needs
(its scorer, its icon, its colour), checked at load time and reported at the record."""

from __future__ import annotations

from typing import Any

import jinja2

from ..errors import ContentError
from .yamlio import Located
from .paths import lookup, member_ids, split
from .spec import NeedSpec


def check_needs(needs: list[NeedSpec], docs: dict[str, Located], names: dict[str, Any], env: jinja2.Environment, manifest: Located) -> list[ContentError]:
    errors: list[ContentError] = []
    for n, need in enumerate(needs):
        at = ("needs", n)
        parts = split(need.each)
        doc = docs.get(parts[0]) if parts else None
        found = lookup(doc.data, parts[1:]) if doc is not None else None
        ids = member_ids(found) if found is not None else None
        if doc is None or ids is None:
            errors.append(manifest.error(at + ("each",), f"each {need.each!r} names no list of records or mapping in the content: expected e.g. 'monsters.monsters'"))
            continue
        try:
            holder = env.compile_expression(need.has, undefined_to_none=False)(**names)
            if isinstance(holder, jinja2.Undefined):
                holder._fail_with_undefined_error()
            have = set(member_ids(holder) or [])
        except Exception as exc:
            errors.append(manifest.error(at + ("has",), f"has {need.has!r} failed: {exc}"))
            continue
        for i, ident in enumerate(ids):
            if ident not in have:
                place = parts[1:] + ((i, "id") if isinstance(found, list) else (ident,))
                line = manifest.where(at)[0]
                errors.append(doc.error(place, f"{ident!r} has no {need.what} (needs {need.has}, game.yaml line {line}): expected one of {', '.join(map(str, sorted(have, key=str))) or '(none)'}"))
    return errors
