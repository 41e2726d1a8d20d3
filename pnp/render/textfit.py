"""Text measuring and fitting for templates, with the metrics of the game's real fonts.

Sizes and widths are in the template's unit (mm). Text that does not fit even at the
game's floor size (`min_font_size`, default 6 pt) is not drawn smaller: the helper records
an `Overflow` (the renderer turns it into a located error) and returns the floor size.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from jinja2 import TemplateRuntimeError

from ..load.fonts import DEFAULT, Face, Fonts, LackingGlyphs, chars_named
from ..sandbox import NONE_PRINTED
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
        _given(text)
        return self._face(text, weight, family).width(str(text), size)

    def _face(self, text: str, weight: str, family: str | None) -> "Face | StandIn":
        """The face `text` is measured in; where it lacks characters another face of the game
        has, the faces the renderers draw them from (`StandIn`). A character no face has, or
        one the PDF and the PNG would take from different faces, is an error: a width guessed
        for it is not the width printed."""
        face = self.fonts.face(weight, family, str(text))
        if lacking := face.lacks(str(text)):
            if all(any(ch in f.chars for f in self.fonts.faces) for ch in lacking):
                try:
                    self.fonts.drawn(face, str(text))
                except LackingGlyphs as exc:  # StandIns: the renderers would choose apart
                    raise LackingGlyphs(f"measuring {_snippet(text)} in {face.name}, which lacks {chars_named(exc.lacking)}: "
                                        f"{exc}, or draw the part in a <text> of its own", str(text), exc.lacking) from None
                return StandIn(self.fonts, face)
            found = self.fonts.suggest(lacking, weight, str(text))
            asked = "" if found is None else f'family="{found[0]}"' + ("" if found[1] == weight else f' and weight="{found[1]}"')
            hint = ("add a font that has them (game.yaml `fonts:`)" if found is None
                    else f"pass {asked} and draw the text in that family" if found[2]
                    else f"no font of the game has all of it: measure and draw the part {found[0]} has "
                         f"as a <text> of its own ({asked})")
            raise LackingGlyphs(f"measuring {_snippet(text)} in {face.name}, which lacks {chars_named(lacking)}: {hint}",
                                str(text), lacking)
        return face

    def _lower(self, text: str, size: float, minimum: float | None = None) -> float:
        """How far text of `size` may shrink: the floor, or a template's higher minimum (a
        template cannot lower the game's floor). A `size` already under it is an overflow:
        the floor is how small any text prints, not just how far fitting shrinks it."""
        _given(text)
        lower = max(self.floor, minimum or 0.0)
        if size < lower - 1e-6:
            what = ("the game's" if lower == self.floor else "its")
            named = "min_font_size" if lower == self.floor else "minimum="
            # a template's sizes are mm: the size to write is given in mm (rounded up, so it is not
            # under the floor again), with the points the floor is set in
            least = math.ceil(lower * 100 - 1e-6) / 100
            self._overflow(text, f"{_snippet(text)} asks for {round(size, 3):g} mm ({_pt(size)}), under {what} {_pt(lower)} floor "
                                 f"({named}): start it at {least:g} mm ({_pt(lower)}) or more")
        return min(size, lower)

    def fit_size(self, text: str, width: float, size: float, weight: str = "normal", minimum: float | None = None,
                 family: str | None = None) -> float:
        """The largest size <= `size` at which `text` fits on one line of `width`."""
        lower = self._lower(text, size, minimum)
        measured = self.text_width(text, size, weight, family)
        if measured <= width or measured == 0:
            return size
        fitted = round(size * width / measured, 2)
        while fitted > 0 and self.text_width(text, fitted, weight, family) > width:  # rounding, kerning
            fitted = round(fitted - 0.01, 2)
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
        self._lower(text, size)
        lines: list[str] = []
        face = self._face(text, weight, family)
        for paragraph in str(text).split("\n"):
            line, units = "", 0.0
            for joint, piece, end in pieces(paragraph):
                if not line:
                    line, units = piece, face.units(piece)
                    continue
                gap = " " if joint == " " else ""  # a soft hyphen or a zero-width break joins with nothing
                longer = face.joined(line, units, gap + piece)
                needed = face.joined(line + gap + piece, longer, end) if end else longer  # and the hyphen a break after it shows
                if needed * size / face.units_per_em > width:  # `Face.width`, to the last bit
                    lines.append(line + ("-" if joint == SOFT_HYPHEN else ""))
                    line, units = piece, face.units(piece)
                else:
                    line, units = line + gap + piece, longer
            lines.append(line)
        if long_words != "ok":
            widest = max(unbreakable(str(text)), key=lambda w: face.width(w, size), default="")
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
        lower = self._lower(text, size, minimum)
        current = size
        face = self._face(text, weight, family)
        widest = max((face.units(w) for w in unbreakable(str(text))), default=0)  # the widest word, at every size
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


class StandIn:
    """Measures text in `base` as the renderers draw it where `base` lacks characters another
    face of the game has (`Fonts.drawn`): each string measured is one run of text (a line),
    in `base`'s font units. Only text that needs it comes here: one face's text is a `Face`'s."""

    def __init__(self, fonts: Fonts, base: Face):
        self.fonts, self.base, self.units_per_em = fonts, base, base.units_per_em
        self.measured: dict[str, float] = {}

    def units(self, text: str) -> float:
        total = self.measured.get(text)
        if total is None:
            drawn = self.fonts.drawn(self.base, text)
            if isinstance(drawn, Face):  # a stand-in with every character draws the whole run
                total = drawn.units(text) * self.units_per_em / drawn.units_per_em
            else:
                # each glyph from its face, with that face's kerning towards a neighbour it has
                # (usvg takes the stand-in's glyphs from shaping the whole run in it)
                total = 0.0
                for i, ch in enumerate(text):
                    face = drawn.get(ch, self.base)
                    units = face.units(ch)
                    if i + 1 < len(text) and ord(text[i + 1]) in face.advances:
                        units += face.kerning.get((ord(ch), ord(text[i + 1])), 0)
                    total += units * self.units_per_em / face.units_per_em
            self.measured[text] = total
        return total

    def width(self, text: str, size: float) -> float:
        return self.units(text) * size / self.units_per_em

    def joined(self, left: str, left_units: float, right: str) -> float:
        """`units(left + right)`, measured whole: the faces drawing a line depend on all of it."""
        return self.units(left + right)


