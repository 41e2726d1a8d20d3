"""The generic pipeline on a scaffolded game: SVG faces, imposed PDFs, errors, determinism."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pytest

from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project
from pnp.errors import PnpError
from pnp.formats.impose import paper, plan_grid

SVG_NS = "{http://www.w3.org/2000/svg}"
PT = 72 / 25.4


def set_copies(project: Project, copies: int, title: str = "Example Card") -> None:
    path = project.content_dir / "demo" / "cards.yaml"
    path.write_text(
        f"cards:\n  - id: example\n    title: {title!r}\n    text: Some words on the card.\n    copies: {copies}\n",
        encoding="utf-8",
    )


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_build_writes_one_svg_per_face_and_one_pdf_per_component(demo: Project):
    (report,) = build(demo, None, BuildOptions())
    root = demo.output_dir / "demo"
    assert (root / "svg/card/example.svg").is_file()
    assert (root / "svg/card/back.svg").is_file()
    assert (root / "pdf/card.pdf").is_file()
    assert (root / "demo-print.pdf").is_file()  # every component in one PDF
    assert (report.components, report.pieces, report.files) == (1, 3, 4)


def test_the_print_pdf_is_planned_once_a_build(demo: Project, monkeypatch):
    """The print PDF's plan (its sheets, packed) serves the PDF, its cut files and the
    summary's sheet count: made once a build, not once for each (a few ms a game)."""
    from pnp.formats import print_pdf

    made = []
    real = print_pdf.plan
    monkeypatch.setattr(print_pdf, "plan", lambda *args, **kwargs: made.append(1) or real(*args, **kwargs))
    (report,) = build(demo, None, BuildOptions(cut_file=True))
    assert len(made) == 1 and report.sheets is not None
    assert (demo.output_dir / "demo" / "cut").is_dir()


@pytest.mark.parametrize("bleed, size", [(3.0, ("69mm", "94mm")), (0.0, ("63mm", "88mm"))])
def test_svg_has_physical_size_including_bleed(demo: Project, bleed, size):
    build(demo, ["demo"], BuildOptions(formats=("svg",), bleed=bleed))
    root = ET.parse(demo.output_dir / "demo/svg/card/example.svg").getroot()
    assert root.tag == SVG_NS + "svg"
    assert (root.get("width"), root.get("height")) == size
    assert root.get("viewBox") == f"{-bleed:g} {-bleed:g} {63 + 2 * bleed:g} {88 + 2 * bleed:g}".replace("-0 ", "0 ")


@pytest.mark.parametrize("name, size_mm", [("letter", (215.9, 279.4)), ("a4", (210, 297))])
def test_pdf_pages_have_the_paper_size(demo: Project, name, size_mm):
    build(demo, None, BuildOptions(formats=("pdf",), paper=name))
    pdf = pypdfium2.PdfDocument(demo.output_dir / "demo/pdf/card.pdf")
    for page in pdf:
        w, h = page.get_size()
        assert w == pytest.approx(size_mm[0] * PT, abs=0.01)
        assert h == pytest.approx(size_mm[1] * PT, abs=0.01)


@pytest.mark.parametrize("copies, bleed, pages", [(3, 3.0, 2), (7, 3.0, 4), (9, 0.0, 2), (10, 0.0, 4)])
def test_each_sheet_of_fronts_is_followed_by_its_backs(demo: Project, copies, bleed, pages):
    set_copies(demo, copies)
    build(demo, None, BuildOptions(formats=("pdf",), bleed=bleed))
    assert len(pypdfium2.PdfDocument(demo.output_dir / "demo/pdf/card.pdf")) == pages


def test_poker_cards_fit_nine_up_without_bleed_and_turn_when_more_fit():
    letter = paper("letter")
    grid = plan_grid(63, 88, 0, 0, letter, rotate=True)
    assert (grid.cols, grid.rows, grid.rotated) == (3, 3, False)
    grid = plan_grid(63, 88, 3, 0, letter, rotate=True)
    assert (grid.per_page, grid.rotated) == (6, True)  # 2 x 2 upright, 2 x 3 turned
    assert plan_grid(63, 88, 3, 0, letter, rotate=False).per_page == 4
    assert plan_grid(300, 400, 0, 0, letter, rotate=True) is None


