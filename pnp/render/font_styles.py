"""Bold or italic text needs a font file of that style: the font properties an SVG face
sets, read as CSS reads them (attributes, `style`, the `font` shorthand, relative weights,
inheritance), checked against the files the game declares. A `<style>` sheet setting them is
refused: pnp reads no style sheet, and the renderers apply it; so is font-stretch or
font-variation-settings anywhere, which pnp does not measure (`unmeasured`)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator

from ..errors import ContentError
from ..load.fonts import DEFAULT as DEFAULT_FONTS
from ..load.fonts import Face, FontChoice, Fonts, MissingStyle, weight_name
from .hrefs import Sources, declared_at, written_at

SVG = "{http://www.w3.org/2000/svg}"
FONT_PROPERTIES = ("font", "font-family", "font-weight", "font-style")  # presentation attributes too (SVG 1.1)
NORMAL, BOLD = 400, 700
# CSS font matching (what usvg's fontdb does for the PDF and the PNG): above 500 the heavier
# files are tried first, so 501-1000 asks for a bold file, 1-500 for a regular one
BOLD_ABOVE = 500
# the shorthand's size: a length (a bare number is a weight) or a size keyword
SIZE_TOKEN = re.compile(r"^(?:[\d.]+(?:px|pt|pc|mm|cm|in|em|ex|rem|%|q)(?:/\S+)?|(?:xx?-|x?x-)?(?:small|large)|medium|smaller|larger)$",
                        re.IGNORECASE)


# a font property a style sheet sets: `font-weight:` (not a selector's `.font:hover`); `font-size`
# too: a sheet's size wins over the one a fitting helper writes on the element, and over the 6 pt floor;
# and the two pnp never measures (`UNMEASURED`)
SHEET_FONT = re.compile(r"(?<![\w.#-])(font(?:-family|-weight|-style|-size|-stretch|-variation-settings)?)\s*:\s*([^;}]*)",
                        re.IGNORECASE)
# resvg and typst draw both (checked): font-stretch picks a family's condensed or expanded file, or a
# variable font's width axis; font-variation-settings sets any axis of a variable font (wght too,
# past the weight check below); pnp measures the file's default instance, or its bold one
UNMEASURED = ("font-stretch", "font-variation-settings")
UNMEASURED_WHY = ("pnp measures text at its font's normal width and default axes, and the renderers would draw it wider "
                  "or narrower than measured; remove it (to fit text, a smaller font-size)")
_SETS_STRETCH = frozenset({*UNMEASURED, "font"})  # the attributes that can, in any case (XML names are exact)
_STYLE_STRETCH = re.compile(r"stretch|variation|font\s*:", re.IGNORECASE)
STRETCH = re.compile(r"^(?:ultra-|extra-|semi-)?(?:condensed|expanded)$", re.IGNORECASE)


def sheet_fonts(sheets: list[str], template: Path, what: str, sources: Sources) -> ContentError | None:
    """A `<style>` sheet setting a font property: resvg and typst apply it, and pnp, which
    reads no style sheet (no CSS reader is at hand), would check and measure the text in the
    font its elements set: drawn in one font, measured in another. At the template line that
    sets it when a template's sheet does."""
    for sheet in sheets:  # as the renderers read them (pnp/load/stylesheets.py's `drawn_sheets`)
        if found := SHEET_FONT.search(sheet):
            name, value = found.group(1).casefold(), " ".join(found.group(2).split())[:60]
            path, line = declared_at(sources, SHEET_FONT, template)
            if name in UNMEASURED:  # refused on an element too (`unmeasured`)
                return ContentError(path, line, None, f"{what}: a <style> sheet sets {name} ({value}): {UNMEASURED_WHY}")
            return ContentError(path, line, None, f"{what}: a <style> sheet sets {name} ({value}), which pnp does not read: "
                                                  "the text would be checked and measured in another font than the one drawn; "
                                                  "set it on the element (or a <g> around it) instead")
    return None


def declarations(element: ET.Element) -> list[tuple[str, str, str]]:
    """The element's font properties in the order they apply (attributes, then its `style`,
    whose later declarations win): (property, value, how it is written in the template)."""
    found = [(name, value, f'{name}="{value}"') for name in FONT_PROPERTIES if (value := element.get(name)) is not None]
    for declaration in element.get("style", "").split(";"):
        name, colon, value = declaration.partition(":")
        name, value = name.strip().casefold(), re.sub(r"\s*!important\s*$", "", value.strip(), flags=re.IGNORECASE)
        if colon and name in FONT_PROPERTIES:
            found.append((name, value, declaration.strip()))
    return found


