"""A misspelt field of a record, in `copies:` or a template (the w10 new designer's defect 2):
one line for every piece it breaks, in the designer's words (no Python type, no 'dict
object'), with the nearest field; and `item.copy`, `item.items`, `item.keys` are fields, never
the methods of Python's dict, unless called (`item.items()`)."""

from __future__ import annotations

import jinja2
import pytest
from typer.testing import CliRunner

from pnp import sandbox
from pnp.cli import app
from pnp.load.content import Project
from test_hostile import one_error

runner = CliRunner()


def more_cards(demo: Project, n: int) -> None:
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "".join(f"  - {{id: c{i}, title: C{i}, text: x, copies: 1}}\n" for i in range(n)))


def set_copies(demo: Project, expression: str) -> None:
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("copies: item.copies", f"copies: {expression}"))


def validate(demo: Project):
    return runner.invoke(app, ["validate", "--project", str(demo.root)])


@pytest.mark.parametrize("expression, problem", [
    ("item.copy", "failed: no field 'copy' (did you mean 'copies'?)"),
    ("item.copise", "failed: no field 'copise' (did you mean 'copies'?)"),
    ("item['copy']", "failed: no field 'copy' (did you mean 'copies'?)"),
    ("item.keys", "failed: no field 'keys' (fields: id, title, text, copies)"),
    ("six", "failed: 'six' is undefined"),
])
def test_a_copies_typo_is_one_line_for_every_item(demo: Project, expression: str, problem: str):
    more_cards(demo, 27)
    set_copies(demo, expression)
    line = one_error(validate(demo), "game.yaml:", f"for item 'example' (and 27 more pieces) {problem}: expected a whole number >= 0")
    for python in ("builtin", "method", "dict object", "Error"):
        assert python not in line


def test_copies_that_are_no_number_are_named_without_python_types(demo: Project):
    set_copies(demo, "item.copies.x if false else [1, 2]")
    one_error(validate(demo), "copies expression", "for item 'example' gave a list of 2: expected a whole number >= 0")


def test_copies_that_fail_are_negative_or_a_record_are_one_located_line(demo: Project):
    """A record's negative count (at the record's `copies`, read by `copies: item.copies`),
    the record itself, an expression that fails outside Jinja (`/ 0`): the designer's line,
    in their words."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("copies: 3", "copies: -1"))
    one_error(validate(demo), "cards.yaml:5:5: ", "copies expression 'item.copies' for item 'example' gave -1: expected a whole number >= 0")
    game = demo.content_dir / "demo/game.yaml"
    original = game.read_text()
    for expression, problem in [("item", "gave a record"), ("item.copies / 0", "failed: division by zero")]:
        game.write_text(original.replace("copies: item.copies", f"copies: {expression}"))
        one_error(validate(demo), "game.yaml:", f"copies expression {expression!r} for item 'example' {problem}: expected a whole number >= 0")


@pytest.mark.parametrize("cell, words", [
    ("1000000", "1,000,000 copies of 'example' in 'card', more than 1,000: the limit for a build"),
    ("-2", "copies expression 'item.copies' for item 'example' gave '-2': expected a whole number >= 0"),
])
def test_a_wrong_count_in_a_csv_is_told_at_its_cell(demo: Project, cell: str, words: str):
    """A new designer's deck from a CSV: a count typed wrong in a row was told at game.yaml's
    `copies: item.copies`, where nothing is wrong; it is told at the row's cell now (and
    an expression's wrong count, `copies: item.copies * 1000`, still at game.yaml)."""
    (demo.content_dir / "demo/cards.yaml").unlink()
    (demo.content_dir / "demo/cards.csv").write_text(f"id,title,text,copies\r\nexample,Example,Some text.,{cell}\r\n")
    set_copies(demo, "item.copies")
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: cards"))
    one_error(validate(demo), "cards.csv:2:4: ", words)
    if cell == "1000000":
        set_copies(demo, "item.copies * 1")
        one_error(validate(demo), "game.yaml:", words)


