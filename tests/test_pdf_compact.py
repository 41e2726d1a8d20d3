"""The PDF shrinking pass: fewer bytes, the same picture (issue 9: the poker deck <= 35 KB)."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pypdfium2
import pytest
from fontTools.ttLib import TTFont
from PIL import ImageChops, ImageStat
from pypdf import PdfReader

import pnp.formats.pdf_compact as pdf_compact
from pnp.formats.impose import Label, Page, layout, paper
from pnp.formats.pdf import write_pdf
from pnp.load.content import Project, load_game
from pnp.render.faces import render_game

REPO = Path(__file__).resolve().parent.parent


def _glyph(x: str, literal: bytes, y: str = "736.1575", colour: bytes = b"/c0 cs 0 0 0 scn",
           matrix: bytes = b"2.8346455 0 0 -2.8346455") -> bytes:
    return (b"q " + matrix + b" " + x.encode() + b" " + y.encode() + b" cm" + colour
            + b"\nBT 0 Tr/f0 5.5 Tf 1 0 0 -1 0 0 Tm" + literal + b"Tj\nET\nQ\n")


def _tj_positions(content: bytes, widths: dict[int, float]) -> list[float]:
    """Page x (pt) of each glyph of the first TJ in `content`, replaying the PDF text rules."""
    start = float(re.search(rb"-2\.8346455 ([-\d.]+) ", content).group(1))
    items = re.findall(rb"\((?:[^()\\]|\\.)*\)|[-\d.]+", re.search(rb"\[(.*)\]TJ", content).group(1))
    pen, out = 0.0, []
    for item in items:
        if item.startswith(b"("):
            out.append(start + pen * 2.8346455)
            cid = pdf_compact._bytes(item)
            pen += widths[int.from_bytes(cid, "big")] * 5.5 / 1000
        else:
            pen -= float(item) * 5.5 / 1000
    return out


def test_a_run_of_glyphs_on_one_baseline_becomes_one_tj_with_the_same_positions():
    widths = {1: 500.0, 2: 600.0, 3: 250.0}
    xs = ["10", "17.7953", "27.5", "31.4"]  # the third gap is wider than the advance: a kern
    literals = [b"(\\000\\001)", b"(\\000\\002)", b"(\\000\\003)", b"(\\000\\001)"]
    content = b"0 0 m\n" + b"".join(_glyph(x, lit) for x, lit in zip(xs, literals))
    content += _glyph("40", b"(\\000\\002)", y="700")  # another line: its own text object
    content += _glyph("50", b"(\\000\\002)", colour=b"/c0 cs 1 0 0 scn")  # another colour too
    merged = pdf_compact.merge_glyphs(content, {b"/f0": (widths, 1000.0)})
    assert merged.startswith(b"0 0 m\n")
    assert merged.count(b"BT") == 3 and merged.count(b"TJ") == 1
    for got, want in zip(_tj_positions(merged, widths), xs):
        assert abs(got - float(want)) < 0.001
    assert merged.endswith(_glyph("40", b"(\\000\\002)", y="700") + _glyph("50", b"(\\000\\002)", colour=b"/c0 cs 1 0 0 scn"))


def test_a_turned_face_keeps_its_runs_along_the_turned_baseline():
    turned = b"0.0000000000000001 2.8346455 2.8346455 -0.0000000000000001"
    content = b"".join(_glyph("124.29921", lit, y=y, matrix=turned)
                       for y, lit in [("336.9846", b"(\\000\\001)"), ("341.2", b"(\\000\\002)"), ("350", b"(\\000\\003)")])
    merged = pdf_compact.merge_glyphs(content, {b"/f0": ({1: 500.0, 2: 600.0, 3: 250.0}, 1000.0)})
    assert merged.count(b"BT") == 1
    items = re.search(rb"\[(.*)\]TJ", merged).group(1)
    # 336.9846 + 500 * 5.5 / 1000 * 2.8346455 = 344.78 would be the pen: 341.2 is 3.58 pt back
    assert items.startswith(b"(\\000\\001)") and re.match(rb"\(\\000\\001\)(\d+\.?\d*)\(", items)
    shift = float(re.match(rb"\(\\000\\001\)(\d+\.?\d*)\(", items).group(1)) * 5.5 / 1000 * 2.8346455
    assert abs(336.9846 + 500 * 5.5 / 1000 * 2.8346455 - shift - 341.2) < 0.001


def test_a_glyph_in_an_unknown_font_is_left_as_it_is():
    content = _glyph("10", b"(\\000\\001)") + _glyph("13", b"(\\000\\001)")
    assert pdf_compact.merge_glyphs(content, {}) == content


def _poker_plan():
    game = load_game(Project(REPO / "bench" / "poker"), "poker")
    comp = next(c for c in render_game(game, {}, 0.0) if c.pieces)
    return layout(comp, paper("letter"), "poker"), game


def test_pages_drawn_alike_share_one_content_stream():
    plan, game = _poker_plan()
    data = write_pdf(replace(plan, pages=[plan.pages[0], plan.pages[1], plan.pages[0]]), game.fonts)
    pages = PdfReader(io.BytesIO(data)).pages
    ids = [page.raw_get("/Contents").idnum for page in pages]
    assert ids[0] == ids[2] != ids[1]
    assert data.count(b"/FlateDecode") < write_pdf(replace(plan, pages=plan.pages[:3]), game.fonts).count(b"/FlateDecode")


def test_a_label_keeps_typsts_own_text_and_widths_while_the_faces_font_gets_whole_widths():
    """A sheet label is typst's own text, laid out over the fonts' exact widths: it is typeset
    apart from the faces (pnp.formats.pdf.Book), so its font subset keeps its fractional
    widths and its text stays byte for byte, while the faces' subset of the same font gets
    whole widths for its merged glyph runs (which pdfium and poppler then place alike)."""
    plan, game = _poker_plan()
    page = Page(marks=[*plan.pages[0].marks, Label("Poker: cards, sheet 1 of 6", 10, 275)])
    keep = pdf_compact.compacted
    try:
        pdf_compact.compacted = pdf_compact.Compacted.read  # typst's PDF as it is
        raw = write_pdf(replace(plan, pages=[page]), game.fonts)
    finally:
        pdf_compact.compacted = keep
    small = write_pdf(replace(plan, pages=[page]), game.fonts)
    assert len(small) < len(raw) / 2

    def widths_and_text(data: bytes) -> tuple[dict[str, str], list[bytes]]:
        reader = PdfReader(io.BytesIO(data))
        widths = {name: str(f.get_object()["/DescendantFonts"][0].get_object()["/W"])
                  for name, f in reader.pages[0]["/Resources"]["/Font"].items()}
        rest = pdf_compact._GLYPH.sub(b"", reader.pages[0].get_contents().get_data())
        return widths, re.findall(rb"BT.*?ET", rest, re.S)

    def font(label: bytes) -> str:
        return re.search(rb"(/\w+) [\d.]+ Tf", label).group(1).decode()

    (widths, labels), (widths2, labels2) = widths_and_text(raw), widths_and_text(small)
    # typst's label, byte for byte but for the font's resource name (after the object it names)
    assert len(labels) == 1 and labels2[-1].replace(font(labels2[-1]).encode(), b"/F") == labels[0].replace(font(labels[0]).encode(), b"/F")
    assert "." in widths[font(labels[0])] and widths2[font(labels2[-1])] == widths[font(labels[0])]  # fractions kept
    runs = b"".join(labels2[:-1])
    assert b"TJ" in runs and font(labels2[-1]).encode() + b" " not in runs
    for name in set(re.findall(rb"(/\w+) [\d.]+ Tf", runs)):  # the faces' fonts: whole widths
        assert "." not in widths2[name.decode()]


@pytest.fixture(scope="module")
def poker() -> tuple[bytes, bytes]:
    """The bench poker deck's card PDF without and with the shrinking pass."""
    plan, game = _poker_plan()
    keep = pdf_compact.compacted
    try:
        pdf_compact.compacted = pdf_compact.Compacted.read  # typst's PDF as it is
        raw = write_pdf(plan, game.fonts)
    finally:
        pdf_compact.compacted = keep
    return raw, write_pdf(plan, game.fonts)


