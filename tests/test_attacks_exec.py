"""A stranger's project must not run code (issue 23, code execution): every expression
language in one sandbox that sees plain data only (pnp/sandbox.py, pnp/plaindata.py), a
project's Python only when trusted (pnp/load/trust.py), and limits on what a build makes
(pnp/limits.py). Each attack asserts: no file written outside the project (a marker file
the payload tries to make), no plugin imported untrusted (a plugin whose import makes the
marker), exit 2 with one located line in under 2 s, no traceback. The patterns follow
tests/test_hostile.py (issue 11).
"""

from __future__ import annotations

import os
import py_compile
import re
import shutil
import time
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest
from markupsafe import Markup
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project, load_game
from pnp.plaindata import is_helper, plain
from pnp.render.faces import ComponentRenderer
from test_hostile import one_error

runner = CliRunner()
BOUND = 5.0  # seconds: a runaway, not a speed (issue 23's "within a second or two": bench/bench_limits.py)
LOCATED = re.compile(r"^\S+\.(yaml|j2):\d+(:\d+)?: ")


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    """The file a payload tries to make, outside the project."""
    return tmp_path / "outside" / "pwned"


def pnp(*args: str) -> tuple[Any, float]:
    started = time.perf_counter()
    result = runner.invoke(app, list(args))
    return result, time.perf_counter() - started


def refused(outcome: tuple[Any, float], marker: Path, *parts: str, faces: bool = False) -> str:
    """Exit 2, one located line holding `parts` (with `faces`, one such line per face),
    fast, and the marker never made."""
    result, seconds = outcome
    if faces:
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        lines = result.output.strip().splitlines()
        assert all(LOCATED.match(line) and all(p in line for p in parts) for line in lines), result.output
        line = lines[0]
    else:
        line = one_error(result, *parts)
    assert LOCATED.match(line), line
    assert seconds < BOUND, seconds
    assert not marker.exists() and not marker.parent.exists()
    return line


def set_manifest(project: Project, old: str, new: str) -> None:
    path = project.content_dir / "demo/game.yaml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def run_os(marker: Path) -> str:
    """The body of a payload: make the marker (as a shell command would)."""
    return f"system('mkdir -p {marker.parent} && touch {marker}')"


# --- templates: every name of a face's context ------------------------------------------

def template_payloads(m: Path) -> dict[str, str]:
    sh = run_os(m)
    return {
        "asset's game and project root": f"asset.game.project.root.joinpath('{m}').write_text('x')",
        "asset's closure": f"asset.__closure__[0].cell_contents.game.project.root.joinpath('{m}').write_text('x')",
        "the manifest model": f"game.__class__.__init__.__globals__['os'].{sh}",
        "the item": f"item.__class__.__mro__[1].__subclasses__()",
        "the component": f"component.size.__class__.__init__.__globals__['os'].{sh}",
        "the options": f"options.__class__.__base__.__subclasses__()",
        "the fonts": f"font_family.__class__.__mro__[1].__subclasses__()",
        "the text helpers": f"wrap.__globals__['os'].{sh}",
        "the textfit object": f"textfit.fonts.faces[0].path.parent.joinpath('{m}').write_text('x')",
        "the icon helper": f"icon.__closure__[0].cell_contents",
        "num and Markup": f"num.__globals__['os'].{sh} ~ Markup.__globals__",
        "cycler": f"cycler.__init__.__globals__.os.{sh}",
        "lipsum": f"lipsum.__globals__['os'].{sh}",
        "joiner": f"joiner.__init__.__globals__.os.{sh}",
        "namespace": f"namespace.__init__.__globals__.os.{sh}",
        "range and dict": f"range.__globals__['os'].{sh} ~ dict.fromkeys",
        "self's context": f"self._TemplateReference__context.environment",
        "a format string": "'{0.__class__.__init__.__globals__}'.format(item)",
        "the attr filter": "(item|attr('__class__')|attr('__init__')|attr('__globals__'))['os']",
        "a tuple's class": "().__class__.__base__.__subclasses__()",
        "a block reference": "self.body._context.parent",
    }


