"""Art images: `asset()` in a template embeds a PNG/JPEG/SVG from the game's folder or the
project's assets/; every output shows it, the PDF stores it once, SVG art stays vector,
and a missing or unreadable file is an error at the template line."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project
from pnp.render.assets import damaged

EXAMPLE = Path(__file__).parent / "projects" / "art"
runner = CliRunner()


@pytest.fixture
def art(tmp_path: Path) -> Project:
    shutil.copytree(EXAMPLE, tmp_path / "art")
    return Project(tmp_path / "art")


def assert_sun_drawn(face: Path) -> None:
    """The card's PNG (at 100 dpi) shows the orange sun in the middle of its picture."""
    png = Image.open(face).convert("RGB")
    px = 100 / 25.4
    sun = png.getpixel((round((3 + 4 + (44 - 8) / 2) * px), round((3 + 4 + (44 - 8) / 2) * px)))  # bleed + inset + half
    assert sun[0] > 200 and 90 < sun[1] < 160 and sun[2] < 60, sun  # the orange sun


def test_pictures_print_in_every_format_and_once_per_pdf(art: Project):
    build(art, None, BuildOptions(formats=("svg", "pdf", "png"), dpi=100))
    out = art.output_dir / "gallery"
    pdf = (out / "pdf" / "card.pdf").read_bytes()
    # six cards show the PNG and their backs the SVG emblem: one raster image in the file
    assert len(re.findall(rb"/Subtype\s*/Image", pdf)) == 1
    assert b"image/png" not in pdf and b"emblem" not in pdf
    assert_sun_drawn(out / "png" / "card" / "dawn.png")
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
    # one line for every piece that draws it
    assert re.search(rf"card\.svg\.j2:{line}: card/dawn \(and 2 more pieces\): image not found: 'art/sun\.png'", result.output), result.output
    assert not art.output_dir.exists()


@pytest.mark.parametrize("written, meant", [("art/sun.PNG", "art/sun.png"), ("art/sn.png", "art/sun.png"), ("art/emblm.svg", "art/emblem.svg")])
def test_a_picture_not_found_names_the_file_meant(art: Project, written: str, meant: str):
    """Before: `image not found: 'art/sun.PNG'` alone; a name differing in case only (which a
    Mac's disk finds, and Linux's does not) or misspelt names the file of that folder meant,
    in the game's folder or assets/."""
    cards = art.content_dir / "gallery" / "cards.yaml"
    cards.write_text(cards.read_text().replace("picture: art/sun.png", f"picture: {written}", 1))
    result = runner.invoke(app, ["validate", "-p", str(art.root)])
    assert f"card/dawn: image not found: {written!r} (looked in content/gallery/ or assets/) (did you mean {meant!r}?)" in result.output, result.output


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


@pytest.mark.parametrize("progressive", [False, True])
def test_a_sound_jpeg_is_accepted_and_drawn(art: Project, progressive: bool):
    """The damaged-picture check (a decode at 1/8 scale) lets a whole JPEG through, baseline
    or progressive, and both engines draw it (resvg the PNG, typst the PDF)."""
    folder = art.content_dir / "gallery" / "art"
    Image.open(folder / "sun.png").convert("RGB").save(folder / "sun.jpg", "JPEG", quality=90, progressive=progressive)
    cards = art.content_dir / "gallery" / "cards.yaml"
    cards.write_text(cards.read_text().replace("art/sun.png", "art/sun.jpg"))
    build(art, None, BuildOptions(formats=("svg", "pdf", "png"), dpi=100))
    out = art.output_dir / "gallery"
    assert "data:image/jpeg;base64," in (out / "svg" / "card" / "dawn.svg").read_text()
    assert len(re.findall(rb"/Subtype\s*/Image", (out / "pdf" / "card.pdf").read_bytes())) == 1
    assert_sun_drawn(out / "png" / "card" / "dawn.png")


def _jpeg(size: tuple[int, int], mode: str = "RGB") -> bytes:
    """A JPEG of noise: its scan data is most of the file, so a cut in half falls in it."""
    out = io.BytesIO()
    Image.effect_noise(size, 40).convert(mode).save(out, "JPEG", quality=90)
    return out.getvalue()


@pytest.mark.parametrize("size,mode", [((3, 2), "RGB"), ((40, 30), "L"), ((40, 30), "CMYK")])
def test_small_grey_and_cmyk_jpegs_are_whole_and_found_cut(size: tuple[int, int], mode: str):
    """Smaller than the 1/8 scale (no zero-sized draft) and of every JPEG colour mode."""
    data = _jpeg(size, mode)
    assert damaged(data, "image/jpeg") is None
    assert (damaged(data[: len(data) // 2], "image/jpeg") or "").startswith("a damaged picture")


def test_a_cut_jpeg_is_found_even_with_pillows_truncated_images_switch_on(monkeypatch: pytest.MonkeyPatch):
    """LOAD_TRUNCATED_IMAGES (a plugin may turn it on) would load a cut JPEG with grey
    rows: the check turns it off for itself, and back on after."""
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    data = _jpeg((64, 48))
    assert "image file is truncated" in (damaged(data[: len(data) // 2], "image/jpeg") or "")
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True