SOFT_HYPHEN = "\u00ad"  # a break that shows a hyphen when taken, nothing when not
ZERO_WIDTH_SPACE = "\u200b"  # a break of no width
_MARKS = {SOFT_HYPHEN: SOFT_HYPHEN, ZERO_WIDTH_SPACE: ""}
_STRENGTH = (SOFT_HYPHEN, "", " ")
NO_BREAK_SPACES = frozenset("\u00a0\u202f\u2007")  # no-break, narrow no-break and figure space: spaces, never breaks
# Japanese line-start and line-end rules (kinsoku), after UAX #14's CL, CP, NS, EX, IS and OP classes:
# no break before a closing mark, a small kana or the prolonged sound mark, none after an opening mark
_NO_START = frozenset("、。，．・：；？！ー～〜」』）］｝〉》】〕〗〙〛〟’”ゝゞヽヾ々〻‥…‼⁇⁈⁉｡｣､･ｰﾞﾟ％‰℃°¢"
                      "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｬｭｮｯ")
_NO_END = frozenset("「『（［｛〈《【〔〖〘〚〝‘“｢")
# scripts written without spaces, whose characters may each start a line (UAX #14's ID and H2/H3 classes)
_CJK = ((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x303F), (0x3040, 0x30FF), (0x3100, 0x312F), (0x3130, 0x318F),
        (0x31A0, 0x31FF), (0x3200, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7AF),
        (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF))


def _cjk(ch: str) -> bool:
    code = ord(ch)
    return code >= 0x1100 and any(low <= code <= high for low, high in _CJK)


# a paragraph without these (no-break spaces, soft hyphen, and whatever lies from the first CJK
# block on: ZWSP, U+202F too) breaks where `str.split()` splits it, at C speed
_NOT_PLAIN = "[\u00a0\u00ad\u1100-\U0010ffff]"


def _breaks_between(left: str, right: str) -> bool:
    """Whether a line may break between two neighbouring characters of a word: next to
    a CJK character (beside another, a letter or a digit), but never before a closing mark
    or a combining one, nor after an opening mark."""
    if right in _NO_START or left in _NO_END or unicodedata.category(right)[0] == "M":
        return False
    return (_cjk(left) or _cjk(right)) and (_cjk(left) or left.isalnum()) and (_cjk(right) or right.isalnum())


def pieces(paragraph: str) -> list[tuple[str, str, str]]:
    """The unbreakable pieces of a paragraph in order, as (joint, piece, end): `joint` is what
    comes before the piece, " " (whitespace, written as one space), "" (a break of no width)
    or a soft hyphen (written as "-" when the line breaks there, else as nothing); `end` is
    "-" when a soft hyphen follows the piece (a line ending there shows it). No-break spaces
    stay inside their piece; soft hyphens and zero-width spaces are never in a piece.
    Plain text gives its `str.split()` words joined by " "."""
    if paragraph.isascii() or not re.search(_NOT_PLAIN, paragraph):  # re keeps the compiled pattern
        return [(" " if i else "", word, "") for i, word in enumerate(paragraph.split())]
    found: list[tuple[str, str]] = []
    piece, joint = "", ""
    for ch in paragraph:
        mark = " " if ch.isspace() and ch not in NO_BREAK_SPACES else _MARKS.get(ch)
        if mark is not None:
            if piece:
                found.append((joint, piece))
                piece, joint = "", mark
            else:  # marks in a row: a space wins over a zero-width break, which wins over a soft hyphen
                joint = max(joint, mark, key=_STRENGTH.index)
            continue
        if piece and _breaks_between(piece[-1], ch):
            found.append((joint, piece))
            piece, joint = "", ""
        piece += ch
    if piece:
        found.append((joint, piece))
    return [(joint, piece, "-" if i + 1 < len(found) and found[i + 1][0] == SOFT_HYPHEN else "")
            for i, (joint, piece) in enumerate(found)]


def unbreakable(text: str) -> list[str]:
    """The pieces of `text` no line can break inside, each as wide as a line holding it
    alone draws it (with the hyphen of a soft hyphen after it)."""
    return [piece + end for paragraph in str(text).split("\n") for _, piece, end in pieces(paragraph)]


def _given(text: object) -> None:
    """Refuse to measure `None`: it would be laid out, and drawn, as the word "None"."""
    if text is None:
        raise TemplateRuntimeError(NONE_PRINTED)


def _pt(size: float) -> str:
    return f"{size * MM_TO_PT:.1f} pt"


def _snippet(text: str, limit: int = 40) -> str:
    text = " ".join(str(text).split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def text_width(text: str, size: float, weight: str = "normal", family: str | None = None) -> float:
    """Width of `text` in pnp's default font (for code outside templates)."""
    return DEFAULT.text_width(str(text), size, weight, family)