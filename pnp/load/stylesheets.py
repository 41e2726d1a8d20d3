"""Reading a `<style>` sheet's declarations, the one way pnp does (no CSS parser is at hand):
a property named by a pattern, its value up to the next `;` or `}`, comments left out. Font
properties (pnp/render/font_styles.py) and colours (pnp/render/paints.py, pnp/load/icons.py)
are read so.

A sheet is what resvg and typst read of a `<style>` (usvg takes the element's first text, CDATA
sections in it included): its text up to its first XML comment, processing instruction or child
element. What follows one is drawn by neither (checked by drawing, tests/test_template_checks.py),
so it is not read here either: a colour in `<!-- .a { fill: #12 } -->` is no colour of the face.
Nor is a sheet of another `type` than text/css (usvg reads exactly that, or none given), nor a
rule whose selector holds HTML's comment marks `<!--` or `-->` (in a CDATA section, or written
`&lt;!--`): usvg drops that rule, and reads the next.
"""

from __future__ import annotations

import re
from typing import Iterator
from xml.parsers import expat

from ..errors import LINE_END

# a <style> element's attributes (group 1) and sheet (group 2), or an XML comment, passed over whole: a <style>
# commented out is no sheet; a `<style` whose tag never closes runs to the end (else each such one read the rest
# again: quadratic time)
SHEET = re.compile(r"<!--.*?(?:-->|$)|<style\b([^>]*)(?:>(.*?)(?:</style>|$)|$)", re.IGNORECASE | re.DOTALL)
TYPE = re.compile(r"""\btype\s*=\s*(?:"([^"]*)"|'([^']*)')""")
CSS = "text/css"  # the one `type` usvg reads a sheet of (checked by drawing: not "", not TEXT/CSS, no parameters)
# a rule, its selector up to its block (nested blocks are read flat: usvg reads no @media); text with
# no block after it is matched whole and left (tried again at each of its characters: quadratic time)
RULE = re.compile(r"[^{}]*(?:\{[^{}]*(?:\}|$))?")
HTML_COMMENT = re.compile(r"<!--|-->|&lt;!--|--&gt;")  # as the sheet is read, or as a template writes it
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
            sheets.append(usvg_rules(COMMENT.sub(" ", "".join(reading))))
            reading = None

    def text(data: str) -> None:
        if reading is not None:
            reading.append(data)

    def start(name: str, attributes: dict[str, str]) -> None:
        nonlocal reading
        end()
        if name == SVG_STYLE and attributes.get("type", CSS) == CSS:
            reading = []

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    parser.StartElementHandler = start
    parser.EndElementHandler = parser.CommentHandler = parser.ProcessingInstructionHandler = end
    parser.CharacterDataHandler = text
    parser.Parse(svg.encode("utf-8"), True)
    return sheets


def usvg_rules(sheet: str) -> str:
    """`sheet` without the rules usvg drops, blanked (their lines kept): one whose selector holds
    `<!--` or `-->`, which CSS passes over between rules and usvg reads as part of the selector."""
    def kept(rule: re.Match[str]) -> str:
        selector, block, _ = rule.group().partition("{")
        return re.sub(r"[^\n]", " ", rule.group()) if block and HTML_COMMENT.search(selector) else rule.group()

    return RULE.sub(kept, sheet)


def _read(attributes: str) -> bool:
    """Whether usvg reads the sheet of a `<style>` with these attributes (as written): of no
    `type`, or type text/css."""
    given = TYPE.search(attributes)
    return given is None or (given.group(1) if given.group(1) is not None else given.group(2)) == CSS


def in_sheets(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each match of `pattern` inside a `<style>` element of a document's `text` (a template
    or an SVG file, not parsed), with its 1-based line and column; the same words elsewhere (a
    `style=` attribute) are not looked at."""
    # lines counted up to `counted`, the last starting after `newline`: once each (counting
    # from the start, or back to a long line's start, per match took quadratic time)
    line, counted, newline = 1, 0, -1
    for sheet in SHEET.finditer(text):
        if sheet.group(2) is None or not _read(sheet.group(1)):  # a comment, a tag never closed, or a sheet usvg reads not
            continue
        body = sheet.group(2)
        body = next((body[:end.start()] for end in SHEET_END.finditer(body) if not end.group().startswith("<![")), body)
        body = usvg_rules(COMMENT.sub(lambda c: re.sub(r"[^\n]", " ", c.group()), body))  # a comment's lines kept
        for found in pattern.finditer(body):
            at = sheet.start(2) + found.start()
            for end in LINE_END.finditer(text, counted, at):  # a lone CR ends a line too, as Jinja and XML count
                line, newline = line + 1, end.end() - 1
            counted = at
            yield found, line, at - newline
