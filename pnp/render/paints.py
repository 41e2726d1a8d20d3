"""A fill or stroke the renderers cannot read is drawn without a word from them: a fill
black, a stroke not at all. `fill="#d4a01"` (a digit short) would black out a card's number
in the PDF and the PNG alike; so such a colour is an error at the line that writes it (an
attribute, `style`, or a `<style>` sheet's declaration)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import ContentError, lines_of
from ..load.paint import PAINTED, SHEET_PAINT, is_colour, not_a_colour, paints, sheet_paint
from .hrefs import Sources, declared_at, written_at



def bad_paint(root: ET.Element, sheets: list[str], template: Path, what: str, sources: Sources) -> tuple[ContentError, str, str] | None:
    """The first fill or stroke (of the face's `sheets`, pnp/load/stylesheets.py's `drawn_sheets`,
    an attribute, or in `style`) that is not a colour, at the template line that writes it, with
    the value and the paint's name (the caller may find the value in the record)."""
    for sheet in sheets:
        for found in SHEET_PAINT.finditer(sheet):
            name, value = sheet_paint(found)
            if not is_colour(value):
                path, line = declared_at(sources, SHEET_PAINT, template, lambda declared: sheet_paint(declared) == (name, value))
                if line is None:
                    path, line = _quoted_at(sources, value, template)
                return ContentError(path, line, None, f"{what}: {not_a_colour(name, value)}"), value, name
    for element in root.iter():
        attrib = element.attrib
        # the common element, colours as attributes alone, is settled without `paints`' list
        if "style" not in attrib and all(is_colour(v) for n in PAINTED if (v := attrib.get(n)) is not None):
            continue
        for name, value, as_written in paints(attrib):
            if not is_colour(value):
                path, line = _written_at(sources, as_written, template)
                if line is None:
                    path, line = _quoted_at(sources, value, template)
                return ContentError(path, line, None, f"{what}: {not_a_colour(name, value)}"), value, name
    return None


def _written_at(sources: Sources, written: str, template: Path) -> tuple[Path, int | None]:
    """`written_at`, as written first: a keyword's case matters (`fill="None"` is refused,
    and is not at the line of a `fill="none"`)."""
    path, line = written_at(sources, written, template, exact=True)
    return (path, line) if line is not None else written_at(sources, written, template)


def _quoted_at(sources: Sources, value: str, template: Path) -> tuple[Path, int | None]:
    """A colour written by a helper (icon(fill=...)), `{% set %}` or a block's whole text
    (`{% block background %}#2b2d4{% endblock %}`, painted by the template it extends): where
    the value is, quoted or between the block's tags (bare, a record's `blu` was found in the
    template's `blue` and blamed on that line)."""
    for quoted in (f"'{value}'", f'"{value}"', f"%}}{value}{{%") if value else ():
        path, line = _written_at(sources, quoted, template)
        if line is not None:
            return path, line
    return template, None


def placed_at(sources: Sources, name: str, key: object, template: Path) -> tuple[Path, int | None]:
    """The template line that paints `name` with an expression reading the record's field
    `key` (`fill="{{ item.ink }}"`, `style="fill: {{ item.ink }}"`), else the first line with
    an expression reading it (`icon(..., fill=item.ink)`); `template` without a line when none does."""
    try:
        found = sources()
    except Exception:  # a template could not be read again: the face is named without a line
        return template, None
    # each part searched alone, in one pass over the line: one pattern of them all, with a lazy
    # gap between the paint's name and the expression, took cubic time on a long template line
    painted = re.compile(rf"\b{re.escape(name)}\s*[=:]", re.IGNORECASE)
    field = re.escape(str(key))  # a record of a YAML file may have a number for a key (`item[7]`)
    # `.7` read from a name or a bracket (`item.7`, `x[0].7`), not a number's decimals (`0.7`)
    reads = re.compile(r"(?:(?<![\w.])[A-Za-z_]\w*|[)\]])\." + field + r"\b|\[\s*['\"]?" + field + r"['\"]?\s*\]")

    def reading(line: str, after: int = 0) -> bool:
        return any(reads.search(m.group()) for m in EXPRESSION.finditer(line, after))

    for painting in (True, False):
        for path, text in found:
            for n, line in enumerate(lines_of(text), start=1):
                at = painted.search(line) if painting else None
                if (at is not None or not painting) and reading(line, at.end() if at else 0):
                    return path, n
    return template, None


EXPRESSION = re.compile(r"\{\{[^}]*")  # a Jinja expression, up to its first `}`