@pytest.mark.parametrize("name", list(template_payloads(Path("/m"))))
def test_a_template_cannot_reach_python(demo: Project, marker: Path, name: str):
    payload = template_payloads(marker)[name]
    template = demo.templates_dir / "demo/card.svg.j2"
    head, _, tail = template.read_text().rpartition("{% endblock %}")
    template.write_text(head + "<text>{{ " + payload + " }}</text>\n{% endblock %}" + tail)
    refused(pnp("validate", "--project", str(demo.root)), marker, "card.svg.j2:")


def test_a_record_method_of_a_plugin_game_cannot_reach_python(copy_game, marker: Path):
    project = copy_game("dietrick-taking")
    template = project.templates_dir / "dietrick-taking/scoring-card.svg.j2"
    text = template.read_text()
    template.write_text(text.replace("{% endblock %}", "{{ scoring.end_slot.__globals__['os']." + run_os(marker) + " }}{% endblock %}", 1))
    refused(pnp("validate", "--project", str(project.root)), marker, "scoring-card.svg.j2:", "unsafe", faces=True)


# --- expressions of game.yaml ------------------------------------------------------------

GENERATE = "generate:\n  combos:\n    product: {n: [1, 2]}\n    id: 'c{{ n }}'\ncomponents:"


def expression_payloads(m: Path) -> dict[str, tuple[str, str, str]]:
    """key -> (text in game.yaml, its replacement, the key the error names)."""
    sh = run_os(m)
    return {
        "items: a Path's write_text": ("items: cards.cards", f"items: \"asset.game.project.root.joinpath('{m}').write_text('x') or cards.cards\"", "game.yaml:8"),
        "items: cycler": ("items: cards.cards", f"items: \"cycler.__init__.__globals__.os.{sh} or cards.cards\"", "game.yaml:8"),
        "items: the manifest's class": ("items: cards.cards", "items: \"game.__class__.__mro__[1].__subclasses__()\"", "game.yaml:8"),
        "copies: lipsum": ("copies: item.copies", f"copies: \"lipsum.__globals__['os'].{sh} or 1\"", "game.yaml:9"),
        "copies: a format string": ("copies: item.copies", "copies: \"'{0.__class__.__mro__}'.format(item)|length\"", "game.yaml:9"),
        "generate: product": ("components:", GENERATE.replace("[1, 2]", f"\"lipsum.__globals__['os'].{sh}\""), "game.yaml:"),
        "generate: where": ("components:", GENERATE.replace("id:", f"where: \"joiner.__init__.__globals__.os.{sh}\"\n    id:"), "game.yaml:"),
        "generate: id": ("components:", GENERATE.replace("'c{{ n }}'", f"\"{{{{ lipsum.__globals__.os.{sh} }}}}\""), "game.yaml:"),
        "generate: a field": ("components:", GENERATE.replace("id:", f"fields: {{x: \"n.__class__.__mro__[1].__subclasses__()\"}}\n    id:"), "game.yaml:"),
        "needs: has": ("components:", f"needs:\n  - {{each: cards.cards, what: a thing, has: \"lipsum.__globals__.os.{sh}\"}}\ncomponents:", "game.yaml:"),
        "needs: namespace": ("components:", f"needs:\n  - {{each: cards.cards, what: a thing, has: \"namespace.__init__.__globals__.os.{sh}\"}}\ncomponents:", "game.yaml:"),
    }


@pytest.mark.parametrize("name", list(expression_payloads(Path("/m"))))
def test_an_expression_cannot_reach_python(demo: Project, marker: Path, name: str):
    old, new, where = expression_payloads(marker)[name]
    set_manifest(demo, old, new)
    for command in ("validate", "list"):
        refused(pnp(command, "--project", str(demo.root)), marker, where)


def test_pnp_score_reaches_generate_only_through_the_sandbox(demo: Project, marker: Path, monkeypatch):
    """`pnp score` in a folder with content/<game>/ loads that game, its generate: too."""
    set_manifest(demo, "components:", GENERATE.replace("[1, 2]", f"\"cycler.__init__.__globals__.os.{run_os(marker)}\"")
                 .replace("components:", "needs:\n  - {each: cards.cards, what: a combo, has: combos}\ncomponents:"))
    (demo.root / "sheet.yaml").write_text("game: demo\nplayers: []\n")
    monkeypatch.chdir(demo.root)
    refused(pnp("score", "sheet.yaml"), marker, "game.yaml:")


# --- what templates see: plain data only --------------------------------------------------

PLAIN = (str, Markup, int, float, bool, type(None))


