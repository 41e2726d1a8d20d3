"""Dietrick-taking components: counts, the designed deck balance, the printed scoring cards,
well-formed SVGs in mm, PDF pages, determinism, a pixel check and content validation."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pypdfium2
import pytest
import resvg_py
import yaml
from PIL import Image, ImageChops, ImageStat

from conftest import copied_from_book
from game_plugins import game_module
from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project, load_game
from pnp.errors import PnpError
from pnp.formats.impose import paper, plan_grid

REPO = Path(__file__).resolve().parent.parent
GAME = "dietrick-taking"
SVG = "{http://www.w3.org/2000/svg}"
FONTS = dict(sans_serif_family="Liberation Sans", font_dirs=["/usr/share/fonts/truetype/liberation"])


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), GAME)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dt")
    build(Project(REPO), [GAME], BuildOptions(out=out))
    return out / GAME


# ---------------------------------------------------------------- counts and content


def test_deck_has_36_cards_nine_per_suit_numbers_1_to_9(game):
    cards = game.data["deck"].cards
    assert len(cards) == 36
    assert Counter(c.suit.id for c in cards) == {"meat": 9, "vegetable": 9, "shirt": 9, "shoes": 9}
    for suit in ("meat", "vegetable", "shirt", "shoes"):
        assert sorted(c.number for c in cards if c.suit.id == suit) == list(range(1, 10))


def test_icon_distribution_is_balanced(game):
    cards = game.data["deck"].cards
    assert Counter(c.icon for c in cards) == {"fork": 18, "runner": 18}
    for n in range(1, 10):  # every number twice with each icon
        assert Counter(c.icon for c in cards if c.number == n) == {"fork": 2, "runner": 2}
    for suit in game.data["deck"].suits:  # fork and runner cards average 5 in every suit
        assert sum(suit.fork) == 5 * len(suit.fork) and sum(suit.runner) == 5 * len(suit.runner)


def test_icons_follow_the_rule_books_example_e(game):
    """dietrick-taking-rules.txt line 54: 1 Meat = yellow, 2 Meat = blue, and the trick
    1 Meat, 2 Meat, 9 Shoes, 9 Vegetable moves its winner three blue and one yellow."""
    deck = game.data["deck"]
    row = {c.id: deck.icons[c.icon].row for c in deck.cards}
    assert row["meat-1"] == "yellow" and row["meat-2"] == "blue"
    trick = ["meat-1", "meat-2", "shoes-9", "vegetable-9"]
    assert Counter(row[c] for c in trick) == {"blue": 3, "yellow": 1}


def test_scoring_cards_track(game):
    scoring = game.data["scoring"]
    assert [c.number for c in scoring.cards] == [1, 2, 3, 4]
    assert scoring.track_length == 16
    # the 13th square is the first square of card 4, laid last whatever the order
    assert scoring.end_slot() == 0
    assert scoring.track([3, 1, 2], "yellow")[12] == scoring.card(4).yellow[0]
    assert scoring.track([2, 1, 3], "blue")[:4] == scoring.card(2).blue


def test_svg_counts(built):
    svg = built / "svg"
    assert len(list((svg / "cards").glob("*.svg"))) == 37  # 36 fronts + common back
    assert (svg / "cards" / "back.svg").is_file()
    assert sorted(p.name for p in (svg / "scoring-cards").glob("*.svg")) == [f"card-{n}.svg" for n in range(1, 5)]
    markers = sorted(p.stem for p in (svg / "markers").glob("*.svg") if not p.stem.endswith("-back"))
    assert len(markers) == 12
    assert Counter(m.rsplit("-", 1)[0] for m in markers) == {"tomato": 3, "mint": 3, "grape": 3, "liquorice": 3}
    assert len(list((svg / "markers").glob("*-back.svg"))) == 12
    assert len(list((svg / "reference").glob("*.svg"))) == 8  # two-sided


def test_svgs_are_well_formed_with_mm_sizes(built):
    sizes = {"cards": (63, 88), "scoring-cards": (88, 63), "markers": (14, 14), "reference": (63, 88), "solo-reference": (63, 88),
             "scoring-sheet": (200 - 6, 130 - 6)}  # the paper sheets have no bleed
    files = list((built / "svg").rglob("*.svg"))
    assert len(files) == 37 + 4 + 24 + 8 + 1 + 4  # + the solo card (one face), + a scoring sheet for 1-4 players
    for path in files:
        root = ET.parse(path).getroot()
        assert root.tag == f"{SVG}svg"
        w, h = sizes[path.parent.name]
        assert root.get("width") == f"{w + 6:g}mm" and root.get("height") == f"{h + 6:g}mm", path


def test_card_shows_number_suit_and_score_icon(built):
    text = (built / "svg" / "cards" / "meat-1.svg").read_text()
    assert ">1<" in text and "#b3322f" in text  # number in the suit colour
    assert "#f2b619" in text  # meat 1 carries the fork (yellow)
    assert "#2a72c9" in (built / "svg" / "cards" / "meat-2.svg").read_text()  # runner (blue)
    assert "<text" not in re.sub(r"<text[^>]*>[0-9A-Z ]*</text>", "", text)  # icons are drawn, not typed


def test_cards_small_print_in_the_suit_colour_reads(built, game):
    """A card's "VEGETABLE 3" line (3.4 mm) is in the suit's colour on the cream panel: at
    least 4.5:1 in colour and greyscale (the Vegetable green was 4.1:1)."""
    from colour_vision import contrast
    for suit in game.data["deck"].suits:
        root = ET.parse(built / "svg" / "cards" / f"{suit.id}-3.svg").getroot()
        panel = [r.get("fill") for r in root.iter(f"{SVG}rect")][1]  # after the suit-coloured ground
        [line] = [t for t in root.iter(f"{SVG}text") if t.text == f"{suit.name.upper()} 3"]
        assert panel == "#fffaf0" and line.get("fill") == suit.colour and float(line.get("font-size")) < 4.94
        for view in ("normal", "grey"):
            assert contrast(suit.colour, panel, view) >= 4.5, (suit.id, view)


def _score_icons(root: ET.Element):
    """(glyph colours, ground) of every score icon of a face: the ground is the disc just
    before the glyph, else the face's background (its first rect, or white paper)."""
    GLYPHS = game_module("dietrick_taking", "glyphs").GLYPHS
    def key(el: ET.Element) -> tuple:
        return el.tag.split("}")[-1], tuple(sorted((k, v) for k, v in el.attrib.items() if k not in ("fill", "stroke")))
    firsts = {key(ET.fromstring(f"<g>{GLYPHS[n].format(c='#000000', bg='#ffffff')}</g>")[0]) for n in ("fork", "runner")}
    paper = next((r.get("fill") for r in root.iter(f"{SVG}rect")), "#ffffff")
    for parent in root.iter():
        kids = list(parent)
        for i, g in enumerate(kids):
            if g.tag == f"{SVG}g" and len(g) and key(g[0]) in firsts:
                before = kids[i - 1] if i else None
                ground = before.get("fill") if before is not None and before.tag == f"{SVG}circle" else paper
                inks = {el.get(a) for el in g for a in ("fill", "stroke")} - {None, "none", ground}
                yield inks, ground