def test_a_csv_without_the_count_column_is_one_line_for_every_row(demo: Project):
    """Before: one line for the rows with text and another for those leaving it empty, their
    field lists differing (`fields: id, title` and `fields: id, title, text`)."""
    (demo.content_dir / "demo/cards.yaml").unlink()
    (demo.content_dir / "demo/cards.csv").write_text("id,title,text\r\na,A,Some text.\r\nb,B,\r\nc,C,More.\r\n")
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: cards"))
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("wrap(item.text,", "wrap(item.text | default(''),"))
    one_error(validate(demo), "game.yaml:", "for item 'a' (and 2 more pieces) failed: no field 'copies' (fields: id, title, text)")


def test_a_literal_items_list_with_a_repeated_id_names_the_items_line(demo: Project):
    """Records written in `items:` itself have no line of their own: the repeat is told at `items:`."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: \"[{'id': 'a', 'copies': 1}, {'id': 'a', 'copies': 1}]\""))
    result = validate(demo)
    assert result.exit_code == 2
    assert any(line.endswith("content/demo/game.yaml:8:5: item id 'a' appears twice in 'card': expected unique ids")
               for line in result.output.splitlines()), result.output


def test_a_record_without_an_id_is_told_at_the_record_with_what_it_holds(demo: Project):
    """`items:` one level too high (the file's mapping, not its list) gives a record of
    records; a record that lacks `id` is named by its place and keys, at its line (it said
    "item None")."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: cards"))
    one_error(validate(demo), "cards.yaml:", "item 1 of 'card' is a list of 1, not a record: expected a list of records with an `id`")
    game.write_text(game.read_text().replace("items: cards", "items: cards.cards"))
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("id: example", "name: example"))
    one_error(validate(demo), "cards.yaml:", "item 1 of 'card' has no `id` (its keys: name, ")
    # a whole file without ids (a CSV without its id column) is one line, not one a row
    cards.write_text(cards.read_text() + "".join(f"  - {{title: C{i}, text: x, copies: 1}}\n" for i in range(30)))
    one_error(validate(demo), "cards.yaml:", "item 1 of 'card' has no `id` (its keys: name, ", "(and 30 more items without one): expected every record")


def test_a_misspelt_name_names_the_one_meant(demo: Project):
    """Before: `'itme' is undefined`, `'card' is undefined`, where a misspelt field names the field meant."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", "{{ itme.title }}"))
    one_error(validate(demo), "card.svg.j2:6: card/example: 'itme' is undefined (did you mean 'item'?)")
    template.write_text(template.read_text().replace("{{ itme.title }}", "{{ item.title }}"))
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: card.cards"))
    one_error(validate(demo), "game.yaml:", "items expression 'card.cards' failed: 'card' is undefined (did you mean 'cards'?)")


def test_a_template_field_typo_names_the_nearest_field(demo: Project):
    more_cards(demo, 4)
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", "{{ item.titel }}"))
    one_error(validate(demo), "card.svg.j2:6: card/example (and 4 more pieces): no field 'titel' (did you mean 'title'?)")


@pytest.mark.parametrize("filter_", ["first", "last"])
def test_a_lookup_that_matches_no_record_says_so_in_the_designers_words(demo: Project, filter_: str):
    """`selectattr(...) | first`, the lookup writing-games.md teaches, of an id no record has
    (a misspelt cell): Jinja's 'No first item, sequence was empty.' said what, not why."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace(
        "{{ item.title }}", f"{{{{ (cards.cards | selectattr('id', 'equalto', 'exampel') | {filter_}).title }}}}"))
    line = one_error(validate(demo), f"card.svg.j2:6: card/example: `| {filter_}` of an empty list gave nothing",
                     "a `selectattr` that matched no record")
    assert "sequence was empty" not in line


def test_last_takes_what_selectattr_gives_as_first_does():
    env = sandbox.environment()
    records = [{"id": "a", "kind": "x"}, {"id": "b", "kind": "y"}, {"id": "c", "kind": "x"}]
    assert env.from_string("{{ (rs | selectattr('kind', 'equalto', 'x') | last).id }}").render(rs=records) == "c"
    assert env.from_string("{{ 'abc' | last }}{{ (1, 2) | last }}").render() == "c2"


