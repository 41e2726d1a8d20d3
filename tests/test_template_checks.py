"""Template typos Jinja lets pass, refused when pnp compiles a template (pnp/sandbox.py
`_Code.visit_Template`): an unknown filter or test where it does not run yet (inside an
`if`), and output a template that extends another never draws; and, when a face loads its
template, a block no template it extends has (pnp/sandbox.py `unknown_block`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import jinja2
import pytest
from typer.testing import CliRunner

from pnp import sandbox
from pnp.cli import app
from pnp.load.content import Project
from pnp.load.generate import expression_environment
from test_hostile import one_error

runner = CliRunner()
UNDRAWN = "text outside a block of a template that extends another is never drawn: put it inside a {% block %}"


def card(demo: Project) -> Path:
    return demo.templates_dir / "demo/card.svg.j2"


def in_body(demo: Project, text: str) -> int:
    """Add `text` at the end of the card's `body` block; the line it starts at."""
    head, _, tail = card(demo).read_text().rpartition("{% endblock %}")
    card(demo).write_text(head + text + "\n{% endblock %}" + tail)
    return head.count("\n") + 1


def build(demo: Project, *args: str):
    return runner.invoke(app, ["build", "--format", "svg", *args, "--project", str(demo.root)])


def refused(demo: Project, template: Path, line: int, message: str) -> str:
    """A real build: exit 2, one line at `template`'s `line` saying `message`, nothing written."""
    found = one_error(build(demo), f"{template.name}:{line}: ", message)
    assert found.startswith(f"{template}:{line}: "), found
    assert not demo.output_dir.exists()
    return found


def drawn(demo: Project) -> str:
    result = build(demo)
    assert result.exit_code == 0, result.output
    return (demo.output_dir / "demo/svg/card/example.svg").read_text()


# --- an unknown filter or test, even where it does not run ----------------------------

def test_an_unknown_filter_in_an_if_that_never_runs_fails_the_build(demo: Project):
    # Jinja alone builds this until a card with `rare` comes
    line = in_body(demo, "\n{% if item.rare is defined %}\n<text>{{ item.title | nosuch }}</text>\n{% endif %}")
    found = refused(demo, card(demo), line + 2, "card/example: no filter named 'nosuch': expected one of Jinja's filters or ")
    assert "num, product" in found and "did you mean" not in found


def test_the_nearest_known_name_is_suggested(demo: Project):
    line = in_body(demo, "{% if item.rare is defined %}{{ item.copies | nums }}{% endif %}")
    refused(demo, card(demo), line, "no filter named 'nums': expected one of Jinja's filters or num, product (did you mean 'num'?)")


def test_an_unknown_test_and_a_filter_block_are_refused_too(demo: Project):
    line = in_body(demo, "{% if item.rare is defind %}x{% endif %}")
    refused(demo, card(demo), line, "no test named 'defind': expected one of Jinja's tests (did you mean 'defined'?)")
    in_body(demo, "{% if false %}\n{% filter uper %}x{% endfilter %}{% endif %}")  # below the other: found first
    card(demo).write_text(card(demo).read_text().replace("is defind", "is defined"))
    refused(demo, card(demo), line + 2, "no filter named 'uper'")


def test_an_imported_template_is_checked(demo: Project):
    macros = demo.templates_dir / "demo/macros.svg.j2"
    macros.write_text("{% macro title(text) %}\n{% if text %}{{ text | uppr }}{% endif %}\n{% endmacro %}\n")
    card(demo).write_text('{% import "macros.svg.j2" as m %}\n' + card(demo).read_text())
    in_body(demo, "<text>{{ m.title(item.title) }}</text>")
    refused(demo, macros, 2, "no filter named 'uppr'")


def test_an_expression_of_game_yaml_is_checked(demo: Project):
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace(
        "components:", "generate:\n  combos:\n    product: {n: [1, 2]}\n    where: \"n > 0 if n else n | nosuch\"\n    id: 'c{{ n }}'\ncomponents:", 1))
    line = one_error(build(demo), "game.yaml:", "generate 'combos': no filter named 'nosuch'")
    assert not demo.output_dir.exists(), line


def test_known_filters_inside_an_if_and_the_games_own_are_accepted(demo: Project):
    in_body(demo, "{% if item.title %}<text>{{ item.title | upper }}</text>{% endif %}\n"
                  "<text>{{ ([1, 2] | product([3, 4]) | length) }} {{ 2.50001 | num }}</text>")
    svg = drawn(demo)
    assert "<text>EXAMPLE CARD</text>" in svg and "<text>4 2.5</text>" in svg


def test_the_games_filters_are_known_to_expressions():
    env = expression_environment()
    assert env.compile_expression("a | product(b) | length if a else a | upper")(a=[1], b=[2, 3]) == 2
    with pytest.raises(jinja2.TemplateAssertionError, match="no filter named 'num'"):  # `num` is the faces' only
        env.compile_expression("a if a else a | num")


# --- output a child template never draws ----------------------------------------------

def test_text_after_the_last_block_fails_the_build(demo: Project):
    text = card(demo).read_text()
    card(demo).write_text(text + '\n\n<rect x="1" y="1" width="5" height="5"/>\n')
    refused(demo, card(demo), text.count("\n") + 3, f"card/example: {UNDRAWN}")


def test_an_expression_in_a_top_level_if_is_refused(demo: Project):
    text = card(demo).read_text()
    card(demo).write_text(text + "{% if item.title %}\n  {{ item.title }}\n{% endif %}\n")
    refused(demo, card(demo), text.count("\n") + 2, UNDRAWN)


def test_an_extended_template_is_checked(demo: Project):
    base = demo.templates_dir / "demo/base.svg.j2"  # the game's own base, extending pnp's
    base.write_text('{% extends "pnp/base.svg.j2" %}\n{% block body %}{% endblock %}\n<circle r="2"/>\n')
    card(demo).write_text(card(demo).read_text().replace('"pnp/base.svg.j2"', '"base.svg.j2"'))
    refused(demo, base, 3, UNDRAWN)


def test_whitespace_set_macro_and_import_at_the_top_level_are_accepted(demo: Project):
    (demo.templates_dir / "demo/macros.svg.j2").write_text("{% macro dot(x) %}<circle cx=\"{{ x }}\" r=\"1\"/>{% endmacro %}\n")
    head, _, rest = card(demo).read_text().partition("\n")
    card(demo).write_text(head + '\n\n  \n{% set colour = "#123456" %}\n{% import "macros.svg.j2" as m %}\n'
                          "{% macro ring(x) %}<circle cx=\"{{ x }}\" r=\"2\" fill=\"{{ colour }}\"/>{% endmacro %}\n"
                          "{% from \"macros.svg.j2\" import dot %}\n{% set mark %}\n<g/>\n{% endset %}\n" + rest + "\n   \n")
    in_body(demo, "{{ ring(5) }}{{ m.dot(6) }}{{ dot(7) }}{{ mark }}")
    svg = drawn(demo)
    assert '<circle cx="5" r="2" fill="#123456"/><circle cx="6" r="1"/><circle cx="7" r="1"/><g/>' in svg


