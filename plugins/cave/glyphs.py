"""Drawing helpers for the cave templates: passages from openings, rock speckles, icons.

Every helper returns `Markup` (SVG in millimetres) and is deterministic: the same input
always gives the same text, so builds stay byte-identical.
"""

from __future__ import annotations

import math
import random

from markupsafe import Markup

from pnp.api import num

# Proportions of a square, so passages meet at the same place on every tile size.
PASSAGE = 0.4  # passage width / square
CHAMBER = 0.27  # chamber radius / square
_STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def _passage_shapes(squares: list[list[str]], size: float, bleed: float) -> list[str]:
    """Rectangles and circles (as SVG element strings without paint) of the cave floor."""
    half = size * PASSAGE / 2
    shapes = []
    for i, openings in enumerate(squares):
        cx, cy = i * size + size / 2, size / 2
        for side in openings:
            dx, dy = _STEP[side]
            # from the centre out to the edge of the square, on through the bleed
            # only where that edge is the outside of the piece
            outer = i == 0 and side == "west" or i == len(squares) - 1 and side == "east" or side in ("north", "south")
            reach = size / 2 + (bleed if outer else 0)
            if dx:
                x0, x1 = sorted((cx, cx + dx * reach))
                shapes.append(f'<rect x="{num(x0)}" y="{num(cy - half)}" width="{num(x1 - x0)}" height="{num(2 * half)}"')
            else:
                y0, y1 = sorted((cy, cy + dy * reach))
                shapes.append(f'<rect x="{num(cx - half)}" y="{num(y0)}" width="{num(2 * half)}" height="{num(y1 - y0)}"')
        shapes.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(size * CHAMBER)}"')
        if i:  # squares of one piece are open to each other
            shapes.append(f'<rect x="{num(cx - size)}" y="{num(cy - half)}" width="{num(size)}" height="{num(2 * half)}"')
    return shapes


def passages(squares: list[list[str]], size: float, bleed: float, floor: str, wall: str, wall_width: float = 0.8) -> Markup:
    """The cave floor of a piece made of `squares` side by side (each a list of open sides),
    outlined: the shapes are stroked once in the wall colour, then filled over in the floor
    colour, which leaves an outline round their union."""
    shapes = _passage_shapes(squares, size, bleed)
    outline = "".join(f'{s} fill="{wall}" stroke="{wall}" stroke-width="{num(2 * wall_width)}"/>' for s in shapes)
    fill = "".join(f'{s} fill="{floor}"/>' for s in shapes)
    return Markup(f'<g class="walls">{outline}</g><g class="floor">{fill}</g>')


def speckles(seed: str, width: float, height: float, bleed: float, colours: list[str], count: int = 28) -> Markup:
    """Scattered small stones over the rock, placed by a generator seeded with `seed`."""
    rnd = random.Random(seed)  # seeded by a string: the same stones on every run
    out = []
    for _ in range(count):
        x = rnd.uniform(-bleed, width + bleed)
        y = rnd.uniform(-bleed, height + bleed)
        r = rnd.uniform(0.3, 1.1)
        sides = rnd.randint(4, 6)
        pts = []
        for k in range(sides):
            angle = 2 * math.pi * k / sides + rnd.uniform(-0.3, 0.3)
            rr = r * rnd.uniform(0.7, 1.2)
            pts.append(f"{num(x + rr * math.cos(angle))},{num(y + rr * math.sin(angle))}")
        out.append(f'<polygon points="{" ".join(pts)}" fill="{colours[rnd.randrange(len(colours))]}"/>')
    return Markup("".join(out))