def unmeasured(root: ET.Element, template: Path, what: str, sources: Sources) -> ContentError | None:
    """The first element setting font-stretch or font-variation-settings (an attribute, in
    `style`, or a stretch in the `font` shorthand) to other than normal: the renderers draw
    text wider or narrower than pnp measures it. At the template line that writes it."""
    for element in root.iter():
        style = element.get("style", "")
        if not element.attrib.keys() & _SETS_STRETCH and not (style and _STYLE_STRETCH.search(style)):
            continue  # most elements: looked at this way, a 5,400-card deck's check costs nothing a user can feel
        written = [(name, value, f'{name}="{value}"') for name, value in element.attrib.items()]
        written += [(d.partition(":")[0], d.partition(":")[2], d.strip()) for d in style.split(";")]
        for name, value, as_written in written:
            name, value = name.strip().casefold(), " ".join(value.split())
            words = value.split()
            size_at = next((i for i, w in enumerate(words) if SIZE_TOKEN.match(w)), 0)
            if (name in UNMEASURED and value.casefold() not in ("normal", "initial", "inherit", "unset")) \
                    or (name == "font" and any(STRETCH.match(w) for w in words[:size_at])):
                path, line = written_at(sources, as_written, template)
                if line is None:  # written otherwise (in single quotes, over lines): where the property is
                    path, line = written_at(sources, name, template)
                return ContentError(path, line, None, f"{what}: {name} {value[:60]}: {UNMEASURED_WHY}")
    return None


def shorthand(value: str) -> tuple[str, str, str] | None:
    """`font: [style] [variant] [weight] [stretch] size[/line-height] family` as (style,
    weight, family), the ones it leaves out normal; None for a system font keyword."""
    words = value.split()
    at = next((i for i, w in enumerate(words) if SIZE_TOKEN.match(w)), None)
    if at is None:
        return None
    before = [w.casefold() for w in words[:at]]
    style = next((w for w in before if w in ("italic", "oblique")), "normal")
    weight = next((w for w in before if w in ("bold", "bolder", "lighter") or w.isdigit()), "normal")
    rest = words[at + 1:]
    if rest and rest[0].startswith("/"):  # `3px / 1.2 Serif`
        rest = rest[1:] if rest[0] != "/" else rest[2:]
    return style, weight, " ".join(rest)


def _weight(value: str, parent: int) -> int | None:
    """The numeric weight `font-weight: value` gives under a parent of weight `parent` (CSS
    Fonts 4, 2.2: keywords in any case, `bolder`/`lighter` relative); None when invalid."""
    word = value.strip().casefold()
    if word in ("inherit", "unset"):
        return parent
    if word in ("normal", "initial"):
        return NORMAL
    if word == "bold":
        return BOLD
    if word == "bolder":
        return 400 if parent < 350 else 700 if parent < 550 else max(parent, 900)
    if word == "lighter":
        return parent if parent < 100 else 100 if parent < 550 else 400 if parent < 750 else 700
    try:
        number = float(word)
    except ValueError:
        return None
    return int(number) if 1 <= number <= 1000 else None


Resolved = tuple[ET.Element, str, int, bool, str, str]  # element, family, weight, italic, how the weight and the style were written


def resolved(root: ET.Element, families: set[str], family: str) -> Iterator[Resolved]:
    """Every element with the font family, weight and style it draws in, as it inherits them
    (`family`: the root's), in document order. `<style>` sheets are not read (`sheet_fonts`)."""
    waiting: list[Resolved] = [(root, family, NORMAL, False, "", "")]
    while waiting:
        element, family, weight, italic, weight_written, style_written = waiting.pop()
        for name, value, written in declarations(element):
            parts = shorthand(value) if name == "font" else None
            if name == "font" and parts is None:  # a system font keyword: nothing to check
                continue
            style_value, weight_value, family_value = parts or (
                value if name == "font-style" else None, value if name == "font-weight" else None,
                value if name == "font-family" else None)
            if family_value is not None and family_value.strip().casefold() not in ("inherit", "unset"):
                asked = (n.strip().strip("'\"") for n in family_value.split(","))
                family = next((n for n in asked if n in families), family)
            if weight_value is not None and (number := _weight(weight_value, weight)) is not None:
                if weight_value.strip().casefold() not in ("inherit", "unset"):
                    weight, weight_written = number, written
            if style_value is not None:
                word = style_value.strip().casefold()
                if word in ("normal", "initial") or word.split()[:1] in (["italic"], ["oblique"]):
                    italic, style_written = word.split()[0] in ("italic", "oblique"), written
        yield element, family, weight, italic, weight_written, style_written
        waiting.extend((child, family, weight, italic, weight_written, style_written) for child in reversed(list(element)))