# --- a block no template above has ---------------------------------------------------

NEVER = "block 'bodyy' is never drawn: "


def base(demo: Project, text: str) -> Path:
    """The game's own base `text` (extending pnp's), the card extending it."""
    path = demo.templates_dir / "demo/base.svg.j2"
    path.write_text('{% extends "pnp/base.svg.j2" %}\n' + text)
    card(demo).write_text(card(demo).read_text().replace('"pnp/base.svg.j2"', '"base.svg.j2"'))
    return path


def test_a_block_the_parent_lacks_fails_build_validate_and_preview(demo: Project):
    card(demo).write_text(card(demo).read_text().replace("{% block body %}", "{% block bodyy %}"))
    message = "card/example: " + NEVER + "'pnp/base.svg.j2' (which this template extends) has no block of that name (did you mean 'body'?)"
    refused(demo, card(demo), 3, message)
    for command in (["validate"], ["preview"]):
        result = runner.invoke(app, [*command, "--project", str(demo.root)])
        assert one_error(result, message).startswith(f"{card(demo)}:3: "), result.output
        assert not demo.output_dir.exists()


def test_every_template_above_is_named_and_a_grandparents_block_is_accepted(demo: Project):
    base(demo, "{% block body %}<g>{% block face %}{% endblock %}</g>{% endblock %}\n")
    text = card(demo).read_text()  # its `background` is pnp's base's only
    card(demo).write_text(text.replace("{% block body %}", "{% block face %}") + "{% block bodyy %}{% endblock %}\n")
    refused(demo, card(demo), text.count("\n") + 1, NEVER + "'base.svg.j2' (which this template extends) and "
            "'pnp/base.svg.j2' above it have no block of that name (did you mean 'body'?)")


def test_the_game_base_is_checked_against_pnps(demo: Project):
    path = base(demo, "{% block bodyy %}{% block face %}{% endblock %}{% endblock %}\n")
    card(demo).write_text(card(demo).read_text().replace("{% block body %}", "{% block face %}"))
    refused(demo, path, 2, NEVER + "'pnp/base.svg.j2' (which this template extends) has no block of that name")


def test_a_template_that_extends_itself_is_one_line(demo: Project):
    """A loop of `extends` has no parent to check blocks against: rendering meets the loop
    and says so at the template's line."""
    card(demo).write_text('{% extends "card.svg.j2" %}{% block body %}{% endblock %}\n')
    refused(demo, card(demo), 1, "card/example: the template calls itself too deeply")


def test_a_block_renamed_in_the_parent_fails_the_unchanged_child_built_before(demo: Project):
    # the child's compiled code comes from the bytecode cache the second time: its check must still run
    path = base(demo, "{% block body %}<g>{% block face %}{% endblock %}</g>{% endblock %}\n")
    card(demo).write_text(card(demo).read_text().replace("{% block body %}", "{% block face %}"))
    assert re.search(r'<g>\s*<rect x="3"', drawn(demo))
    path.write_text(path.read_text().replace("block face", "block facet"))
    result = build(demo)
    line = one_error(result, f"{card(demo).name}:3: ", "block 'face' is never drawn: 'base.svg.j2' (which this template extends) "
                     "and 'pnp/base.svg.j2' above it have no block of that name (did you mean 'facet'?)")
    assert line.startswith(f"{card(demo)}:3: ")


def test_nested_blocks_self_calls_and_a_template_extending_nothing_are_accepted(demo: Project):
    in_body(demo, "{% block inner %}<g id=\"inner\"/>{% endblock %}{{ self.badge() }}{{ self['mark']() }}")
    card(demo).write_text(card(demo).read_text() + '{% block badge %}<g id="badge"/>{% endblock %}\n'
                          '{% if false %}{% block mark %}<g id="mark"/>{% endblock %}{% endif %}\n')
    back = demo.templates_dir / "demo/card-back.svg.j2"
    back.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="{{ width }}mm" height="{{ height }}mm">'
                    '{% block nowhere %}<g id="back"/>{% endblock %}</svg>\n')
    svg = drawn(demo)
    assert '<g id="inner"/><g id="badge"/><g id="mark"/>' in svg
    assert '<g id="back"/>' in (demo.output_dir / "demo/svg/card/back.svg").read_text()


def test_a_computed_parent_is_not_checked(demo: Project):
    # which template it extends is known only as it renders: Jinja decides, pnp cannot
    text = card(demo).read_text().replace('{% extends "pnp/base.svg.j2" %}', '{% extends "pnp/" ~ "base.svg.j2" %}')
    card(demo).write_text(text + "{% block extra %}<g/>{% endblock %}\n")
    assert "<text" in drawn(demo)
    # nor one below it: what is above it is not known either (the card's `background` is pnp's base's)
    path = base(demo, "{% block body %}<g>{% block face %}{% endblock %}</g>{% endblock %}\n")
    path.write_text(path.read_text().replace('"pnp/base.svg.j2"', '"pnp/" ~ "base.svg.j2"'))
    card(demo).write_text(text.replace("{% block body %}", "{% block face %}").replace('"pnp/" ~ "base.svg.j2"', '"base.svg.j2"'))
    assert 'fill="#fdf6e3"' in drawn(demo)


def test_a_parent_that_fails_to_load_is_reported_where_rendering_finds_it(demo: Project):
    text = card(demo).read_text()
    card(demo).write_text(text.replace('"pnp/base.svg.j2"', '"nosuch.svg.j2"'))
    refused(demo, card(demo), 1, "card/example: template not found: nosuch.svg.j2")
    card(demo).write_text(text)
    path = base(demo, "{% block body %}\n{{ 1 | nosuch }}{% endblock %}\n")
    refused(demo, path, 3, "card/example: no filter named 'nosuch'")


def test_the_outline_comes_with_the_compiled_code(tmp_path: Path):
    # kept in the bytecode cache: a template loaded from it is not compiled again
    templates = jinja2.DictLoader({"child": '{% extends "base" %}\n{% if x %}{% block a %}{% block b %}{% endblock %}'
                                            '{% endblock %}{% endif %}\n{% for i in x %}{% block c %}{% endblock %}{% endfor %}'
                                            "{% block d %}{{ self.e() }}{% endblock %}"})
    first = sandbox.environment(loader=templates, bytecode_cache=jinja2.FileSystemBytecodeCache(str(tmp_path)))
    compiled = first.get_template("child")
    second = sandbox.environment(loader=templates, bytecode_cache=jinja2.FileSystemBytecodeCache(str(tmp_path)))
    second.code_generator_class = None  # type: ignore[assignment]  # compiling would fail
    cached = second.get_template("child")
    assert cached.outline == compiled.outline == sandbox.Outline("base", False, (("a", 2), ("d", 3)), ("e",))


