"""Shrink typst's PDF without changing what it draws.

typst (svg2pdf) writes every glyph of an SVG text as its own `q … cm … BT … Tj ET Q`
group, about 130 bytes a glyph. Runs of such groups on one baseline, with the same
matrix, colour, font and size, become one text object whose TJ array places each glyph
where it was (the gap to the font's advance is a TJ adjustment in 1/1000 em, kept to 0.1,
i.e. well under 0.001 pt). The embedded TrueType subsets lose their hinting programs
(`truetype.py`), which only steer low-resolution screen rasterizers and are no part of
the outlines.
typst draws every placement of a face inline in its page (no form XObject), so pages
drawn alike (a sheet of backs) share one content stream.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from .pdf_objects import PAGE, Document, contents, page_objects, read, ref, renumbered, write
from .truetype import unhinted

# one glyph group as svg2pdf writes it: matrix, colour operators, font and size, one string.
# Every repeat is possessive (`++`, `*+`): what follows each one is a character it cannot
# take, so giving characters back could never make a match, and not trying it scans a
# face's drawing in half the time.
_GLYPH = re.compile(
    rb"q ([-\d.]++ [-\d.]++ [-\d.]++ [-\d.]++) ([-\d.]++) ([-\d.]++) cm([^\n]*+)\n"
    rb"BT 0 Tr(/\w++) ([\d.]++) Tf 1 0 0 -1 0 0 Tm(\((?:[^()\\]++|\\.)*+\))Tj\nET\nQ\n"
)
_FONT_OF = itemgetter(5)  # a glyph group's font
_W = re.compile(rb"/W\[((?:[^\[\]]|\[[^\]]*\])*)\]")
_SET_FONT = re.compile(rb"(/[^\s/\[\]()<>]+)\s+[-\d.]+\s+Tf")
_ESCAPES = {b"n": 10, b"r": 13, b"t": 9, b"b": 8, b"f": 12, b"(": 40, b")": 41, b"\\": 92}


@lru_cache(maxsize=4096)  # a deck repeats few glyph strings many times
def _bytes(literal: bytes) -> bytes:
    """The bytes of a PDF literal string `(…)` as svg2pdf writes it (no line continuations)."""
    out = bytearray()
    body, i = literal[1:-1], 0
    while i < len(body):
        if body[i] != 92:
            out.append(body[i])
            i += 1
            continue
        octal = re.match(rb"[0-7]{1,3}", body[i + 1:i + 4])
        if octal:
            out.append(int(octal.group(), 8) & 255)
            i += 1 + len(octal.group())
        else:
            out.append(_ESCAPES.get(body[i + 1:i + 2], body[i + 1]))
            i += 2
    return bytes(out)


def _widths(doc: Document, number: int, whole: bool) -> tuple[dict[int, float], float] | None:
    """CID -> advance (1/1000 em) of an Identity-H Type0 font, and its default width; with
    `whole`, each rounded to a whole number and the font's /W and /DW rewritten so.

    pdfium drops the fraction of a /W width and poppler keeps it, so a TJ run over
    fractional widths lands differently in the two (up to a few hundredths of a point
    along a line, as in typst's own text); whole widths put both where typst put each
    glyph, and move nothing typst drew when each of its glyphs was placed alone.
    """
    font = doc.get(number)
    if font is None or b"/Subtype/Type0" not in font.head or b"/Encoding/Identity-H" not in font.head:
        return None
    descendant = re.search(rb"/DescendantFonts\[(\d+) 0 R\]", font.head)
    cid_font = doc.get(int(descendant.group(1)) if descendant else None)
    if cid_font is None:
        return None
    table: dict[int, float] = {}
    w = _W.search(cid_font.head)
    tokens = re.findall(rb"\[|\]|[-\d.]+", w.group(1)) if w else []
    i = 0
    while i < len(tokens):
        first = int(tokens[i])
        if tokens[i + 1] == b"[":
            close = tokens.index(b"]", i + 2)
            for k, value in enumerate(tokens[i + 2:close]):
                table[first + k] = float(value)
            i = close + 1
        else:
            for cid in range(first, int(tokens[i + 1]) + 1):
                table[cid] = float(tokens[i + 2])
            i += 3
    dw = re.search(rb"/DW ([-\d.]+)", cid_font.head)
    default = float(dw.group(1)) if dw else 1000.0
    if not whole:
        return table, default
    table = {cid: float(round(value)) for cid, value in table.items()}
    default = float(round(default))
    runs: list[list[int]] = []  # [first CID, widths...] of consecutive CIDs
    for cid in sorted(table):
        if runs and cid == runs[-1][0] + len(runs[-1]) - 1:
            runs[-1].append(int(table[cid]))
        else:
            runs.append([cid, int(table[cid])])
    text = b"/W[" + b" ".join(b"%d[%s]" % (run[0], b" ".join(b"%d" % v for v in run[1:])) for run in runs) + b"]"
    head = cid_font.head.replace(w.group(0), b"") if w else cid_font.head
    head = re.sub(rb"/DW [-\d.]+", b"", head)
    cid_font.head = head[:-2] + b"/DW %d" % default + text + b">>"
    return table, default


def merge_glyphs(content: bytes, fonts: dict[bytes, tuple[dict[int, float], float]],
                 groups: list[re.Match[bytes]] | None = None) -> bytes:
    """`content` with each run of one-glyph text groups on a baseline drawn as one TJ
    (`groups`: the matches of `_GLYPH` in `content`, when already found)."""
    out: list[bytes] = []
    pos = 0
    run: list[tuple[bytes, float]] = []  # the run's glyph strings and their distance along
    first = b""  # the run's first group up to and with its Tm
    base = (0.0, 0.0, 0.0, 0.0, 0.0)  # the run's pen direction a, b, origin e, f and |(a, b)|
    key: tuple[bytes, ...] = ()  # matrix, colour, font and size of the run
    advances: dict[bytes, dict[bytes, float]] = {}  # font -> string -> advance in 1/1000 em

    def flush() -> None:
        if len(run) > 1:
            font, size = key[2], float(key[3])
            known = advances.setdefault(font, {})
            parts: list[bytes] = [run[0][0]]
            pen = 0.0  # in 1/1000 em along the baseline, after the last glyph shown
            prev = run[0][0]
            for literal, target in run[1:]:
                step = known.get(prev)
                if step is None:
                    table, default = fonts[font]
                    codes = _bytes(prev)
                    step = known[prev] = sum(table.get(int.from_bytes(codes[k:k + 2], "big"), default)
                                             for k in range(0, len(codes), 2))
                pen += step
                prev = literal
                tenths = round((pen - target * 1000 / size) * 10)  # the TJ adjustment, to 0.1
                if tenths:
                    parts.append(str(tenths // 10).encode() if tenths % 10 == 0 else f"{tenths / 10:.1f}".encode())
                    pen -= tenths / 10
                parts.append(literal)
            out.append(first + b"[" + b"".join(parts) + b"]TJ\nET\nQ\n")
        elif run:
            out.append(first + run[0][0] + b"Tj\nET\nQ\n")
        run.clear()

    for match in _GLYPH.finditer(content) if groups is None else groups:
        matrix, e, f, colour, font, size, literal = match.groups()
        if run and match.start() == pos and (matrix, colour, font, size) == key:
            a, b, e0, f0, norm = base
            dx, dy = float(e) - e0, float(f) - f0
            along = (dx * a + dy * b) / (norm * norm)
            # on the run's baseline (within 0.0001 pt) and ahead of the last glyph
            if abs(dy * a - dx * b) <= 1e-4 * norm and along >= run[-1][1]:
                run.append((literal, along))
                pos = match.end()
                continue
        flush()
        out.append(content[pos:match.start()])
        pos = match.end()
        a, b = (float(v) for v in matrix.split()[:2])
        if font in fonts and len(_bytes(literal)) % 2 == 0 and (a or b) and float(size) > 0:
            base, key = (a, b, float(e), float(f), (a * a + b * b) ** 0.5), (matrix, colour, font, size)
            first = match.group()[:match.start(7) - match.start()]
            run.append((literal, 0.0))
        else:
            out.append(match.group())
    flush()
    out.append(content[pos:])
    return b"".join(out)


@dataclass
class Compacted:
    """A PDF as typst wrote it, read: its objects, its pages, and the drawing (decoded
    content) of each content stream, which the shrinking pass edits in place. A book of
    faces (`pdf_sheets.Book`) is made from these objects as they are: they are not
    compressed, written and read again on the way."""

    doc: Document
    pages: list[int]
    drawings: dict[int, bytes]  # content stream -> its drawing operators, decoded

    @classmethod
    def read(cls, data: bytes) -> "Compacted | None":
        """`data` read, unedited; None when it is not a PDF as typst writes it."""
        doc = read(data)
        pages = page_objects(doc) if doc is not None else None
        if doc is None or pages is None:
            return None
        drawings = {number: doc.objects[number].data() for page in pages for number in contents(doc, page)}
        return cls(doc, pages, drawings)

    def repeats(self) -> dict[int, int]:
        """Each object that repeats an earlier one (pages drawn alike: a sheet of backs),
        and that one; a page itself stays one page."""
        first: dict[tuple[bytes, bytes | None], int] = {}
        repeats: dict[int, int] = {}
        for number in sorted(self.doc.objects):
            obj = self.doc.objects[number]
            if PAGE.search(obj.head):
                continue
            key = (b"", self.drawings[number]) if number in self.drawings else (obj.head, obj.stream)
            repeats_of = first.setdefault(key, number)
            if repeats_of != number:
                repeats[number] = repeats_of
        return repeats

    def renumbered(self) -> "Compacted":
        """The same without the repeats, numbered as `pdf()` writes them."""
        repeats = self.repeats()
        doc, numbers = renumbered(self.doc, repeats)
        drawings = {numbers[n]: drawing for n, drawing in self.drawings.items() if n not in repeats}
        return Compacted(doc, [numbers[page] for page in self.pages], drawings)

    def pdf(self) -> bytes:
        """The document's bytes, its edited drawings compressed again."""
        for number, drawing in self.drawings.items():
            obj = self.doc.objects[number]
            if drawing != obj.data():
                obj.set_data(drawing)
        return write(self.doc, self.repeats())


def compacted(data: bytes) -> Compacted | None:
    """typst's PDF `data` read, with its glyph runs merged and its font subsets unhinted;
    None when it is not a PDF as typst writes it."""
    found = Compacted.read(data)
    if found is None:
        return None
    doc, pages, decoded = found.doc, found.pages, found.drawings
    fonts_of = {page: _page_fonts(doc, page) for page in pages}
    groups: dict[bytes, list[re.Match[bytes]]] = {}  # drawing operators -> their one-glyph groups (found once)
    # fonts that also show text other than svg2pdf's one-glyph groups (typst's own labels,
    # laid out over the exact widths) keep their fractional widths, as typst's own text does
    mixed: set[int] = set()
    for page in pages:
        for number in contents(doc, page):
            content = decoded[number]
            if content not in groups:
                groups[content] = list(_GLYPH.finditer(content))
            # a font set more often than the glyph groups set it also shows other text
            in_groups = Counter(map(_FONT_OF, groups[content]))
            mixed.update(fonts_of[page][name] for name, uses in Counter(_SET_FONT.findall(content)).items()
                         if name in fonts_of[page] and uses > in_groups[name])
    widths: dict[int, tuple[dict[int, float], float] | None] = {}
    unhinted: set[int] = set()
    merged: dict[tuple[bytes, tuple], bytes] = {}  # a sheet printed twice is merged once
    done: set[int] = set()
    for page in pages:
        fonts: dict[bytes, tuple[dict[int, float], float]] = {}
        for name, number in fonts_of[page].items():
            if number not in widths:
                widths[number] = _widths(doc, number, whole=number not in mixed)
                _unhint_font(doc, number, unhinted)
            if widths[number] is not None:
                fonts[name] = widths[number]  # type: ignore[assignment]
        identity = tuple(sorted(fonts_of[page].items()))  # the merged runs rest on these fonts' widths
        for number in contents(doc, page):
            if number in done:
                continue
            done.add(number)
            key = (decoded[number], identity)
            if key not in merged:
                merged[key] = merge_glyphs(decoded[number], fonts, groups.get(decoded[number]))
            decoded[number] = merged[key]
    return found


def compact(data: bytes) -> bytes:
    """The PDF `data` (typst's output) with merged glyph runs and unhinted font subsets;
    `data` itself when it is not a PDF as typst writes it, or nothing got smaller."""
    found = compacted(data)
    out = found.pdf() if found is not None else data
    return out if len(out) < len(data) else data


def _page_fonts(doc: Document, page: int) -> dict[bytes, int]:
    """The font objects of `page`'s resources by their resource name."""
    head = doc.objects[page].head
    resources = doc.get(ref(head, b"Resources"))
    text = resources.head if resources is not None else head  # the resources, or the page holding them inline
    indirect = doc.get(ref(text, b"Font"))  # a font dictionary of its own, or one inside the resources
    found = re.search(rb"<<(.*?)>>", indirect.head, re.S) if indirect is not None else re.search(rb"/Font<<(.*?)>>", text, re.S)
    return {name: int(number) for name, number in re.findall(rb"(/[^\s/<>\[\]()]+) ?(\d+) 0 R", found.group(1))} if found else {}


def _unhint_font(doc: Document, font: int, done: set[int]) -> None:
    """Drop the hinting of the TrueType program a Type0 font embeds (once per program)."""
    descendant = re.search(rb"/DescendantFonts\[(\d+) 0 R\]", doc.objects[font].head)
    cid_font = doc.get(int(descendant.group(1)) if descendant else None)
    descriptor = doc.get(ref(cid_font.head, b"FontDescriptor")) if cid_font is not None else None
    number = ref(descriptor.head, b"FontFile2") if descriptor is not None else None
    program = doc.get(number)
    if program is None or program.stream is None or number in done:
        return
    done.add(number)  # type: ignore[arg-type]
    data = unhinted(program.data())
    program.set_data(data)
    # /Length1, the program's own length, is asked for by the PDF standard (typst leaves it out)
    length1 = b"/Length1 %d" % len(data)
    program.head = re.sub(rb"/Length1 \d+", length1, program.head) if b"/Length1 " in program.head else program.head[:-2] + length1 + b">>"
