"""Nothing a user needs is printed where a desktop printer cannot print: on every sheet of
every shipped game's print PDF, on Letter and A4, in every built-in layout, each label and
instruction line lies `inset` mm or more from the paper edge and every crop mark, landing
tick and fold line has PRINTED_MARK mm (or all of itself, when shorter) inside that inset."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pnp.config import papers, sheet_layout, table
from pnp.formats import labels
from pnp.formats.impose import Label, Paper
from pnp.formats.impose import PRINTED_MARK
from pnp.formats.print_pdf import plan

GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")


def _inside(line, sheet: Paper, inset: float) -> float:
    """How long a stretch of `line` (vertical or horizontal) lies inside the printable area."""
    x1, x2 = sorted((line.x1, line.x2))
    y1, y2 = sorted((line.y1, line.y2))
    if x1 == x2:
        if not inset <= x1 <= sheet.width - inset:
            return 0.0
        return max(0.0, min(y2, sheet.height - inset) - max(y1, inset))
    if not inset <= y1 <= sheet.height - inset:
        return 0.0
    return max(0.0, min(x2, sheet.width - inset) - max(x1, inset))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_labels_and_marks_print_inside_the_printable_inset(shipped_builds, game, paper):
    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    for name in table():
        style = sheet_layout(name)
        assert style.inset == 4.2
        made = plan(report.title, report.parts, sheet, style, layout_name=name)
        inset = style.inset
        for number, page in enumerate(made.layout.pages, 1):
            for text in (m for m in page.marks if isinstance(m, Label)):
                left, top, right, bottom = labels.DEFAULT.box(text)
                assert inset <= left and right <= sheet.width - inset and inset <= top and bottom <= sheet.height - inset, \
                    (name, number, text.text, (left, top, right, bottom))
            for line in page.lines:
                length = abs(line.x2 - line.x1) + abs(line.y2 - line.y1)
                assert _inside(line, sheet, inset) >= min(PRINTED_MARK, length) - 1e-6, (name, number, line)


def test_the_split_board_instruction_names_the_board_once_inside_the_inset(shipped_builds):
    report = shipped_builds["cave"]
    for paper in ("letter", "a4"):
        sheet = Paper(paper, *papers({})[paper])
        made = plan(report.title, report.parts, sheet, sheet_layout("tight"))
        found = [m for page in made.layout.pages for m in page.marks if isinstance(m, Label) and "Cut on the dashed lines" in m.text]
        assert len(found) >= 2
        for text in found:
            assert text.text.startswith("board: page ") and "board/board" not in text.text
            assert labels.DEFAULT.box(text)[1] >= 4.2


def test_a_split_board_without_bleed_prints_its_edge_inside_the_inset(shipped_builds):
    """The cave board has no bleed (its printed edge is its trim): every window of it on a
    page lies `inset` mm or more from the paper's edges, so no printer drops its border
    (print review: it lay 4.0 mm from the side, inside the 4.2 mm inset)."""
    report = shipped_builds["cave"]
    for paper in ("letter", "a4"):
        sheet = Paper(paper, *papers({})[paper])
        made = plan(report.title, report.parts, sheet, sheet_layout("tight"))
        windows = [m.clip for page in made.layout.pages for m in page.places if m.clip and m.face.component == "board"]
        assert windows
        for x, y, w, h in windows:
            assert x >= 4.2 - 1e-9 and y >= 4.2 - 1e-9 and x + w <= sheet.width - 4.2 + 1e-9 and y + h <= sheet.height - 4.2 + 1e-9, (paper, x, y, w, h)


def test_the_cover_offers_only_the_other_layouts(shipped_builds):
    report = shipped_builds["dietrick-taking"]
    sheet = Paper("a4", *papers({})["a4"])
    for name in table():
        made = plan(report.title, report.parts, sheet, sheet_layout(name), layout_name=name)
        cover = " ".join(m.text for m in made.layout.pages[0].marks if isinstance(m, Label))
        assert f"Sheet layout: {name}. Others: --layout" in cover
        offered = [other for other in table() if f"{other} (" in cover]
        assert offered == [other for other in table() if other != name], name


def test_a_turned_label_prints_up_the_side_margin_of_the_pdf(tmp_path):
    """Nine poker cards on Letter leave only the side margins deep enough for the sheet's
    label: the PDF shows it there, read from the bottom up, inside the inset."""
    import pypdfium2

    from pnp.build.driver import BuildOptions, build
    from test_print_pdf import make

    project = make(tmp_path, cards=9, tokens=0, tiles=0)
    build(project, None, BuildOptions(formats=("pdf",), paper="letter", layout="tight"))
    page = pypdfium2.PdfDocument(project.output_dir / "deck/deck-print.pdf")[1]
    text = page.get_textpage()
    whole = text.get_text_range()
    assert "Deck · Cards · sheet 1 of 1 · front" in whole
    mm = 72 / 25.4
    width, height = page.get_size()
    chars = [text.get_charbox(i) for i in range(text.count_chars()) if not whole[i].isspace()]
    left, bottom = min(c[0] for c in chars) / mm, min(c[1] for c in chars) / mm
    right, top = max(c[2] for c in chars) / mm, max(c[3] for c in chars) / mm
    assert top - bottom > 50 and right - left < 3  # one line up the page
    assert left >= 4.2 and right <= width / mm - 4.2 and bottom >= 4.2 and top <= height / mm - 4.2
    assert right > width / mm - 10.45  # in the right margin, beside the cards


@pytest.mark.parametrize("game", GAMES)
def test_each_components_own_pdf_keeps_its_marks_and_instructions_printable(shipped_builds, game):
    from pnp.formats.impose import layout

    for paper in ("letter", "a4"):
        sheet = Paper(paper, *papers({})[paper])
        for part in shipped_builds[game].parts:
            for number, page in enumerate(layout(part, sheet, part.spec.name).pages, 1):
                for text in (m for m in page.marks if isinstance(m, Label)):
                    left, top, right, bottom = labels.DEFAULT.box(text)
                    assert 4.2 <= left and right <= sheet.width - 4.2 and 4.2 <= top and bottom <= sheet.height - 4.2, text.text
                for line in page.lines:
                    length = abs(line.x2 - line.x1) + abs(line.y2 - line.y1)
                    assert _inside(line, sheet, 4.2) >= min(PRINTED_MARK, length) - 1e-6, (part.spec.name, number, line)


@pytest.mark.parametrize("margin", [5.0, 0.0])
def test_the_no_pieces_label_of_a_components_pdf_prints_inside_the_inset(shipped_builds, margin):
    """A component with nothing to print gets one page saying so: its label, however long
    the game's title, lies inside the printable inset like every other sheet label."""
    import dataclasses

    from pnp.formats.impose import layout

    part = dataclasses.replace(shipped_builds["dietrick-taking"].parts[0], pieces=[])
    for paper in ("letter", "a4"):
        sheet = Paper(paper, *papers({})[paper], margin)
        for title in ("Short", "A game whose title runs on and on, far wider than any paper: " * 3):
            (page,) = layout(part, sheet, title).pages
            (text,) = page.marks
            assert isinstance(text, Label) and text.text.endswith(("no pieces to print", "…")), text.text
            left, top, right, bottom = labels.DEFAULT.box(text)
            assert 4.2 <= left and right <= sheet.width - 4.2 and 4.2 <= top and bottom <= sheet.height - 4.2, (title, text)


