"""Human Harvest: a complete piecepack plus the game's extras. Counts of every component,
well-formed SVGs in mm, drawn suit glyphs, PDF pages with duplex backs, determinism, a
pixel check of a coin's suit side and content validation."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat

from conftest import copied_from_book
from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project, load_game
from pnp.errors import PnpError
from pnp.formats.impose import paper, plan_grid
from pnp.formats.raster import svg_to_image

REPO = Path(__file__).resolve().parent.parent
GAME = "human-harvest"
SVG = "{http://www.w3.org/2000/svg}"
SUIT_COLOURS = {"suns": "#cf312d", "moons": "#1f1f1f", "crowns": "#23883b", "arms": "#1f5fb8"}
RANKS = ["null", "ace", "2", "3", "4", "5"]
INCH = 25.4


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), GAME)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hh")
    build(Project(REPO), [GAME], BuildOptions(out=out))
    return out / GAME


def spec(game, comp: str):
    return next(c for c in game.manifest.components if c.id == comp)


def fronts(built: Path, comp: str) -> list[str]:
    return sorted(p.stem for p in (built / "svg" / comp).glob("*.svg") if not p.stem.endswith("back"))


# ---------------------------------------------------------------- counts


def test_piecepack_counts(built):
    pieces = [f"{s}-{r}" for s in SUIT_COLOURS for r in RANKS]
    assert fronts(built, "tiles") == sorted(pieces)  # 24 tiles
    assert fronts(built, "coins") == sorted(pieces)  # 24 coins
    assert fronts(built, "dice") == sorted(SUIT_COLOURS)  # 4 dice
    assert fronts(built, "pawns") == sorted(SUIT_COLOURS)  # 4 pawns


def test_extras_counts(game):
    from pnp.render.faces import render_game

    rendered = {c.spec.id: c for c in render_game(game, {}, 0.0)}
    copies = {cid: sum(p.copies for p in comp.pieces) for cid, comp in rendered.items()}
    assert copies == {
        "tiles": 24, "coins": 24, "dice": 4, "pawns": 4,
        "humans": 69, "drones": 4, "marines": 2, "markers": 3, "summary": 1, "scoring-sheet": 3,
    }
    assert [p.item_id for p in rendered["markers"].pieces] == ["cyborg-factory", "dna-collection-point", "human-settlement"]
    # a scoring sheet per player count of game.yaml's `players` option (2-4, rules line 7)
    assert [p.item_id for p in rendered["scoring-sheet"].pieces] == ["players-2", "players-3", "players-4"]


def test_sizes(game):
    sizes = {c.id: (round(c.size.width, 2), round(c.size.height, 2)) for c in game.manifest.components}
    assert sizes["tiles"] == (2 * INCH, 2 * INCH)
    assert sizes["coins"] == (19.05, 19.05)  # 0.75 in


def test_suit_colours_come_from_yaml(game):
    assert {s.id: s.colour for s in game.data["piecepack"].suits} == SUIT_COLOURS


# ---------------------------------------------------------------- SVG faces


def test_svgs_are_well_formed_with_mm_sizes(built, game):
    files = list((built / "svg").rglob("*.svg"))
    assert len(files) == 24 + 1 + 24 + 24 + 4 + 4 + 1 + 1 + 1 + 3 + 1 + 3  # ... scoring sheets for 2-4
    for path in files:
        root = ET.parse(path).getroot()
        assert root.tag == f"{SVG}svg"
        c = spec(game, path.parent.name)
        bleed = 3 if c.bleed is None else c.bleed
        for attr, size in (("width", c.size.width), ("height", c.size.height)):
            value = root.get(attr)
            assert value.endswith("mm") and abs(float(value[:-2]) - (size + 2 * bleed)) < 0.01, (path, attr, value)


def test_tile_front_value_and_suit_mark_in_suit_colour(built):
    root = ET.parse(built / "svg" / "tiles" / "crowns-3.svg").getroot()
    (value,) = [t for t in root.iter(f"{SVG}text")]
    assert value.text == "3" and value.get("fill") == SUIT_COLOURS["crowns"]
    x, y = float(value.get("x")), float(value.get("y"))
    assert abs(x - INCH) < 0.01 and INCH < y < INCH + 12  # centred (baseline below the middle)
    mark = [g for g in root.iter(f"{SVG}g") if g.get("fill") == SUIT_COLOURS["crowns"]]
    assert len(mark) == 1 and mark[0].get("transform").startswith("translate(7.5,7.5)")  # top-left corner


def test_null_tile_is_blank_and_ace_shows_a(built):
    assert not list(ET.parse(built / "svg" / "tiles" / "suns-null.svg").getroot().iter(f"{SVG}text"))
    assert [t.text for t in ET.parse(built / "svg" / "tiles" / "suns-ace.svg").getroot().iter(f"{SVG}text")] == ["A"]


def test_tile_grid_side_divides_into_2x2(built):
    root = ET.parse(built / "svg" / "tiles" / "back.svg").getroot()
    d = " ".join(p.get("d") for p in root.iter(f"{SVG}path"))
    assert "M 25.4 1.2 L 25.4 49.6" in d and "M 1.2 25.4 L 49.6 25.4" in d


def test_suit_symbols_are_drawn_paths_not_text(built):
    """Every suit side shows its symbol as <path>s in the suit colour and no text at all."""
    for suit, colour in SUIT_COLOURS.items():
        for rank in RANKS:
            root = ET.parse(built / "svg" / "coins" / f"{suit}-{rank}-back.svg").getroot()
            assert not list(root.iter(f"{SVG}text"))
            (g,) = [g for g in root.iter(f"{SVG}g") if g.get("fill") == colour]
            assert list(g.iter(f"{SVG}path"))


def test_coin_sides_and_orientation_mark(built):
    front = (built / "svg" / "coins" / "arms-4.svg").read_text()
    back = (built / "svg" / "coins" / "arms-4-back.svg").read_text()
    assert ">4<" in front and SUIT_COLOURS["arms"] not in front  # the value side hides the suit
    assert "<text" not in back and SUIT_COLOURS["arms"] in back
    mark = "M 8.225 2.4 L 10.825 2.4 L 9.525 0.9 Z"  # a small triangle at the top centre
    assert mark in front and mark in back


def test_dice_faces_in_suit_colour(built):
    for suit, colour in SUIT_COLOURS.items():
        root = ET.parse(built / "svg" / "dice" / f"{suit}.svg").getroot()
        labels = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "8"]
        assert labels == ["A", "2", "3", "4", "5"]  # the null face is blank
        assert all(t.get("fill") == colour for t in root.iter(f"{SVG}text"))
        faces = [r for r in root.iter(f"{SVG}rect") if r.get("width") == "12.7"]
        assert len(faces) == 6  # 0.5 in faces
        tabs = [p for p in root.iter(f"{SVG}path") if p.get("fill") == "#d9d9d9"]
        assert len(tabs) == 7  # one glue tab for each pair of edges that meet


def test_dice_show_their_suit_without_colour(built, game):
    """The four dice nets differed by numeral colour only: a colour-blind player could not
    tell the suits' dice apart. As piecepack dice (and our tiles) do, every face carries its
    suit's glyph (piecepack.yaml) in its top-left corner: the tile's suit mark."""
    def shape(g: ET.Element) -> tuple[str | None, ...]:
        return tuple(p.get("d") for p in g.iter(f"{SVG}path"))

    marks = {}
    for suit in game.data["piecepack"].suits:
        root = ET.parse(built / "svg" / "dice" / f"{suit.id}.svg").getroot()
        faces = [(float(r.get("x")), float(r.get("y"))) for r in root.iter(f"{SVG}rect") if r.get("width") == "12.7"]
        glyphs = [g for g in root.iter(f"{SVG}g") if list(g.iter(f"{SVG}path"))]
        assert len(glyphs) == 6, suit.id  # one on each face, the blank null face too
        for (x, y), g in zip(faces, glyphs):
            cx, cy = map(float, re.match(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform")).groups())
            assert x < cx < x + 12.7 / 3 and y < cy < y + 12.7 / 3, (suit.id, x, y)  # the face's top-left corner
        tile = ET.parse(built / "svg" / "tiles" / f"{suit.id}-ace.svg").getroot()
        [mark] = [g for g in tile.iter(f"{SVG}g") if g.get("fill") == suit.colour]
        assert {shape(g) for g in glyphs} == {shape(mark)}, suit.id
        marks[suit.id] = shape(mark)
    assert len(set(marks.values())) == 4  # four different shapes, whatever the colours


def test_small_print_reads_on_its_face(built):
    """Text below WCAG's large size (18 pt, 14 pt bold) is at least 4.5:1 on the face's ground
    in colour and greyscale: the Crowns green (die and pawn names, 4.46:1) and the Suns red
    (the DNA Collection Point's name, 4.48:1) were just under."""
    from colour_vision import contrast
    seen, components = 0, set()
    for path in sorted((built / "svg").rglob("*.svg")):
        components.add(path.parent.name)
        root = ET.parse(path).getroot()
        ground = next(root.iter(f"{SVG}rect")).get("fill")  # the face's background, over the bleed
        for text in root.iter(f"{SVG}text"):
            if float(text.get("font-size")) >= (4.94 if text.get("font-weight") == "bold" else 6.35):
                continue
            seen += 1
            for view in ("normal", "grey"):
                assert contrast(text.get("fill"), ground, view) >= 4.5, (path.name, "".join(text.itertext()), view)
    assert seen > 50 and "scoring-sheet" in components  # the paper scoring sheets' hints too


def test_standees_show_two_figures(built):
    for comp, item in (("pawns", "suns"), ("marines", "marine")):
        root = ET.parse(built / "svg" / comp / f"{item}.svg").getroot()
        turns = [g.get("transform", "") for g in root.iter(f"{SVG}g") if g.get("transform", "").startswith("rotate(")]
        assert [t.split(",")[0] for t in turns] == ["rotate(180", "rotate(0"]


def test_rules_summary_fits_one_page(built):
    root = ET.parse(built / "svg" / "summary" / "rules-summary.svg").getroot()
    texts = list(root.iter(f"{SVG}text"))
    assert max(float(t.get("y")) for t in texts) < 250 - 6
    assert min(float(t.get("font-size")) for t in texts) >= 2.2
    assert any(t.text == "Advanced rules" for t in texts)


# ---------------------------------------------------------------- PDF


def test_pdf_page_counts(built):
    pages = {p.stem: len(pypdfium2.PdfDocument(p)) for p in (built / "pdf").glob("*.pdf")}
    # letter, 3 mm bleed: 12 tiles and 24 coins a sheet, each sheet followed by its backs
    assert pages == {
        "tiles": 4, "coins": 2, "dice": 1, "pawns": 1, "humans": 1,
        "drones": 1, "marines": 1, "markers": 1, "summary": 1, "scoring-sheet": 2,
    }


def test_pdf_pages_match_the_grid_on_a4(game, tmp_path):
    build(Project(REPO), [GAME], BuildOptions(formats=("pdf",), paper="a4", out=tmp_path))
    sheet = paper("a4")
    for comp, copies, sides in (("tiles", 24, 2), ("coins", 24, 2), ("humans", 69, 1), ("dice", 4, 1)):
        c = spec(game, comp)
        bleed = 3 if c.bleed is None else c.bleed
        grid = plan_grid(c.size.width, c.size.height, bleed, c.gap, sheet, True)
        expected = -(-copies // grid.per_page) * sides
        assert len(pypdfium2.PdfDocument(tmp_path / GAME / "pdf" / f"{comp}.pdf")) == expected, comp


def _page(path: Path, index: int, dpi: int) -> Image.Image:
    return pypdfium2.PdfDocument(path)[index].render(scale=dpi / 72).to_pil().convert("RGB")


def _cell(page: Image.Image, x: float, y: float, w: float, h: float, dpi: int) -> Image.Image:
    px = dpi / 25.4
    return page.crop((round(x * px), round(y * px), round((x + w) * px), round((y + h) * px)))


def _svg(path: Path, dpi: int) -> Image.Image:
    return svg_to_image(path.read_text(encoding="utf-8"), dpi).convert("RGB")


def _mean_diff(a: Image.Image, b: Image.Image) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a, b.resize(a.size))).mean)


