"""Reading a `<style>` sheet's declarations, the one way pnp does (no CSS parser is at hand):
a property named by a pattern, its value up to the next `;` or `}`, comments left out. Font
properties (pnp/render/font_styles.py) and colours (pnp/render/paints.py, pnp/load/icons.py)
are read so.

A sheet is what resvg and typst read of a `<style>` (usvg takes the element's first text, CDATA
sections in it included): its text up to its first XML comment, processing instruction or child
element. What follows one is drawn by neither (checked by drawing, tests/test_template_checks.py),
so it is not read here either: a colour in `<!-- .a { fill: #12 } -->` is no colour of the face.
"""

from __future__ import annotations

import re
from typing import Iterator
from xml.parsers import expat

from ..errors import LINE_END

# a <style> element's sheet (group 1), or an XML comment, passed over whole: a <style> commented out is no sheet;
# a `<style` whose tag never closes runs to the end (else each such one read the rest again: quadratic time)
SHEET = re.compile(r"<!--.*?(?:-->|$)|<style\b[^>]*(?:>(.*?)(?:</style>|$)|$)", re.IGNORECASE | re.DOTALL)
COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.DOTALL)
# where a <style>'s sheet ends, as written: a comment, processing instruction or element (a CDATA section goes on)
SHEET_END = re.compile(r"<!\[CDATA\[.*?(?:\]\]>|$)|<(?:!--|\?|[A-Za-z_:])", re.DOTALL)
SVG_STYLE = "http://www.w3.org/2000/svg style"  # as expat names it (namespace_separator=" ")


def drawn_sheets(svg: str) -> list[str]:
    """The sheet of each `<style>` of a well-formed SVG as the renderers read it (see above), its
    /* comments */ left out. ElementTree, which drops XML comments and joins the text around
    them, cannot tell where a sheet ends: expat, called back at each comment, can."""
    if "<style" not in svg:  # most faces: no second parse
        return []
    sheets: list[str] = []
    reading: list[str] | None = None  # the open sheet's text, until it ends

    def end(*_: object) -> None:
        nonlocal reading
        if reading is not None:
            sheets.append(COMMENT.sub(" ", "".join(reading)))
            reading = None

    def text(data: str) -> None:
        if reading is not None:
            reading.append(data)

    def start(name: str, _: object) -> None:
        nonlocal reading
        end()
        if name == SVG_STYLE:
            reading = []

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    parser.StartElementHandler = start
    parser.EndElementHandler = parser.CommentHandler = parser.ProcessingInstructionHandler = end
    parser.CharacterDataHandler = text
    parser.Parse(svg.encode("utf-8"), True)
    return sheets


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
        body = sheet.group(1)
        body = next((body[:end.start()] for end in SHEET_END.finditer(body) if not end.group().startswith("<![")), body)
        body = COMMENT.sub(lambda c: re.sub(r"[^\n]", " ", c.group()), body)  # a comment's lines kept
        for found in pattern.finditer(body):
            at = sheet.start(1) + found.start()
            for end in LINE_END.finditer(text, counted, at):  # a lone CR ends a line too, as Jinja and XML count
                line, newline = line + 1, end.end() - 1
            counted = at
            yield found, line, at - newline