class Recorder:
    """Records where faces and lines are drawn (the imposition plan handed to the PDF
    engine), in page millimetres from the top-left."""

    def __init__(self, monkeypatch):
        from pnp.formats import pdf as pdf_mod

        self.places: list[tuple[int, str, float, float, float, float, int]] = []
        self.lines: list[tuple[int, float, float, float, float]] = []
        self.page = 0
        make = pdf_mod.pdfs
        rec = self

        def spy(title, layouts, fonts=None, book=None, only=None):
            for layout in layouts:
                if layout.title.endswith(": print"):  # the per-game print PDF (tests/test_print_pdf.py)
                    continue
                for number, page in enumerate(layout.pages, rec.page):
                    rec.places += [(number, p.face.name, p.x, p.y, p.w, p.h, p.turn) for p in page.places]
                    rec.lines += [(number, ln.x1, ln.y1, ln.x2, ln.y2) for ln in page.lines]
                rec.page += len(layout.pages)
            return make(title, layouts, fonts, book, only)

        monkeypatch.setattr(pdf_mod, "pdfs", spy)


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_duplex_back_lands_behind_its_front(demo: Project, monkeypatch, bleed):
    set_copies(demo, 5)
    rec = Recorder(monkeypatch)
    build(demo, None, BuildOptions(formats=("pdf",), bleed=bleed))
    fronts = [p for p in rec.places if p[0] == 0]
    backs = [p for p in rec.places if p[0] == 1]
    assert len(fronts) == len(backs) == 5
    page_w = paper("letter").width
    for (_, fname, fx, fy, fw, fh, fturn), (_, bname, bx, by, bw, bh, bturn) in zip(fronts, backs):
        assert (fname, bname) == ("example", "back")
        # long-edge duplex: the sheet flips about its vertical axis
        assert bx == pytest.approx(page_w - fx - fw)
        assert (by, bw, bh) == (pytest.approx(fy), pytest.approx(fw), pytest.approx(fh))
        assert bturn == -fturn


def test_crop_marks_extend_cut_lines_outside_all_artwork(demo: Project, monkeypatch):
    set_copies(demo, 6)
    rec = Recorder(monkeypatch)
    bleed = 3.0
    build(demo, None, BuildOptions(formats=("pdf",), bleed=bleed))
    boxes = [(x, y, x + w, y + h) for page, _, x, y, w, h, _ in rec.places if page == 0]
    cut_x = {round(v, 3) for x0, _, x1, _ in boxes for v in (x0 + bleed, x1 - bleed)}
    cut_y = {round(v, 3) for _, y0, _, y1 in boxes for v in (y0 + bleed, y1 - bleed)}
    marks = [line for line in rec.lines if line[0] == 0]
    assert marks, "no crop marks drawn"
    assert not [line for line in rec.lines if line[0] == 1], "backs carry no crop marks"
    for _, x1, y1, x2, y2 in marks:
        if x1 == x2:
            assert round(x1, 3) in cut_x
        else:
            assert y1 == y2 and round(y1, 3) in cut_y
        for bx0, by0, bx1, by1 in boxes:  # never on the artwork
            assert max(x1, x2) < bx0 or min(x1, x2) > bx1 or max(y1, y2) < by0 or min(y1, y2) > by1
    assert {round(x1, 3) for _, x1, _, x2, _ in marks if x1 == x2} == cut_x
    assert {round(y1, 3) for _, _, y1, _, y2 in marks if y1 == y2} == cut_y


def test_two_builds_are_byte_identical(demo: Project, tmp_path: Path):
    build(demo, None, BuildOptions(out=tmp_path / "a"))
    build(demo, None, BuildOptions(out=tmp_path / "b"))
    a, b = files_under(tmp_path / "a"), files_under(tmp_path / "b")
    assert a.keys() == b.keys() and len(a) >= 4
    assert a == b


def test_text_is_escaped_into_valid_svg(demo: Project):
    set_copies(demo, 1, title="<A & B>")
    build(demo, None, BuildOptions(formats=("svg", "pdf")))
    root = ET.parse(demo.output_dir / "demo/svg/card/example.svg").getroot()
    texts = ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]
    assert "<A & B>" in texts


