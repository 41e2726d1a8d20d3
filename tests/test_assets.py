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

from conftest import docs_text

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


SUN = "content/gallery/art/sun.png"


def _sun(art: Project, size: int) -> None:
    """The cards' picture (drawn 36 x 36 mm, 1.417 in) with `size` x `size` pixels."""
    Image.new("RGB", (size, size), "#e76f51").save(art.root / SUN)


def _built(art: Project, *args: str) -> tuple[list[str], list[str]]:
    """`pnp build` in a process of its own (so a second one may answer from the last build's
    record, pnp/build/witness.py): its stdout and stderr lines."""
    import os
    import subprocess
    import sys

    from test_witness import CHILD, REPO

    done = subprocess.run([sys.executable, "-c", CHILD, "build", "-p", str(art.root), *args], capture_output=True,
                          text=True, cwd=art.root, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr.splitlines()


def test_a_picture_with_too_few_pixels_for_its_size_is_a_warning(art: Project):
    """Before: a 96 px picture drawn 36 mm wide (68 dpi) printed blurry, and nothing said so.
    One line for the six cards that draw it, at the template line that asks for it."""
    line = _template_line(art, "card.svg.j2", "asset(")
    out, err = _built(art)
    assert err == [f"templates/gallery/card.svg.j2:{line}: warning: art/sun.png (96 x 96 px) is drawn 36 x 36 mm: 68 dpi, "
                   "blurry in print (150 dpi needs 213 x 213 px, 300 dpi 426 x 426 px)"], err
    assert (art.output_dir / "gallery" / "svg" / "card" / "dawn.svg").is_file()  # a warning: the build went on
    assert f"`{err[0]}`" in docs_text("docs/printing.md")  # the line the guide shows


def test_a_picture_with_far_more_pixels_than_print_needs_is_a_warning(art: Project):
    """7000 px across 36 mm (some 4,900 dpi) makes every face's SVG and the PDF huge for nothing."""
    _sun(art, 7000)
    result = runner.invoke(app, ["build", "-p", str(art.root), "--format", "svg"])
    assert result.exit_code == 0, result.output
    assert ("warning: art/sun.png (7000 x 7000 px) is drawn 36 x 36 mm: 4939 dpi, more than print needs (over 1200 dpi), "
            "making every output file larger: 426 x 426 px (300 dpi) print sharp") in result.output, result.output


@pytest.mark.parametrize("pixels", [213, 426, 1700])
def test_a_picture_sharp_enough_and_not_too_large_gives_no_warning(art: Project, pixels: int):
    """150 dpi, 300 and 1200 dpi (at most) print well; the SVG emblem of the backs, vector, is never measured."""
    _sun(art, pixels)
    result = runner.invoke(app, ["build", "-p", str(art.root), "--format", "svg"])
    assert result.exit_code == 0 and "warning" not in result.output, result.output


def test_the_warning_is_told_again_by_a_build_that_renders_no_face(art: Project):
    """Faces from the build cache are not rendered again: their pictures' sizes are kept with
    them, so a rebuild warns as the first build did, as does one answered from the last build's record."""
    from test_witness import answered

    first = _built(art)
    assert "6 pieces" in first[0][0] and len(first[1]) == 1 and "68 dpi" in first[1][0]
    again = _built(art)
    assert answered(again[0]) and again[1] == first[1]
    cached = _built(art, "--format", "svg")  # another command: built, its faces from the cache
    assert "0 faces rendered" in cached[0][0] and cached[1] == first[1]


def test_a_jpeg_a_photo_viewer_turns_is_a_warning(art: Project):
    """resvg and typst draw a picture inside a face as stored; a phone photo's EXIF orientation
    (6: turn it a quarter clockwise) printed it on its side, and nothing said so. One line at
    the asset() call, told again by a build whose faces come from the cache; untagged, nothing."""
    line = _template_line(art, "card.svg.j2", "asset(")
    tags = Image.Exif()
    tags[0x0112] = 6
    Image.new("RGB", (426, 426), "#e76f51").save(art.root / SUN, "JPEG", exif=tags)  # the kind is read from the bytes
    out, err = _built(art)
    assert err == [f"templates/gallery/card.svg.j2:{line}: warning: art/sun.png has EXIF orientation 6: a photo viewer shows it "
                   "turned a quarter clockwise, print draws its pixels as stored; turn the picture itself and save it without the tag"], err
    cached = _built(art, "--format", "svg")
    assert "0 faces rendered" in cached[0][0] and cached[1] == err
    Image.new("RGB", (426, 426), "#e76f51").save(art.root / SUN, "JPEG")
    assert _built(art)[1] == []


def test_svg_art_is_never_measured(art: Project):
    """An SVG picture stays vector in every output: however small it is drawn, no warning."""
    emblem = art.root / "assets" / "art" / "emblem.svg"
    emblem.write_text(emblem.read_text().replace("<svg ", '<svg width="2" height="2" ', 1))
    _sun(art, 426)
    result = runner.invoke(app, ["build", "-p", str(art.root), "--format", "svg"])
    assert result.exit_code == 0 and "warning" not in result.output, result.output


@pytest.mark.parametrize("image, dpi, mm", [
    ('width="20" height="20"', 254, (20, 20)),
    ('width="40" height="20"', 254, (20, 20)),  # meet: the square picture fits the viewport's height
    ('width="40" height="20" preserveAspectRatio="xMidYMid slice"', 127, (40, 40)),  # slice: it covers the width, cut above and below
    ('width="40" height="20" preserveAspectRatio="none"', 127, (40, 20)),  # stretched: the wider axis has fewer pixels an inch
    ('width="10" height="10" transform="scale(2)"', 254, (20, 20)),
    ('width="20" height="20" transform="rotate(30) translate(5 5)"', 254, (20, 20)),  # turned: no larger
    ('width="20mm" height="20mm"', 67, (75.59, 75.59)),  # in a face's user units (mm), "20mm" is 20 CSS mm of those
    ('', 25, (200, 200)),  # no size: its pixels, each a user unit (a mm here)
    ('width="40"', 127, (40, 40)),  # one side: the other as the picture's shape has it
    ('width="50%" height="25%"', 231, (22, 22)),  # of the face's viewBox (63 x 88): 31.5 x 22, the square fitted in
])
def test_the_size_a_picture_is_drawn_at_is_read_as_resvg_draws_it(image: str, dpi: int, mm: tuple[float, float]):
    """Each as resvg drew it, checked by drawing; a length in mm is read as the PDF draws it
    (96 CSS px an inch: resvg's PNG takes its own dpi for that inch)."""
    import xml.etree.ElementTree as ET

    from pnp.render.sharpness import placements

    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
           f'<g transform="translate(3 3)"><image {image} href="data:image/png;base64,AA"/></g>'
           f'<defs><image width="1" height="1" href="data:image/png;base64,AA"/></defs></svg>')  # drawn only where used: not measured
    found = placements(ET.fromstring(svg), {"data:image/png;base64,AA": ("art/x.png", (200, 200), None, None)})
    assert len(found) == 1 and round(found[0].dpi) == dpi and found[0].mm == pytest.approx(mm, abs=0.01)


