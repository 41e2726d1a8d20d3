"""A template cannot ask for unbounded memory, nor crash the compiler (the hostile-project
report's defects 8 and 15): every way of making a long text (`~`, `+`, `*`, the filters
that grow what they are given) is refused before the text is made, past the limit of
pnp/limits.py TEXTS; a face's output is counted as it is written; a template nested too
deeply for Jinja's parser or Python's compiler is one line at the template's line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import jinja2
import pytest
from jinja2.exceptions import SecurityError
from typer.testing import CliRunner

from pnp import sandbox
from pnp.cli import app
from pnp.load.content import Project
from test_hostile import one_error

runner = CliRunner()
BOUND = 5.0  # seconds: a runaway, not a speed (as tests/test_attacks_exec.py)
TEXT = "a text of"  # the refusal of one text: "a text of N characters, more than M: the limit for ..."

# the report's templates (defect 8), and the error's words
REPORT = {
    "doubling with ~": ('{% set ns=namespace(s="x") %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}',
                        "a text of 33,554,432 characters, more than 20,000,000: the limit for a template's text (set PNP_TEXT_LIMITS=text=N"),
    "a loop of long texts": ('{% for i in range(100000) %}{{ "x" * 999999 }}{% endfor %}',
                             "the face's text passes 100,000,000 characters: the limit for a template's text (set PNP_TEXT_LIMITS=face=N"),
    "squaring a number": ('{% set ns=namespace(n=2**9999) %}{% for i in range(40) %}{% set ns.n = ns.n*ns.n %}{% endfor %}',
                          "a number of 10,000 bits x a number of 10,000 bits makes a number of more than 10,000 bits: refused"),
    "replace": ('{{ ("x"*1000000)|replace("", "y"*1000000) }}', "a text of 1,000,002,000,000 characters"),
    "join": ('{{ (["y"*1000000]*1000000)|join }}', TEXT),
}

# a list holding another twice, 40 times over: 2 ** 40 ones when printed
SHARED = "{% set ns = namespace(x=[1]) %}{% for i in range(40) %}{% set ns.x = [ns.x, ns.x] %}{% endfor %}"

# more ways (each alone would take gigabytes)
MORE = {
    "doubling with +": '{% set ns=namespace(s="x") %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}',
    "printing a long list": '{{ ["y"*1000000]*1000000 }}',
    "string": '{{ (["y"*1000000]*1000000)|string }}',
    "~ of a list": '{{ "" ~ ["y"*1000000]*1000000 }}',
    "indent by a text": '{{ ("x\\n"*500000)|indent("y"*999999) }}',
    "wordwrap": '{{ ("x "*500000)|wordwrap(1, wrapstring="y"*999999) }}',
    "format": '{{ ("%s"*100000)|format(*(["y"*999999]*100000)) }}',
    "%": '{{ "%(a)s" * 100 % {"a": "y"*999999} }}',
    "str.format": '{{ ("{0}" * 100).format("y"*999999) }}',
    "sum of texts": '{{ (["y"*1000]*1000000)|sum(start="") }}',
    "a join of attributes": '{{ ([{"a": "y"*999999}]*100)|join(attribute="a") }}',
    "a macro's loop": '{% macro m() %}{% for i in range(100000) %}{{ "x" * 999999 }}{% endfor %}{% endmacro %}{{ m() }}',
    "a set block's loop": '{% set s %}{% for i in range(100000) %}{{ "x" * 999999 }}{% endfor %}{% endset %}',
    "literal text in loops": '{% for i in range(100000) %}{% for j in range(100000) %}' + "z" * 10000 + "{% endfor %}{% endfor %}",
    "list +": '{% set ns=namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}',
    "batch": '{{ [1]|batch(10**9, "x")|list }}',
    "str.join": '{{ ("y"*999999).join(["a"]*1000000) }}',
    "map": '{{ (["y"*999999]*1000000)|map("upper")|list|length }}',
    "str.join of an iterator": '{{ "".join((["y"*999999]*1000000)|map("string")) }}',
    "str.replace": '{{ ("x"*1000000).replace("", "y"*1000000) }}',
    "str.expandtabs": '{{ ("\t"*1000000).expandtabs(999999) }}',
    "str.translate": '{{ ("x"*1000000).translate({120: "y"*999999}) }}',
    "slice": '{{ [1]|slice(10**9)|list }}',
    "tojson": '{{ ([["x" * 1000] * 1000] * 1000) | tojson | length }}',
    "tojson's indent": '{{ [[1] * 10000] | tojson("x" * 5000) | length }}',
    "tojson of a list holding another twice": SHARED + "{{ ns.x | tojson }}",
    "pprint of a list holding another twice": SHARED + "{{ ns.x | pprint }}",
    "printing a list holding another twice": SHARED + "{{ ns.x }}",
    "forceescape": '{{ ("&" * 19000000) | forceescape | forceescape | length }}',
    "escape": '{{ ("&" * 19000000) | e | length }}',
    "urlencode": '{{ ("\u00e9" * 19000000) | urlencode | length }}',
    "urlize": '{{ ("a " * 9000000) | urlize | length }}',
    "xmlattr": '{{ {"a": "&" * 19000000} | xmlattr | length }}',
}


def face(demo: Project, body: str) -> None:
    """The demo card's front: pnp's base template drawing `body` inside a comment (as the report)."""
    (demo.templates_dir / "demo/card.svg.j2").write_text(
        '{% extends "pnp/base.svg.j2" %}{% block body %}<!-- ' + body + " -->{% endblock %}\n")


def validate(demo: Project) -> tuple[str, float]:
    started = time.perf_counter()
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    seconds = time.perf_counter() - started
    return one_error(result, "card.svg.j2:1: card/example"), seconds


@pytest.mark.parametrize("name", list(REPORT))
def test_the_reports_templates_are_refused_at_their_line(demo: Project, name: str):
    template, words = REPORT[name]
    face(demo, template)
    line, seconds = validate(demo)
    assert words in line and "MemoryError" not in line
    assert seconds < BOUND


@pytest.mark.parametrize("name", list(MORE))
def test_every_way_to_a_long_text_is_refused(demo: Project, name: str):
    face(demo, MORE[name])
    line, seconds = validate(demo)
    assert (TEXT in line or "the face's text passes" in line or "items: refused" in line) and "MemoryError" not in line, line
    assert seconds < BOUND


def test_refused_before_the_memory_is_taken(demo: Project, tmp_path: Path):
    """Each of the report's templates under a cap of 1 GB of address space (the report's
    were 1.6 to 3 GB, ending in a bare `MemoryError`): the refusal, not the memory, ends them."""
    script = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from pathlib import Path
        from typer.testing import CliRunner
        from pnp.cli import app
        card = Path({str(demo.templates_dir / "demo/card.svg.j2")!r})
        for body in {[t for t, _ in REPORT.values()]!r}:
            card.write_text('{{% extends "pnp/base.svg.j2" %}}{{% block body %}}<!-- ' + body + ' -->{{% endblock %}}')
            print(CliRunner().invoke(app, ["validate", "--project", {str(demo.root)!r}]).output.strip().replace("\\n", " | "))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == len(REPORT), done.stdout + done.stderr
    for line, (_, words) in zip(lines, REPORT.values()):
        assert words in line, line


def test_what_a_real_face_does_is_still_allowed(demo: Project):
    """Texts, lists and numbers a game makes, all far under the limits, and a limit raised."""
    env = sandbox.environment(autoescape=True, finalize=sandbox.shown)
    text = ('{{ "ab" ~ "cd" }} {{ 3 * 4 }} {{ [1, 2]|join(",") }} {{ "a-b"|replace("-", "+") }} {{ 2 ** 10 * 2 ** 10 }} '
            '{{ "%s/%s"|format(1, 2) }} {{ [[1], [2]]|sum(start=[]) }} {{ "a b c"|wordwrap(3) }} {{ "a\nb"|indent(2) }} '
            '{{ [1, 2, 3]|batch(2)|list }} {{ ("x" * 10)|length }} {{ "%(a)s!" % {"a": 1} }} {{ (range(3)|map("string"))|join }}')
    assert env.from_string(text).render() == ("abcd 12 1,2 a+b 1048576 1/2 [1, 2] a b\nc a\n  b [[1, 2], [3]] 10 1! 012")
    with pytest.raises(SecurityError, match="a text of 2,000,000 characters, more than 1,000,000"):
        environment_with({"text": 1_000_000}).from_string('{{ ("x" * 1000000) ~ ("x" * 1000000) }}').render()
    assert len(environment_with({"text": 3_000_000}).from_string('{{ ("x" * 1000000) ~ ("x" * 1000000) }}').render()) == 2_000_000


def test_the_estimates_take_every_form_a_face_writes():
    """A replace with a count, sums of numbers and of fields, a join under an autoescape
    decided at render: estimated and drawn; a width of a million refused; a method given
    arguments it refuses says so itself."""
    env = sandbox.environment(autoescape=True, finalize=sandbox.shown)
    text = ('{{ "a-b-c" | replace("-", "+", 1) }} {{ "a-b-c".replace("-", "", 1) }} {{ [1, 2.5] | sum }} '
            '{{ [{"a": 1}, {"a": 2}] | sum(attribute="a") }} '
            '{% autoescape raw %}{{ "<b>" ~ "!" }}{% endautoescape %}')
    assert env.from_string(text).render(raw=False) == "a+b-c ab-c 3.5 3 &lt;b&gt;!"
    assert env.from_string(text).render(raw=False) == jinja2.Environment(autoescape=True).from_string(text).render(raw=False)
    with pytest.raises(SecurityError, match="center with a width of a million or more: refused"):
        env.from_string('{{ "x" | center(10 ** 6) }}').render()
    with pytest.raises(TypeError, match="replace expected at least 2 arguments"):
        env.from_string('{{ "abc".replace("a") }}').render()


def test_the_filters_that_make_text_give_what_jinjas_give():
    """`tojson`, `pprint`, `escape` and `forceescape`, counted as pnp's, make Jinja's texts;
    `pprint` is counted as it is written (a list nested 30 deep indents each line 30 spaces)."""
    text = """{{ {"b": [1, "<a&'>"], "a": 2.5} | tojson }} {{ [1, 2] | tojson(2) }} {{ {"x": ["y" * 30] * 5} | pprint }}
              {{ '<"' | e }} {{ "<" | forceescape | forceescape }} {{ ["<"] | escape }} {{ "<b>" | safe | e }}"""
    ours = sandbox.environment(autoescape=True, finalize=sandbox.shown).from_string(text).render()
    assert ours == jinja2.Environment(autoescape=True).from_string(text).render()
    deep = "{% set ns = namespace(x=[1] * 500) %}{% for i in range(30) %}{% set ns.x = [ns.x] %}{% endfor %}{{ ns.x | pprint }}"
    assert len(environment_with({"text": 20_000}).from_string(deep).render()) > 15_000
    with pytest.raises(SecurityError, match="a text of 10,0[0-9][0-9] characters, more than 10,000"):
        environment_with({"text": 10_000}).from_string(deep).render()


def test_a_value_that_holds_itself_prints_as_python_prints_it():
    """A namespace (or a plugin's record linked back to itself) is printed with `{...}`
    where it recurs: a short text, not one counted round the loop past the limit."""
    env = sandbox.environment(autoescape=True, finalize=sandbox.shown)
    shown = env.from_string('{% set ns = namespace(a=[1, 2]) %}{% set ns.me = ns %}{{ ns }}').render()
    assert shown == "&lt;Namespace {&#39;a&#39;: [1, 2], &#39;me&#39;: &lt;Namespace {...}&gt;}&gt;"
    region: dict = {"name": "Ash", "next": []}
    region["next"].append({"name": "Birch", "next": [region]})
    assert env.from_string("{{ region }}").render(region=region) == str(region).replace("'", "&#39;")


def environment_with(limits: dict[str, int]) -> sandbox.Sandbox:
    env = sandbox.environment(autoescape=True, finalize=sandbox.shown)
    env.texts = {**env.texts, **limits}
    return env


def test_the_limits_are_set_from_the_environment(demo: Project, monkeypatch):
    face(demo, '{{ "x" * 999999 }}{{ "x" * 999999 }}')
    assert runner.invoke(app, ["validate", "--project", str(demo.root)]).exit_code == 0
    monkeypatch.setenv("PNP_TEXT_LIMITS", "face=1500000")
    line, _ = validate(demo)
    assert "the face's text passes 1,500,000 characters" in line


def test_each_face_counts_its_own_text(demo: Project, monkeypatch):
    """The count starts again at each face: three faces of 600,000 characters under a limit of 1,000,000."""
    monkeypatch.setenv("PNP_TEXT_LIMITS", "face=1000000")
    face(demo, '{{ "x" * 600000 }}')
    assert runner.invoke(app, ["validate", "--project", str(demo.root)]).exit_code == 0


# --- defect 15: nesting past Jinja's parser or Python's compiler ------------------------

@pytest.mark.parametrize("body", ["{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}", "{% if true %}" * 3000 + "x" + "{% endif %}" * 3000,
                                  "{{ [" * 400 + "1" + "] }}" * 400, "{% for i in [1] %}" * 25 + "x" + "{% endfor %}" * 25])
def test_a_template_nested_too_deeply_is_one_line(demo: Project, body: str):
    face(demo, body)
    line, seconds = validate(demo)
    assert "nested too deeply to compile" in line and "RecursionError" not in line, line
    assert seconds < BOUND


def test_deep_nesting_is_located_at_its_line():
    env = sandbox.environment()
    with pytest.raises(jinja2.TemplateSyntaxError, match="nested too deeply") as found:
        env.from_string("a\nb\n" + "{% for i in [1] %}\n" * 25 + "{% endfor %}" * 25)
    assert found.value.lineno == 3 + 24  # the innermost loop (Python's compiler allows 20, one inside the other)
    assert env.from_string("{% for i in [1] %}" * 20 + "x" + "{% endfor %}" * 20).render() == "x"


# --- the product filter, and a memory that runs out anyway ---------------------------------

def test_a_product_past_the_limit_is_refused_before_it_is_made(demo: Project):
    """`product` counts its combinations first (as `generate:` does): 10 ** 10 pairs would fill the memory."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", 'items: "[range(100000) | product(range(100000)) | first]"'))
    line = one_error(runner.invoke(app, ["validate", "--project", str(demo.root)]), "game.yaml:")
    assert "product of 100,000 x 100,000 makes 10,000,000,000 combinations, more than 1,000,000: refused" in line, line
    game.write_text(game.read_text().replace('"[range(100000) | product(range(100000)) | first]"', "cards.cards"))
    face(demo, "{{ range(100000) | product(range(100000)) | first }}")
    line, seconds = validate(demo)
    assert "product of 100,000 x 100,000 makes 10,000,000,000 combinations" in line and seconds < BOUND
    from pnp.load.generate import expression_environment
    assert expression_environment().compile_expression("[1, 2] | product('ab') | length")() == 4


