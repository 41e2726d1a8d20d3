"""Vector glyphs for the Tasty Humans templates: tiles, classes, intel, banners, crowns and
the small diagrams of where each leader tile looks when it scores.

Every helper draws at a position and size in millimetres and returns `Markup`. Each glyph
is its own silhouette *and* carries a letter, so nothing depends on colour: the pale fills
are a bonus for colour printers and turn into light greys on a black-and-white one.
Silhouettes are drawn in a 100 x 100 box and scaled into place.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from markupsafe import Markup, escape

from pnp.api import num

INK = "#1f1f1f"
PAPER = "#ffffff"

# tile type -> (pale fill, strong accent); unknown types fall back to greys. The accent prints
# a basic tile's name (small, bold) on its tint (mix(fill, 0.55)): at least 4.5:1 (the armor,
# boot and hand accents were 4.2, 4.3 and 3.6:1, each darkened the least that passes)
TILE_COLOURS: dict[str, tuple[str, str]] = {
    "helmet": ("#cfdcea", "#4a6a8c"),
    "armor": ("#f3d3ab", "#995e28"),
    "boot": ("#cfe5c2", "#4a7938"),
    "hand": ("#f6e7a6", "#876d12"),
    "damage": ("#f2b8b0", "#b3261e"),
    "leader": ("#e2d2ef", "#6a3d8f"),
}
GREY = ("#e4e4e4", "#666666")

# silhouettes in a 100 x 100 box; (path, letter centre x, letter centre y, letter size)
TILE_SHAPES: dict[str, tuple[str, float, float, float]] = {
    # a closed helm with a face opening at the bottom
    "helmet": ("M16,88 L16,50 C16,24 31,10 50,10 C69,10 84,24 84,50 L84,88 L63,88 L63,72 "
               "L37,72 L37,88 Z", 50, 45, 36),
    # a cuirass: broad shoulders, neck curve, narrow waist over banded tassets
    "armor": ("M12,16 L36,9 Q50,22 64,9 L88,16 L83,48 Q80,62 72,67 L78,91 L22,91 L28,67 "
              "Q20,62 17,48 Z", 50, 41, 32),
    # a boot: tall shaft, toe pointing right
    "boot": ("M22,8 L58,8 L58,54 L82,62 Q94,66 94,78 L94,90 L22,90 Z", 40, 46, 31),
    # an open glove: four fingers and a thumb
    "hand": ("M28,92 L28,60 L12,46 Q7,39 13,34 Q19,30 25,35 L31,41 L31,22 Q31,15 37.5,15 "
             "Q44,15 44,22 L44,14 Q44,7 50.5,7 Q57,7 57,14 L57,18 Q57,11 63.5,11 Q70,11 70,18 "
             "L70,27 Q70,21 76,21 Q82,21 82,27 L82,64 Q82,82 70,92 Z", 56, 64, 34),
    # a jagged burst
    "damage": ("M50,3 L59,27 L82,12 L73,37 L97,42 L76,57 L92,79 L66,73 L62,97 L49,77 L34,96 "
               "L32,72 L6,79 L23,58 L3,42 L27,37 L17,12 L40,27 Z", 50, 52, 34),
    # a crown (leader tiles)
    "leader": ("M12,80 L8,28 L31,50 L50,14 L69,50 L92,28 L88,80 Z", 50, 60, 32),
}
GLOVE_SEAMS = "M44,22 L44,44 M57,18 L57,44 M70,27 L70,46"
ARMOR_SEAMS = "M28,67 L72,67 M25,79 L75,79"  # the bands of the tassets

# class id -> silhouette drawn inside a round badge (filled with ink)
CLASS_SHAPES: dict[str, str] = {
    # a sword, point up, with cross guard and pommel
    "swordsman": ("M50,5 L56,14 L56,48 L68,48 L68,55 L55,55 L55,64 L45,64 L45,55 L32,55 "
                  "L32,48 L44,48 L44,14 Z M50,64 m-5,3 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z"),
    # a bow with its string and an arrow
    "archer": ("M33,7 Q80,38 33,71 L30,67 Q70,38 30,11 Z M31,9 L33,9 L33,69 L31,69 Z "
               "M18,37 L62,37 L62,31 L76,39 L62,47 L62,41 L18,41 Z M14,31 L22,37 L14,37 Z "
               "M14,47 L22,41 L14,41 Z"),
    # a pointed hat with a brim and a star cut-out
    "wizard": ("M52,4 L66,52 L84,58 Q50,70 16,58 L34,52 Z "
               "M48,26 L50.5,32 L57,32 L52,36 L54,42 L48,38 L42,42 L44,36 L39,32 L45.5,32 Z"),
    # a banner on a pole
    "captain": "M27,6 L33,6 L33,72 L27,72 Z M33,9 L78,9 L66,24 L78,39 L33,39 Z",
    # a cross inside a halo
    "cleric": ("M50,8 a30,30 0 1 0 0.01,0 Z M50,14 a24,24 0 1 1 -0.01,0 Z "
               "M45,18 L55,18 L55,32 L67,32 L67,41 L55,41 L55,62 L45,62 L45,41 L33,41 L33,32 "
               "L45,32 Z"),
    # a pitchfork
    "peasant": ("M30,8 L36,8 L36,34 L47,34 L47,6 L53,6 L53,34 L64,34 L64,8 L70,8 L70,40 "
                "L53,40 L53,74 L47,74 L47,40 L30,40 Z"),
}

EYE = "M4,50 Q50,2 96,50 Q50,98 4,50 Z"
ARROW = "M4,50 L24,32 L24,43 L76,43 L76,32 L96,50 L76,68 L76,57 L24,57 L24,68 Z"  # double-headed
CROWN = "M12,80 L8,28 L31,50 L50,14 L69,50 L92,28 L88,80 Z M12,84 L88,84 L88,92 L12,92 Z"


def mix(colour: str, amount: float, other: str = PAPER) -> str:
    """`colour` moved `amount` (0..1) of the way to `other`: a solid tint, because the PDF
    converter does not honour opacity."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def tile_colour(kind: str) -> tuple[str, str]:
    """(pale fill, strong accent) of a tile type; grey for types without their own colours."""
    return TILE_COLOURS.get(kind, GREY)