def test_reference_cards_text_in_the_players_colour_reads(built):
    """Print review: Mint's reference card printed its white subtitle on the mint band and its
    headings on the cream ground at 3.3-3.5:1. The band and the headings are in the colour's
    `ink` (players.yaml), at least 4.5:1 (WCAG for text) in colour and greyscale."""
    from colour_vision import contrast
    seen = 0
    for path in sorted((built / "svg" / "reference").glob("*.svg")):
        root = ET.parse(path).getroot()
        band = next(r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("fill", "").startswith("#") and r.get("fill") != "#fffaf0")
        for text in root.iter(f"{SVG}text"):
            fill, bold = text.get("fill"), text.get("font-weight") == "bold"
            if not bold or fill is None:
                continue
            ground = band if fill == "#ffffff" else "#fffaf0"  # white on the band; the colour on the card's ground
            seen += 1
            for view in ("normal", "grey"):
                assert contrast(fill, ground, view) >= 4.5, (path.name, text.text, fill, ground, view)
    assert seen >= 8 * 5


def test_a_6_and_a_9_are_told_apart_on_the_scoring_cards_too(built):
    """Dietrick-taking review: the cards underline 6 and 9; the scoring cards, read from every
    side of the table, did not. Each 6 and 9 of a scoring card's rows has a bar under it."""
    seen = 0
    for path in sorted((built / "svg" / "scoring-cards").glob("*.svg")):
        root = ET.parse(path).getroot()
        bars = [(float(r.get("x")) + float(r.get("width")) / 2, float(r.get("y"))) for r in root.iter(f"{SVG}rect") if r.get("class") == "underline"]
        for text in root.iter(f"{SVG}text"):
            if text.get("font-size") == "10" and (text.text or "").strip() in ("6", "9"):
                seen += 1
                x, y = float(text.get("x")), float(text.get("y"))
                assert any(abs(bx - x) < 0.01 and 0.5 < by - y < 2 for bx, by in bars), (path.name, text.text)
    assert seen == 6  # the 6s of cards 2 and 3 and the 9s of card 4, in both rows (scoring.yaml)