# --- what a face may not hold, at the template line that writes it --------------------

@pytest.mark.parametrize("markup,message", [
    ("<script>x</script>", "the face has a <script> element: a face may not run scripts"),
    ('<rect width="1" height="1" onload="go()"/>', "the face has an event handler (onload=)"),
    ("<foreignObject/>", "the face has a <foreignObject> element"),
    ("<style>@import url(x.css);</style>", "the face has a CSS @import"),
    ('<text font-family="Comic Sans">x</text>', "font-family 'Comic Sans' names none of the game's fonts"),
    # before: not checked, and resvg drew no text (usvg reads the shorthand's family in `style`)
    ('<text style="font: 3px Comic Sans">x</text>', "the font family 'Comic Sans' of 'font: 3px Comic Sans' names none of the game's fonts"),
    ("<txt>a</text>", "the rendered SVG is not well-formed XML: mismatched tag"),
    # before: expat's "not well-formed (invalid token)" alone, for a title a new designer wrote as text
    *[(f"<text>{text}</text>", "the rendered SVG is not well-formed XML: not well-formed (invalid token): an & or < in the "
                               "template's own text is written &amp; or &lt; (values filled in with {{ }} are escaped)")
      for text in ("Scoring & Quests", "Score < 10", "a &b c")],
])
def test_what_a_face_may_not_hold_is_one_line_at_the_template_line(demo: Project, markup: str, message: str):
    """Two cards: one line for both pieces, at the line that writes the markup."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "  - {id: second, title: Second, text: Another., copies: 1}\n")
    line = in_body(demo, markup)
    found = refused(demo, card(demo), line, message)
    assert "card/example (and 1 more piece): " in found


def test_font_family_in_text_or_a_comment_sets_no_font(demo: Project):
    """Before: a regex over the whole SVG took a card's text "font-family: Comic Sans;" and a
    comment for fonts the face asks for, and refused it; only attributes and `style` set one."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(re.sub(r"text: .*", "text: 'Write font-family: Comic Sans; on the box.'", cards.read_text()))
    in_body(demo, "<!-- font-family: Comic Sans; was the old look -->")
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    # a style declaration still asks for the font, and is refused
    card(demo).write_text(card(demo).read_text().replace("<!-- font-family: Comic Sans; was the old look -->", ""))
    line = in_body(demo, '<text style="fill: black; font-family: Comic Sans">x</text>')
    refused(demo, card(demo), line, "font-family 'Comic Sans' names none of the game's fonts")


@pytest.mark.parametrize("markup,message", [
    ("<script>x</script>", "the face has a <script> element"),
    ('<text font-family="Comic Sans">x</text>', "font-family 'Comic Sans' names none of the game's fonts"),
    ("<txt>a</text>", "the rendered SVG is not well-formed XML: mismatched tag"),
])
def test_what_a_macro_writes_is_at_the_macro_files_line(demo: Project, markup: str, message: str):
    """A face's problem written by a macro it imports (or a template it includes) is at
    that file's line: the face's own template is looked at first, then those it names (a
    file named twice looked at once, one included only if there passed over)."""
    macros = demo.templates_dir / "demo/marks.svg.j2"
    macros.write_text("{# drawing helpers #}\n{% macro mark() %}\n  " + markup + "\n{% endmacro %}\n")
    line = in_body(demo, '{% include "absent.svg.j2" ignore missing %}{% import "marks.svg.j2" as marks %}'
                         '{% import "marks.svg.j2" as again %}{{ marks.mark() }}')
    found = refused(demo, macros, 3, message)
    assert f"card.svg.j2:{line}" not in found


