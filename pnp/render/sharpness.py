"""How sharp each raster picture (`asset()`) prints: its pixels over the size a face draws it
at. Too few pixels print blurry; far too many make every SVG, PNG and the PDF huge for
nothing. Either is a warning, once per picture and size (docs/writing-games.md, "Templates").

A face's placements are read from its parsed SVG as it is rendered, and kept with the face's
cache entry (pnp/build/cache.py), so a build whose faces all come from the cache warns the same."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from ..errors import ContentError
from ..units import CSS_PX, num
from .assets import TURNS

# 150 dpi is the least most print shops accept for pictures: below it pixels and soft edges
# show at arm's length. 300 dpi is their usual target, sharp to the eye.
FLOOR_DPI = 150
SHARP_DPI = 300
# Nothing printed gains past 1200 dpi (the finest a laser or an offset plate resolves
# detail in pictures); past it the pixels only make every output file larger.
CEILING_DPI = 1200

SVG = "{http://www.w3.org/2000/svg}"
HREFS = ("href", "{http://www.w3.org/1999/xlink}href")
# drawn only where something refers to them (a <use>, a fill): their size there is not known here
UNDRAWN = {f"{SVG}{tag}" for tag in ("defs", "symbol", "pattern", "mask", "clipPath", "marker", "metadata", "title", "desc")}
_LENGTH = re.compile(r"^\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
Matrix = tuple[float, float, float, float]  # a b c d of an SVG transform: its translation does not change a size


@dataclass(frozen=True)
class Placement:
    """A raster picture as one face draws it: its pixels, the size of the whole picture as
    drawn (mm), and the template line that asked for it."""

    name: str
    pixels: tuple[int, int]
    mm: tuple[float, float]
    path: Path | None
    line: int | None

    @property
    def dpi(self) -> float:
        """Pixels per inch along the axis with fewer of them (stretched, the axes differ)."""
        return min(self.pixels[0] / (self.mm[0] / 25.4), self.pixels[1] / (self.mm[1] / 25.4))

    def needs(self, dpi: int) -> str:
        """The pixels this size takes at `dpi`."""
        return f"{math.ceil(self.mm[0] / 25.4 * dpi)} x {math.ceil(self.mm[1] / 25.4 * dpi)} px"

    def warning(self, template: Path) -> ContentError | None:
        """The warning about this placement (at `template` when no line is known), or None when it prints well."""
        dpi = round(self.dpi)
        if FLOOR_DPI <= dpi <= CEILING_DPI:
            return None
        size = f"{self.name} ({self.pixels[0]} x {self.pixels[1]} px) is drawn {num(round(self.mm[0], 1))} x {num(round(self.mm[1], 1))} mm: {dpi} dpi"
        if dpi < FLOOR_DPI:
            verdict = f"blurry in print ({FLOOR_DPI} dpi needs {self.needs(FLOOR_DPI)}, {SHARP_DPI} dpi {self.needs(SHARP_DPI)})"
        else:
            verdict = (f"more than print needs (over {CEILING_DPI} dpi), making every output file larger: "
                       f"{self.needs(SHARP_DPI)} ({SHARP_DPI} dpi) print sharp")
        return ContentError(self.path or template, self.line, None, f"warning: {size}, {verdict}")

    def turned(self, orientation: int, template: Path) -> ContentError:
        """The warning about a JPEG a photo viewer turns (its EXIF `orientation`, assets.TURNS) and print does not."""
        return ContentError(self.path or template, self.line, None,
                            f"warning: {self.name} has EXIF orientation {orientation}: a photo viewer shows it {TURNS[orientation]}, "
                            "print draws its pixels as stored; turn the picture itself and save it without the tag")

    def kept(self, root: Path) -> list:
        """As the build cache keeps it (plain JSON; the template's path relative to `root` when under it)."""
        path = "" if self.path is None else self.path.relative_to(root).as_posix() if self.path.is_relative_to(root) else str(self.path)
        return [self.name, list(self.pixels), list(self.mm), path, self.line]

    @classmethod
    def from_kept(cls, kept: list, root: Path) -> "Placement":
        name, pixels, mm, path, line = kept
        return cls(name, (pixels[0], pixels[1]), (mm[0], mm[1]), root / path if path else None, line)


def is_kept(kept: object) -> bool:
    """Whether a cache file's entry is a `Placement.kept`."""
    return (isinstance(kept, list) and len(kept) == 5 and isinstance(kept[0], str) and _pair(kept[1], False) and _pair(kept[2], True)
            and isinstance(kept[3], str) and (kept[4] is None or type(kept[4]) is int))


def _pair(value: object, floats: bool) -> bool:
    """Two positive whole numbers (or any numbers, with `floats`)."""
    return isinstance(value, list) and len(value) == 2 and all(_positive(v, floats) for v in value)


def _positive(v: object, floats: bool) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and not floats):
        return False
    return v > 0