def test_a_nested_svg_scales_the_pictures_in_it():
    import xml.etree.ElementTree as ET

    from pnp.render.sharpness import placements

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
           '<svg x="0" y="0" width="40" height="40" viewBox="0 0 10 10"><image width="5" height="5" href="data:image/png;base64,AA"/></svg></svg>')
    found = placements(ET.fromstring(svg), {"data:image/png;base64,AA": ("art/x.png", (200, 200), None, None)})
    assert [p.mm for p in found] == [(20.0, 20.0)]


def test_a_face_nested_deep_or_scaled_by_nan_is_measured_without_failing():
    """A walk of the face, not a recursion (Python's stack ends near 1,000 deep), and a transform
    of nan or past a float's range is no size: not measured, never a traceback."""
    import xml.etree.ElementTree as ET

    from pnp.render.sharpness import placements

    deep = "<g>" * 5000 + '<image width="20" height="20" href="data:image/png;base64,AA"/>' + "</g>" * 5000
    for scale in ("nan", "1e308", "inf"):
        deep += f'<image width="20" height="20" transform="scale({scale}) scale(10)" href="data:image/png;base64,AA"/>'
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">{deep}</svg>'
    found = placements(ET.fromstring(svg), {"data:image/png;base64,AA": ("art/x.png", (200, 200), None, None)})
    assert [p.mm for p in found] == [(20.0, 20.0)]