def _trim_edges(place, bleed: float):
    """The piece's trim box (left, top, right, bottom) on the page."""
    return place.x + bleed, place.y + bleed, place.x + place.w - bleed, place.y + place.h - bleed


def _split_pages(report, sheet):
    """(where, page) of every page of the cave board split over pages: its own PDF and the
    print PDF in every sheet layout."""
    from pnp.formats.impose import layout

    board = next(p for p in report.parts if p.spec.id == "board")
    yield "board.pdf", layout(board, sheet, "board").pages, board.bleed
    for name in table():
        made = plan(report.title, report.parts, sheet, sheet_layout(name), layout_name=name)
        yield name, made.layout.pages, board.bleed


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_outer_trim_line_of_a_split_board_has_a_crop_mark_at_both_ends(shipped_builds, paper):
    """Print review: a split board's pages had no crop marks on its outer trim lines (only
    the dashed overlap lines and the landing ticks), so no ruler could be laid on them."""
    sheet = Paper(paper, *papers({})[paper])
    pages_seen = 0
    for where, pages, bleed in _split_pages(shipped_builds["cave"], sheet):
        for number, page in enumerate(pages, 1):
            tiles = [p for p in page.places if p.clip and p.face.component == "board" and p.face.name == "board"]
            if not tiles:
                continue
            (tile,) = tiles
            cx, cy, cw, ch = tile.clip
            left, top, right, bottom = _trim_edges(tile, bleed)
            marks = [ln for ln in page.lines if ln.dash is None and ln.colour != "#ffffff" and ln.width < 0.5]
            vertical = [ln for ln in marks if ln.x1 == ln.x2]
            horizontal = [ln for ln in marks if ln.y1 == ln.y2]
            if any(isinstance(m, Label) and "Cut on the dashed" in m.text for m in page.marks) is False:
                continue  # a back
            pages_seen += 1
            for x in (left, right):
                if cx - 1e-6 <= x <= cx + cw + 1e-6:
                    assert any(abs(ln.x1 - x) < 1e-6 and max(ln.y1, ln.y2) <= cy for ln in vertical), (where, number, "above", x)
                    assert any(abs(ln.x1 - x) < 1e-6 and min(ln.y1, ln.y2) >= cy + ch for ln in vertical), (where, number, "below", x)
            for y in (top, bottom):
                if cy - 1e-6 <= y <= cy + ch + 1e-6:
                    assert any(abs(ln.y1 - y) < 1e-6 and max(ln.x1, ln.x2) <= cx for ln in horizontal), (where, number, "left", y)
                    assert any(abs(ln.y1 - y) < 1e-6 and min(ln.x1, ln.x2) >= cx + cw for ln in horizontal), (where, number, "right", y)
            boxes = [labels.DEFAULT.box(m) for m in page.marks if isinstance(m, Label)]
            for ln in page.lines:
                for l_, t_, r_, b_ in boxes:
                    crosses = l_ < max(ln.x1, ln.x2) and min(ln.x1, ln.x2) < r_ and t_ < max(ln.y1, ln.y2) and min(ln.y1, ln.y2) < b_
                    assert not crosses, (where, number, ln)
                length = abs(ln.x2 - ln.x1) + abs(ln.y2 - ln.y1)
                assert _inside(ln, sheet, 4.2) >= min(PRINTED_MARK, length) - 1e-6, (where, number, ln)
    assert pages_seen >= 10


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_split_boards_instruction_line_keeps_a_gap_from_the_crop_marks_beside_it(shipped_builds, paper):
    """Print review: the line began 0.5 mm after the left trim line's crop mark, which read
    as a letter of it ("|board: page 1 of 2"); it keeps TEXT_ROOM mm from every mark."""
    from pnp.formats.impose import TEXT_ROOM

    sheet = Paper(paper, *papers({})[paper])
    seen = 0
    for where, pages, _ in _split_pages(shipped_builds["cave"], sheet):
        for number, page in enumerate(pages, 1):
            for text in (m for m in page.marks if isinstance(m, Label) and "Cut on the dashed" in m.text):
                seen += 1
                left, top, right, bottom = labels.DEFAULT.box(text)
                for ln in page.lines:
                    x1, x2 = sorted((ln.x1, ln.x2))
                    y1, y2 = sorted((ln.y1, ln.y2))
                    if y1 < bottom and top < y2:  # beside the text: as far from it as TEXT_ROOM
                        assert x2 <= left - TEXT_ROOM + 1e-6 or x1 >= right + TEXT_ROOM - 1e-6, (where, number, ln)
    assert seen >= 10


