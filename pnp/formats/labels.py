"""Text on printed sheets laid out by measure: lines wrapped and shrunk to the width they
may take, stacked a line's height apart, and the box each line covers.

Widths are measured in the family typst draws the sheets' labels in: the game's default
family (pnp/formats/pdf.py `BookPages.sources`), so a `Measure` of the game's fonts lays
out a game's sheets (`DEFAULT`, in pnp's default fonts, all others). typst wraps a
label only at the page's right margin, so a line measured to fit is never wrapped again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..render.textfit import SOFT_HYPHEN, pieces
from .impose import Label

if TYPE_CHECKING:
    from ..load.fonts import Fonts

PT = 25.4 / 72  # mm per point
ASCENT = 0.75  # of the size: how far capitals and ascenders reach above the baseline
DESCENT = 0.25  # and descenders below it
LEADING = 1.3  # baseline to baseline, of the size
PUNCTUATION = " ,;:·-–—"  # not left before a shortened label's ellipsis


def step(size: float) -> float:
    """mm from one baseline to the next at `size` pt."""
    return LEADING * size * PT


class Measure:
    """Labels laid out by the widths of `fonts`' default family (pnp's default fonts when None)."""

    def __init__(self, fonts: "Fonts | None" = None):
        from ..load.fonts import DEFAULT

        self.fonts = fonts or DEFAULT

    def width(self, text: str, size: float) -> float:
        """The width in mm of `text` at `size` pt."""
        return self.fonts.text_width(str(text), size * PT)

    def box(self, label: Label) -> tuple[float, float, float, float]:
        """The area (left, top, right, bottom, mm) a one-line label covers."""
        size = label.size * PT
        if label.turn == 90:  # the glyphs' tops point left, the text runs up the page
            return label.x - ASCENT * size, label.y - self.width(label.text, label.size), label.x + DESCENT * size, label.y
        return label.x, label.y - ASCENT * size, label.x + self.width(label.text, label.size), label.y + DESCENT * size

    def wrap(self, text: str, room: float, size: float) -> list[str]:
        """`text` in lines no wider than `room` mm at `size` pt (a piece longer than that stands
        alone). Lines break where the faces' text does (`pieces`): between CJK characters, at
        soft hyphens and zero-width spaces, never at a no-break space; newlines are spaces."""
        lines: list[str] = []
        for joint, piece, end in pieces(str(text)):
            if lines:
                joined = lines[-1] + (" " if joint == " " else "") + piece
                if self.width(joined + end, size) <= room:  # with the hyphen a break after it shows
                    lines[-1] = joined
                    continue
                if joint == SOFT_HYPHEN:
                    lines[-1] += "-"
            lines.append(piece)
        return lines or [""]

    def block(self, text: str, x: float, top: float, room: float, size: float) -> list[Label]:
        """`text` wrapped to `room` mm, its first line's top at `top` and each next line below."""
        first = top + ASCENT * size * PT
        return [Label(line, x, first + i * step(size), size) for i, line in enumerate(self.wrap(text, room, size))]

    def line(self, text: str, x: float, baseline: float, room: float, size: float, smallest: float, turn: int = 0) -> Label:
        """One line of `text` at `size` pt, shrunk (down to `smallest`) to fit `room` mm, and
        shortened with an ellipsis when even that is too wide (turned by `turn`, see Label):
        after its last whole word that fits, so no word is cut; a first word too long for
        `room` is cut, with the ellipsis too (the ellipsis alone when not a letter fits)."""
        fitted = size
        while fitted > smallest and self.width(text, fitted) > room:
            fitted = max(smallest, fitted - 0.25)
        if self.width(text, fitted) <= room:
            return Label(text, x, baseline, fitted, turn)
        words = text.split(" ")  # at spaces only: a no-break space holds its words together
        while len(words) > 1:
            words.pop()
            kept = " ".join(words).rstrip(PUNCTUATION) + "…"
            if self.width(kept, fitted) <= room:
                return Label(kept, x, baseline, fitted, turn)
        word = words[0]  # the longest start of the first word that fits with the ellipsis
        for end in range(len(word) - 1, 0, -1):
            kept = word[:end].rstrip(PUNCTUATION) + "…"
            if kept != "…" and self.width(kept, fitted) <= room:
                return Label(kept, x, baseline, fitted, turn)
        return Label("…", x, baseline, fitted, turn)  # a sign that the text is cut, rather than a letter of it

    def centred(self, text: str, middle: float, baseline: float, size: float) -> Label:
        """A label whose middle is at `middle` (numbers under a scale's ticks)."""
        return Label(text, middle - self.width(text, size) / 2, baseline, size)


DEFAULT = Measure()  # pnp's default fonts
