"""Faces name no file and run nothing: every reference in a face SVG stays inside the SVG.

resvg and typst would otherwise load an `<image href="/home/me/secret.png">` (or one
relative to their resource folder) into the PNG, TTS and PDF outputs. A face may refer
to its own parts (`#id`, `url(#id)`) and embed pictures as data URIs (what `asset()`
makes); an embedded SVG picture is checked the same way, since it may refer to files too.
A face holds no script, event handler, foreign object, HTML element, animation (SMIL
`<set>` or `<animate>` could write a link or an address later) or link (`<a href>`) but to
its own parts either, and no processing instruction but the XML declaration (an
`<?xml-stylesheet?>` loads a style sheet): the preview page and a browser opening a face
show it without running or fetching anything the project wrote. CSS is read as a browser
reads it: its escapes (`@\69mport`, `u\72l(`) are decoded before it is checked, and besides
`url()` to the face's own parts or data URIs it may not load anything (`@import`,
`@font-face`, `image-set()` and the other functions that take an address as a string).
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable
from urllib.parse import unquote_to_bytes

from ..errors import ContentError, PnpError, lines_of
from ..load.stylesheets import in_sheets

RASTER = ("data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp")
HEADER = 1 << 16  # base64 characters read for a picture's header (a multiple of 4)
MAX_NESTED = 4
INERT = {"script", "foreignObject", "iframe", "embed", "object"}  # elements that run code or load pages
# SMIL animation: `<set attributeName="href" to="http://...">` writes an address after every check
ANIMATION = {"set", "animate", "animateMotion", "animateTransform", "animateColor", "discard"}
XHTML = "http://www.w3.org/1999/xhtml"  # an HTML element (an <img>, a <link>) fetches its address even where it is not drawn
# CSS that loads a file or an address with no url(): at-rules, and functions that take one as a string
CSS_LOADS = re.compile(r"@import|@font-face|(?:image-set|image|cross-fade|src)\(", re.IGNORECASE)
# a CSS escape (CSS Syntax 4.3.7): up to six hex digits and one white space, an escaped newline, any other character
CSS_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\r\n\f])|(.)|$)", re.DOTALL)
XML_DECLARATION = re.compile(r"<\?xml[ \t\r\n]")
# Every problem `_first_in` finds is written with one of these words (in any case) or with an
# event attribute (`EVENT`, in lower case), unless it is spelled through a character reference
# or an entity a DOCTYPE defines (hence `&#` and `<!`): a face with none of them needs no walk.
# (An element's name cannot be spelled so: "<set" or, with a prefix, ":set".)
MARKERS = ("href", "url(", "@import", "script", "foreignobject", "iframe", "embed", "object", "&#", "<!",
           "\\", "@font-face", "image-set(", "image(", "cross-fade(", "src(", "<set", ":set", "<animate", ":animate",
           "<discard", ":discard", XHTML)
EVENT = re.compile(r"[\s:]on[^\s=]*\s*=")
# The look for them (`_may_refer`) runs on every face a build renders or takes from its cache:
# MARKERS under a shorter word each holds, so a face without the word is passed in one look
# for a group, not one a marker; and EVENT as two looks that each read a name once: an "on"
# after a white space starts a name; an "on" after a ":" is looked for name by name (EVENT's
# own search starts again at each ":on" of a name and reads it to its end: ":on" * 20,000
# took 6 s).
_WORDS = ("(", "@", "object", "animate", "discard", "set")
_GROUPS = (tuple((word, tuple(m for m in MARKERS if word in m)) for word in _WORDS)
           + tuple((m, (m,)) for m in MARKERS if not any(word in m for word in _WORDS)))
_SPACE_EVENT = re.compile(r"\son[^\s=]*\s*=")  # EVENT after a white space: one start a name
_ASSIGNED = re.compile(r"(?<![^\s=])([^\s=]+)\s*=")  # a name given a value, found from its start only

# a problem, as a phrase, and what a template writes to cause it ("" when that is not known)
Finding = tuple[str, str]


def _data(uri: str) -> bytes | None:
    """The bytes of a data: URI (None when malformed)."""
    head, sep, body = uri.partition(",")
    if not sep:
        return None
    try:
        return base64.b64decode(body, validate=False) if head.lower().endswith(";base64") else unquote_to_bytes(body)
    except (binascii.Error, ValueError):
        return None


def _raster(uri: str) -> str | None:
    """Why a raster picture in a data URI is too large to draw, or None: its size is read from
    its header by Pillow, whatever its type (the URI's type need not be the picture's), and a
    picture Pillow cannot read as one the engines draw is refused."""
    from .assets import oversize

    head, _, body = uri.partition(",")
    try:
        if not head.lower().endswith(";base64"):  # resvg reads a percent-encoded picture too
            return _embeds(oversize(unquote_to_bytes(body), ""))
        try:
            problem = oversize(base64.b64decode(body[:HEADER], validate=False), "")  # the header is near the start
        except binascii.Error:  # white space in the first part: no multiple of 4 there; or malformed
            if len(body) <= HEADER:
                raise
            problem = "an unreadable picture"  # read whole below
        if problem and problem.startswith("an unreadable") and len(body) > HEADER:
            problem = oversize(base64.b64decode(body, validate=False), "")
    except (binascii.Error, ValueError):
        return "holds a malformed data: URI"
    return _embeds(problem)


def _embeds(problem: str | None) -> str | None:
    return f"embeds {problem}" if problem else None


def _shown(ref: str) -> str:
    return repr(ref if len(ref) <= 80 else ref[:77] + "...")


def _check_ref(ref: str, depth: int) -> Finding | None:
    ref = ref.strip()
    if ref.startswith("#") or not ref:
        return None
    low = ref.lower()
    if low.startswith(RASTER):
        problem = _raster(ref)
        return (problem, ref[:60]) if problem else None  # found at its line when the template writes it
    if low.startswith("data:image/svg+xml"):
        data = _data(ref)
        found = ("holds a malformed data: URI", "") if data is None else _first(data, depth + 1)
        return (found[0], ref[:60]) if found else None  # at the picture's line: what it holds is written encoded
    return (f"refers to {_shown(ref)} outside the face: a face may embed pictures only as data URIs, "
            "e.g. asset('art/name.png'), and refer only to its own parts (#id)"), ref[:77]


def _unescape(css: str) -> str:
    """CSS text with its escapes decoded, as a browser's CSS reader decodes them."""
    def one(found: re.Match[str]) -> str:
        hexadecimal, newline, char = found.groups()
        if hexadecimal is not None:
            code = int(hexadecimal, 16)
            return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
        if newline is not None:
            return ""
        return char if char is not None else "\ufffd"
    return CSS_ESCAPE.sub(one, css)


