"""Bold or italic text in a family the game has no file of that style for (the w10 new
designer's defect 7) is a located error, in a template's SVG and in the measuring helpers:
the PDF and the PNG would draw the regular face, the measure too, and nothing said so."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.load.fonts import DEFAULT_DIR, Face, Fonts, MissingStyle
from pnp.render.faces import _font_styles

runner = CliRunner()
LACKING = "the game's fonts have no bold file of Liberation Sans (own.ttf is Liberation Sans): add one to game.yaml `fonts:`"


def fonts_of(*faces: tuple[str, str, bool, bool]) -> Fonts:
    """Fonts of made-up files: (file name, family, bold, italic)."""
    fonts = Fonts((Path("/f/x.ttf"),))
    fonts.__dict__["faces"] = [Face(Path("/f") / name, family, bold, italic, 1000, {65: 600}, {}) for name, family, bold, italic in faces]
    return fonts


def own_font(demo: Project, *files: str) -> None:
    for name, source in zip(files, ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")):
        (demo.content_dir / "demo" / name).write_bytes((DEFAULT_DIR / source).read_bytes())
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("components:", f"fonts: [{', '.join(files)}]\ncomponents:", 1))


def test_bold_text_of_a_family_without_a_bold_file_is_located(demo: Project):
    own_font(demo, "own.ttf")
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in result.output, lines
    assert lines[0].endswith("templates/demo/card-back.svg.j2:5: card/back: font-weight bold: " + LACKING
                             + ", or draw this text in a family and weight the game has")
    assert "templates/demo/card.svg.j2:5: card/example: weight 'bold': " + LACKING in lines[1]  # fit_size(..., "bold")
    assert "MissingStyle" not in result.output


def test_a_bold_file_of_the_family_is_used(demo: Project):
    own_font(demo, "own.ttf", "own-bold.ttf")
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output


def test_the_helpers_measure_no_weight_the_family_lacks():
    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Sans-Bold.ttf", "Sans", True, False))
    with pytest.raises(MissingStyle, match=r"weight 'bold': the game's fonts have no bold file of Serif "
                                           r"\(Serif.ttf is Serif, Sans-Bold.ttf is Sans bold\)"):
        fonts.text_width("A", 5, "bold")
    with pytest.raises(MissingStyle, match="no italic file of Serif"):
        fonts.face("italic")
    assert fonts.face("normal").path.name == "Serif.ttf"
    assert fonts.face("bold", "Sans").path.name == "Sans-Bold.ttf"
    assert fonts_of(("Display-Bold.ttf", "Display", True, False)).face("normal").bold  # regular text may take the one styled file


@pytest.mark.parametrize("body, problem", [
    ('<text font-style="italic">A</text>', "font-style italic: the game's fonts have no italic file of Serif"),
    ('<g style="font-weight: 700"><text>A</text></g>', "font-weight 700: the game's fonts have no bold file of Serif"),
    ('<text font-weight="bold" font-style="oblique">A</text>', "font-weight bold font-style oblique: the game's fonts have no bold italic file of Serif"),
    ('<g font-family="Sans"><text font-weight="bold" font-family="Serif">A</text></g>', "font-weight bold: the game's fonts have no bold file of Serif"),
    ('<g font-family="Sans"><text font-weight="bold">A</text></g>', None),
    ('<text font-weight="bold"> </text><text font-weight="500">A</text>', None),
])
def test_the_svg_check_follows_inherited_family_weight_and_style(body: str, problem: str | None):
    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Sans-Bold.ttf", "Sans", True, False))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" font-family="Serif">{body}</svg>'
    template = Path("/t/card.svg.j2")
    errors = _font_styles(ET.fromstring(svg), fonts, template, "card/a", lambda: [(template, svg)])
    if problem is None:
        assert errors == []
    else:
        (error,) = errors
        assert error.message.startswith(f"card/a: {problem} (") and error.path == template