@pytest.mark.parametrize("filter_", ["first", "last"])
def test_a_list_whose_end_item_is_undefined_is_no_empty_list(filter_: str):
    """`map(attribute='titel') | first` of records that lack the field: the list is not empty,
    its item is the undefined field. Before: '`| first` of an empty list gave nothing (a
    `selectattr` that matched no record ...)', hiding the misspelt field."""
    env = sandbox.environment()
    records = [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}]
    with pytest.raises(jinja2.UndefinedError, match="no field 'titel' \\(did you mean 'title'\\?\\)"):
        env.from_string("{{ rs | map(attribute='titel') | %s }}" % filter_).render(rs=records)
    with pytest.raises(jinja2.UndefinedError, match="of an empty list gave nothing"):  # an empty one still says so
        env.from_string("{{ rs | selectattr('id', 'equalto', 'z') | %s }}" % filter_).render(rs=records)


@pytest.mark.parametrize("name", ["copy", "items", "keys", "values", "get", "pop"])
def test_a_dict_method_name_is_no_field_unless_called(name: str):
    env = sandbox.environment()
    with pytest.raises(jinja2.UndefinedError, match=f"no field '{name}'"):
        env.from_string("{{ item.%s }}" % name).render(item={"id": "a"})
    with pytest.raises(jinja2.UndefinedError, match=f"no field '{name}'"):
        env.from_string("{{ item['%s'] }}" % name).render(item={"id": "a"})
    assert env.compile_expression(f"item.{name} is defined")(item={"id": "a"}) is False


def test_called_dict_methods_still_work_and_a_field_of_the_same_name_wins():
    env = sandbox.environment()
    record = {"id": "a", "n": 2}
    assert env.from_string("{% for k, v in item.items() %}{{ k }}={{ v }};{% endfor %}").render(item=record) == "id=a;n=2;"
    assert env.from_string("{{ item.keys() | list }} {{ item.get('n') }} {{ item.get('x', 0) }}").render(item=record) == "['id', 'n'] 2 0"
    assert env.from_string("{{ item.copy }} {{ item.items | join(',') }}").render(item={"copy": 3, "items": ["x", "y"]}) == "3 x,y"
    assert env.from_string("{{ a.b.get('c') }}").render(a={"b": {"c": 1}}) == "1"  # only the called name is a method


def test_the_field_list_is_cut_short():
    env = sandbox.environment()
    record = {f"f{n:02}": n for n in range(20)}
    with pytest.raises(jinja2.UndefinedError) as info:
        env.from_string("{{ item.zzz }}").render(item=record)
    assert info.value.message == "no field 'zzz' (fields: " + ", ".join(f"f{n:02}" for n in range(12)) + ", …)"


def test_a_method_by_subscript_is_no_field():
    """`item['pop']` names a field, as `item.pop` does: the method is never reached."""
    env = sandbox.environment()
    record = {"id": "a"}
    with pytest.raises(jinja2.UndefinedError, match="no field 'pop'"):
        env.from_string("{{ item['pop']('id') }}").render(item=record)
    assert record == {"id": "a"}
    assert env.from_string("{{ (item | attr('keys'))() | list }}").render(item=record) == "['id']"  # `attr` is Python's attribute


def test_an_items_expression_that_is_no_list_is_named_without_python_types(demo: Project):
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: cards.cards[0].title"))
    one_error(validate(demo), "game.yaml:", "items expression 'cards.cards[0].title' gave 'Example Card': expected a list of records with an `id`")