def test_pixel_check_coin_suit_side_lands_behind_its_front(built, game):
    """On the back page the suit side of each coin sits where long-edge duplex puts it
    (mirrored left to right) and matches the coin's back SVG rendered on its own."""
    dpi = 150
    c = spec(game, "coins")
    sheet = paper("letter")
    grid = plan_grid(c.size.width, c.size.height, 3, c.gap, sheet, True)
    assert not grid.rotated and grid.per_page >= 24
    page = _page(built / "pdf" / "coins.pdf", 1, dpi)
    order = [f"{s}-{r}" for s in SUIT_COLOURS for r in RANKS]
    backs = {name: _svg(built / "svg" / "coins" / f"{name}-back.svg", dpi) for name in order}
    wrong_side_checked = 0
    for index, name in enumerate(order):
        x, y = grid.slot(index)
        mirrored = _cell(page, sheet.width - x - grid.cell_w, y, grid.cell_w, grid.cell_h, dpi)
        assert _mean_diff(mirrored, backs[name]) < 6, name
        # where the unmirrored slot holds another suit's back, that back must not match
        row, col = divmod(index, grid.cols)
        partner = row * grid.cols + grid.cols - 1 - col
        if partner < len(order) and order[partner].split("-")[0] != name.split("-")[0]:
            unmirrored = _cell(page, x, y, grid.cell_w, grid.cell_h, dpi)
            assert _mean_diff(unmirrored, backs[name]) > 3 * _mean_diff(mirrored, backs[name]) + 1, name
            wrong_side_checked += 1
    assert wrong_side_checked


