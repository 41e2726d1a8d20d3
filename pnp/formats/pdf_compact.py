"""Shrink typst's PDF without changing what it draws.

typst (svg2pdf) writes every glyph of an SVG text as its own `q … cm … BT … Tj ET Q`
group, about 130 bytes a glyph. Runs of such groups on one baseline, with the same
matrix, colour, font and size, become one text object whose TJ array places each glyph
where it was (the gap to the font's advance is a TJ adjustment in 1/1000 em, kept to 0.1,
i.e. well under 0.001 pt). The embedded TrueType subsets lose their hinting programs,
which only steer low-resolution screen rasterizers and are no part of the outlines.
typst draws every placement of a face inline in its page (no form XObject), so pages
drawn alike (a sheet of backs) share one content stream.
"""

from __future__ import annotations

import io
import re
import struct
from collections import Counter
from functools import lru_cache
from typing import Any

# one glyph group as svg2pdf writes it: matrix, colour operators, font and size, one string
_GLYPH = re.compile(
    rb"q ([-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+) ([-\d.]+) ([-\d.]+) cm([^\n]*)\n"
    rb"BT 0 Tr(/\w+) ([\d.]+) Tf 1 0 0 -1 0 0 Tm(\((?:[^()\\]|\\.)*\))Tj\nET\nQ\n"
)
_SET_FONT = re.compile(rb"(/[^\s/\[\]()<>]+)\s+[-\d.]+\s+Tf")
_ESCAPES = {b"n": 10, b"r": 13, b"t": 9, b"b": 8, b"f": 12, b"(": 40, b")": 41, b"\\": 92}
_HINTING = ("fpgm", "prep", "cvt ", "hdmx", "LTSH", "VDMX")


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


def _widths(font: Any, whole: bool) -> tuple[dict[int, float], float] | None:
    """CID -> advance (1/1000 em) of an Identity-H Type0 font, and its default width; with
    `whole`, each rounded to a whole number and the font's /W and /DW rewritten so.

    pdfium drops the fraction of a /W width and poppler keeps it, so a TJ run over
    fractional widths lands differently in the two (up to a few hundredths of a point
    along a line, as in typst's own text); whole widths put both where typst put each
    glyph, and move nothing typst drew when each of its glyphs was placed alone.
    """
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    if font.get("/Subtype") != "/Type0" or font.get("/Encoding") != "/Identity-H":
        return None
    cid_font = font["/DescendantFonts"][0].get_object()
    table: dict[int, float] = {}
    w = [item.get_object() for item in cid_font.get("/W", [])]
    i = 0
    while i < len(w):
        first = int(w[i])
        if isinstance(w[i + 1], list):
            for k, value in enumerate(w[i + 1]):
                table[first + k] = float(value)
            i += 2
        else:
            for cid in range(first, int(w[i + 1]) + 1):
                table[cid] = float(w[i + 2])
            i += 3
    default = float(cid_font.get("/DW", 1000))
    if not whole:
        return table, default
    table = {cid: float(round(value)) for cid, value in table.items()}
    default = float(round(default))
    runs = ArrayObject()
    for cid in sorted(table):
        if runs and cid == int(runs[-2]) + len(runs[-1]):
            runs[-1].append(NumberObject(int(table[cid])))
        else:
            runs.extend([NumberObject(cid), ArrayObject([NumberObject(int(table[cid]))])])
    cid_font[NameObject("/W")] = runs
    cid_font[NameObject("/DW")] = NumberObject(int(default))
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
    advances: dict[tuple[bytes, bytes], float] = {}  # (font, string) -> advance in 1/1000 em

    def advance(font: bytes, literal: bytes) -> float:
        if (font, literal) not in advances:
            table, default = fonts[font]
            codes = _bytes(literal)
            advances[font, literal] = sum(table.get(int.from_bytes(codes[k:k + 2], "big"), default)
                                          for k in range(0, len(codes), 2))
        return advances[font, literal]

    def flush() -> None:
        if len(run) > 1:
            font, size = key[2], float(key[3])
            parts: list[bytes] = [run[0][0]]
            pen = 0.0  # in 1/1000 em along the baseline, after the last glyph shown
            for (prev, _), (literal, target) in zip(run, run[1:]):
                pen += advance(font, prev)
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