def test_score_icons_read_on_cards_scoring_cards_and_sheets(built):
    """The fork and knife was white on its yellow disc (1.8:1) and yellow on the sheets'
    white (1.8:1), near invisible in greyscale: every score icon's glyph is at least 3:1
    (WCAG for graphics) on what it is drawn on, in colour, greyscale, deuteranopia and
    protanopia."""
    from colour_vision import VIEWS, contrast
    seen = 0
    for part in ("cards", "scoring-cards", "scoring-sheet"):
        for path in sorted((built / "svg").glob(f"{part}/*.svg")):
            if path.stem == "back":
                continue  # the card back's icons sit on half discs drawn before both glyphs
            for inks, ground in _score_icons(ET.parse(path).getroot()):
                seen += 1
                for ink in inks:
                    for view in VIEWS:
                        assert contrast(ink, ground, view) >= 3, (path.name, ink, ground, view)
    assert seen >= 36 * 3 + 4 * 2 + 4 * 4  # cards (3 each), scoring-card legends, sheet heads


def test_end_square_is_white_only_on_card_4(built):
    card4 = (built / "svg" / "scoring-cards" / "card-4.svg").read_text()
    assert card4.count("END 13") == 2  # both rows
    for n in (1, 2, 3):
        assert "END" not in (built / "svg" / "scoring-cards" / f"card-{n}.svg").read_text()


def test_markers_never_blend_into_the_rows_they_stand_on(built, game):
    """players.yaml promises a marker never blends into its row. Tomato was the blue row's
    grey (1.03:1) and Grape looked blue to deuteranopes: what meets the row, the marker's
    edge (its background, filling the bleed), must stand out from the yellow and the blue
    row by at least 3:1 (WCAG's contrast for graphics) in colour, greyscale, deuteranopia
    and protanopia; the player colour is a disc inside it."""
    from colour_vision import VIEWS, contrast
    rows = [icon.colour for icon in game.data["deck"].icons.values()]
    markers = sorted((built / "svg" / "markers").glob("*.svg"))
    assert len(markers) == 24
    for path in markers:
        root = ET.parse(path).getroot()
        half = float(root.get("width").removesuffix("mm")) / 2 - 3
        edge = next(root.iter(f"{SVG}rect")).get("fill")  # the background, to the bleed's edge
        for row in rows:
            for view in VIEWS:
                assert contrast(edge, row, view) >= 3, (path.name, row, view)
        disc = next(c for c in root.iter(f"{SVG}circle") if c.get("class") == "player-colour")
        assert float(disc.get("r")) <= half - 0.8, path.name  # the player colour stays inside the rim


def test_scoring_card_prints_its_numbers(built, game):
    root = ET.parse(built / "svg" / "scoring-cards" / "card-2.svg").getroot()
    big = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "10"]
    card = game.data["scoring"].card(2)
    assert big == [str(n) for n in card.yellow + card.blue]


def test_reference_text_fits_the_card(built):
    for path in (built / "svg" / "reference").glob("*.svg"):
        root = ET.parse(path).getroot()
        ys = [float(t.get("y")) for t in root.iter(f"{SVG}text")]
        assert max(ys) <= 88 - 3, path  # inside the safe area
        sizes = {float(t.get("font-size")) for t in root.iter(f"{SVG}text")}
        assert min(sizes) >= 2.2


# ---------------------------------------------------------------- PDF


def test_pdf_page_counts(built):
    pages = {name: len(pypdfium2.PdfDocument(built / "pdf" / f"{name}.pdf")) for name in ("cards", "scoring-cards", "markers", "reference")}
    # letter, 3 mm bleed: 6 cards a sheet (fronts + duplex backs), 4 scoring and 4 reference
    # cards on one sheet, 12 markers on one sheet plus its back
    assert pages == {"cards": 12, "scoring-cards": 1, "markers": 2, "reference": 2}