def _box(cx: float, cy: float, size: float) -> str:
    """The transform that maps the 100 x 100 glyph box onto a `size` square centred at (cx, cy)."""
    return f"translate({num(cx - size / 2)} {num(cy - size / 2)}) scale({num(size / 100)})"


def _text(x: float, y: float, text: Any, size: float, fill: str = INK, anchor: str = "middle", weight: str = "bold") -> str:
    """A single line of text whose *centre* of capitals is at y (svglib has no baseline control)."""
    return (f'<text x="{num(x)}" y="{num(y + size * 0.36)}" font-size="{num(size)}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{escape(str(text))}</text>')


def tile_icon(kind: str, cx: float, cy: float, size: float, letter: str, colour: bool = True) -> Markup:
    """The silhouette of a tile type with its letter, centred at (cx, cy) in a `size` square."""
    fill = tile_colour(kind)[0] if colour else PAPER
    out = [f'<g transform="{_box(cx, cy, size)}">']
    if kind in TILE_SHAPES:
        path, lx, ly, ls = TILE_SHAPES[kind]
        out.append(f'<path d="{path}" fill="{fill}" stroke="{INK}" stroke-width="4" stroke-linejoin="round"/>')
        seams = {"hand": GLOVE_SEAMS, "armor": ARMOR_SEAMS}.get(kind)
        if seams:
            out.append(f'<path d="{seams}" fill="none" stroke="{INK}" stroke-width="2.5"/>')
    else:  # a type the glyphs do not know yet: a plain disc still carries its letter
        lx, ly, ls = 50, 50, 40
        out.append(f'<circle cx="50" cy="50" r="42" fill="{fill}" stroke="{INK}" stroke-width="4"/>')
    out.append(_text(lx, ly, letter, ls))
    out.append("</g>")
    return Markup("".join(out))


