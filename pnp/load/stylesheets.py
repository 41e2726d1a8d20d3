"""Reading a `<style>` sheet's declarations, the one way pnp does (no CSS parser is at hand):
a property named by a pattern, its value up to the next `;` or `}`, comments left out. Font
properties (pnp/render/font_styles.py) and colours (pnp/render/paints.py, pnp/load/icons.py)
are read so."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Iterator

from ..errors import LINE_END

# a <style> element's sheet (group 1), or an XML comment, passed over whole: a <style> commented out is no sheet;
# a `<style` whose tag never closes runs to the end (else each such one read the rest again: quadratic time)
SHEET = re.compile(r"<!--.*?(?:-->|$)|<style\b[^>]*(?:>(.*?)(?:</style>|$)|$)", re.IGNORECASE | re.DOTALL)
COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.DOTALL)


def sheet_text(element: ET.Element) -> str:
    """A parsed `<style>` element's sheet, its comments left out."""
    return COMMENT.sub(" ", (element.text or "") + "".join(child.tail or "" for child in element))


def in_sheets(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each match of `pattern` inside a `<style>` element of a document's `text` (a template
    or an SVG file, not parsed), with its 1-based line and column; the same words elsewhere (a
    `style=` attribute) are not looked at."""
    # lines counted up to `counted`, the last starting after `newline`: once each (counting
    # from the start, or back to a long line's start, per match took quadratic time)
    line, counted, newline = 1, 0, -1
    for sheet in SHEET.finditer(text):
        if sheet.group(1) is None:  # a comment, or a tag never closed
            continue
        body = COMMENT.sub(lambda c: re.sub(r"[^\n]", " ", c.group()), sheet.group(1))  # a comment's lines kept
        for found in pattern.finditer(body):
            at = sheet.start(1) + found.start()
            for end in LINE_END.finditer(text, counted, at):  # a lone CR ends a line too, as Jinja and XML count
                line, newline = line + 1, end.end() - 1
            counted = at
            yield found, line, at - newline