def test_pdf_pages_match_the_grid(built, game):
    sheet = paper("letter")
    for comp, copies, sides in (("cards", 36, 2), ("markers", 12, 2), ("reference", 4, 2)):
        spec = next(c for c in game.manifest.components if c.id == comp)
        grid = plan_grid(spec.size.width, spec.size.height, 3, spec.gap, sheet, True)
        expected = -(-copies // grid.per_page) * sides
        assert len(pypdfium2.PdfDocument(built / "pdf" / f"{comp}.pdf")) == expected


def test_builds_are_deterministic(built, tmp_path):
    build(Project(REPO), [GAME], BuildOptions(out=tmp_path))
    again = tmp_path / GAME
    for path in sorted(p for p in built.rglob("*") if p.is_file() and p.suffix in {".svg", ".pdf"}):
        assert path.read_bytes() == (again / path.relative_to(built)).read_bytes(), path


def test_pixel_check_card_back_pdf_matches_svg(built, game):
    """The first card back on the PDF's back page, where long-edge duplex puts it, looks
    like the back SVG rendered on its own."""
    dpi = 100
    spec = next(c for c in game.manifest.components if c.id == "cards")
    sheet = paper("letter")
    grid = plan_grid(spec.size.width, spec.size.height, 3, spec.gap, sheet, True)
    x, y = grid.slot(0)
    x = sheet.width - x - grid.cell_w  # mirrored for the back
    page = pypdfium2.PdfDocument(built / "pdf" / "cards.pdf")[1].render(scale=dpi / 72).to_pil().convert("RGB")
    px = dpi / 25.4
    box = (round(x * px), round(y * px), round((x + grid.cell_w) * px), round((y + grid.cell_h) * px))
    from_pdf = page.crop(box)
    png = resvg_py.svg_to_bytes(svg_path=str(built / "svg" / "cards" / "back.svg"), dpi=dpi, **FONTS)
    from_svg = Image.open(io.BytesIO(bytes(png))).convert("RGB")
    if grid.rotated:  # backs are turned the other way from fronts (-90)
        from_svg = from_svg.rotate(-90, expand=True)
    from_svg = from_svg.resize(from_pdf.size)
    diff = ImageStat.Stat(ImageChops.difference(from_pdf, from_svg)).mean
    assert max(diff) < 12, diff
    # and it is not blank: the two halves of the badge are there
    colours = [c for _, c in from_pdf.getcolors(maxcolors=1 << 20)]
    assert any(abs(r - 0xF2) < 12 and abs(g - 0xB6) < 12 and b < 60 for r, g, b in colours)


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
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.lstrip().startswith(needle))


def _errors(project: Project) -> list[str]:
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    return [str(e) for e in exc.value.errors]


def test_missing_number_in_a_suit(scratch):
    path = _edit(scratch, "deck.yaml", "runner: [2, 5, 6, 7]", "runner: [2, 5, 6]")
    (err,) = _errors(scratch)
    assert re.search(rf"deck\.yaml:{_line(path, '- id: meat')}:\d+: suit meat: numbers \[7\] have no score icon", err)


def test_number_under_both_icons(scratch):
    path = _edit(scratch, "deck.yaml", "runner: [2, 5, 6, 7]", "runner: [2, 5, 6, 7, 1]")
    errs = _errors(scratch)
    line = _line(path, "runner: [2, 5, 6, 7, 1]")
    assert any(re.search(rf"deck\.yaml:{line}:\d+: suit meat: 1 is listed 2 times", e) for e in errs), errs


def test_bad_colour_and_unknown_glyph(scratch):
    path = _edit(scratch, "deck.yaml", 'colour: "#398332"', "colour: green")
    _edit(scratch, "deck.yaml", "glyph: shoes", "glyph: boots")
    errs = _errors(scratch)
    assert any(re.search(rf"deck\.yaml:{_line(path, 'colour: green')}:\d+: colour: 'green' is not a colour: expected #rrggbb", e) for e in errs), errs
    assert any(re.search(rf"deck\.yaml:{_line(path, 'glyph: boots')}:\d+: glyph: unknown glyph 'boots'", e) for e in errs), errs


def test_end_square_must_be_on_the_last_card(scratch):
    _edit(scratch, "scoring.yaml", "end_square: 13", "end_square: 12")
    (err,) = _errors(scratch)
    assert "scoring.yaml:" in err and "end_square 12 is not on card 4" in err


def test_too_few_player_colours(scratch):
    path = _edit(scratch, "players.yaml", "  - id: liquorice\n    name: Liquorice\n    colour: \"#2e2e2e\"\n", "")
    (err,) = _errors(scratch)
    assert re.search(rf"players\.yaml:{_line(path, 'colours:')}:\d+: has 3 colours: expected at least 4", err)


