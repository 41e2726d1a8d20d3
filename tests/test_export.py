"""PNG export (`--format png --dpi N`) and Tabletop Simulator deck sheets (`--format tts`)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project
from pnp.tools.scaffold import scaffold
from pnp.formats.tts import MAX_PX, fitted as card_pixels_at, grid

BACK = (0x26, 0x46, 0x53)  # the scaffold's card back colour


def cards_yaml(count: int, copies: int = 1) -> str:
    lines = ["cards:"]
    for i in range(count):
        lines += [f"  - id: c{i:02d}", f"    title: Card {i}", "    text: Some words.", f"    copies: {copies}"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tts_project(tmp_path_factory) -> Project:
    """75 cards with a shared back (two sheets), tiles with a back per item, and a board
    without a back; built once as TTS sheets at 300 dpi."""
    project = Project(tmp_path_factory.mktemp("tts") / "proj")
    scaffold(project, "demo")
    (project.content_dir / "demo/cards.yaml").write_text(cards_yaml(75))
    game = project.content_dir / "demo/game.yaml"
    game.write_text(game.read_text() + """\
  - id: tile
    name: Tiles
    size: square
    items: '[{"id": "a", "title": "A", "text": "front a"}, {"id": "b", "title": "B", "text": "front b"}]'
    copies: 2
    front: card.svg.j2
    back: card.svg.j2
    back_per_item: true
  - id: board
    name: Board
    size: 200mm x 150mm
    items: '[{"id": "main", "title": "Board", "text": "A board."}]'
    front: card.svg.j2
  - id: token
    name: Tokens
    size: 25mm x 25mm
    items: '[{"id": "t", "title": "T", "text": ""}]'  # the card's text would be drawn below the token
    copies: 3
    front: card.svg.j2
  - id: wide
    name: Landscape cards
    size: 88mm x 63mm
    items: '[{"id": "w1", "title": "W1", "text": "x"}, {"id": "w2", "title": "W2", "text": "y"}]'
    front: card.svg.j2
    back: card-back.svg.j2
  - id: plate
    name: Plate
    size: 100mm x 100mm
    items: '[{"id": "p", "title": "P", "text": "a plate"}]'
    front: card.svg.j2