def with_field(demo: Project, field: str) -> Path:
    """The demo card's record given `field` (`ink: blu`); its file."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("copies: 3", f"copies: 3\n    {field}"))
    return cards


@pytest.mark.parametrize("markup,message", [
    ('<rect width="5" height="5" fill="#d4a01"/>', "fill '#d4a01' is not a colour: expected #rrggbb (or #rgb), a colour name such as red, "
                                                  "or none (the renderers would draw black)"),
    ('<rect width="5" height="5" fill="none" stroke="gold-ish"/>', "stroke 'gold-ish' is not a colour"),
    ('<rect width="5" height="5" style="stroke-width: 1; fill:#12345g"/>', "fill '#12345g' is not a colour"),
    # before: passed as not a word, and drawn black all the same
    ('<rect width="5" height="5" fill="red;"/>', "fill 'red;' is not a colour"),
    ('<rect width="5" height="5" fill="dark red"/>', "fill 'dark red' is not a colour"),
    ('<rect width="5" height="5" style="fill: 12"/>', "fill '12' is not a colour"),
    ('<rect width="5" height="5" fill=""/>', "fill '' is not a colour"),
    # before: passed, and drawn black (the renderers lack CSS Color 4's name, read keywords spelled one way)
    ('<rect width="5" height="5" fill="RebeccaPurple"/>', "fill 'RebeccaPurple' is a CSS colour the renderers do not know (they would draw "
                                                          "black): write it as #663399"),
    ('<rect width="5" height="5" style="stroke: rebeccapurple"/>', "stroke 'rebeccapurple' is a CSS colour the renderers do not know "
                                                                   "(they would draw no line): write it as #663399"),
    ('<rect width="5" height="5" fill="None"/>', "fill 'None' is not a paint the renderers read (they would draw black): write 'none'"),
    ('<rect width="5" height="5" fill="currentcolor"/>', "fill 'currentcolor' is not a paint the renderers read (they would draw black): "
                                                         "write 'currentColor'"),
    ('<rect width="5" height="5" fill="unset"/>', "fill 'unset' is not a paint the renderers read (they would draw black): write 'inherit'"),
])
def test_a_colour_no_renderer_reads_is_one_line_at_the_template_line(demo: Project, markup: str, message: str):
    """A new designer's typo in a colour painted the shape black (a number on it gone), or
    its line not at all, without a word: the renderers draw what they cannot read so."""
    refused(demo, card(demo), in_body(demo, markup), message)


PROBE = """\
import io, sys, typst
from PIL import Image
png = typst.compile(sys.argv[1], format="png", ppi=72.0)
Image.open(io.BytesIO(png)).convert("RGB").save(sys.argv[2])
"""


def test_the_colour_check_accepts_exactly_what_the_renderers_draw(tmp_path: Path):
    """Each paint drawn by resvg (the PNG) and typst (the PDF), one stripe each, on a blue
    ground in a group filled orange with colour green: every colour name and keyword the check
    accepts draws what it says, and what it refuses draws black (before: `rebeccapurple`,
    `None`, `currentcolor` passed)."""
    from PIL import Image, ImageColor

    from pnp.formats.raster import svg_to_image
    from pnp.load.paint import COLOUR_NAMES, KEYWORDS, is_colour

    ground, inherited, current = (18, 52, 86), (255, 136, 0), (0, 255, 0)
    meant = {"none": ground, "transparent": ground, "currentColor": current, "inherit": inherited, "initial": (0, 0, 0),
             "context-fill": ground, "context-stroke": ground}  # outside a marker, context paints are none
    accepted = sorted(COLOUR_NAMES) + [k for k in KEYWORDS if k not in meant] + ["DarkGrey", " red "] + list(meant)
    refused = ["rebeccapurple", "RebeccaPurple", "None", "NONE", "currentcolor", "CurrentColor", "Inherit", "unset"]
    paints = accepted + refused
    stripes = "".join(f'<rect y="{4 * n}" width="10" height="4" fill="{p}"/>' for n, p in enumerate(paints))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height="{4 * len(paints)}pt" viewBox="0 0 10 {4 * len(paints)}">'
           f'<rect width="10" height="{4 * len(paints)}" fill="#123456"/><g fill="#ff8800" color="#00ff00">{stripes}</g></svg>')
    (tmp_path / "probe.svg").write_text(svg)
    (tmp_path / "probe.typ").write_text(f'#set page(width: 10pt, height: {4 * len(paints)}pt, margin: 0pt)\n'
                                        f'#image("probe.svg", width: 100%, height: 100%)\n')
    # typst in a process of its own: a process that loaded it forks no PDF workers (tests/test_pdf_workers.py)
    subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "probe.typ"), str(tmp_path / "pdf.png")], check=True)
    for image in (svg_to_image(svg, 72.0), Image.open(tmp_path / "pdf.png")):
        image = image.convert("RGB")
        drawn = [image.getpixel((5, round((4 * n + 2) * image.height / (4 * len(paints))))) for n in range(len(paints))]
        for paint, colour in zip(paints, drawn):
            expected = meant.get(paint) or (ImageColor.getrgb(paint.strip())[:3] if paint in accepted else (0, 0, 0))
            assert (is_colour(paint), colour) == (paint in accepted, expected), paint


def test_the_colour_names_are_pillows_but_those_the_renderers_lack_and_need_no_pillow():
    """The names written out in pnp/load/paint.py are Pillow's table of CSS colours but the one
    usvg lacks, and `transparent`; checking a colour imports no Pillow (before: every build
    that checked a face's paints imported it, some 10 ms)."""
    from PIL import ImageColor

    from pnp.load.paint import COLOUR_NAMES, UNDRAWN

    assert COLOUR_NAMES == frozenset(ImageColor.colormap) - UNDRAWN | {"transparent"}
    code = "import sys; from pnp.load.paint import is_colour; assert is_colour('DarkGrey'); print('PIL' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_colour_from_a_record_is_told_at_its_field_and_good_ones_pass(demo: Project):
    cards = with_field(demo, "ink: blu")
    line = in_body(demo, '<rect width="5" height="5" fill="{{ item.ink }}"/>')
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: fill 'blu' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found
    for ink in ("blue", "#28B", "#2980b9", "#2980b980", "none", "currentColor", "rgb(1, 2, 3)", "Transparent"):
        cards.write_text(re.sub(r"ink: .*", f"ink: '{ink}'", cards.read_text()))
        drawn(demo)


def test_an_important_colour_in_a_style_is_a_colour(demo: Project):
    """CSS's `!important` is no part of the colour in `style` (the renderers draw it red)."""
    in_body(demo, '<rect width="5" height="5" style="fill: red !important; stroke: #123 !IMPORTANT"/>')
    drawn(demo)


@pytest.mark.parametrize("sheet,message", [
    (".price { fill: #d4a01 }", "fill '#d4a01' is not a colour: expected #rrggbb (or #rgb), a colour name such as red, "
                                "or none (the renderers would draw black)"),
    ("rect, .a > text {\n  fill: red; STROKE: gold-ish !important }", "stroke 'gold-ish' is not a colour"),
    ("/* fill: blue */ rect { fill:#12345g;stroke:none }", "fill '#12345g' is not a colour"),
    ("@media print { rect { fill: dark red } }", "fill 'dark red' is not a colour"),
])
def test_a_colour_no_renderer_reads_in_a_style_sheet_is_one_line_at_its_declaration(demo: Project, sheet: str, message: str):
    """Before: a sheet's colours were not read, and `.price { fill: #d4a01 }` drew the price black."""
    line = in_body(demo, "<style>\n" + sheet + "\n</style>") + 1 + sheet.count("\n")
    refused(demo, card(demo), line, message)


@pytest.mark.parametrize("sheet", [
    "rect { fill: var(--ink, red) }",  # a function, as rgb(), is left to the renderers
    "rect { fill: red !important; stroke: #123 !IMPORTANT }",
    ".a, .b, rect:first-child { fill: #2980B9; stroke: #ABC }",
    "/* fill: #d4a01; a note */ rect { fill:none; stroke: rgb(1, 2, 3) }",
    "rect { fill-opacity: 0.5; stroke-width: 2; --fill: what; } .fill:hover { fill: currentColor }",
    "rect { FILL: Transparent }",
])
def test_valid_colours_in_a_style_sheet_pass(demo: Project, sheet: str):
    in_body(demo, "<style>\n" + sheet + "\n</style>\n" + '<rect width="5" height="5"/>')
    drawn(demo)


def test_a_style_sheet_commented_out_is_not_where_a_colour_is_told(demo: Project):
    """Before: the `<style>` in the XML comment above held the same declaration, and the error
    was put at the comment's line."""
    in_body(demo, "<!-- old: <style> rect { fill: blu } </style> -->")
    line = in_body(demo, "<style>\n  rect { fill: blu }\n</style>") + 1
    refused(demo, card(demo), line, "card/example: fill 'blu' is not a colour")


def test_a_sheet_is_read_up_to_its_first_xml_comment_as_the_renderers_read_it(tmp_path: Path):
    """usvg (resvg's and typst's) reads a `<style>`'s first text alone: what follows an XML comment
    or a child element (or a processing instruction, which no face may hold) is drawn by neither,
    and pnp reads what they draw (before: the text on both sides of a comment)."""
    from pnp.formats.raster import svg_to_image
    from PIL import Image

    from pnp.load.stylesheets import drawn_sheets

    sheets = [".s{fill:red}", "<!-- .s{fill:red} -->", "\n  <!-- a note -->\n  .s{fill:red}", ".x{fill:blue} <!-- old --> .s{fill:red}",
              "<![CDATA[ .s{fill:red} ]]>", ".x{fill:blue} <![CDATA[ .s{fill:red} ]]>", '<desc/> .s{fill:red}']
    styles = "".join(f"<style>{sheet.replace('.s', f'.s{n}')}</style>" for n, sheet in enumerate(sheets))
    stripes = "".join(f'<rect class="s{n}" y="{4 * n}" width="10" height="4"/>' for n in range(len(sheets)))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height="{4 * len(sheets)}pt" viewBox="0 0 10 {4 * len(sheets)}">'
           f"{styles}{stripes}</svg>")
    read = drawn_sheets(svg)
    (tmp_path / "probe.svg").write_text(svg)
    (tmp_path / "probe.typ").write_text(f'#set page(width: 10pt, height: {4 * len(sheets)}pt, margin: 0pt)\n'
                                        f'#image("probe.svg", width: 100%, height: 100%)\n')
    subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "probe.typ"), str(tmp_path / "pdf.png")], check=True)
    for image in (svg_to_image(svg, 72.0), Image.open(tmp_path / "pdf.png")):
        image = image.convert("RGB")
        for n, sheet in enumerate(sheets):
            drawn = image.getpixel((5, round((4 * n + 2) * image.height / (4 * len(sheets))))) == (255, 0, 0)
            assert drawn == any(f".s{n}{{fill:red}}" in s for s in read) == (n in (0, 4, 5)), sheet