def not_plain(value: Any, where: str = "") -> list[str]:
    """Every object reachable from `value` that is not plain data or a pnp helper."""
    problems, todo, seen = [], [(where, value)], set()
    while todo:
        at, v = todo.pop()
        if type(v) in PLAIN:
            continue
        if id(v) in seen:
            continue
        seen.add(id(v))
        if type(v) is dict:
            for k, x in v.items():
                if type(k) not in PLAIN:
                    problems.append(f"{at}: key {type(k).__name__}")
                todo.append((f"{at}.{k}", x))
        elif type(v) in (list, tuple):
            todo.extend((f"{at}[{i}]", x) for i, x in enumerate(v))
        elif isinstance(v, FunctionType) and is_helper(v):
            continue
        else:
            problems.append(f"{at}: {type(v).__module__}.{type(v).__qualname__}")
    return problems


def test_the_walk_finds_live_objects():
    class Record:
        def __init__(self):
            self.root = Path(".")

    assert not_plain({"a": [1, "x", Markup("<b/>"), (2.0, None)], "f": plain(len)}) == []
    found = not_plain({"p": Path("."), "m": [Record().__init__], "r": Record(), "k": {Path("."): 1}, "f": len})
    assert len(found) == 5, found


def contexts(project: Project, name: str):
    """Every face's template context of a game (globals, names, item, component)."""
    game = load_game(project, name)
    renderer = ComponentRenderer(game, {}, 0.0)
    yield "globals", dict(renderer.env.globals)
    yield "names", renderer.names
    for i, comp in enumerate(game.manifest.components):
        for planned in renderer.plan.pieces(i, comp):
            context = renderer.context(comp, planned.item_id, planned.item, "front", 0.0)
            yield f"{comp.id}/{planned.item_id}", {k: v for k, v in context.items() if k not in renderer.names}
    assert not renderer.errors


@pytest.mark.parametrize("game", ["cave", "dietrick-taking", "human-harvest", "tasty-humans", "demo"])
def test_every_template_context_is_plain_data(game: str, repo_project: Project, demo: Project):
    project = demo if game == "demo" else repo_project
    problems = [p for where, context in contexts(project, game) for p in not_plain(context, where)]
    assert problems == [], problems[:20]


def test_a_helper_returns_plain_data_and_hides_what_it_wraps():
    wrapped = plain({"f": lambda: {"p": Path("/etc")}})["f"]
    assert wrapped() == {"p": "/etc"} and is_helper(wrapped)
    assert [n for n in dir(wrapped) if not n.startswith("_")] == []


def test_what_a_plugin_hands_over_reaches_templates_as_text_numbers_and_records():
    """A plugin's `context()` and helpers may return dates, Decimals, enum members, bytes,
    Markup, named tuples, plain objects (a property that fails for one is left out) and
    helpers already made: each becomes what a template prints or reads by name."""
    import datetime
    import decimal
    import enum
    from collections import namedtuple

    class Colour(enum.Enum):
        RED = "red"

    class Spot:
        def __init__(self):
            self.name, self._hidden = "ford", 1

        @property
        def depth(self):
            raise ValueError("no depth here")

    again = plain(len)
    found = plain({"when": datetime.date(2026, 1, 2), "price": decimal.Decimal("1.50"), "colour": Colour.RED, "raw": b"ab\xff",
                   "marks": [Markup("<b/>")], "at": namedtuple("At", "x y")(1, 2), "spot": Spot(), "count": again})
    assert found == {"when": "2026-01-02", "price": "1.50", "colour": "red", "raw": "ab\ufffd", "marks": [Markup("<b/>")],
                     "at": {"x": 1, "y": 2}, "spot": {"name": "ford"}, "count": again}
    assert type(found["marks"][0]) is Markup and not_plain(found) == []
    deep: list = []
    for _ in range(100):
        deep = [deep]
    with pytest.raises(ValueError, match="data nested more than 64 levels deep"):
        plain(deep)


def test_a_record_field_wins_over_a_dict_method(demo: Project):
    """`requires.items` (a model field named like dict.items) is the field, as before."""
    from pnp.sandbox import environment

    assert environment().compile_expression("r.items")(r={"items": [1, 2]}) == [1, 2]


# --- plugins: Python only in a trusted project -------------------------------------------