""")
    build(project, None, BuildOptions(formats=("tts",), dpi=300))
    return project


def png(path: Path) -> Image.Image:
    image = Image.open(path)
    image.load()
    return image.convert("RGB")


def test_png_per_face_at_the_chosen_dpi(demo: Project):
    (report,) = build(demo, None, BuildOptions(formats=("png",), dpi=150, bleed=3))
    root = demo.output_dir / "demo/png/card"
    assert sorted(p.name for p in root.iterdir()) == ["back.png", "example.png"]
    image = Image.open(root / "example.png")
    assert abs(image.width - 69 / 25.4 * 150) <= 1 and abs(image.height - 94 / 25.4 * 150) <= 1
    assert image.info["dpi"] == pytest.approx((150, 150), abs=0.05)  # stored as dots per metre
    back = png(root / "back.png")
    assert back.getpixel((back.width // 2, 20)) == BACK
    assert len(png(root / "example.png").getcolors(1 << 16)) > 20  # text, frame and background


def test_png_bytes_are_deterministic(demo: Project, tmp_path: Path):
    for out in ("a", "b"):
        build(demo, None, BuildOptions(formats=("png",), dpi=100, out=tmp_path / out))
    for name in ("example", "back"):
        rel = f"demo/png/card/{name}.png"
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


def test_png_text_is_drawn_with_the_shipped_font_at_its_measured_width():
    """resvg gets pnp's font files (never the system's), so a PNG's text is as wide as
    templates measure it."""
    import io

    from PIL import Image

    from pnp.load.fonts import DEFAULT
    from pnp.formats.raster import svg_to_png

    text, size = "Wavy Hamburger 0123", 10.0
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="200mm" height="20mm" viewBox="0 0 200 20" '
           f'font-family="{DEFAULT.family}"><text x="5" y="14" font-size="{size}">{text}</text></svg>')
    drawn = Image.open(io.BytesIO(svg_to_png(svg, 254))).convert("RGBA")  # 10 px per mm
    image = Image.alpha_composite(Image.new("RGBA", drawn.size, "white"), drawn).convert("L")
    box = image.point(lambda v: 255 if v < 128 else 0).getbbox()
    assert box is not None, "no text drawn: the shipped font was not found"
    ink_mm = (box[2] - box[0]) / 10
    assert abs(ink_mm - DEFAULT.text_width(text, size)) < 1.5  # side bearings only


def test_cli_png_and_dpi_check(demo: Project):
    runner = CliRunner()
    ok = runner.invoke(app, ["build", "--format", "png", "--dpi", "72", "-p", str(demo.root)])
    assert ok.exit_code == 0, ok.output
    assert (demo.output_dir / "demo/png/card/example.png").is_file()
    bad = runner.invoke(app, ["build", "--format", "png", "--dpi", "5", "-p", str(demo.root)])
    assert bad.exit_code == 2 and "--dpi" in bad.output


def test_tts_deck_sheets_hold_at_most_69_cards_and_4096_px(tts_project: Project):
    root = tts_project.output_dir / "demo/tts"
    decks = {d["component"]: d for d in json.loads((root / "decks.json").read_text())["decks"]}
    card = decks["card"]
    assert [(s["cols"], s["rows"], s["count"], s["hidden_slot"]) for s in card["sheets"]] == [(10, 7, 69, 70), (4, 2, 6, 8)]
    assert sum(s["count"] for s in card["sheets"]) == card["cards"] == 75
    w, h = card["card_px"]
    assert 10 * w <= MAX_PX and 7 * h <= MAX_PX
    assert w / h == pytest.approx(63 / 88, abs=0.01)  # trimmed: no bleed
    for sheet in card["sheets"]:
        image = Image.open(root / sheet["face"])
        assert image.size == (sheet["cols"] * w, sheet["rows"] * h)
        assert max(image.size) <= MAX_PX
    assert Image.open(root / card["sheets"][0]["back"]).size == (w, h)


def test_tts_hidden_card_is_the_back_and_cards_are_in_order(tts_project: Project):
    root = tts_project.output_dir / "demo/tts"
    card = json.loads((root / "decks.json").read_text())["decks"][0]
    w, h = card["card_px"]
    sheet = png(root / card["sheets"][0]["face"])
    back = png(root / card["sheets"][0]["back"])
    hidden = sheet.crop((9 * w, 6 * h, 10 * w, 7 * h))
    assert ImageStat.Stat(ImageChops.difference(hidden, back)).mean == [0, 0, 0]
    assert back.getpixel((w // 2, h // 4)) == BACK
    assert card["sheets"][0]["cards"][:3] == ["c00", "c01", "c02"]
    # slots 0 and 1 are different cards; slot 68 (the last card) is not the back
    first, second = sheet.crop((0, 0, w, h)), sheet.crop((w, 0, 2 * w, h))
    assert ImageStat.Stat(ImageChops.difference(first, second)).mean[0] > 0
    assert ImageStat.Stat(ImageChops.difference(sheet.crop((8 * w, 6 * h, 9 * w, 7 * h)), back)).mean[0] > 20


def test_tts_unique_backs_and_components_without_backs(tts_project: Project):
    root = tts_project.output_dir / "demo/tts"
    summary = json.loads((root / "decks.json").read_text())
    tile = next(d for d in summary["decks"] if d["component"] == "tile")
    (sheet,) = tile["sheets"]
    assert tile["unique_backs"] and sheet["back"].startswith("tile/backs-1-") and sheet["count"] == 4
    assert (sheet["cols"], sheet["rows"], tile["card_px"]) == (3, 2, [600, 600])  # 2 in at 300 dpi, unscaled, in the fewest slots
    assert (root / sheet["back"]).is_file() and not list((root / "tile").glob("back-*"))
    kinds = {p["component"]: (p["kind"], [(i["id"], i["copies"]) for i in p["items"]]) for p in summary["pieces"]}
    assert kinds == {"board": ("board", [("main", 1)]), "token": ("token", [("t", 3)]), "plate": ("tile", [("p", 1)])}


def test_tts_grid_shows_the_cards_largest_in_the_fewest_slots():
    poker = (63 / 25.4 * 300, 88 / 25.4 * 300)  # 744 x 1039 px at 300 dpi: 5 across and 3 down fit 4096 px
    assert grid(1, poker) == (2, 2)  # TTS takes no fewer
    assert grid(6, poker) == (4, 2) and grid(9, poker) == (5, 2)  # full size (10 x 2 would shrink them to 409 px)
    assert card_pixels_at(poker, 5, 2) == (744, 1039)
    assert grid(20, poker) == (6, 4)  # 0.92 of full size, where 10 x 3 gives 0.55
    assert grid(69, poker) == (10, 7)  # the only grid of 70 slots
    assert grid(6, (409, 571)) == (4, 2)  # a card size already set: the fewest slots, then the widest


def test_tts_rebuild_is_cached(tts_project: Project):
    (report,) = build(tts_project, None, BuildOptions(formats=("tts",), dpi=300))
    assert (report.rendered, report.written) == (0, 0)


def test_png_faces_and_pdf_agree(demo: Project):
    """The PNG is the SVG rasterised: the back is the same colour everywhere it should be."""
    build(demo, None, BuildOptions(formats=("png",), dpi=50, bleed=0))
    back = png(demo.output_dir / "demo/png/card/back.png")
    colours = dict((c, n) for n, c in back.getcolors(1 << 16))
    assert colours[BACK] / (back.width * back.height) > 0.7
    assert io.BytesIO((demo.output_dir / "demo/png/card/back.png").read_bytes()).read(8) == b"\x89PNG\r\n\x1a\n"
