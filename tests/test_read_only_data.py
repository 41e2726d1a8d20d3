"""Templates and expressions may not change the game's data (pnp/sandbox.py, `given`): every
face of a build shares it, so a change would make a face depend on the faces rendered before
it, and a cached build (whose cached faces do not run) differ from a cold one. What a
template makes itself (`[]`, `{}`, `dict()`, `namespace()`, a filter's new list) stays its
own to change."""

from __future__ import annotations

import re

import pytest
from jinja2.exceptions import SecurityError
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.plaindata import Copier
from pnp.sandbox import environment
from test_attacks_exec import GENERATE, set_manifest
from test_hostile import one_error

runner = CliRunner()
READ_ONLY = "the game's data is read only"

# a plugin whose context and template globals hand the templates data of their own
PLUGIN = """\
from pnp.api import GamePlugin


def context(game, options):
    return {"extras": {"tags": ["a", "b"]}, "order": [3, 1, 2]}


PLUGIN = GamePlugin(context=context, template_globals={"table": {"rows": [1, 2]}})
"""

# what a face does -> (the method, the kind of container it would change)
REFUSED = {
    "append to a nested list of the item": ("item.tags.append('x')", "append", "list"),
    "update the item": ("item.update({'title': 'Y'})", "update", "dict"),
    "setdefault on the item": ("item.setdefault('x', 1)", "setdefault", "dict"),
    "pop a field of a content record": ("cards.cards[0].pop('title')", "pop", "dict"),
    "sort a content list": ("cards.cards.sort(attribute='id')", "sort", "list"),
    "clear the component": ("component.clear()", "clear", "dict"),
    "popitem of the options": ("options.popitem()", "popitem", "dict"),
    "extend a plugin context value": ("extras.tags.extend(['c'])", "extend", "list"),
    "reverse a plugin context list": ("order.reverse()", "reverse", "list"),
    "remove from a plugin template global": ("table.rows.remove(1)", "remove", "list"),
    "insert through a filter's answer": ("(cards.cards | first).tags.insert(0, 'x')", "insert", "list"),
    "a shared record in the template's own list": ("[item][0].update(a=1)", "update", "dict"),
    "the attr filter": ("(item | attr('update'))(a=1)", "update", "dict"),
}


@pytest.fixture
def game(demo: Project, trusted) -> Project:
    """The demo game with a nested list in its card and a trusted plugin."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("    copies: 3", "    copies: 3\n    tags: [red, blue]"))
    (demo.root / "plugins").mkdir()
    (demo.root / "plugins/demo.py").write_text(PLUGIN)
    set_manifest(demo, "components:", "plugin: plugins/demo.py\ncomponents:")
    return trusted(demo)


def face_does(project: Project, statement: str) -> int:
    """Add `statement` to the card's front as a line of its own; that line's number."""
    template = project.templates_dir / "demo/card.svg.j2"
    head, _, tail = template.read_text().rpartition("{% endblock %}")
    template.write_text(head + statement + "\n{% endblock %}" + tail)
    return head.count("\n") + 1


def pnp(project: Project, *args: str):
    return runner.invoke(app, [*args, "--project", str(project.root)])


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_template_cannot_change_data_it_was_given(game: Project, name: str):
    expression, method, kind = REFUSED[name]
    line = face_does(game, "<text>{% set _ = " + expression + " %}</text>")
    one_error(pnp(game, "validate"), f"card.svg.j2:{line}: card/example: {READ_ONLY}: `{method}` would change a {kind}",
              "change a copy")


@pytest.mark.parametrize("args", [("build", "-f", "svg"), ("build", "-f", "svg", "--force"), ("preview", "-q")])
def test_every_render_path_refuses_it(game: Project, args: tuple[str, ...]):
    """With the build cache on or off, and in the preview: the same one located line."""
    line = face_does(game, "{% set _ = item.tags.append('x') %}")
    one_error(pnp(game, *args), f"card.svg.j2:{line}: card/example: {READ_ONLY}: `append` would change a list")
    assert not list(game.output_dir.rglob("*.svg"))


def test_a_template_changes_what_it_made_itself(game: Project):
    face_does(game, "{% set own = [] %}{% set _ = own.append(item.title) %}"
                    "{% set d = {} %}{% set _ = d.update(n=2) %}{% set _ = d.setdefault('m', []).append(3) %}"
                    "{% set copy = dict(item) %}{% set _ = copy.update(title='Y') %}{% set _ = copy.tags.append('x') %}"
                    "{% set tags = item.tags | list %}{% set _ = tags.append('green') %}{% set _ = tags.sort() %}"
                    "{% set ns = namespace(rows=table.rows) %}{% set _ = ns.rows.append(9) %}{% set ns.n = 1 %}"
                    "<text>{{ own | join }}|{{ d.n }}{{ d.m | join }}|{{ copy.title }} {{ copy.tags | join(',') }}|"
                    "{{ tags | join(',') }}|{{ ns.rows | join(',') }} {{ ns.n }}|"
                    "{{ item.title }} {{ item.tags | join(',') }} {{ table.rows | join(',') }}</text>")
    result = pnp(game, "build", "-f", "svg", "--force")
    assert result.exit_code == 0, result.output
    svg = (game.output_dir / "demo/svg/card/example.svg").read_text()
    # what it was given is as it was: the copies changed, not the game's data
    assert "<text>Example Card|23|Y red,blue,x|blue,green,red|1,2,9 1|Example Card red,blue 1,2</text>" in svg


# --- the expressions of game.yaml see the same data, read only too ---------------------------

EXPRESSIONS = {
    "items": ("items: cards.cards", "items: \"cards.cards.append(1) or cards.cards\"", "game.yaml:8", "append"),
    "copies": ("copies: item.copies", "copies: \"item.update(copies=2) or 1\"", "game.yaml:9", "update"),
    "generate: where": ("components:", GENERATE.replace("id:", "where: \"cards.cards.clear()\"\n    id:"), "game.yaml:", "clear"),
    "needs: has": ("components:", "needs:\n  - {each: cards.cards, what: a thing, has: \"cards.cards.pop()\"}\ncomponents:",
                   "game.yaml:", "pop"),
}


@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_an_expression_cannot_change_the_data(demo: Project, name: str):
    old, new, where, method = EXPRESSIONS[name]
    set_manifest(demo, old, new)
    one_error(pnp(demo, "validate"), where, f"{READ_ONLY}: `{method}` would change")


def test_a_generated_list_is_read_only_as_the_content_is(demo: Project):
    set_manifest(demo, "components:", GENERATE)
    line = face_does(demo, "{% set _ = combos[0].update(n=3) %}")
    one_error(pnp(demo, "validate"), f"card.svg.j2:{line}: card/example: {READ_ONLY}: `update` would change a dict")


# --- the sandbox ---------------------------------------------------------------------------

def test_only_the_copies_of_the_given_copier_are_read_only():
    copier = Copier()
    given = copier.copy({"tags": ["a"]})
    env = environment(given=copier)
    with pytest.raises(SecurityError, match=re.escape(f"{READ_ONLY}: `append` would change a list")):
        env.compile_expression("x.tags.append(1)")(x=given)
    assert env.compile_expression("x.tags.index('a')")(x=given) == 0  # a method that changes nothing
    assert env.compile_expression("y.append(1) or y")(y=["a"]) == ["a", 1]  # a list the copier did not make
    assert given == {"tags": ["a"]}
    with pytest.raises(SecurityError, match="unsafe"):  # the sandbox's other refusals are as they were
        env.compile_expression("x.tags.__len__()")(x=given)
