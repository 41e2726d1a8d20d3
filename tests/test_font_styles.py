"""Bold or italic text in a family the game has no file of that style for (the w10 new
designer's defect 7) is a located error, in a template's SVG and in the measuring helpers:
the PDF and the PNG would draw the regular face, the measure too, and nothing said so."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.load.fonts import DEFAULT_DIR, Face, FontChoice, Fonts, MissingStyle
from pnp.render.font_styles import font_styles as _font_styles

runner = CliRunner()
LACKING = "the game's fonts have no bold file of Liberation Sans (own.ttf is Liberation Sans): add one to game.yaml `fonts:`"


TEMPLATE = Path("/t/card.svg.j2")


def checked(svg: str, fonts: Fonts) -> list:
    """The font-style problems of `svg`, as written by TEMPLATE."""
    return _font_styles(ET.fromstring(svg), fonts, TEMPLATE, "card/a", lambda: [(TEMPLATE, svg)])


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
    # the back fits the game's title in bold (fit_lines), which says so before the SVG check
    assert lines[0].endswith("templates/demo/card-back.svg.j2:6: card/back: weight 'bold': " + LACKING
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
    # the w10 review's finding 4: the other ways CSS asks for bold
    ('<text font-weight="Bold">A</text>', "font-weight Bold: the game's fonts have no bold file of Serif"),
    ('<text font-style="ITALIC">A</text>', "font-style ITALIC: the game's fonts have no italic file of Serif"),
    ('<g font-weight="bold"><text font-weight="inherit">A</text></g>', "font-weight bold: the game's fonts have no bold file of Serif"),
    ('<text style="font: bold 3px Serif">A</text>', "font bold 3px Serif: the game's fonts have no bold file of Serif"),
    ('<text style="font:italic 600 3px/1.2 \'Serif\', serif">A</text>', "font italic 600 3px/1.2 'Serif', serif: the game's fonts have no bold italic file of Serif"),
    ('<g font-weight="bold" font-style="italic"><text style="font: 3px Serif">A</text></g>', None),  # the shorthand resets both
    ('<text style="font: bold 3px Sans">A</text>', None),
    ('<text font-weight="600">A</text>', "font-weight 600: the game's fonts have no bold file of Serif"),
    ('<text font-weight="550">A</text>', "font-weight 550: the game's fonts have no bold file of Serif"),  # above 500 the heavier file is matched first
    ('<text font-weight="bolder">A</text>', "font-weight bolder: the game's fonts have no bold file of Serif"),
    ('<g font-weight="300"><text font-weight="bolder">A</text></g>', None),  # 300 made bolder is 400
    ('<g font-weight="bold"><text font-weight="lighter">A</text></g>', None),
    ('<text font-weight="bold" style="font-weight: Normal !important">A</text>', None),  # the style wins over the attribute
    ('<text font-weight="heavy">A</text>', None),  # not a weight: ignored, as the renderers do
    ('<text font-family="Sans" font-weight="900">A</text>', None),
    ('<text style="font: caption">A</text>', None),  # a system font keyword: the system's font, nothing of the game's
    ('<text style="font: italic 3px / 1.2 Serif">A</text>', "font italic 3px / 1.2 Serif: the game's fonts have no italic file of Serif"),
    ('<text style="font: bold 3px /1.2 Sans">A</text>', None),  # the family after a spaced line height
])
def test_the_svg_check_follows_inherited_family_weight_and_style(body: str, problem: str | None):
    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Sans-Bold.ttf", "Sans", True, False))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" font-family="Serif">{body}</svg>'
    errors = checked(svg, fonts)
    if problem is None:
        assert errors == []
    else:
        (error,) = errors
        assert error.message.startswith(f"card/a: {problem} (") and error.path == TEMPLATE


# --- the w10 review's finding 2: a bold-only display family beside a regular body family ---

def renamed(source: Path, target: Path, family: str) -> None:
    """A copy of a shipped font file whose family is `family`."""
    from fontTools.ttLib import TTFont

    with TTFont(str(source)) as font:
        for record in font["name"].names:
            if record.nameID in (1, 4, 6, 16):
                record.string = family.replace(" ", "") if record.nameID == 6 else family
        font.save(str(target))


def two_families(demo: Project, measure: str) -> None:
    """Body text in Liberation Sans (a regular file only), the title in a bold-only
    "Display" family, measured with `measure` (the helper's arguments after the size)."""
    folder = demo.content_dir / "demo"
    (folder / "body.ttf").write_bytes((DEFAULT_DIR / "LiberationSans-Regular.ttf").read_bytes())
    renamed(DEFAULT_DIR / "LiberationSans-Bold.ttf", folder / "display-bold.ttf", "Display")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [body.ttf, display-bold.ttf]\ncomponents:", 1))
    for name in ("card.svg.j2", "card-back.svg.j2"):
        template = demo.templates_dir / "demo" / name
        template.write_text(template.read_text().replace('font-weight="bold"', 'font-family="Display" font-weight="bold"')
                            .replace('6, "bold")', f"6, {measure})").replace('8, "bold")', f"8, {measure})"))  # card title, back title


def test_a_helper_measures_bold_text_in_the_family_it_is_drawn_in(demo: Project):
    two_families(demo, '"bold", family="Display"')
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output


def test_a_helper_measuring_the_default_family_bold_is_told_of_family(demo: Project):
    two_families(demo, '"bold"')
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2
    back, line = result.output.strip().splitlines()  # the back's title is measured so too
    assert "card-back.svg.j2:6: card/back: weight 'bold'" in back
    assert line.endswith("templates/demo/card.svg.j2:5: card/example: weight 'bold': the game's fonts have no bold file of "
                         "Liberation Sans (body.ttf is Liberation Sans, display-bold.ttf is Display bold): add one to game.yaml "
                         '`fonts:`, or measure the text in the family it is drawn in (family="Display" has that file)'), line


def test_each_helper_measures_the_family_given():
    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Sans-Bold.ttf", "Sans", True, False))
    fonts.faces[1].advances[65] = 900  # the bold Sans "A" is wider than the Serif one (600)
    from pnp.render.textfit import TextFit

    fit = TextFit(fonts, floor=0.1)
    assert fit.text_width("A", 10, "bold", family="Sans") == 9.0
    assert fit.text_width("A", 10, family="Sans") == 9.0  # a family with only a bold file draws regular text too
    assert fit.text_width("A", 10) == 6.0
    assert fit.fit_size("A", 6, 10, "bold", family="Sans") < 6.67 < fit.fit_size("A", 6, 10, family="Serif")
    # a space is the files' missing-glyph advance, 500 units: 17 mm in Serif, 23 mm in Sans
    assert fit.wrap("A A", 18, 10, "bold", family="Sans") == ["A", "A"]
    assert fit.wrap("A A", 18, 10) == ["A A"]
    assert fit.fit_lines("A A A", 12, 10, 10, "bold", family="Sans")["size"] < fit.fit_lines("A A A", 12, 10, 10)["size"]
    with pytest.raises(MissingStyle, match='family="Sans" has that file'):
        fit.fit_size("A", 6, 10, "bold")
    with pytest.raises(FontChoice, match="family 'Mono' is none of the game's fonts: expected one of Sans, Serif"):
        fit.wrap("A", 6, 10, family="Mono")


def test_the_family_suggested_for_a_missing_bold_file_has_the_texts_characters():
    """No bold file of the family measured: the advice named the first family with a bold
    file, though that face lacked some of the text's characters (measured with guesses)."""
    from pnp.render.textfit import TextFit

    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Arial-Bold.ttf", "Arial", True, False), ("Sans-Bold.ttf", "Sans", True, False))
    fonts.faces[0].advances[0xE9] = fonts.faces[2].advances[0xE9] = 600  # é: in Serif and bold Sans, not in bold Arial
    fit = TextFit(fonts, floor=0.1)
    with pytest.raises(MissingStyle, match='family="Sans" has that file'):
        fit.fit_size("Aé", 6, 10, "bold")
    with pytest.raises(MissingStyle, match='family="Arial" has that file'):  # a text both have: the first
        fit.fit_size("A", 6, 10, "bold")
    fonts.faces[0].advances[0x65E5] = 600  # 日: in Serif alone
    with pytest.raises(MissingStyle) as raised:
        fit.wrap("A 日", 60, 10, "bold")
    assert str(raised.value).endswith(", or draw this text in a family and weight the game has (no other family's file of that "
                                      "weight has all of its characters)") and 'family="' not in str(raised.value), raised.value


def variable_font(target: Path, reaching: int = 900, default: int = 400, tag: str = "wght", least: int = 100) -> Path:
    """Liberation Sans made a variable font with a weight axis 100-`reaching` (its default
    `default`; another axis with `tag`, from `least`): its "I" and that glyph's advance grow
    by 400 units (of 2048 an em) from the default to the axis's end."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._f_v_a_r import Axis
    from fontTools.ttLib.tables.TupleVariation import TupleVariation

    with TTFont(str(DEFAULT_DIR / "LiberationSans-Regular.ttf")) as font:
        for record in font["name"].names:
            if record.nameID in (1, 4, 6, 16):
                record.string = "VarSans"
        axis = Axis()
        axis.axisTag, axis.minValue, axis.defaultValue, axis.maxValue, axis.axisNameID = tag, least, default, reaching, 2
        font["fvar"] = newTable("fvar")
        font["fvar"].axes, font["fvar"].instances = [axis], []
        gvar = font["gvar"] = newTable("gvar")
        gvar.version, gvar.reserved, gvar.variations = 1, 0, {name: [] for name in font.getGlyphOrder()}
        coordinates, _, _ = font["glyf"]["I"].getCoordinates(font["glyf"])
        middle = (min(x for x, _ in coordinates) + max(x for x, _ in coordinates)) / 2
        deltas = [(400 if x > middle else 0, 0) for x, _ in coordinates] + [(0, 0), (400, 0), (0, 0), (0, 0)]  # + advance
        gvar.variations["I"] = [TupleVariation({tag: (0, 1.0, 1.0)}, deltas)]
        font.save(str(target))
    return target


def inked_width(png: bytes) -> int:
    from PIL import Image
    import io

    image = Image.open(io.BytesIO(png)).convert("L")
    columns = [x for x in range(image.width) if any(image.getpixel((x, y)) < 128 for y in range(image.height))]
    return max(columns) - min(columns) + 1


def test_typst_and_resvg_draw_a_variable_fonts_bold_instance(tmp_path: Path):
    """What accepting a variable font for bold text rests on: both renderers draw bold text
    at the weight axis's 700, the instance the helpers measure (`bold_instance`)."""
    import pypdfium2
    import resvg_py
    from pnp.formats.engine_jobs import make_pdf

    font = variable_font(tmp_path / "VarSans[wght].ttf")
    widths = {}
    for weight in ("normal", "bold"):
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100"><rect width="200" '
               f'height="100" fill="white"/><text x="10" y="80" font-family="VarSans" font-size="100" font-weight="{weight}">I</text></svg>')
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=[str(font)]))
        pdf, problem = make_pdf('#set page(width: 200pt, height: 100pt, margin: 0pt)\n'
                                '#image(bytes(sys.inputs.face), format: "svg", width: 200pt)\n', {"face": svg}, (str(font),))
        assert not problem, problem
        page = io.BytesIO()
        pypdfium2.PdfDocument(pdf)[0].render(scale=1).to_pil().save(page, "PNG")
        widths[weight] = (inked_width(png), inked_width(page.getvalue()))
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    with TTFont(str(font)) as variable:
        glyphs = {"normal": variable["glyf"]["I"], "bold": instancer.instantiateVariableFont(variable, {"wght": 700})["glyf"]["I"]}
        em = variable["head"].unitsPerEm  # drawn 100 px an em
        inked = {w: (g.xMax - g.xMin) * 100 / em for w, g in glyphs.items()}
    assert inked["bold"] > inked["normal"] + 8
    for weight in ("normal", "bold"):
        assert all(abs(drawn - inked[weight]) <= 1.5 for drawn in widths[weight]), (weight, widths, inked)