def tile_face(kind: str, x: float, y: float, size: float, letter: str, colour: bool = True, frame: float = 0.35) -> Markup:
    """A whole tile square (top-left x, y): tinted background, frame and the type's icon."""
    fill = mix(tile_colour(kind)[0], 0.55) if colour else PAPER
    r = size * 0.08
    out = [
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" rx="{num(r)}" '
        f'fill="{fill}" stroke="{INK}" stroke-width="{num(frame)}"/>',
        tile_icon(kind, x + size / 2, y + size / 2, size * 0.86, letter, colour),
    ]
    return Markup("".join(out))


def class_icon(klass: str, cx: float, cy: float, size: float, label: str) -> Markup:
    """A round badge with the class silhouette and `label` (e.g. 'Sw') under it."""
    out = [
        f'<g transform="{_box(cx, cy, size)}">',
        '<circle cx="50" cy="50" r="47" fill="#fbf3df" stroke="{0}" stroke-width="4"/>'.format(INK),
    ]
    if klass in CLASS_SHAPES:
        out.append(f'<g transform="translate(14 4) scale(0.72)"><path d="{CLASS_SHAPES[klass]}" fill="{INK}" fill-rule="evenodd"/></g>')
    else:
        out.append(f'<circle cx="50" cy="34" r="18" fill="{INK}"/>')
    out.append(_text(50, 80, label, 22))
    out.append("</g>")
    return Markup("".join(out))


def intel_icon(cx: float, cy: float, size: float) -> Markup:
    """The intel (inside information) icon: an eye with an 'i' in its pupil."""
    return Markup(
        f'<g transform="{_box(cx, cy, size)}">'
        f'<path d="{EYE}" fill="{PAPER}" stroke="{INK}" stroke-width="5" stroke-linejoin="round"/>'
        f'<circle cx="50" cy="50" r="23" fill="{INK}"/>'
        + _text(50, 50, "i", 36, fill=PAPER)
        + "</g>"
    )


def banner_arrow(direction: str, cx: float, cy: float, size: float) -> Markup:
    """A captain's banner: a flag holding a double arrow, horizontal or vertical."""
    turn = ' transform="rotate(90 50 50)"' if direction == "vertical" else ""
    return Markup(
        f'<g transform="{_box(cx, cy, size)}">'
        f'<path d="M6,6 L94,6 L94,94 L50,80 L6,94 Z" fill="#fbe3a0" stroke="{INK}" stroke-width="4" stroke-linejoin="round"/>'
        f'<g transform="translate(12 7) scale(0.76)"><path d="{ARROW}" fill="{INK}"{turn}/></g>'
        "</g>"
    )


def crown(cx: float, cy: float, size: float, fill: str = "#f4c542", stroke: str = INK) -> Markup:
    """A crown (the Village King, and leaders in diagrams)."""
    return Markup(
        f'<g transform="{_box(cx, cy, size)}"><path d="{CROWN}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="5" stroke-linejoin="round"/></g>'
    )


def maw(cx: float, cy: float, w: float, colour: str) -> Markup:
    """A monster's open mouth full of teeth, `w` wide, centred at (cx, cy): board decoration."""
    h = w * 0.55
    y0 = cy - h / 2
    n = 7
    tw = w * 0.8 / n
    tx0 = cx - w * 0.4
    top = " ".join(f"M{num(tx0 + i * tw)},{num(y0 + h * 0.22)} L{num(tx0 + (i + 0.5) * tw)},{num(y0 + h * 0.5)} "
                   f"L{num(tx0 + (i + 1) * tw)},{num(y0 + h * 0.22)} Z" for i in range(n))
    bottom = " ".join(f"M{num(tx0 + (i + 0.5) * tw)},{num(y0 + h * 0.8)} L{num(tx0 + (i + 1) * tw)},{num(y0 + h * 0.55)} "
                      f"L{num(tx0 + (i + 1.5) * tw)},{num(y0 + h * 0.8)} Z" for i in range(n - 1))
    return Markup(
        f'<ellipse cx="{num(cx)}" cy="{num(cy)}" rx="{num(w / 2)}" ry="{num(h / 2)}" fill="{colour}"/>'
        f'<ellipse cx="{num(cx)}" cy="{num(cy)}" rx="{num(w * 0.44)}" ry="{num(h * 0.36)}" fill="#3a1010"/>'
        f'<path d="{top} {bottom}" fill="#fbf6ea"/>'
    )