def font_styles(root: ET.Element, fonts: Fonts, template: Path, what: str, sources: Sources) -> list[ContentError]:
    """Bold or italic text needs a file of that style in its family: without one the PDF
    engine and the rasteriser draw the regular face, and nothing says so (docs/printing.md, "Fonts and images").
    Follows what each element inherits; `<style>` sheets are not read (`sheet_fonts`)."""
    if (error := unmeasured(root, template, what, sources)) is not None:
        return [error]
    if fonts is DEFAULT_FONTS:  # Liberation Sans: all four styles
        return []
    have = {(f.family, f.bold, f.italic) for f in fonts.faces}
    errors, seen, off = [], set(), set()
    for element, family, weight, italic, weight_written, style_written in resolved(root, {f.family for f in fonts.faces}, fonts.family):
        bold = weight > BOLD_ABOVE
        if (bold or italic) and element.tag in (SVG + "text", SVG + "tspan") and (element.text or "").strip() \
                and (family, bold, italic) not in have and (family, bold, italic) not in seen:
            seen.add((family, bold, italic))
            shown = [w for w in dict.fromkeys([weight_written if bold else "", style_written if italic else ""]) if w]
            path, line = written_at(sources, shown[0], template)
            asked_for = " ".join(_as_said(w) for w in shown)
            errors.append(ContentError(path, line, None, f"{what}: {MissingStyle(fonts.faces, asked_for, bold, italic, family)}"))
        elif element.tag in (SVG + "text", SVG + "tspan") and (element.text or "").strip() and (family, weight, italic) not in off \
                and (error := _off_the_axis(fonts, family, weight, italic, weight_written, template, what, sources)):
            off.add((family, weight, italic))
            errors.append(error)
    return errors


def _as_said(written: str) -> str:
    """A property as the template writes it (`font-weight="600"`, `font-weight: 600`), said
    as "font-weight 600"."""
    return re.sub(r'^([\w-]+)(?:="|\s*:\s*)(.*?)"?$', r"\1 \2", written)


def _off_the_axis(fonts: Fonts, family: str, weight: int, italic: bool, written: str, template: Path, what: str,
                  sources: Sources) -> ContentError | None:
    """Text of a variable font at a weight its face was not measured at: typst and resvg draw
    weight w at w on the weight axis (600 between the regular and the bold), where the face
    holds the metrics of the file's default or of 700 (`bold_instance`); and for weight 400
    typst draws the file's default, resvg 400 on the axis."""
    try:
        face = fonts.face(weight_name(weight > BOLD_ABOVE, italic), family)
    except FontChoice:  # no file of that style: `font_styles` says so
        return None
    if face.wght is None or weight == face.wght:
        return None
    measured = sorted({int(f.wght if f.wght is not None else BOLD if f.bold else NORMAL) for f in fonts.faces
                       if f.family == family and f.italic == italic})
    asked = _as_said(written) if written else f"weight {weight} (no font-weight set)"
    apart = f" (typst draws the file's default, {face.wght:g}, resvg {weight})" if weight == NORMAL else ""
    path, line = written_at(sources, written, template)
    return ContentError(path, line, None, f"{what}: {asked}: {face.path.name} is a variable font, drawn at weight {weight} "
                                          f"of its weight axis{apart}, but pnp measures it at {face.wght:g}: write font-weight "
                                          f"{' or '.join(map(str, measured))} for this text (the weights pnp measures {family} at)")


TEXT_CONTENT = {SVG + name for name in ("text", "tspan", "textPath", "a")}  # what a <text> draws its characters in


def runs(root: ET.Element, fonts: Fonts) -> Iterator[tuple[ET.Element, str, Face | None]]:
    """Each run of drawn text: (its <text> element, the run's characters, the face its family,
    weight and style select; None for a style the family has no file of, which `font_styles`
    reports). An element's own text and its children's tails are drawn in its font."""
    families = {f.family for f in fonts.faces}
    around: dict[ET.Element, ET.Element] = {}  # an element inside a <text> -> that <text>
    for element, family, weight, italic, _, _ in resolved(root, families, fonts.family):
        if element.tag == SVG + "text":
            around[element] = element
        elif element.tag not in TEXT_CONTENT or element not in around:
            continue
        text = around[element]
        for child in element:
            if child.tag in TEXT_CONTENT:
                around[child] = text
        drawn = (element.text or "") + "".join(child.tail or "" for child in element)
        if not drawn.strip():
            continue
        try:
            face: Face | None = fonts.face(weight_name(weight > BOLD_ABOVE, italic), family)
        except FontChoice:
            face = None
        yield text, drawn, face
