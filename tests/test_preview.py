"""`pnp preview`: output/index.html shows every component of every game, with counts and
PDF links, and every image loads in a real (headless) Chromium."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project
from pnp.tools.inventory import inventory
from pnp.tools.preview import preview
from pnp.tools.scaffold import scaffold

TILES_GAME = """\
title: Tiles & Tokens
components:
  - id: tile
    name: Tiles
    size: square
    items: tiles
    copies: item.copies
    front: card.svg.j2
    back: card-back.svg.j2
    back_per_item: true
  - id: token
    name: Tokens
    size: 25mm x 25mm
    items: '[{"id": "t1", "title": "T", "text": ""}]'  # the card's text would be drawn below the token
    front: card.svg.j2
"""
TILES = """\
- {id: river, title: River, text: Water flows., copies: 4}
- {id: road, title: Road, text: Carts roll., copies: 2}
- {id: spare, title: Spare, text: Not printed., copies: 0}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Project:
    """Two games: the scaffold's demo, and tiles (a back per item, a zero-copy item) with
    tokens (no back); previewed once."""
    project = Project(tmp_path_factory.mktemp("preview") / "proj")
    scaffold(project, "demo")
    scaffold(project, "tiles")
    (project.content_dir / "tiles/game.yaml").write_text(TILES_GAME)
    (project.content_dir / "tiles/cards.yaml").unlink()
    (project.content_dir / "tiles/tiles.yaml").write_text(TILES)
    preview(project, None, BuildOptions())
    return project


def attributes(tag: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}


def sections(page: str, kind: str) -> list[dict[str, str]]:
    return [attributes(tag) for tag in re.findall(rf"<section[^>]*class=\"{kind}\"[^>]*>", page)]


def body(page: str) -> dict[str, str]:
    return attributes(re.search(r"<body[^>]*>", page).group(0))


def test_the_page_has_every_component_with_its_counts(site: Project):
    page = (site.output_dir / "index.html").read_text()
    rows = inventory(site, None)  # game, component, size, items, pieces, back
    components = sections(page, "component")
    assert [(c["data-component"], c["data-items"], c["data-pieces"]) for c in components] == [(r[1], r[3], r[4]) for r in rows]
    games = sections(page, "game")
    assert [g["data-game"] for g in games] == ["demo", "tiles"]
    assert [int(g["data-pieces"]) for g in games] == [3, 4 + 2 + 1]
    # demo: front + shared back; tiles: 3 fronts + 3 backs; tokens: 1
    assert [int(g["data-faces"]) for g in games] == [2, 7]
    assert body(page)["data-faces"] == "9" and body(page)["data-components"] == "3"
    assert "Tiles &amp; Tokens" in page
    assert ">×0<" in page  # a zero-copy item is shown, and flagged


def test_every_link_points_at_a_file(site: Project):
    page = (site.output_dir / "index.html").read_text()
    links = re.findall(r'(?:src|href)="([^"#?]+)"', page)
    assert sum(link.endswith(".pdf") for link in links) == 3 + 2  # each component's, and each game's print PDF
    assert sum(link.endswith(".svg") for link in re.findall(r'src="([^"]+)"', page)) == 9
    for link in links:
        if link != "build-stamp.js":  # written by `pnp watch`; the page polls for it
            assert (site.output_dir / link).exists(), link


def test_images_load_lazily(site: Project):
    page = (site.output_dir / "index.html").read_text()
    images = re.findall(r"<img [^>]*>", page)
    assert len(images) == 9 and all('loading="lazy"' in tag for tag in images)


def test_every_output_format_built_is_linked(site: Project, tmp_path: Path):
    project = Project(tmp_path / "proj")
    shutil.copytree(site.root, project.root)
    page = project.output_dir / "index.html"
    labels = lambda: re.findall(r'class="format" href="([^"]+)"[^>]*>(\w+)<', page.read_text())  # noqa: E731
    assert [label for _, label in labels()] == ["PDF", "SVG"] * 3
    build(project, None, BuildOptions(formats=("png", "tts"), dpi=30))
    preview(project, None, BuildOptions())
    assert [label for _, label in labels()] == ["PDF", "SVG", "PNG", "TTS"] * 3
    assert ("demo/png/card/", "PNG") in labels() and ("tiles/tts/token/", "TTS") in labels()
    saved = re.findall(r'href="([^"]+\.json)"', page.read_text())
    assert saved == ["demo/tts/demo.json", "tiles/tts/tiles.json"]
    printed = re.findall(r'href="([^"]+-print\.pdf)"[^>]*>Print PDF', page.read_text())
    assert printed == ["demo/demo-print.pdf", "tiles/tiles-print.pdf"]
    saved += printed
    for href in [h for h, _ in labels()] + saved:
        assert (project.output_dir / href).exists(), href


