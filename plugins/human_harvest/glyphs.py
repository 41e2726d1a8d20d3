"""Vector glyphs for the piecepack and the Human Harvest extras.

Every glyph is one or more `<path>` elements drawn in a 100 x 100 box centred on (50, 50)
and placed with a transform, so no symbol depends on a font. Geometry that is easier to
compute than to type (sun rays, the crescent, gear teeth) is computed once, here.
"""

from __future__ import annotations

import math
from functools import lru_cache

from markupsafe import Markup

from pnp.api import num


def _f(v: float) -> str:
    return num(round(v, 2))


def _circle(cx: float, cy: float, r: float) -> str:
    """A circle as a closed path of two arcs."""
    return (f"M {_f(cx - r)} {_f(cy)} A {_f(r)} {_f(r)} 0 1 0 {_f(cx + r)} {_f(cy)} "
            f"A {_f(r)} {_f(r)} 0 1 0 {_f(cx - r)} {_f(cy)} Z")


def _polar(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return cx + r * math.sin(a), cy - r * math.cos(a)  # 0 degrees = straight up


def _sun() -> str:
    rays = []
    for k in range(8):
        a = k * 45
        x1, y1 = _polar(50, 50, 29, a - 11)
        x2, y2 = _polar(50, 50, 47, a)
        x3, y3 = _polar(50, 50, 29, a + 11)
        rays.append(f"M {_f(x1)} {_f(y1)} L {_f(x2)} {_f(y2)} L {_f(x3)} {_f(y3)} Z")
    return _circle(50, 50, 24) + " " + " ".join(rays)


def _moon() -> str:
    """A crescent: the outer disc minus an offset inner disc, traced as two arcs."""
    (ax, ay, ar), (bx, by, br) = (46, 52, 40), (64, 40, 33)
    d = math.hypot(bx - ax, by - ay)
    along = (ar * ar - br * br + d * d) / (2 * d)
    h = math.sqrt(ar * ar - along * along)
    mx, my = ax + along * (bx - ax) / d, ay + along * (by - ay) / d
    ux, uy = -(by - ay) / d, (bx - ax) / d
    p1 = (mx + h * ux, my + h * uy)
    p2 = (mx - h * ux, my - h * uy)
    # the outer arc goes the long way round, away from the inner disc; the inner arc
    # returns along the inner circle's side that lies inside the outer disc
    return (f"M {_f(p1[0])} {_f(p1[1])} A {ar} {ar} 0 1 1 {_f(p2[0])} {_f(p2[1])} "
            f"A {br} {br} 0 0 0 {_f(p1[0])} {_f(p1[1])} Z")


def _gear(teeth: int = 10, outer: float = 46, inner: float = 37, hole: float = 14) -> str:
    pts = []
    step = 360 / teeth
    for k in range(teeth):
        a = k * step
        for r, da in ((inner, -step * 0.5), (inner, -step * 0.22), (outer, -step * 0.15), (outer, step * 0.15), (inner, step * 0.22)):
            pts.append(_polar(50, 50, r, a + da))
    body = "M " + " L ".join(f"{_f(x)} {_f(y)}" for x, y in pts) + " Z"
    return body + " " + _circle(50, 50, hole)


# name -> the glyph's sub-paths; each is drawn as its own <path>, so overlapping parts
# simply paint over each other whatever their winding
GLYPH_PATHS: dict[str, tuple[str, ...]] = {
    "crown": (
        "M 14 76 L 8 28 L 32 50 L 50 16 L 68 50 L 92 28 L 86 76 Z",
        "M 14 82 L 86 82 L 86 92 L 14 92 Z",
        _circle(8, 26, 6), _circle(50, 13, 6), _circle(92, 26, 6),
    ),
    "arms": (  # a fleur-de-lis
        "M 50 4 C 62 16 66 34 56 56 L 44 56 C 34 34 38 16 50 4 Z",
        "M 46 56 C 34 60 16 58 10 44 C 6 32 16 22 28 26 C 22 30 20 40 28 46 C 34 50 40 52 46 50 Z",
        "M 54 56 C 66 60 84 58 90 44 C 94 32 84 22 72 26 C 78 30 80 40 72 46 C 66 50 60 52 54 50 Z",
        "M 24 56 L 76 56 L 76 65 L 24 65 Z",
        "M 44 65 L 56 65 L 50 84 Z",
        "M 46 65 C 44 76 36 86 24 92 C 28 82 34 72 38 65 Z",
        "M 54 65 C 56 76 64 86 76 92 C 72 82 66 72 62 65 Z",
    ),
    "human": (_circle(50, 26, 18), "M 16 94 C 16 64 30 50 50 50 C 70 50 84 64 84 94 Z"),
    "drone": (
        "M 22 28 L 28 22 L 78 72 L 72 78 Z", "M 72 22 L 78 28 L 28 78 L 22 72 Z",
        "M 38 38 L 62 38 L 62 62 L 38 62 Z",
        *(_circle(x, y, 13) for x, y in ((20, 20), (80, 20), (20, 80), (80, 80))),
    ),
    "dna": (
        "M 26 4 C 26 30 74 30 74 50 C 74 70 26 70 26 96 L 34 96 C 34 74 82 74 82 50 C 82 26 34 26 34 4 Z",
        "M 74 4 C 74 30 26 30 26 50 C 26 70 74 70 74 96 L 66 96 C 66 74 18 74 18 50 C 18 26 66 26 66 4 Z",
        "M 32 14 L 68 14 L 68 19 L 32 19 Z", "M 32 81 L 68 81 L 68 86 L 32 86 Z",
        "M 22 47.5 L 78 47.5 L 78 52.5 L 22 52.5 Z",
    ),
    "house": ("M 50 8 L 94 46 L 82 46 L 82 92 L 58 92 L 58 66 L 42 66 L 42 92 L 18 92 L 18 46 L 6 46 Z",),
    "star": ("M 50 6 L 61 38 L 95 38 L 68 58 L 78 92 L 50 72 L 22 92 L 32 58 L 5 38 L 39 38 Z",),
    "pawn": (  # a pawn silhouette in a 100 x 140 box; see `pawn()`
        _circle(50, 22, 16),
        "M 32 40 L 68 40 L 68 47 L 60 47 C 62 78 74 100 88 114 L 88 132 L 12 132 L 12 114 C 26 100 38 78 40 47 L 32 47 Z",
    ),
}


@lru_cache(maxsize=None)
def paths(name: str) -> tuple[str, ...]:
    """The sub-paths of a glyph (computed glyphs are built on first use)."""
    computed = {"sun": _sun, "moon": _moon, "gear": _gear}
    if name in computed:
        return (computed[name](),)
    return GLYPH_PATHS[name]


HOLES = frozenset({"gear"})  # glyphs with a hole cut by an inner sub-path
GLYPHS = frozenset({"sun", "moon", "gear", *GLYPH_PATHS})
SUIT_GLYPHS = frozenset({"sun", "moon", "crown", "arms"})


def glyph(name: str, cx: float, cy: float, size: float, colour: str, turn: float = 0, box_height: float = 100) -> Markup:
    """Glyph `name` as filled paths, `size` mm wide, centred on (cx, cy) of its box."""
    scale = size / 100
    rotate = f" rotate({num(turn)})" if turn else ""
    rule = ' fill-rule="evenodd"' if name in HOLES else ""
    body = "".join(f'<path d="{d}"/>' for d in paths(name))
    return Markup(
        f'<g transform="translate({num(cx)},{num(cy)}){rotate} scale({num(scale)}) translate(-50,{num(-box_height / 2)})" '
        f'fill="{colour}"{rule}>{body}</g>'
    )


def pawn(cx: float, cy: float, height: float, colour: str) -> Markup:
    """A pawn silhouette `height` mm tall (its box is 100 wide, 140 tall), centred on (cx, cy)."""
    return glyph("pawn", cx, cy, height * 100 / 140, colour, box_height=140)