def test_builds_are_deterministic(built, tmp_path):
    build(Project(REPO), [GAME], BuildOptions(out=tmp_path))
    again = tmp_path / GAME
    files = sorted(p for p in built.rglob("*") if p.is_file() and p.suffix in {".svg", ".pdf"})
    assert len(files) == 102  # with the print PDF
    for path in files:
        assert path.read_bytes() == (again / path.relative_to(built)).read_bytes(), path


# ---------------------------------------------------------------- validation


@pytest.fixture
def scratch(copy_game) -> Project:
    """A copy of the game in a scratch project, to break."""
    return copy_game(GAME)


def _edit(project: Project, name: str, old: str, new: str) -> Path:
    path = project.content_dir / GAME / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


def _line(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def _errors(project: Project) -> list[str]:
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    return [str(e) for e in exc.value.errors]


def test_bad_suit_colour_and_glyph(scratch):
    path = _edit(scratch, "piecepack.yaml", 'colour: "#23883b"', "colour: green")
    _edit(scratch, "piecepack.yaml", "glyph: arms", "glyph: star")
    errs = _errors(scratch)
    assert any(re.search(rf"piecepack\.yaml:{_line(path, 'colour: green')}:\d+: colour: 'green' is not a colour", e) for e in errs), errs
    assert any(re.search(rf"piecepack\.yaml:{_line(path, 'glyph: star')}:\d+: glyph: unknown suit glyph 'star'", e) for e in errs), errs


def test_duplicate_rank_id(scratch):
    path = _edit(scratch, "piecepack.yaml", 'id: "5"', 'id: "4"')
    (err,) = _errors(scratch)
    lines = [i for i, line in enumerate(path.read_text().splitlines(), 1) if 'id: "4"' in line]
    assert re.search(rf"piecepack\.yaml:{lines[1]}:\d+: rank id '4' appears twice", err)


def test_negative_token_count(scratch):
    path = _edit(scratch, "extras.yaml", "count: 69", "count: -1")
    (err,) = _errors(scratch)
    assert re.search(rf"extras\.yaml:{_line(path, 'count: -1')}:\d+: count: ", err)


def test_unknown_key_in_summary(scratch):
    path = _edit(scratch, "summary.yaml", "  - heading: Goal\n", "  - heading: Goal\n    colour: red\n")
    (err,) = _errors(scratch)
    assert re.search(rf"summary\.yaml:{_line(path, 'colour: red')}:\d+: unknown key 'colour'", err)


def test_bad_content_writes_nothing(scratch, tmp_path):
    _edit(scratch, "piecepack.yaml", "glyph: sun", "glyph: 7")
    with pytest.raises(PnpError):
        build(scratch, [GAME], BuildOptions(out=tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_rules_text_is_our_own():
    """No run of eight words of the rule book is printed on any face, read as printed."""
    assert copied_from_book(Project(REPO), GAME, "human-harvest-rules.txt") == []


def test_all_text_is_printable_size(built):
    assert list((built / "svg" / "scoring-sheet").glob("*.svg"))  # the scoring sheets' small print too
    for path in (built / "svg").rglob("*.svg"):
        for t in ET.parse(path).getroot().iter(f"{SVG}text"):
            assert float(t.get("font-size")) >= 2.2, (path, t.text)


def test_summary_gives_settlement_cost_and_who_may_enter_the_dna_point():
    """human-harvest-rules.txt line 147 (1 movement point in or out of the Settlement) and
    line 165 (Militia and Marines may enter the DNA Collection Point)."""
    text = " ".join((REPO / "content" / GAME / "summary.yaml").read_text().split())
    assert "Moving into or out of it costs a Cyborg 1 movement point" in text
    assert "Militia and Marines may go in and clear the Cyborgs there" in text


def _summary_text(project: Project) -> str:
    from pnp.render.faces import render_game

    (summary,) = render_game(load_game(project, GAME), {}, 0.0, only={"summary"})
    (face,) = summary.faces
    return " ".join(" ".join(t.itertext()) for t in ET.fromstring(face.svg).iter(f"{SVG}text"))


def test_summary_prints_the_counts_the_scorer_checks(scratch):
    """The summary's goal, Cyborgs per player and Humans to store are scoring.yaml's
    (cyborgs_to_win, cyborgs_per_player, humans_to_win, lines 17, 30, 151), the numbers
    `pnp score` checks: changing one there changes the printed summary too."""
    assert "Get all 6 of your Cyborgs" in _summary_text(scratch) and "store 6 Humans" in _summary_text(scratch)
    _edit(scratch, "scoring.yaml", "humans_to_win: 6", "humans_to_win: 5")
    _edit(scratch, "scoring.yaml", "cyborgs_to_win: 6", "cyborgs_to_win: 5")
    text = _summary_text(scratch)
    assert "Get all 5 of your Cyborgs" in text and "store 5 Humans" in text and "Cyborgs, 6 per player" in text


def test_summary_point_with_an_unknown_placeholder(scratch):
    path = _edit(scratch, "summary.yaml", "store {humans_to_win} Humans", "store {humans} Humans")
    (err,) = _errors(scratch)
    assert re.search(rf"summary\.yaml:{_line(path, 'Ace of Suns: the DNA Collection Point')}:\d+: summary point .*expected only the placeholders", err)


def test_enough_humans_for_the_derived_worst_case(game):
    # 24 from the tiles + one carried by each of 4 x 6 Cyborgs + 4 x 5 + 1 stored (extras.yaml)
    human = next(t for t in game.data["extras"].tokens if t.id == "human")
    assert human.count >= 24 + 4 * 6 + 4 * 5 + 1