def evil_plugin(project: Project, marker: Path) -> Path:
    package = project.root / "plugins/evil"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"import pathlib\np = pathlib.Path({str(marker)!r})\np.parent.mkdir(parents=True, exist_ok=True)\n"
                                         "p.write_text('ran')\nfrom pnp.api import GamePlugin\nPLUGIN = GamePlugin()\n")
    set_manifest(project, "components:", "plugin: plugins/evil\ncomponents:")
    return package


COMMANDS = {
    "list": ["list"], "validate": ["validate"], "build": ["build", "-f", "svg"], "preview": ["preview", "-q"],
    "schema": ["schema"], "sheet": ["sheet", "demo", "--players", "2", "--template"], "score": ["score", "SHEET"],
    "simulate": ["simulate", "demo", "--games", "1"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_untrusted_plugin_is_not_imported(demo: Project, marker: Path, command: str):
    evil_plugin(demo, marker)
    sheet = demo.root / "sheet.yaml"
    sheet.write_text("game: demo\nplayers: []\n")
    args = [str(sheet) if a == "SHEET" else a for a in COMMANDS[command]]
    line = refused(pnp(*args, "--project", str(demo.root)), marker, "game.yaml:", "plugin plugins/evil would run Python from",
                   "is not trusted", f"pnp trust --project {demo.root}")
    assert str(demo.root / "plugins/evil") in line


def test_watch_does_not_import_an_untrusted_plugin(demo: Project, marker: Path):
    from pnp.build.driver import BuildOptions
    from pnp.tools.watch import rebuild

    evil_plugin(demo, marker)
    lines: list[str] = []
    assert rebuild(demo, None, BuildOptions(formats=("svg",)), lambda line, error: lines.append(line)) is None
    assert "is not trusted" in lines[0] and LOCATED.match(lines[0]) and not marker.exists()


def test_trust_runs_the_plugin_until_its_python_changes(demo: Project, marker: Path, trust_folder: Path):
    package = evil_plugin(demo, marker)
    trusted = pnp("trust", "--project", str(demo.root))[0]
    assert trusted.exit_code == 0 and "trusted plugins/evil (sha256:" in trusted.output
    record = trust_folder / "pnp/trusted.json"
    assert str(demo.root) in record.read_text() and not list(demo.root.rglob("trusted.json"))  # outside the project
    assert pnp("validate", "--project", str(demo.root))[0].exit_code == 0 and marker.read_text() == "ran"
    marker.unlink()
    marker.parent.rmdir()
    (package / "extra.py").write_text("X = 1\n")  # any file of the plugin: a new module too
    refused(pnp("validate", "--project", str(demo.root)), marker, "has changed since the project was trusted")
    (package / "extra.py").unlink()
    (package / "data.txt").write_text("a data file the plugin may read\n")
    refused(pnp("validate", "--project", str(demo.root)), marker, "has changed since the project was trusted")


def test_revoke_withdraws_the_trust(demo: Project, marker: Path):
    evil_plugin(demo, marker)
    assert pnp("trust", "--project", str(demo.root))[0].exit_code == 0
    assert "trust withdrawn" in pnp("trust", "--revoke", "--project", str(demo.root))[0].output
    refused(pnp("list", "--project", str(demo.root)), marker, "is not trusted")


def test_trust_for_one_run(demo: Project, marker: Path, monkeypatch):
    evil_plugin(demo, marker)
    assert pnp("--trust", "validate", "--project", str(demo.root))[0].exit_code == 0 and marker.exists()
    marker.unlink()
    marker.parent.rmdir()
    refused(pnp("validate", "--project", str(demo.root)), marker, "is not trusted")  # the flag was for one run
    monkeypatch.setenv("PNP_TRUST", "1")
    init = demo.root / "plugins/evil/__init__.py"
    init.write_text(init.read_text() + "# edited: imported again\n")
    assert pnp("validate", "--project", str(demo.root))[0].exit_code == 0 and marker.exists()


def test_a_pycache_that_came_with_the_project_never_runs(demo: Project, marker: Path):
    """Python would load a __pycache__ file whose header matches the source's time and size
    instead of the source: trust covers the source, so pnp compiles from it."""
    package = evil_plugin(demo, marker)
    source = package / "__init__.py"
    evil = source.read_text()
    benign = "from pnp.api import GamePlugin\nPLUGIN = GamePlugin()\n"
    benign += "#" * (len(evil) - len(benign) - 1) + "\n"  # the same size
    py_compile.compile(str(source), cfile=str(package / "__pycache__" / f"__init__.{__import__('sys').implementation.cache_tag}.pyc"))
    stat = source.stat()
    source.write_text(benign)
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert pnp("trust", "--project", str(demo.root))[0].exit_code == 0
    assert pnp("validate", "--project", str(demo.root))[0].exit_code == 0
    assert not marker.exists()


def test_shipped_plugins_and_their_copies_need_no_trust(tmp_path: Path, monkeypatch):
    """`pnp init --example` copies a shipped game, plugin too: byte-identical, trusted."""
    monkeypatch.chdir(tmp_path)
    assert pnp("init", "--example", "dietrick-taking")[0].exit_code == 0
    assert pnp("validate", "--project", str(tmp_path))[0].exit_code == 0
    plugin = tmp_path / "plugins/dietrick_taking/__init__.py"
    plugin.write_text(plugin.read_text() + "\n")
    refused(pnp("validate", "--project", str(tmp_path)), tmp_path / "none" / "x", "is not trusted")



def outside_package(tmp_path: Path, marker: Path) -> Path:
    """A Python package outside the project that makes the marker when imported."""
    package = tmp_path / "elsewhere" / "evil"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"import pathlib\np = pathlib.Path({str(marker)!r})\np.parent.mkdir(parents=True, exist_ok=True)\np.write_text('ran')\n")
    return package


@pytest.mark.parametrize("kind", ["folder", "file", "folder inside the project"])
def test_a_plugin_holding_a_link_is_refused(demo: Project, marker: Path, tmp_path: Path, kind: str):
    """The digest cannot cover what a link leads to (it changes without the plugin changing):
    a plugin with a link in it is refused, trusted or not, and nothing of it runs."""
    package = evil_plugin(demo, marker)
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\nfrom . import sub\nPLUGIN = GamePlugin()\n")
    target = outside_package(tmp_path, marker)
    if kind == "file":
        target = target / "__init__.py"
        (package / "sub.py").symlink_to(target)
    else:
        if kind == "folder inside the project":
            target = Path(shutil.copytree(target, demo.root / "lib"))
        (package / "sub").symlink_to(target, target_is_directory=True)
    link = "plugins/evil/sub.py" if kind == "file" else "plugins/evil/sub"
    refused(pnp("trust", "--project", str(demo.root)), marker, "game.yaml:", f"plugin plugins/evil: {link} is a link to {target}: ",
            "pnp runs a plugin only from the plain files of its folder")
    refused(pnp("validate", "--project", str(demo.root)), marker, "game.yaml:", f"plugin plugins/evil: {link} is a link to")


def test_a_shipped_copy_with_a_link_or_a_file_added_is_not_shipped(tmp_path: Path, marker: Path, monkeypatch):
    """`pnp simulate` imports the plugin's `simulation` through the same trust: a linked one
    in a copy of a shipped plugin is refused, as is an added file in `__pycache__`."""
    project = tmp_path / "copy"
    project.mkdir()
    monkeypatch.chdir(project)
    assert pnp("init", "--example", "human-harvest")[0].exit_code == 0
    simulation = project / "plugins/human_harvest/simulation"
    simulation.symlink_to(outside_package(tmp_path, marker), target_is_directory=True)
    refused(pnp("simulate", "human-harvest", "--games", "1", "--project", str(project)), marker, "game.yaml:",
            "plugin plugins/human_harvest: plugins/human_harvest/simulation is a link to")
    simulation.unlink()
    cache = project / "plugins/human_harvest/__pycache__"
    cache.mkdir()
    (cache / "added.py").write_text("X = 1\n")
    refused(pnp("simulate", "human-harvest", "--games", "1", "--project", str(project)), marker, "game.yaml:", "is not trusted")


def test_python_in_a_pycache_folder_is_covered_by_trust(demo: Project, marker: Path):
    """Python imports `.py` source from a `__pycache__` folder (`from .__pycache__ import h`)."""
    package = evil_plugin(demo, marker)
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\nfrom .__pycache__ import h\nPLUGIN = GamePlugin()\n")
    (package / "__pycache__").mkdir()
    helper = package / "__pycache__/h.py"
    helper.write_text("Y = 1\n")
    assert pnp("trust", "--project", str(demo.root))[0].exit_code == 0
    assert pnp("validate", "--project", str(demo.root))[0].exit_code == 0
    helper.write_text(f"import pathlib\np = pathlib.Path({str(marker)!r})\np.parent.mkdir(parents=True, exist_ok=True)\np.write_text('ran')\n")
    refused(pnp("validate", "--project", str(demo.root)), marker, "game.yaml:", "has changed since the project was trusted")


def test_compiled_python_without_its_source_never_runs(demo: Project, marker: Path, tmp_path: Path):
    """Trust leaves out the `.pyc` files of `__pycache__`; Python would import one that has no
    source (`from .__pycache__ import h` finds `h.pyc`): pnp refuses to."""
    package = evil_plugin(demo, marker)
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\nfrom .__pycache__ import h\nPLUGIN = GamePlugin()\n")
    source = outside_package(tmp_path, marker) / "__init__.py"
    (package / "__pycache__").mkdir()
    py_compile.compile(str(source), cfile=str(package / "__pycache__/h.pyc"))
    assert pnp("trust", "--project", str(demo.root))[0].exit_code == 0
    line = one_error(pnp("validate", "--project", str(demo.root))[0], "plugin plugins/evil failed to load: ImportError:",
                     "h.pyc: pnp runs a plugin's Python source, never compiled .pyc files")
    assert line.startswith(f"{package / '__init__.py'}:2: ") and not marker.exists()  # at the line importing it



@pytest.mark.parametrize("limit, words", [("", "data.bin has 4,294,967,296 bytes, more than 16,777,216: the limit for a plugin (set PNP_PLUGIN_LIMITS=file=N"),
                                          ("file=1M", "data.bin has 2,097,152 bytes, more than 1,048,576"),
                                          ("total=3M", "bytes in all, more than 3,145,728"),
                                          ("files=3", "plugins/evil has more than 3 files: the limit for a plugin")])
def test_a_plugin_past_the_limits_is_refused_before_it_is_read(demo: Project, marker: Path, monkeypatch, limit: str, words: str):
    """Trust reads a plugin's files whole for its digest: their sizes are checked first."""
    package = evil_plugin(demo, marker)
    with open(package / "data.bin", "wb") as sparse:
        sparse.truncate(4 << 30 if not limit else 2 << 20)  # sparse: no disk, but gigabytes to read
    for n in range(3):
        (package / f"m{n}.py").write_bytes(b"#" * (1 << 20 if limit.startswith("total") else 1))
    monkeypatch.setenv("PNP_PLUGIN_LIMITS", limit)
    refused(pnp("validate", "--project", str(demo.root)), marker, "game.yaml:", "plugin plugins/evil: ", words)


# --- limits ------------------------------------------------------------------------------

def bomb_payloads() -> dict[str, tuple[str, str, str, str]]:
    """name -> (text in game.yaml, its replacement, the error's words, the limit to change)"""
    return {
        "copies: a hundred million": ("copies: item.copies", "copies: 100000000", "100,000,000 copies of 'example' in 'card', more than 1,000: the limit for a build",
                                      "PNP_BUILD_LIMITS=copies=N"),
        "copies: an expression": ("copies: item.copies", "copies: 10 ** 9", "1,000,000,000 copies of 'example'", "PNP_BUILD_LIMITS=copies=N"),
        "copies: an endless power": ("copies: item.copies", "copies: 10 ** (10 ** 10)", "more than 10,000 bits: refused", ""),
        "items: too many": ("items: cards.cards", "items: range(20000)", "20,000 items in 'card', more than 10,000 pieces", "PNP_BUILD_LIMITS=pieces=N"),
        "pieces: copies of many items": ("items: cards.cards", "items: combos", "'card' brings the game past 10,000 pieces", "PNP_BUILD_LIMITS=pieces=N"),
        "generate: combinations": ("components:", "generate:\n  big:\n    product: {a: range(100000), b: range(100000)}\n    id: '{{ a }}-{{ b }}'\ncomponents:",
                                   "generate 'big': 10,000,000,000 combinations, more than 10,000", "PNP_BUILD_LIMITS=pieces=N"),
        "id: 250 characters": ("items: cards.cards", "items: [{id: " + "x" * 250 + "}]", "has 250 characters, more than 100", "PNP_BUILD_LIMITS=id=N"),
        "items: a string bomb": ("items: cards.cards", "items: \"['x'] * 10 ** 9\"", "makes more than 1,000,000 items: refused", ""),
    }


@pytest.mark.parametrize("name", list(bomb_payloads()))
def test_a_resource_bomb_is_refused_in_a_moment(demo: Project, marker: Path, name: str):
    old, new, message, hint = bomb_payloads()[name]
    if name.startswith("pieces"):
        set_manifest(demo, "components:", "generate:\n  combos:\n    product: {n: range(20)}\n    id: 'c{{ n }}'\ncomponents:")
        set_manifest(demo, "copies: item.copies", "copies: 600")
    set_manifest(demo, old, new)
    refused(pnp("build", "-f", "svg,pdf", "--project", str(demo.root)), marker, "game.yaml:", message, hint)
    assert not (demo.output_dir / "demo").exists()  # nothing half-written


@pytest.mark.parametrize("payload", ["'x' * 10 ** 9", "'%999999999d' % 1", "'{:{}}'.format(1, 10 ** 9)", "'x'.center(10 ** 9)", "'%*d'|format(10 ** 9, 1)"])
def test_a_template_cannot_ask_for_gigabytes(demo: Project, marker: Path, payload: str):
    template = demo.templates_dir / "demo/card.svg.j2"
    head, _, tail = template.read_text().rpartition("{% endblock %}")
    template.write_text(head + "<text>{{ " + payload + " }}</text>\n{% endblock %}" + tail)
    words = "a text of 1,000,000,000 characters, more than 20,000,000" if payload.startswith("'x' *") else "refused"
    refused(pnp("validate", "--project", str(demo.root)), marker, "card.svg.j2:", words)


@pytest.mark.parametrize("copies, given", [("2.5", "2.5"), ("true", "true")])
def test_copies_that_are_not_a_whole_number_are_refused(demo: Project, marker: Path, copies: str, given: str):
    """The hostile-project report's defect 17: an expression's 2.5 copies became 2 without a word."""
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(re.sub(r"copies: \d+", f"copies: {copies}", cards.read_text(), count=1))
    refused(pnp("validate", "--project", str(demo.root)), marker, "cards.yaml:5:5: " if copies == "2.5" else "game.yaml:",
            f"copies expression 'item.copies' for item 'example' gave {given}: expected a whole number >= 0")
    cards.write_text(re.sub(r"copies: \S+", "copies: 3.0", cards.read_text(), count=1))  # a whole number, written as a decimal
    assert pnp("validate", "--project", str(demo.root))[0].exit_code == 0


def test_build_limits_can_be_raised(demo: Project, monkeypatch):
    set_manifest(demo, "copies: item.copies", "copies: 1500")
    assert pnp("list", "--project", str(demo.root))[0].exit_code == 0  # counting is not building
    assert pnp("build", "-f", "svg", "--project", str(demo.root))[0].exit_code == 2
    monkeypatch.setenv("PNP_BUILD_LIMITS", "copies=2000")
    assert pnp("build", "-f", "svg", "--project", str(demo.root))[0].exit_code == 0
    monkeypatch.setenv("PNP_BUILD_LIMITS", "copies=lots")
    result = pnp("build", "-f", "svg", "--project", str(demo.root))[0]
    assert result.output.strip() == "PNP_BUILD_LIMITS: 'copies=lots': expected KEY=NUMBER with KEY one of copies, pieces, id, e.g. copies=1000"


def test_trust_without_plugins_and_with_a_missing_one(demo: Project):
    assert "no plugins (nothing to trust)" in pnp("trust", "--project", str(demo.root))[0].output
    assert "was not trusted" in pnp("trust", "--revoke", "--project", str(demo.root))[0].output
    set_manifest(demo, "components:", "plugin: plugins/gone\ncomponents:")
    refused(pnp("trust", "--project", str(demo.root)), demo.root / "none" / "x", "game.yaml", "plugin file not found: plugins/gone")


def test_a_corrupt_trust_file_is_an_error_and_is_not_overwritten(demo: Project):
    from pnp.load.trust import trust_file

    path = trust_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"projects": {"/elsewhere": {"plugins/x": "sha256:1"}}', encoding="utf-8")  # cut short
    before = path.read_bytes()
    result, _ = pnp("trust", "--revoke", "--project", str(demo.root))
    assert result.exit_code == 2 and "the trust file cannot be read" in result.output and "Traceback" not in result.output
    assert path.read_bytes() == before
