"""Art images: `asset()` in a template embeds a PNG/JPEG/SVG from the game's folder or the
project's assets/; every output shows it, the PDF stores it once, SVG art stays vector,
and a missing or unreadable file is an error at the template line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project

EXAMPLE = Path(__file__).parent / "projects" / "art"
runner = CliRunner()


@pytest.fixture
def art(tmp_path: Path) -> Project:
    shutil.copytree(EXAMPLE, tmp_path / "art")
    return Project(tmp_path / "art")


def test_pictures_print_in_every_format_and_once_per_pdf(art: Project):
    build(art, None, BuildOptions(formats=("svg", "pdf", "png"), dpi=100))
    out = art.output_dir / "gallery"
    pdf = (out / "pdf" / "card.pdf").read_bytes()
    # six cards show the PNG and their backs the SVG emblem: one raster image in the file
    assert len(re.findall(rb"/Subtype\s*/Image", pdf)) == 1
    assert b"image/png" not in pdf and b"emblem" not in pdf
    png = Image.open(out / "png" / "card" / "dawn.png").convert("RGB")
    px = 100 / 25.4
    sun = png.getpixel((round((3 + 4 + (44 - 8) / 2) * px), round((3 + 4 + (44 - 8) / 2) * px)))  # bleed + inset + half
    assert sun[0] > 200 and 90 < sun[1] < 160 and sun[2] < 60, sun  # the orange sun
    back = Image.open(out / "png" / "card" / "back.png").convert("RGB")
    centre = back.getpixel((back.width // 2, back.height // 2 - 18))
    assert centre != back.getpixel((8, 8))  # the emblem, not the plain back colour


def _template_line(art: Project, name: str, needle: str) -> int:
    text = (art.templates_dir / "gallery" / name).read_text()
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_missing_picture_is_an_error_at_the_template_line(art: Project):
    (art.content_dir / "gallery" / "art" / "sun.png").unlink()
    result = runner.invoke(app, ["build", "-p", str(art.root)])
    assert result.exit_code == 2
    line = _template_line(art, "card.svg.j2", "asset(")
    assert re.search(rf"card\.svg\.j2:{line}: card/dawn: image not found: 'art/sun\.png'", result.output), result.output
    assert not art.output_dir.exists()


def test_a_file_that_is_no_picture_is_an_error(art: Project):
    (art.root / "assets" / "art" / "emblem.svg").write_text("not a picture")
    result = runner.invoke(app, ["validate", "-p", str(art.root)])
    assert result.exit_code == 2
    line = _template_line(art, "card-back.svg.j2", "asset(")
    assert f"card-back.svg.j2:{line}: card/back: cannot use 'art/emblem.svg' as an image: expected a PNG, JPEG or SVG file" in result.output


def test_changing_a_picture_rebuilds_the_faces_that_show_it(art: Project):
    build(art, None, BuildOptions(formats=("svg",)))
    svg = art.output_dir / "gallery" / "svg" / "card" / "dawn.svg"
    before = svg.read_text()
    Image.new("RGB", (8, 8), "#000000").save(art.content_dir / "gallery" / "art" / "sun.png")
    build(art, None, BuildOptions(formats=("svg",)))
    assert svg.read_text() != before
