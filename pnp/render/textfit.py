"""Text measuring and fitting for templates, with the metrics of the game's real fonts.

Sizes and widths are in the template's unit (mm). Text that does not fit even at the
game's floor size (`min_font_size`, default 6 pt) is not drawn smaller: the helper records
an `Overflow` (the renderer turns it into a located error) and returns the floor size.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from ..load.fonts import DEFAULT, Face, Fonts, LackingGlyphs, chars_named
from ..units import MM_TO_PT

DEFAULT_FLOOR = 6 / MM_TO_PT  # 6 pt in mm


@dataclass(frozen=True)
class Overflow:
    """Text that did not fit, with the template line that placed it."""

    text: str
    message: str
    template: Path | None = None
    line: int | None = None


def calling_template() -> tuple[Path | None, int | None]:
    """The template file and line calling a helper (the innermost Jinja frame)."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None and template.filename:
            return Path(template.filename), template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None, None


def _mm(value: float) -> str:
    return f"{value:.1f} mm"


@dataclass
class TextFit:
    """The text helpers templates see, bound to one game's fonts and floor size."""

    fonts: Fonts = DEFAULT
    floor: float = DEFAULT_FLOOR
    overflows: list[Overflow] = field(default_factory=list)

    def _overflow(self, text: str, message: str) -> None:
        if any(o.text == str(text) and o.message == message for o in self.overflows):
            return  # the same text measured again (a template that lays out, then draws)
        self.overflows.append(Overflow(str(text), message, *calling_template()))

    def take(self) -> list[Overflow]:
        """The overflows recorded since the last call."""
        found, self.overflows = self.overflows, []
        return found

    def text_width(self, text: str, size: float, weight: str = "normal", family: str | None = None) -> float:
        """Width of `text` at font size `size`, in `family` (the game's default family when None):
        every helper measures the face the text is drawn in when given the family it is drawn in."""
        return self._face(text, weight, family).width(str(text), size)

    def _face(self, text: str, weight: str, family: str | None) -> Face:
        """The face `text` is measured in, which must have all its characters: a width guessed
        for a missing one is not the width printed (the renderers draw it from another font)."""
        face = self.fonts.face(weight, family)
        if lacking := face.lacks(str(text)):
            found = self.fonts.suggest(lacking, weight)
            hint = ("add a font that has them (game.yaml `fonts:`)" if found is None
                    else f'pass family="{found[0]}"' + ("" if found[1] == weight else f' and weight="{found[1]}"')
                    + " and draw the text in that family")
            raise LackingGlyphs(f"measuring {_snippet(text)} in {face.name}, which lacks {chars_named(lacking)}: {hint}",
                                str(text), lacking)
        return face

    def _lower(self, size: float, minimum: float | None) -> float:
        """How far text of `size` may shrink: the floor, or a template's higher minimum."""
        return min(size, max(self.floor, minimum or 0.0))

    def fit_size(self, text: str, width: float, size: float, weight: str = "normal", minimum: float | None = None,
                 family: str | None = None) -> float:
        """The largest size <= `size` at which `text` fits on one line of `width`."""
        measured = self.text_width(text, size, weight, family)
        if measured <= width or measured == 0:
            return size
        fitted = round(size * width / measured, 2)
        while fitted > 0 and self.text_width(text, fitted, weight, family) > width:  # rounding, kerning
            fitted = round(fitted - 0.01, 2)
        lower = self._lower(size, minimum)
        if fitted >= lower:
            return fitted
        at_floor = self.text_width(text, lower, weight, family)
        self._overflow(text, f"{str(text)!r} does not fit on one line of {_mm(width)}: {_mm(at_floor)} wide at the smallest "
                             f"size allowed ({lower * MM_TO_PT:.1f} pt), {_mm(at_floor - width)} too wide")
        return lower

    def wrap(self, text: str, width: float, size: float, weight: str = "normal", max_lines: int | None = None,
             height: float | None = None, step: float | None = None, long_words: str = "error",
             family: str | None = None) -> list[str]:
        """Break `text` into lines no wider than `width`; explicit newlines are kept.

        Say the room the lines have with `height` (mm from the top of the first line to the
        bottom of the box; lines are `step` apart, default 1.25 x `size`, and n lines need
        n x `step`) or with `max_lines`: more lines than that is an overflow. A word wider
        than `width` is an overflow too, unless `long_words="ok"` says the caller fits it
        itself (e.g. with `fit_size` on each line)."""
        lines: list[str] = []
        face = self._face(text, weight, family)
        for paragraph in str(text).split("\n"):
            line, units = "", 0
            for word in paragraph.split():
                if not line:
                    line, units = word, face.units(word)
                    continue
                longer = face.joined(line, units, " " + word)
                if longer * size / face.units_per_em > width:  # `Face.width`, to the last bit
                    lines.append(line)
                    line, units = word, face.units(word)
                else:
                    line, units = f"{line} {word}", longer
            lines.append(line)
        if long_words != "ok":
            widest = max(str(text).split(), key=lambda w: face.width(w, size), default="")
            wide = face.width(widest, size)
            if wide > width:
                self._overflow(text, f"the word {widest!r} in {_snippet(text)} does not fit a line of {_mm(width)}: "
                                     f"{_mm(wide)} wide at {_pt(size)}, {_mm(wide - width)} too wide")
        inked = len(lines)
        while inked and not lines[inked - 1]:  # an empty text, or a trailing newline, needs no room
            inked -= 1
        if height is not None:
            step = size * 1.25 if step is None else step
            room = max(0, int(height / step + 1e-6))
            if inked > room and (max_lines is None or room < max_lines):
                room_h, need = max(height, 0), inked * step
                self._overflow(text, f"{_snippet(text)} does not fit its {_mm(width)} x {_mm(room_h)} box at {_pt(size)}: "
                                     f"{inked} lines need {_mm(need)}, {_mm(need - room_h)} too tall (room for {room})")
                return lines
        if max_lines is not None and inked > max_lines:
            self._overflow(text, f"{_snippet(text)} needs {inked} lines of {_mm(width)} at {_pt(size)}: "
                                 f"{inked - max_lines} more than the {max_lines} there is room for")
        return lines

    def check_room(self, text: str, height: float, room: float) -> bool:
        """For layouts that add up the heights of their texts: a block of `text` that needs
        `height` mm where only `room` mm is left is an overflow. Gives whether it fits."""
        if height <= room + 1e-6:
            return True
        self._overflow(text, f"{_snippet(text)} needs {_mm(height)} of height where {_mm(max(room, 0))} is left: "
                             f"{_mm(height - max(room, 0))} too tall")
        return False

    def fit_lines(self, text: str, width: float, height: float, size: float, weight: str = "normal",
                  leading: float = 1.25, minimum: float | None = None, family: str | None = None) -> dict:
        """Wrap `text` into a box: the largest size <= `size` whose lines (`leading` x size
        apart) fill at most `height`. Gives {"size", "lines", "step"}."""
        lower = self._lower(size, minimum)
        current = size
        face = self._face(text, weight, family)
        widest = max((face.units(w) for w in str(text).split()), default=0)  # the widest word, at every size
        while True:
            lines = self.wrap(text, width, current, weight, long_words="ok", family=family)  # a wide word is reported below
            wide = widest * current / face.units_per_em  # `Face.width`, to the last bit
            used = len(lines) * current * leading
            if (used <= height and wide <= width) or current <= lower:
                break
            current = max(lower, round(current * 0.96, 3))
        if used > height or wide > width:
            over = f"{_mm(used - height)} too tall for its {_mm(height)}" if used > height else f"a word {_mm(wide - width)} too wide"
            self._overflow(text, f"{_snippet(text)} does not fit its {_mm(width)} x {_mm(height)} box even at the smallest "
                                 f"size allowed ({lower * MM_TO_PT:.1f} pt): {len(lines)} lines, {over}")
        return {"size": current, "lines": lines, "step": current * leading}

    def helpers(self) -> dict:
        return {"wrap": self.wrap, "text_width": self.text_width, "fit_size": self.fit_size, "fit_lines": self.fit_lines,
                "check_room": self.check_room}


def _pt(size: float) -> str:
    return f"{size * MM_TO_PT:.1f} pt"


def _snippet(text: str, limit: int = 40) -> str:
    text = " ".join(str(text).split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def text_width(text: str, size: float, weight: str = "normal", family: str | None = None) -> float:
    """Width of `text` in pnp's default font (for code outside templates)."""
    return DEFAULT.text_width(str(text), size, weight, family)