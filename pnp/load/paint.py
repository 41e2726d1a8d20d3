"""What a fill or stroke may be: the renderers draw one they cannot read without a word
(a fill black, a stroke not at all), so a face (pnp/render/paints.py) and an icon file
(pnp/load/icons.py) are checked with this one reading of a colour, as an attribute, in
`style`, or in a `<style>` sheet (read as pnp/load/stylesheets.py reads one)."""

from __future__ import annotations

import functools
import re

PAINTED = ("fill", "stroke")
IMPORTANT = "!important"
# a fill or stroke a sheet sets: `fill:` (not `fill-opacity:`, a custom `--fill:`, a selector's `.fill:hover`),
# its value up to a `;` or `}` outside quotes (`url("a;b")` is one value); a string CSS leaves open ends at its line
# (each alternative starts with its own character: one way to match, in linear time)
SHEET_PAINT = re.compile(r"""(?<![\w.#-])(fill|stroke)\s*:\s*((?:[^;}"']|"[^"\n]*(?:"|(?=\n)|$)|'[^'\n]*(?:'|(?=\n)|$))*)""",
                         re.IGNORECASE)
HEX = re.compile(r"#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})")
EXPECTED = "expected #rrggbb (or #rgb), a colour name such as red, or none"


# What the renderers draw is what usvg (in resvg and in typst) reads, checked by drawing each
# (tests/test_template_checks.py): a colour name in any case, but its paint keywords spelled as
# here alone (`None`, `currentcolor`, `Inherit` are drawn black). `initial` draws what CSS says
# (a black fill, no stroke); `unset` is drawn so too, though CSS would have it inherit: refused.
KEYWORDS = ("none", "currentColor", "inherit", "context-fill", "context-stroke", "initial")
# CSS Color 4 names in Pillow's table that usvg lacks (it knows SVG 1.1's): drawn black
UNDRAWN = frozenset({"rebeccapurple"})


# The colour names the renderers draw: SVG 1.1's (CSS Color 3's), what usvg knows, and
# `transparent`. Written out rather than read from Pillow's table (CSS Color 4, that is these
# and `rebeccapurple`): importing Pillow costs every build some 10 ms, and a build that draws
# no picture needs nothing else of it (tests/test_template_checks.py draws each name and
# checks this table against Pillow's).
COLOUR_NAMES = frozenset("""
    aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood
    cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod
    darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon
    darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray
    dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green
    greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon
    lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon
    lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta
    maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen
    mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive
    olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru
    pink plum powderblue purple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna
    silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet
    wheat white whitesmoke yellow yellowgreen
    transparent
""".split())


@functools.lru_cache(maxsize=1024)  # every face of a deck repeats a few colours (bounded: values are a project's)
def is_colour(value: str) -> bool:
    """Whether the renderers read `value` as a paint; a function (rgb(), hsl(), url(#gradient))
    is left to them. Anything else not a hex colour, a colour name or a keyword as spelled
    (`red;`, `12`, `dark red`, `rebeccapurple`, `None`, nothing) they draw as they draw a
    misspelt name."""
    stripped = value.strip()
    word = stripped.casefold()
    if word.startswith("#"):
        return HEX.fullmatch(word) is not None
    return "(" in word or word in COLOUR_NAMES or stripped in KEYWORDS


def paints(attrs: dict[str, str]) -> list[tuple[str, str, str]]:
    """Each fill and stroke of an element's attributes, as an attribute or in `style`:
    (name, value, as written)."""
    written = [(name, value, f'{name}="{value}"') for name in PAINTED if (value := attrs.get(name)) is not None]
    for declaration in attrs.get("style", "").split(";"):
        name, _, value = declaration.partition(":")
        if name.strip().casefold() in PAINTED:
            written.append((name.strip().casefold(), _unimportant(value), declaration.strip()))
    return written


def sheet_paint(found: re.Match[str]) -> tuple[str, str]:
    """A sheet's declaration matched by `SHEET_PAINT`, as (name, value)."""
    return found.group(1).casefold(), _unimportant(found.group(2))


def _unimportant(value: str) -> str:
    """A declared value without CSS's `!important`, no part of the colour (in `style` and a
    sheet alone: an attribute's is drawn black)."""
    value = value.strip()
    return value[:-len(IMPORTANT)].strip() if value.casefold().endswith(IMPORTANT) else value


def not_a_colour(name: str, value: object) -> str:
    """What is wrong with the paint `name` of `value`, which `is_colour` refused: with what to
    write instead, when a renderer lacks a name or reads a keyword in one spelling alone."""
    drawn = "black" if name == "fill" else "no line"
    word = value.strip().casefold() if isinstance(value, str) else ""
    if word in UNDRAWN:
        from PIL import ImageColor

        return (f"{name} {value!r} is a CSS colour the renderers do not know (they would draw {drawn}): "
                f"write it as {'#%02x%02x%02x' % ImageColor.getrgb(word)[:3]}")
    if (spelled := next((k for k in KEYWORDS if k.casefold() == word), None)) or word == "unset":
        instead = spelled or "inherit"
        return f"{name} {value!r} is not a paint the renderers read (they would draw {drawn}): write {instead!r}"
    return f"{name} {value!r} is not a colour: {EXPECTED} (the renderers would draw {drawn})"
