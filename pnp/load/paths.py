"""Dotted paths into content data ('rules.versions', 'deck.suits') and the ids they hold."""

from __future__ import annotations

from typing import Any


def split(path: str) -> tuple[str, ...]:
    return tuple(part for part in path.split(".") if part)


def lookup(data: Any, path: str | tuple[str, ...]) -> Any:
    """The value at `path`, a path of mapping keys (None when a step is missing)."""
    for part in split(path) if isinstance(path, str) else path:
        if not (isinstance(data, dict) and part in data):
            return None
        data = data[part]
    return data


def member_ids(value: Any, id_field: str = "id") -> list[Any] | None:
    """The keys of a mapping, or the ids of a list of records (None for anything else)."""
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, list):
        return [v.get(id_field) if isinstance(v, dict) else v for v in value]
    return None