def test_an_items_expression_out_of_memory_says_so(demo: Project, monkeypatch):
    """A MemoryError (its text is empty) in `items:` is named, as in a face."""
    def boom(*lists):
        raise MemoryError()

    monkeypatch.setattr("pnp.render.faces.product", boom)
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", 'items: "[1] | product([2])"'))
    one_error(runner.invoke(app, ["validate", "--project", str(demo.root)]),
              "game.yaml:", "items expression '[1] | product([2])' failed: the memory ran out evaluating it")


# --- what a face keeps across statements -------------------------------------------------

KEEPING = "{% set l = [] %}{% for i in range(150) %}{% set z = l.append('x' * 19000 ~ i) %}{% endfor %}{{ l | length }}"


def test_the_texts_a_face_keeps_are_counted_together(demo: Project, monkeypatch):
    """Each text under the text limit, 150 of them kept in a list (the security review's 2.8 GB,
    at a thousandth of the size): refused past the limit of all a face makes, at its line."""
    face(demo, KEEPING)
    assert runner.invoke(app, ["validate", "--project", str(demo.root)]).exit_code == 0
    monkeypatch.setenv("PNP_TEXT_LIMITS", "made=2000000")
    line, _ = validate(demo)
    assert ("the texts and lists made pass 2,000,000 characters: the limit for a template's text "
            "(set PNP_TEXT_LIMITS=made=N to change it)") in line, line


