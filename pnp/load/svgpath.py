"""SVG path data (a path's `d`) checked against its grammar (SVG 1.1, 8.3.9 "The grammar for
path data"; SVG 2 keeps it): a moveto first, then commands each followed by whole sets of
their arguments. Malformed data is not drawn at all by a renderer, so an icon would silently
print blank; this says where it goes wrong instead.
"""

from __future__ import annotations

import re

# the arguments of one set of each command: n a number, f a flag (0 or 1); a command takes
# one set or more (implicit repeats), closepath none
ARGUMENTS = {"m": "nn", "l": "nn", "h": "n", "v": "n", "c": "nnnnnn", "s": "nnnn", "q": "nnnn", "t": "nn", "a": "nnnffnn", "z": ""}
NAMES = {"m": "moveto", "l": "lineto", "h": "horizontal lineto", "v": "vertical lineto", "c": "curveto",
         "s": "smooth curveto", "q": "quadratic curveto", "t": "smooth quadratic curveto", "a": "arc", "z": "closepath"}
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")  # ASCII digits only
_FLAG = re.compile(r"[01]")  # a flag needs no separator after it: "a5 5 0 110 10" is valid
_SPACE = re.compile(r"[ \t\r\n\f]*")
_SEPARATOR = re.compile(r"[ \t\r\n\f]*(?:,[ \t\r\n\f]*)?")


_LIST = re.compile(r"[ \t\r\n\f]*,[ \t\r\n\f]*|[ \t\r\n\f]+")  # between a viewBox's numbers: "0 0 24" is three


def viewbox_problem(value: object) -> str | None:
    """What is wrong with an icon's `viewbox` (SVG's viewBox attribute: four numbers, the
    width and height above 0; renderers draw no icon in one they cannot read), or None.
    The text follows the key's name: "viewbox '0 0 24' is not a viewBox: ..."."""
    numbers = _LIST.split(value.strip(" \t\r\n\f")) if isinstance(value, str) else []
    if len(numbers) == 4 and all(_NUMBER.fullmatch(n) for n in numbers) and float(numbers[2]) > 0 and float(numbers[3]) > 0:
        return None
    shown = str(value).lower() if isinstance(value, bool) else value  # as YAML wrote it
    return f"{shown!r} is not a viewBox: expected four numbers, min-x min-y width height, the width and height above 0"


def path_problem(d: str) -> str | None:
    """What is wrong with path data `d` (what was expected, and where), or None when it is
    well formed."""
    pos = _SPACE.match(d).end()  # type: ignore[union-attr]  # matches the empty text
    if pos == len(d) or d[pos] not in "Mm":
        return _expected(d, pos, "a moveto (M or m) to begin")
    while pos < len(d):
        letter = d[pos]
        kind = ARGUMENTS.get(letter.lower()) if letter.isascii() else None
        if kind is None:
            return _expected(d, pos, "a path command (one of MmLlHhVvCcSsQqTtAaZz)")
        pos = _SPACE.match(d, pos + 1).end()  # type: ignore[union-attr]
        while kind:  # sets of arguments, at least one
            for n, arg in enumerate(kind):
                if n:
                    pos = _SEPARATOR.match(d, pos).end()  # type: ignore[union-attr]
                found = (_FLAG if arg == "f" else _NUMBER).match(d, pos)
                if found is None:
                    what = "a flag, 0 or 1" if arg == "f" else "a number"
                    return _expected(d, pos, f"{what} (argument {n + 1} of {len(kind)} of {letter}, {NAMES[letter.lower()]})")
                pos = found.end()
            after = _SEPARATOR.match(d, pos).end()  # type: ignore[union-attr]
            if not _NUMBER.match(d, after):  # no further set: a command, or the end
                if "," in d[pos:after]:
                    return _expected(d, after, "a number after ','")
                pos = after
                break
            pos = after
    return None


def _expected(d: str, pos: int, what: str) -> str:
    found = repr(d[pos:pos + 12]) + ("..." if len(d) > pos + 12 else "") if pos < len(d) else "the end"
    return f"expected {what} at character {pos + 1}, found {found}"