def _glyph_boxes(data: bytes) -> list[tuple[str, tuple[float, ...]]]:
    """Every drawn character of the PDF with its ink box (pt), as pdfium places it."""
    out = []
    for page in pypdfium2.PdfDocument(data):
        text = page.get_textpage()
        out += [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())]
    return [(char, box) for char, box in out if not char.isspace()]


def test_the_poker_deck_pdf_shrinks_and_puts_every_glyph_where_typst_put_it(poker):
    raw, small = poker
    assert len(small) <= 35 * 1024 < len(raw)
    objects = [sum(page.get_contents().get_data().count(b"BT") for page in PdfReader(io.BytesIO(d)).pages) for d in poker]
    assert objects[1] < objects[0] / 4
    assert small.startswith(b"%PDF-1.7")
    before, after = _glyph_boxes(raw), _glyph_boxes(small)
    assert len(before) == len(after) > 1000
    for (char, box), (char2, box2) in zip(before, after):
        assert char == char2 and max(abs(a - b) for a, b in zip(box, box2)) < 0.005, (char, box, box2)
    # the renderers snap glyphs to sub-pixel steps, so a 0.001 pt move may flip a few edge pixels
    one, two = pypdfium2.PdfDocument(raw), pypdfium2.PdfDocument(small)
    for page in range(len(one)):
        diff = ImageChops.difference(one[page].render(scale=100 / 72).to_pil().convert("L"),
                                     two[page].render(scale=100 / 72).to_pil().convert("L"))
        assert ImageStat.Stat(diff).mean[0] < 0.5, page