@pytest.mark.parametrize("expression, shown", [
    ("cards.cards | map(attribute='id')", "a sequence made as it is read (make it a list: `| list`)"),
    ("cards.cards | map(attribute='id') | unique", "a sequence made as it is read (make it a list: `| list`)"),
    ("range", "a function or macro, not called (add its `()`)"),
])
def test_an_items_expression_giving_no_list_says_what_it_gave(demo: Project, expression: str, shown: str):
    """The w10 review's finding 10: what is neither a list nor a number is not called "no number"."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", f'items: "{expression}"'))
    one_error(validate(demo), "game.yaml:", f"items expression {expression!r} gave {shown}: expected a list of records with an `id`")


def test_a_set_or_an_unknown_kind_is_named():
    from pnp.plan import _shown

    assert _shown({3, 1}) == "a set of 2 (no order: sort it into a list, `| sort`)"
    assert _shown(1j) == "a value of another kind (complex)"


TYPO_WARNING = ("card.svg.j2:6: warning: item.titel is in no record of card (did you mean 'title'?); "
                "`| default('')` printed nothing")


def misspell_under_default(demo: Project) -> None:
    """`{{ item.title }}` of the demo's card misspelt, behind a `default`: every card printed blank."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", "{{ item.titel | default('') }}"))


def test_a_misspelt_field_behind_default_is_one_warning_at_its_line(demo: Project):
    """Before: `default` swallowed the misspelt field and every card shipped without its title,
    without a word. Now one warning for all the cards, at the template line; the build goes on."""
    more_cards(demo, 4)
    misspell_under_default(demo)
    result = validate(demo)
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if "warning" in line] == [result.output.splitlines()[0]]
    assert result.output.splitlines()[0].endswith(TYPO_WARNING) and result.output.splitlines()[1] == "ok"
    built = runner.invoke(app, ["build", "--project", str(demo.root), "--format", "svg"])
    assert built.exit_code == 0 and built.output.splitlines()[0].endswith(TYPO_WARNING), built.output
    quiet = runner.invoke(app, ["build", "--project", str(demo.root), "--format", "svg", "-q"])
    assert quiet.exit_code == 0 and quiet.output == ""


@pytest.mark.parametrize("guard, how", [
    ("{{ item.titel | d('?') }}", "`| d('?')` printed its default on every piece"),
    ("{{ item.titel | d }}", "`| d` printed nothing"),  # before: "`| d('')`", an argument the template did not write
    ("{{ item.titel | default }}", "`| default` printed nothing"),
    ("{% if item.titel is defined %}{{ item.titel }}{% endif %}", "`is defined` was false on every piece"),
])
def test_a_field_one_record_has_gives_no_warning(demo: Project, guard: str, how: str):
    """A template shared by records that differ may guard a field some lack: a field of one
    record (or a column of its file, every cell of it empty) is no typo."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", guard))
    result = validate(demo)
    assert result.exit_code == 0 and f"card.svg.j2:6: warning: item.titel is in no record of card (did you mean 'title'?); {how}" in result.output
    more_cards(demo, 3)
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "  - {id: other, title: Other, titel: Other, text: x, copies: 1}\n")
    assert validate(demo).output == "ok\n"
    (demo.content_dir / "demo/cards.csv").write_text("id,title,titel,text,copies\r\nexample,Example,,Some text.,1\r\n")
    cards.unlink()
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", "items: cards"))
    assert validate(demo).output == "ok\n"


def test_the_warning_is_told_again_by_a_build_that_renders_no_face(demo: Project):
    """A rebuild whose faces all come from the cache, and one answered from the last build's
    record (pnp/build/witness.py), warn as the first build did: the warning is read from the
    templates and records, not from a face rendering."""
    import os
    import subprocess
    import sys

    from test_witness import CHILD, REPO, answered

    misspell_under_default(demo)

    def build(*args: str) -> tuple[list[str], list[str]]:
        done = subprocess.run([sys.executable, "-c", CHILD, "build", "-p", str(demo.root), *args], capture_output=True, text=True,
                              cwd=demo.root, env={**os.environ, "PYTHONPATH": str(REPO)})
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines(), done.stderr.splitlines()

    first = build()
    assert "2 faces rendered" in first[0][0] and first[1] == ["templates/demo/" + TYPO_WARNING]
    again = build()
    assert answered(again[0]) and again[1] == first[1]
    cached = build("--format", "svg")  # another command: built, its faces from the cache
    assert "0 faces rendered" in cached[0][0] and cached[1] == first[1]


def test_the_shipped_games_guard_no_field_their_records_all_lack():
    """Their scoring sheets test `item.table is defined`, a field `pnp sheet --table` gives the
    sheet's record (pnp/score/dispatch.py): no typo, no warning."""
    from conftest import REPO

    result = runner.invoke(app, ["validate", "--project", str(REPO)])
    assert (result.exit_code, result.output) == (0, "ok\n")


