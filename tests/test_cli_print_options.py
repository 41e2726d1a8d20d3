"""The command line's print options: `--version`, `--paper` in any case, `--bleed` with a
unit, the build summary naming the file to print, and `pnp watch` taking build's options."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from pnp import __version__
from pnp.cli import app
from pnp.load.content import Project
from pnp.tools.watch import is_content

from conftest import REPO

runner = CliRunner()


def pnp(project: Project, *args: str):
    return runner.invoke(app, [*args, "--project", str(project.root)])


def test_version_is_the_packages():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"pnp {__version__}\n"
    declared = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.M)
    assert declared and declared.group(1) == __version__


def test_paper_names_in_any_case_and_bleed_with_a_unit(demo: Project):
    result = pnp(demo, "build", "--paper", "A4", "--bleed", "0.125in", "--format", "svg")
    assert result.exit_code == 0, result.output
    svg = (demo.output_dir / "demo/svg/card/back.svg").read_text()
    assert 'viewBox="-3.175 -3.175' in svg  # 1/8 in of bleed
    assert pnp(demo, "build", "--bleed", "3mm", "--format", "svg").exit_code == 0
    bad = pnp(demo, "build", "--bleed", "3 furlongs")
    assert bad.exit_code == 2 and "--bleed '3 furlongs': expected a length" in bad.output and "Traceback" not in bad.output
    assert pnp(demo, "build", "--paper", "Letter", "--format", "svg").exit_code == 0


def test_the_summary_names_the_file_to_print(demo: Project):
    result = pnp(demo, "build")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("; print " + str(demo.output_dir / "demo/demo-print.pdf"))


def test_watch_takes_builds_print_options():
    text = runner.invoke(app, ["watch", "--help"], terminal_width=200).output
    for option in ("--layout", "--out", "--back-offset", "--pack", "--cut-file", "--paper", "--bleed"):
        assert option in text, option


def test_editors_temporary_files_are_not_content():
    for name in (".card.svg.j2.swp", "card.svg.j2~", "#cards.yaml#", ".#cards.yaml", "4913", "cards.yaml___jb_tmp___",
                 ".goutputstream-ABC123", "cards.yaml.tmp", ".cards.yaml.kate-swp"):
        assert not is_content(f"/p/content/demo/{name}"), name
    for name in ("cards.yaml", "card.svg.j2", "cards.csv", "art.png"):
        assert is_content(f"/p/templates/demo/{name}"), name


def test_a_template_typo_is_one_line_for_every_piece_it_breaks(demo: Project):
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "".join(f"  - {{id: c{i}, title: C{i}, text: x, copies: 1}}\n" for i in range(49)))
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("item.title", "item.titel"))
    result = pnp(demo, "build")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    assert re.fullmatch(r".*card\.svg\.j2:\d+: card/example \(and 49 more pieces\): no field 'titel' \(did you mean 'title'\?\)", lines[0])
    assert "Error" not in lines[0]  # no internal class name


def test_pnp_yaml_paper_in_any_case(demo: Project):
    (demo.root / "pnp.yaml").write_text("paper: A4\nbleed: 0.125in\n")
    from pnp.cli import options_for

    options = options_for(demo.root)
    assert (options.paper, round(options.bleed, 3)) == ("a4", 3.175)


def test_a_bleed_of_metres_is_refused_at_the_component_before_anything_is_drawn(demo: Project):
    """A piece with its bleed is held to the piece limit (PNP_PIECE_LIMITS mm): a bleed of
    100 m would print each piece on about a million sheets (minutes and gigabytes, then
    nothing). From the command line or pnp.yaml, at the piece's size; from the component's own
    `bleed:`, there."""
    bad = pnp(demo, "build", "--bleed", "100000")
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert bad.output.strip().endswith("game.yaml:7:5: 'card': 63 x 88 mm with a bleed of 100000 mm (--bleed, or pnp.yaml's `bleed:`) "
                                       "prints 200088 mm on a side, more than 2,000 mm, the limit for a piece (set PNP_PIECE_LIMITS=mm=N "
                                       "to change it): expected a bleed such as 3mm or 0.125in")
    assert not demo.output_dir.exists()
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("    front: card.svg.j2\n", "    front: card.svg.j2\n    bleed: 1000mm\n"))
    bad = pnp(demo, "build")
    assert bad.exit_code == 2 and "game.yaml:11:5: 'card': 63 x 88 mm with a bleed of 1000 mm (its `bleed:`) prints 2088 mm" in bad.output
    game.write_text(game.read_text().replace("bleed: 1000mm", "bleed: 900mm"))  # 1,888 mm: big, but a piece
    assert pnp(demo, "build", "--format", "svg").exit_code == 0


def test_an_image_of_too_many_pixels_is_refused_at_the_piece_before_it_is_drawn(demo: Project, monkeypatch):
    """The pixels of a PNG (the piece's size with its bleed at --dpi) are held to a limit
    (PNP_RASTER_LIMITS) before resvg draws it: sizes and dpis each within bounds made a PNG
    of billions of pixels and resvg aborted on the memory. So is a face drawn for Tabletop
    Simulator (its image capped, the bleed around it not). Nothing is drawn, nothing written."""
    import resvg_py

    def drawn(**_):
        raise AssertionError("resvg was asked to draw")

    monkeypatch.setattr(resvg_py, "svg_to_bytes", drawn)
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("size: poker", "size: 1990mm x 1990mm"))
    bad = pnp(demo, "build", "--format", "png", "--dpi", "1200")
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert bad.output.strip().endswith(
        "game.yaml:7:5: 'card': a PNG of 1996 x 1996 mm (with its bleed) at 1200 dpi is 94,300 x 94,300 pixels (8,892 million), "
        "more than 250,000,000, the limit for a rendered image (set PNP_RASTER_LIMITS=pixels=N to change it): expected a lower "
        "--dpi (or `dpi:` in pnp.yaml) or a smaller piece")
    game.write_text(game.read_text().replace("size: 1990mm x 1990mm", "size: poker\n    bleed: 900mm"))
    bad = pnp(demo, "build", "--format", "tts", "--dpi", "1200")
    assert bad.exit_code == 2  # the card is drawn at 591 dpi to fit a deck's 2 x 2 image, its bleed around it, to be cut off
    assert "game.yaml:8:5: 'card': a Tabletop Simulator image of 1863 x 1888 mm (with its bleed) at 591 dpi is 43,352" in bad.output
    assert not demo.output_dir.exists()
    monkeypatch.undo()
    game.write_text(game.read_text().replace("\n    bleed: 900mm", ""))
    monkeypatch.setenv("PNP_RASTER_LIMITS", "pixels=1000000")  # 69 x 94 mm with its bleed: a million pixels at about 315 dpi
    assert "at 600 dpi is 1,630 x 2,221 pixels" in pnp(demo, "build", "--format", "png", "--dpi", "600").output
    made = pnp(demo, "build", "--format", "png", "--dpi", "290")
    assert made.exit_code == 0, made.output
