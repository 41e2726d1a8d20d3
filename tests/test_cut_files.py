"""Cut files (`--cut-file`) for every page of the shipped games: each cut path lies inside
what its page prints and inside the area the registration marks keep clear; a piece split
over pages is cut page by page; paper forms too big for the marks print whole, by hand."""

from __future__ import annotations

import pytest

from pnp.build.driver import BuildOptions, build
from pnp.formats.cutfile import MARGIN, _mark_rects, cut_svg, outlines
from pnp.formats.impose import Label, Paper
from pnp.formats.print_pdf import plan
from pnp.config import papers, sheet_layout

GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")


@pytest.fixture(scope="module")
def shipped(repo_project, tmp_path_factory):
    out = tmp_path_factory.mktemp("cut")
    return {r.game: r for r in build(repo_project, list(GAMES), BuildOptions(formats=("svg",), out=out))}


def _inside(box, area, slack=1e-6) -> bool:
    x, y, w, h = box
    ax, ay, aw, ah = area
    return ax - slack <= x and ay - slack <= y and x + w <= ax + aw + slack and y + h <= ay + ah + slack


def _meets(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_cut_path_lies_inside_what_its_page_prints(shipped, game, paper):
    report = shipped[game]
    sheet = Paper(paper, *papers({})[paper])
    for layout in ("standard", "tight", "scissors"):
        made = plan(report.title, report.parts, sheet, sheet_layout(layout), registration=True)
        assert made.cut_pages
        for number, page in made.cut_pages:
            cuts = [box for box, _ in outlines(page, made.layout.sheet)]
            assert len(cuts) == len(page.places), (layout, number)  # every piece, whole or split, has its path
            printed = [p.clip or (p.x, p.y, p.w, p.h) for p in page.places]
            for cut in cuts:
                assert any(_inside(cut, area) for area in printed), (layout, number, cut)
                assert _inside(cut, (MARGIN, MARGIN, sheet.width - 2 * MARGIN, sheet.height - 2 * MARGIN)), (layout, number, cut)
                assert not any(_meets(cut, mark) for mark in _mark_rects(sheet))


def test_a_split_board_is_cut_page_by_page_along_its_dashed_lines(shipped):
    report = shipped["cave"]
    sheet = Paper("letter", *papers({})["letter"])
    made = plan(report.title, report.parts, sheet, sheet_layout("standard"), registration=True)
    board = [(n, page) for n, page in made.cut_pages if page.places and page.places[0].face.component == "board"]
    assert len(board) > 1
    for _, page in board:
        (place,) = page.places
        ((cut, _),) = outlines(page, made.layout.sheet)
        dashed = {round(ln.x1, 3) for ln in page.lines if ln.dash and ln.x1 == ln.x2}
        if dashed:  # a page to the left: the cut starts at the dashed line, not at the window's edge
            assert round(cut[0], 3) in dashed
        assert _inside(cut, place.clip)
        assert f'<path d="M' in cut_svg(page, made.layout.sheet, "t")


def test_paper_forms_print_whole_to_cut_by_hand(shipped):
    report = shipped["tasty-humans"]
    sheet = Paper("letter", *papers({})["letter"])
    made = plan(report.title, report.parts, sheet, sheet_layout("standard"), registration=True)
    plain = plan(report.title, report.parts, sheet, sheet_layout("standard"))
    cut_faces = {p.face.component for _, page in made.cut_pages for p in page.places}
    for form in ("monster-board", "scoring-sheet", "leader-board"):
        assert form not in cut_faces
        pages = [page for s in made.sections for page in s.pages if any(p.face.component == form for p in page.places)]
        assert all(len(page.places) == 1 and page.places[0].clip is None for page in pages)  # never split
        fronts = [page for page in pages if any("cut by hand" in m.text for m in page.marks if isinstance(m, Label))]
        assert fronts and all(not any(ln.width > 1 for ln in page.lines) for page in pages)  # no registration marks
    assert made.sheets <= plain.sheets + 8  # was 42 against 28: the forms are no longer split
    forms = sum(made.sheets_per_component[c.spec.name] for c in report.parts if c.spec.id in ("monster-board", "scoring-sheet", "leader-board"))
    assert forms == sum(plain.sheets_per_component[c.spec.name] for c in report.parts if c.spec.id in ("monster-board", "scoring-sheet", "leader-board"))


def test_round_pieces_are_cut_along_their_circle(shipped):
    """A `shape: round` piece's outline is the circle in its trim box; the square ones stay paths."""
    report = shipped["tasty-humans"]
    sheet = Paper("letter", *papers({})["letter"])
    made = plan(report.title, report.parts, sheet, sheet_layout("standard"), registration=True)
    circles = 0
    for _, page in made.cut_pages:
        svg = cut_svg(page, made.layout.sheet, "t")
        round_ = [p for p in page.places if p.face.shape == "round"]
        for place in round_:
            b, size = place.face.bleed, place.face.width
            cx, cy, r = (f"{v:.3f}".rstrip("0").rstrip(".") for v in (place.x + b + size / 2, place.y + b + size / 2, size / 2))
            assert f'<circle cx="{cx}" cy="{cy}" r="{r}"/>' in svg
        assert svg.count("<circle") == len(round_)
        assert svg.count('<path d="M') == len(page.places) - len(round_)
        circles += len(round_)
    assert circles == sum(p.copies for c in report.parts if c.spec.shape == "round" for p in c.pieces)  # king, placeholders, scoring tokens


def _mark_squares(sheet, room=2.0):
    """Each registration mark's square (the 5 mm square; an L's 20 x 20 mm corner), `room`
    mm wider all round, as (left, top, right, bottom): where the machine looks for it."""
    square, *arms = _mark_rects(sheet)
    marks = [[square], arms[:2], arms[2:]]
    return [(min(x for x, *_ in m) - room, min(y for _, y, *_ in m) - room,
             max(x + w for x, _, w, _ in m) + room, max(y + h for _, y, _, h in m) + room) for m in marks]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_nothing_prints_in_a_registration_marks_square(shipped, game, paper):
    """Print review: the top-right piece of a full sheet (Cave's tiles on Letter) and its crop
    marks sat inside the square of the L mark beside it, where the cutting machine's sensor
    looks for the mark. No piece (bleed included), crop mark or label comes within 2 mm of a
    mark's square on any sheet that is cut, packed ones and those holding fillers included."""
    from pnp.formats import labels

    report = shipped[game]
    sheet = Paper(paper, *papers({})[paper])
    for layout in ("standard", "tight", "scissors"):
        made = plan(report.title, report.parts, sheet, sheet_layout(layout), registration=True)
        squares = _mark_squares(sheet)
        for number, page in made.cut_pages:
            marks = [(x, y, x + w, y + h) for x, y, w, h in _mark_rects(sheet)]
            drawn = [(p.face.component, p.clip or (p.x, p.y, p.w, p.h)) for p in page.places]
            drawn = [(what, (x, y, x + w, y + h)) for what, (x, y, w, h) in drawn]
            drawn += [(text.text, labels.DEFAULT.box(text)) for text in page.marks if isinstance(text, Label)]
            drawn += [("line", (min(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.x1, ln.x2), max(ln.y1, ln.y2))) for ln in page.lines]
            for what, (left, top, right, bottom) in drawn:
                if what == "line" and any(_inside((left, top, 0, 0), (a, b, c - a, d - b), 0.3) for a, b, c, d in marks):
                    continue  # a registration mark itself (drawn along the middle of its rectangle)
                for a, b, c, d in squares:
                    assert not (left < c - 1e-6 and a < right - 1e-6 and top < d - 1e-6 and b < bottom - 1e-6), (layout, number, what)