@pytest.mark.parametrize("game", GAMES)
def test_packed_blocks_crop_marks_print_2_mm_each_in_its_own_half_of_the_gap(shipped_builds, game):
    """Print review: a packed block's marks stopped in its half of the gap 1 mm from its art
    (pack_gap 6: 1.5 mm of mark); each is PRINTED_MARK mm or more, none runs onto other art
    (only over its own piece's bleed, on a white halo), and a mark between two pieces' art
    stays on one side of the gap's middle, so it reads as one block's mark."""
    seen = 0
    for paper in ("letter", "a4"):
        sheet = Paper(paper, *papers({})[paper])
        for name in table():
            made = plan(shipped_builds[game].title, shipped_builds[game].parts, sheet, sheet_layout(name), layout_name=name)
            for section in (s for s in made.sections if s.name.startswith("Packed")):
                for page in section.pages:
                    art = [p.clip or (p.x, p.y, p.w, p.h) for p in page.places]
                    halos = {(ln.x1, ln.y1, ln.x2) for ln in page.lines if ln.colour == "#ffffff"}
                    for ln in page.lines:
                        if ln.dash is not None or ln.colour == "#ffffff" or ln.width >= 0.5:
                            continue
                        seen += 1
                        assert abs(ln.x2 - ln.x1) + abs(ln.y2 - ln.y1) >= PRINTED_MARK - 1e-6, (paper, name, ln)
                        if (ln.x1, ln.y1, ln.x2) in halos:
                            continue
                        x1, x2 = sorted((ln.x1, ln.x2))
                        y1, y2 = sorted((ln.y1, ln.y2))
                        for ax, ay, aw, ah in art:
                            assert not (ax - 0.4 < x2 and x1 < ax + aw + 0.4 and ay - 0.4 < y2 and y1 < ay + ah + 0.4), (paper, name, ln)
                        vertical = x1 == x2
                        at, low, high = (x1, y1, y2) if vertical else (y1, x1, x2)
                        across = [(ay, ay + ah) if vertical else (ax, ax + aw) for ax, ay, aw, ah in art
                                  if ((ax <= at <= ax + aw) if vertical else (ay <= at <= ay + ah))]
                        before = max((end for _, end in across if end <= low + 1e-6), default=None)
                        after = min((start for start, _ in across if start >= high - 1e-6), default=None)
                        if before is not None and after is not None:  # between two pieces' art: on one side of the middle
                            middle = (before + after) / 2
                            assert high <= middle - 0.4 or low >= middle + 0.4, (paper, name, ln, before, after)
    assert seen