def test_the_embedded_fonts_lose_only_their_hinting(poker):
    raw, small = poker

    def fonts(data: bytes) -> list[TTFont]:
        reader = PdfReader(io.BytesIO(data))
        found = []
        for page in reader.pages[:1]:
            for ref in page["/Resources"]["/Font"].values():
                descriptor = ref.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
                found.append(TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data())))
        return found

    pairs = list(zip(fonts(raw), fonts(small)))
    assert pairs
    for old, new in pairs:
        assert "fpgm" in old and "fpgm" not in new and "prep" not in new
        assert new.getGlyphOrder() == old.getGlyphOrder()
        instructed = 0
        for name in old.getGlyphOrder():
            assert new["glyf"][name].getCoordinates(new["glyf"])[0] == old["glyf"][name].getCoordinates(old["glyf"])[0]
            assert new["hmtx"][name] == old["hmtx"][name]
            instructed += bool(getattr(old["glyf"][name], "program", None) and old["glyf"][name].program.getBytecode())
            assert not (getattr(new["glyf"][name], "program", None) and new["glyf"][name].program.getBytecode()), name
        assert instructed > 10
        assert (new["maxp"].maxSizeOfInstructions, new["maxp"].maxFunctionDefs) == (0, 0) != (old["maxp"].maxSizeOfInstructions, 0)


def _font_programs(pdf: bytes) -> list[bytes]:
    reader = PdfReader(io.BytesIO(pdf))
    found = {id(obj): obj for page in reader.pages
             for ref in page["/Resources"]["/Font"].values()
             for obj in [ref.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()["/FontFile2"].get_object()]}
    return [obj.get_data() for obj in found.values()]


def test_the_unhinted_font_is_what_fonttools_makes_of_it(poker):
    """pnp cuts the hinting out as bytes (pnp.formats.truetype); fontTools, doing the same
    through its table objects, is the oracle: the same tables, valid checksums, the bounds
    of head and hhea taken over the subset's own glyphs. The deck's subsets, and one of
    accented letters, which Liberation Sans draws as composite glyphs."""
    import typst

    from pnp.formats.truetype import HINTING, unhinted
    from pnp.load.fonts import DEFAULT

    accented = typst.Compiler(font_paths=list(DEFAULT.dirs), ignore_system_fonts=True).compile(
        input='#set document(date: none)\n#set text(font: "Liberation Sans")\nÆrøskøbing éèüñ ÅÖŽŠ *Ærø* _Itä_\n'.encode())
    programs = _font_programs(poker[0]) + _font_programs(bytes(accented))
    composites = 0
    assert len(programs) >= 4
    for data in programs:
        font = TTFont(io.BytesIO(data), recalcTimestamp=False, recalcBBoxes=False)
        for tag in HINTING:
            if tag.decode() in font:
                del font[tag.decode()]
        boxes = {}
        for name in font.getGlyphOrder():
            glyph = font["glyf"][name]
            if glyph.numberOfContours:
                glyph.expand(font["glyf"])
                if glyph.isComposite():
                    composites += 1
                    if hasattr(glyph, "program"):
                        del glyph.program  # WE_HAVE_INSTRUCTIONS goes with it
                else:
                    glyph.program.fromBytecode(b"")
                boxes[name] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
        head, hhea, metrics = font["head"], font["hhea"], font["hmtx"].metrics
        head.xMin, head.yMin = min(b[0] for b in boxes.values()), min(b[1] for b in boxes.values())
        head.xMax, head.yMax = max(b[2] for b in boxes.values()), max(b[3] for b in boxes.values())
        hhea.advanceWidthMax = max(advance for advance, _ in metrics.values())
        hhea.minLeftSideBearing = min(metrics[name][1] for name in boxes)
        hhea.minRightSideBearing = min(metrics[name][0] - metrics[name][1] - (b[2] - b[0]) for name, b in boxes.items())
        hhea.xMaxExtent = max(metrics[name][1] + b[2] - b[0] for name, b in boxes.items())
        for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions"):
            setattr(font["maxp"], field, 0)
        font["maxp"].maxZones = 1
        expected = io.BytesIO()
        font.save(expected, reorderTables=True)
        made = TTFont(io.BytesIO(unhinted(data)), checkChecksums=2)  # a wrong checksum raises
        oracle = TTFont(io.BytesIO(expected.getvalue()))
        assert sorted(made.keys()) == sorted(oracle.keys())
        made["head"].checkSumAdjustment = oracle["head"].checkSumAdjustment = 0  # a whole-file sum: glyf's encoding counts
        for tag in oracle.keys():  # each table compared as fontTools reads and writes it again
            if tag != "GlyphOrder":
                assert made[tag].compile(made) == oracle[tag].compile(oracle), tag
    assert composites >= 5
    assert unhinted(b"not a font") == b"not a font"
    for cut in (12, 200, len(data) // 2, len(data) - 3):  # a damaged program is left as it is, never a crash
        assert unhinted(data[:cut]) == data[:cut]
