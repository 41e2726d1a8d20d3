"""Rasterise face SVGs to PNG with resvg (no native libraries needed).

resvg is fed the game's font files (pnp's Liberation Sans unless the game names its own)
and never the system's, exactly as the PDF engine is, so a PNG, a TTS sheet and a PDF
draw the same letters everywhere. The fonts are part of every PNG's cache key.
"""

from __future__ import annotations

import io
import struct
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable

from ..errors import PnpError
from ..files import Planned, digest
from ..load.fonts import DEFAULT, Fonts
from ..render.hrefs import refused
from .engine_jobs import ROOT as ENGINE_ROOT

if TYPE_CHECKING:
    from PIL import Image

    from ..render.faces import RenderedComponent


def settings(fonts: Fonts = DEFAULT) -> str:
    """What, besides the SVG and the size, decides the pixels (for cache keys)."""
    import resvg_py

    return f"resvg-py {getattr(resvg_py, '__version__', '?')}; fonts {fonts.digest}"


def svg_to_png(svg: str, dpi: float, fonts: Fonts = DEFAULT, where: str = "a face to draw as PNG") -> bytes:
    """PNG bytes of `svg` (`where`: what it is, for an error) at its physical size and `dpi`."""
    import resvg_py

    refused(svg, where)  # resvg would read the files it names
    try:
        # resources_dir: pnp's own font folder, never the current folder (and the face names no file)
        png = resvg_py.svg_to_bytes(svg_string=svg, dpi=float(dpi), skip_system_fonts=True, font_files=[str(p) for p in fonts.files],
                                    resources_dir=str(ENGINE_ROOT),
                                    font_family=fonts.family, sans_serif_family=fonts.family)
    except ValueError as exc:  # an SVG resvg refuses (malformed, or past its limits: a `<use>` bomb)
        raise PnpError(f"{where}: resvg could not draw it: {exc}") from None
    return with_dpi(bytes(png), dpi)


def svg_to_image(svg: str, dpi: float, fonts: Fonts = DEFAULT, where: str = "a face to draw") -> "Image.Image":
    from PIL import Image

    image = Image.open(io.BytesIO(svg_to_png(svg, dpi, fonts, where)))
    image.load()
    return image


def with_dpi(png: bytes, dpi: float) -> bytes:
    """The PNG with a pHYs chunk after its header, so image programs print it at its
    physical size (resvg writes none): pypng moves the chunks as they are, the pixels are
    not encoded again."""
    import png as pypng

    ppm = round(dpi / 0.0254)  # pixels a metre
    chunks = list(pypng.Reader(bytes=png).chunks())
    chunks.insert(1, (b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))  # 1: the unit is the metre
    out = io.BytesIO()
    pypng.write_chunks(out, chunks)
    return out.getvalue()


def png_files(rendered: list["RenderedComponent"], dpi: int, title: str) -> dict[str, Planned]:
    """`png/<component>/<face>.png` for every face, at `dpi` (of the game `title`)."""
    return of_game(title, {
        f"png/{face.component}/{face.name}.png": Planned(digest("png", settings(face.fonts), dpi, face.svg),
                                                         partial(svg_to_png, face.svg, dpi, face.fonts, f"face {face.component}/{face.name}"))
        for comp in rendered
        for face in comp.faces
    })


def of_game(title: str, files: dict[str, Planned]) -> dict[str, Planned]:
    """`files` whose errors (a face resvg could not draw) name the game `title` first."""
    return {rel: replace(plan, make=partial(_of_game, title, plan.make)) for rel, plan in files.items()}


def _of_game(title: str, make: Callable[[], bytes]) -> bytes:
    try:
        return make()
    except PnpError as exc:
        raise PnpError([f"{title}: {e}" for e in exc.errors]) from None