def test_a_sheet_of_another_type_and_a_rule_after_an_html_comment_mark_are_read_as_usvg_reads_them(tmp_path: Path):
    """usvg reads a `<style>` of no type or of type text/css only, and drops a rule whose selector
    holds `<!--` or `-->` (in a CDATA section, or escaped): pnp read both (before: a colour or
    a font in them refused, though neither renderer draws it), in the SVG and in the template."""
    from pnp.formats.raster import svg_to_image
    from PIL import Image

    from pnp.load.stylesheets import drawn_sheets, in_sheets

    styles = ['<style>.s{fill:red}</style>', '<style type="text/less">.s{fill:red}</style>', '<style type="text/css">.s{fill:red}</style>',
              "<style type=''>.s{fill:red}</style>", '<style type="TEXT/CSS">.s{fill:red}</style>',
              "<style><![CDATA[ .x{fill:blue} <!-- .s{fill:red} ]]></style>", "<style><![CDATA[ <!-- .x{fill:blue} .s{fill:red} ]]></style>",
              "<style><![CDATA[ .x{fill:blue} --> .s{fill:red} ]]></style>", "<style><![CDATA[ .x{fill:blue}\n<!--\n.s{fill:red} ]]></style>",
              "<style> .x{fill:blue} &lt;!-- .s{fill:red} </style>", "<style><![CDATA[ .s{fill:red} <!-- ]]></style>"]
    styles = [style.replace(".s{", f".s{n}{{") for n, style in enumerate(styles)]
    stripes = "".join(f'<rect class="s{n}" y="{4 * n}" width="10" height="4"/>' for n in range(len(styles)))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="10pt" height="{4 * len(styles)}pt" viewBox="0 0 10 {4 * len(styles)}">'
           f"{''.join(styles)}{stripes}</svg>")
    read = drawn_sheets(svg)
    in_template = {match.group() for match, _, _ in in_sheets(svg, re.compile(r"\.s\d+\{fill:red\}"))}
    (tmp_path / "probe.svg").write_text(svg)
    (tmp_path / "probe.typ").write_text(f'#set page(width: 10pt, height: {4 * len(styles)}pt, margin: 0pt)\n'
                                        f'#image("probe.svg", width: 100%, height: 100%)\n')
    subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "probe.typ"), str(tmp_path / "pdf.png")], check=True)
    for image in (svg_to_image(svg, 72.0), Image.open(tmp_path / "pdf.png")):
        image = image.convert("RGB")
        for n, style in enumerate(styles):
            drawn = image.getpixel((5, round((4 * n + 2) * image.height / (4 * len(styles))))) == (255, 0, 0)
            rule = f".s{n}{{fill:red}}"
            assert drawn == any(rule in sheet for sheet in read) == (rule in in_template) == (n in (0, 2, 6, 10)), style


@pytest.mark.parametrize("sheet", ['<style type="text/less">\n  rect { fill: blu; font-weight: bold }\n</style>',
                                   "<style><![CDATA[\n  <!-- rect { fill: blu; font-weight: bold }\n]]></style>"])
def test_a_colour_or_font_in_what_usvg_does_not_read_of_a_sheet_is_not_refused(demo: Project, sheet: str):
    """Before: refused (a colour that is none, a font the sheet sets), though neither renderer draws it."""
    in_body(demo, sheet)
    drawn(demo)


def test_a_colour_after_an_xml_comment_in_a_style_sheet_is_not_read(demo: Project):
    """Before: refused, though neither renderer reads the sheet past its comment (nor draws `blu`)."""
    in_body(demo, "<style>\n  rect { fill: none }\n  <!-- a note -->\n  text { fill: blu; font-weight: bold }\n</style>")
    drawn(demo)


def test_a_colour_in_an_xml_comment_in_a_sheet_is_not_where_a_colour_is_told(demo: Project):
    """Before: told at the comment's line, where the same declaration was commented out."""
    in_body(demo, "<style>\n  <!-- rect { fill: blu } -->\n</style>")
    line = in_body(demo, "<style>\n  rect { fill: blu }\n</style>") + 1
    refused(demo, card(demo), line, "card/example: fill 'blu' is not a colour")


def test_a_colour_a_block_gives_the_template_it_extends_is_told_at_the_block(demo: Project):
    """The face's background is painted by base.svg.j2 with what the card's `background`
    block holds. Before: the error named the card's template without a line."""
    text = card(demo).read_text()
    block = "{% block background %}#fdf6e3{% endblock %}"
    assert block in text  # as the scaffold writes it
    card(demo).write_text(text.replace(block, "{% block background %}#2b2d4{% endblock %}"))
    refused(demo, card(demo), text[:text.index(block)].count("\n") + 1, "card/example: fill '#2b2d4' is not a colour")


def test_a_semicolon_in_quotes_is_part_of_a_style_sheets_colour(demo: Project):
    """Before: the value was cut at the quoted `;` (`url("#g`), and the rest of the address
    read as a declaration of its own, `fill:blu")`, refused though no sheet declares it."""
    in_body(demo, '<style>\n  rect { fill: url("#g;fill:blu") !important; stroke: red }\n</style>\n<rect width="5" height="5"/>')
    drawn(demo)
    shutil.rmtree(demo.output_dir)
    line = in_body(demo, "<style>\n  rect { stroke: 'a;b' }\n</style>") + 1
    refused(demo, card(demo), line, "card/example: stroke \"'a;b'\" is not a colour")


def test_a_long_style_sheet_line_is_read_in_linear_time(demo: Project):
    """The quoted strings a sheet's value may hold (above) are one way to read it: no runaway."""
    line = in_body(demo, "<style>\n  rect { fill: var(--ink, " + "'a;' \"b\" " * 2000 + ") }\n  text { stroke: blu }\n</style>") + 2
    started = time.perf_counter()
    refused(demo, card(demo), line, "card/example: stroke 'blu' is not a colour")
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)


