"""PDFs written from a game's book (pnp/formats/pdf.py, pdf_sheets.py): each face is typeset
once for all the game's PDFs and copied wherever it is placed, turned, clipped or not."""

from __future__ import annotations

import base64
import io
import os
import shutil
import subprocess
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from pnp.build.driver import BuildOptions, build
from pnp.formats import pdf_engine
from pnp.formats.impose import Bookmark, Label, Layout, Page, Place, paper
from pnp.formats.pdf import write_pdf
from pnp.formats.raster import svg_to_image
from pnp.load.content import Project, load_game
from pnp.render.faces import Face, render_game

REPO = Path(__file__).resolve().parent.parent
DPI = 72


def _poker():
    game = load_game(Project(REPO / "bench" / "poker"), "poker")
    comp = next(c for c in render_game(game, {}, 0.0) if c.pieces)
    return game, comp


def _difference(raster: Image.Image, png: Image.Image, place: Place) -> float:
    """Mean difference, blurred (sub-pixel placement and anti-aliasing differ, the art must
    not), between where `place` shows on the page raster and the face's PNG laid so."""
    px = DPI / 25.4
    image = png.rotate(place.turn, expand=True) if place.turn else png  # PIL turns counter-clockwise
    bx, by, bw, bh = place.clip or (place.x, place.y, place.w, place.h)
    size = (round(bw * px) - 2, round(bh * px) - 2)  # one pixel in: edge anti-aliasing
    sx, sy = round(bx * px) + 1, round(by * px) + 1
    fx, fy = round((bx - place.x) * px) + 1, round((by - place.y) * px) + 1
    blur = ImageFilter.GaussianBlur(1.5)
    printed = raster.crop((sx, sy, sx + size[0], sy + size[1])).filter(blur)
    drawn = image.resize((round(place.w * px), round(place.h * px))).crop((fx, fy, fx + size[0], fy + size[1])).filter(blur)
    return sum(ImageStat.Stat(ImageChops.difference(printed, drawn)).mean) / 3


def test_a_face_turned_either_way_or_clipped_prints_as_its_png():
    game, comp = _poker()
    face = comp.pieces[0].front
    w, h = face.width, face.height
    places = [Place(face, 10, 10, w, h), Place(face, 10, 110, h, w, 90), Place(face, 110, 110, h, w, -90),
              Place(face, 110, 10, w, h, 0, clip=(120, 20, 30, 40))]
    data = write_pdf(Layout(paper("letter"), "turns", [Page(list(places))]), game.fonts)
    raster = pypdfium2.PdfDocument(data)[0].render(scale=DPI / 72).to_pil().convert("RGB")
    png = svg_to_image(face.svg, DPI, face.fonts).convert("RGB")
    px = DPI / 25.4
    for place in places:
        assert _difference(raster, png, place) < 8, place
    # the clip shows the window only: the face's own corner, outside it, stays blank
    assert raster.getpixel((round(111 * px), round(11 * px))) == (255, 255, 255)
    # the wrong turn would not pass: the card is not symmetric
    wrong = png.rotate(-90, expand=True).resize((round(h * px), round(w * px)))
    turned = raster.crop((round(10 * px), round(110 * px), round(10 * px) + wrong.width, round(110 * px) + wrong.height))
    assert sum(ImageStat.Stat(ImageChops.difference(turned, wrong)).mean) / 3 > 8


def _painted() -> str:
    """A face with what PDF draws each in its own way: gradients, a tiling pattern, a mask,
    a clip path, group opacity, a picture and letter-spaced text."""
    picture = Image.new("RGB", (8, 8), "white")
    for i in range(8):
        picture.putpixel((i, i), (255, 0, 0))
        picture.putpixel((7 - i, i), (0, 0, 255))
    png = io.BytesIO()
    picture.save(png, "PNG")
    uri = "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="60mm" viewBox="0 0 40 60">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient>
