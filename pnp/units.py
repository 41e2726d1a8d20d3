"""Physical lengths: the data may say `63mm`, `2.5in`, `1.2cm`, `12pt` or a bare number (mm)."""

from __future__ import annotations

import re

_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt)?\s*$")

MM_TO_PT = 72 / 25.4


def to_mm(value: float | int | str) -> float:
    """Convert a length to millimetres; raise ValueError with the accepted forms."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as 63mm or 2.5in, got {value!r}")
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"a length cannot be negative, got {value!r}")
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"expected a length such as 63mm, 2.5in or 12pt, got {value!r}")
    return float(match.group(1)) * _PER_UNIT[match.group(2) or "mm"]
