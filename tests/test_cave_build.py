"""Building the cave game: the deck per player count, tiles drawn from their openings,
board coordinates, SVG sizes, PDF pages and byte-identical rebuilds."""

from __future__ import annotations

import math
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pytest

from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project, load_game
from pnp.formats.impose import impose, paper, plan_grid
from pnp.render.faces import render_game
from game_plugins import link_plugins

NS = "{http://www.w3.org/2000/svg}"
REPO = Path(__file__).resolve().parent.parent
PLAYERS = range(2, 7)
SKIP = {".pnp-files.json", ".pnp-cache.json"}


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name not in SKIP}


def texts(svg: Path, cls: str | None = None) -> list[tuple[str, float, float]]:
    """(text, x, y) of every <text> (with class `cls` when given)."""
    root = ET.parse(svg).getroot()
    return [
        ("".join(t.itertext()), float(t.get("x")), float(t.get("y")))
        for t in root.iter(NS + "text")
        if cls is None or t.get("class") == cls
    ]


@pytest.fixture(scope="module")
def cave(repo_project: Project):
    return load_game(repo_project, "cave")


@pytest.fixture(scope="module")
def full(repo_project: Project, tmp_path_factory) -> Path:
    """The whole set, SVG and PDF on letter, built once for this module."""
    out = tmp_path_factory.mktemp("cave-full")
    build(repo_project, ["cave"], BuildOptions(out=out))
    return out / "cave"


@pytest.fixture(scope="module")
def per_players(repo_project: Project, tmp_path_factory) -> dict[int, Path]:
    """The SVG faces for each player count 2-6."""
    roots = {}
    for n in PLAYERS:
        out = tmp_path_factory.mktemp(f"cave-{n}p")
        build(repo_project, ["cave"], BuildOptions(players=n, out=out, formats=("svg",)))
        roots[n] = out / "cave"
    return roots


def fronts(root: Path, component: str) -> list[str]:
    return sorted(p.stem for p in (root / "svg" / component).glob("*.svg") if not p.stem.endswith("back"))


# ---------------------------------------------------------------- decks per player count


@pytest.mark.parametrize("n", PLAYERS)
def test_build_for_n_players_writes_only_their_tiles_and_exits(per_players, cave, n):
    tiles = cave.data["tiles"]
    names = fronts(per_players[n], "tiles")
    exits = [x for x in names if x.startswith("exit-")]
    cave_tiles = [x for x in names if x.startswith("cave-")]
    assert len(exits) == {2: 1, 3: 2, 4: 3, 5: 3, 6: 3}[n] == tiles.exits_by_players[n]
    assert len(cave_tiles) == {2: 16, 3: 22, 4: 28, 5: 34, 6: 40}[n]
    assert len(names) == len(exits) + len(cave_tiles)
    assert sorted(exits) == [f"exit-{i}" for i in range(1, len(exits) + 1)]  # the easiest exits first
    # every back printed carries a mark of N or less
    marks = {int(texts(per_players[n] / f"svg/tiles/{name}-back.svg")[0][0]) for name in names}
    assert marks == set(range(2, n + 1))


@pytest.mark.parametrize("n", [2, 3])
def test_tiles_pdf_has_the_pages_for_n_players(cave, n):
    (tiles,) = render_game(cave, {"players": n}, 3.0, only={"tiles"})
    pieces = {2: 17, 3: 24}[n]
    assert sum(p.copies for p in tiles.pieces) == pieces
    grid = plan_grid(30, 30, 3.0, 0, paper("letter"), rotate=True)
    pages = len(pypdfium2.PdfDocument(impose(tiles, paper("letter"), "tiles")))
    assert pages == 2 * math.ceil(pieces / grid.per_page)  # fronts and duplex backs


def test_full_set_without_players(full, cave):
    tiles = cave.data["tiles"]
    assert fronts(full, "tiles") == sorted([t.id for t in tiles.tiles] + [e.id for e in tiles.exits])
    assert fronts(full, "start") == ["start"] and (full / "svg/start/back.svg").is_file()
    assert "START" in [t for t, *_ in texts(full / "svg/start/back.svg")]


# ---------------------------------------------------------------- what the faces show