def test_bad_content_writes_nothing(scratch, tmp_path):
    _edit(scratch, "scoring.yaml", "end_square: 13", "end_square: twelve")
    with pytest.raises(PnpError):
        build(scratch, [GAME], BuildOptions(out=tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_every_scoring_card_row_has_four_squares():
    # the scoring numbers live in YAML; every row of every card has the same four squares
    data = yaml.safe_load((REPO / "content" / GAME / "scoring.yaml").read_text())
    assert {len(c["yellow"]) for c in data["cards"]} == {len(c["blue"]) for c in data["cards"]} == {4}


def _texts(path: Path) -> str:
    return " ".join(t.text or "" for t in ET.parse(path).getroot().iter(f"{SVG}text"))


def test_reference_back_gives_both_endings_and_the_long_game(built, game):
    """rules lines 71-77 and 87, with the numbers the scorer uses (scoring.yaml)."""
    scoring = game.data["scoring"]
    back = _texts(built / "svg" / "reference" / "tomato-back.svg")
    assert f"on or moves past square {scoring.end_square}" in back  # "reaches, or passes" (line 77)
    assert "Deck runs out" in back and "9 tricks at 4" in back and "15 tricks at 3" in back
    assert f"first to {scoring.long_game_wins} wins" in back
    assert "Play" in _texts(built / "svg" / "reference" / "tomato.svg")


def test_reference_numbers_come_from_scoring_yaml(scratch):
    """The hand size and the solo deal (rules lines 23, 93) are printed from the values the
    scorer uses, not written twice."""
    _edit(scratch, "scoring.yaml", "hand_size: 5", "hand_size: 6")
    _edit(scratch, "scoring.yaml", "solo_personal_deck: 12", "solo_personal_deck: 14")
    game = load_game(scratch, GAME)
    reference, scoring = game.data["players"].reference, game.data["scoring"]
    solo = " ".join(text for _, text in reference.side("solo", scoring))
    front = " ".join(text for _, text in reference.side("front", scoring))
    assert "deal yourself 14 cards" in solo and "draw 6 cards from your deck" in solo
    assert "Deal 6 cards each" in front and "draws up to 6" in front


def test_reference_prints_the_ranking_upset_from_scoring_yaml(scratch):
    """Rules line 45: the card that beats a higher one of the led suit is printed from
    scoring.yaml `upset`, the values the engine ranks by."""
    _edit(scratch, "scoring.yaml", "upset: {low: 1, beats: 9}", "upset: {low: 2, beats: 8}")
    game = load_game(scratch, GAME)
    front = " ".join(text for _, text in game.data["players"].reference.side("front", game.data["scoring"]))
    assert "the led suit's 2 beats its 8" in front and "unless it is the 2 that beat the 8" in front


@pytest.mark.parametrize("old,new,expected", [
    ("upset: {low: 1, beats: 9}", "upset: {low: 9, beats: 1}", "expected low below beats"),
    ("upset: {low: 1, beats: 9}", "upset: {low: 1, beats: 10}", "10 is not one of the deck's numbers"),
])
def test_upset_must_name_two_deck_numbers_low_first(scratch, old, new, expected):
    path = _edit(scratch, "scoring.yaml", old, new)
    (err,) = _errors(scratch)
    assert f"scoring.yaml:{_line(path, new)}:" in err and expected in err


def test_reference_placeholder_must_be_known(scratch):
    _edit(scratch, "players.yaml", "square {end_square}", "square {last_square}")
    (err,) = _errors(scratch)
    assert "players.yaml:" in err and "unknown placeholder {last_square}: expected only {end_square}" in err


def test_reference_text_is_our_own():
    """No run of eight words of the rule book is printed on any face (the reference cards,
    the solo card, the scoring sheets), read as printed: with its placeholders filled in."""
    assert copied_from_book(Project(REPO), GAME, "dietrick-taking-rules.txt") == []


def test_our_own_words_are_checked_as_printed(scratch):
    """A placeholder does not hide a copied sentence: "Deal {hand_size} cards to each
    player as a hand" prints line 23's words."""
    _edit(scratch, "players.yaml", "Whoever last stood on a scale leads (or pick at random). Deal {hand_size} cards\n        each;",
          "Deal {hand_size} cards to each player as a hand;")
    assert copied_from_book(scratch, GAME, "dietrick-taking-rules.txt") == ["5 cards to each player as a hand", "deal 5 cards to each player as a"]


def test_all_text_is_printable_size(built):
    for path in (built / "svg").rglob("*.svg"):
        for t in ET.parse(path).getroot().iter(f"{SVG}text"):
            assert float(t.get("font-size")) >= 2.2, (path, t.text)