def test_a_variable_font_draws_bold_and_measures_its_bold_instance(tmp_path: Path):
    fonts = Fonts((variable_font(tmp_path / "VarSans[wght].ttf"),))
    assert fonts.face("bold").bold and fonts.face("bold").advances[ord("I")] == fonts.face().advances[ord("I")] + 240
    svg = '<svg xmlns="http://www.w3.org/2000/svg" font-family="VarSans"><text font-weight="bold">I</text></svg>'
    assert checked(svg, fonts) == []


def drawn_widths(font: Path, weight: str, family: str = "VarSans", text: str = "I", *more: Path) -> tuple[int, int]:
    """The inked width of `text` 100 px high, drawn by resvg (the PNG) and by typst (the PDF)
    in the files `font` and `more`; `weight` is the <text>'s font-weight, or more attributes."""
    import pypdfium2
    import resvg_py
    from pnp.formats.engine_jobs import make_pdf

    attributes = weight if "=" in weight else f'font-weight="{weight}"'
    files = [str(font), *map(str, more)]
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100" viewBox="0 0 400 100"><rect width="400" '
           f'height="100" fill="white"/><text x="10" y="80" font-family="{family}" font-size="100" {attributes}>{text}</text></svg>')
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=files))
    pdf, problem = make_pdf('#set page(width: 400pt, height: 100pt, margin: 0pt)\n'
                            '#image(bytes(sys.inputs.face), format: "svg", width: 400pt)\n', {"face": svg}, tuple(files))
    assert not problem, problem
    page = io.BytesIO()
    pypdfium2.PdfDocument(pdf)[0].render(scale=1).to_pil().save(page, "PNG")
    return inked_width(png), inked_width(page.getvalue())


