"""The per-game print PDF: title page, labels and bookmarks, packing, sheet layouts as
data, back offset, and the project settings file (pnp.yaml) that picks them."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project
from pnp.formats.impose import Label, Paper
from pnp.config import papers, sheet_layout
from pnp.formats.print_pdf import RULER, plan

MM = 72 / 25.4
GAME_YAML = """\
title: Deck
components:
  - {id: card, name: Cards, size: poker, items: '[{"id": "a"}]', copies: {cards}, front: f.svg.j2, back: b.svg.j2}
  - {id: token, name: Tokens, size: 30mm x 30mm, items: '[{"id": "t"}]', copies: {tokens}, front: f.svg.j2}
  - {id: tile, name: Tiles, size: 60mm x 40mm, items: '[{"id": "x"}]', copies: {tiles}, front: f.svg.j2}
"""
FACE = '{% extends "pnp/base.svg.j2" %}{% block background %}#0000ff{% endblock %}'


def make(tmp_path: Path, cards: int = 9, tokens: int = 5, tiles: int = 3) -> Project:
    project = Project(tmp_path / "proj")
    (project.content_dir / "deck").mkdir(parents=True)
    (project.templates_dir / "deck").mkdir(parents=True)
    game = GAME_YAML.replace("{cards}", str(cards)).replace("{tokens}", str(tokens)).replace("{tiles}", str(tiles))
    (project.content_dir / "deck/game.yaml").write_text(game)
    for name in ("f.svg.j2", "b.svg.j2"):
        (project.templates_dir / "deck" / name).write_text(FACE)
    return project


def parts(project: Project, **options):
    (report,) = build(project, None, BuildOptions(formats=("svg",), **options))
    return report.parts


def boxes(page) -> list[tuple[float, float, float, float]]:
    """Each placed face as drawn (its clip where it has one): left, top, right, bottom in mm."""
    out = []
    for p in page.places:
        x, y, w, h = p.clip or (p.x, p.y, p.w, p.h)
        out.append((round(x, 3), round(y, 3), round(x + w, 3), round(y + h, 3)))
    return out


def art_box(pdf: Path, index: int) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom, in mm) of the blue face art on a page of the PDF,
    measured on a 10 px/mm raster."""
    image = pypdfium2.PdfDocument(pdf)[index].render(scale=10 / MM).to_pil().convert("RGB")
    r, g, b = image.split()
    blue = b.point(lambda v: 255 if v > 150 else 0)
    not_red = r.point(lambda v: 255 if v < 100 else 0)
    from PIL import ImageChops

    left, top, right, bottom = ImageChops.multiply(blue, not_red).getbbox()
    return left / 10, top / 10, right / 10, bottom / 10


@pytest.mark.parametrize("paper_name, size, alone", [("letter", (215.9, 279.4), 6), ("a4", (210, 297), 8)])
def test_shared_cut_lines_fit_nine_poker_cards_with_bleed(tmp_path, paper_name, size, alone):
    rendered = parts(make(tmp_path, cards=9, tokens=0, tiles=0), bleed=3.0)
    sheet = Paper(paper_name, *size)
    standard = plan("Deck", rendered, sheet, sheet_layout("standard"))
    assert len(standard.sections[0].pages[0].places) == alone  # each card with its own bleed
    made = plan("Deck", rendered, sheet, sheet_layout("tight"))
    fronts = made.sections[0].pages[0]
    drawn = boxes(fronts)
    assert len(drawn) == 9
    xs = sorted({b[0] for b in drawn} | {b[2] for b in drawn})
    ys = sorted({b[1] for b in drawn} | {b[3] for b in drawn})
    # 3 columns abut at their trim lines: outer bleed 3 mm, one shared cut between neighbours
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])] == [66.0, 63.0, 66.0]
    assert [round(b - a, 3) for a, b in zip(ys, ys[1:])] == [91.0, 88.0, 91.0]
    assert xs[0] >= 4 and ys[0] >= 4 and xs[-1] <= size[0] - 4 and ys[-1] <= size[1] - 4
    cuts = {round(line.x1, 3) for line in fronts.lines if line.x1 == line.x2}
    assert cuts == {round(xs[0] + 3, 3), xs[1], xs[2], round(xs[3] - 3, 3)}  # every cut line has its marks
    # marks stay outside the trim lines (over the outer bleed, which is cut away, where the margin is too narrow to print them)
    assert all(max(line.y1, line.y2) < ys[0] + 3 or min(line.y1, line.y2) > ys[-1] - 3 for line in fronts.lines if line.x1 == line.x2)
    backs = made.sections[0].pages[1]
    assert sorted(boxes(backs)) == sorted((round(size[0] - r, 3), t, round(size[0] - l, 3), b) for l, t, r, b in drawn)


def test_shared_cut_lines_in_the_pdf(tmp_path):
    project = make(tmp_path, cards=9, tokens=0, tiles=0)
    build(project, None, BuildOptions(formats=("pdf",), paper="a4", layout="tight"))
    pdf = project.output_dir / "deck/deck-print.pdf"
    assert len(pypdfium2.PdfDocument(pdf)) == 5  # title, fronts, backs, duplex calibration
    left, top, right, bottom = art_box(pdf, 1)
    # 3 x 3 cards abutting, 3 mm bleed outside only: 3 * 63 + 6 by 3 * 88 + 6, centred
    assert (right - left, bottom - top) == (pytest.approx(195, abs=0.25), pytest.approx(270, abs=0.25))
    assert left == pytest.approx((210 - 195) / 2, abs=0.25) and top == pytest.approx((297 - 270) / 2, abs=0.25)


def test_leftover_one_sided_pieces_share_a_packed_sheet(tmp_path):
    project = make(tmp_path, cards=6, tokens=5, tiles=3)
    (report,) = build(project, None, BuildOptions(formats=("pdf",), layout="standard"))
    assert report.sheets == (2, 3)  # a full sheet of 6 cards (duplex); tokens and tiles share 1 instead of 2
    made = plan("Deck", report.parts, Paper("letter", 215.9, 279.4), sheet_layout("standard"))
    packed = made.sections[-2]  # before the duplex calibration sheet
    assert packed.name == "Packed sheets" and len(packed.pages) == 1
    page = packed.pages[0]
    assert sorted(p.face.component for p in page.places) == ["tile"] * 3 + ["token"] * 5
    drawn = boxes(page)
    kinds = [p.face.component for p in page.places]
    for i, a in enumerate(drawn):
        assert 5 <= a[0] and 5 <= a[1] and a[2] <= 215.9 - 5 and a[3] <= 279.4 - 5
        for j in range(i + 1, len(drawn)):  # no overlap; the pack gap between different components
            b, gap = drawn[j], (6 if kinds[i] != kinds[j] else 0)
            assert a[2] + gap - 1e-6 <= b[0] or b[2] + gap - 1e-6 <= a[0] or a[3] + gap - 1e-6 <= b[1] or b[3] + gap - 1e-6 <= a[1]
    # every cut line has its crop marks, and no mark runs over a piece
    verticals = {round(ln.x1, 3) for ln in page.lines if ln.x1 == ln.x2}
    horizontals = {round(ln.y1, 3) for ln in page.lines if ln.y1 == ln.y2}
    for left, top, right, bottom in drawn:
        assert {round(left + 3, 3), round(right - 3, 3)} <= verticals and {round(top + 3, 3), round(bottom - 3, 3)} <= horizontals
    for ln in page.lines:
        for left, top, right, bottom in drawn:
            assert max(ln.x1, ln.x2) <= left or min(ln.x1, ln.x2) >= right or max(ln.y1, ln.y2) <= top or min(ln.y1, ln.y2) >= bottom
    unpacked = plan("Deck", report.parts, Paper("letter", 215.9, 279.4), sheet_layout("standard"), pack=False)
    assert unpacked.sheets == 3
    pdf = project.output_dir / "deck/deck-print.pdf"
    assert len(pypdfium2.PdfDocument(pdf)) == 6  # title, card fronts, card backs, the packed sheet, calibration
    left, top, right, bottom = art_box(pdf, 3)
    assert (left, top) == (pytest.approx(min(b[0] for b in drawn), abs=0.25), pytest.approx(min(b[1] for b in drawn), abs=0.25))
    assert (right, bottom) == (pytest.approx(max(b[2] for b in drawn), abs=0.25), pytest.approx(max(b[3] for b in drawn), abs=0.25))