def test_pdf_page_matches_the_svg_pixel_for_pixel(demo: Project):
    """The imposed card and its standalone SVG, rasterised by two different renderers, agree."""
    from io import BytesIO

    import resvg_py
    from PIL import Image, ImageChops, ImageStat

    set_copies(demo, 1)
    bleed, dpi = 3.0, 100
    build(demo, None, BuildOptions(bleed=bleed))
    grid = plan_grid(63, 88, bleed, 0, paper("letter"), rotate=True)
    x, y = grid.slot(0)
    page = pypdfium2.PdfDocument(demo.output_dir / "demo/pdf/card.pdf")[0].render(scale=dpi / 72).to_pil().convert("RGB")
    px = dpi / 25.4
    crop = page.crop((round(x * px), round(y * px), round((x + grid.cell_w) * px), round((y + grid.cell_h) * px)))
    if grid.rotated:  # the sheet shows the card turned counter-clockwise
        crop = crop.rotate(-90, expand=True)
    svg = resvg_py.svg_to_bytes(svg_path=str(demo.output_dir / "demo/svg/card/example.svg"), dpi=dpi)
    ref = Image.open(BytesIO(bytes(svg))).convert("RGB").resize(crop.size)
    diff = ImageChops.difference(crop, ref).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    close = sum(diff.histogram()[:48]) / (diff.width * diff.height)
    assert mean < 8, f"mean difference {mean:.1f}"
    assert close > 0.95, f"only {close:.1%} of pixels match"
    # and a wrong placement would not match: shift by 3 mm
    shifted = page.crop((round((x + 3) * px), round(y * px), round((x + 3 + grid.cell_w) * px), round((y + grid.cell_h) * px)))
    if grid.rotated:
        shifted = shifted.rotate(-90, expand=True)
    assert ImageStat.Stat(ImageChops.difference(shifted.resize(crop.size), ref).convert("L")).mean[0] > mean + 4


def test_oversize_piece_is_split_over_overlapping_pages(tmp_path: Path, monkeypatch):
    project = Project(tmp_path / "big")
    (project.content_dir / "map").mkdir(parents=True)
    (project.templates_dir / "map").mkdir(parents=True)
    (project.content_dir / "map/game.yaml").write_text(
        "title: Map\ncomponents:\n  - {id: board, name: Board, size: 400mm x 300mm, items: '[{\"id\": \"main\"}]', front: b.svg.j2}\n"
    )
    (project.templates_dir / "map/b.svg.j2").write_text(
        '{% extends "pnp/base.svg.j2" %}{% block body %}<circle cx="200" cy="150" r="100" fill="#369"/>{% endblock %}'
    )
    rec = Recorder(monkeypatch)
    build(project, None, BuildOptions(formats=("pdf",), bleed=0))
    assert rec.page == 4  # 2 x 2 pages on letter
    assert len(pypdfium2.PdfDocument(project.output_dir / "map/pdf/board.pdf")) == 4
    origins = sorted({(round(x, 2), round(y, 2)) for _, _, x, y, *_ in rec.places})
    assert len(origins) == 4  # each page shows a different window of the board
    assert [line for line in rec.lines if line[0] > 0], "overlap marks on the joined pages"


def test_bad_content_writes_nothing(demo: Project):
    build(demo, None, BuildOptions())
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in demo.output_dir.rglob("*") if p.is_file()}
    (demo.content_dir / "demo/game.yaml").write_text("title: Demo\ncomponents:\n  - id: card\n    size: [oops\n")
    with pytest.raises(PnpError) as info:
        build(demo, None, BuildOptions())
    assert [str(e).split(": ", 1)[0].endswith("game.yaml:4:11") for e in info.value.errors] == [True]
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in demo.output_dir.rglob("*") if p.is_file()}
    assert after == before