@pytest.mark.parametrize("text", [
    "<style x\n" * 50_000,  # tags never closed: each read the rest of the text again
    "<style>\n" + "r { fill: red }\n" * 100_000 + "</style>",  # lines counted from the start per declaration
    "<style>" + "r { fill: red } " * 100_000 + "</style>",  # a column counted back to a long line's start
    "<style>" + "a" * 200_000 + "</style>",  # text with no rule block: each character read the rest again
])
def test_style_sheets_are_read_in_linear_time(text: str):
    """A project's template or icon file is read for its sheets' declarations: before, these
    took 6 to 25 seconds (quadratic), now a fraction of one."""
    from pnp.load.paint import SHEET_PAINT
    from pnp.load.stylesheets import in_sheets

    started = time.perf_counter()
    found = list(in_sheets(text, SHEET_PAINT))
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)
    assert len(found) == text.count("fill")
    if found:
        _, line, column = found[-1]
        last = text.rindex("fill")
        assert (line, column) == (text.count("\n", 0, last) + 1, last - text.rfind("\n", 0, last))


def test_a_colour_in_a_style_sheet_from_a_record_is_told_at_its_field(demo: Project):
    """No template line declares `blu`: the record's field that holds it, and the template
    line painting with it."""
    with_field(demo, "ink: blu")
    line = in_body(demo, "<style>\n  rect { fill: {{ item.ink }} }\n</style>") + 1
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: fill 'blu' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