def _edges_reached(svg: Path, size: float) -> set[str]:
    """Sides of the tile the drawn cave floor reaches."""
    root = ET.parse(svg).getroot()
    floor = next(g for g in root.iter(NS + "g") if g.get("class") == "floor")
    sides = set()
    for r in floor.iter(NS + "rect"):
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        if x <= 0:
            sides.add("west")
        if x + w >= size:
            sides.add("east")
        if y <= 0:
            sides.add("north")
        if y + h >= size:
            sides.add("south")
    return sides


def test_every_tile_draws_passages_to_exactly_its_openings(full, cave):
    tiles = cave.data["tiles"]
    wrong = {}
    for t in [*tiles.tiles, *tiles.exits]:
        reached = _edges_reached(full / f"svg/tiles/{t.id}.svg", 30)
        if reached != set(t.openings):
            wrong[t.id] = (sorted(reached), sorted(t.openings))
    assert wrong == {}


def test_room_labels_on_tiles(full, cave):
    for t in cave.data["tiles"].tiles:
        words = [w for w, *_ in texts(full / f"svg/tiles/{t.id}.svg")]
        assert words == {"food": ["FOOD"], "event": ["EVENT"], "challenge": ["CHALLENGE"],
                         "food-challenge": ["FOOD", "CHALLENGE"], "normal": []}[t.room], t.id


def test_exit_tiles_show_their_number_and_requirement(full):
    words = {n: [w for w, *_ in texts(full / f"svg/tiles/exit-{n}.svg")] for n in (1, 2, 3)}
    assert words[1] == ["1+ PLAYER", "SHOVEL", "EXIT 1"]
    assert words[2] == ["2+ PLAYERS", "CHALLENGE", "EXIT 2"]
    assert words[3] == ["ROPE", "PICKAXE", "EXIT 3"]


def test_tile_backs_show_the_player_mark_only(full, cave):
    tiles = cave.data["tiles"]
    for t in [*tiles.tiles, *tiles.exits]:
        words = [w for w, *_ in texts(full / f"svg/tiles/{t.id}-back.svg")]
        assert words == [str(t.players), f"{t.players}+ PLAYERS"], t.id
    # face down, an exit is indistinguishable from a cave tile with the same mark
    same = next(t for t in tiles.tiles if t.players == tiles.exits[0].players)
    assert (full / "svg/tiles/exit-1-back.svg").read_text().split("<title>")[1].split("</title>")[1] == \
        (full / f"svg/tiles/{same.id}-back.svg").read_text().split("<title>")[1].split("</title>")[1]


def test_character_meters_come_from_their_ranges(full, cave):
    chars = cave.data["characters"]
    root = ET.parse(full / "svg/characters/ada.svg").getroot()
    energy = [r for r in root.iter(NS + "rect") if r.get("class") == "energy-cell"]
    sanity = [r for r in root.iter(NS + "rect") if r.get("class") == "sanity-cell"]
    assert len(energy) == chars.energy.steps == 20
    assert len(sanity) == 10
    colour = {f.name: f.colour for f in chars.sanity.fields}
    assert [r.get("fill") for r in sanity] == [colour["red"]] * 3 + [colour["yellow"]] * 3 + [colour["green"]] * 4
    numbers = [w for w, *_ in texts(full / "svg/characters/ada.svg")]
    assert [str(i) for i in range(0, 21)] == [w for w in numbers if w.isdigit()][:21]  # the 0 square first


def test_each_meter_has_a_0_square_left_of_its_1(full):
    """The card says what happens at 0 SANITY (rules 39, 52) and our Goal what 0 ENERGY
    does: both meters need a square for the marker at 0, before their 1."""
    root = ET.parse(full / "svg/characters/ada.svg").getroot()
    rects = list(root.iter(NS + "rect"))
    zeros = [r for r in rects if r.get("class") == "zero-cell"]
    assert len(zeros) == 2
    for zero, cls in zip(zeros, ("energy-cell", "sanity-cell")):
        first = next(r for r in rects if r.get("class") == cls)
        assert float(zero.get("x")) + float(zero.get("width")) == pytest.approx(float(first.get("x")))
        assert float(zero.get("y")) == float(first.get("y"))
    assert [w for w, *_ in texts(full / "svg/characters/ada.svg")].count("0") == 2


def test_items_say_which_exit_needs_them(full):
    shovel = " ".join(w for w, *_ in texts(full / "svg/events/shovel.svg"))
    assert "EXIT 1" in shovel
    rope = " ".join(w for w, *_ in texts(full / "svg/events/rope.svg"))
    assert "EXIT 3" in rope