def test_the_guards_kept_between_runs_follow_the_templates_text(demo: Project):
    """What a template guards is kept between runs (pnp/bytecode.py `kept_code`), keyed by its
    text: a typo fixed, or moved to another line, is read anew the next run."""
    misspell_under_default(demo)
    assert TYPO_WARNING in validate(demo).output
    assert TYPO_WARNING in validate(demo).output  # the second time from what was kept
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{% block body %}", "{% block body %}\n"))
    assert TYPO_WARNING.replace("card.svg.j2:6:", "card.svg.j2:7:") in validate(demo).output
    template.write_text(template.read_text().replace("item.titel", "item.title"))
    assert validate(demo).output == "ok\n"


def test_the_templates_a_template_names_are_read_as_jinja_reads_them():
    """Each build reads the templates a face template names (pnp/render/faces.py
    `_referenced`) from their statements without parsing: the same names Jinja's syntax tree
    gives, for every shipped template, and Jinja's own reading where a name is no literal."""
    import jinja2.meta

    from conftest import REPO
    from pnp.render.faces import REFERENCE

    env = jinja2.Environment()
    for path in [*REPO.glob("templates/**/*.j2"), *REPO.glob("pnp/**/*.j2")]:
        text = path.read_text(encoding="utf-8")
        assert sorted(m["name"] for m in REFERENCE.finditer(text)) == sorted(jinja2.meta.find_referenced_templates(env.parse(text))), path
    assert [m["name"] for m in REFERENCE.finditer("{%- include ['a.j2', 'b.j2'] %}{% import name as m %}")] == [None, None]


def include_in_card(demo: Project, statement: str, part: str = "<text y=\"40\">{{ item.titel | default('') }}</text>\n") -> None:
    """The demo's card with `statement` after its text, and `part.svg.j2` guarding a misspelt field."""
    (demo.templates_dir / "demo/part.svg.j2").write_text(part)
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{% endfor %}\n", "{% endfor %}\n" + statement + "\n"))


PART_WARNING = "part.svg.j2:1: warning: item.titel is in no record of card (did you mean 'title'?); `| default('')` printed nothing"


@pytest.mark.parametrize("statement, warned", [
    ('{% include "part.svg.j2" %}', True),
    ('{{ "{#" }}{% include "part.svg.j2" %}{{ "#}" }}', True),  # no comment: a quoted `{#` starts none
    ('{# {% include "part.svg.j2" %} #}', False),  # commented out: Jinja never reads part.svg.j2
    ('{% raw %}{% include "part.svg.j2" %}{% endraw %}', False),
])
def test_a_template_named_in_a_comment_is_not_read_as_one_the_face_includes(demo: Project, statement: str, warned: bool):
    """Before: `REFERENCE` read a statement commented out (or in a raw block) as one Jinja
    follows, and warned of a typo in a template no face renders."""
    include_in_card(demo, statement)
    result = validate(demo)
    assert result.exit_code == 0 and (PART_WARNING in result.output) == warned, result.output


