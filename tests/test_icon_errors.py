"""An unknown icon id (the w10 new designer's defect 5) is reported at the content cell that
chose it, naming the template line that placed it; an id or set the template wrote itself, at
the template; never with a Python exception's name."""

from __future__ import annotations

import pytest
from jinja2 import TemplateRuntimeError
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.plaindata import helper
from test_hostile import one_error
from test_icon_sets import marks  # noqa: F401 (the fixture)

runner = CliRunner()


def validate(project: Project):
    return runner.invoke(app, ["validate", "--project", str(project.root)])


@pytest.mark.parametrize("written", ["rnig", "Ring", "RING"])  # before: the list alone, no icon meant
def test_an_unknown_icon_id_is_located_at_the_yaml_field(marks: Project, written: str):  # noqa: F811
    cards = marks.content_dir / "marks/cards.yaml"
    cards.write_text(cards.read_text().replace("icon: ring", f"icon: {written}"))
    line = one_error(validate(marks), f"marks/cards.yaml:3:26: card/m2: icon: no icon '{written}' in set 'marks': expected one of dot, ring "
                                      "(did you mean 'ring'?) (placed by templates/marks/card.svg.j2:1)")
    assert "Error" not in line


def test_an_unknown_icon_id_is_located_at_the_csv_cell(marks: Project):  # noqa: F811
    cards = marks.content_dir / "marks/cards.yaml"
    cards.unlink()
    (marks.content_dir / "marks/cards.csv").write_text("id,set,icon\nm1,marks,dot\nm2,shapes,circle\n")
    game = marks.content_dir / "marks/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: cards"))
    one_error(validate(marks), "marks/cards.csv:3:3: card/m2: icon: no icon 'circle' in set 'shapes': expected one of square, tri "
                               "(placed by templates/marks/card.svg.j2:1)")


@pytest.mark.parametrize("call, message", [
    ("icon('marks', 'moon', 0, 0, 5)", "card.svg.j2:1: card/m1 (and 3 more pieces): no icon 'moon' in set 'marks': expected one of dot, ring"),
    ("icon('stars', 'dot', 0, 0, 5)", "card.svg.j2:1: card/m1 (and 3 more pieces): icon(): no icon set 'stars': expected one of marks, shapes"),
    # before: a misspelt set named none meant
    ("icon('makrs', 'dot', 0, 0, 5)", "icon(): no icon set 'makrs': expected one of marks, shapes (did you mean 'marks'?)"),
])
def test_an_icon_the_template_names_is_located_at_the_template(marks: Project, call: str, message: str):  # noqa: F811
    template = marks.templates_dir / "marks/card.svg.j2"
    template.write_text(template.read_text().replace("{% endblock %}", "{{ " + call + " }}{% endblock %}"))
    line = one_error(validate(marks), message)
    assert "Error" not in line


@pytest.mark.parametrize("field", ["id", "icon"])
def test_an_id_the_template_wrote_is_at_the_template_though_a_field_holds_it(marks: Project, field: str):  # noqa: F811
    """The w10 review's finding 3: a record holding the same text (its id here, `m1`, or the
    icon field `moon`) is not where a template's own id came from."""
    cards = marks.content_dir / "marks/cards.yaml"
    cards.write_text(cards.read_text().replace("icon: dot", "icon: moon"))
    template = marks.templates_dir / "marks/card.svg.j2"
    template.write_text(template.read_text().replace("item.set, item.icon", "'marks', " + ("'m1'" if field == "id" else "'moon'")))
    ident = "m1" if field == "id" else "moon"
    line = one_error(validate(marks), f"card.svg.j2:1: card/m1 (and 3 more pieces): no icon '{ident}' in set 'marks': expected one of dot, ring")
    assert "cards.yaml" not in line


@pytest.mark.parametrize("call, message", [
    ("icon('marks', 'dot', 0, 0, 'big')", "icon(): size must be a number, got 'big'"),
    ("wrap('a b', 'wide', 3) | join", "wrap(): width must be a number, got 'wide'"),
    ("fit_size('a', 10, none)", "fit_size(): size must be a number, got None"),
    ("'3mm' | num", "num(): value must be a number, got '3mm'"),
])
def test_a_helper_given_text_for_a_number_names_itself_and_the_argument(marks: Project, call: str, message: str):  # noqa: F811
    """Before: Python's own words (`could not convert string to float: 'big'`), naming no argument."""
    template = marks.templates_dir / "marks/card.svg.j2"
    template.write_text(template.read_text().replace("{% endblock %}", "{{ " + call + " }}{% endblock %}"))
    line = one_error(validate(marks), "card.svg.j2:1: card/m1 (and 3 more pieces): " + message)
    assert "Error" not in line


def test_text_given_for_a_number_is_named_before_a_bool_given_for_another(marks: Project):  # noqa: F811
    """`size` True prints as 1; the call failed for max_lines 'x' (was: size blamed)."""
    template = marks.templates_dir / "marks/card.svg.j2"
    template.write_text(template.read_text().replace("{% endblock %}", "{{ wrap('a b', 30, true, max_lines='x') | join }}{% endblock %}"))
    one_error(validate(marks), "card.svg.j2:1: card/m1 (and 3 more pieces): wrap(): max_lines must be a number, got 'x'")


def _pips(n: int, style: str = "dots") -> str:
    if style not in ("dots", "bars"):
        raise ValueError(f"unknown style {style!r}: expected dots or bars")
    return "." * n


def _strict(n: int) -> str:
    if type(n) is not int:  # refuses a bool, as pydantic's strict ints do
        raise TypeError("expected an int")
    return "." * n


def test_a_helper_failing_for_another_reason_keeps_its_words_and_mentions_the_bool():
    """Was: `_pips(): n must be a number, got True`, hiding the style's mistake."""
    with pytest.raises(TemplateRuntimeError, match=r"^_pips\(\): unknown style 'x': expected dots or bars \(n is true, where a number belongs\)$"):
        helper(_pips)(True, style="x")
    assert helper(_pips)(True) == "."  # a bool works as the number Python counts it as


def test_a_bool_a_helper_refuses_where_a_number_belongs_is_mentioned():
    with pytest.raises(TemplateRuntimeError, match=r"^_strict\(\): expected an int \(n is true, where a number belongs\)$"):
        helper(_strict)(True)