# Icons drawn in a 100 x 100 box; {fg} is the main colour, {bg} the colour behind them.
ICONS: dict[str, str] = {
    "flame": (
        '<path d="M50 4 C62 24 86 38 81 64 C78 84 64 96 50 96 C36 96 21 85 19 66 C17 46 33 36 36 16 '
        'C43 28 47 33 50 4 Z" fill="{fg}"/>'
        '<path d="M50 44 C58 57 68 64 65 78 C62 88 56 92 50 92 C44 92 37 87 36 78 C35 67 45 61 50 44 Z" fill="#ffd43b"/>'
    ),
    "eye": (
        '<path d="M4 50 Q50 4 96 50 Q50 96 4 50 Z" fill="#ffffff" stroke="{fg}" stroke-width="5"/>'
        '<circle cx="50" cy="50" r="19" fill="{fg}"/>'
        '<circle cx="50" cy="50" r="8" fill="#000000"/>'
        '<circle cx="56" cy="44" r="4" fill="#ffffff"/>'
    ),
    "rocks": (
        '<polygon points="6,94 14,66 34,56 50,70 46,94" fill="{fg}"/>'
        '<polygon points="42,94 50,70 70,60 90,72 94,94" fill="{fg}" fill-opacity="0.8"/>'
        '<polygon points="40,40 50,30 62,36 58,50 44,50" fill="{fg}"/>'
        '<polygon points="20,22 28,14 36,20 32,30 22,30" fill="{fg}" fill-opacity="0.8"/>'
        '<polygon points="62,8 70,4 76,12 68,18" fill="{fg}" fill-opacity="0.6"/>'
    ),
    "bat": (
        '<path d="M50 34 C56 34 58 40 58 46 L76 34 C84 32 92 36 96 44 C88 44 84 48 84 56 C78 52 72 52 68 58 '
        'C64 54 60 56 58 60 C56 66 54 70 50 72 C46 70 44 66 42 60 C40 56 36 54 32 58 C28 52 22 52 16 56 '
        'C16 48 12 44 4 44 C8 36 16 32 24 34 L42 46 C42 40 44 34 50 34 Z" fill="{fg}"/>'
        '<polygon points="44,36 45,26 49,34" fill="{fg}"/><polygon points="56,36 55,26 51,34" fill="{fg}"/>'
        '<circle cx="47" cy="42" r="1.8" fill="#ffd43b"/><circle cx="53" cy="42" r="1.8" fill="#ffd43b"/>'
    ),
    "map": (
        '<polygon points="8,20 36,10 64,20 92,10 92,80 64,90 36,80 8,90" fill="#f1e3c0" stroke="{fg}" stroke-width="4" stroke-linejoin="round"/>'
        '<line x1="36" y1="10" x2="36" y2="80" stroke="{fg}" stroke-width="2"/>'
        '<line x1="64" y1="20" x2="64" y2="90" stroke="{fg}" stroke-width="2"/>'
        '<path d="M16 74 C26 60 40 70 48 56 C54 46 64 52 70 40" fill="none" stroke="#c92a2a" stroke-width="3.5" stroke-dasharray="5 4"/>'
        '<path d="M72 28 L84 40 M84 28 L72 40" stroke="#c92a2a" stroke-width="4.5"/>'
    ),
    "shovel": (
        '<rect x="36" y="4" width="28" height="8" rx="4" fill="{fg}"/>'
        '<rect x="46" y="8" width="8" height="54" fill="#8d5a2b"/>'
        '<path d="M32 58 L68 58 L68 76 Q50 100 32 76 Z" fill="{fg}"/>'
    ),
    "rope": (
        '<ellipse cx="50" cy="50" rx="40" ry="28" fill="none" stroke="{fg}" stroke-width="8"/>'
        '<ellipse cx="50" cy="50" rx="27" ry="17" fill="none" stroke="{fg}" stroke-width="8"/>'
        '<ellipse cx="50" cy="50" rx="14" ry="7" fill="none" stroke="{fg}" stroke-width="7"/>'
        '<path d="M86 60 C92 74 84 86 70 92" fill="none" stroke="{fg}" stroke-width="8" stroke-linecap="round"/>'
    ),
    "pickaxe": (
        '<g transform="rotate(-30 50 50)">'
        '<rect x="46" y="20" width="8" height="76" rx="3" fill="#8d5a2b"/>'
        '<path d="M6 34 Q50 2 94 34 Q50 18 6 34 Z" fill="{fg}"/>'
        '<rect x="42" y="16" width="16" height="12" rx="2" fill="{fg}"/>'
        "</g>"
    ),
    "friend": (
        '<circle cx="50" cy="28" r="16" fill="none" stroke="{fg}" stroke-width="4" stroke-dasharray="6 4"/>'
        '<path d="M20 92 C20 62 32 50 50 50 C68 50 80 62 80 92" fill="none" stroke="{fg}" stroke-width="4" stroke-dasharray="6 4"/>'
        '<circle cx="44" cy="26" r="2.5" fill="{fg}"/><circle cx="56" cy="26" r="2.5" fill="{fg}"/>'
        '<path d="M44 34 Q50 38 56 34" fill="none" stroke="{fg}" stroke-width="2.5"/>'
    ),
    "haunted": (
        '<path d="M24 92 L24 44 C24 16 76 16 76 44 L76 92 L67 84 L58 92 L50 84 L42 92 L33 84 Z" fill="#e7f5ff" stroke="{fg}" stroke-width="4" stroke-linejoin="round"/>'
        '<ellipse cx="40" cy="46" rx="5" ry="7" fill="{fg}"/><ellipse cx="60" cy="46" rx="5" ry="7" fill="{fg}"/>'
        '<ellipse cx="50" cy="64" rx="6" ry="8" fill="{fg}"/>'
    ),
    "meat": (
        '<path d="M20 22 C36 4 70 10 74 36 C78 56 60 72 40 70 C20 68 6 42 20 22 Z" fill="{fg}"/>'
        '<path d="M30 26 C40 18 56 22 60 34" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="5" stroke-linecap="round"/>'
        '<rect x="58" y="58" width="12" height="30" rx="4" fill="#f1e3c0" transform="rotate(-45 64 73)"/>'
        '<circle cx="82" cy="80" r="7" fill="#f1e3c0"/><circle cx="76" cy="88" r="7" fill="#f1e3c0"/>'
    ),
    "vegetable": (
        '<path d="M12 52 Q14 12 50 10 Q86 12 88 52 Z" fill="{fg}"/>'
        '<rect x="38" y="50" width="24" height="40" rx="8" fill="#f1e3c0"/>'
        '<circle cx="34" cy="34" r="6" fill="#ffffff" fill-opacity="0.5"/>'
        '<circle cx="58" cy="24" r="5" fill="#ffffff" fill-opacity="0.5"/>'
        '<circle cx="70" cy="40" r="4" fill="#ffffff" fill-opacity="0.5"/>'
    ),
    "person": (
        '<circle cx="50" cy="32" r="20" fill="{fg}"/>'
        '<path d="M12 100 C12 66 30 56 50 56 C70 56 88 66 88 100 Z" fill="{fg}"/>'
        '<rect x="30" y="12" width="40" height="10" rx="4" fill="#495057"/>'
        '<circle cx="50" cy="12" r="5" fill="#ffe066"/>'
    ),
}


def icon(name: str, x: float, y: float, size: float, fg: str = "#343a40") -> Markup:
    """Icon `name` with its top-left corner at (x, y), `size` mm square."""
    art = ICONS[name].replace("{fg}", fg)
    return Markup(f'<g transform="translate({num(x)} {num(y)}) scale({num(size / 100)})">{art}</g>')
