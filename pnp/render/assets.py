"""Art images for templates: `asset('art/wolf.png')` gives a data URI for an <image href>.

The file is looked up in the game's content folder, then in the project's `assets/`
folder. PNG, JPEG and SVG are accepted; SVG art stays vector in the PDF. The picture goes
into the face SVG itself, so the SVG, PNG, TTS and PDF outputs all show it and none needs
the file at print time; the PDF engine stores a picture used on many faces once.
A missing or unreadable file is an error at the template line that asked for it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import threading
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from ..errors import ContentError, PnpError, without_addresses
from ..load import project_files
from ..limits import PICTURES
from ..units import CSS_PX
from .textfit import calling_template

if TYPE_CHECKING:
    from ..load.content import GameContent

_TRUNCATION = threading.Lock()  # damaged() switches Pillow's LOAD_TRUNCATED_IMAGES off for a while
KINDS = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}
DRAWN = ("PNG", "JPEG", "GIF", "WEBP")  # the raster types resvg and typst draw: Pillow reads no other's header
# A JPEG's EXIF orientation (tag 274): how a photo viewer turns its stored pixels to show it. resvg
# and typst draw a picture inside an SVG as stored (a phone photo tagged 6 prints on its side).
TURNS = {2: "mirrored", 3: "upside down", 4: "mirrored upside down", 5: "mirrored and turned a quarter",
         6: "turned a quarter clockwise", 7: "mirrored and turned a quarter", 8: "turned a quarter anticlockwise"}


def media_type(data: bytes) -> str | None:
    """image/png, image/jpeg or image/svg+xml by content; None for anything else."""
    for magic, kind in KINDS.items():
        if data.startswith(magic):
            return kind
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    return "image/svg+xml" if root.tag in {"svg", "{http://www.w3.org/2000/svg}svg"} else None


_SVG_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")


def _svg_pixels(data: bytes) -> float | None:
    """Width x height of an SVG picture in CSS pixels (its width/height, else its viewBox)."""
    root = ET.fromstring(data)
    sizes = [_SVG_LENGTH.match(root.get(k) or "") for k in ("width", "height")]
    if all(sizes):
        w, h = (float(m.group(1)) * CSS_PX[m.group(2) or ""] for m in sizes if m)
        return w * h
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        return float(box[2]) * float(box[3]) if len(box) == 4 else None
    except ValueError:
        return None


def oversize(data: bytes, kind: str) -> str | None:
    """Why a picture is too large to draw (read from its header, nothing decoded), or None.
    `kind`: image/svg+xml, else any raster type (one Pillow cannot read as a `DRAWN` type
    is unreadable)."""
    limit = PICTURES["pixels"]
    if kind == "image/svg+xml":
        pixels = _svg_pixels(data)
        size = None
    else:
        from PIL import Image

        try:
            size = raster_size(data)
        except Image.DecompressionBombError:  # past twice Pillow's own limit: its header says so
            return f"a picture of more than {2 * (Image.MAX_IMAGE_PIXELS or 0):,} pixels, more than {limit:,}: {PICTURES.hint('pixels')}"
        except Exception as exc:  # a broken file: the renderers would fail on it later, less clearly
            return f"an unreadable picture ({_complaint(exc)})"
        pixels = size[0] * size[1]
    if pixels is not None and pixels > limit:
        shown = f"{size[0]:,} x {size[1]:,} pixels" if size else f"{pixels:,.0f} pixels"
        return f"a picture of {shown}, more than {limit:,}: {PICTURES.hint('pixels')}"
    return None


def raster_size(data: bytes) -> tuple[int, int]:
    """A PNG's or JPEG's width and height in pixels, read from its header (nothing decoded)."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pillow's own bomb warning: `oversize`'s limit decides
        with Image.open(io.BytesIO(data), formats=DRAWN) as picture:
            return picture.size