def _all_labels(report, sheet):
    from pnp.formats.impose import layout

    for name in table():
        for pack in (True, False):
            made = plan(report.title, report.parts, sheet, sheet_layout(name), layout_name=name, pack=pack)
            for number, page in enumerate(made.layout.pages, 1):
                yield (name, pack, number), [m for m in page.marks if isinstance(m, Label)]
    for part in report.parts:
        for number, page in enumerate(layout(part, sheet, part.spec.name).pages, 1):
            yield (part.spec.name, number), [m for m in page.marks if isinstance(m, Label)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_label_pnp_prints_is_at_least_the_faces_6_pt_floor(shipped_builds, game, paper):
    """pnp's own text (sheet labels, a split piece's instruction line) meets the floor a
    face's text must (pnp/render/textfit.py): it used to print at 5 pt, shrinking to 3.5."""
    sheet = Paper(paper, *papers({})[paper])
    for where, found in _all_labels(shipped_builds[game], sheet):
        for text in found:
            assert text.size >= 6, (where, text)
            assert not text.text.endswith("…"), (where, text)  # shortened words, never cut ones


@pytest.mark.parametrize("paper", list(papers({})))
def test_the_calibration_sheet_prints_no_text_under_6_pt(paper):
    from pnp.formats.calibration import calibration_pages

    sheet = Paper(paper, *papers({})[paper])
    front, back = calibration_pages(sheet, (0.5, -1))
    for page in (front, back):
        sizes = {m.text: m.size for m in page.marks if isinstance(m, Label)}
        assert min(sizes.values()) >= 6, sizes
    assert {"X", "Y", "0", "5", "-5"} <= {m.text for m in front.marks if isinstance(m, Label)}  # the scales still numbered


def test_a_crop_mark_a_sheet_label_shortens_over_the_bleed_keeps_its_white_halo():
    """Code review: a mark `margin_marks` moved in over the bleed (the art 1 mm above the
    printable inset) starts up to a bleed above the art's edge; shortened above the sheet's
    label, it lost its halo (the piece was looked for only near the mark's end)."""
    from types import SimpleNamespace

    from pnp.formats.impose import Page, Place, margin_marks
    from pnp.formats.print_pdf import _sheet_label

    sheet, style, bleed = Paper("a4", *papers({})["a4"]), sheet_layout("standard"), 3.0
    bottom = sheet.height - style.inset - 1.0
    box = (5.0, 5.0, sheet.width - 5.0, bottom)
    page = Page()
    page.add(Place(SimpleNamespace(bleed=bleed, component="c", name="c"), box[0], box[1], box[2] - box[0], box[3] - box[1]))
    margin_marks(page, sheet, [box[0] + bleed, 100.0, box[2] - bleed], [], box, style, inner=bleed - 0.5)
    _sheet_label(page, sheet, "Some game · Cards · sheet 1 of 3 · front", style.margin, style.inset)
    at = [ln for ln in page.lines if ln.x1 == ln.x2 == box[0] + bleed and max(ln.y1, ln.y2) > bottom - 5]
    marks = [ln for ln in at if ln.colour != "#ffffff"]
    halos = [ln for ln in at if ln.colour == "#ffffff"]
    assert marks and min(min(ln.y1, ln.y2) for ln in marks) < bottom  # over the art's bleed...
    assert [(min(h.y1, h.y2), max(h.y1, h.y2)) for h in halos] == [(min(m.y1, m.y2), min(max(m.y1, m.y2), bottom)) for m in marks]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_beside_a_sheet_label_keep_a_printed_length(shipped_builds, game, paper):
    """Where a sheet's label takes the bottom margin, the crop marks above it kept ~1.1 mm:
    each is PRINTED_MARK mm long or more inside the printable area (packed sheets too; a
    white halo lies only under the part of a mark over the bleed)."""
    sheet = Paper(paper, *papers({})[paper])
    report = shipped_builds[game]
    for name in table():
        for pack in (True, False):
            made = plan(report.title, report.parts, sheet, sheet_layout(name), layout_name=name, pack=pack)
            for number, page in enumerate(made.layout.pages, 1):
                for text in (m for m in page.marks if isinstance(m, Label) and m.turn == 0 and m.y > sheet.height / 2):
                    left, top, right, _ = labels.DEFAULT.box(text)
                    for ln in page.lines:  # the marks stopped above the label
                        if ln.dash is None and ln.colour != "#ffffff" and ln.x1 == ln.x2 and left - 0.5 <= ln.x1 <= right + 0.5 and \
                                top - 1.5 <= max(ln.y1, ln.y2) <= top:
                            assert _inside(ln, sheet, 4.2) >= PRINTED_MARK - 1e-6, (name, pack, number, ln)


@pytest.mark.parametrize("layout", ["standard", "scissors"])
def test_a_rotate_never_piece_too_wide_for_the_paper_is_split_unturned(shipped_builds, layout):
    """Dietrick-taking's 200 mm wide scoring sheet says `rotate: never`; wider than a
    205 mm paper's margins leave, it was split the turned way round (whole on one page)
    all the same. Now it is split as it stands, over two pages each, each telling its place
    (print review: never "page 1 of 1", a page with no neighbour to glue)."""
    report = shipped_builds["dietrick-taking"]
    sheet = Paper("narrow", 205, 279.4)
    made = plan(report.title, report.parts, sheet, sheet_layout(layout))
    split = [page for page in made.layout.pages if any(p.face.component == "scoring-sheet" for p in page.places)]
    assert len(split) == 8 and all(len(page.places) == 1 and page.places[0].turn == 0 for page in split)
    for k, page in enumerate(split):
        texts = [m.text for m in page.marks if isinstance(m, Label)]
        assert any(f"page {k % 2 + 1} of 2. Cut on the dashed" in t for t in texts), texts
        assert not any("page 1 of 1" in t for t in texts), texts


def test_a_rotate_never_piece_is_split_unturned_in_its_own_pdf_too(shipped_builds):
    """The component's own PDF (pnp.formats.impose.layout) splits it the same way."""
    from pnp.formats.impose import layout

    report = shipped_builds["dietrick-taking"]
    (sheets,) = [c for c in report.parts if c.spec.id == "scoring-sheet"]
    pages = layout(sheets, Paper("narrow", 205, 279.4, 5.0), "Scoring sheets").pages
    assert len(pages) == 2 * sum(p.copies for p in sheets.pieces)
    assert all(p.turn == 0 for page in pages for p in page.places)
    turned = replace(sheets, spec=sheets.spec.model_copy(update={"rotate": "auto"}))  # free to turn: whole, one page each
    assert len(layout(turned, Paper("narrow", 205, 279.4, 5.0), "Scoring sheets").pages) == sum(p.copies for p in sheets.pieces)