@pytest.mark.parametrize("body", [
    "{% set l = [] %}{% for i in range(100000) %}{% set z = l.append(i) %}{% endfor %}",  # items a list gains
    "{% set l = [] %}{% for i in range(100) %}{% set z = l.append(range(10000) | product([1])) %}{% endfor %}",
    "{% set l = [] %}{% for i in range(100) %}{% set z = l.append(('x' * 10000) | list) %}{% endfor %}",
    "{% set l = [] %}{% for i in range(1000) %}{% set z = l.append(('x' * 1000).upper()) %}{% endfor %}",
])
def test_lists_and_texts_kept_by_every_route_are_counted(demo: Project, monkeypatch, body: str):
    monkeypatch.setenv("PNP_TEXT_LIMITS", "made=500000")
    face(demo, body)
    line, _ = validate(demo)
    assert "the texts and lists made pass 500,000 characters" in line, line


def test_an_items_expression_counts_what_it_makes(demo: Project, monkeypatch):
    monkeypatch.setenv("PNP_TEXT_LIMITS", "made=1000000")
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("items: cards.cards", 'items: "range(100000) | list | list"'))
    one_error(runner.invoke(app, ["validate", "--project", str(demo.root)]),
              "game.yaml:", "failed: the texts and lists made pass 1,000,000 characters")


def test_each_face_and_expression_counts_from_nothing():
    env = environment_with({"made": 1000})
    template, expression = env.from_string('{{ "x" * 600 }}'), env.compile_expression('("y" * 600) | length')
    assert [len(template.render()) for _ in range(3)] == [600] * 3 and [expression() for _ in range(3)] == [600] * 3
    with pytest.raises(SecurityError, match="the texts and lists made pass 1,000 characters"):
        env.from_string('{{ "x" * 600 }}{{ "x" * 600 }}').render()