def _without_instructions(glyph: bytes) -> bytes:
    """A TrueType glyph record with its hinting instructions cut out (outline bytes untouched)."""
    if len(glyph) < 10:
        return glyph  # an empty glyph
    contours = int.from_bytes(glyph[:2], "big", signed=True)
    if contours >= 0:  # simple: header, contour ends, instruction length and bytes, then the points
        at = 10 + 2 * contours
        length = int.from_bytes(glyph[at:at + 2], "big")
        if not length:
            return glyph
        start = end = at + 2 + length
        points = int.from_bytes(glyph[at - 2:at], "big") + 1 if contours else 0
        coordinates = 0
        while points > 0:  # the flags say how many bytes of coordinates follow (the padding is left out)
            flag, repeat = glyph[end], 1
            end += 1
            if flag & 0x8:  # REPEAT_FLAG
                repeat += glyph[end]
                end += 1
            coordinates += repeat * ((1 if flag & 0x2 else 0 if flag & 0x10 else 2) + (1 if flag & 0x4 else 0 if flag & 0x20 else 2))
            points -= repeat
        return glyph[:at] + b"\0\0" + glyph[start:end + coordinates]
    out, at, flags = bytearray(glyph[:10]), 10, 0x20
    while flags & 0x20:  # MORE_COMPONENTS
        flags = int.from_bytes(glyph[at:at + 2], "big")
        size = 4 + (4 if flags & 0x1 else 2) + (2 if flags & 0x8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0)
        out += (flags & ~0x100).to_bytes(2, "big") + glyph[at + 2:at + size]  # WE_HAVE_INSTRUCTIONS off
        at += size
    return bytes(out)


def _unhinted(data: bytes) -> bytes:
    from fontTools.ttLib import TTFont

    # the glyph records are edited as bytes and written back as they are (no bounding boxes
    # recomputed, no outline re-encoded): the head table keeps its date, so same input, same bytes
    font = TTFont(io.BytesIO(data), recalcTimestamp=False, recalcBBoxes=False)
    for tag in _HINTING:
        if tag in font:
            del font[tag]
    if "glyf" in font:
        glyf = font["glyf"]
        boxes = {}
        for name in font.getGlyphOrder():
            glyph = glyf.glyphs[name]
            if hasattr(glyph, "data"):
                glyph.data = _without_instructions(glyph.data)
                if len(glyph.data) >= 10:
                    boxes[name] = struct.unpack(">4h", glyph.data[2:10])
            elif hasattr(glyph, "program"):
                glyph.program.fromBytecode(b"")
        _subset_bounds(font, boxes)
    if "maxp" in font:
        maxp = font["maxp"]
        for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                      "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions"):
            if hasattr(maxp, field):
                setattr(maxp, field, 1 if field == "maxZones" else 0)
    out = io.BytesIO()
    font.save(out, reorderTables=True)
    return out.getvalue()


def _subset_bounds(font: Any, boxes: dict[str, tuple[int, int, int, int]]) -> None:
    """The font-wide bounds of head and hhea taken over the subset's own glyphs (a subset
    keeps the whole font's; renderers place glyphs by them, as they were before the cut)."""
    if not boxes:
        return
    head = font["head"]
    head.xMin, head.yMin = min(b[0] for b in boxes.values()), min(b[1] for b in boxes.values())
    head.xMax, head.yMax = max(b[2] for b in boxes.values()), max(b[3] for b in boxes.values())
    if "hhea" in font and "hmtx" in font:
        hhea, metrics = font["hhea"], font["hmtx"].metrics
        hhea.advanceWidthMax = max(advance for advance, _ in metrics.values())
        drawn = [(metrics[name], box) for name, box in boxes.items() if name in metrics]
        hhea.minLeftSideBearing = min(lsb for (_, lsb), _ in drawn)
        hhea.minRightSideBearing = min(advance - lsb - (box[2] - box[0]) for (advance, lsb), box in drawn)
        hhea.xMaxExtent = max(lsb + box[2] - box[0] for (_, lsb), box in drawn)