# ---------------------------------------------------------------- the board


def test_board_coordinates_are_on_the_right_edges(full, cave):
    board = cave.data["board"]
    s, b = board.square, board.border
    svg = full / "svg/board/board.svg"
    root = ET.parse(svg).getroot()
    assert (root.get("width"), root.get("height")) == ("380mm", "260mm")  # 12 x 8 squares of 30mm + border
    rows = texts(svg, "coord row")
    cols = texts(svg, "coord column")
    assert sorted({t for t, *_ in rows}) == list("ABCDEFGH")
    assert sorted({int(t) for t, *_ in cols}) == list(range(1, 13))
    grid_w, grid_h = 12 * s, 8 * s
    for label, x, y in rows:  # one on the left edge, one on the right, inside its row's band
        i = "ABCDEFGH".index(label)
        assert b + i * s < y < b + (i + 1) * s, (label, y)
        assert x < b or x > b + grid_w, (label, x)
    assert sorted(x for t, x, _ in rows if t == "A") == [b / 2, b * 1.5 + grid_w]
    for label, x, y in cols:  # top and bottom edges, centred on the column
        i = int(label) - 1
        assert x == pytest.approx(b + (i + 0.5) * s)
        assert y < b or y > b + grid_h, (label, y)
    assert len(rows) == 16 and len(cols) == 24
    # A is the top row, 1 the leftmost column
    assert min(rows, key=lambda r: r[2])[0] == "A" and min(cols, key=lambda c: c[1])[0] == "1"


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""
    def lum(h: str) -> float:
        c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_square_labels_print_readably_but_quieter_than_the_edge_labels(full, cave):
    """The A1... labels were #c9bb9c on #e2d4b7 (1.29:1), near invisible in print."""
    colours = cave.data["board"].colours
    root = ET.parse(full / "svg/board/board.svg").getroot()
    fills = {r.get("fill") for r in root.iter(NS + "rect") if r.get("width") == "30"} - {colours["paper"], "none", None}
    assert fills, "no shaded squares found"
    for ground in fills | {colours["paper"]}:
        assert 3 <= _contrast(colours["faint"], ground) < _contrast(colours["label"], ground), ground


def test_board_square_is_the_tile_size(cave):
    sizes = {c.id: c.size for c in cave.manifest.components}
    square = cave.data["board"].square
    assert (sizes["tiles"].width, sizes["tiles"].height) == (square, square)
    assert (sizes["start"].width, sizes["start"].height) == (2 * square, square)


@pytest.mark.parametrize("name, pages", [("letter", 2), ("a4", 2), ("a3", 1), ("tabloid", 1)])
def test_board_pdf_pages_per_paper(cave, name, pages):
    (board,) = render_game(cave, {}, 3.0, only={"board"})
    pdf = pypdfium2.PdfDocument(impose(board, paper(name), "board"))
    assert len(pdf) == pages


# ---------------------------------------------------------------- files


def test_every_svg_is_well_formed_with_mm_size(full, cave):
    sizes = {c.id: (c.size, 0.0 if c.bleed == 0 else 3.0) for c in cave.manifest.components}
    svgs = sorted(full.glob("svg/*/*.svg"))
    assert len(svgs) > 100
    for path in svgs:
        root = ET.parse(path).getroot()
        size, bleed = sizes[path.parent.name]
        assert root.tag == NS + "svg"
        assert root.get("width") == f"{size.width + 2 * bleed:g}mm", path
        assert root.get("height") == f"{size.height + 2 * bleed:g}mm", path


def test_pdf_page_counts(full, cave):
    letter = paper("letter")
    for comp in cave.manifest.components:
        if comp.id == "board":
            continue
        pdf = full / f"pdf/{comp.id}.pdf"
        svg_dir = full / "svg" / comp.id
        grid = plan_grid(comp.size.width, comp.size.height, 3.0, comp.gap, letter, comp.rotate == "auto")
        pieces = {
            "tiles": 43, "start": 1, "events": 29, "food": 18, "meals": 30, "characters": 6, "tokens": 32,
            "pawns": 6, "meter-markers": 12, "summary": 6,
        }[comp.id]
        sides = 2 if comp.back else 1
        assert svg_dir.is_dir()
        assert len(pypdfium2.PdfDocument(pdf)) == sides * math.ceil(pieces / grid.per_page), comp.id
    assert len(pypdfium2.PdfDocument(full / "pdf/board.pdf")) == 2