def placements(root: ET.Element, pictures: dict[str, tuple[str, tuple[int, int], Path | None, int | None]]) -> list[Placement]:
    """The raster pictures a face's SVG (`root`) draws, as `resvg` sizes them: the element's
    width and height through every transform and nested viewBox above it, then fitted by its
    preserveAspectRatio. `pictures`: each data URI the face's `asset()` calls gave -> the
    picture's name, pixels and the template line of the call. A picture drawn only through
    a <use>, pattern or mask is not measured."""
    found: list[Placement] = []
    # a data URI is megabytes: hashing each <image>'s anew costs ms a face, its length and end tell them apart
    by_end = {(len(uri), uri[-64:]): (uri, picture) for uri, picture in pictures.items()}
    scale, viewport = _viewbox(root, (0.0, 0.0))
    stack = [(child, scale, viewport) for child in reversed(root)]  # not recursive: a face may nest thousands deep
    while stack:
        element, ctm, viewport = stack.pop()
        if element.tag in UNDRAWN or element.get("display") == "none":
            continue
        here = _times(ctm, _transform(element.get("transform") or ""))
        if element.tag == f"{SVG}image":
            href = next((h for h in (element.get(k) for k in HREFS) if h), "")
            uri, picture = by_end.get((len(href), href[-64:]), ("", None))
            if picture is not None and href == uri and (placed := _placed(element, here, viewport, picture)) is not None:
                found.append(placed)
            continue
        if element.tag == f"{SVG}svg":
            scale, viewport = _viewbox(element, viewport)
            here = _times(here, scale)
        stack.extend((child, here, viewport) for child in reversed(element))
    return found


def _placed(image: ET.Element, ctm: Matrix, viewport: tuple[float, float],
            picture: tuple[str, tuple[int, int], Path | None, int | None]) -> Placement | None:
    name, (pw, ph), path, line = picture
    width, height = _length(image.get("width"), viewport[0]), _length(image.get("height"), viewport[1])
    if width == 0.0 or height == 0.0:  # not drawn, or a size not understood
        return None
    if width is None:  # no size: its pixels, each a user unit, as usvg draws it; one side: the other as the picture's shape has it
        width = float(pw) if height is None else height * pw / ph
    if height is None:
        height = width * ph / pw
    fit = (image.get("preserveAspectRatio") or "xMidYMid meet").split()
    if fit[:1] != ["none"]:  # the whole picture scaled alike in both axes, to fit inside (meet) or to cover (slice)
        scale = (max if fit[-1:] == ["slice"] else min)(width / pw, height / ph)
        width, height = pw * scale, ph * scale
    a, b, c, d = ctm
    mm = (width * math.hypot(a, b) * 25.4 / 96, height * math.hypot(c, d) * 25.4 / 96)
    if not all(math.isfinite(side) and side > 0 for side in mm):  # not drawn, or a transform of nan or 1e308 (no size to speak of)
        return None
    return Placement(name, (pw, ph), (round(mm[0], 3), round(mm[1], 3)), path, line)


def _length(text: str | None, whole: float) -> float | None:
    """A length in user units (CSS px; a percentage of `whole`, its viewport's side); None
    when none is given, 0.0 for one not understood or not positive (nothing drawn)."""
    if text is None or text.strip() in ("", "auto"):
        return None
    text = text.strip()
    percent = text.endswith("%")
    found = _LENGTH.match(text[:-1] if percent else text)
    if not found or (percent and found.group(2)):
        return 0.0
    return max(float(found.group(1)) * (whole / 100 if percent else CSS_PX[found.group(2) or ""]), 0.0)


def _viewbox(svg: ET.Element, viewport: tuple[float, float]) -> tuple[Matrix, tuple[float, float]]:
    """The scale an <svg> element's viewBox sets within its width and height (uniform, as
    preserveAspectRatio's default fits it; stretched with `none`), and the viewport it makes
    for percentages. The root's turns pnp's mm user units into CSS px. `viewport`: its parent's."""
    width = _length(svg.get("width"), viewport[0]) or viewport[0]  # none given: 100%
    height = _length(svg.get("height"), viewport[1]) or viewport[1]
    box = (svg.get("viewBox") or "").replace(",", " ").split()
    try:
        vw, vh = (float(box[2]), float(box[3])) if len(box) == 4 else (0.0, 0.0)
    except ValueError:
        vw = vh = 0.0
    if not (vw > 0 and vh > 0 and width > 0 and height > 0):  # no viewBox: user units stay as they are
        return (1.0, 0.0, 0.0, 1.0), (width, height)
    sx, sy = width / vw, height / vh
    fit = (svg.get("preserveAspectRatio") or "").split()
    if fit[:1] != ["none"]:
        sx = sy = (max if fit[-1:] == ["slice"] else min)(sx, sy)
    return (sx, 0.0, 0.0, sy), (vw, vh)


def _transform(text: str) -> Matrix:
    """The linear part of an SVG transform list (the part that changes sizes)."""
    ctm: Matrix = (1.0, 0.0, 0.0, 1.0)
    for kind, args in _TRANSFORM.findall(text):
        try:
            v = [float(x) for x in args.replace(",", " ").split()]
        except ValueError:
            return ctm
        if kind == "matrix" and len(v) == 6:
            step: Matrix = (v[0], v[1], v[2], v[3])
        elif kind == "scale" and v:
            step = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0])
        elif kind == "rotate" and v:
            r = math.radians(v[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r))
        elif kind == "skewX" and v:
            step = (1.0, 0.0, math.tan(math.radians(v[0])), 1.0)
        elif kind == "skewY" and v:
            step = (1.0, math.tan(math.radians(v[0])), 0.0, 1.0)
        else:  # translate
            continue
        ctm = _times(ctm, step)
    return ctm


def _times(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d = m
    e, f, g, h = n
    return (a * e + c * f, b * e + d * f, a * g + c * h, b * g + d * h)