def test_leftover_two_sided_pieces_are_packed_with_their_backs_mirrored(tmp_path):
    rendered = parts(make(tmp_path, cards=8, tokens=0, tiles=0))
    made = plan("Deck", rendered, Paper("letter", 215.9, 279.4), sheet_layout("standard"))
    # alone on a packed sheet, the 2 left over go on a sheet of the component's own
    assert [(s.name, s.sides) for s in made.sections[:2]] == [("Cards", ["front", "back"] * 2), ("Duplex calibration", ["front", "back"])]
    twice = rendered + [replace(rendered[0], spec=rendered[0].spec.model_copy(update={"id": "card2", "name": "More cards"}))]
    made = plan("Deck", twice, Paper("letter", 215.9, 279.4), sheet_layout("standard"))
    assert [(s.name, s.sides) for s in made.sections[:3]] == [("Cards", ["front", "back"]), ("More cards", ["front", "back"]),
                                                              ("Packed double-sided sheets", ["front", "back"])]
    fronts, backs = made.sections[2].pages
    assert len(fronts.places) == len(backs.places) == 4
    for f, b in zip(fronts.places, backs.places):
        assert (round(215.9 - f.x - f.w, 6), f.y, f.w, f.h, -f.turn) == (round(b.x, 6), b.y, b.w, b.h, b.turn)


@pytest.mark.parametrize("cards, tiles, tokens, paper, cut, layout, sections", [
    # 2 before: the tokens on a sheet of their own. 14 tiles were the case until tight's packed blocks shared cut
    # lines (they pack with the tokens now); 16 laid 3 by 6 in a packed block leave the tokens no room, their grid 5 by 4 does
    (0, 16, 2, "letter", False, "tight", [("Tiles", ["single"])]),
    # 2 before; with the cut file's marks, whose L corners keep the pieces 32 mm off two opposite edges (tight as
    # standard until its packed blocks shared cut lines: 10 tiles and a token pack on one sheet now)
    (0, 9, 1, "letter", True, "standard", [("Tiles", ["single"])]),
])
def test_one_sided_leftovers_fill_a_one_sided_components_own_leftover_sheet(tmp_path, cards, tiles, tokens, paper, cut, layout,
                                                                           sections):
    """What is left of a one-sided component printed alone on its grid (16 tiles: its grid holds
    them with room to spare, a packed sheet would not) left the rest of that sheet blank while the tokens took a
    sheet of their own; only a two-sided one's took fillers. They go into its free space where
    that saves a sheet: inside the margins (the cut file's too), above the sheet's label."""
    from pnp.formats.cutfile import MARGIN
    from pnp.formats.print_pdf import LABEL_BAND

    rendered = parts(make(tmp_path, cards=cards, tokens=tokens, tiles=tiles))
    sheet, style = Paper(paper, *papers()[paper]), sheet_layout(layout)
    made = plan("Deck", rendered, sheet, style, registration=cut)
    assert [(s.name, s.sides) for s in made.sections] == sections
    assert made.sheets == len(sections) - (1 if cards else 0)  # the calibration sheet aside
    (page,) = next(s for s in made.sections if s.name == "Tiles").pages
    kinds = [p.face.component for p in page.places]
    assert kinds == ["tile"] * tiles + ["token"] * tokens
    drawn = boxes(page)
    for i, a in enumerate(drawn[tiles:], tiles):  # no token over a tile or another token
        assert all(a[2] <= b[0] + 1e-6 or b[2] <= a[0] + 1e-6 or a[3] <= b[1] + 1e-6 or b[3] <= a[1] + 1e-6 for b in drawn[:i])
    margin = MARGIN if cut else style.margin
    for left, top, right, bottom in drawn[tiles:]:
        assert left >= margin and top >= margin and right <= sheet.width - margin
        assert bottom <= sheet.height - style.inset - LABEL_BAND
    again = plan("Deck", rendered, sheet, style, registration=cut)  # the same sheets every build
    assert [[(p.face.name, p.x, p.y) for p in pg.places] for pg in again.layout.pages] == \
        [[(p.face.name, p.x, p.y) for p in pg.places] for pg in made.layout.pages]


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("cut", [False, True])
def test_packed_blocks_share_cut_lines_in_the_tight_layout(shipped_builds, paper, cut):
    """Under `tight` (shared cuts) a component's own sheets shared cut lines, but its packed
    leftovers, and the fillers on another component's sheet, printed each piece with its own
    full bleed: trims 6 mm apart. Now a packed block lays its pieces as the component's own
    sheet does: trims abutting, the bleed only around the block, no piece's art inside another
    piece's trim, a crop mark on every cut line, each back behind its front, and (with a cut
    file) one cut path per piece, at its trim."""
    from pnp.formats.cutfile import outlines

    sheet = Paper(paper, *papers({})[paper])
    abutting = 0
    for game, report in shipped_builds.items():
        made = plan(report.title, report.parts, sheet, sheet_layout("tight"), registration=cut)
        cut_pages = {id(page) for _, page in made.cut_pages}
        for section in made.sections:
            for k, (page, side) in enumerate(zip(section.pages, section.sides)):
                if side == "back" or len({p.face.component for p in page.places}) < 2:
                    continue  # packed sheets and those holding fillers: pieces of several components
                places = page.places
                trims = [(p.x + p.face.bleed, p.y + p.face.bleed, p.x + p.w - p.face.bleed, p.y + p.h - p.face.bleed) for p in places]
                drawn = [(x, y, x + w, y + h) for x, y, w, h in (p.clip or (p.x, p.y, p.w, p.h) for p in places)]
                where = (game, section.name, k)
                for i, (a, t) in enumerate(zip(drawn, trims)):
                    assert a[0] <= t[0] + 1e-6 and a[1] <= t[1] + 1e-6 and t[2] <= a[2] + 1e-6 and t[3] <= a[3] + 1e-6, where
                    for j, o in enumerate(trims):
                        if i == j:
                            continue
                        # no art inside another piece's trim
                        assert a[2] <= o[0] + 1e-6 or o[2] <= a[0] + 1e-6 or a[3] <= o[1] + 1e-6 or o[3] <= a[1] + 1e-6, where
                        # trims abut or lie further apart than both bleeds (two blocks, the pack gap between)
                        room = places[i].face.bleed + places[j].face.bleed + 1e-6
                        across = t[1] < o[3] - 1e-6 and o[1] < t[3] - 1e-6
                        down = t[0] < o[2] - 1e-6 and o[0] < t[2] - 1e-6
                        for gap, beside in ((o[0] - t[2], across), (o[1] - t[3], down)):
                            if beside and abs(gap) <= 1e-6:
                                abutting += 1
                            assert not (beside and 1e-6 < gap <= room), (where, places[i].face.name, places[j].face.name, gap)
                # a crop mark on every cut line (of pieces with a bleed: a bleedless scoring sheet 200 mm wide
                # on A4 leaves no room beside it for one, nor a bleed to move it in over)
                verticals = {round(ln.x1, 3) for ln in page.lines if ln.x1 == ln.x2 and ln.colour != "#ffffff"}
                horizontals = {round(ln.y1, 3) for ln in page.lines if ln.y1 == ln.y2 and ln.colour != "#ffffff"}
                for left, top, right, bottom in (t for t, p in zip(trims, places) if p.face.bleed):
                    assert {round(left, 3), round(right, 3)} <= verticals and {round(top, 3), round(bottom, 3)} <= horizontals, where
                if side == "front":  # each back mirrored behind its front (long-edge duplex), as drawn
                    backs = section.pages[k + 1].places
                    ours = [p for p in places if p.face.component in {b.face.component for b in backs}]
                    assert len(ours) == len(backs), where
                    for f, b in zip(ours, backs):
                        fx, fy, fw, fh = f.clip or (f.x, f.y, f.w, f.h)
                        bx, by, bw, bh = b.clip or (b.x, b.y, b.w, b.h)
                        assert (round(sheet.width - f.x - f.w, 6), f.y, f.w, f.h) == (round(b.x, 6), b.y, b.w, b.h), where
                        assert (round(sheet.width - fx - fw, 6), fy, fw, fh) == (round(bx, 6), by, bw, bh), where
                if id(page) in cut_pages:  # one cut path per piece, at its trim
                    paths = sorted(tuple(round(v, 6) for v in box) for box, _ in outlines(page, made.layout.sheet))
                    assert paths == sorted((round(x, 6), round(y, 6), round(r - x, 6), round(b - y, 6)) for x, y, r, b in trims), where
    assert abutting  # pieces of a packed block share their cut lines