def _urls(css: str) -> list[str]:
    """The address of every url( in CSS text, as a browser reads it: quoted or not, and
    closed or not (a url( left open at the end of a style sheet still loads)."""
    low, found = css.lower(), []
    at = low.find("url(")
    while at != -1:
        start = at + 4
        while start < len(css) and css[start] in " \t\r\n\f":
            start += 1
        quote = css[start] if start < len(css) and css[start] in "'\"" else ""
        end = css.find(quote or ")", start + len(quote))
        found.append(css[start + len(quote):end if end != -1 else len(css)].strip())
        at = low.find("url(", at + 4)
    return found


def _css_loads(css: str, depth: int) -> Finding | None:
    """What CSS text (without escapes) loads from outside the face, or None."""
    if found := CSS_LOADS.search(css):
        word = found.group(0)
        why = {"@import": "load style sheets", "@font-face": "load fonts (a game's fonts are game.yaml's `fonts:`)"}
        shown = word.lower() + (")" if word.endswith("(") else "")
        return f"has a CSS {shown}: a face may not {why.get(word.lower(), 'load pictures this way (embed them with asset())')}", word
    for ref in _urls(css) if "(" in css else []:
        if problem := _check_ref(ref, depth):
            return problem
    return None


def _css(text: str, depth: int) -> Finding | None:
    """What is wrong with CSS text: a <style>'s, or an attribute's (a browser reads a
    presentation attribute as CSS). Escapes are decoded first: `@\\69mport` is @import."""
    found = _css_loads(text, depth)  # as written first: then its words are the template's
    if found is None and "\\" in text and (found := _css_loads(_unescape(text), depth)):  # the escapes hid it
        escaped = next((word for word in text.split() if "\\" in word), "\\")[:40]
        return f"{found[0]} (spelled with CSS escapes: {escaped})", escaped
    return found


def _first(svg: bytes | str, depth: int) -> Finding | None:
    """The first reference to something outside the SVG; None when there is none."""
    if depth > MAX_NESTED:
        return f"nests SVG pictures more than {MAX_NESTED} deep", ""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return ("embeds an SVG picture that is not well-formed XML", "") if depth else None  # the face itself is checked elsewhere
    return _first_in(root, depth)


