"""`pnp preview` builds SVG and PDF; PNG and TTS folders an earlier build made stay as they
are. The page marks their links when their files were not made from the faces it shows
(the w10 new designer's defect 3), at whatever dpi they were made at."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project
from pnp.tools.preview import preview
from pnp.tools.scaffold import scaffold


def links(project: Project) -> dict[str, str]:
    """href -> the label of every link of the page."""
    page = (project.output_dir / "index.html").read_text()
    return dict(re.findall(r'<a[^>]*href="([^"]+)"[^>]*>([^<]+)</a>', page))


def stale(project: Project) -> list[str]:
    page = (project.output_dir / "index.html").read_text()
    return re.findall(r'<a class="(?:format )?stale" href="([^"]+)"', page)


def test_png_and_tts_links_are_marked_when_older_than_the_faces(tmp_path: Path):
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    build(project, None, BuildOptions(formats=("svg", "png", "tts"), dpi=30))
    preview(project, None, BuildOptions())  # the preview's dpi (300) is not the one they were made at
    assert stale(project) == []
    assert links(project)["demo/png/card/"] == "PNG"

    cards = project.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("title: Example Card", "title: Other Card"))
    preview(project, None, BuildOptions())
    assert sorted(stale(project)) == ["demo/png/card/", "demo/tts/card/", "demo/tts/demo.json"]
    assert links(project)["demo/png/card/"] == "PNG (out of date)"
    assert links(project)["demo/tts/demo.json"] == "Tabletop Simulator object (out of date)"
    page = (project.output_dir / "index.html").read_text()
    # the w10 review's finding 7: the files were judged at the dpi they were made at, which the advice keeps
    assert "run `pnp build --format png --dpi 30` to make them again" in page
    assert "run `pnp build --format tts --dpi 30` to make them again" in page
    (project.root / "pnp.yaml").write_text("dpi: 30\n")  # what `pnp build` makes them at anyway
    preview(project, None, BuildOptions())
    assert "run `pnp build --format png` to make them again" in (project.output_dir / "index.html").read_text()
    (project.root / "pnp.yaml").unlink()

    build(project, None, BuildOptions(formats=("png",), dpi=40))
    preview(project, None, BuildOptions())
    assert sorted(stale(project)) == ["demo/tts/card/", "demo/tts/demo.json"]  # the PNGs are the faces' again


def test_a_png_folder_of_unknown_making_is_marked(tmp_path: Path):
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    (project.output_dir / "demo/png/card").mkdir(parents=True)
    (project.output_dir / "demo/png/card/example.png").write_bytes(b"not made by this build")
    preview(project, None, BuildOptions())
    assert stale(project) == ["demo/png/card/"]


def test_a_forced_build_keeps_what_it_knows_of_the_formats_it_does_not_build(tmp_path: Path):
    """`--force` makes the SVGs again from scratch; the PNGs it does not touch are still the
    faces' own, at the dpi they were made at (the ninth pass's note: they showed as out of date)."""
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    build(project, None, BuildOptions(formats=("svg", "png"), dpi=30))
    [report] = build(project, None, BuildOptions(formats=("svg",), force=True))
    assert report.rendered  # forced: no face comes from the cache
    preview(project, None, BuildOptions())
    assert stale(project) == [] and links(project)["demo/png/card/"] == "PNG"

    cards = project.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("title: Example Card", "title: Other Card"))
    build(project, None, BuildOptions(formats=("svg",), force=True))
    preview(project, None, BuildOptions())
    assert stale(project) == ["demo/png/card/"]
    assert "run `pnp build --format png --dpi 30` to make them again" in (project.output_dir / "index.html").read_text()