def empty_icon(cx: float, cy: float, size: float, letter: str = ".") -> Markup:
    """An empty stomach cell: a dashed square with its sheet symbol."""
    s = size * 0.8
    return Markup(
        f'<rect x="{num(cx - s / 2)}" y="{num(cy - s / 2)}" width="{num(s)}" height="{num(s)}" fill="none" '
        f'stroke="{INK}" stroke-width="{num(size * 0.04)}" stroke-dasharray="{num(size * 0.1)} {num(size * 0.08)}"/>'
        + _text(cx, cy - size * 0.12, letter, size * 0.5)
    )


def _mini_grid(x: float, y: float, n: int, cell: float, marks: dict[tuple[int, int], str], centre_icon: str) -> list[str]:
    """An n x n grid of adventurer cards seen from above: the centre card in ink, `marks`
    cells with a damage burst (kind 'damage')."""
    out = [f'<rect x="{num(x)}" y="{num(y)}" width="{num(n * cell)}" height="{num(n * cell)}" fill="{PAPER}" stroke="{INK}" stroke-width="0.25"/>']
    # all cards in one path: svglib (the PDF step) pays per element, not per path segment
    w = cell * 0.8
    cards = " ".join(f"M{num(x + c * cell + cell * 0.1)},{num(y + r * cell + cell * 0.1)} h{num(w)} v{num(w)} h{num(-w)} Z"
                     for r in range(n) for c in range(n))
    out.append(f'<path d="{cards}" fill="#ececec"/>')
    m = n // 2
    out.append(f'<rect x="{num(x + m * cell + cell * 0.1)}" y="{num(y + m * cell + cell * 0.1)}" width="{num(cell * 0.8)}" '
               f'height="{num(cell * 0.8)}" rx="{num(cell * 0.1)}" fill="{INK}"/>')
    out.append(f'<g transform="{_box(x + (m + 0.5) * cell, y + (m + 0.5) * cell, cell * 0.8)}"><g transform="translate(14 4) scale(0.72)">'
               f'<path d="{CLASS_SHAPES[centre_icon]}" fill="{PAPER}" fill-rule="evenodd"/></g></g>')
    for (r, c), kind in marks.items():
        cx, cy = x + (c + 0.5) * cell, y + (r + 0.5) * cell
        out.append(f'<g transform="{_box(cx, cy, cell * 0.95)}"><path d="{TILE_SHAPES["damage"][0]}" fill="{tile_colour("damage")[0]}" '
                   f'stroke="{INK}" stroke-width="6"/></g>')
    return out


