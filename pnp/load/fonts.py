"""Fonts are content: the font files a game's text is drawn and measured with.

pnp ships Liberation Sans (SIL OFL 1.1, `pnp/data/fonts/`); a game may name its own font
files in game.yaml (`fonts:`). The same files feed the PDF engine (typst), the PNG/TTS
rasteriser (resvg) and text measuring, and system fonts are never used, so a build is
the same on every machine and the width a template measures is the width printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import hashlib
import json
import logging
import sys

from ..errors import did_you_mean
from ..files import tree_digest

# fontTools logs why it cannot read a file (a WOFF2 font without brotli) before it raises;
# pnp reports that as one located line (pnp/load/content.py), so the log line goes nowhere
logging.getLogger("fontTools").addHandler(logging.NullHandler())

DEFAULT_DIR = Path(__file__).parent.parent / "data" / "fonts"
DEFAULT_FILES = tuple(sorted(DEFAULT_DIR.glob("*.ttf")))
WEIGHTS = ("normal", "bold", "italic", "bold-italic")
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): ZWJ, ZWSP, soft hyphen,
# variation selectors, bidi marks... typst and resvg draw nothing for them when the face lacks
# them (checked: no fallback font, no box), so they need no glyph and measure 0
IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
             (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def ignorable(ch: str) -> bool:
    """Whether `ch` is a default-ignorable character (drawn as nothing)."""
    code = ord(ch)
    return code >= 0xAD and any(low <= code <= high for low, high in IGNORABLE)


def needs_glyph(ch: str) -> bool:
    """Whether `ch` is drawn with a glyph of its own: whitespace and default-ignorable characters
    are not, and a control character is in no SVG (an error of its own, pnp/render/faces.py)."""
    return not ch.isspace() and not ignorable(ch) and ord(ch) >= 0x20


@lru_cache(maxsize=1)
def _no_glyph() -> frozenset[str]:
    """The characters below U+3000 that need no glyph (`needs_glyph`): controls, whitespace
    and the default-ignorable ones."""
    below = range(0x3000)
    return frozenset(chr(c) for c in range(0x20)) | frozenset(ch for ch in map(chr, below) if ch.isspace()) \
        | frozenset(chr(c) for low, high in IGNORABLE for c in range(low, high + 1) if c in below)


def weight_name(bold: bool, italic: bool) -> str:
    """The `weight` the helpers take for a style: normal, bold, italic or bold-italic."""
    return "-".join(w for w, on in (("bold", bold), ("italic", italic)) if on) or "normal"


def chars_named(chars: list[str]) -> str:
    """Characters as an error names them: '日' (U+65E5), ..."""
    return ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)


@dataclass(frozen=True)
class Face:
    """One font file's metrics: horizontal advances per character, in em units."""

    path: Path
    family: str
    bold: bool
    italic: bool
    units_per_em: int
    advances: dict[int, int]  # code point -> advance width
    kerning: dict[tuple[int, int], int]
    variable: bool = False  # a file with an `fvar` table (its default instance, or `bold_instance`)
    # where on its weight axis these metrics are (a variable font with one): typst and resvg draw
    # text of weight w at w on the axis, so this face measures text of that weight alone
    wght: float | None = None
    # text -> its advance in font units: fitting measures one text at many sizes
    measured: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def width(self, text: str, size: float) -> float:
        """Width of `text` at `size` (same unit as `size`), with the font's pair kerning."""
        return self.units(text) * size / self.units_per_em

    def units(self, text: str) -> int:
        """Advance of `text` in font units: the characters' advances and their pairs' kerning."""
        total = self.measured.get(text)
        if total is None:
            total = 0
            prev = None
            missing = self.advances.get(0xFFFD, self.units_per_em // 2)
            for ch in text:
                code = ord(ch)
                # a soft hyphen is drawn only where a line breaks (wrap writes a hyphen there):
                # the renderers hide it, glyph or not
                advance = self.advances.get(code)
                if advance is None or code == 0xAD:
                    advance = 0 if code == 0xAD or ignorable(ch) else missing
                total += advance
                if prev is not None:
                    total += self.kerning.get((prev, code), 0)
                prev = code
            if len(self.measured) < 100_000:  # bounded: a long watch session measures many texts
                self.measured[text] = total
        return total

    def lacks(self, text: str) -> list[str]:
        """The characters of `text` this face has no glyph for (those needing one, see `needs_glyph`)."""
        chars = set(text)
        if chars <= self.chars:  # most texts: every character has a glyph (a set's test, at C speed)
            return []
        return sorted(ch for ch in chars - self.chars if needs_glyph(ch))

    @cached_property
    def chars(self) -> frozenset[str]:
        """The characters this face has a glyph for."""
        return frozenset(map(chr, self.advances))

    @property
    def name(self) -> str:
        """The face as errors name it: 'IPAGothic', 'DejaVu Sans bold'."""
        return f"{self.family}{' bold' if self.bold else ''}{' italic' if self.italic else ''}"

    def joined(self, left: str, left_units: float, right: str) -> float:
        """`units(left + right)` from `units(left)`: kerning only pairs neighbours, so a line
        grown word by word is measured in one pass, not once per word over its whole length.
        Both are non-empty (`TextFit.wrap` joins " " + word to a line)."""
        return left_units + self.kerning.get((ord(left[-1]), ord(right[0])), 0) + self.units(right)


SHIPPED_METRICS = DEFAULT_DIR / "metrics.json"  # the shipped fonts' metrics: no fontTools on an ordinary build


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@lru_cache(maxsize=1)
def _shipped() -> dict:
    try:
        return json.loads(SHIPPED_METRICS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _as_json(face: Face) -> dict:
    return {"family": face.family, "bold": face.bold, "italic": face.italic, "units_per_em": face.units_per_em,
            "advances": sorted(face.advances.items()), "kerning": sorted([a, b, v] for (a, b), v in face.kerning.items())}


@lru_cache(maxsize=32)
def load_face(path: Path, stamp: float) -> Face:
    """Read one font file (cached while the file is unchanged)."""
    known = _shipped().get(path.name)
    if known and path.parent == DEFAULT_DIR and known["sha256"] == _sha(path):
        return Face(path, known["family"], known["bold"], known["italic"], known["units_per_em"],
                    {c: w for c, w in known["advances"]}, {(a, b): v for a, b, v in known["kerning"]})
    return read_face(path)


def read_face(path: Path) -> Face:
    """A font file's metrics, read with fontTools."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), lazy=True)
    try:
        names = font["name"]
        family = str(names.getDebugName(16) or names.getDebugName(1) or path.stem)
        style = str(names.getDebugName(17) or names.getDebugName(2) or "").lower()
        os2 = font["OS/2"] if "OS/2" in font else None
        bold = "bold" in style or bool(os2 and os2.usWeightClass >= 600)
        italic = "italic" in style or "oblique" in style
        cmap = font.getBestCmap() or {}
        metrics = font["hmtx"].metrics
        advances = {code: metrics[glyph][0] for code, glyph in cmap.items() if glyph in metrics}
        kerning = _kerning(font, cmap)
        axis = next((a for a in font["fvar"].axes if a.axisTag == "wght"), None) if "fvar" in font else None
        return Face(path, family, bold, italic, font["head"].unitsPerEm, advances, kerning, "fvar" in font,
                    axis.defaultValue if axis is not None else None)
    finally:
        font.close()


BOLD_WEIGHT = 700  # what `bold` asks a variable font's weight axis for (CSS)


@lru_cache(maxsize=32)
def bold_instance(path: Path, stamp: float) -> Face | None:
    """A variable font's bold instance (its weight axis at 700), which typst and resvg draw
    for bold text (checked: the glyphs and advances are the instance's): its metrics, so
    the helpers measure what is printed. Only for a variable font (`Face.variable`: it has
    an `fvar` table); None for an axis short of 700."""
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    with TTFont(str(path)) as font:
        axis = next((a for a in font["fvar"].axes if a.axisTag == "wght"), None)
        if axis is None or not axis.minValue <= BOLD_WEIGHT <= axis.maxValue or axis.defaultValue >= 600:
            return None
        regular = read_face(path)
        bold = instancer.instantiateVariableFont(font, {"wght": BOLD_WEIGHT})
        cmap = bold.getBestCmap() or {}
        metrics = bold["hmtx"].metrics
        advances = {code: metrics[glyph][0] for code, glyph in cmap.items() if glyph in metrics}
        return Face(path, regular.family, True, regular.italic, bold["head"].unitsPerEm, advances, _kerning(bold, cmap), True, BOLD_WEIGHT)


def broken_outlines(path: Path) -> bool:
    """Whether fontTools fails to read a glyph outline of the font file (a corrupt `glyf`
    table): read only after the PDF engine failed on the font's family, as it reads them all."""
    from fontTools.ttLib import TTFont

    try:
        with TTFont(str(path), lazy=True) as font:
            if "glyf" in font:
                glyphs = font["glyf"]
                for name in font.getGlyphOrder():
                    glyphs[name].expand(glyphs)
    except Exception:  # fontTools' failures on broken data are of many kinds
        return True
    return False


def _kerning(font, cmap: dict[int, str]) -> dict[tuple[int, int], int]:
    """Pairs from a legacy `kern` table (what Liberation Sans has; GPOS kerning is not read)."""
    if "kern" not in font:
        return {}
    by_glyph: dict[str, list[int]] = {}
    for code, glyph in cmap.items():
        by_glyph.setdefault(glyph, []).append(code)
    pairs: dict[tuple[int, int], int] = {}
    for table in font["kern"].kernTables:
        for (left, right), value in getattr(table, "kernTable", {}).items():
            for a in by_glyph.get(left, ()):
                for b in by_glyph.get(right, ()):
                    pairs[(a, b)] = value
    return pairs


class FontChoice(ValueError):
    """A helper asked to measure with a face the game's fonts do not have."""


class LackingGlyphs(FontChoice):
    """A helper asked to measure `text` in a face without glyphs for `lacking` of its characters."""

    def __init__(self, message: str, text: str, lacking: list[str]):
        super().__init__(message)
        self.text, self.lacking = text, lacking


class StandIns(LackingGlyphs):
    """Characters whose stand-in face typst and resvg would choose differently: the PDF and
    the PNG would not draw the text alike, so no width measured is the width printed."""


class MissingStyle(FontChoice):
    """Bold or italic text in a family with no file of that style (or a family the game has
    no file of): `asked` is what asked for it, the message says what each of the files is."""

    def __init__(self, faces: list[Face], asked: str, bold: bool, italic: bool, family: str, hint: str = ""):
        style = " ".join(w for w, on in (("bold", bold), ("italic", italic)) if on) or "regular"
        files = ", ".join(f"{f.path.name} is {f.family}{' bold' if f.bold else ''}{' italic' if f.italic else ''}"
                          f"{' (a variable font: pnp draws its weight axis at 700 for bold and no other axis, so a static file of the style is needed)' if f.variable and not f.bold else ''}"
                          for f in faces)
        super().__init__(f"{asked}: the game's fonts have no {style} file of {family} ({files}): add one to game.yaml "
                         f"`fonts:`, or {hint or 'draw this text in a family and weight the game has'}")


class Fonts:
    """The font files of one game, with the first file's family as the default face."""

    def __init__(self, files: tuple[Path, ...] = DEFAULT_FILES, family: str | None = None):
        self.files = tuple(files)
        self._chosen: dict[tuple[str, str | None], Face] = {}
        if family is not None:  # known without reading the files: a cached build never loads fontTools
            self.__dict__["family"] = family

    @cached_property
    def faces(self) -> list[Face]:
        """A face a file, and a variable font's bold instance after its file's face."""
        faces = []
        for p in self.files:
            face = load_face(p, p.stat().st_mtime)
            faces.append(face)
            if face.variable and (bold := bold_instance(p, p.stat().st_mtime)) is not None:
                faces.append(bold)
        return faces

    @cached_property
    def family(self) -> str:
        """The family faces use unless they say otherwise."""
        return self.faces[0].family

    @cached_property
    def paths(self) -> tuple[str, ...]:
        """The font files for the PDF engine, which is given these alone (pnp/formats/engine_jobs.py)."""
        return tuple(sorted(str(p) for p in self.files))

    @cached_property
    def digest(self) -> str:
        """Changes when any font file does (for cache keys)."""
        return tree_digest(self.files)

    def face(self, weight: str = "normal", family: str | None = None, text: str = "") -> Face:
        """The file for `weight` (normal, bold, italic, bold-italic) of `family` (the default
        family when None); a family the game has no file of, or a weight the family has no
        file of, is an error (MissingStyle), as the PDF and the PNG would draw another face
        than the one measured. `text`: what is to be measured, whose characters the family
        that error suggests instead must have."""
        key = (weight, family)
        if key not in self._chosen:
            if weight not in WEIGHTS:
                raise FontChoice(f"unknown weight {weight!r}: expected one of {', '.join(WEIGHTS)}")
            name = family or self.family
            families = sorted({f.family for f in self.faces})
            if name not in families:
                meant = next((f for f in families if f.casefold() == name.casefold()), None)  # `dejavu sans`: its case
                raise FontChoice(f"family {name!r} is none of the game's fonts: expected one of {', '.join(families)}"
                                 + (f" (did you mean {meant!r}?)" if meant else did_you_mean(name, families)))
            want_bold, want_italic = "bold" in weight, "italic" in weight
            candidates = [f for f in self.faces if f.family == name]
            chosen = min(candidates, key=lambda f: (f.bold != want_bold) * 2 + (f.italic != want_italic))
            if (want_bold and not chosen.bold) or (want_italic and not chosen.italic):  # regular text may take a styled file
                styled = [f for f in self.faces if f.bold == want_bold and f.italic == want_italic]
                # a family to suggest has all of the text's characters in that file, or it would be measured with guesses
                others = sorted({f.family for f in styled if not f.lacks(text)})
                hint = (f"measure the text in the family it is drawn in (family=\"{others[0]}\" has that file)" if others
                        else "draw this text in a family and weight the game has (no other family's file of that weight "
                             "has all of its characters)" if styled else "")
                raise MissingStyle(self.faces, f"weight {weight!r}", want_bold, want_italic, name, hint)
            self._chosen[key] = chosen
        return self._chosen[key]

    def text_width(self, text: str, size: float, weight: str = "normal", family: str | None = None) -> float:
        return self.face(weight, family, str(text)).width(str(text), size)

    def stand_in(self, base: Face, ch: str, used: list[Face]) -> Face | None:
        """The face typst and resvg both draw `ch` from where `base` (and the stand-ins `used`
        before) lack it, None where no face of the game has it. resvg takes the first file in
        game.yaml order that has it (usvg's default fallback selector), typst the file of the
        family and style closest to `base` (its FontBook's `select_fallback`, over these files
        alone: pnp/formats/engine_jobs.py): one family's files, the closest of them listed
        first, are the choice both make; else StandIns."""
        tried = {u.path for u in used}
        having = [f for f in self.faces if f.path not in tried and ch in f.chars]
        if not having:
            return None
        first = having[0]
        closest = min(having, key=lambda f: ((f.italic != base.italic) * 2 + (f.bold != base.bold), having.index(f)))
        named = chars_named([ch])
        if len({f.family for f in having}) > 1:
            raise StandIns(f"{named} is in {' and '.join(sorted({f.family for f in having}))}, which the PDF and the PNG choose "
                           "between differently", ch, [ch])
        if any(f.variable for f in having):
            raise StandIns(f"{named} is in a variable font ({first.path.name}), which pnp does not measure as a stand-in", ch, [ch])
        if closest is not first:
            raise StandIns(f"the PNG would draw {named} from {first.path.name} and the PDF from {closest.path.name}: list "
                           f"{closest.path.name} before {first.path.name} in game.yaml `fonts:`", ch, [ch])
        return first

    def drawn(self, base: Face, text: str) -> Face | dict[str, Face]:
        """The faces that draw `text` as one run of text (a `<text>`, or a line of it given its
        own x) in `base`, as usvg lays it out for typst and resvg alike: the first character
        `base` lacks brings its stand-in (`stand_in`); a stand-in with every character of the
        run draws all of it (the Face), else it draws the lacking characters it has (a dict
        from each to its face), and the next one lacking brings the next. LackingGlyphs names
        the characters no face has."""
        lacking = base.lacks(text)
        if not lacking:
            return base
        pending = [ch for ch in dict.fromkeys(text) if ch in lacking]  # in the order usvg meets them
        chosen: dict[str, Face] = {}
        used = [base]
        while pending:
            face = self.stand_in(base, pending[0], used)
            if face is None:
                none = sorted(ch for ch in pending if not any(ch in f.chars for f in self.faces))
                raise LackingGlyphs(f"no font of the game has {chars_named(none)}", text, none)
            # usvg's test is every glyph found, spaces too: only ignorables are none in any face
            if all(ch in face.chars or ignorable(ch) or ord(ch) < 0x20 for ch in set(text)):
                return face
            chosen.update((ch, face) for ch in pending if ch in face.chars)
            pending = [ch for ch in pending if ch not in chosen]
            used.append(face)
        return chosen

    @cached_property
    def everywhere(self) -> frozenset[str]:
        """The characters every face of the game has a glyph for, or needs none for: a text
        of these alone is drawn as measured whatever face it is in."""
        chars = frozenset.intersection(*(face.chars for face in self.faces)) if self.faces else frozenset()
        return chars | _no_glyph()

    def having(self, chars: list[str], weight: str = "normal") -> list[str]:
        """The families whose `weight` file has every one of `chars`: what an error suggests."""
        found = []
        for family in sorted({f.family for f in self.faces}):
            try:
                if not self.face(weight, family).lacks("".join(chars)):
                    found.append(family)
            except FontChoice:
                continue
        return found

    def suggest(self, chars: list[str], weight: str, text: str = "") -> tuple[str, str, bool] | None:
        """A family that has all of `text`'s characters (True), else all of `chars`, those its
        face lacks (False: the text needs two fonts), in its `weight` file, else in its regular
        file, and that weight: what an error about a face lacking them suggests; None when no
        family has them."""
        whole = sorted({ch for ch in text if needs_glyph(ch)})
        for wanted, complete in ((whole, True), (chars, False)) if whole else ((chars, True),):
            for style in dict.fromkeys((weight, "normal")):
                if found := self.having(wanted, style):
                    return found[0], style, complete
        return None


DEFAULT = Fonts(DEFAULT_FILES, "Liberation Sans")


def write_shipped_metrics() -> None:
    """Record the shipped fonts' metrics (run after changing pnp/data/fonts/: python -m pnp.load.fonts)."""
    table = {p.name: {"sha256": _sha(p), **_as_json(read_face(p))} for p in DEFAULT_FILES}
    SHIPPED_METRICS.write_text(json.dumps(table, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_shipped_metrics()
    print(f"wrote {SHIPPED_METRICS}", file=sys.stderr)
