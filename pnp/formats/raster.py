"""Rasterise face SVGs to PNG with resvg (no native libraries needed).

resvg is fed the game's font files (pnp's Liberation Sans unless the game names its own)
and never the system's, exactly as the PDF engine is, so a PNG, a TTS sheet and a PDF
draw the same letters everywhere. The fonts are part of every PNG's cache key.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable

from ..errors import PnpError
from ..files import Planned, digest
from ..limits import RASTER
from ..load.fonts import DEFAULT, Fonts
from ..render.hrefs import refused
from .engine_jobs import PANIC_HINT, ROOT as ENGINE_ROOT, is_panic, panic_text

if TYPE_CHECKING:
    from PIL import Image

    from ..load.content import GameContent
    from ..render.faces import Face, RenderedComponent


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
    except BaseException as exc:  # the renderer's own bug: pyo3's PanicException is no Exception
        if not is_panic(exc):
            raise
        raise PnpError(f"{where}: resvg failed drawing it ({panic_text(exc)}); {PANIC_HINT}") from None
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


class TooManyPixels(PnpError):
    """An image of component `component` (its id) past the pixel limit, found before it is
    drawn (`check_pixels`); `located` places it at the component's `key` in game.yaml."""

    def __init__(self, component: str, key: str, message: str):
        super().__init__(message)
        self.component, self.key = component, key


def check_pixels(face: "Face", dpi: float, what: str) -> None:
    """Refuse to draw `face` with its bleed at `dpi` as `what` (a PNG, ...) when that image
    has more pixels than the limit (resvg would abort on the memory, or take it all)."""
    limit = RASTER["pixels"]
    width, height = (math.ceil((side + 2 * face.bleed) / 25.4 * dpi) for side in (face.width, face.height))
    if width * height <= limit:
        return
    key = "bleed" if 2 * face.bleed > max(face.width, face.height) else "size"  # what makes it big (a component's own bleed)
    raise TooManyPixels(face.component, key, (
        f"{face.component!r}: {what} of {face.width + 2 * face.bleed:g} x {face.height + 2 * face.bleed:g} mm (with its bleed) "
        f"at {dpi:.0f} dpi is {width:,} x {height:,} pixels ({width * height / 1e6:,.0f} million), more than {limit:,}, "
        f"{RASTER.hint('pixels')}: expected a lower --dpi (or `dpi:` in pnp.yaml) or a smaller piece"))


def located(game: "GameContent", exc: TooManyPixels) -> PnpError:
    """`exc` at its component's size (or own bleed) in game.yaml."""
    index, comp = next((i, comp) for i, comp in enumerate(game.manifest.components) if comp.id == exc.component)
    key = exc.key if exc.key == "size" or comp.bleed is not None else "size"
    return PnpError(game.manifest_doc.error(("components", index, key), str(exc)))


def png_files(rendered: list["RenderedComponent"], dpi: int, title: str) -> dict[str, Planned]:
    """`png/<component>/<face>.png` for every face, at `dpi` (of the game `title`); an image
    past the pixel limit is refused first (`TooManyPixels`)."""
    for comp in rendered:
        for face in comp.faces[:1]:  # a component's faces are all one size
            check_pixels(face, dpi, "a PNG")
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