<radialGradient id="r"><stop offset="0" stop-color="#ffff00"/><stop offset="1" stop-color="#00aa00"/></radialGradient>
<pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="4" height="8" fill="#000"/></pattern>
<mask id="m"><rect width="40" height="60" fill="#fff"/><circle cx="32" cy="10" r="5" fill="#000"/></mask>
<clipPath id="c"><circle cx="20" cy="32" r="8"/></clipPath></defs>
<rect width="40" height="60" fill="#fff"/><rect width="40" height="20" fill="url(#g)" mask="url(#m)"/>
<rect x="6" y="20" width="28" height="24" fill="url(#r)" clip-path="url(#c)"/>
<g opacity="0.5"><rect x="1" y="41" width="12" height="4" fill="#00f"/><rect x="6" y="43" width="12" height="4" fill="#00f"/></g>
<image x="30" y="40" width="8" height="8" href="{uri}" style="image-rendering:pixelated"/>
<rect y="48" width="40" height="7" fill="url(#p)"/><text x="2" y="59" font-size="3.5" letter-spacing="1" fill="#333">Spaced</text></svg>"""


def test_gradients_and_patterns_follow_the_face_wherever_it_is_placed(tmp_path):
    """A PDF pattern is laid out in the space of the content stream that paints with it:
    each face is placed as a form XObject, so its gradients move and turn with it, as do
    masks, clips, opacity, pictures and spaced letters (in pdfium and poppler)."""
    painted = _painted()
    face = Face("painted", "front", painted, 40, 60, 0)
    places = [Place(face, 10, 10, 40, 60), Place(face, 120, 150, 40, 60), Place(face, 60, 100, 60, 40, 90),
              Place(face, 150, 20, 40, 60, 0, clip=(150, 20, 40, 30))]
    data = write_pdf(Layout(paper("letter"), "painted", [Page(list(places))]))
    rasters = [pypdfium2.PdfDocument(data)[0].render(scale=DPI / 72).to_pil().convert("RGB")]
    if shutil.which("pdftoppm"):
        (tmp_path / "painted.pdf").write_bytes(data)
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(tmp_path / "painted.pdf"), str(tmp_path / "poppler")], check=True)
        rasters.append(Image.open(tmp_path / "poppler.png").convert("RGB"))
    elif os.environ.get("CI"):
        pytest.fail("pdftoppm (poppler-utils) is missing in CI")
    png = svg_to_image(painted, DPI).convert("RGB")
    for raster in rasters:
        for place in places:
            assert _difference(raster, png, place) < 10, place


def test_a_game_is_typeset_once_for_all_its_pdfs(tmp_path, monkeypatch):
    project = tmp_path / "poker"
    shutil.copytree(REPO / "bench" / "poker", project)
    calls = []
    make = pdf_engine.make_book

    def spy(docs, font_files, plans, known):
        calls.append((docs, plans))
        return make(docs, font_files, plans, known)

    monkeypatch.setattr(pdf_engine, "make_book", spy)
    build(Project(project), None, BuildOptions(formats=("pdf",), bleed=0.0))
    assert len(calls) == 1
    (docs, plans), = calls
    assert [plan.title for plan in plans] == ["Poker deck benchmark: Cards", "Poker deck benchmark: print"]
    faces_doc = docs[0][0]
    assert faces_doc.count("#page(") == len(docs[0][1]) == 54  # each card once
    assert sum(mark[0] == "face" for plan in plans for page in plan.pages for mark in page) == 108  # placed twice
    out = project / "output" / "poker"
    for pdf in (out / "pdf" / "card.pdf", out / "poker-print.pdf"):
        text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf))
        assert all(card in text for card in ("Ace of Hearts", "Six of Hearts"))


def test_unicode_titles_and_bookmarks_survive():
    game, comp = _poker()
    face = comp.pieces[0].front
    page = Page([Bookmark("Pièces ✓ 日本"), Place(face, 10, 10, face.width, face.height), Label("Sheet · 1", 10, 200)])
    data = write_pdf(Layout(paper("letter"), "Ærøskøbing: cards", [page, Page([Bookmark("Back (2)")])]), game.fonts)
    pdf = pypdfium2.PdfDocument(data)
    assert [(b.get_title(), b.get_dest().get_index()) for b in pdf.get_toc()] == [("Pièces ✓ 日本", 0), ("Back (2)", 1)]
    assert pdf.get_metadata_dict()["Title"] == "Ærøskøbing: cards"
    assert "Sheet · 1" in pdf[0].get_textpage().get_text_range()


def test_an_engine_failure_is_one_line_and_runs_the_engine_once(tmp_path, monkeypatch):
    from pnp.errors import PnpError

    project = tmp_path / "poker"
    shutil.copytree(REPO / "bench" / "poker", project)
    runs = []

    def broken(text, inputs, font_files):
        runs.append(text)
        return b"", "error: failed to parse SVG (unexpected end of stream)"

    monkeypatch.setattr(pdf_engine, "make_pdf", broken)
    with pytest.raises(PnpError) as failed:
        build(Project(project), None, BuildOptions(formats=("pdf",), bleed=0.0))
    assert [str(e) for e in failed.value.errors] == ["Poker deck benchmark: the PDF engine failed: error: failed to parse SVG (unexpected end of stream)"]
    assert len(runs) == 1  # the card PDF and the print PDF share the failed book
    assert not (project / "output" / "poker").exists()


def test_a_book_page_drawn_in_several_content_streams_is_placed_whole():
    """typst writes one content stream a page, whose compressed bytes become the face's form
    as they are; a page drawn in several streams goes through pikepdf's own conversion."""
    import pikepdf

    from pnp.formats.pdf import SheetPlan
    from pnp.formats.pdf_sheets import Book, compose

    source = pikepdf.Pdf.new()
    page = source.add_blank_page(page_size=(72, 72))
    page.obj.Contents = pikepdf.Array([source.make_stream(b"1 0 0 rg 0 0 36 72 re f"), source.make_stream(b"0 0 1 rg 36 0 36 72 re f")])
    made = io.BytesIO()
    source.save(made)
    plan = SheetPlan("two streams", 50.8, 50.8, [[("face", 0, 12.7, 12.7, 0, None)]])
    raster = pypdfium2.PdfDocument(compose(plan, Book([made.getvalue()])))[0].render(scale=1).to_pil().convert("RGB")
    assert raster.getpixel((50, 72)) == (255, 0, 0) and raster.getpixel((94, 72)) == (0, 0, 255)
    assert raster.getpixel((20, 72)) == (255, 255, 255)  # placed 36 pt in from the left edge