def compact(data: bytes) -> bytes:
    """The PDF `data` (typst's output) with merged glyph runs and unhinted font subsets."""
    from pypdf import PdfWriter
    from pypdf.generic import IndirectObject, NameObject, StreamObject

    writer = PdfWriter(clone_from=io.BytesIO(data))
    writer.pdf_header = data[:data.index(b"\n")]  # typst's version (1.7), not pypdf's default
    done: set[int] = set()
    merged: dict[tuple[bytes, tuple], bytes] = {}  # a sheet printed twice is merged once
    shared: dict[tuple[bytes, tuple], object] = {}  # typst's content and fonts -> the first stream drawing it
    # fonts that also show text other than svg2pdf's one-glyph groups (typst's own labels,
    # laid out over the exact widths) keep their fractional widths, as typst's own text does
    mixed: set[int] = set()
    groups: dict[bytes, list[re.Match[bytes]]] = {}  # a page's content -> its one-glyph groups (found once)
    for page in writer.pages:
        page_fonts = _page_fonts(page)
        drawing = page.get_contents()
        content = drawing.get_data() if drawing is not None else b""
        found = groups.setdefault(content, list(_GLYPH.finditer(content)))
        # a font set more often than the glyph groups set it also shows other text
        in_groups = Counter(match.group(5) for match in found)
        mixed.update(id(page_fonts[name]) for name, uses in Counter(_SET_FONT.findall(content)).items()
                     if name in page_fonts and uses > in_groups[name])
    for page in writer.pages:
        fonts: dict[bytes, tuple[dict[int, float], float]] = {}
        page_fonts = _page_fonts(page)
        identity = tuple((name, id(font)) for name, font in sorted(page_fonts.items()))
        for name, font in page_fonts.items():
            widths = _widths(font, whole=id(font) not in mixed)
            if widths is not None:
                fonts[name] = widths
            _unhint_font(font, done)
        contents = page.get("/Contents")
        if contents is None:
            continue
        drawn = contents.get_object()
        if isinstance(contents, IndirectObject) and isinstance(drawn, StreamObject):
            # a sheet drawn the same as an earlier one (a back printed on every page) shares
            # its stream: a content stream draws with the resources of the page that shows it
            # (and the same fonts under the same names: the merged runs rest on their widths)
            content = drawn.get_data()
            if (content, identity) in shared:
                page[NameObject("/Contents")] = shared[content, identity]
                continue
            shared[content, identity] = contents
        for ref in drawn if isinstance(drawn, list) else [contents]:
            stream = ref.get_object()
            if not isinstance(stream, StreamObject) or id(stream) in done:
                continue
            done.add(id(stream))
            content = stream.get_data()
            key = (content, identity)
            if key not in merged:
                merged[key] = merge_glyphs(content, fonts, groups.get(content))
            stream.set_data(merged[key])
    writer.compress_identical_objects()  # drop the streams no page shows any more, and repeats
    out = io.BytesIO()
    writer.write(out)
    # pypdf writes objects a little more loosely than typst: a PDF with nothing to merge keeps typst's bytes
    return out.getvalue() if out.tell() < len(data) else data


def _page_fonts(page) -> dict[bytes, Any]:
    """The font dictionaries of `page`'s resources by their resource name."""
    resources = page.get("/Resources")
    fonts = resources.get_object().get("/Font") if resources is not None else None
    return {name.encode(): ref.get_object() for name, ref in fonts.get_object().items()} if fonts else {}


def _unhint_font(font, done: set[int]) -> None:
    from pypdf.generic import NameObject, NumberObject

    for descendant in font.get("/DescendantFonts", []):
        descriptor = descendant.get_object().get("/FontDescriptor")
        if descriptor is None:
            continue
        ref = descriptor.get_object().get("/FontFile2")
        if ref is None:
            continue
        stream = ref.get_object()
        if id(stream) in done:
            continue
        done.add(id(stream))
        data = _unhinted(stream.get_data())
        stream.set_data(data)
        stream[NameObject("/Length1")] = NumberObject(len(data))