def test_typst_and_resvg_draw_a_variable_font_at_the_weight_asked(tmp_path: Path):
    """What refusing the other weights rests on: font-weight 600 is drawn at 600 on the axis,
    not at the 700 pnp measures bold text at; and for weight 400 typst draws the file's
    default, resvg 400 on the axis."""
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    def inked(font: Path, weight: int) -> float:
        with TTFont(str(font)) as variable:
            glyph = instancer.instantiateVariableFont(variable, {"wght": weight})["glyf"]["I"]
            return (glyph.xMax - glyph.xMin) * 100 / variable["head"].unitsPerEm

    font = variable_font(tmp_path / "VarSans[wght].ttf")
    assert inked(font, 700) > inked(font, 600) + 3
    assert all(abs(drawn - inked(font, 600)) <= 1.5 for drawn in drawn_widths(font, "600"))
    light = variable_font(tmp_path / "Light[wght].ttf", default=300)
    png, pdf = drawn_widths(light, "400")
    assert abs(png - inked(light, 400)) <= 1.5 and abs(pdf - inked(light, 300)) <= 1.5 and png > pdf + 1


@pytest.mark.parametrize("default, body, problem", [
    (400, '<text font-weight="600">I</text>', "font-weight 600: VarSans[wght].ttf is a variable font, drawn at weight 600 of its "
                                              "weight axis, but pnp measures it at 700: write font-weight 400 or 700 for this text"),
    (400, '<text style="font-weight: 300">I</text>', "font-weight 300: VarSans[wght].ttf is a variable font, drawn at weight 300 of its "
                                                     "weight axis, but pnp measures it at 400: write font-weight 400 or 700"),
    (400, '<g font-weight="bold"><text font-weight="bolder">I</text></g>', "drawn at weight 900"),
    (300, '<text>I</text>', "weight 400 (no font-weight set): VarSans[wght].ttf is a variable font, drawn at weight 400 of its weight axis "
                            "(typst draws the file's default, 300, resvg 400), but pnp measures it at 300: write font-weight 300 or 700"),
    (400, '<text>I</text><text font-weight="bold">I</text><text font-weight="400">I</text><text font-weight="700">I</text>', None),
    (300, '<text font-weight="300">I</text><text font-weight="bold">I</text>', None),
])
def test_a_variable_font_is_drawn_only_at_the_weights_it_is_measured_at(tmp_path: Path, default: int, body: str, problem: str | None):
    fonts = Fonts((variable_font(tmp_path / "VarSans[wght].ttf", default=default),))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" font-family="VarSans">\n<rect/>\n{body}</svg>'
    errors = checked(svg, fonts)
    if problem is None:
        assert errors == []
    else:
        (error,) = errors
        assert error.message.startswith("card/a: ") and problem in error.message, error.message
        assert (error.path, error.line) == (TEMPLATE, None if "no font-weight set" in problem else 3), error


