"""The PDF engine: every PDF of the four games renders cleanly in pdfium and poppler, and
every face printed in a PDF looks like its PNG (one SVG engine, usvg, draws both)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from pnp.load.content import Project, load_game
from pnp.formats.impose import Layout, Place, layout, paper
from pnp.formats.pdf import write_pdf
from pnp.formats.raster import svg_to_image
from pnp.render.faces import render_game

REPO = Path(__file__).resolve().parent.parent
GAMES = ["cave", "dietrick-taking", "human-harvest", "tasty-humans"]
DPI = 60


@pytest.fixture(scope="module")
def pdfs() -> dict[str, tuple[Layout, bytes]]:
    """Every component of the four games imposed on Letter with 3 mm bleed: {game/component: (layout, pdf)}."""
    project = Project(REPO)
    out = {}
    for name in GAMES:
        game = load_game(project, name)
        for comp in render_game(game, {}, 3.0):
            plan = layout(comp, paper("letter"), f"{game.manifest.title}: {comp.spec.name}")
            out[f"{name}/{comp.spec.id}"] = (plan, write_pdf(plan, game.fonts))
    return out


def test_every_font_a_pdf_uses_is_embedded(pdfs):
    """Read with a PDF library: each font any face or label uses carries its program."""
    import pikepdf

    fonts = 0
    for key, (plan, data) in pdfs.items():
        with pikepdf.Pdf.open(io.BytesIO(data)) as pdf:
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                    fonts += 1
                    assert "/FontFile2" in obj or "/FontFile3" in obj, key
    assert fonts > len(pdfs)


def test_every_pdf_renders_in_pdfium(pdfs):
    for key, (plan, data) in pdfs.items():
        doc = pypdfium2.PdfDocument(data)
        assert len(doc) == len(plan.pages), key
        for page in doc:
            assert page.render(scale=10 / 72).to_pil().getbbox() is not None, key


def test_every_pdf_renders_in_poppler_without_a_word_on_stderr(pdfs, tmp_path):
    if shutil.which("pdftoppm") is None:
        if os.environ.get("CI"):
            pytest.fail("pdftoppm (poppler-utils) is missing in CI")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    for key, (_, data) in pdfs.items():
        path = tmp_path / (key.replace("/", "_") + ".pdf")
        path.write_bytes(data)
        run = subprocess.run(["pdftoppm", "-r", "10", "-png", str(path), str(tmp_path / "page")], capture_output=True, text=True)
        assert run.returncode == 0 and run.stderr == "", f"{key}: {run.stderr}"


def test_fonts_are_embedded_subsets_and_nothing_names_the_build_machine(pdfs):
    for key, (_, data) in pdfs.items():
        if b"/Font" in data:
            assert b"/FontFile2" in data, key
        assert b"/tmp" not in data and str(REPO).encode() not in data, key


def _face_region(place: Place, dpi: float) -> tuple[Image.Image, tuple[float, float, float, float]]:
    """The face's PNG as laid on the page (turned), and the page box (mm) where it shows."""
    drawn = svg_to_image(place.face.svg, dpi, place.face.fonts).convert("RGBA")
    image = Image.new("RGB", drawn.size, "white")  # the paper, where a round token leaves its corners transparent
    image.paste(drawn, mask=drawn.getchannel("A"))
    if place.turn:
        image = image.rotate(place.turn, expand=True)  # PIL turns counter-clockwise for positive angles
    box = place.clip or (place.x, place.y, place.w, place.h)
    return image, box


def test_each_face_in_the_pdf_looks_like_its_png(pdfs):
    """Every distinct face, at its first place in its component's PDF, against resvg."""
    px = DPI / 25.4
    worst: list[tuple[float, str]] = []
    checked = 0
    for key, (plan, data) in pdfs.items():
        doc = pypdfium2.PdfDocument(data)
        seen: set[str] = set()
        for number, page in enumerate(plan.pages):
            places = [p for p in page.places if p.face.name not in seen]
            if not places:
                continue
            raster = doc[number].render(scale=DPI / 72).to_pil().convert("RGB")
            for place in places:
                seen.add(place.face.name)
                image, (bx, by, bw, bh) = _face_region(place, DPI)
                ox, oy = bx - place.x, by - place.y  # where the visible box starts inside the face
                size = (max(1, round(bw * px) - 2), max(1, round(bh * px) - 2))  # one pixel in: edge anti-aliasing
                sx, sy = round(bx * px) + 1, round(by * px) + 1
                fx, fy = round(ox * px) + 1, round(oy * px) + 1
                printed = raster.crop((sx, sy, sx + size[0], sy + size[1]))
                drawn = image.resize((round(place.w * px), round(place.h * px))).crop((fx, fy, fx + size[0], fy + size[1]))
                # blurred: sub-pixel placement and anti-aliasing differ, the art must not
                blur = ImageFilter.GaussianBlur(1.5)
                diff = sum(ImageStat.Stat(ImageChops.difference(printed.filter(blur), drawn.filter(blur))).mean) / 3
                worst.append((diff, f"{key}/{place.face.name}"))
                checked += 1
    worst.sort(reverse=True)
    assert checked > 300
    # measured: median about 2; at most about 9.5 on the 28 mm leader tiles, whose hairlines
    # pdfium draws a whole pixel wide; a missing gradient, picture or text block is far more
    assert worst[0][0] < 12, worst[:5]


def test_pdf_bytes_do_not_depend_on_the_build_folder(tmp_path):
    """Same inputs in two folders (and two runs) give byte-identical PDFs."""
    from pnp.build.driver import BuildOptions, build

    made = []
    for name in ("one", "elsewhere/two"):
        root = tmp_path / name
        shutil.copytree(REPO / "tests" / "projects" / "art", root)
        build(Project(root), None, BuildOptions(formats=("pdf",)))
        made.append((root / "output" / "gallery" / "pdf" / "card.pdf").read_bytes())
    assert made[0] == made[1]
    assert b"/CreationDate" not in made[0] and b"/ModDate" not in made[0]
