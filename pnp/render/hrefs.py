"""Faces name no file and run nothing: every reference in a face SVG stays inside the SVG.

resvg and typst would otherwise load an `<image href="/home/me/secret.png">` (or one
relative to their resource folder) into the PNG, TTS and PDF outputs. A face may refer
to its own parts (`#id`, `url(#id)`) and embed pictures as data URIs (what `asset()`
makes); an embedded SVG picture is checked the same way, since it may refer to files too.
A face holds no script, event handler or foreign object either: the preview page and a
browser opening a face show it without running anything the project wrote.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable
from urllib.parse import unquote_to_bytes

from ..errors import ContentError, PnpError

HREFS = ("href", "{http://www.w3.org/1999/xlink}href")
URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE)
IMPORT = re.compile(r"@import", re.IGNORECASE)
RASTER = ("data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp")
HEADER = 1 << 16  # base64 characters read for a picture's header (a multiple of 4)
MAX_NESTED = 4
INERT = {"script", "foreignObject", "iframe", "embed", "object"}  # elements that run code or load pages
# Every problem `_first_in` finds is written with one of these words (in any case) or with an
# event attribute (`EVENT`, in lower case), unless it is spelled through a character reference
# or an entity a DOCTYPE defines (hence `&#` and `<!`): a face with none of them needs no walk.
MARKERS = ("href", "url(", "@import", "script", "foreignobject", "iframe", "embed", "object", "&#", "<!")
EVENT = re.compile(r"[\s:]on[^\s=]*\s*=")
_EVENT_FROM_ON = re.compile(r"on[^\s=]*\s*=")  # EVENT without its first character


def _event(low: str) -> bool:
    """Whether `EVENT` is found in `low`, looked for at each "on" (a text search finds them
    at once, where the regex tries every character: less than half the cost)."""
    at = low.find("on")
    while at != -1:
        if at and (low[at - 1].isspace() or low[at - 1] == ":") and _EVENT_FROM_ON.match(low, at):  # isspace: what \s is
            return True
        at = low.find("on", at + 1)
    return False


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
    """Why a raster picture in a data URI is too large to draw (its header is read), or None."""
    from .assets import media_type, oversize

    head, _, body = uri.partition(",")
    if not head.lower().endswith(";base64"):
        return None  # the renderers read only base64 pictures
    try:
        start = base64.b64decode(body[:HEADER], validate=False)  # the header is near the start
        kind = media_type(start)
        problem = oversize(start, kind) if kind in ("image/png", "image/jpeg") else None
        if problem and problem.startswith("an unreadable") and len(body) > HEADER:
            problem = oversize(base64.b64decode(body, validate=False), kind or "")
    except (binascii.Error, ValueError):
        return "holds a malformed data: URI"
    return f"embeds {problem}" if problem else None


def _check_ref(ref: str, depth: int) -> str | None:
    ref = ref.strip()
    if ref.startswith("#") or not ref:
        return None
    low = ref.lower()
    if low.startswith(RASTER):
        return _raster(ref)
    if low.startswith("data:image/svg+xml"):
        data = _data(ref)
        if data is None:
            return "holds a malformed data: URI"
        return _first(data, depth + 1)
    shown = repr(ref if len(ref) <= 80 else ref[:77] + "...")
    return (f"refers to {shown} outside the face: a face may embed pictures only as data URIs, "
            "e.g. asset('art/name.png'), and refer only to its own parts (#id)")


def _first(svg: bytes | str, depth: int) -> str | None:
    """The first reference to something outside the SVG, as text; None when there is none."""
    if depth > MAX_NESTED:
        return f"nests SVG pictures more than {MAX_NESTED} deep"
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return "embeds an SVG picture that is not well-formed XML" if depth else None  # the face itself is checked elsewhere
    return _first_in(root, depth)


def _first_in(root: ET.Element, depth: int) -> str | None:
    """`_first` of an SVG already parsed."""
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag in INERT:
            return f"has a <{tag}> element: a face may not run scripts or hold web pages"
        attrib = element.attrib
        for key in attrib:
            if key.rsplit("}", 1)[-1].lower().startswith("on"):
                return f"has an event handler ({key}=): a face may not run scripts"
        for name in HREFS:
            value = attrib.get(name)
            if value is not None and (problem := _check_ref(value, depth)):
                return problem
        style = element.tag.endswith("}style") or element.tag == "style"
        if style and IMPORT.search(element.text or ""):
            return "has a CSS @import: a face may not load style sheets"
        texts = [v for k, v in attrib.items() if k not in HREFS]
        if style:
            texts.append(element.text or "")
        for text in texts:
            if "(" in text:  # no url( without one: most values need no search
                for _, ref in URL.findall(text):
                    if problem := _check_ref(ref, depth):
                        return problem
    return None


def external_reference(svg: str, parsed: ET.Element | None = None) -> str | None:
    """What is wrong when `svg` names a file or address outside it (an image href, a CSS
    url()) or embeds a picture past the limits, as a phrase; None when nothing is.
    `parsed`: the root of `svg` parsed already (one parse serves every check of a face)."""
    low = svg.lower()
    if not any(marker in low for marker in MARKERS) and not _event(low):
        return None  # nothing that could refer out or run (most faces): the walk is 5x the cost
    return _first(svg.encode("utf-8"), 0) if parsed is None else _first_in(parsed, 0)


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
    problem = external_reference(svg, parsed)
    if problem is None:
        return None
    return ContentError(*written_at(sources, _written(problem), template), None, f"{what}: the face {problem}")


def _written(problem: str) -> str:
    """What a template writes to cause `problem` (as `_first_in` words it), or ""."""
    if problem.startswith("refers to"):
        quoted = re.search(r"'([^']*)'", problem)
        return quoted.group(1).removesuffix("...") if quoted else ""  # a long reference is shown shortened
    for pattern in (r"^has a <(\w+)> element", r"^has an event handler \((?:\{[^}]*\})?([^=]+)=\)", r"^has a CSS (@import)"):
        if found := re.match(pattern, problem):
            return ("<" if pattern.startswith("^has a <") else "") + found.group(1) + ("=" if "handler" in pattern else "")
    return ""


# a face's template first, then those it extends, includes or imports: (file, its text)
Sources = Callable[[], list[tuple[Path, str]]]


def written_at(sources: Sources, written: str, template: Path) -> tuple[Path, int | None]:
    """The first template of `sources()` with a line that holds `written` (in any case), and
    that line; `template` without a line when none does."""
    if not written.strip():
        return template, None
    try:
        found = sources()
    except Exception:  # a template could not be read again: the face is named without a line
        return template, None
    wanted = written.strip().casefold()
    for path, text in found:
        for n, line in enumerate(text.splitlines(), start=1):
            if wanted in line.casefold():
                return path, n
    return template, None