def class_effect(klass: str, x: float, y: float, size: float, damage_letter: str = "D") -> Markup:
    """A wordless picture of what a class does, in a `size` square at (x, y): which eaten
    neighbours a swordsman or archer hurts, a wizard's swap, a cleric's healing. Empty for
    classes without one (the captain's banner is drawn by `banner_arrow`)."""
    if klass == "swordsman":
        cell = size / 3
        return Markup("".join(_mini_grid(x, y, 3, cell, {(0, 1): "d", (1, 0): "d", (1, 2): "d", (2, 1): "d"}, "swordsman")))
    if klass == "archer":
        cell = size / 5
        return Markup("".join(_mini_grid(x, y, 5, cell, {(0, 2): "d", (2, 0): "d", (2, 4): "d", (4, 2): "d"}, "archer")))
    if klass == "wizard":
        t = size * 0.42
        y0 = y + size * 0.42
        arc = (f'M{num(x + t * 0.5)},{num(y0 - 0.6)} Q{num(x + size / 2)},{num(y0 - t * 0.9)} {num(x + size - t * 0.5)},{num(y0 - 0.6)}')
        arc2 = (f'M{num(x + size - t * 0.5)},{num(y0 + t + 0.6)} Q{num(x + size / 2)},{num(y0 + t * 1.9)} {num(x + t * 0.5)},{num(y0 + t + 0.6)}')
        return Markup(
            f'<rect x="{num(x)}" y="{num(y0)}" width="{num(t)}" height="{num(t)}" rx="0.6" fill="#ececec" stroke="{INK}" stroke-width="0.3"/>'
            f'<rect x="{num(x + size - t)}" y="{num(y0)}" width="{num(t)}" height="{num(t)}" rx="0.6" fill="{INK}"/>'
            f'<path d="{arc} {arc2}" fill="none" stroke="{INK}" stroke-width="0.45"/>'
            + _arrow_head(x + size / 2, y0 - t * 0.45, x + size - t * 0.5, y0 - 0.6, size * 0.12)
            + _arrow_head(x + size / 2, y0 + t * 1.45, x + t * 0.5, y0 + t + 0.6, size * 0.12)
        )
    if klass == "cleric":
        s = size * 0.74
        cx, cy = x + s / 2, y + size - s / 2
        bx, by, br = x + size - size * 0.2, y + size * 0.2, size * 0.19
        return Markup(
            str(tile_icon("damage", cx, cy, s, damage_letter))
            + f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(br)}" fill="{INK}"/>'
            f'<path d="M{num(bx - br * 0.55)},{num(by)} L{num(bx + br * 0.55)},{num(by)}" stroke="{PAPER}" stroke-width="{num(br * 0.35)}"/>'
        )
    return Markup("")


# ---------------------------------------------------------------- leader diagrams

Cell = tuple[int, int]