def test_two_builds_are_byte_identical(full, repo_project, tmp_path):
    build(repo_project, ["cave"], BuildOptions(out=tmp_path))
    again = files_under(tmp_path / "cave")
    first = files_under(full)
    assert again.keys() == first.keys()
    assert [k for k in first if first[k] != again[k]] == []


def test_board_split_over_letter_pages_has_matching_cut_and_glue_marks(cave, monkeypatch):
    """Page 2's dashed cut line and page 1's solid landing ticks (0.6 pt, not the thinner crop
    marks of the board's trim) mark the same line of the board."""
    from pnp.formats import impose as impose_mod

    (board,) = render_game(cave, {}, 3.0, only={"board"})
    sheet = paper("letter")
    plan = impose_mod.layout(board, sheet, "board")
    lines = [(p, round(ln.x1, 3), round(ln.x2, 3), ln.dash is not None) for p, page in enumerate(plan.pages) for ln in page.lines
             if ln.dash is not None or ln.width == 0.6]
    m = plan.pages[0].places[0].clip[0]  # the split pages' margin: room for the instruction inside the printable inset
    area = sheet.width - 2 * m
    step = area - impose_mod.TILE_OVERLAP  # page 2 starts this far into the board
    ticks = {x1 for p, x1, x2, dashed in lines if p == 0 and not dashed and x1 == x2}
    cuts = {x1 for p, x1, x2, dashed in lines if p == 1 and dashed and x1 == x2}
    assert len(ticks) == 1 and len(cuts) == 1
    (tick,), (cut,) = ticks, cuts
    assert tick - m == pytest.approx(cut - m + step)  # the same board x on both pages


# ---------------------------------------------------------------- the playable kit (issue 10)


def _words(svg: Path) -> str:
    return " ".join(w for w, *_ in texts(svg))


def test_board_prints_the_d8_number_beside_each_row_letter(full):
    """cave-game-rules.txt line 22: the D8 gives the row, 1 = A ... 8 = H."""
    board = full / "svg/board/board.svg"
    letters = [(w, y) for w, x, y in texts(board, "coord row") if x < 10]
    numbers = [(w, y) for w, x, y in texts(board, "coord row-number") if x < 10]
    assert [w for w, _ in letters] == list("ABCDEFGH")
    assert [w for w, _ in numbers] == [str(n) for n in range(1, 9)]
    for (_, ly), (_, ny) in zip(letters, numbers):
        assert 0 < ny - ly < 6  # each number right under its letter


def test_summary_card_prints_the_rulings_and_the_dice(full, cave):
    front, back = _words(full / "svg/summary/rules-summary.svg"), _words(full / "svg/summary/back.svg")
    # challenge: "equal to or under" (line 94) chosen over "exceeds" (lines 10-11)
    assert "equal to or under your ENERGY" in back and "highest ENERGY" in back
    # meal value from the FOOD card (line 78) over the MEAL card (lines 17, 82)
    assert "gain the FOOD value" in front and "a safe meal gives the FOOD card's value" in back
    board = cave.data["board"]
    for die in [*cave.data["summary"].dice, board.row_die, board.column_die]:
        assert die in back
    assert cave.data["summary"].dice == ["D4", "D10", "D20"]
    assert "D8 row (1-8 = A-H)" in back and "D12 column (1-12)" in back  # board.yaml's dice and labels
    assert "green +2, yellow +1, red +0" in back  # from characters.yaml's SANITY fields
    # which exits, from the exits' back marks (rule 104 gives only how many)
    assert "exit 1 at 2 players, exits 1-2 at 3, all 3 at 4-6 (which ones: our choice)" in front


def test_summary_card_states_the_board_dice_of_board_yaml(repo_project: Project, tmp_path: Path):
    """The summary's coordinates come from board.yaml, the values the board prints: a board
    of 10 columns rolled with a D10 says so on both."""
    project = Project(tmp_path / "proj")
    shutil.copytree(repo_project.content_dir / "cave", project.content_dir / "cave")
    shutil.copytree(repo_project.templates_dir / "cave", project.templates_dir / "cave")
    link_plugins(project.root)
    board, manifest = project.content_dir / "cave/board.yaml", project.content_dir / "cave/game.yaml"
    board.write_text(board.read_text().replace("11, 12]", "]").replace("column_die: D12", "column_die: D10"))
    manifest.write_text(manifest.read_text().replace("size: 380mm x 260mm", "size: 320mm x 260mm"))
    build(project, ["cave"], BuildOptions(out=tmp_path / "out", formats=("svg",)))
    back = _words(tmp_path / "out/cave/svg/summary/back.svg")
    assert "D10 column (1-10)" in back and "D12" not in back
    assert "D10 →" in _words(tmp_path / "out/cave/svg/board/board.svg")