def test_back_offset_shifts_every_back(tmp_path):
    rendered = parts(make(tmp_path, cards=4, tokens=0, tiles=0))
    sheet = Paper("letter", 215.9, 279.4)
    plain = plan("Deck", rendered, sheet, sheet_layout("standard")).sections[0].pages[1].places
    moved = plan("Deck", rendered, sheet, sheet_layout("standard"), back_offset=(1.5, -2.0)).sections[0].pages[1].places
    assert [(round(b.x - a.x, 6), round(b.y - a.y, 6)) for a, b in zip(plain, moved)] == [(1.5, -2.0)] * 4


def test_title_page_labels_and_bookmarks(tmp_path):
    # a full sheet of cards: 6 left the tokens room on the cards' own sheet (one sheet fewer), and a bookmark fewer
    project = make(tmp_path, cards=9, tokens=2, tiles=0)
    (report,) = build(project, None, BuildOptions(formats=("pdf",)))
    pdf = pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")
    toc = [(b.get_title(), b.get_dest().get_index()) for b in pdf.get_toc()]
    assert toc == [("How to print", 0), ("Cards", 1), ("Tokens", 3), ("Duplex calibration", 4)]
    title = pdf[0].get_textpage().get_text_range()
    assert "Print at 100%" in title and "pages 2-3" in title and "50 mm" in title
    assert "Sheet layout: tight. Others: --layout standard (" in title  # the default, named, and only the others offered
    assert "tight (" not in title and "fold (" in title and "scissors (" in title
    assert "Cards: 9 pieces on 1 sheet (page 2)" in title and "Tokens: 2 pieces on 1 sheet (page 4)" in title
    assert "Deck · Cards · sheet 1 of 1 · front" in pdf[1].get_textpage().get_text_range()
    assert "Deck · Cards · sheet 1 of 1 · back" in pdf[2].get_textpage().get_text_range()
    assert pdf[0].get_size() == pytest.approx((215.9 * MM, 279.4 * MM), abs=0.01)
    made = plan("Deck", report.parts, Paper("letter", 215.9, 279.4), sheet_layout("standard"))
    ruler = [ln for ln in made.layout.pages[0].lines if ln.y1 == ln.y2 and ln.width == 0.5 and ln.x2 - ln.x1 > 10]
    assert [round(ln.x2 - ln.x1, 6) for ln in ruler] == [RULER]


def test_a_title_too_long_for_a_line_is_shrunk_to_fit_it(tmp_path):
    """The title and a continuation page's headings are one line each, shrunk to the
    page's room: typst would wrap a longer one over the text below it. (And a print PDF of
    one sheet says "1 sheet", not "1 sheets".)"""
    from pnp.formats import labels

    project = make(tmp_path, cards=6, tokens=2, tiles=0)
    (report,) = build(project, None, BuildOptions(formats=("svg",)))
    sheet = Paper("letter", 215.9, 279.4)
    title = "The Long Prototype of a Game Whose Designer Could Not Stop Naming Things " * 2
    one = " ".join(m.text for m in plan("Deck", report.parts[:1], sheet, sheet_layout("standard")).layout.pages[0].marks
                   if isinstance(m, Label))
    assert "1 sheet in all (1 if every component" in one  # one sheet, said so
    made = plan(title.strip(), report.parts * 40, sheet, sheet_layout("standard"))  # a checklist long enough to continue
    headed = [page for page in made.layout.pages if any(isinstance(m, Label) and title.strip()[:20] in m.text for m in page.marks)]
    assert len(headed) >= 2  # the title page and a continuation
    for page in headed:
        for mark in page.marks:
            if isinstance(mark, Label) and mark.turn == 0:
                assert mark.x + labels.DEFAULT.width(mark.text, mark.size) <= sheet.width - 12 + 1e-6, mark


def test_title_page_lines_in_a_wider_game_font_never_overprint(tmp_path):
    """The title page's text is wrapped by the widths of the game's own font, the one it
    is drawn in: a line measured in pnp's narrower default font was wrapped again by the
    PDF engine, its second line printed over the next one."""
    from test_diff import blocky_font  # every character 0.6 em wide: wider than Liberation Sans

    project = make(tmp_path, cards=6, tokens=2, tiles=0)
    blocky_font(project.content_dir / "deck/Blocky.ttf")
    game = project.content_dir / "deck/game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [Blocky.ttf]\ncomponents:"))
    build(project, None, BuildOptions(formats=("pdf",), paper="letter"))
    page = pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")[0]
    assert "Sheet layout: tight." in " ".join(page.get_textpage().get_text_range().split())
    glyphs = []  # each Blocky glyph's box on the page: its ink is 0.05-0.55 em across, 0-0.7 em up from its origin
    for obj in page.get_objects(max_depth=2):  # each label is a form: its glyphs follow it, placed in its space
        if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
            form = obj.get_matrix()
        elif obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT and obj.level == 1:
            size = obj.get_font_size() * obj.get_matrix().get()[0]
            x, y = form.on_point(*obj.get_matrix().get()[4:])
            glyphs.append((x + 0.05 * size, y, x + 0.55 * size, y + 0.7 * size))
    assert len(glyphs) > 500
    glyphs.sort()
    for i, (left, bottom, right, top) in enumerate(glyphs):
        for other in glyphs[i + 1:]:
            if other[0] >= right - 0.01:
                break  # sorted by their left edge: none further on reaches back to this one
            assert not (other[1] < top - 0.01 and bottom < other[3] - 0.01), f"text overprints {left / MM:.1f} mm across"