def orientation(data: bytes) -> int:
    """A JPEG's EXIF orientation (1, as stored, when it has none or is no JPEG)."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data), formats=("JPEG",)) as picture:
                found = picture.getexif().get(0x0112, 1)
    except Exception:  # Pillow raises what its readers raise: a tag it cannot read turns nothing
        return 1
    return found if type(found) is int else 1


def damaged(data: bytes, kind: str) -> str | None:
    """Why a PNG's or JPEG's file is damaged (cut short, a PNG chunk that fails its checksum,
    JPEG scan data that breaks off), or None. The engines differ on such a file (typst refuses
    the face or draws grey, resvg draws part of it or leaves it out), so it is refused at the
    template line. Cheaply: a PNG by Pillow's `verify` (its chunks and checksums, no pixels);
    a JPEG, which `verify` does not read, decoded at 1/8 scale (libjpeg's DCT scaling), which
    still reads every byte of the scan data, so a file cut anywhere fails. Measured for a
    4000 x 3000 photo at quality 90 (1.6 MB): 17 ms against 77 ms for a full decode
    (progressive: 100 ms against 165, its scans cost the same whatever the scale); for card
    art (1000 x 750) 2 ms (progressive 9). Garbage within the scan data is found when it
    breaks the data stream, not when it only spoils pixels (libjpeg then merely warns)."""
    if kind not in ("image/png", "image/jpeg"):
        return None
    from PIL import Image, ImageFile

    try:
        with Image.open(io.BytesIO(data)) as picture:
            if kind == "image/png":
                picture.verify()
                return None
            picture.draft("L", (max(1, picture.width // 8), max(1, picture.height // 8)))
            with _TRUNCATION:  # with Pillow's switch on, a cut JPEG would load with grey rows
                allowed, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
                try:
                    picture.load()
                finally:
                    ImageFile.LOAD_TRUNCATED_IMAGES = allowed
    except Exception as exc:  # Pillow raises what its readers raise
        return f"a damaged picture ({_complaint(exc)})"
    return None


def _complaint(exc: Exception) -> str:
    """Pillow's complaint, without the in-memory file it may name (by an address that
    differs from run to run)."""
    return without_addresses(f"{type(exc).__name__}: {exc}").replace(" <_io.BytesIO object>", "")


class Assets:
    """The `asset()` template helper of one game; problems are collected for the renderer."""

    def __init__(self, game: "GameContent"):
        self.game = game
        self.uris: dict[str, str] = {}
        self.problems: list[tuple[str, Path | None, int | None]] = []
        # the names asked for since the last start(), in order, each with the template line that first asked
        self.used: dict[str, tuple[Path | None, int | None]] = {}
        self.pixels: dict[str, tuple[int, int]] = {}  # a raster picture's width and height, by name (pnp/render/sharpness.py)
        self.turned: dict[str, int] = {}  # a JPEG's EXIF orientation, by name, when a viewer turns it (TURNS)
        self._prints: dict[str, str] = {}

    def __call__(self, name: str) -> Markup:
        name = str(name)
        if name not in self.used:
            self.used[name] = calling_template()
        uri, problem = self._load(name)
        if problem is not None:
            self.problems.append((problem, *calling_template()))
        return Markup(uri or "")

    def uri(self, name: str) -> str | None:
        """The data URI `asset(name)` gives now; None when it would be refused (noted nowhere:
        the build cache then renders the face, which reports it)."""
        return self._load(name)[0]

    def _load(self, name: str) -> tuple[str | None, str | None]:
        """The data URI of a picture (read once a build), or what is wrong with it."""
        if name in self.uris:
            return self.uris[name], None
        where = f"content/{self.game.name}/ or assets/"
        try:
            path = self.game.resolve_file(name, what="image")
            data = project_files.read_bytes(self.game.project.root, path, None, "image", PICTURES) if path is not None else b""
        except PnpError as exc:
            return None, str(exc.errors[0].message if isinstance(exc.errors[0], ContentError) else exc.errors[0])
        if path is None:
            return None, f"image not found: {name!r} (looked in {where}){self.game.near_file(name)}"
        kind = media_type(data)
        if kind is None:
            return None, f"cannot use {name!r} as an image: expected a PNG, JPEG or SVG file"
        refused = oversize(data, kind) or damaged(data, kind)
        if refused:
            return None, f"image {name!r}: {refused}"
        self.uris[name] = f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
        if kind != "image/svg+xml":  # vector art is sharp at any size
            self.pixels[name] = raster_size(data)
        if kind == "image/jpeg" and (turn := orientation(data)) in TURNS:
            self.turned[name] = turn
        return self.uris[name], None

    def drawn(self) -> dict[str, tuple[str, tuple[int, int], Path | None, int | None]]:
        """The raster pictures this face asked for, by data URI: name, pixels, and the template line that asked."""
        return {self.uris[name]: (name, self.pixels[name], *at) for name, at in self.used.items() if name in self.pixels}

    def take(self) -> list[tuple[str, Path | None, int | None]]:
        found, self.problems = self.problems, []
        return found

    def start(self) -> None:
        """A new face: forget the problems and names of the last one."""
        self.problems, self.used = [], {}

    def fingerprint(self, name: str) -> str:
        """What `asset(name)` reads now: the file it resolves to and its bytes, as a digest
        (the build cache's witness of a face's art); "" when it is missing or refused."""
        if name not in self._prints:
            h = hashlib.sha256()
            try:
                path = self.game.resolve_file(name, what="image")
                if path is not None:
                    h.update(path.relative_to(self.game.project.root).as_posix().encode() + b"\0")
                    h.update(project_files.read_bytes(self.game.project.root, path, None, "image", PICTURES))
            except (PnpError, OSError, ValueError):
                path = None
            self._prints[name] = h.hexdigest()[:32] if path is not None else ""
        return self._prints[name]