def test_summary_names_the_exits_the_back_marks_choose(repo_project: Project, tmp_path: Path):
    """The Setup's exits come from the exits' back marks: exit 2 re-marked 2 (and the
    count to match) prints exits 1-2 at 2-3 players."""
    project = Project(tmp_path / "proj")
    shutil.copytree(repo_project.content_dir / "cave", project.content_dir / "cave")
    shutil.copytree(repo_project.templates_dir / "cave", project.templates_dir / "cave")
    link_plugins(project.root)
    tiles = project.content_dir / "cave/tiles.yaml"
    text = tiles.read_text().replace("{2: 1, 3: 2,", "{2: 2, 3: 2,").replace("    number: 2\n    players: 3", "    number: 2\n    players: 2")
    tiles.write_text(text)
    build(project, ["cave"], BuildOptions(out=tmp_path / "out", formats=("svg",)))
    assert "exits 1-2 at 2-3 players, all 3 at 4-6 (which ones: our choice)" in _words(tmp_path / "out/cave/svg/summary/rules-summary.svg")


def test_meter_marker_shows_the_cell_number_through_its_hole(full):
    """A marker is a ring over one meter cell: its hole is at least a cell wide, so the
    cell's number shows, and stops short of the neighbours' numbers; the ring is big
    enough to cut and pick up (other small pieces are 12 mm and more)."""
    card = ET.parse(full / "svg/characters/ada.svg").getroot()
    for cls in ("energy-cell", "sanity-cell"):
        cell = next(r for r in card.iter(NS + "rect") if r.get("class") == cls)
        cw, chh = float(cell.get("width")), float(cell.get("height"))
        for meter in ("energy", "sanity"):
            root = ET.parse(full / f"svg/meter-markers/ada-{meter}.svg").getroot()
            side = float(root.get("width").removesuffix("mm"))
            hole = next(c for c in root.iter(NS + "circle") if c.get("class") == "hole")
            r = float(hole.get("r"))
            assert 2 * r >= cw and 2 * r >= chh - 0.5  # the whole number of the cell shows
            assert r < cw - 1.0  # a neighbour's number (about 2 mm wide, in its cell's middle) does not
            assert side >= 10 and side - 2 * r >= 3  # a ring with walls to hold it by
    assert "punch out a marker's dashed hole" in _words(full / "svg/summary/back.svg")


def test_meter_markers_name_their_owner_on_both_faces(full, cave):
    """The twelve markers are cut as one mixed block: each face prints its owner's first
    name (as the pawn does) and its meter, not colour alone, which greyscale and colour
    blindness lose (Ada, Bruno and Farah print within 3 L* of each other). The words are
    at least the 6 pt floor (they were 4.3 pt), 1 mm inside the cut, and keep out of the
    hole. The SANITY marker's white runs into the bleed (it stopped 0.4 mm short of the cut)."""
    from pnp.render.textfit import DEFAULT_FLOOR, text_width
    for ch in cave.data["characters"].characters:
        first = ch.name.split()[0].upper()
        for meter in ("ENERGY", "SANITY"):
            for face in ("", "-back"):
                svg = full / f"svg/meter-markers/{ch.id}-{meter.lower()}{face}.svg"
                root = ET.parse(svg).getroot()
                side = float(root.get("width").removesuffix("mm")) - 2 * 3  # less the 3 mm bleed
                hole = next(c for c in root.iter(NS + "circle") if c.get("class") == "hole")
                top, bottom = float(hole.get("cy")) - float(hole.get("r")), float(hole.get("cy")) + float(hole.get("r"))
                words = {t.get("class"): t for t in root.iter(NS + "text")}
                assert "".join(words["owner"].itertext()) == first, svg.name
                assert "".join(words["meter"].itertext()) == meter, svg.name
                for t in words.values():
                    size = float(t.get("font-size"))
                    assert size >= DEFAULT_FLOOR and text_width("".join(t.itertext()), size, "bold") <= side - 2, svg.name
                owner, meter_size = words["owner"], float(words["meter"].get("font-size"))
                cap = 0.69  # Liberation Sans Bold's capitals, in font sizes
                assert float(owner.get("y")) - cap * float(owner.get("font-size")) >= 1.0 - 1e-6  # 1 mm under the cut
                assert float(owner.get("y")) < top - 0.1  # above the hole
                assert float(words["meter"].get("y")) - 0.75 * meter_size > bottom + 0.1
                assert float(words["meter"].get("y")) <= side - 1.0 + 1e-6  # 1 mm over the cut (capitals: no descender)
                ground = root.find(NS + "rect")  # the face's background, over the bleed too
                assert ground.get("x") == "-3" and ground.get("fill") == ("#ffffff" if meter == "SANITY" else ch.colour), svg.name