def test_layout_marks_use_the_layouts_colour_and_margin(tmp_path):
    rendered = parts(make(tmp_path, cards=4, tokens=0, tiles=0))
    made = plan("Deck", rendered, Paper("letter", 215.9, 279.4), sheet_layout("scissors"), pack=False)
    page = made.sections[0].pages[0]
    assert {ln.colour for ln in page.lines} == {"#808080"}
    drawn = boxes(page)
    assert min(b[0] for b in drawn) >= 8 and min(b[1] for b in drawn) >= 8
    assert drawn[1][0] - drawn[0][2] == pytest.approx(4)  # the layout's gap


@pytest.mark.parametrize("registration", [False, True])
def test_a_piece_too_big_for_a_wide_layout_margin_prints_whole_at_the_standard_margin(shipped_builds, registration):
    """Print review: in the scissors layout (8 mm margins) on Letter, Tasty Humans' monster
    boards (266 mm with bleed, 263.4 mm of room) were split over two pages each to glue, and
    Dietrick-taking's 200 mm scoring sheets (199.9 mm of room, `rotate: never`) went turned
    one to a page; at the standard layout's 5 mm margins they print whole, as there (with a
    cut file, on sheets without registration marks, to cut by hand)."""
    sheet = Paper("letter", *papers({})["letter"])
    for game, component, sheets in (("tasty-humans", "monster-board", 4), ("dietrick-taking", "scoring-sheet", 2)):
        report = shipped_builds[game]
        made = plan(report.title, report.parts, sheet, sheet_layout("scissors"), registration=registration)
        pages = [page for page in made.layout.pages if any(p.face.component == component for p in page.places)]
        assert len(pages) == sheets, game
        assert all(p.clip is None for page in pages for p in page.places), game  # whole, not a window of a split piece
        assert all(min(b[0] for b in boxes(page)) >= 5 - 1e-6 for page in pages)
        assert not any(page is cut for _, cut in made.cut_pages for page in pages)


runner = CliRunner()


def test_settings_file_sets_defaults_and_the_command_line_overrides(tmp_path):
    project = make(tmp_path, cards=2, tokens=0, tiles=0)
    (project.root / "pnp.yaml").write_text(
        "paper: square\nformats: [pdf]\nlayout: roomy\npapers:\n  square: {width: 200mm, height: 200mm}\n"
        "layouts:\n  roomy: {margin: 12, gap: 2, cut: marks}\n")
    result = runner.invoke(app, ["build", "-q", "-p", str(project.root)])
    assert result.exit_code == 0, result.output
    pdf = project.output_dir / "deck/deck-print.pdf"
    assert pypdfium2.PdfDocument(pdf)[0].get_size() == pytest.approx((200 * MM, 200 * MM), abs=0.01)
    assert not (project.output_dir / "deck/svg").exists()  # formats from pnp.yaml
    assert art_box(pdf, 1)[0] >= 12
    result = runner.invoke(app, ["build", "-q", "--paper", "a4", "-p", str(project.root)])
    assert result.exit_code == 0, result.output
    assert pypdfium2.PdfDocument(pdf)[0].get_size() == pytest.approx((210 * MM, 297 * MM), abs=0.01)


@pytest.mark.parametrize("text, error", [
    ("paper: a4\nlayot: tight\n", "pnp.yaml:2:1: unknown key 'layot'"),
    ("paper: b5\n", "pnp.yaml:1:8: unknown paper 'b5'"),  # at the value, not its key (before: 1:1)
    ("layout: nope\n", "pnp.yaml:1:9: unknown layout 'nope'"),
    ("formats: [svg, pfd]\n", "pnp.yaml:1:16: unknown format 'pfd'"),
    ("bleed: lots\n", "pnp.yaml:1:"),
    ("layouts:\n  mine: {margin: 3, cut: dotted}\n", "pnp.yaml:2:"),
])
def test_settings_file_errors_are_located(tmp_path, text, error):
    project = make(tmp_path)
    (project.root / "pnp.yaml").write_text(text)
    result = runner.invoke(app, ["build", "-p", str(project.root)])
    assert result.exit_code == 2
    assert error in result.output
    assert not project.output_dir.exists()


def test_a_layout_option_that_is_none_and_an_empty_settings_file(tmp_path):
    """`--layout` is checked as pnp.yaml's `layout:` is; an empty pnp.yaml sets nothing."""
    project = make(tmp_path, cards=1, tokens=0, tiles=0)
    (project.root / "pnp.yaml").write_text("# nothing set yet\n")
    result = runner.invoke(app, ["build", "-q", "--layout", "nope", "-p", str(project.root)])
    assert (result.exit_code, result.output) == (2, "pnp build: unknown layout 'nope': expected one of standard, tight, fold, scissors, "
                                                    "or one of your own under `layouts:` in pnp.yaml\n")
    assert not project.output_dir.exists()
    assert runner.invoke(app, ["build", "-q", "-f", "svg", "-p", str(project.root)]).exit_code == 0


def test_back_offset_option(tmp_path):
    project = make(tmp_path, cards=2, tokens=0, tiles=0)
    assert runner.invoke(app, ["build", "-q", "-f", "pdf", "--back-offset", "2,-1", "-p", str(project.root)]).exit_code == 0
    pdf = project.output_dir / "deck/deck-print.pdf"
    text = pypdfium2.PdfDocument(pdf)[0].get_textpage().get_text_range()
    assert "shifted by 2 mm across and -1 mm down" in text
    bad = runner.invoke(app, ["build", "-q", "--back-offset", "2", "-p", str(project.root)])
    assert bad.exit_code == 2 and "--back-offset '2': expected X,Y" in bad.output


def test_pdf_single_is_one_face_per_page_with_trim_and_bleed_boxes(tmp_path):
    project = make(tmp_path, cards=2, tokens=3, tiles=0)
    game = project.content_dir / "deck/game.yaml"
    game.write_text(game.read_text().replace("size: poker", "size: pod-poker"))
    (project.root / "pnp.yaml").write_text("bleed: 0.125in\n")  # what the print-on-demand shops ask for
    assert runner.invoke(app, ["build", "-q", "-f", "pdf-single", "-p", str(project.root)]).exit_code == 0
    cards = pypdfium2.PdfDocument(project.output_dir / "deck/pdf-single/card.pdf")
    assert len(cards) == 4  # front, back, front, back
    for page in cards:
        assert page.get_size() == pytest.approx(((63.5 + 6.35) * MM, (88.9 + 6.35) * MM), abs=0.01)
        assert page.get_bleedbox() == pytest.approx((0, 0, (63.5 + 6.35) * MM, (88.9 + 6.35) * MM), abs=0.01)
        assert page.get_trimbox() == pytest.approx((3.175 * MM, 3.175 * MM, (63.5 + 3.175) * MM, (88.9 + 3.175) * MM), abs=0.01)
    assert art_box(project.output_dir / "deck/pdf-single/card.pdf", 0) == pytest.approx((0, 0, 69.8, 95.2), abs=0.11)
    assert (project.output_dir / "deck/pdf-single/card.pdf").read_bytes().startswith(b"%PDF-1.7")  # not pypdf's 1.3
    tokens = pypdfium2.PdfDocument(project.output_dir / "deck/pdf-single/token.pdf")
    assert len(tokens) == 3 and tokens[0].get_size() == pytest.approx((36.35 * MM, 36.35 * MM), abs=0.01)


