"""A fill or stroke the renderers cannot read is drawn without a word from them: a fill
black, a stroke not at all. `fill="#d4a01"` (a digit short) would black out a card's number
in the PDF and the PNG alike; so such a colour is an error at the line that writes it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from PIL import ImageColor

from ..errors import ContentError
from .hrefs import Sources, written_at

PAINTED = ("fill", "stroke")
HEX = re.compile(r"#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})")
WORD = re.compile(r"[a-z-]+")
# a word must be a CSS colour name (Pillow's table of them) or one of SVG's paint keywords;
# a function (rgb(), hsl(), url(#gradient)) is left to the renderers
KEYWORDS = frozenset(ImageColor.colormap) | {"none", "transparent", "currentcolor", "inherit", "initial", "unset",
                                             "context-fill", "context-stroke"}
EXPECTED = "expected #rrggbb (or #rgb), a colour name such as red, or none"


def _is_colour(value: str) -> bool:
    word = value.strip().casefold()
    if word.startswith("#"):
        return HEX.fullmatch(word) is not None
    return word in KEYWORDS if WORD.fullmatch(word) else True


def bad_paint(root: ET.Element, template: Path, what: str, sources: Sources) -> tuple[ContentError, str] | None:
    """The first fill or stroke (an attribute, or in `style`) that is not a colour, at the
    template line that writes it, with the value (the caller may find it in the record)."""
    for element in root.iter():
        written = [(name, value, f'{name}="{value}"') for name in PAINTED if (value := element.get(name)) is not None]
        for declaration in element.get("style", "").split(";"):
            name, _, value = declaration.partition(":")
            if name.strip().casefold() in PAINTED:
                written.append((name.strip().casefold(), value.strip(), declaration.strip()))
        for name, value, as_written in written:
            if not _is_colour(value):
                path, line = written_at(sources, as_written, template)
                if line is None:  # written by a helper (icon(fill=...)) or from content: where the value is
                    path, line = written_at(sources, value, template)
                drawn = "black" if name == "fill" else "no line"
                return ContentError(path, line, None, f"{what}: {name} {value!r} is not a colour: {EXPECTED} "
                                    f"(the renderers would draw {drawn})"), value
    return None
