"""Physical lengths: the data may say `63mm`, `2.5in`, `1.2cm`, `12pt` or a bare number (mm);
numbers as SVG output prints them; counts as limits are set (`8M`, `512k`)."""

from __future__ import annotations

import re

_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt)?\s*$")

MM_TO_PT = 72 / 25.4
# CSS pixels in each SVG unit, as the renderers (usvg, at 96 dpi) read a length: a bare number is px
CSS_PX = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "q": 96 / 101.6, "in": 96.0}


def to_mm(value: float | int | str) -> float:
    """Convert a length to millimetres; raise ValueError with the accepted forms."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as 63mm or 2.5in, got {str(value).lower()}")  # YAML's spelling, not Python's
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"a length cannot be negative, got {value!r}")
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"expected a length such as 63mm, 2.5in or 12pt, got {value!r}")
    return float(match.group(1)) * _PER_UNIT[match.group(2) or "mm"]


def num(value: float) -> str:
    """A number for SVG output: at most 3 decimals, no trailing zeros (stable across runs)."""
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def percent(share: float) -> str:
    """A share (0-1) as a percentage with one decimal; a real change never reads "0.0%" (it
    is "<0.1%") nor a share short of all "100.0%" (">99.9%")."""
    if 0 < share < 0.0005:
        return "<0.1%"
    if 0.9995 <= share < 1:
        return ">99.9%"
    return f"{share:.1%}"


def to_count(text: str) -> int | None:
    """`8M`, `512k`, `20000` as an int (k and M are 1024 and 1024 * 1024)."""
    scale = {"k": 1 << 10, "m": 1 << 20}.get(text[-1:].lower(), 1)
    digits = text[:-1] if scale != 1 else text
    return int(digits) * scale if digits.isascii() and digits.isdigit() else None