def test_sanity_numbers_read_on_their_fields(full, cave):
    """SANITY 1-3 decides the game (rules 20, 31, 50-52), but its numbers were dark on red,
    3.4:1 and 2.4:1 to protanopes. Each cell's number must be at least 4.5:1 on its field
    (WCAG for small text) in colour and greyscale, and 3:1 under deuteranopia/protanopia."""
    from colour_vision import contrast
    for ch in cave.data["characters"].characters:
        shapes = list(ET.parse(full / f"svg/characters/{ch.id}.svg").getroot())
        cells = [(el, shapes[i + 1]) for i, el in enumerate(shapes) if el.get("class") == "sanity-cell"]
        assert len(cells) == 10
        for cell, number in cells:
            ink, ground = number.get("fill"), cell.get("fill")
            for view, least in (("normal", 4.5), ("grey", 4.5), ("deutan", 3), ("protan", 3)):
                assert contrast(ink, ground, view) >= least, (ch.id, number.text, view)


def _ink(text: ET.Element) -> tuple[str, float]:
    return text.get("fill"), float(text.get("fill-opacity", 1))


def test_white_print_on_character_and_event_bands_reads(full, cave):
    """White small print on coloured bands: a character's name and role (Dagny's orange was
    3.0:1, her role line at 85 % white 2.6:1) must be at least 4.5:1 in colour and greyscale
    and 3:1 under deuteranopia/protanopia. Every white word on an event card (the kind label,
    the title, the ITEM badge) is on the kind's colour: at least 4.5:1 and 3.5:1 simulated
    (FIRE's #d9480f was let through at 4.3:1; the label, not the band, tells it from the
    CHALLENGE OR DAMAGE red in greyscale)."""
    from colour_vision import contrast
    for ch in cave.data["characters"].characters:
        root = ET.parse(full / f"svg/characters/{ch.id}.svg").getroot()
        lines = {"".join(t.itertext()): t for t in root.iter(NS + "text")}
        for line in (ch.name, ch.role.upper()):
            ink, alpha = _ink(lines[line])
            for view, least in (("normal", 4.5), ("grey", 4.5), ("deutan", 3), ("protan", 3)):
                assert contrast(ink, ch.colour, view, alpha) >= least, (ch.id, line, view)
    kinds = {k.label: k for k in cave.data["events"].kinds.values()}
    seen = set()
    for path in (full / "svg/events").glob("*.svg"):
        root = ET.parse(path).getroot()
        words = [t for t in root.iter(NS + "text") if t.get("fill") == "#ffffff"]
        [kind] = [kinds[w] for w in ("".join(t.itertext()) for t in words) if w in kinds] or [None]
        if kind is None:
            continue  # the back
        seen.add(kind.label)
        assert len(words) >= 2, path.name  # the label and the title at least
        for t in words:
            ink, alpha = _ink(t)
            for view, least in (("normal", 4.5), ("grey", 4.5), ("deutan", 3.5), ("protan", 3.5)):
                assert contrast(ink, kind.colour, view, alpha) >= least, (path.name, "".join(t.itertext()), view)
    assert seen == set(kinds)


