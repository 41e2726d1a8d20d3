"""Text measuring for templates, with the same font metrics the PDF uses (Helvetica)."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

FONTS = {"normal": "Helvetica", "bold": "Helvetica-Bold", "italic": "Helvetica-Oblique"}


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """Width of `text` at font size `size` (any unit: the result is in the same unit)."""
    return stringWidth(str(text), FONTS[weight], size)


def wrap(text: str, width: float, size: float, weight: str = "normal") -> list[str]:
    """Break `text` into lines no wider than `width`; explicit newlines are kept."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, size, weight) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def fit_size(text: str, width: float, size: float, weight: str = "normal", minimum: float = 1.0) -> float:
    """The largest font size <= `size` at which `text` fits on one line of `width`."""
    measured = text_width(text, size, weight)
    if measured <= width or measured == 0:
        return size
    return max(minimum, round(size * width / measured, 2))


def num(value: float) -> str:
    """A number for SVG output: at most 3 decimals, no trailing zeros (stable across runs)."""
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text