def test_fold_layout_puts_each_back_behind_its_front_across_the_fold(tmp_path):
    rendered = parts(make(tmp_path, cards=3, tokens=0, tiles=0))
    made = plan("Deck", rendered, Paper("letter", 215.9, 279.4), sheet_layout("fold"))
    (page,) = made.sections[0].pages  # fronts and backs on one page: nothing to print double-sided
    assert made.sections[0].sides == ["fold"]
    fronts = [p for p in page.places if p.face.name == "a"]
    backs = [p for p in page.places if p.face.name != "a"]
    assert len(fronts) == len(backs) == 3
    middle = 215.9 / 2
    for f, b in zip(fronts, backs):
        assert f.x + f.w <= middle <= b.x
        assert (round(middle - (f.x + f.w), 6), f.y, f.turn) == (round(b.x - middle, 6), b.y, -b.turn)  # mirrored about the fold
    (fold,) = [ln for ln in page.lines if ln.dash]
    assert (fold.x1, fold.x2, fold.y1, fold.y2) == (middle, middle, 0, 279.4)
    assert all(ln.x1 <= middle and ln.x2 <= middle for ln in page.lines if not ln.dash)  # crop marks on the front half


def test_fold_layout_prints_a_piece_too_big_for_half_a_sheet_on_whole_sheets_with_its_backs(tmp_path):
    """A two-sided board wider than half a Letter sheet is laid as in other layouts (whole,
    with crop marks, its back on the next page), not split over pages to glue; the title
    page says how a one-sided printer prints that back. Cards fit the half: they still fold."""
    project = make(tmp_path, cards=3, tokens=0, tiles=0)
    game = project.content_dir / "deck/game.yaml"
    game.write_text(game.read_text() + "  - {id: board, name: Boards, size: 150mm x 100mm, items: '[{\"id\": \"b\"}]', "
                                       "copies: 2, front: f.svg.j2, back: b.svg.j2}\n")
    made = plan("Deck", parts(project), Paper("letter", 215.9, 279.4), sheet_layout("fold"))
    cards, boards = made.sections[:2]
    assert (cards.name, cards.sides, boards.name, boards.sides) == ("Cards", ["fold"], "Boards", ["front", "back"])
    fronts, backs = boards.pages
    assert len(fronts.places) == len(backs.places) == 2
    for f, b in zip(fronts.places, backs.places):
        assert f.clip is None and (round(f.w, 6), round(f.h, 6)) == (round(b.w, 6), round(b.h, 6))  # whole, not a window of it
        assert round(b.x, 6) == round(215.9 - f.x - f.w, 6) and b.y == f.y  # mirrored for long-edge duplex
    assert len(fronts.lines) >= 8 and not any(ln.dash for ln in fronts.lines)  # crop marks, no fold line
    words = " ".join(m.text for m in made.layout.pages[0].marks if isinstance(m, Label))
    assert "Double-sided, flip on the long edge: pages 3-4" in words
    assert "One-sided printer: print each front of the double-sided pages alone, then feed the sheet back in" in words
    assert "glue" not in " ".join(m.text for p in boards.pages for m in p.marks if isinstance(m, Label))


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.0, -0.5)])
def test_duplex_calibration_lines_cross_their_scales_at_the_correction(tmp_path, offset):
    """Seen through the sheet (the back mirrored), each back line crosses its front scale where
    the reading plus the offset already applied is the correction: 0 for a perfect printer."""
    from pnp.formats.calibration import calibration_pages

    sheet = Paper("letter", 215.9, 279.4)
    front, back = calibration_pages(sheet, offset)
    zeros_x = sorted(ln.x1 for ln in front.lines if ln.x1 == ln.x2 and round(ln.y2 - ln.y1, 6) == 5.0)  # the X scales' zero ticks
    zeros_y = sorted(ln.y1 for ln in front.lines if ln.y1 == ln.y2 and round(ln.x2 - ln.x1, 6) == 5.0)  # the Y scales' zero ticks
    across = sorted(sheet.width - ln.x1 for ln in back.lines if ln.x1 == ln.x2)  # as seen from the front
    down = sorted(ln.y1 for ln in back.lines if ln.y1 == ln.y2)
    assert len(zeros_x) == len(across) == 5 and len(zeros_y) == len(down) == 5
    # X scale read as printed; Y scale numbered with the sign flipped (down is a negative correction)
    assert all(round((a - z) + offset[0], 6) == 0 for a, z in zip(across, zeros_x))
    assert all(round(-(d - z) + offset[1], 6) == 0 for d, z in zip(down, zeros_y))


def test_print_pdf_ends_with_the_calibration_sheet_when_anything_is_duplex(tmp_path):
    project = make(tmp_path, cards=2, tokens=1, tiles=0)
    (report,) = build(project, None, BuildOptions(formats=("pdf",)))
    pdf = pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")
    assert [b.get_title() for b in pdf.get_toc()][-1] == "Duplex calibration"
    # the token shares the 2 cards' sheet (its back blank); the calibration sheet is not a game sheet
    assert len(pdf) == 1 + 2 + 2 and report.sheets == (1, 2)
    assert "print pages 4-5 (duplex calibration)" in pdf[0].get_textpage().get_text_range()


def test_cut_file_matches_the_pieces_and_registration_marks_are_printed(tmp_path):
    import re

    project = make(tmp_path, cards=4, tokens=3, tiles=0)
    assert runner.invoke(app, ["build", "-q", "-f", "pdf", "--cut-file", "-p", str(project.root)]).exit_code == 0
    out = project.output_dir / "deck"
    assert sorted(p.name for p in (out / "cut").iterdir()) == ["deck-page-002.svg", "deck-page-004.svg"]  # card fronts, packed tokens
    svg = (out / "cut/deck-page-002.svg").read_text()
    cuts = [tuple(float(v) for v in m) for m in re.findall(r'<path d="M([\d.]+) ([\d.]+)h([\d.]+)v([\d.]+)h', svg)]
    assert len(cuts) == 4 and all(sorted((w, h)) == [63, 88] for _, _, w, h in cuts)
    pdf = out / "deck-print.pdf"
    left, top, right, bottom = art_box(pdf, 1)  # the art with its 3 mm bleed around the cut outlines
    assert (left, top) == (pytest.approx(min(x for x, *_ in cuts) - 3, abs=0.25), pytest.approx(min(y for _, y, *_ in cuts) - 3, abs=0.25))
    assert (right, bottom) == (pytest.approx(max(x + w for x, _, w, _ in cuts) + 3, abs=0.25),
                               pytest.approx(max(y + h for _, y, _, h in cuts) + 3, abs=0.25))
    assert left >= 17 and top >= 17  # clear of the marks
    image = pypdfium2.PdfDocument(pdf)[1].render(scale=10 / MM).to_pil().convert("L")
    square = image.crop((101, 101, 149, 149))  # 10-15 mm from the top-left corner
    assert square.getextrema()[1] < 60  # filled black
    assert image.getpixel((90, 90)) > 200 and image.getpixel((160, 160)) > 200  # and no bigger
    assert '<rect x="10" y="10" width="5" height="5"/>' in svg  # the same mark in the cut file
    assert runner.invoke(app, ["build", "-q", "-f", "pdf", "-p", str(project.root)]).exit_code == 0
    assert not (out / "cut").exists()  # stale cut files go when the option is off