def test_a_name_that_is_no_lone_literal_is_read_by_jinja():
    """`"a" ~ b`, `"a" if x else "b"` and Jinja's `"a" "b"` (one string, "ab") name no template
    the statement's first string names: their names are Jinja's reading (None: no literal)."""
    from pnp.render.faces import REFERENCE

    texts = ['{% include "a" ~ b %}', '{% extends "a" if x else "b" %}', '{% include "a" "b" %}']
    assert [m["name"] for text in texts for m in REFERENCE.finditer(text)] == [None, None, None]
    alone = ['{% include "a" ignore missing with context %}', '{% import "a" as m %}', '{% from "a" import m %}', '{%- extends "a" -%}']
    assert [m["name"] for text in alone for m in REFERENCE.finditer(text)] == ["a"] * 4


def test_a_template_no_face_reaches_may_not_parse(demo: Project):
    """A template named under `{% if false %}` is never loaded, so its syntax error is never
    told; reading what it names for the warnings (its reference no literal) parsed it, and
    `pnp validate` ended with an internal error (exit 3)."""
    include_in_card(demo, '{% if false %}{% include "part.svg.j2" %}{% endif %}', part="{% include name %}{% if %}\n")
    result = validate(demo)
    assert (result.exit_code, result.output) == (0, "ok\n")


@pytest.mark.parametrize("part", ["link", "binary"])
def test_a_template_no_face_reaches_may_be_unreadable(demo: Project, part: str):
    """Reading the templates a face names for the warnings read one named under `{% if false %}`
    too, which Jinja never loads: a link out of the project or a file not UTF-8 ended
    `pnp validate` with an internal error (exit 3)."""
    include_in_card(demo, '{% if false %}{% include "other.svg.j2" %}{% endif %}')
    other = demo.templates_dir / "demo/other.svg.j2"
    if part == "link":
        outside = demo.root.parent / "outside.svg.j2"
        outside.write_text("<text/>\n")
        other.symlink_to(outside)
    else:
        other.write_bytes(b"\xff\xfe not UTF-8")
    result = validate(demo)
    assert (result.exit_code, result.output) == (0, "ok\n")


def test_a_template_included_where_item_is_no_record_is_not_warned_of(demo: Project):
    """Before: a part included in `{% for item in ... %}` (a reference card's rows) was read as
    guarding the piece's record, and a field of the loop's items warned of as a typo. The same
    part included where `item` is the record is still read (included in both: not, as `item`
    there may have the field)."""
    loop = '{% for item in [{"titel": "row"}] %}{% include "part.svg.j2" %}{% endfor %}'
    include_in_card(demo, loop)
    assert validate(demo).output == "ok\n"
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace(loop, '{% include "part.svg.j2" %}'))
    assert PART_WARNING in validate(demo).output


@pytest.mark.parametrize("opened", ["{#", "{% raw %}"])
def test_comments_never_closed_are_read_in_linear_time(demo: Project, opened: str):
    """Before: each `{#` of a template's `{#{#{#...` (no `#}`) read the rest of it again to find
    where the comment ends: a 1 MiB template, within the limits, took the best part of an hour."""
    import time

    include_in_card(demo, '{% if false %}{% include "part.svg.j2" %}{% endif %}', part="{% include name %}" + opened * 40_000)
    started = time.perf_counter()
    result = validate(demo)
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)
    assert (result.exit_code, result.output) == (0, "ok\n")


def test_a_field_guarded_on_two_lines_is_one_warning_at_the_fields_line(demo: Project):
    """Before: a guard run on to the next line was warned of at the `| default` line, and the
    same field guarded again elsewhere in the template was a second warning. Now one, at the
    first line with the field, naming the other."""
    template = demo.templates_dir / "demo/card.svg.j2"
    text = template.read_text().replace("{{ item.title }}", "{{ item.titel\n | default('') }}")
    template.write_text(text.replace("fit_size(item.title,", "fit_size(item.titel | default(''),"))
    result = validate(demo)
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if "warning" in line]
    assert len(warned) == 1 and warned[0].endswith(
        "card.svg.j2:5: warning: item.titel is in no record of card (did you mean 'title'?); "
        "`| default('')` printed nothing (guarded again at line 6)"), warned
    template.write_text(text)  # the guard alone: at the field's line, not the filter's
    assert validate(demo).output.splitlines()[0].endswith(TYPO_WARNING)
