"""Vector glyphs for Dietrick-taking templates: the suit icons and the two score icons.

Each glyph is drawn in a 100 x 100 box and placed with a transform, so templates never
depend on a font having the symbol. All shapes are plain paths and strokes that both
the SVG renderers and the PDF converter (svglib) draw the same way.
"""

from __future__ import annotations

from markupsafe import Markup

from pnp.api import num

# name -> SVG elements in the 100 x 100 box; {c} is the glyph colour, {bg} the colour
# used for cut-out details (white lines inside a silhouette)
GLYPHS: dict[str, str] = {
    "meat": (
        '<path d="M 16 44 C 10 20 36 4 60 14 C 80 24 78 50 62 62 C 52 70 40 72 30 68 C 22 64 18 56 16 44 Z" fill="{c}"/>'
        '<path d="M 56 60 L 76 80" stroke="{c}" stroke-width="11" stroke-linecap="round"/>'
        '<circle cx="86" cy="78" r="8" fill="{c}"/><circle cx="78" cy="88" r="8" fill="{c}"/>'
        '<path d="M 30 30 C 34 22 42 18 50 18" fill="none" stroke="{bg}" stroke-width="4" stroke-linecap="round"/>'
    ),
    "vegetable": (
        '<path d="M 40 30 C 50 22 64 26 70 38 C 72 42 70 46 66 50 L 22 94 C 18 97 14 94 16 90 Z" fill="{c}"/>'
        '<path d="M 58 30 C 56 16 62 6 70 2 C 72 12 68 22 62 30 Z" fill="{c}"/>'
        '<path d="M 62 34 C 72 24 84 22 96 26 C 88 34 78 38 66 38 Z" fill="{c}"/>'
        '<path d="M 62 30 C 70 18 82 12 92 10 C 86 20 78 28 66 34 Z" fill="{c}"/>'
        '<path d="M 36 52 L 46 58 M 30 66 L 38 70 M 46 42 L 54 48" stroke="{bg}" stroke-width="3.5" stroke-linecap="round"/>'
    ),
    "shirt": (
        '<path d="M 32 12 L 42 12 C 44 20 56 20 58 12 L 68 12 L 94 32 L 82 48 L 72 42 L 72 90 L 28 90 '
        'L 28 42 L 18 48 L 6 32 Z" fill="{c}" stroke="{c}" stroke-width="2" stroke-linejoin="round"/>'
        '<path d="M 28 42 L 28 36 M 72 42 L 72 36" stroke="{bg}" stroke-width="3" stroke-linecap="round"/>'
    ),
    "shoes": (
        '<path d="M 6 74 L 8 42 C 8 36 14 34 20 38 C 28 44 38 46 46 40 L 52 30 C 56 26 62 28 64 34 '
        'L 70 48 C 76 56 86 58 92 62 C 98 66 98 72 96 78 L 6 78 Z" fill="{c}" stroke="{c}" stroke-width="2" stroke-linejoin="round"/>'
        '<path d="M 10 70 L 94 70" stroke="{bg}" stroke-width="3.5"/>'
        '<path d="M 50 44 L 58 42 M 54 52 L 62 50" stroke="{bg}" stroke-width="3.5" stroke-linecap="round"/>'
    ),
    "runner": (
        '<circle cx="64" cy="14" r="10" fill="{c}"/>'
        '<path d="M 58 32 L 46 60 M 56 36 L 70 48 L 84 42 M 56 36 L 40 42 L 30 32 '
        'M 46 60 L 64 72 L 60 92 M 46 60 L 34 76 L 14 76" fill="none" stroke="{c}" stroke-width="10" '
        'stroke-linecap="round" stroke-linejoin="round"/>'
    ),
    "fork": (
        '<path d="M 14 6 L 19 6 L 19 30 L 24 30 L 24 6 L 29 6 L 29 30 L 34 30 L 34 6 L 39 6 L 39 36 '
        'C 39 44 35 48 31 49 L 31 90 C 31 95 22 95 22 90 L 22 49 C 18 48 14 44 14 36 Z" fill="{c}"/>'
        '<path d="M 62 6 C 84 16 88 36 82 56 L 72 56 L 72 90 C 72 95 63 95 63 90 L 63 56 L 62 56 Z" fill="{c}"/>'
    ),
}


def glyph(name: str, cx: float, cy: float, size: float, colour: str, background: str = "#ffffff", turn: float = 0) -> Markup:
    """The glyph `name`, `size` mm square, centred on (cx, cy), turned by `turn` degrees."""
    body = GLYPHS[name].format(c=colour, bg=background)
    scale = size / 100
    rotate = f" rotate({num(turn)})" if turn else ""
    return Markup(
        f'<g transform="translate({num(cx)},{num(cy)}){rotate} scale({num(scale)}) translate(-50,-50)">{body}</g>'
    )