def test_a_variable_font_drawn_between_its_weights_is_a_located_error(demo: Project):
    folder = demo.content_dir / "demo"
    variable_font(folder / "VarSans[wght].ttf")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: ['VarSans[wght].ttf']\ncomponents:", 1))
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace('font-weight="bold"', 'font-weight="600"', 1))
    line = next(n for n, text in enumerate(template.read_text().splitlines(), 1) if 'font-weight="600"' in text)
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (found,) = result.output.strip().splitlines()
    assert f"templates/demo/card.svg.j2:{line}: card/example: font-weight 600: VarSans[wght].ttf is a variable font, drawn at " \
           "weight 600 of its weight axis, but pnp measures it at 700" in found, found


def condensed_font(target: Path) -> Path:
    """Liberation Sans's condensed file (OS/2 width class 3), told apart by an "I" 400 units wider."""
    from fontTools.ttLib import TTFont

    with TTFont(str(DEFAULT_DIR / "LiberationSans-Regular.ttf")) as font:
        font["OS/2"].usWidthClass = 3
        glyph = font["glyf"]["I"]
        middle = (glyph.xMin + glyph.xMax) / 2
        glyph.coordinates = type(glyph.coordinates)([(x + 400 if x > middle else x, y) for x, y in glyph.coordinates])
        font.save(str(target))
    return target


def test_typst_and_resvg_draw_font_stretch_and_font_variation_settings(tmp_path: Path):
    """What refusing them rests on: both renderers draw a variable font's width axis for
    font-stretch, any axis for font-variation-settings (its weight axis too), and a family's
    condensed file for font-stretch, where pnp measures the default instance, the normal file."""
    wide = variable_font(tmp_path / "VarSans[wdth].ttf", reaching=200, default=100, tag="wdth", least=50)
    plain = drawn_widths(wide, "400")
    assert plain[0] == plain[1]
    for setting in ('font-stretch="ultra-expanded"', "style=\"font-variation-settings: 'wdth' 200\"",
                    "style=\"font: ultra-expanded 100px VarSans\""):
        png, pdf = drawn_widths(wide, setting)
        assert png == pdf > plain[0] + 15, (setting, png, pdf, plain)
    heavy = variable_font(tmp_path / "VarSans[wght].ttf")
    png, pdf = drawn_widths(heavy, "font-variation-settings=\"'wght' 900\"")
    assert png == pdf > drawn_widths(heavy, "400")[0] + 15
    regular = DEFAULT_DIR / "LiberationSans-Regular.ttf"
    condensed = condensed_font(tmp_path / "Condensed.ttf")
    normal = drawn_widths(regular, "400", "Liberation Sans", "I", condensed)
    png, pdf = drawn_widths(regular, 'font-stretch="condensed"', "Liberation Sans", "I", condensed)
    assert png == pdf > normal[0] + 15 and normal[0] == normal[1], (png, pdf, normal)


@pytest.mark.parametrize("body, problem, line", [
    ('<text font-stretch="condensed">I</text>', "font-stretch condensed: pnp measures text at its font's normal width", 3),
    ('<text style="fill: red; font-variation-settings: \'wdth\' 75">I</text>', "font-variation-settings 'wdth' 75: pnp", 3),
    ('<g>\n<text style="font: bold semi-expanded 3px VarSans">I</text></g>', "font bold semi-expanded 3px VarSans: pnp", 4),
    ("<g font-variation-settings='\"wght\" 700'><text>I</text></g>", "font-variation-settings \"wght\" 700: pnp", 3),
    ('<text font-stretch="normal" style="font-variation-settings: normal; font: 3px VarSans">I</text>', None, None),
])
def test_font_stretch_and_font_variation_settings_are_refused_at_their_line(tmp_path: Path, body: str, problem: str | None,
                                                                            line: int | None):
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" font-family="VarSans">\n<rect/>\n{body}</svg>'
    for fonts in (Fonts((variable_font(tmp_path / "VarSans[wght].ttf"),)), Fonts()):
        errors = checked(svg, fonts)
        if problem is None:
            assert errors == []
        else:
            (error,) = errors
            assert error.message.startswith(f"card/a: {problem}") and (error.path, error.line) == (TEMPLATE, line), error


