"""A field a template guards (`item.titel | default('')`, `item.titel is defined`) that no
record has: most often a misspelt field, which the guard hides (every card printed without
its title). `default` stands in for a missing field on purpose, as a template shared by
components may read a field some records lack, so this is a warning, given once a template
(docs/writing-games.md, "Data files").

It reads the templates and the records, not what a face did as it rendered: a build whose
faces all come from the cache warns the same."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Iterable

from jinja2 import nodes

from ..bytecode import kept_code
from ..errors import ContentError, did_you_mean

GUARDS = frozenset({"default", "d"})  # Jinja's filter and its short name
TESTS = frozenset({"defined", "undefined"})
SHEET_TABLE = "table"  # the field `pnp sheet --table` gives the scoring sheet's record (pnp/score/dispatch.py)
MAY_GUARD = re.compile(r"default|defined|\|\s*d\b")  # a superset of the guards `guarded` finds, found without parsing
MAY_BIND = re.compile(r"\{%[-+]?\s*(?:for|set|with|macro|call|import|from)\b")  # a superset of the statements that name a value
_GUARD_FILES = "__pnp_guards_%s.cache"  # beside the templates' compiled code, named apart
_THIS = Path(__file__).read_bytes()  # what `guarded` finds is this module's reading
UNKNOWN = object()  # a path through something that is no record (a list, a text): it may be there


@dataclass(frozen=True)
class Guarded:
    """A field of `item` a template guards: its names below `item`, line, and how it is guarded."""

    path: tuple[str, ...]
    line: int
    how: str  # what the guard did: "`| default('')` printed nothing"


def _item_path(node: nodes.Node) -> tuple[str, ...] | None:
    """`item.a.b` or `item['a']` as ("a", "b"), ("a"); None for anything else."""
    path: list[str] = []
    while True:
        if isinstance(node, nodes.Getattr):
            path.append(node.attr)
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            path.append(node.arg.value)
        elif isinstance(node, nodes.Name) and node.name == "item" and path:
            return tuple(reversed(path))
        else:
            return None
        node = node.node


def _how(guard: nodes._FilterTestCommon) -> str:
    if isinstance(guard, nodes.Test):
        return f"`is {guard.name}` was {'false' if guard.name == 'defined' else 'true'} on every piece"
    given = guard.args[:1]
    if not given:  # `| d`: Jinja's default is '', but the warning quotes what the template wrote
        return f"`| {guard.name}` printed nothing"
    if isinstance(given[0], nodes.Const) and given[0].value == "":
        return f"`| {guard.name}('')` printed nothing"
    shown = repr(given[0].value) if isinstance(given[0], nodes.Const) else "..."
    return f"`| {guard.name}({shown})` printed its default on every piece"


def may_guard(text: str) -> bool:
    """Whether a template's text may guard a field of `item`, or name something else `item`
    (most do neither, and need no parse)."""
    return "item" in text and (MAY_GUARD.search(text) is not None or MAY_BIND.search(text) is not None)


def guards_in(text: str, name: str, parse: Callable[[str], nodes.Template]) -> tuple[bool, list[Guarded]]:
    """Whether the template `text` (named `name`) names something else `item` (`binds_item`:
    what it includes may see that as `item`), and the fields of `item` it guards. A build asks
    this of every template its faces use, and parsing one costs more than rendering many
    faces: the answer is kept between runs as the templates' compiled code is
    (pnp/bytecode.py), keyed by the text and this module."""
    if not may_guard(text):
        return False, []

    def compiled(source: bytes, path: str) -> CodeType:
        tree = parse(text)
        return compile(repr((binds_item(tree), [(g.path, g.line, g.how) for g in guarded(tree)])), path, "eval")

    code = kept_code(_GUARD_FILES, _THIS + text.encode("utf-8"), f"<fields {name} guards>", compiled)
    binds, found = eval(code, {"__builtins__": {}})  # a bool and a list of plain tuples
    return bool(binds), [Guarded(tuple(path), line, how) for path, line, how in found]


def binds_item(tree: nodes.Template) -> bool:
    """Whether the template names something else `item` (a loop, a `set`, a macro's parameter)."""
    return any(name.name == "item" and name.ctx != "load" for name in tree.find_all(nodes.Name))


def guarded(tree: nodes.Template) -> list[Guarded]:
    """The fields of `item` the template guards; none in a template that names something else
    `item` (`binds_item`): there `item` may be no piece's record."""
    if binds_item(tree):
        return []
    found = []
    for guard in tree.find_all((nodes.Filter, nodes.Test)):
        if guard.name in (GUARDS if isinstance(guard, nodes.Filter) else TESTS) and guard.node is not None:
            path = _item_path(guard.node)
            if path is not None:  # at the field's line: a guard may run on to the next (`item.titel\n | default('')`)
                found.append(Guarded(path, guard.node.lineno, _how(guard)))
    return found


def _reach(record: Any, path: tuple[str, ...], blank: frozenset[str]) -> Any:
    """The fields beside the last of `path` in `record` when it lacks it (a list of names),
    else UNKNOWN (it has it, or something on the way is no record: it may)."""
    here = record
    for depth, name in enumerate(path):
        if not isinstance(here, dict):
            return UNKNOWN
        if name not in here:
            if depth == 0 and name in blank:  # its file has that field; this record leaves it empty
                return UNKNOWN
            return [k for k in here if isinstance(k, str)] + (sorted(blank) if depth == 0 else [])
        here = here[name]
    return UNKNOWN


def unused_defaults(templates: dict[str, tuple[list[str], list[Any]]], sources: Callable[[str], Iterable[tuple[Path, list[Guarded]]]],
                    blank: Callable[[Any], frozenset[str]]) -> list[tuple[str, ContentError]]:
    """One warning, with the first component rendered with it, for each field of `item` a
    template guards that no record of any component rendered with it has, at the first line
    the file guards it (naming the others). `templates`: each
    face template -> the components rendered with it and their records; `sources`: a face
    template's file and the files it includes, extends or imports where `item` is the piece's
    record, each with what it guards (`guards_in`); `blank`: the fields a record's file has that it leaves empty."""
    users: dict[Path, tuple[list[str], list[Any]]] = {}  # each file -> the components and records that reach it
    guards: dict[Path, list[Guarded]] = {}
    for template, (components, records) in templates.items():
        for path, found in sources(template):
            guards[path] = found
            known = users.setdefault(path, ([], []))
            known[0].extend(c for c in components if c not in known[0])
            known[1].extend(records)
    warnings = []
    for path, (components, records) in users.items():
        if not records:
            continue
        first: dict[tuple[str, ...], Guarded] = {}  # one warning a field the file guards, at the first line it does
        lines: dict[tuple[str, ...], set[int]] = {}
        for guard in sorted(guards[path], key=lambda g: g.line):
            first.setdefault(guard.path, guard)
            lines.setdefault(guard.path, set()).add(guard.line)
        for guard in first.values():
            beside: set[str] = set()
            for record in records:
                found = _reach(record, guard.path, blank(record))
                if found is UNKNOWN:
                    break
                beside.update(found)
            else:
                field = ".".join(("item", *guard.path))
                more = sorted(lines[guard.path] - {guard.line})
                again = f" (guarded again at line{'s' if len(more) > 1 else ''} {', '.join(map(str, more))})" if more else ""
                warnings.append((components[0], ContentError(path, guard.line, None, f"warning: {field} is in no record of {', '.join(components)}"
                                                                     f"{did_you_mean(guard.path[-1], sorted(beside))}; {guard.how}{again}")))
    return warnings