def test_white_print_on_food_and_meal_headers_reads(full, cave):
    """A food or meal card's header label ("FOOD · MEAT", "MEAL") was 85 % white at 2.3 mm
    (3.5:1 on the PREPARED meal's FIRE orange, 3.9:1 on the UNPREPARED grey): it is full white,
    at least 4.5:1 in colour and greyscale and 3.5:1 simulated, on the FIRE orange too (the
    PREPARED state's colour is the FIRE event's: #d9480f was let through at 4.3:1)."""
    from colour_vision import contrast
    food = cave.data["food"]
    bands = {f"food/{f.id}": (f"{food.food_back_label} · {food.types[f.type].label}", food.types[f.type].colour)
             for f in food.foods}
    bands |= {f"meals/{m.id}": (food.meal_back_label, food.states[m.state].colour) for m in food.meals}
    for face, (label, band) in bands.items():
        root = ET.parse(full / f"svg/{face}.svg").getroot()
        [text] = [t for t in root.iter(NS + "text") if "".join(t.itertext()) == label]
        ink, alpha = _ink(text)
        assert float(text.get("font-size")) >= 2.8, face
        for view, needed in (("normal", 4.5), ("grey", 4.5), ("deutan", 3.5), ("protan", 3.5)):
            assert contrast(ink, band, view, alpha) >= needed, (face, label, view)


def test_meal_backs_name_their_state_readably(full, cave):
    """A meal back prints MEAL and its state's name (4 mm bold, under WCAG's large size) on
    the state's colour: at least 4.5:1 in colour and greyscale (in the paper colour they were
    3.7:1 on the PREPARED orange and 4.0:1 on the UNPREPARED grey)."""
    from colour_vision import contrast
    food = cave.data["food"]
    backs = sorted((full / "svg/meals").glob("*-back.svg"))
    assert {p.name.split("-")[0] for p in backs} == set(food.states)
    for path in backs:
        state = food.states[path.name.split("-")[0]]
        root = ET.parse(path).getroot()
        words = {"".join(t.itertext()): t for t in root.iter(NS + "text")}
        for word in (food.meal_back_label, state.label):
            ink, alpha = _ink(words[word])
            for view in ("normal", "grey"):
                assert contrast(ink, state.colour, view, alpha) >= 4.5, (path.name, word, view)


def test_white_labels_on_room_badges_and_tokens_read(full, cave):
    """A room's badge (FOOD, EVENT, CHALLENGE) and a token's label are white small print on
    the room's or token's colour: at least 4.5:1 in colour and greyscale and 3.5:1 simulated
    (the FOOD green #2b8a3e was 4.4:1)."""
    from colour_vision import contrast
    grounds = {label: colour for room in cave.data["tiles"].rooms.values()
               for label, colour in zip(room.labels, room.colours)}
    grounds |= {f"token {t.label}": t.colour for t in cave.data["tokens"].tokens}
    seen = set()
    for folder, prefix in (("tiles", ""), ("tokens", "token ")):
        for path in (full / "svg" / folder).glob("*.svg"):
            for t in ET.parse(path).getroot().iter(NS + "text"):
                label = prefix + "".join(t.itertext())
                if t.get("fill") == "#ffffff" and label in grounds:
                    seen.add(label)
                    ink, alpha = _ink(t)
                    for view, least in (("normal", 4.5), ("grey", 4.5), ("deutan", 3.5), ("protan", 3.5)):
                        assert contrast(ink, grounds[label], view, alpha) >= least, (path.name, label, view)
    assert seen == set(grounds)


def test_summary_text_fits_its_card(full):
    for name in ("rules-summary.svg", "back.svg"):
        root = ET.parse(full / "svg/summary" / name).getroot()
        bottom = next(float(g.get("data-bottom")) for g in root.iter(NS + "g") if g.get("class") == "overflow-check")
        assert bottom < 148 - 8, name


def test_every_character_has_a_pawn_and_two_meter_markers(full, cave):
    ids = [c.id for c in cave.data["characters"].characters]
    assert sorted(p.stem for p in (full / "svg/pawns").glob("*.svg") if not p.stem.endswith("-back")) == sorted(ids)
    markers = sorted(p.stem for p in (full / "svg/meter-markers").glob("*.svg") if not p.stem.endswith("-back"))
    assert markers == sorted(f"{i}-{m}" for i in ids for m in ("energy", "sanity"))


def test_no_invented_content_is_presented_as_the_games():
    game = (REPO / "content/cave/game.yaml").read_text()
    assert "co-operative" not in game.lower()
    events = (REPO / "content/cave/events.yaml").read_text()
    assert "challenge-item" not in events and "add 2 to your ENERGY" not in events
    assert "designers' note" not in (REPO / "content/cave/tiles.yaml").read_text().lower()