def test_the_book_checks_a_face_no_check_has_passed_yet():
    """The book is the last guard before the engine: a face that names a file outside
    itself is refused there unless pnp's renderer or cache checked it (they refuse such a
    face themselves); a face a build rendered goes in without being parsed again."""
    from pnp.errors import PnpError
    from pnp.formats.pdf import BookPages

    outside = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10mm" '
               'height="10mm"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>')
    with pytest.raises(PnpError, match="outside|refers"):
        BookPages("t", "Liberation Sans").add(Face("c", "f", outside, 10, 10, 0))
    rendered = _poker()[1].faces[0]
    assert rendered.checked
    assert BookPages("t", "Liberation Sans").add(rendered) == 0


def test_the_pdfs_of_one_book_share_its_forms_and_keep_their_own_pages_and_outline():
    """A book's layouts are composed in one document in turn (each face's form copied from
    the book once): each PDF holds only its own pages, outline and title, and is the PDF
    its layout gives alone."""
    import pikepdf

    from pnp.formats.pdf import SheetPlan
    from pnp.formats.pdf_sheets import Book, compose, compose_all

    source = pikepdf.Pdf.new()
    for colour in (b"1 0 0", b"0 0 1"):
        page = source.add_blank_page(page_size=(36, 36))
        page.obj.Contents = source.make_stream(colour + b" rg 0 0 36 36 re f")
    made = io.BytesIO()
    source.save(made)
    marked = SheetPlan("marked", 50.8, 50.8, [[("bookmark", "Reds"), ("face", 0, 12.7, 12.7, 0, None)],
                                               [("face", 1, 12.7, 12.7, 0, None)]])
    plain = SheetPlan("plain", 25.4, 25.4, [[("face", 1, 0, 0, 0, None)]])
    both = compose_all([marked, plain], Book([made.getvalue()]))
    assert both == [compose(marked, Book([made.getvalue()])), compose(plain, Book([made.getvalue()]))]
    with pikepdf.Pdf.open(io.BytesIO(both[1])) as pdf, pdf.open_outline() as outline:
        assert len(pdf.pages) == 1 and not outline.root and str(pdf.docinfo.Title) == "plain"
        forms = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        assert len(forms) == 1  # the blue face only: the red one stayed with the other PDF
    raster = pypdfium2.PdfDocument(both[1])[0].render(scale=1).to_pil().convert("RGB")
    assert raster.getpixel((18, 18)) == (0, 0, 255) and raster.getpixel((54, 54)) == (255, 255, 255)
    with pikepdf.Pdf.open(io.BytesIO(both[0])) as pdf, pdf.open_outline() as outline:
        assert len(pdf.pages) == 2 and [item.title for item in outline.root] == ["Reds"]