@pytest.mark.parametrize("paper_name", ["letter", "a3"])
def test_the_title_page_counts_the_tight_layouts_poker_cards_as_this_build_lays_them(tmp_path, paper_name):
    """The title page offered `tight` as "9 poker cards a sheet" whatever the build: with a
    cut file's registration marks (art 17 mm in, 32 mm off two opposite edges) Letter takes 4,
    A3 12, and A3 takes 18 without."""
    project = make(tmp_path, cards=20, tokens=0, tiles=0)
    for cut in (True, False):
        build(project, None, BuildOptions(formats=("pdf",), paper=paper_name, layout="standard", cut_file=cut))
        title = " ".join(pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")[0].get_textpage().get_text_range().split())
        width, height = papers()[paper_name]
        tight = plan("Deck", parts(project), Paper(paper_name, width, height), sheet_layout("tight"), registration=cut)
        real = len(tight.sections[0].pages[0].places)  # the cards on the tight layout's first sheet
        assert real == {("letter", True): 4, ("letter", False): 9, ("a3", False): 18, ("a3", True): 12}[paper_name, cut]
        assert f"tight ({real} poker cards a sheet, neighbours share cut lines)" in title


@pytest.mark.parametrize("tight, count", [({"margin": 30, "cut": "shared", "gap": 0}, 4), ({"margin": 4, "gap": 12}, 6),
                                          ({"fold": True}, None)])
def test_the_title_page_counts_poker_cards_for_the_projects_own_tight_layout(tmp_path, tight, count):
    """A project's pnp.yaml may replace `tight` (layouts:); the title page still said "9 poker
    cards a sheet, neighbours share cut lines", the built-in one. It describes the layout
    `--layout tight` gives this project, the count as that layout lays the cards (none where
    no one number holds: a fold layout lays cards with backs on half a sheet)."""
    import yaml

    from pnp.config import SheetLayout

    project = make(tmp_path, cards=20, tokens=0, tiles=0)
    build_standard = ["build", "-q", "-f", "pdf", "--layout", "standard", "-p", str(project.root)]

    def title() -> str:
        return " ".join(pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")[0].get_textpage().get_text_range().split())

    assert runner.invoke(app, build_standard).exit_code == 0
    assert "tight (9 poker cards a sheet, neighbours share cut lines)" in title()
    (project.root / "pnp.yaml").write_text(yaml.safe_dump({"layouts": {"tight": tight}}))
    assert runner.invoke(app, build_standard).exit_code == 0  # made again: its title page changed
    if count is None:
        assert "tight (as pnp.yaml sets it)" in title()
        return
    own = sheet_layout("tight", {"tight": SheetLayout.model_validate(tight)})
    made = plan("Deck", parts(project), Paper("letter", *papers()["letter"]), own)
    assert len(made.sections[0].pages[0].places) == count  # what --layout tight puts on a sheet
    assert f"tight ({count} poker cards a sheet, as pnp.yaml sets it)" in title()


def test_the_title_page_offers_the_projects_layouts_under_new_names(tmp_path):
    """The title page offered only the built-in layouts: one a project's pnp.yaml adds under a
    new name (`layouts: {wide: ...}`) was left out. They follow the built-in ones, sorted, each
    with its own count of poker cards (as is a built-in one a project replaces: it gave tight's
    count); with a cut file, a folding one is left out as fold is."""
    import yaml

    project = make(tmp_path, cards=4, tokens=0, tiles=0)
    layouts = {"wide": {"margin": 10, "gap": 3}, "folded": {"fold": True}, "airy": {"margin": 30, "gap": 12},
               "standard": {"margin": 30, "gap": 12}}  # replaced: its own count, not tight's
    (project.root / "pnp.yaml").write_text(yaml.safe_dump({"layouts": layouts}))

    def title(*options: str) -> str:
        assert runner.invoke(app, ["build", "-q", "-f", "pdf", *options, "-p", str(project.root)]).exit_code == 0
        return " ".join(pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")[0].get_textpage().get_text_range().split())

    built_in = "standard (4 poker cards a sheet, as pnp.yaml sets it), fold (one-sided printers), scissors (room to cut)"
    own = "airy (4 poker cards a sheet, as pnp.yaml sets it), folded (as pnp.yaml sets it), wide (6 poker cards a sheet, as pnp.yaml sets it)"
    assert f"Sheet layout: tight. Others: --layout {built_in}, {own}, or layout: in pnp.yaml." in title()
    wide = title("--layout", "wide")
    assert "Sheet layout: wide. Others: --layout tight (9 poker cards a sheet, neighbours share cut lines), standard" in wide
    assert "scissors (room to cut), airy (4 poker cards a sheet, as pnp.yaml sets it), folded (as pnp.yaml sets it), or" in wide
    cut = title("--cut-file")
    assert "folded (" not in cut and "fold (" not in cut and "wide (" in cut


def test_with_a_cut_file_the_title_page_offers_no_layout_that_refuses_one(tmp_path):
    """The title page offered `--layout fold` to a build with a cut file, which fold refuses
    (test below): it offers only the layouts this build's options allow."""
    project = make(tmp_path, cards=4, tokens=0, tiles=0)
    for cut, offered in ((True, "--layout standard (each piece with its bleed), scissors (room to cut), or"),
                         (False, "--layout standard (each piece with its bleed), fold (one-sided printers), scissors (room to cut), or")):
        build(project, None, BuildOptions(formats=("pdf",), cut_file=cut))
        title = " ".join(pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")[0].get_textpage().get_text_range().split())
        assert "Sheet layout: tight. Others: " + offered in title
        assert ("fold (" in title) is not cut
    # what it offers works: scissors with a cut file builds
    assert runner.invoke(app, ["build", "-q", "-f", "pdf", "--cut-file", "--layout", "scissors", "-p", str(project.root)]).exit_code == 0


def test_a_cut_file_for_the_fold_layout_is_refused_from_the_command_line_or_pnp_yaml(tmp_path):
    # a fold sheet is folded and glued before it is cut: a cut file of the unfolded sheet fits no machine
    project = make(tmp_path, cards=4, tokens=0, tiles=0)
    typed = runner.invoke(app, ["build", "-q", "-f", "pdf", "--cut-file", "--layout", "fold", "-p", str(project.root)])
    assert typed.exit_code == 2 and not project.output_dir.exists()
    assert typed.output.splitlines() == [typed.output.strip()] and typed.output.startswith("pnp build: layout fold: no cut file for a folded sheet")
    assert "use layout tight, standard or scissors" in typed.output and "Traceback" not in typed.output
    (project.root / "pnp.yaml").write_text("formats: [pdf]\nlayout: fold\n")  # blamed at fold (before: at layout:)
    defaulted = runner.invoke(app, ["build", "-q", "--cut-file", "-p", str(project.root)])
    assert defaulted.exit_code == 2 and "pnp.yaml:2:9: layout fold: no cut file" in defaulted.output and not project.output_dir.exists()
    assert runner.invoke(app, ["build", "-q", "--cut-file", "--layout", "tight", "-p", str(project.root)]).exit_code == 0


def test_the_fold_refusal_names_the_projects_own_layouts_that_do_not_fold(tmp_path):
    """The refusal named only the built-in tight, standard and scissors: a project's own layouts
    (pnp.yaml `layouts:`) that do not fold follow them, sorted; a folding one, or a built-in one
    the project makes fold, is not named."""
    import yaml

    project = make(tmp_path, cards=4, tokens=0, tiles=0)
    layouts = {"wide": {"margin": 10}, "folded": {"fold": True}, "airy": {"gap": 12}, "standard": {"fold": True}}
    (project.root / "pnp.yaml").write_text(yaml.safe_dump({"layouts": layouts}))
    for layout in ("fold", "folded"):
        refused = runner.invoke(app, ["build", "-q", "-f", "pdf", "--cut-file", "--layout", layout, "-p", str(project.root)])
        assert refused.exit_code == 2 and not project.output_dir.exists() and refused.output.splitlines() == [refused.output.strip()]
        assert f"layout {layout}: no cut file for a folded sheet" in refused.output
        assert "for print-then-cut use layout tight, scissors, airy or wide (--layout" in refused.output
    # each one named builds with the cut file
    for layout in ("scissors", "airy"):
        assert runner.invoke(app, ["build", "-q", "-f", "pdf", "--cut-file", "--layout", layout, "-p", str(project.root)]).exit_code == 0


@pytest.mark.parametrize("formats", ["tts", "pdf-single", "svg,png"])
def test_a_cut_file_asked_for_without_a_print_pdf_is_refused(tmp_path, formats):
    project = make(tmp_path, cards=2, tokens=0, tiles=0)
    typed = runner.invoke(app, ["build", "-q", "-f", formats, "--cut-file", "-p", str(project.root)])
    assert typed.exit_code == 2 and not project.output_dir.exists() and "Traceback" not in typed.output
    assert typed.output.splitlines() == [typed.output.strip()] and typed.output.startswith("pnp build: cut files need the pdf format")


def test_pnp_yamls_cut_file_applies_where_the_formats_make_a_print_pdf(tmp_path):
    project = make(tmp_path, cards=2, tokens=0, tiles=0)
    (project.root / "pnp.yaml").write_text("cut_file: true\n")
    assert runner.invoke(app, ["build", "-q", "-f", "svg", "-p", str(project.root)]).exit_code == 0  # formats typed: no print PDF, no cut file
    assert not (project.output_dir / "deck/cut").exists()
    assert runner.invoke(app, ["build", "-q", "-p", str(project.root)]).exit_code == 0  # the default formats: svg, pdf
    assert (project.output_dir / "deck/cut").is_dir()
    (project.root / "pnp.yaml").write_text("formats: [svg]\ncut_file: true\n")  # pnp.yaml at odds with itself
    both = runner.invoke(app, ["build", "-q", "-p", str(project.root)])
    assert both.exit_code == 2 and "pnp.yaml:2:11: cut files need the pdf format" in both.output


@pytest.mark.parametrize("paper_name", ["letter", "a4"])
def test_the_default_layout_prints_nine_poker_cards_with_every_cut_line_marked(tmp_path, paper_name):
    rendered = parts(make(tmp_path, cards=9, tokens=0, tiles=0), bleed=3.0)
    sheet = Paper(paper_name, *papers({})[paper_name])
    made = plan("Deck", rendered, sheet, sheet_layout(BuildOptions().layout), layout_name=BuildOptions().layout)
    fronts = made.sections[0].pages[0]
    drawn = boxes(fronts)
    assert len(drawn) == 9
    trims = [(p.x + 3, p.y + 3, p.x + p.w - 3, p.y + p.h - 3) for p in fronts.places]  # each face's trim line
    xs = {round(v, 3) for t in trims for v in (t[0], t[2])}
    ys = {round(v, 3) for t in trims for v in (t[1], t[3])}
    assert len(xs) == 4 and len(ys) == 4  # shared cut lines: 4 cuts each way for a 3 x 3 grid
    top, bottom = min(b[1] for b in drawn), max(b[3] for b in drawn)
    left, right = min(b[0] for b in drawn), max(b[2] for b in drawn)
    solid = [ln for ln in fronts.lines if ln.dash is None]
    # a mark above and below the trim on every vertical cut line (on Letter over the outer
    # bleed, the margins there being too narrow for a printer), and beside it on every horizontal one
    for x in xs:
        assert any(round(ln.x1, 3) == x and ln.x1 == ln.x2 and max(ln.y1, ln.y2) <= top + 2.5 for ln in solid)
        assert any(round(ln.x1, 3) == x and ln.x1 == ln.x2 and min(ln.y1, ln.y2) >= bottom - 2.5 for ln in solid)
    for y in ys:
        assert any(round(ln.y1, 3) == y and ln.y1 == ln.y2 and max(ln.x1, ln.x2) <= left for ln in solid)
        assert any(round(ln.y1, 3) == y and ln.y1 == ln.y2 and min(ln.x1, ln.x2) >= right for ln in solid)


def many(tmp_path: Path, count: int) -> Project:
    """The deck with `count` more components of small counters, of 1 to 7 pieces each."""
    project = make(tmp_path, cards=9, tokens=2, tiles=1)
    game = project.content_dir / "deck/game.yaml"
    game.write_text(game.read_text() + "".join(
        f"  - {{id: bit{i}, name: Counters of expedition party {i}, size: 25mm x 25mm, items: '[{{\"id\": \"b\"}}]', "
        f"copies: {i % 7 + 1}, front: f.svg.j2}}\n" for i in range(count)))
    return project


def title_pages_of(made) -> list:
    return made.layout.pages[:min(made.first_page.values()) - 1]


def drawn_bottom(page) -> float:
    """How far down the page (mm) anything on it reaches."""
    from pnp.formats import labels
    from pnp.formats.impose import Label

    return max([labels.DEFAULT.box(m)[3] for m in page.marks if isinstance(m, Label)] + [max(ln.y1, ln.y2) for ln in page.lines])


@pytest.mark.parametrize("count, title_count", [(3, 1), (70, 3)])
def test_a_long_checklist_flows_onto_more_title_pages_with_the_real_page_numbers(tmp_path, count, title_count):
    import re
    from collections import Counter

    from pnp.formats.print_pdf import CALIBRATION, TITLE_MARGIN

    project = many(tmp_path, count)
    (report,) = build(project, None, BuildOptions(formats=("pdf",), cut_file=True))
    sheet = Paper("letter", *papers({})["letter"])
    made = plan("Deck", report.parts, sheet, sheet_layout(BuildOptions().layout), registration=True, layout_name=BuildOptions().layout)
    pages = made.layout.pages
    number = {id(page): n for n, page in enumerate(pages, 1)}  # where each page really is
    assert made.first_page == {s.name: number[id(s.pages[0])] for s in made.sections}
    titles = title_pages_of(made)
    assert len(titles) == title_count
    names = {c.spec.id: c.spec.name for c in report.parts}
    holding: dict[str, set[int]] = {}  # component name -> the pages of the sheets (front sides) holding its pieces
    for s in made.sections:
        for page, side in zip(s.pages, s.sides):
            if side != "back" and s.name != CALIBRATION:
                for p in page.places:
                    holding.setdefault(names[p.face.component], set()).add(number[id(page)])
    assert made.sheets_per_component == {name: len(held) for name, held in holding.items()}

    pdf = pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")
    assert len(pdf) == len(pages)
    assert [(b.get_title(), b.get_dest().get_index()) for b in pdf.get_toc()] == (
        [("How to print", 0)] + [(s.name, made.first_page[s.name] - 1) for s in made.sections])
    text = [" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(title_count)]
    assert all("continued" in t for t in text[1:]) and "continued" not in text[0]
    entries = re.findall(r"(Cards|Tokens|Tiles|Counters of expedition party \d+): \d+ pieces? on \d+ sheets? \(pages? ([\d, -]+)\)",
                         " ".join(text))
    assert Counter(name for name, _ in entries) == Counter(names.values())  # every component once
    for name, ranges in entries:
        printed = set()
        for run in ranges.split(", "):
            low, _, high = run.partition("-")
            printed |= set(range(int(low), int(high or low) + 1))
        assert printed == holding[name], name
    calibration = made.first_page[CALIBRATION]
    assert f"print pages {calibration}-{calibration + 1} (duplex calibration)" in text[0]
    duplex = [f"{made.first_page[s.name]}-{made.first_page[s.name] + len(s.pages) - 1}" for s in made.sections if s.duplex]
    assert len(duplex) == 2 and f"flip on the long edge: pages {', '.join(duplex)}. All other" in text[0]
    # a cut file for every sheet that is cut, named by its real page number
    cut = sorted(n for held in holding.values() for n in held)
    assert sorted(p.name for p in (project.output_dir / "deck/cut").iterdir()) == [f"deck-page-{n:03d}.svg" for n in sorted(set(cut))]
    assert [n for n, _ in made.cut_pages] == sorted(set(cut))
    bottom = sheet.height - max(made.layout.sheet.margin, TITLE_MARGIN)
    assert all(drawn_bottom(page) <= bottom for page in titles)


def test_title_pages_on_small_paper_keep_every_line_inside_the_margins(tmp_path):
    from pnp.formats.impose import Label
    from pnp.formats.print_pdf import TITLE_MARGIN

    rendered = parts(many(tmp_path, 12))
    sheet = Paper("postcard", 100, 150)
    made = plan("Deck", rendered, sheet, sheet_layout("standard"), layout_name="standard")
    titles = title_pages_of(made)
    assert len(titles) > 2
    assert all(drawn_bottom(page) <= sheet.height - max(made.layout.sheet.margin, TITLE_MARGIN) for page in titles)
    shown = [m.text for page in titles for m in page.marks if isinstance(m, Label)]
    assert shown.count("Checklist") == 1 and shown.count(f"{RULER:g} mm") == 1
    assert sum(t.startswith("Counters of expedition party") for t in shown) == 12


def _with_damaged_font(demo: Project) -> Path:
    """The demo project drawing its text with a copy of Liberation Sans whose outlines are
    scrambled (assets/fonts/Damaged.ttf, returned), and its bold beside it."""
    import struct

    from pnp.load.fonts import DEFAULT_DIR, broken_outlines

    data = bytearray((DEFAULT_DIR / "LiberationSans-Regular.ttf").read_bytes())
    for n in range(struct.unpack(">H", data[4:6])[0]):  # the table directory: scramble the glyf table
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * n:28 + 16 * n])
        if tag == b"glyf":
            data[offset:offset + length] = bytes((k * 37) & 0xFF for k in range(offset, offset + length))
    font = demo.root / "assets/fonts/Damaged.ttf"
    font.parent.mkdir(parents=True)
    font.write_bytes(bytes(data))
    assert broken_outlines(font) and not broken_outlines(DEFAULT_DIR / "LiberationSans-Regular.ttf")
    manifest = demo.content_dir / "demo/game.yaml"
    (font.parent / "Bold.ttf").write_bytes((DEFAULT_DIR / "LiberationSans-Bold.ttf").read_bytes())  # the cards' bold titles
    manifest.write_text(manifest.read_text().replace("components:", "fonts: [fonts/Damaged.ttf, fonts/Bold.ttf]\ncomponents:", 1))
    return font


def test_a_font_with_damaged_outlines_is_named_when_the_pdf_engine_fails(demo: Project):
    """The hostile-project report's defect 15: the engine said only `failed to process font
    "Liberation Sans"`; the file is named (the one whose outlines fontTools cannot read)."""
    _with_damaged_font(demo)
    # a process of its own: once typst has met a damaged "Liberation Sans" it fails every later
    # compile of that family in the same process, pnp's own fonts too (typst 0.15)
    done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "build", "-f", "pdf", "--project", str(demo.root)],
                          capture_output=True, text=True, timeout=300, cwd=demo.root)
    result = SimpleNamespace(exit_code=done.returncode, output=done.stdout + done.stderr)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (line,) = result.output.strip().splitlines()
    assert "the PDF engine failed: failed to process font" in line and line.endswith("assets/fonts/Damaged.ttf is damaged (replace it)"), line


def test_a_font_replaced_while_pnp_runs_gets_restart_advice_not_blame(demo: Project):
    """typst 0.15 keeps failing a font family for the rest of a process once it failed on it,
    even after the damaged file is replaced (as in `pnp watch`). The second failure blamed
    every file of the family, the good ones too; it now says to restart."""
    from pnp.load.fonts import DEFAULT_DIR

    font = _with_damaged_font(demo)
    script = f"""
import pathlib
from pnp.build.driver import BuildOptions, build
from pnp.errors import PnpError
from pnp.load.content import Project
for attempt in range(2):
    try:
        build(Project(pathlib.Path({str(demo.root)!r})), None, BuildOptions(formats=("pdf",)))
    except PnpError as exc:
        print(exc.errors[0])
    pathlib.Path({str(font)!r}).write_bytes(pathlib.Path({str(DEFAULT_DIR / "LiberationSans-Regular.ttf")!r}).read_bytes())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=demo.root)
    first, *second = done.stdout.strip().splitlines()
    assert first.endswith("assets/fonts/Damaged.ttf is damaged (replace it)"), first
    if second:  # a typst that forgets the failed font builds the second time
        assert second[0].endswith("the family's files read well now, but the PDF engine keeps a font it failed on until pnp stops: "
                                  "restart `pnp watch`"), second


@pytest.mark.parametrize("cards", [5, 7, 8])
def test_shared_cuts_over_a_short_row_show_no_piece_inside_anothers_trim_line(tmp_path, cards):
    """Shared cut lines with a short last row: the full row's last piece bleeds down and the short
    row's last piece right, into the same bleed x bleed square beyond both corners (the later one
    shows there). Harmless as long as that square, and every bleed drawn, lies outside every other
    piece's trim line: a clean cut never shows another piece's art."""
    rendered = parts(make(tmp_path, cards=cards, tokens=0, tiles=0), bleed=3.0)
    page = plan("Deck", rendered, Paper("letter", 215.9, 279.4), sheet_layout("tight")).sections[0].pages[0]
    drawn = boxes(page)
    trims = [(round(p.x + 3, 3), round(p.y + 3, 3), round(p.x + p.w - 3, 3), round(p.y + p.h - 3, 3)) for p in page.places]
    overlaps = 0
    for i, a in enumerate(drawn):
        for j, b in enumerate(drawn):
            if i != j:
                trim = trims[j]
                assert a[2] <= trim[0] + 1e-6 or trim[2] <= a[0] + 1e-6 or a[3] <= trim[1] + 1e-6 or trim[3] <= a[1] + 1e-6, (i, j)
                overlaps += i < j and not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])
    assert overlaps == 1  # the one corner square, under the full row's last piece