def test_a_failed_build_leaves_nothing_it_wrote_ahead(demo: Project):
    """A game's SVGs are written to temporary files while its PDFs are made; when another
    game then fails, they go, with the folders they made."""
    from pnp.tools.scaffold import scaffold

    set_copies(demo, 40)  # the bigger game renders first, and its files are made while the others render
    scaffold(demo, "broken")
    scaffold(demo, "second")  # renders after the broken one: its files go into the output folder the first made
    (demo.templates_dir / "broken/card.svg.j2").write_text("<svg>{{ item.no_such_key.deeper }}</svg>\n")
    with pytest.raises(PnpError):
        build(demo, None, BuildOptions())
    assert not demo.output_dir.exists()


def test_files_written_ahead_are_renamed_into_place_or_removed(tmp_path: Path):
    from pnp.build.output import Staged, commit_files

    root = tmp_path / "out" / "game"
    staged = Staged(root)
    staged.add("svg/card/a.svg", b"<svg/>")
    assert [p.name.startswith(".a.svg.") for p in (root / "svg/card").iterdir()] == [True]  # hidden until the commit
    staged.discard()
    assert not (tmp_path / "out").exists()
    staged = Staged(root)
    staged.add("svg/card/a.svg", b"<svg/>")
    done = commit_files(root, {"svg/card/a.svg": b"<svg/>"}, staged=staged)
    assert done.written == ["svg/card/a.svg"] and sorted(p.name for p in (root / "svg/card").iterdir()) == ["a.svg"]
    staged = Staged(root)
    staged.add("svg/card/a.svg", b"<svg/>")  # what is on disk already is not written again
    assert staged.temps == {}


def test_template_error_names_the_template_line(demo: Project):
    template = demo.templates_dir / "demo/card.svg.j2"
    lines = template.read_text().splitlines()
    lines.insert(3, "<text>{{ item.no_such_key }}</text>")
    template.write_text("\n".join(lines) + "\n")
    with pytest.raises(PnpError) as info:
        build(demo, None, BuildOptions())
    (error,) = info.value.errors
    assert str(error.path).endswith("card.svg.j2") and error.line == 4
    assert "no_such_key" in error.message and "card/example" in error.message
    assert not demo.output_dir.exists()


def test_items_expression_errors_point_at_game_yaml(demo: Project):
    path = demo.content_dir / "demo/game.yaml"
    path.write_text(path.read_text().replace("items: cards.cards", "items: cards.decks"))
    with pytest.raises(PnpError) as info:
        build(demo, None, BuildOptions())
    (error,) = info.value.errors
    assert str(error) == f"{path}:8:5: items expression 'cards.decks' failed: no field 'decks' (fields: cards)"


def test_progress_counts_faces_and_files(demo):
    from pnp.build.driver import BuildOptions, Tally, build

    seen = []
    tally = Tally(lambda done, total, what: seen.append((done, total)))
    build(demo, None, BuildOptions(), progress=tally)
    # the demo: one card front and the shared back; their two SVGs, its PDF and the print PDF
    assert (tally.done, tally.total) == (2 + 4, 2 + 4)
    assert seen[0] == (0, 2) and all(done <= total for done, total in seen)
    again = Tally(lambda *_: None)
    build(demo, None, BuildOptions(), progress=again)
    assert (again.done, again.total) == (2, 2)  # faces are still counted (from the cache); no file is made


def test_ctrl_c_during_the_commit_leaves_every_game_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Ctrl-C while a build commits its games (two at a time) is held back until all are
    committed, then ends the build as Ctrl-C does: never some games' files new and the others' old."""
    import signal
    import time

    from pnp.build import driver
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "proj")
    for game in ("one", "two", "three", "four"):
        scaffold(project, game)
    commit = driver._commit

    def interrupted(p, scope):
        if p.game.name == "one":
            signal.raise_signal(signal.SIGINT)  # as a terminal's Ctrl-C: handled on the main thread
            time.sleep(0.3)  # while the main thread waits for the games' commits
        return commit(p, scope)

    monkeypatch.setattr(driver, "_commit", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(project, None, BuildOptions(formats=("svg",)))
    assert sorted(p.name for p in project.output_dir.iterdir() if (p / "svg").is_dir()) == ["four", "one", "three", "two"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C acts at once again
    monkeypatch.setattr(driver, "_commit", commit)
    assert all(report.written == 0 for report in build(project, None, BuildOptions(formats=("svg",))))  # each game's cache recorded