def _first_in(root: ET.Element, depth: int) -> Finding | None:
    """`_first` of an SVG already parsed."""
    for element in root.iter():  # elements alone: ElementTree's parser keeps no comment or instruction
        namespace, _, tag = element.tag[1:].rpartition("}") if element.tag.startswith("{") else ("", "", element.tag)
        if tag in INERT:
            return f"has a <{tag}> element: a face may not run scripts or hold web pages", f"<{tag}"
        if tag in ANIMATION:
            return f"has a <{tag}> element: a face is printed, not animated (an animation could set a link or an address)", f"<{tag}"
        if namespace == XHTML:
            return f"has an HTML <{tag}> element: a face is SVG (an HTML element may fetch an address)", f"<{tag}"
        for key, value in element.attrib.items():
            name = key.rsplit("}", 1)[-1]
            if name.lower().startswith("on"):
                return f"has an event handler ({key}=): a face may not run scripts", f"{name}="
            if name.lower() == "href":  # in any namespace
                if tag == "a" and value.strip() and not value.strip().startswith("#"):
                    return (f"has a link to {_shown(value.strip())}: a face's links may lead only to its own parts (#id)",
                            value.strip()[:77])
                if problem := _check_ref(value, depth):
                    return problem
            elif ("(" in value or "@" in value or "\\" in value) and (problem := _css(value, depth)):
                return problem
        # a style sheet is all the style element's own text, also that after a child element
        if tag == "style" and (problem := _css((element.text or "") + "".join(child.tail or "" for child in element), depth)):
            return problem
    return None


def _instruction(svg: str) -> Finding | None:
    """A processing instruction other than the XML declaration (`<?xml-stylesheet?>` loads a
    style sheet when a browser opens the face), or None."""
    at = svg.find("<?")
    while at != -1:
        if at or not XML_DECLARATION.match(svg):
            target = re.match(r"<\?[^\s?>]*", svg[at:at + 80])
            written = target.group(0) if target else "<?"
            return (f"has a processing instruction ({written} ...?>): a face may hold none but the XML declaration "
                    "(<?xml-stylesheet?> loads a style sheet)"), written
        at = svg.find("<?", at + 2)
    return None


def _may_refer(low: str) -> bool:
    """Whether the lower-cased face `low` holds one of MARKERS or matches EVENT."""
    if any(word in low and any(m in low for m in markers) for word, markers in _GROUPS):
        return True
    if _SPACE_EVENT.search(low) is not None:
        return True
    return ":on" in low and any(":on" in name.group(1) for name in _ASSIGNED.finditer(low))  # EVENT after a ":"


def _finding(svg: str, parsed: ET.Element | None) -> Finding | None:
    """`external_reference`, with what the template wrote to cause it."""
    if "<?" in svg and (found := _instruction(svg)):
        return found
    if not _may_refer(svg.lower()):
        return None  # nothing that could refer out or run (most faces): the walk is 5x the cost
    return _first(svg.encode("utf-8"), 0) if parsed is None else _first_in(parsed, 0)


def external_reference(svg: str, parsed: ET.Element | None = None) -> str | None:
    """What is wrong when `svg` names a file or address outside it (an image href, a CSS
    url()), could run or fetch something when a browser opens it, or embeds a picture past
    the limits, as a phrase; None when nothing is.
    `parsed`: the root of `svg` parsed already (one parse serves every check of a face)."""
    found = _finding(svg, parsed)
    return found[0] if found else None


def refused(svg: str, what: str) -> None:
    """Raise PnpError when `svg` names anything outside itself: the last guard before an SVG
    reaches a renderer, whatever made it (a template, a cache file, a sheet)."""
    problem = external_reference(svg)
    if problem is not None:
        raise PnpError(f"{what}: the SVG {problem}")


def check_face(svg: str, template: Path, sources: Sources, what: str, parsed: ET.Element | None = None) -> ContentError | None:
    """The located error for a face that refers outside itself or could run something: at
    the template line that writes it when a template writes it literally (see
    `written_at`), else at the face's template. `parsed`: the root of `svg` parsed already."""
    found = _finding(svg, parsed)
    if found is None:
        return None
    problem, written = found
    return ContentError(*written_at(sources, written, template), None, f"{what}: the face {problem}")


# a face's template first, then those it extends, includes or imports: (file, its text)
Sources = Callable[[], list[tuple[Path, str]]]


def written_at(sources: Sources, written: str, template: Path, exact: bool = False) -> tuple[Path, int | None]:
    """The first template of `sources()` with a line that holds `written` (in any case, or
    `exact`ly as written), and that line; `template` without a line when none does."""
    if not written.strip():
        return template, None
    try:
        found = sources()
    except Exception:  # a template could not be read again: the face is named without a line
        return template, None
    fold = str if exact else str.casefold
    wanted = fold(written.strip())
    for path, text in found:
        for n, line in enumerate(lines_of(text), start=1):
            if wanted in fold(line):
                return path, n
    return template, None


def declared_at(sources: Sources, pattern: re.Pattern[str], template: Path,
                wanted: Callable[[re.Match[str]], bool] = lambda found: True) -> tuple[Path, int | None]:
    """The first template line inside a `<style>` element where `pattern` matches as `wanted`
    (the same words elsewhere, a `style=` attribute, are not looked at); `template` without a
    line when none does (a sheet written by an expression, or from the content)."""
    try:
        found = sources()
    except Exception:  # a template could not be read again: the face is named without a line
        return template, None
    for path, text in found:
        for match, line, _ in in_sheets(text, pattern):
            if wanted(match):
                return path, line
    return template, None