@pytest.mark.parametrize("markup", [
    '<rect width="5" height="5" fill="none" stroke-width="1" style="stroke: {{ item.ink }}"/>',
    '{% set c = 5 %}<rect width="{{ c }}" height="5"\n      fill="{{ item.title | length and item.ink }}"/>',
])
def test_a_colour_from_a_record_names_the_template_line_that_paints_with_it(demo: Project, markup: str):
    """Before: "(placed by templates/demo/card.svg.j2)", the line to look for left to the reader;
    the line is the one painting with an expression that reads the field."""
    with_field(demo, "ink: blu")
    line = in_body(demo, '<text y="9">{{ item.title }}</text>\n' + markup) + 1 + markup.count("\n")
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: ")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def test_a_colour_from_a_record_is_not_blamed_on_a_template_line_holding_a_longer_word(demo: Project):
    """Before: 'blu' was found inside the template's `fill="blue"` and told there, as if written there."""
    with_field(demo, "ink: blu")
    line = in_body(demo, '<rect width="5" height="5" fill="blue"/>\n<rect width="5" height="5" fill="{{ item.ink }}"/>') + 1
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: fill 'blu' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def test_a_colour_from_a_record_the_template_looked_up_is_told_at_its_field(demo: Project):
    """Before: `templates/demo/card.svg.j2: card/example: fill 'blu' ...`, with no line at all,
    for a colour of another file's record (`selectattr(...) | first`), not the piece's own."""
    (demo.content_dir / "demo/inks.yaml").write_text("inks:\n  - id: sea\n    colour: blu\n")
    with_field(demo, "ink: sea")
    line = in_body(demo, '{% set ink = inks.inks | selectattr("id", "equalto", item.ink) | first %}\n'
                         '<rect width="5" height="5" fill="{{ ink.colour }}"/>') + 1
    found = one_error(build(demo), "inks.yaml:3:5: card/example: colour: fill 'blu' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def test_a_colour_a_helper_is_given_in_the_template_is_told_at_its_line(demo: Project):
    in_body(demo, '{% set ink = "blu" %}\n<rect width="5" height="5" fill="{{ ink }}"/>')
    line = in_body(demo, "")  # the line `{% set %}` took
    one_error(build(demo), f"card.svg.j2:{line - 2}: card/example: fill 'blu' is not a colour")


def test_a_colour_with_a_space_from_a_record_is_told_at_its_field(demo: Project):
    """Before: `"blu "` was not matched to the field holding it (compared stripped to unstripped)."""
    with_field(demo, 'ink: "blu "')
    line = in_body(demo, '<rect width="5" height="5" fill="{{ item.ink }}"/>')
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: fill 'blu ' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def test_a_colour_under_a_number_key_is_told_at_its_field(demo: Project):
    """Before: an internal error (TypeError) looking for the template line reading `item[7]`."""
    with_field(demo, "7: blu")
    line = in_body(demo, '<rect width="5" height="5" fill="{{ item[7] }}"/>')
    found = one_error(build(demo), "cards.yaml:6:5: card/example: 7: fill 'blu' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


@pytest.mark.parametrize("reading", ["item[7]", "item.7"])
def test_a_number_key_is_not_found_in_a_number_the_template_writes(demo: Project, reading: str):
    """Before: `.7` of `0.7`, on a line painting another shape, was taken for the field 7 read."""
    with_field(demo, "7: blu")
    in_body(demo, '<rect width="5" height="5" fill="red" opacity="{{ 0.7 }}"/>')
    line = in_body(demo, '<rect width="5" height="5" fill="{{ ' + reading + ' }}"/>')
    found = one_error(build(demo), "cards.yaml:6:5: card/example: 7: fill 'blu' is not a colour")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def test_a_long_template_line_does_not_stall_finding_the_line_that_paints(demo: Project):
    """Before: one pattern with a lazy gap between `fill=` and the expression took cubic time:
    a 21,000-character comment line of them held the build over a minute before its error."""
    with_field(demo, "ink: blu")
    line = in_body(demo, "{# " + "fill={{ " * 2600 + '#}\n<rect width="5" height="5" fill="{{ item.ink }}"/>') + 1
    started = time.perf_counter()
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: fill 'blu' is not a colour")
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def placed_icon(demo: Project, svg: str) -> Path:
    """The icon file `svg` as `star` of an icon folder of the game, placed on the card; its path."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text("icons:\n  marks: {folder: icons}\n" + game.read_text())
    (demo.content_dir / "demo/icons").mkdir()
    star = demo.content_dir / "demo/icons/star.svg"
    star.write_text(svg)
    in_body(demo, "{{ icon('marks', 'star', 0, 0, 10) }}")
    return star


def test_a_colour_in_an_icon_file_is_told_at_the_icon_file(demo: Project):
    """Before: at the template placing the icon, without a line, though the template wrote no colour."""
    star = placed_icon(demo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n'
                             '  <path d="M2 2h20v20z" style="stroke-width: 1; fill:#12345g"/>\n</svg>\n')
    found = one_error(build(demo), "star.svg:2:3: <path> fill '#12345g' is not a colour")
    assert found.startswith(f"{star}:2:3: ") and not demo.output_dir.exists(), found


@pytest.mark.parametrize("sheet,at,message", [
    ("  <style>\n    /* marks */ path { stroke: red; fill: #d4a01 !important }\n  </style>\n", "3:37", "<style> fill '#d4a01' is not a colour"),
    ("  <style><![CDATA[\n    path{STROKE:gold-ish}]]></style>\n", "3:10", "<style> stroke 'gold-ish' is not a colour"),
])
def test_a_colour_in_an_icon_files_style_sheet_is_told_at_the_icon_file(demo: Project, sheet: str, at: str, message: str):
    """Before: an icon file's sheet was not read, and its colour drawn black in every face placing it."""
    star = placed_icon(demo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n' + sheet + '  <path d="M2 2h20v20z"/>\n</svg>\n')
    found = one_error(build(demo), f"star.svg:{at}: {message}")
    assert found.startswith(f"{star}:{at}: ") and not demo.output_dir.exists(), found
    star.write_text(star.read_text().replace("#d4a01", "#D4A017").replace("gold-ish", "var(--gold)"))
    drawn(demo)


def test_a_style_sheet_commented_out_in_an_icon_file_is_no_sheet(demo: Project):
    """Before: the commented-out sheet's colour was refused though the icon's own sheet draws it well."""
    placed_icon(demo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n  <!-- <style>path { fill: blu }</style> -->\n'
                      '  <style>path { fill: blue }</style>\n  <path d="M2 2h20v20z"/>\n</svg>\n')
    drawn(demo)


def test_a_colour_in_an_xml_comment_in_an_icon_files_sheet_is_not_read(demo: Project):
    """Before: refused, the comment read as CSS; the renderers read the sheet up to the comment."""
    placed_icon(demo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n'
                      '  <style>path { fill: blue } <!-- path { fill: blu } --></style>\n  <path d="M2 2h20v20z"/>\n</svg>\n')
    drawn(demo)


def test_a_template_that_draws_no_svg_root_says_to_extend_the_base(demo: Project):
    card(demo).write_text('<g xmlns="http://www.w3.org/2000/svg"><text>{{ item.title }}</text></g>\n')
    found = one_error(build(demo), "card/example: the template must produce an <svg> root (extend 'pnp/base.svg.j2')")
    assert found.startswith(f"{card(demo)}: ") and not demo.output_dir.exists()


def test_a_template_that_extends_nothing_says_to_extend_the_base(demo: Project):
    """Without `{% extends %}` a template writes its blocks' text alone: no parser's
    complaint about line 1, but what to do."""
    card(demo).write_text(card(demo).read_text().split("\n", 1)[1])
    found = one_error(build(demo), "card/example: the template must produce an <svg> root (extend 'pnp/base.svg.j2')")
    assert found.startswith(f"{card(demo)}: ") and not demo.output_dir.exists()


def test_a_template_of_many_comments_and_no_root_is_told_at_once(demo: Project):
    """Before: finding whether the output opens with its root tried every way of grouping its
    comments, doubling the time with each: 28 `<!---->` before a text took half a minute, 40 hours."""
    card(demo).write_text("<!---->" * 28 + "{{ item.title }}<svg/>\n")  # an icon's <svg>, after the text
    started = time.perf_counter()
    one_error(build(demo), "card/example: the template must produce an <svg> root (extend 'pnp/base.svg.j2')")
    assert time.perf_counter() - started < 10.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)


def test_a_template_that_extends_nothing_but_places_an_icon_says_to_extend_the_base(demo: Project):
    """Before: an icon's own <svg> in the blocks' text passed the root check, and the face got
    expat's "not well-formed (invalid token)" at line 1 instead."""
    card(demo).write_text(card(demo).read_text().split("\n", 1)[1])
    in_body(demo, '<svg viewBox="0 0 24 24"><path d="M2 2h20v20z"/></svg>')
    found = one_error(build(demo), "card/example: the template must produce an <svg> root (extend 'pnp/base.svg.j2')")
    assert found.startswith(f"{card(demo)}: ") and not demo.output_dir.exists()


def test_markup_in_the_background_block_says_it_takes_a_colour(demo: Project):
    """Before: a picture put in `{% block background %}` (the fill of the bleed's rectangle) gave
    expat's "not well-formed (invalid token)" alone."""
    text = card(demo).read_text()
    card(demo).write_text(text.replace("{% block background %}#fdf6e3{% endblock %}",
                                       '{% block background %}#fdf6e3<rect width="5" height="5"/>{% endblock %}'))
    line = next(n for n, t in enumerate(card(demo).read_text().splitlines(), start=1) if "block background" in t)
    refused(demo, card(demo), line, "not well-formed (invalid token): an attribute's value holds a '<': markup written into a block "
                                    "that fills an attribute (`{% block background %}` is the fill of the bleed: a colour, not elements)")


@pytest.mark.parametrize("call, message", [
    ("'Scores {pionts} points'.format(points=3)",
     "'Scores {pionts} points'.format(): no value for the placeholder {pionts}: expected one of points (did you mean 'points'?)"),
    ("'{0} and {1}'.format(3)", "'{0} and {1}'.format(): a placeholder {N} past the 1 value(s) given"),
])
def test_a_format_placeholder_no_value_fills_names_what_was_given(demo: Project, call: str, message: str):
    """Before: Python's bare `KeyError: 'pionts'` for a reference text's placeholder misspelt."""
    line = in_body(demo, "<text>{{ " + call + " }}</text>")
    refused(demo, card(demo), line, message)


def test_extending_the_base_without_its_pnp_prefix_names_it(demo: Project):
    """Before: `{% extends "base.svg.j2" %}` said only "template not found: base.svg.j2"."""
    card(demo).write_text(card(demo).read_text().replace('{% extends "pnp/base.svg.j2" %}', '{% extends "base.svg.j2" %}'))
    refused(demo, card(demo), 1, "template not found: base.svg.j2 (names are relative to the game's templates folder, "
                                 "without '..') (did you mean 'pnp/base.svg.j2'?)")
    card(demo).write_text(card(demo).read_text().replace('{% extends "base.svg.j2" %}', '{% extends "bas.svg.j2" %}'))
    assert "did you mean" not in one_error(build(demo), "template not found: bas.svg.j2")


def test_malformed_output_no_template_line_writes_is_quoted_around_the_fault(demo: Project):
    """Markup no template line could make (a record's text drawn `| safe`): the message quotes
    the output around the fault, to search the template for."""
    with_field(demo, 'mark: "<rect width=\\"5\\"\\n< height=\\"2\\"/>"')
    in_body(demo, "{{ item.mark | safe }}")
    found = one_error(build(demo), "card/example: the rendered SVG is not well-formed XML (output line ")
    assert "near '< height=\"2\"/>'): not well-formed (invalid token)" in found, found


@pytest.mark.parametrize("markup", ['<rect width="{{ 5 }}"< height="2"/>',
                                    '<text y="{{ 3 | num }}" font-size="3">{{ item.title }}</txt>'])
def test_malformed_output_of_a_line_with_values_is_at_that_line(demo: Project, markup: str):
    """Before: `card.svg.j2: card/example: ... (output line 10, near '…')`, no template line, since
    the output (values filled in) is written literally on none: the line whose text around its
    `{{ }}` is the output's. One line for every piece, as at a literal line."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "  - {id: second, title: Second, text: Another., copies: 1}\n")
    line = in_body(demo, '<text y="{{ 9 }}" font-size="3">{{ item.title }}</text>\n' + markup) + 1
    found = refused(demo, card(demo), line, "card/example (and 1 more piece): the rendered SVG is not well-formed XML: ")
    assert "output line" not in found


@pytest.mark.parametrize("separator", ["\\u2028", "\\x85"])
def test_malformed_output_after_a_text_with_a_unicode_line_separator_is_at_its_line(demo: Project, separator: str):
    """XML counts lines at its line ends alone; a title holding U+2028 or U+0085 (pasted text) made
    Python's splitlines count one more, so the output line looked up was the one before the fault's."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("title: Example Card", f'title: "Example{separator}Card"'))
    line = in_body(demo, '<rect width="{{ 5 }}"< height="2"/>')
    refused(demo, card(demo), line, "card/example: the rendered SVG is not well-formed XML: not well-formed (invalid token)")


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0c", "\x1e"])
@pytest.mark.parametrize("markup,said", [
    ('<rect width="5" height="5" fill="gold-ish"/>', "card/example: fill 'gold-ish' is not a colour"),  # a line writing it
    ('<rect width="{{ 5 }}"< height="2"/>', "card/example: the rendered SVG is not well-formed XML: "),  # a line making it
])
def test_a_template_holding_a_unicode_line_separator_is_told_at_its_editors_line(demo: Project, separator: str, markup: str,
                                                                                 said: str):
    """Jinja and editors end a line at LF, CR LF and CR alone; Python's splitlines also at U+2028,
    U+0085, a form feed..., so a template holding one (a note pasted into a comment) had its
    faults told a line further down than the editor shows them."""
    line = in_body(demo, "{# a note" + separator + "pasted #}\n" + markup) + 1
    refused(demo, card(demo), line, said)


def test_a_colour_from_a_record_is_placed_at_the_editors_line_past_a_unicode_line_separator(demo: Project):
    with_field(demo, "ink: blu")
    line = in_body(demo, '{# a note\u2028pasted #}\n<rect width="5" height="5" style="fill: {{ item.ink }}"/>') + 1
    found = one_error(build(demo), "cards.yaml:6:5: card/example: ink: ")
    assert found.endswith(f"(placed by templates/demo/card.svg.j2:{line})"), found


def test_a_style_sheets_lines_end_at_a_lone_carriage_return_too():
    """As Jinja and XML count them: before, only LF was counted, and a sheet written with CR line
    ends had every declaration told at its first line."""
    from pnp.load.paint import SHEET_PAINT
    from pnp.load.stylesheets import in_sheets

    found = [(line, column) for _, line, column in in_sheets("<style>\r a { fill: red }\r\nb { fill: #12 }</style>", SHEET_PAINT)]
    assert found == [(2, 6), (3, 5)]


def test_a_control_character_in_the_content_is_at_its_content_line(demo: Project):
    """No SVG can carry U+001B, escaped or not: the content line that holds it says so."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + '  - {id: third, title: Third, text: "bad \\x1b[31m red", copies: 1}\n')
    line = cards.read_text().count("\n")
    found = one_error(build(demo), f"cards.yaml:{line}:", "card/third: the text holds a control character (U+001B) that no SVG can carry")
    assert "placed by templates/demo/card.svg.j2" in found and not demo.output_dir.exists()


def test_two_pieces_failing_differently_at_one_line_are_two_lines(demo: Project):
    """Errors of two pieces at one template line are joined only when they say the same."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "  - {id: second, title: Second, text: Another., copies: 1, extra: 0}\n")
    line = in_body(demo, "<text>{{ 1 // (item.extra if item.extra is defined else item.missing) }}</text>")
    result = build(demo)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 2, result.output
    assert all(f"card.svg.j2:{line}: " in found for found in result.output.strip().splitlines())


def test_the_names_a_content_file_may_not_take_are_every_name_pnp_gives_a_face(demo: Project):
    """pnp/load/content.py's TEMPLATE_NAMES, refused as content file stems, are the names a
    face's template sees from pnp itself: the environment's helpers and the face's context."""
    from pnp.load.content import TEMPLATE_NAMES, load_game
    from pnp.render.faces import ComponentRenderer

    game = load_game(demo, "demo")
    renderer = ComponentRenderer(game, {}, 0.0)
    given = set(renderer.env.globals) | set(renderer.context(game.manifest.components[0], "x", {"id": "x"}, "front", 0.0))
    assert given - set(game.data) == set(TEMPLATE_NAMES)



ABSOLUTE_SAID = "a face's lengths are millimetres already, and an absolute unit would print at another size in the PDF and in each PNG: write "


@pytest.mark.parametrize("markup,message", [
    ('<text x="5" y="9" font-size="10pt">A</text>', "font-size: 10pt: " + ABSOLUTE_SAID + "3.528 (millimetres, no unit)"),
    ('<rect width="10mm" height="5"/>', "width: 10mm: " + ABSOLUTE_SAID + "10 (millimetres, no unit)"),
    ('<rect width="5" height="5" style="fill: none; stroke-width: 0.1in"/>', "stroke-width: 0.1in: " + ABSOLUTE_SAID + "2.54 (millimetres, no unit)"),
    ('<text x="5" y="9" font-size="{{ 3 * 4 }}PT">A</text>', "font-size: 12PT: " + ABSOLUTE_SAID + "4.233 (millimetres, no unit)"),
    ('<style>rect { stroke-width: 1cm }</style>', "stroke-width: 1cm: " + ABSOLUTE_SAID + "10 (millimetres, no unit)"),
])
def test_a_length_with_an_absolute_unit_is_one_line_at_the_template_line(demo: Project, markup: str, message: str):
    """Before: `font-size="10pt"` drew text 13.3 mm high in the PDF, 41.7 mm in a 300 dpi PNG
    (resvg reads absolute units at the PNG's dpi), without a word: a face's lengths are
    millimetres, and only its root's size carries a unit."""
    refused(demo, card(demo), in_body(demo, markup), message)


def test_lengths_without_a_unit_or_in_words_pass(demo: Project):
    """Unitless and relative lengths, a text that says `10pt`, an id that ends like a unit: no error."""
    in_body(demo, '<text x="5" y="9" font-size="3" letter-spacing="0.1em" id="point">10pt and 2in</text>'
                  '<rect x="1" y="1" width="50%" height="4px" stroke-dasharray="1 2"/>')
    assert build(demo).exit_code == 0
