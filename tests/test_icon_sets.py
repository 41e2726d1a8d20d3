"""Icon sets: an edited icon re-renders exactly the faces that draw it (the build cache and
the no-op answer of `pnp build`), and malformed SVG path data is refused where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_watch import _watching, save
from test_witness import answered, pnp

from pnp.build.driver import BuildOptions, build
from pnp.errors import PnpError
from pnp.load.content import Project, load_game
from pnp.load.svgpath import path_problem

GAME_YAML = """\
title: Marks
icons:
  marks: {file: marks.yaml}
  shapes: {folder: icons}
components:
  - id: card
    name: Cards
    size: poker
    items: cards.cards
    front: card.svg.j2
  - id: token
    name: Tokens
    size: 30mm x 30mm
    items: cards.cards
    front: token.svg.j2
"""
CARDS = """\
cards:
  - {id: m1, set: marks, icon: dot}
  - {id: m2, set: marks, icon: ring}
  - {id: s1, set: shapes, icon: square}
  - {id: s2, set: shapes, icon: tri}
"""
MARKS = """\
dot: {d: "M0 5 A5 5 0 1 0 10 5 A5 5 0 1 0 0 5", fill: "#ff0000", viewbox: "0 0 10 10"}
ring: "M12 2a10 10 0 1 0 0.01 0z"
"""
# in a loop: Jinja hands icon() a context of the loop's variables over the face's
CARD = '{% extends "pnp/base.svg.j2" %}{% block body %}{% for x in [5, 30] %}{{ icon(item.set, item.icon, x, 5, 20) }}{% endfor %}{% endblock %}'
TOKEN = '{% extends "pnp/base.svg.j2" %}{% block body %}<text x="5" y="15" font-size="5">{{ item.id }}</text>{% endblock %}'


def shape(fill: str, d: str = "M1 1h8v8H1z") -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path fill="{fill}" d="{d}"/></svg>\n'


@pytest.fixture
def marks(tmp_path: Path) -> Project:
    """Cards drawing one icon each, two of a YAML set and two of a folder set; tokens of the
    same records drawing none."""
    project = Project(tmp_path / "proj")
    content, templates = project.content_dir / "marks", project.templates_dir / "marks"
    (content / "icons").mkdir(parents=True)
    templates.mkdir(parents=True)
    for name, text in {"game.yaml": GAME_YAML, "cards.yaml": CARDS, "marks.yaml": MARKS,
                       "icons/square.svg": shape("#00aa00"), "icons/tri.svg": shape("#0000aa", "M5 1L9 9H1z")}.items():
        (content / name).write_text(text)
    (templates / "card.svg.j2").write_text(CARD)
    (templates / "token.svg.j2").write_text(TOKEN)
    return project


def test_an_icon_file_named_in_capitals_is_an_icon(marks: Project):
    """`tri.SVG` (as some tools save it) was neither read nor refused: the icon was then unknown."""
    icons = marks.content_dir / "marks" / "icons"
    (icons / "tri.svg").rename(icons / "tri.SVG")
    assert "tri" in load_game(marks, "marks").icons["shapes"]


def svg_build(project: Project) -> int:
    """Faces rendered by an SVG build."""
    (report,) = build(project, None, BuildOptions(formats=("svg",)))
    return report.rendered


def face(project: Project, ident: str) -> str:
    return (project.output_dir / f"marks/svg/card/{ident}.svg").read_text()


EDITS = {  # the set's file, the text before and after, the card drawing that icon
    "file": ("marks.yaml", "#ff0000", "#0000ff", "m1"),
    "folder": ("icons/square.svg", "#00aa00", "#aa00aa", "s1"),
}


@pytest.mark.parametrize("kind", EDITS)
def test_editing_an_icon_rerenders_the_faces_that_draw_it_alone(marks: Project, kind: str):
    name, before, after, card = EDITS[kind]
    assert svg_build(marks) == 8
    assert before in face(marks, card)
    others = {ident: face(marks, ident) for ident in ("m1", "m2", "s1", "s2") if ident != card}
    path = marks.content_dir / "marks" / name
    path.write_text(path.read_text().replace(before, after))
    assert svg_build(marks) == 1  # the card drawing it; not the other icons' cards nor the tokens
    assert after in face(marks, card) and before not in face(marks, card)
    assert {ident: face(marks, ident) for ident in others} == others
    assert svg_build(marks) == 0


def test_adding_an_icon_to_a_set_keeps_the_faces_of_other_sets(marks: Project):
    svg_build(marks)
    (marks.content_dir / "marks/icons/star.svg").write_text(shape("#123456", "M5 0L6 4H10L7 6L8 10L5 8L2 10L3 6L0 4H4z"))
    assert svg_build(marks) == 2  # the two shapes cards (they read which ids the set has); the marks cards and tokens stay


@pytest.mark.parametrize("kind", EDITS)
def test_the_no_op_answer_of_pnp_build_sees_an_edited_icon(marks: Project, kind: str):
    name, before, after, card = EDITS[kind]
    pnp(marks, "--format", "svg")
    assert answered(pnp(marks, "--format", "svg"))
    path = marks.content_dir / "marks" / name
    path.write_text(path.read_text().replace(before, after))
    again = pnp(marks, "--format", "svg")
    assert not answered(again) and ", 1 face rendered" in again[0]
    assert after in face(marks, card)


def test_watch_rebuilds_the_face_of_an_edited_icon(marks: Project):
    for lines in _watching(marks, BuildOptions(formats=("svg",))):
        for name, before, after, card in EDITS.values():
            path, start = marks.content_dir / "marks" / name, len(lines.lines)
            save(path, path.read_text().replace(before, after))
            at = lines.wait_for("marks: rebuilt", lines.wait_for(f"content/marks/{name}", start))
            assert lines.lines[at][0].startswith(f"marks: rebuilt 1 file (1 face rendered, ") and lines.lines[at][0].endswith(f"svg/card/{card}.svg")
            assert after in face(marks, card)


@pytest.mark.parametrize("d", [
    "M0,0L10-5.5e1z",  # compact: a sign or a second point ends a number
    "M0 0a5 5 0 1 0 10 0",
    "M0 0a5 5 0 1110 10",  # flags need no separator
    "M 1 2 L 3 4 5 6 Z",  # implicit repeats
    "m1 2h3v4H1V2zM0 0C1 2 3 4 5 6s1 2 3 4Q1 2 3 4t5 6T1 1l2 2",
    "M.5.5l.5-.5 1e2,2E-1 +3-4",
    "\tM0 0\n  L1 1 ,2 2 z  ",
    "M0 0zL1 1",  # after closepath, any command
])
def test_well_formed_path_data_of_every_command_is_accepted(d: str):
    assert path_problem(d) is None


@pytest.mark.parametrize("d, problem", [
    ("not a path at all", "expected a moveto (M or m) to begin at character 1, found 'not a path a'..."),
    ("", "expected a moveto (M or m) to begin at character 1, found the end"),
    ("a5 5 0 1 0 10 0", "expected a moveto (M or m) to begin"),
    ("M0", "expected a number (argument 2 of 2 of M, moveto) at character 3, found the end"),
    ("M0 0 L", "expected a number (argument 1 of 2 of L, lineto) at character 7"),
    ("M0 0c1 2 3 4 5", "expected a number (argument 6 of 6 of c, curveto) at character 15, found the end"),
    ("M0 0 a5 5 0 2 0 10 0", "expected a flag, 0 or 1 (argument 4 of 7 of a, arc) at character 13, found '2 0 10 0'"),
    ("M0 0z 5", "expected a path command (one of MmLlHhVvCcSsQqTtAaZz) at character 7, found '5'"),
    ("M0 0 X1 1", "expected a path command (one of MmLlHhVvCcSsQqTtAaZz) at character 6"),
    ("M,0 0", "expected a number (argument 1 of 2 of M, moveto) at character 2"),
    ("M0 0,", "expected a number after ',' at character 6"),
    ("M0 0,,1 1", "expected a number after ',' at character 6, found ',1 1'"),
    ("M0 0 L1 1 Q1 2 3", "expected a number (argument 4 of 4 of Q, quadratic curveto) at character 17"),
    ("M0 0 H", "expected a number (argument 1 of 1 of H, horizontal lineto)"),
    ("M1.2.3e", "expected a path command (one of MmLlHhVvCcSsQqTtAaZz) at character 7, found 'e'"),  # M1.2 .3, then e
    ("M0 0L１ 1", "expected a number (argument 1 of 2 of L, lineto) at character 6"),  # a full-width digit
])
def test_malformed_path_data_is_refused_saying_where(d: str, problem: str):
    found = path_problem(d)
    assert found is not None and found.startswith(problem)


def errors_of(project: Project) -> list[str]:
    with pytest.raises(PnpError) as info:
        load_game(project, "marks")
    return [str(e) for e in info.value.errors]


def test_a_malformed_icon_path_is_an_error_at_its_line(marks: Project):
    (marks.content_dir / "marks/marks.yaml").write_text('dot: "not a path at all"\nring:\n  fill: red\n  d: "M0 0 a5 5 0 2 0 10 0"\n')
    dot, ring = errors_of(marks)
    assert dot.endswith("/content/marks/marks.yaml:1:1: icon 'dot': SVG path data: expected a moveto (M or m) to begin at character 1, "
                        "found 'not a path a'...")
    assert ring.endswith("/content/marks/marks.yaml:4:3: icon 'ring': SVG path data: expected a flag, 0 or 1 (argument 4 of 7 of a, arc) "
                         "at character 13, found '2 0 10 0'")


def test_a_malformed_path_in_an_svg_icon_file_is_an_error_at_its_element(marks: Project):
    (marks.content_dir / "marks/icons/tri.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n  <path d="M0 0h5"/> <path fill="red"\n d="M0 0 L5"/>\n</svg>\n')
    (error,) = errors_of(marks)
    assert error.endswith("/content/marks/icons/tri.svg:2:22: <path> d: SVG path data: expected a number (argument 2 of 2 of L, lineto) "
                          "at character 8, found the end")


@pytest.mark.parametrize("where, text", [
    ("marks.yaml", 'dot: "M0 0 L5"\nring: "M0 0h1"\n'),
    ("icons/tri.svg", shape("#000", "M5 1L9")),
])
def test_pnp_build_and_validate_refuse_a_malformed_icon_path_and_write_nothing(marks: Project, where: str, text: str):
    from typer.testing import CliRunner

    from pnp.cli import app

    (marks.content_dir / "marks" / where).write_text(text)
    for command in ("build", "validate"):
        done = CliRunner().invoke(app, [command, "-p", str(marks.root)])
        assert done.exit_code == 2 and f"content/marks/{where}:" in done.output and "Traceback" not in done.output
        assert len(done.output.strip().splitlines()) == 1
    assert not (marks.output_dir / "marks").exists()
