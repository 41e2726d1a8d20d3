"""YAML loading that remembers where every value came from.

`load_located(path)` returns a `Located` document: the plain Python data plus the 1-based
line and column of every mapping key and sequence item, addressed by their path
(`("adventurers", 12, "shape")`). Validation errors from pydantic carry such paths, so
each one can name the exact line of the file it is about.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import ContentError, PnpError

Loc = tuple[int, int]  # (line, column), 1-based
Path_ = tuple[Any, ...]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Located:
    """A parsed YAML document and the position of each of its parts."""

    path: Path
    data: Any
    marks: dict[Path_, Loc] = field(default_factory=dict)

    def where(self, at: Path_ = ()) -> Loc | tuple[None, None]:
        """Position of `at`, or of its nearest ancestor that has one."""
        at = tuple(at)
        while at:
            if at in self.marks:
                return self.marks[at]
            at = at[:-1]
        return self.marks.get((), (None, None))

    def error(self, at: Path_, message: str) -> ContentError:
        line, col = self.where(at)
        return ContentError(self.path, line, col, message)


def _mark(node: yaml.Node) -> Loc:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _construct(loader: yaml.SafeLoader, node: yaml.Node, at: Path_, doc: Located, errors: list) -> Any:
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves `<<:` merge keys
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                errors.append(ContentError(doc.path, *_mark(key_node), "a mapping key must be a plain value"))
                continue
            if key in out:
                errors.append(ContentError(doc.path, *_mark(key_node), f"duplicate key {key!r}"))
                continue
            doc.marks[at + (key,)] = _mark(key_node)
            out[key] = _construct(loader, value_node, at + (key,), doc, errors)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            doc.marks[at + (i,)] = _mark(item)
            items.append(_construct(loader, item, at + (i,), doc, errors))
        return items
    return loader.construct_object(node, deep=True)


def parse_located(text: str, path: str | os.PathLike) -> Located:
    """Parse YAML text; raise PnpError with the file position on malformed input."""
    doc = Located(Path(path), None)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        errors: list[ContentError] = []
        if node is not None:
            doc.marks[()] = _mark(node)
            doc.data = _construct(loader, node, (), doc, errors)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        if line is not None and _char_at(text, line, col) == "\t":
            problem = "a tab character: YAML indents with spaces only"
        raise PnpError(ContentError(path, line, col, f"malformed YAML: {problem}")) from None
    except yaml.YAMLError as exc:  # e.g. control characters: the reader says where, in words
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PnpError(ContentError(path, None, None, f"malformed YAML: {first} (expected UTF-8 text)")) from None
    finally:
        loader.dispose()
    if errors:
        raise PnpError(errors)
    return doc


def _char_at(text: str, line: int, column: int | None) -> str:
    lines = text.splitlines()
    if column is None or not 0 < line <= len(lines):
        return ""
    row = lines[line - 1]
    return row[column - 1] if 0 < column <= len(row) else ""


def load_located(path: str | os.PathLike) -> Located:
    """Read and parse one YAML file (see `parse_located`)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PnpError(ContentError(path, None, None, "file not found")) from None
    except UnicodeDecodeError as exc:
        raise PnpError(ContentError(path, None, None, f"not UTF-8 text ({exc.reason})")) from None
    return parse_located(text, path)