def test_a_book_fetches_a_document_only_when_a_sheet_first_draws_from_it():
    """Given each document's page count, the book fetches a document (which may still be
    typesetting) when a sheet first draws one of its pages, all of them before a PDF is
    saved; a document of another page count than announced is refused."""
    import pikepdf

    from pnp.formats.pdf import SheetPlan
    from pnp.formats.pdf_sheets import Book, compose_all

    def document(pages: int) -> bytes:
        source = pikepdf.Pdf.new()
        for _ in range(pages):
            source.add_blank_page(page_size=(36, 36))
        made = io.BytesIO()
        source.save(made)
        return made.getvalue()

    parts = [document(2), document(1)]
    fetched: list[int] = []

    def fetch(part: int) -> bytes:
        fetched.append(part)
        return parts[part]

    book = Book(counts=[2, 1], fetch=fetch)
    assert book.size(2) == (36.0, 36.0) and fetched == [1]  # page 2: the first of the second document
    compose_all([SheetPlan("t", 30, 20, [[("face", 1, 5, 5, 0, None)]])], book)
    assert fetched == [1, 0]
    with pytest.raises(ValueError, match="document 1 of the book has 1 pages, not 2"):
        Book(counts=[2, 2], fetch=parts.__getitem__).size(2)


def test_a_book_looks_each_page_up_once():
    """A sheet asks a face's page for its size, then for its form: the page is looked up in
    its document once (pikepdf's lookup is about 15 us, twice a face of every PDF)."""
    import pikepdf

    from pnp.formats.pdf_sheets import Book

    source = pikepdf.Pdf.new()
    for _ in range(3):
        source.add_blank_page(page_size=(36, 36))
    made = io.BytesIO()
    source.save(made)
    book = Book([made.getvalue()])
    assert book._page(2) is book._page(2)
    assert book.size(2) == (36.0, 36.0) and book.form(2) is book.form(2)


def test_a_font_file_edited_in_place_is_typeset_with_its_new_outlines(tmp_path: Path):
    """`pnp watch` keeps one process: the engine's fonts are keyed by the files' bytes, so a
    font file saved again under the same name (a designer's font update) is loaded again
    rather than the outlines typst loaded first being drawn (a reviewer's watch PDFs kept the
    old font while its PNGs showed the new)."""
    from fontTools.ttLib import TTFont

    from pnp.formats.engine_jobs import make_pdf

    font = tmp_path / "Main-Regular.ttf"
    shutil.copyfile(REPO / "pnp/data/fonts/LiberationSans-Regular.ttf", font)
    doc = '#set document(date: none)\n#set text(font: "Liberation Sans")\n#page(width: 40mm, height: 20mm)[Dusk]\n'
    first, problem = make_pdf(doc, {}, (str(font),))
    assert not problem
    edited = TTFont(font)
    glyph = edited.getBestCmap()[ord("D")]
    width, lsb = edited["hmtx"][glyph]
    edited["hmtx"][glyph] = (width + 150, lsb)
    edited.save(font)
    second, _ = make_pdf(doc, {}, (str(font),))
    assert second != first
    shutil.copyfile(REPO / "pnp/data/fonts/LiberationSans-Regular.ttf", font)
    assert make_pdf(doc, {}, (str(font),))[0] == first  # the same bytes again: the same PDF


class PanicException(BaseException):
    """What pyo3 raises for a Rust panic in typst or resvg (no Exception): the renderers panic
    on a flag or a joined emoji after other text in one <text> (usvg's text layout)."""


def test_a_renderer_panic_is_the_faces_one_line_error_not_a_traceback(monkeypatch):
    import resvg_py

    from pnp.errors import PnpError
    from pnp.formats import engine_jobs
    from pnp.formats.raster import svg_to_png

    def panics(*args, **kwargs):
        raise PanicException("removal index (is 6) should be < len (is 6)")

    monkeypatch.setattr(resvg_py, "svg_to_bytes", panics)
    with pytest.raises(PnpError, match=r"^face card/a: resvg failed drawing it \(removal index .*\); a known cause is an emoji flag"):
        svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="1mm" height="1mm"/>', 72, where="face card/a")

    class Compiler:
        def compile(self, **kwargs):
            panics()

    monkeypatch.setattr(engine_jobs, "compiler", lambda fonts: Compiler())
    data, problem = engine_jobs.make_pdf("#page[]", {}, ())
    assert data == b"" and problem.startswith("typst failed (removal index") and "a <text> of its own" in problem