def test_cli_preview_rebuilds_nothing_the_second_time(site: Project):
    page = site.output_dir / "index.html"
    stamp = page.stat().st_mtime_ns
    result = CliRunner().invoke(app, ["preview", "-p", str(site.root)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("index.html")
    assert page.stat().st_mtime_ns == stamp


def test_cli_preview_warns_as_build_does(demo: Project):
    """Before: `pnp preview` built the faces and said nothing of a misspelt field behind a
    `default`, where `pnp build` warns on stderr. Now it warns as build does; `-q` leaves it out."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", "{{ item.titel | default('') }}"))
    result = CliRunner().invoke(app, ["preview", "-p", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith("index.html") and "warning" not in result.stdout
    assert result.stderr.endswith("card.svg.j2:6: warning: item.titel is in no record of card (did you mean 'title'?); "
                                  "`| default('')` printed nothing\n"), result.stderr
    quiet = CliRunner().invoke(app, ["preview", "-q", "-p", str(demo.root)])  # the faces from the cache: the same warning, left out
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, "", "")


# ------------------------------------------------------------ in a real browser


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail("chromium is required under CI (.ci/run installs it with apt-get)")
    pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")


def browse(chromium: str, page: Path, profile: Path, *args: str, fragment: str = "", budget: int = 10000) -> str:
    """Run headless Chromium on a file:// URL and return its stdout (`budget`: the virtual
    milliseconds the page gets before its DOM is dumped)."""
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", f"--user-data-dir={profile}", f"--virtual-time-budget={budget}", *args, page.as_uri() + fragment,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_every_image_loads_in_chromium(site: Project, chromium: str, tmp_path: Path):
    dom = browse(chromium, site.output_dir / "index.html", tmp_path / "profile", "--dump-dom")
    state = body(dom)
    assert state["data-images-total"] == "9" == state["data-faces"]
    assert state["data-images-loaded"] == "9"
    assert "all 9 images loaded" in dom


def test_chromium_reports_a_missing_image(site: Project, chromium: str, tmp_path: Path):
    """The check is real: with one SVG gone, the page counts one image short."""
    copy = tmp_path / "output"
    shutil.copytree(site.output_dir, copy)
    (copy / "tiles/svg/tile/road-back.svg").unlink()
    dom = browse(chromium, copy / "index.html", tmp_path / "profile", "--dump-dom")
    assert (body(dom)["data-images-total"], body(dom)["data-images-loaded"]) == ("9", "8")
    assert "1 of 9 images did not load: tiles/svg/tile/road-back.svg" in dom


def test_screenshot_is_not_blank(site: Project, chromium: str, tmp_path: Path):
    shot = tmp_path / "preview.png"
    browse(chromium, site.output_dir / "index.html", tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,1600")
    image = Image.open(shot).convert("RGB")
    assert image.size == (1200, 1600)
    colours = image.getcolors(1 << 20)
    assert len(colours) > 200  # text, faces, shadows: not a blank page
    assert max(count for count, _ in colours) / (1200 * 1600) < 0.8
    assert any(colour == (0x26, 0x46, 0x53) for _, colour in colours)  # the demo's card back is drawn


@pytest.fixture(scope="module")
def long_page(tmp_path_factory) -> Path:
    """A gallery far taller than a window: 120 cards and their shared back."""
    project = Project(tmp_path_factory.mktemp("long") / "proj")
    scaffold(project, "demo")
    (project.content_dir / "demo/cards.yaml").write_text(
        "cards:\n" + "".join(f"  - {{id: c{i:03d}, title: Card {i}, text: Words., copies: 1}}\n" for i in range(120)))
    return preview(project, None, BuildOptions(bleed=0))


LAZY = "--blink-settings=lazyLoadEnabled=true"  # headless Chromium loads lazy images at once unless told


def test_chromium_loads_only_the_images_near_the_view(long_page: Path, chromium: str, tmp_path: Path):
    # On a busy machine Chromium can dump the page before its first decodes are in (or, in
    # the tall window below, before all 121 are), so each page gets more time and more goes
    for attempt in range(3):
        near = body(browse(chromium, long_page, tmp_path / f"p1-{attempt}", "--dump-dom", "--window-size=1200,600", LAZY,
                           budget=10000 * (attempt + 1)))
        if int(near["data-images-loaded"]) > 0:
            break
    assert near["data-images-total"] == "121" and near["data-images-broken"] == "0"
    assert 0 < int(near["data-images-loaded"]) < 121  # lazy: the far end of the page is not loaded yet
    # a window taller than the page: every image is near it
    for attempt in range(3):
        tall = browse(chromium, long_page, tmp_path / f"p2-{attempt}", "--dump-dom", "--window-size=1200,12000", LAZY, budget=30000)
        if body(tall)["data-images-loaded"] == "121":
            break
    assert body(tall)["data-images-loaded"] == "121" and "all 121 images loaded" in tall


def test_search_from_the_address_filters_cards(site: Project, chromium: str, tmp_path: Path):
    dom = browse(chromium, site.output_dir / "index.html", tmp_path / "profile", "--dump-dom", fragment="#q=road")
    assert body(dom)["data-shown"] == "1"
    visible = [f for f in re.findall(r'<figure data-search="([^"]*)"[^>]*>', dom)]
    hidden = re.findall(r'<figure data-search="([^"]*)" class="hidden"', dom)
    assert sorted(set(visible) - set(hidden)) == ["road"]
    tiles = browse(chromium, site.output_dir / "index.html", tmp_path / "profile2", "--dump-dom", fragment="#q=tiles")
    assert body(tiles)["data-shown"] == "3"  # the component's name matches: all three of its items show


def test_the_page_reloads_when_the_build_stamp_changes(site: Project, chromium: str, tmp_path: Path):
    copy = tmp_path / "output"
    shutil.copytree(site.output_dir, copy)
    still = body(browse(chromium, copy / "index.html", tmp_path / "p1", "--dump-dom"))
    assert still["data-reloaded"] == "no"
    # a rebuild while the page is open: the stamp differs from the second poll on (once per tab)
    (copy / "build-stamp.js").write_text('pnpBuildStamp(sessionStorage.getItem("seen") ? "b" : (sessionStorage.setItem("seen", "1"), "a"));\n')
    assert body(browse(chromium, copy / "index.html", tmp_path / "p2", "--dump-dom"))["data-reloaded"] == "yes"
