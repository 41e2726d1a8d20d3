"""A length with an absolute unit inside a face (`font-size="12pt"`, `width="10mm"`) is drawn
at a size nobody meant, and at a different one by each output. A face's user unit is already
a millimetre (pnp/templates/base.svg.j2); SVG reads `10mm` as 37.8 CSS pixels, that is 37.8
of the face's millimetres in the PDF, while resvg converts absolute units at the PNG's own
dpi (100 mm at 300 dpi, found by drawing). So such a length is an error at the line that
writes it, with the number to write instead. The root's own size is the one place for a unit."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import ContentError, lines_of
from ..units import CSS_PX, num
from .hrefs import Sources, written_at

ABSOLUTE = re.compile(r"(?<![\w.])([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(mm|cm|q|in|pt|pc)\b", re.IGNORECASE)
# the geometry and presentation properties that take lengths (a text's words are not looked at)
LENGTHS = frozenset({"x", "y", "width", "height", "r", "rx", "ry", "cx", "cy", "fx", "fy", "fr", "x1", "y1", "x2", "y2",
                     "dx", "dy", "stroke-width", "stroke-dasharray", "stroke-dashoffset", "font-size", "font", "letter-spacing",
                     "word-spacing", "textlength", "refx", "refy", "markerwidth", "markerheight", "baseline-shift"})
SHEET_LENGTH = re.compile(r"(?<![\w.#-])(" + "|".join(sorted(LENGTHS, key=len, reverse=True)) + r")\s*:\s*([^;}]*)", re.IGNORECASE)


def absolute_length(root: ET.Element, sheets: list[str], template: Path, what: str, sources: Sources) -> ContentError | None:
    """The first length of the face (below its root, in `sheets` too) written with an absolute
    unit, at the template line that writes it."""
    written: list[tuple[str, str]] = [(m.group(1), m.group(2)) for sheet in sheets for m in SHEET_LENGTH.finditer(sheet)]
    for element in root.iter():
        if element is root:
            continue
        for name, value in element.attrib.items():
            if value[-1:] in "mntcqMNTCQ" and name.casefold() in LENGTHS:  # mm, cm, in, pt, pc, q end so; a number does not
                written.append((name, value))
        if (style := element.get("style")) is not None:
            written += [(m.group(1), m.group(2)) for m in SHEET_LENGTH.finditer(style)]
    for name, value in written:
        if found := ABSOLUTE.search(value):
            number, unit = found.groups()
            path, line = _at(sources, name, found.group(), template)
            return ContentError(path, line, None, f"{what}: {name}: {found.group()}: a face's lengths are millimetres already, and an "
                                f"absolute unit would print at another size in the PDF and in each PNG: write "
                                f"{num(float(number) * CSS_PX[unit.casefold()] / CSS_PX['mm'])} (millimetres, no unit)")
    return None


def _at(sources: Sources, name: str, length: str, template: Path) -> tuple[Path, int | None]:
    """The line writing `name` with `length`, else one writing `name` with the unit (a value of
    an expression, `{{ size }}pt`), else one holding the length."""
    try:
        found = sources()
    except Exception:  # a template could not be read again: the face is named without a line
        return template, None
    unit = ABSOLUTE.fullmatch(length).group(2)  # type: ignore[union-attr]
    named, as_written, with_unit = (re.compile(rf"\b{re.escape(name)}\s*[=:]", re.IGNORECASE),
                                    re.compile(rf"\s*[\"']?\s*{re.escape(length)}", re.IGNORECASE), re.compile(rf"{unit}\b", re.IGNORECASE))
    for exact in (True, False):  # each search linear in the line: a lazy gap between the two took quadratic time
        for path, text in found:
            for n, line in enumerate(lines_of(text), start=1):
                for at in named.finditer(line) if exact else [named.search(line)]:
                    if at is not None and (as_written.match(line, at.end()) if exact else with_unit.search(line, at.end())):
                        return path, n
    return written_at(sources, length, template)