def test_a_style_sheet_setting_font_stretch_is_refused(demo: Project):
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{% block body %}", "{% block body %}\n<style>text { font-stretch: condensed }</style>", 1))
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (found,) = result.output.strip().splitlines()
    assert "templates/demo/card.svg.j2:4: card/example: a <style> sheet sets font-stretch (condensed): pnp measures text at its " \
           "font's normal width and default axes" in found and "set it on the element" not in found, found
    template.write_text(template.read_text().replace("<style>text { font-stretch: condensed }</style>", "", 1)
                        .replace('font-weight="bold"', 'font-weight="bold" font-stretch="expanded"', 1))
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 2 and "font-stretch expanded: pnp measures" in result.output, result.output


def named_font(target: Path, family: str) -> Path:
    """Liberation Sans's regular file with its family named `family`."""
    from fontTools.ttLib import TTFont

    with TTFont(str(DEFAULT_DIR / "LiberationSans-Regular.ttf")) as font:
        for record in font["name"].names:
            if record.nameID in (1, 4, 16):
                record.string = family
            elif record.nameID == 6:
                record.string = family.replace(" ", "")
        font.save(str(target))
    return target


def test_a_family_the_pdf_engine_names_otherwise_is_a_located_error(demo: Project, tmp_path: Path):
    """typst drops style words from a family's name ("Liberation Sans Narrow" is its "Liberation
    Sans") and drew the SVG's text in that family in its own fallback font, Libertinus Serif,
    with exit 0; resvg and the measures used the file. typst is no longer given its own fonts
    (they stood in for characters the game's fonts lack, where resvg has none): it draws nothing."""
    from pnp.formats.engine_jobs import make_pdf

    narrow = named_font(tmp_path / "Narrow.ttf", "Liberation Sans Narrow")
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><text y="15" font-family="Liberation Sans Narrow">Hi</text></svg>'
    pdf, problem = make_pdf('#image(bytes(sys.inputs.face), format: "svg")\n', {"face": svg}, (str(narrow),))
    assert not problem and b"LibertinusSerif" not in pdf and b"LiberationSansNarrow" not in pdf
    folder = demo.content_dir / "demo"
    named_font(folder / "Narrow.ttf", "Liberation Sans Narrow")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [Narrow.ttf]\ncomponents:", 1))
    line = next(n for n, text in enumerate(game.read_text().splitlines(), 1) if text.startswith("fonts:"))
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (found,) = result.output.strip().splitlines()
    assert f"game.yaml:{line}:9: font file Narrow.ttf: the PDF engine (typst) knows its family 'Liberation Sans Narrow' as " \
           "'Liberation Sans'" in found, found
    named_font(folder / "Narrow.ttf", "LiberationSansNarrow")  # a name typst keeps (the demo's bold text needs a bold file)
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert "PDF engine" not in result.output and "no bold file of LiberationSansNarrow" in result.output, result.output
    # a build that makes PDFs asks the engine where it runs, once the faces are rendered (the
    # demo's bold text, which needs a bold file, made plain) and before any file is made
    named_font(folder / "Narrow.ttf", "Liberation Sans Narrow")
    for template in (demo.templates_dir / "demo").iterdir():
        template.write_text(template.read_text().replace(' font-weight="bold"', "").replace(', "bold")', ")"))
    result = runner.invoke(app, ["build", "--format", "svg,pdf", "--project", str(demo.root)])
    assert result.exit_code == 2 and result.output.strip().splitlines() == [found], result.output
    assert not [p for p in demo.output_dir.rglob("*") if p.is_file()]


def line_at(path: Path, start: str) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(start))


