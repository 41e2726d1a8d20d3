"""Rasterise face SVGs to PNG with resvg (no native libraries needed).

Faces name `Helvetica, Arial, sans-serif`. Where neither Helvetica nor Arial is installed,
the generic sans-serif is pointed at a font with the same metrics (Liberation Sans) so text
fits as it does in the PDF, falling back to DejaVu Sans (wider) when that is missing too.
The font chosen is part of every PNG's cache key.
"""

from __future__ import annotations

import io
import os
import struct
import zlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .cache import Planned, digest

if TYPE_CHECKING:
    from PIL import Image

    from .render import RenderedComponent

# where resvg's font database looks for system fonts, per platform
FONT_DIRS = [
    "/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts",
    "/Library/Fonts", "/System/Library/Fonts", "~/Library/Fonts",
    os.path.join(os.environ.get("WINDIR", r"C:\Windows"), "Fonts"),
]
# (file name prefix, family to ask for; None = the SVG's own list already finds it)
FONT_CHOICES = [("helvetica", None), ("arial", None), ("liberationsans-", "Liberation Sans"), ("dejavusans", "DejaVu Sans")]


@lru_cache(maxsize=1)
def sans_serif_family() -> str | None:
    """The family to use for `sans-serif`, or None when Helvetica or Arial is installed."""
    names: set[str] = set()
    for folder in FONT_DIRS:
        root = Path(folder).expanduser()
        if root.is_dir():
            names.update(p.name.lower() for p in root.rglob("*") if p.suffix.lower() in {".ttf", ".otf", ".ttc"})
    for prefix, family in FONT_CHOICES:
        if any(n.startswith(prefix) for n in names):
            return family
    return None


def settings() -> str:
    """What, besides the SVG and the size, decides the pixels (for cache keys)."""
    import resvg_py

    return f"resvg-py {getattr(resvg_py, '__version__', '?')}; sans-serif {sans_serif_family()}"


def svg_to_png(svg: str, dpi: float) -> bytes:
    """PNG bytes of `svg` at its physical size and `dpi`."""
    import resvg_py

    family = sans_serif_family()
    extra = {"sans_serif_family": family} if family else {}
    return with_dpi(bytes(resvg_py.svg_to_bytes(svg_string=svg, dpi=float(dpi), **extra)), dpi)


def svg_to_image(svg: str, dpi: float) -> "Image.Image":
    from PIL import Image

    image = Image.open(io.BytesIO(svg_to_png(svg, dpi)))
    image.load()
    return image


def with_dpi(png: bytes, dpi: float) -> bytes:
    """Add a pHYs chunk so image programs print the PNG at its physical size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_of_ihdr = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, CRC
    return png[:end_of_ihdr] + chunk + png[end_of_ihdr:]


def png_files(rendered: list["RenderedComponent"], dpi: int) -> dict[str, Planned]:
    """`png/<component>/<face>.png` for every face, at `dpi`."""
    setup = settings()
    return {
        f"png/{face.component}/{face.name}.png": Planned(digest("png", setup, dpi, face.svg), lambda svg=face.svg: svg_to_png(svg, dpi))
        for comp in rendered
        for face in comp.faces
    }
