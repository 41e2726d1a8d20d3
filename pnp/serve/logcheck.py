"""A play-test log is input like any other: it may have come with a downloaded project. Before
pnp reads one, its schema must be exactly what pnp's migrations make at its version (no
view, trigger or other table whose query would be the author's, so a recursive view cannot
hang `pnp log list`), and what it reads is bounded: each value by SQLite's own length
limit, the rows by number, JSON by size and depth and by the type pnp wrote. A log that
breaks one is one line naming the file (and the row), exit 2.
"""

from __future__ import annotations

import json
import re
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ContentError, PnpError
from ..limits import LOG

# A game's name names an exported sheet file (`<game>-<id>.yaml`): one plain name, no folder.
_GAME = re.compile(r"[^./\\\x00-\x1f][^/\\\x00-\x1f]{0,99}")


def refused(path: Path, what: str) -> PnpError:
    return PnpError(ContentError(path, None, None, what))


def apply(db: sqlite3.Connection, steps: tuple[str, ...]) -> None:
    """Run migration steps, one statement at a time."""
    for step in steps:
        for statement in step.split(";"):
            if statement.strip():
                db.execute(statement)


@lru_cache(maxsize=None)
def _schema(steps: tuple[str, ...]) -> frozenset[tuple[Any, ...]]:
    """What `sqlite_master` holds after `steps`: made in memory, as pnp makes a log."""
    db = sqlite3.connect(":memory:")
    try:
        apply(db, steps)
        return frozenset(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        db.close()


def check_schema(db: sqlite3.Connection, path: Path, version: int, migrations: tuple[str, ...]) -> None:
    """Refuse a log whose tables, indexes, views and triggers are not exactly pnp's at its
    version (`migrations[:version]`): not pnp's log, or one changed by hand."""
    found = frozenset(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    expected = _schema(migrations[:version])
    if version < 0 or found != expected:
        names, known = {row[:2] for row in found}, {row[:2] for row in expected}
        extra, missing, changed = names - known, known - names, {row[:2] for row in found - expected}
        what = (f"it holds {_listed(extra)}" if extra else f"it lacks {_listed(missing)}" if missing
                else f"its {_listed(changed)} differs from pnp's" if changed else "no such version")
        raise refused(path, f"not a pnp play-test log of schema version {version}: {what} (pnp's log holds only its own tables)")


def _listed(objects: set[tuple[Any, ...]]) -> str:
    return ", ".join(f"{kind} {name!r}" for kind, name in sorted(objects, key=str)[:3])


def bound(db: sqlite3.Connection) -> None:
    """No value read from this connection may be longer than the limit: SQLite refuses it
    before it is in memory."""
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, LOG["value"])


def reason(exc: sqlite3.DatabaseError) -> str:
    """What SQLite said, the value limit named when it was that."""
    if isinstance(exc, sqlite3.DataError) and "too big" in str(exc):
        return f"a value longer than {LOG['value']:,} bytes: {LOG.hint('value')}"
    return str(exc)


def rows_limit() -> int:
    """How many rows of a table a query may return: one more than the limit, to tell."""
    return LOG["rows"] + 1


def check_rows(rows: list[Any], path: Path, table: str) -> list[Any]:
    if len(rows) > LOG["rows"]:
        raise refused(path, f"more than {LOG['rows']:,} {table}: {LOG.hint('rows')}")
    return rows


def value(path: Path, where: str, found: Any, kind: type | tuple[type, ...]) -> Any:
    """A column's value, of the type pnp writes there (SQLite keeps any type in any column)."""
    if not isinstance(found, kind):
        raise refused(path, f"{where}: expected {_name(kind)}, found {type(found).__name__}")
    return found


def game_name(path: Path, where: str, found: Any) -> str:
    if not isinstance(found, str) or not _GAME.fullmatch(found):
        raise refused(path, f"{where}: expected a game's name (no folder, no control character), found {str(found)[:40]!r}")
    return found


def parsed(path: Path, where: str, text: Any, kind: type) -> Any:
    """A JSON value pnp wrote: a text within the size limit, nested at most `depth` deep,
    of `kind` (dict or list)."""
    limits = LOG.values()
    if not isinstance(text, str):
        raise refused(path, f"{where}: expected JSON text, found {type(text).__name__}")
    if len(text) > limits["json"]:
        raise refused(path, f"{where}: JSON of {len(text):,} characters, more than {limits['json']:,}: {LOG.hint('json')}")
    try:
        data = json.loads(text)
    except RecursionError:
        data = None
        deep = True
    except ValueError as exc:
        raise refused(path, f"{where}: not JSON ({exc})") from None
    else:
        deep = _depth(data) > limits["depth"]
    if deep:
        raise refused(path, f"{where}: JSON nested more than {limits['depth']} levels deep: {LOG.hint('depth')}")
    if not isinstance(data, kind):
        raise refused(path, f"{where}: expected a JSON {_name(kind)}, found {type(data).__name__}")
    return data


def _depth(data: Any) -> int:
    """How deep lists and mappings nest in parsed JSON, without recursion."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            todo.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _name(kind: type | tuple[type, ...]) -> str:
    names = {dict: "mapping", list: "list", str: "text", int: "whole number"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)
