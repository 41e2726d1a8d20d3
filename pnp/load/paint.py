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


@functools.cache
def _keywords() -> frozenset[str]:
    """A word must be a CSS colour name (Pillow's table of them) or one of SVG's paint
    keywords (Pillow is imported when first needed: `pnp score` never draws)."""
    from PIL import ImageColor

    return frozenset(ImageColor.colormap) | {"none", "transparent", "currentcolor", "inherit", "initial", "unset",
                                             "context-fill", "context-stroke"}


@functools.lru_cache(maxsize=1024)  # every face of a deck repeats a few colours (bounded: values are a project's)
def is_colour(value: str) -> bool:
    """Whether the renderers read `value` as a paint; a function (rgb(), hsl(), url(#gradient))
    is left to them. Anything else not a hex colour or a keyword (`red;`, `12`, `dark red`,
    nothing) they draw as they draw a misspelt name."""
    word = value.strip().casefold()
    if word.startswith("#"):
        return HEX.fullmatch(word) is not None
    return "(" in word or word in _keywords()


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
    """What is wrong with the paint `name` of `value`, which `is_colour` refused."""
    drawn = "black" if name == "fill" else "no line"
    return f"{name} {value!r} is not a colour: {EXPECTED} (the renderers would draw {drawn})"