class _Diagram:
    """What a leader diagram shows: marked cells of an n x n grid plus line overlays."""

    def __init__(self, n: int):
        self.n = n
        self.centre = (n // 2, n // 2)
        # cell -> (how it is drawn, its letter, what it means: target/leader/damage/scope/any)
        self.cells: dict[Cell, tuple[str, str, str]] = {self.centre: ("self", "", "self")}
        self.paths: list[list[Cell]] = []  # chains, drawn through cell centres
        self.rays: list[Cell] = []  # sight rays from the centre to these cells
        self.frame: tuple[Cell, Cell] | None = None  # a highlighted block of cells

    def mark(self, cells: Iterable[Cell], kind: str, letter: str = "", role: str | None = None) -> None:
        for cell in cells:
            if cell != self.centre:
                self.cells[cell] = (kind, letter, role or kind)

    def line(self) -> list[Cell]:
        r0, c0 = self.centre
        return [(r0, c) for c in range(self.n) if c != c0] + [(r, c0) for r in range(self.n) if r != r0]

    def diagonals(self) -> list[Cell]:
        r0, c0 = self.centre
        return [(r, c) for r in range(self.n) for c in range(self.n)
                if (r, c) != self.centre and abs(r - r0) == abs(c - c0)]


def _symbols(tiles: Any) -> dict[str, str]:
    return {name: t.symbol for name, t in tiles.items()}


def _basic(tiles: Any) -> list[str]:
    return [name for name, t in tiles.items() if t.basic]


def _plan(leader: Any, tiles: Any) -> _Diagram | None:
    """The diagram of a leader's effect, from its kind, type and distance (None: bar chart)."""
    kind, ttype = leader.kind, getattr(leader, "type", None)
    sym = _symbols(tiles)
    letter = sym.get(ttype, "") if ttype else ""
    mark = "leader" if ttype == "leader" else (ttype or "any")
    if kind == "range":
        d = getattr(leader, "distance", None) or 1
        g = _Diagram(2 * d + 1)
        r0, c0 = g.centre
        g.mark(((r, c) for r in range(g.n) for c in range(g.n) if 0 < abs(r - r0) + abs(c - c0) <= d), mark, letter, "target")
        return g
    g = _Diagram(5)
    r0, c0 = g.centre
    if kind == "line":
        g.mark(g.line(), mark, letter, "target")
    elif kind == "diagonal":
        g.mark(g.diagonals(), mark, letter, "target")
    elif kind == "feast":
        g.mark([(r0 - 1, c0), (r0 + 1, c0), (r0, c0 - 1), (r0, c0 + 1)], mark, letter, "target")
    elif kind == "sight":
        ends = [(r0 + 2 * dr, c0 + 2 * dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        g.rays = ends
        g.mark(ends, mark, letter, "target")
    elif kind == "surround-majority":
        g.mark([(r0 + dr, c0 + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)], "any")
        g.frame = ((r0 - 1, c0 - 1), (r0 + 1, c0 + 1))
    elif kind == "leader-line":
        g.mark(g.line(), "scope")
        g.mark([(0, c0), (r0, g.n - 1)], "leader")
    elif kind == "damage-line":
        g.mark(g.line(), "scope")
        g.mark([(r0, 0), (g.n - 1, c0), (1, c0)], "damage", sym.get("damage", ""))
    elif kind == "chain-orthogonal":
        path = [(r0, c0 + 1), (r0 + 1, c0 + 1), (r0 + 1, c0), (r0 + 2, c0), (r0 + 2, c0 - 1)]
        g.mark(path, "any")
        g.paths.append([g.centre, *path])
    elif kind == "chain-diagonal":
        path = [(r0 + 1, c0 + 1), (r0 + 2, c0), (r0 + 1, c0 - 1), (r0, c0 - 2)]
        g.mark(path, "any")
        g.paths.append([g.centre, *path])
    elif kind in ("rows-all-four", "columns-all-four"):
        del g.cells[g.centre]  # these count whole rows or columns, wherever the leader is
        basic = _basic(tiles)
        cells = [(r0, c) for c in range(g.n)] if kind == "rows-all-four" else [(r, c0) for r in range(g.n)]
        for cell, t in zip(cells, basic):
            g.cells[cell] = (t, sym[t], "basic")
        g.frame = (cells[0], cells[-1])
    elif kind in ("least-type", "most-minus-least"):
        return None
    return g


def _cell_markup(g: _Diagram, x: float, y: float, cell: float, key: Cell, kind: str, letter: str, role: str) -> list[str]:
    r, c = key
    cx, cy = x + c * cell, y + r * cell
    rect = f'data-role="{role}" x="{num(cx)}" y="{num(cy)}" width="{num(cell)}" height="{num(cell)}"'
    if kind == "self":
        return [f'<rect class="leader" {rect} fill="{INK}"/>', crown(cx + cell / 2, cy + cell / 2, cell * 0.8, fill=PAPER, stroke=PAPER)]
    if kind == "scope":
        return [f'<rect class="mark" {rect} fill="#d6d6d6"/>']
    if kind == "leader":
        return [f'<rect class="mark" {rect} fill="{tile_colour("leader")[0]}"/>', crown(cx + cell / 2, cy + cell / 2, cell * 0.75, fill=INK)]
    fill = tile_colour(kind)[0] if kind != "any" else "#bdbdbd"
    out = [f'<rect class="mark" {rect} fill="{fill}"/>']
    if letter and cell >= 2.75:  # smaller cells could not hold a 2.2 mm letter
        out.append(_text(cx + cell / 2, cy + cell / 2, letter, max(2.2, cell * 0.7)))
    elif kind == "any":
        out.append(f'<circle cx="{num(cx + cell / 2)}" cy="{num(cy + cell / 2)}" r="{num(cell * 0.16)}" fill="{INK}"/>')
    return out


def _arrow_head(x1: float, y1: float, x2: float, y2: float, size: float) -> str:
    """A filled triangle at (x2, y2) pointing away from (x1, y1)."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    bx, by = x2 - ux * size, y2 - uy * size
    px, py = -uy * size * 0.5, ux * size * 0.5
    return (f'<path d="M{num(x2)},{num(y2)} L{num(bx + px)},{num(by + py)} L{num(bx - px)},{num(by - py)} Z" '
            f'fill="{INK}"/>')


def _grid_markup(g: _Diagram, x: float, y: float, size: float) -> list[str]:
    cell = size / g.n
    out = [f'<rect x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" fill="{PAPER}"/>']
    for key in sorted(g.cells):
        out += _cell_markup(g, x, y, cell, key, *g.cells[key])
    lines = []
    for i in range(g.n + 1):
        p = i * cell
        lines.append(f"M{num(x + p)},{num(y)} L{num(x + p)},{num(y + size)} M{num(x)},{num(y + p)} L{num(x + size)},{num(y + p)}")
    out.append(f'<path d="{" ".join(lines)}" fill="none" stroke="#8a8a8a" stroke-width="{num(cell * 0.05)}"/>')

    def centre(rc: Cell) -> tuple[float, float]:
        return x + (rc[1] + 0.5) * cell, y + (rc[0] + 0.5) * cell

    w = num(cell * 0.12)
    for end in g.rays:
        (sx, sy), (ex, ey) = centre(g.centre), centre(end)
        # start at the leader's edge and stop before the end cell's letter
        fx, fy = sx + (ex - sx) * 0.22, sy + (ey - sy) * 0.22
        tx, ty = sx + (ex - sx) * 0.68, sy + (ey - sy) * 0.68
        out.append(f'<path d="M{num(fx)},{num(fy)} L{num(tx)},{num(ty)}" stroke="{INK}" stroke-width="{w}"/>')
        out.append(_arrow_head(fx, fy, tx, ty, cell * 0.42))
    for path in g.paths:
        pts = [centre(rc) for rc in path]
        d = " ".join(("M" if i == 0 else "L") + f"{num(px)},{num(py)}" for i, (px, py) in enumerate(pts[:-1]))
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        tip = (ax + (bx - ax) * 0.8, ay + (by - ay) * 0.8)
        d += f" L{num(tip[0])},{num(tip[1])}"
        out.append(f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="{num(cell * 0.16)}" stroke-linejoin="round"/>')
        out.append(_arrow_head(ax, ay, tip[0] + (bx - ax) * 0.12, tip[1] + (by - ay) * 0.12, cell * 0.45))
    if g.frame:
        (r1, c1), (r2, c2) = g.frame
        out.append(f'<rect x="{num(x + c1 * cell)}" y="{num(y + r1 * cell)}" width="{num((c2 - c1 + 1) * cell)}" '
                   f'height="{num((r2 - r1 + 1) * cell)}" fill="none" stroke="{INK}" stroke-width="{num(cell * 0.14)}"/>')
    out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" fill="none" stroke="{INK}" stroke-width="{num(cell * 0.1)}"/>')
    return out


# example counts of the basic types in a bar chart (least-type, most-minus-least)
BAR_EXAMPLE = (3, 5, 2, 4)


def _bars_markup(kind: str, tiles: Any, x: float, y: float, size: float) -> list[str]:
    """Type counts as bars, the scarcest (and for most-minus-least the most common) in ink."""
    basic = _basic(tiles)
    sym = _symbols(tiles)
    counts = [BAR_EXAMPLE[i % len(BAR_EXAMPLE)] for i in range(len(basic))]
    lo, hi = min(counts), max(counts)
    n = len(basic)
    slot = size / n
    label = max(2.2, slot * 0.55)
    base = y + size - label * 1.3
    top = y + label * 1.3
    out = [f'<rect x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" fill="{PAPER}" stroke="{INK}" stroke-width="0.3"/>']
    for i, (t, count) in enumerate(zip(basic, counts)):
        h = (base - top) * count / hi
        bx = x + i * slot + slot * 0.18
        strong = count == lo or (kind == "most-minus-least" and count == hi)
        fill = INK if strong else tile_colour(t)[0]
        out.append(f'<rect class="bar" x="{num(bx)}" y="{num(base - h)}" width="{num(slot * 0.64)}" height="{num(h)}" '
                   f'fill="{fill}" stroke="{INK}" stroke-width="0.25"/>')
        out.append(_text(x + (i + 0.5) * slot, base + label * 0.65, sym[t], label))
        if kind == "most-minus-least" and count in (lo, hi):
            out.append(_text(x + (i + 0.5) * slot, base - h - label * 0.7, "+" if count == hi else "\u2212", label))
    return out


def leader_diagram(leader: Any, x: float, y: float, size: float, tiles: Any) -> Markup:
    """Where `leader` looks when it scores, as a `size` square at (x, y): generated from its
    kind, type and distance, with the letters of the rule version's `tiles` (a face that
    draws one reads the tile types alone, so another rule value's edit leaves it cached)."""
    g = _plan(leader, tiles)
    parts = _bars_markup(leader.kind, tiles, x, y, size) if g is None else _grid_markup(g, x, y, size)
    return Markup(f'<g class="diagram" data-kind="{escape(leader.kind)}">' + "".join(parts) + "</g>")


# ---------------------------------------------------------------- craving diagrams


Pattern = list[list[str | None]]  # rows of tile types; None: any tile

# monster id -> its craving's example pattern, from the first four basic tile types
# (h, a, b, g) and the stomach's columns; `needs:` in game.yaml asks every monster for one
CRAVING_PATTERNS: dict[str, Callable[[list[str], int], Pattern]] = {
    "legendary-dragon": lambda t, columns: [[t[0], t[0]], [t[0], t[0]]],
    "twin-headed-dragon": lambda t, columns: [[t[1]] + [None] * (columns - 2) + [t[1]]],
    "griffin": lambda t, columns: [[t[2], t[3], t[2], t[3]]],
    "troll": lambda t, columns: [[t[0]], [t[1]], [t[2]]],
}


def craving_diagram(monster_id: str, x: float, y: float, cell: float, tiles: Any, columns: int) -> Markup:
    """A small example of a monster's craving pattern (cells of size `cell`, top-left x, y),
    from the rule version's `tiles` and the stomach's `columns`."""
    basic = _basic(tiles)
    sym = _symbols(tiles)
    if len(basic) < 4:
        return Markup("")
    out = []
    for r, row in enumerate(CRAVING_PATTERNS[monster_id](basic, columns)):
        for c, t in enumerate(row):
            cx, cy = x + c * cell, y + r * cell
            if t is None:
                out.append(f'<rect x="{num(cx)}" y="{num(cy)}" width="{num(cell)}" height="{num(cell)}" fill="{PAPER}" '
                           f'stroke="#8a8a8a" stroke-width="0.25" stroke-dasharray="0.8 0.6"/>')
            else:
                out.append(tile_face(t, cx, cy, cell, sym[t], frame=0.25))
    return Markup("".join(out))


def craving_size(monster_id: str, columns: int) -> tuple[int, int]:
    """(columns, rows) of a craving diagram in a stomach of `columns`, so templates can place it."""
    pattern = CRAVING_PATTERNS[monster_id](["?"] * 4, columns)
    return len(pattern[0]), len(pattern)


TEMPLATE_GLOBALS = {
    "tile_icon": tile_icon,
    "tile_face": tile_face,
    "tile_colour": tile_colour,
    "mix": mix,
    "class_icon": class_icon,
    "intel_icon": intel_icon,
    "banner_arrow": banner_arrow,
    "crown": crown,
    "empty_icon": empty_icon,
    "maw": maw,
    "class_effect": class_effect,
    "leader_diagram": leader_diagram,
    "craving_diagram": craving_diagram,
    "craving_size": craving_size,
}