def test_a_printable_scoring_sheet_checks_the_family_the_pdf_engine_names(copy_game, tmp_path: Path):
    """`pnp sheet` typesets its PDF with typst in the game's fonts, as a build does: it wrote
    the sheet's text in typst's fallback font, with exit 0, where a build refused the font."""
    project = copy_game("dietrick-taking")
    folder = project.content_dir / "dietrick-taking"
    named_font(folder / "Narrow.ttf", "Liberation Sans Narrow")
    renamed(DEFAULT_DIR / "LiberationSans-Bold.ttf", folder / "Narrow-Bold.ttf", "Liberation Sans Narrow")  # the sheet's bold text
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [Narrow.ttf, Narrow-Bold.ttf]\ncomponents:", 1))
    out = tmp_path / "sheets"
    result = runner.invoke(app, ["--trust", "sheet", "dietrick-taking", "-n", "2", "--out", str(out), "--project", str(project.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and all(f"game.yaml:{line_at(game, 'fonts:')}:" in line and f"font file {name}: the PDF engine (typst) knows its family "
                                   "'Liberation Sans Narrow' as 'Liberation Sans'" in line for line, name in zip(lines, ("Narrow.ttf", "Narrow-Bold.ttf"))), lines
    assert not out.exists()


def test_two_files_of_one_familys_style_are_a_located_error(demo: Project, tmp_path: Path):
    """pnp measured a style with the first of its files, the renderers draw the one of normal
    width (a family's condensed file named first was measured, the normal one drawn)."""
    regular = DEFAULT_DIR / "LiberationSans-Regular.ttf"
    condensed = condensed_font(tmp_path / "Condensed.ttf")
    assert drawn_widths(condensed, "400", "Liberation Sans", "I", regular) == drawn_widths(regular, "400", "Liberation Sans")
    folder = demo.content_dir / "demo"
    condensed_font(folder / "Condensed.ttf")
    (folder / "Regular.ttf").write_bytes(regular.read_bytes())
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [Condensed.ttf, Regular.ttf]\ncomponents:", 1))
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (found,) = result.output.strip().splitlines()
    assert re.search(r"game\.yaml:\d+:\d+: font file Regular\.ttf is Liberation Sans, as Condensed\.ttf is: pnp would measure "
                     r"that text with Condensed\.ttf", found), found


def test_a_variable_font_lacking_a_style_is_named_so(tmp_path: Path):
    """Its weight axis is drawn for bold at 700; an axis short of that, or italic, needs a static file."""
    fonts = Fonts((variable_font(tmp_path / "Sans[wght].ttf", reaching=600),))
    with pytest.raises(MissingStyle, match=r"\(Sans\[wght\].ttf is VarSans \(a variable font: pnp draws its weight axis at 700 "
                                           r"for bold and no other axis, so a static file of the style is needed\)\)"):
        fonts.face("bold")


def test_a_helper_asked_for_a_weight_that_is_none_is_told_the_four(demo: Project):
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace('6, "bold")', '6, "heavy")'))
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.endswith("templates/demo/card.svg.j2:5: card/example: unknown weight 'heavy': expected one of normal, bold, italic, bold-italic"), line


# --- one text, one font (the i18n review's findings 1, 2 and 5): each run's characters must be
# in the face its family, weight and style select; no other font stands in for a missing one ---

def kanji_font(path: Path, codes: str = "日本", family: str = "Kanji") -> None:
    """A regular `family` ("Kanji") having only `codes` and the space (each a box 1000 units wide)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def glyph(box: bool):
        pen = TTGlyphPen(None)
        if box:
            for x, y in ((50, 0), (50, 700), (950, 700), (950, 0)):
                (pen.lineTo if x != 50 or y else pen.moveTo)((x, y))
            pen.closePath()
        return pen.glyph()

    names = [".notdef", "space", *(f"u{ord(c):04X}" for c in codes)]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(c): f"u{ord(c):04X}" for c in codes}})
    fb.setupGlyf({n: glyph(n != "space") for n in names})
    fb.setupHorizontalMetrics({n: (1000, 50) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular", "fullName": family, "psName": f"{family}-Regular",
                       "uniqueFontIdentifier": family})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(str(path))


def with_kanji(demo: Project) -> None:
    """The demo drawn in Liberation Sans (regular and bold) and a "Kanji" family for 日本."""
    folder = demo.content_dir / "demo"
    for name in ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"):
        (folder / name).write_bytes((DEFAULT_DIR / name).read_bytes())
    kanji_font(folder / "kanji.ttf")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace(
        "components:", "fonts: [LiberationSans-Regular.ttf, LiberationSans-Bold.ttf, kanji.ttf]\ncomponents:", 1))


def test_each_run_is_checked_against_the_face_it_selects():
    from pnp.render.font_styles import runs

    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Serif-Bold.ttf", "Serif", True, False), ("Kanji.ttf", "Kanji", False, False))
    fonts.faces[2].advances[0x65E5] = 1000
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" font-family="Serif"><text font-weight="bold">A\u65e5'
           '<tspan font-family="Kanji" font-weight="normal">\u65e5</tspan>A<title>\u2603</title></text></svg>')
    found = [(run, face.name if face else None, face.lacks(run) if face else None) for _, run, face in runs(ET.fromstring(svg), fonts)]
    # the tail after the <tspan> is the <text>'s; a <title> is not drawn
    assert found == [("A\u65e5A", "Serif bold", ["\u65e5"]), ("\u65e5", "Kanji", [])]
    assert fonts.suggest(["\u65e5"], "bold") == ("Kanji", "normal", True)
    assert fonts.suggest(["\u65e5"], "bold", "\u2603\u65e5") == ("Kanji", "normal", False)  # no family has both: two fonts


def test_a_line_mixing_scripts_is_drawn_from_stand_ins_and_a_character_no_font_has_is_located(demo: Project):
    """A <text> whose face lacks characters another font of the game has is drawn with that
    font standing in for them, in the PDF and the PNG alike (the one font that has them), and
    the helpers measure it so; a character no font of the game has is an error at its line (the
    PDF would draw it from no font, the PNG a box). The game's title beside characters the
    template writes is the template's line (finding 5), and ZWJ, a soft hyphen or a variation
    selector need no glyph (typst and resvg draw nothing for them)."""
    with_kanji(demo)
    card = demo.templates_dir / "demo/card.svg.j2"
    head, _, tail = card.read_text().rpartition("{% endblock %}")
    card.write_text(head + '<text x="1" y="80">Deck \u65e5\u672c</text>\n'
                    '<text x="1" y="84">Deck <tspan font-family="Kanji">\u65e5\u672c</tspan>\u200d\u00ad\ufe0f\u200b</text>\n'
                    '<text x="1" y="88" font-weight="bold">{{ game.title }} \u672c\u65e5\u2603</text>\n{% endblock %}' + tail)
    line = head.count("\n") + 1
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    (found,) = result.output.strip().splitlines()
    assert found.endswith(f"templates/demo/card.svg.j2:{line + 2}: card/example: Liberation Sans bold cannot draw '\u2603' (U+2603), "
                          "'\u65e5' (U+65E5), '\u672c' (U+672C) in 'Demo \u672c\u65e5\u2603' (one text, one font: no other font "
                          "stands in); use other characters or add a font that has them (game.yaml `fonts:`)"), found


def test_the_helpers_refuse_to_measure_a_character_no_font_has(demo: Project):
    """A width guessed for a missing glyph (U+FFFD's, or half an em) is not the width printed:
    the helper's call is an error, at the content that holds the characters. A character
    another font of the game has is measured in that font (the Kanji title fits)."""
    with_kanji(demo)
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("title: Example Card", "title: Example \u65e5\u672c"))
    assert runner.invoke(app, ["validate", "--project", str(demo.root)]).exit_code == 0
    cards.write_text(cards.read_text().replace("title: Example \u65e5\u672c", "title: Example \u65e5\u2603"))
    line = next(n for n, text in enumerate(cards.read_text().splitlines(), 1) if "title:" in text)
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2
    (found,) = result.output.strip().splitlines()
    assert re.search(rf"content/demo/cards\.yaml:{line}:\d+: card/example: measuring 'Example \u65e5\u2603' in Liberation Sans bold, "
                     r"which lacks '\u2603' \(U\+2603\), '\u65e5' \(U\+65E5\): add a font that has them \(game.yaml `fonts:`\) "
                     r"\(placed by templates/demo/card.svg.j2:5\)$", found), found


def _ink_ends(png: bytes, bands: int, dpi: float) -> list[float]:
    """The right end (mm) of the ink in each of `bands` equal horizontal bands of an image."""
    import numpy as np
    from PIL import Image

    ink = np.asarray(Image.open(io.BytesIO(png)).convert("L")) < 128
    rows = np.array_split(ink, bands)
    return [float(np.where(band.any(axis=0))[0][-1]) * 25.4 / dpi for band in rows]


@pytest.mark.parametrize("codes", ["\u2605", "\u2605 ,abcdeGhinorstuw2"])
def test_a_paragraph_needing_two_fonts_wraps_to_the_width_printed(tmp_path: Path, codes: str):
    """Liberation Sans lacks the star a symbols font has: each line of a wrapped paragraph is
    measured as typst and resvg draw it. A symbols font with the star alone draws the star
    (the rest stays Liberation Sans); one with every character of a line draws all of it (usvg
    takes a stand-in having the whole run for the whole run), and a line without the star is
    Liberation Sans. The PNG's ink, and the PDF's, ends where the measure says (to 1 mm)."""
    import pypdfium2

    from pnp.formats.engine_jobs import make_pdf
    from pnp.formats.raster import svg_to_png
    from pnp.render.textfit import TextFit

    kanji_font(tmp_path / "symbols.ttf", codes, "Symbols")
    fonts = Fonts((DEFAULT_DIR / "LiberationSans-Regular.ttf", tmp_path / "symbols.ttf"))
    fit = TextFit(fonts)
    text = "Gain 2 \u2605 each turn, then draw cards until your hand is full \u2605\u2605"
    lines = fit.wrap(text, 40, 4)
    assert len(lines) >= 3 and any("\u2605" not in line for line in lines) and any("\u2605" in line for line in lines)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="120mm" height="{10 * len(lines)}mm" viewBox="0 0 120 {10 * len(lines)}">'
           f'<rect width="120" height="{10 * len(lines)}" fill="white"/>'
           + "".join(f'<text x="2" y="{10 * i + 7}" font-size="4" font-family="Liberation Sans">{line}</text>' for i, line in enumerate(lines))
           + "</svg>")
    measured = [2 + fit.text_width(line, 4) for line in lines]
    assert all(width <= 40 + 1e-9 for width in (fit.text_width(line, 4) for line in lines))
    pdf, problem = make_pdf(f'#set page(width: 120mm, height: {10 * len(lines)}mm, margin: 0pt)\n'
                            '#image(bytes(sys.inputs.face), format: "svg", width: 120mm)\n', {"face": svg},
                            tuple(str(p) for p in fonts.files))
    assert not problem
    page = pypdfium2.PdfDocument(pdf)[0]
    out = io.BytesIO()
    page.render(scale=300 / 72).to_pil().save(out, format="PNG")
    for drawn in (svg_to_png(svg, 300, fonts), out.getvalue()):
        for line, want, got in zip(lines, measured, _ink_ends(drawn, len(lines), 300)):
            assert want - 1 <= got <= want + 0.05, (line, want, got)  # ink ends short of the advance by a side bearing


def test_stand_ins_the_pdf_and_the_png_would_choose_differently_are_errors():
    """resvg takes the first file in game.yaml order that has a character, typst the closest
    family and style: two families having it, or the closest file listed after another, would
    draw different widths in the PDF and the PNG, so the helpers refuse (and say what to do)."""
    from pnp.load.fonts import LackingGlyphs
    from pnp.render.textfit import TextFit

    two = fonts_of(("Serif.ttf", "Serif", False, False), ("Kanji.ttf", "Kanji", False, False), ("Mincho.ttf", "Mincho", False, False))
    order = fonts_of(("Serif.ttf", "Serif", False, False), ("Serif-Bold.ttf", "Serif", True, False),
                     ("Kanji-Bold.ttf", "Kanji", True, False), ("Kanji.ttf", "Kanji", False, False))
    for fonts in (two, order):
        for face in fonts.faces:
            if face.family != "Serif":
                face.advances[0x65E5] = 1000
    with pytest.raises(LackingGlyphs, match="is in Kanji and Mincho, which the PDF and the PNG choose between differently"):
        TextFit(two).wrap("A \u65e5", 50, 5)
    with pytest.raises(LackingGlyphs, match="the PNG would draw '\u65e5' \\(U\\+65E5\\) from Kanji-Bold.ttf and the PDF from Kanji.ttf: "
                                            "list Kanji.ttf before Kanji-Bold.ttf"):
        TextFit(order).text_width("A \u65e5", 5)
    assert TextFit(order).text_width("A \u65e5", 5, "bold") > 0  # bold text: Kanji-Bold is the first and the closest


def test_each_helper_checks_its_face_and_ignorables_measure_nothing():
    from pnp.load.fonts import LackingGlyphs
    from pnp.render.textfit import TextFit

    fonts = fonts_of(("Serif.ttf", "Serif", False, False), ("Kanji.ttf", "Kanji", False, False))
    fonts.faces[1].advances.update({0x65E5: 1000, 65: 600})
    fit = TextFit(fonts)
    for measure in (lambda t: fit.text_width(t, 5), lambda t: fit.fit_size(t, 50, 5), lambda t: fit.wrap(t, 50, 5),
                    lambda t: fit.fit_lines(t, 50, 50, 5)):
        with pytest.raises(LackingGlyphs, match="measuring 'A \u2603' in Serif, which lacks '\u2603' \\(U\\+2603\\): add a font"):
            measure("A \u2603")
        measure("A \u65e5")  # Kanji stands in for the character Serif lacks
    # Kanji lacks the space: it draws the one character, Serif the rest (its space: U+FFFD's half an em)
    assert fit.text_width("A \u65e5", 5) == (600 + 500 + 1000) * 5 / 1000
    with pytest.raises(LackingGlyphs, match=r"lacks '☃' \(U\+2603\): add a font that has them \(game.yaml `fonts:`\)"):
        fit.text_width("\u2603", 5)
    assert fit.text_width("A\u200dA\u00ad\ufe0f\u200b", 5) == fit.text_width("AA", 5) == 6.0
    assert fit.text_width("A \u65e5", 5, family="Kanji") > 0


# --- a <style> sheet's font properties: resvg and typst apply them, pnp reads no sheet ---

SHEET_TEMPLATE = ('{% extends "pnp/base.svg.j2" %}\n{% block body %}\n<style>\n  rect { fill: #264653 }\n'
                  '  /* titles */ text.title {{ "{" }} {rule} }\n</style>\n<text class="title" x="5" y="9">Title</text>\n{% endblock %}\n')


@pytest.mark.parametrize("rule, words", [
    ("font-weight: bold", "sets font-weight (bold)"),
    ("fill: red; Font-Family: 'Liberation Sans'", "sets font-family ('Liberation Sans')"),
    ("FONT-STYLE:italic", "sets font-style (italic)"),
    ("font: bold 4px serif", "sets font (bold 4px serif)"),
    ("fill: #e76f51; font-size: 4px", "sets font-size (4px)"),  # over a fitting helper's size, and under the 6 pt floor
])
def test_a_style_sheet_setting_a_font_is_refused_at_its_line(demo: Project, rule: str, words: str):
    """Drawn in the sheet's font, checked and measured in the element's: one line, at the sheet's rule."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(SHEET_TEMPLATE.replace("{rule}", rule))
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (line,) = result.output.strip().splitlines()
    assert f"templates/demo/card.svg.j2:5: card/example: a <style> sheet {words}, which pnp does not read" in line, line
    assert line.endswith("set it on the element (or a <g> around it) instead"), line
    assert not demo.output_dir.exists()


def test_a_style_sheet_setting_no_font_builds(demo: Project):
    """Colours and words that only look like a font property stay allowed."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(SHEET_TEMPLATE.replace("{rule}", "fill: #e76f51; stroke-width: 4px } .font:first-child { fill: red } "
                                               "/* font-weight: bold */ text { -inkscape-font-specification: Sans"))
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
