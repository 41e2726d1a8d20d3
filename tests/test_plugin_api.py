"""The public plugin API: the shipped games use nothing else of pnp, and a plugin's own
exception is reported as that plugin's, at its file and line."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pnp.api
from pnp.load.trust import trust
from pnp.cli import app

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _pnp_imports(path: Path) -> list[str]:
    """Every pnp module a Python file imports (type-checking imports too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.split(".")[0] == "pnp":
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "pnp"]
    return found


PLUGIN_FILES = sorted([*(REPO / "plugins").rglob("*.py"), *(REPO / "examples").rglob("*.py")])


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_plugins_import_only_the_public_api(path: Path):
    assert set(_pnp_imports(path)) <= {"pnp.api"}, f"{path}: import from pnp.api, not {_pnp_imports(path)}"


def test_the_api_exports_what_it_lists():
    assert sorted(pnp.api.__all__) == sorted(n for n in dir(pnp.api) if not n.startswith("_") and n not in {"annotations"})
    for name in pnp.api.__all__:
        assert getattr(pnp.api, name) is not None


def _break(plugin: Path, after: str, line: str) -> int:
    """Insert `line` (indented like `after`) after the line `after`; its 1-based number."""
    lines = plugin.read_text(encoding="utf-8").splitlines()
    at = next(i for i, text in enumerate(lines) if text.strip() == after) + 1
    indent = lines[at - 1][: len(lines[at - 1]) - len(lines[at - 1].lstrip())]
    lines.insert(at, indent + line)
    plugin.write_text("\n".join(lines) + "\n", encoding="utf-8")
    trust(plugin.parent.parent)  # the edited plugin is no longer the shipped one: the user trusts it
    return at + 1


def test_an_exception_in_a_plugins_scorer_is_the_plugins_error(fruit: Path):
    line = _break(fruit / "plugins/fruit_stand.py", "sheet = doc.data", "1 / 0")
    result = runner.invoke(app, ["score", "sheets/example.yaml"])
    assert result.exit_code == 2, result.output
    (message,) = result.output.strip().splitlines()
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed: ZeroDivisionError: division by zero")
    assert "internal error" not in message


def test_a_misspelt_gameplugin_field_names_the_one_meant(fruit: Path):
    """Before: `GamePlugin(scorer=...)` gave Python's "unexpected keyword argument 'scorer'" alone."""
    plugin = fruit / "plugins/fruit_stand.py"
    plugin.write_text(plugin.read_text().replace("PLUGIN = GamePlugin(score=score,", "PLUGIN = GamePlugin(scorer=score,"))
    trust(fruit)
    result = runner.invoke(app, ["score", "sheets/example.yaml"])
    assert result.exit_code == 2, result.output
    (message,) = result.output.strip().splitlines()
    assert message.startswith("plugins/fruit_stand.py:") and message.endswith(
        "got an unexpected keyword argument 'scorer': expected one of models, optional_files, check, template_globals, context, "
        "score, sheet_template, sheet_schema, sheet_component, sheet_form, provides (did you mean 'score'?)"), message


def test_the_innermost_plugin_frame_is_named(fruit: Path):
    """A helper of the plugin called by its scorer: the helper's line, not the caller's."""
    line = _break(fruit / "plugins/fruit_stand.py", '"""RULES.md, Scoring 1: each filled order scores its points."""', "raise KeyError('basket')")
    result = runner.invoke(app, ["score", "sheets/example.yaml", "--json"])
    assert result.exit_code == 2
    (error,) = json.loads(result.output)["errors"]
    assert (error["file"], error["line"]) == ("plugins/fruit_stand.py", line) and "KeyError: 'basket'" in error["message"]


def test_a_bug_outside_any_plugin_is_still_an_internal_error(fruit: Path, monkeypatch):
    import pnp.score.dispatch as dispatch

    def broken(*args, **kwargs):
        raise RuntimeError("pnp's own bug")

    monkeypatch.setattr(dispatch, "score_sheet", broken)
    result = runner.invoke(app, ["score", "sheets/example.yaml"])
    assert result.exit_code == 3 and "internal error: RuntimeError: pnp's own bug" in result.output


def test_the_readmes_complete_scorer_scores_a_sheet(tmp_path: Path, monkeypatch):
    """docs/writing-games.md's example plugin, as printed, scores a sheet and locates a bad value."""
    from pnp.load.content import Project
    from pnp.tools.scaffold import scaffold

    readme = (REPO / "docs/writing-games.md").read_text(encoding="utf-8")
    code = readme.split("# plugins/rounds.py", 1)[1].split("\n", 1)[1].split("```", 1)[0]
    project = Project(tmp_path / "proj")
    scaffold(project, "rounds")
    (project.root / "plugins").mkdir()
    (project.root / "plugins/rounds.py").write_text(code, encoding="utf-8")
    manifest = project.content_dir / "rounds/game.yaml"
    manifest.write_text("plugin: plugins/rounds.py\n" + manifest.read_text(encoding="utf-8"), encoding="utf-8")
    trust(project.root)
    monkeypatch.chdir(project.root)
    Path("sheet.yaml").write_text("game: rounds\nplayers:\n  - {name: Ann, rounds: [3, 4]}\n  - {name: Ben, rounds: [5]}\n")
    result = runner.invoke(app, ["score", "sheet.yaml", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["players"] == [{"name": "Ann", "total": 7}, {"name": "Ben", "total": 5}] and report["winners"] == ["Ann"]
    # the keys the log reads: the winner in `pnp log list`, totals and winner in the CSV
    assert runner.invoke(app, ["log", "import", "sheet.yaml"]).exit_code == 0
    listed = runner.invoke(app, ["log", "list"])
    assert listed.exit_code == 0 and "Ann, Ben" in listed.output and "nobody" not in listed.output, listed.output
    rows = runner.invoke(app, ["log", "export", "--csv"]).output.splitlines()
    assert [row.split(",")[-3:] for row in rows[1:]] == [["Ann", "7", "yes"], ["Ben", "5", "no"]], rows
    # a sheet of the wrong shape is a sheet error at its line, at the value (before: at its key), never "plugin failed: AttributeError"
    for players, said in [("  - {name: Ann, rounds: [3, four]}\n", "sheet.yaml:3:25: expected a list of whole numbers"),
                          ("  - {name: Ann, rounds: 7}\n", "sheet.yaml:3:25: expected a list of whole numbers"),
                          ("  - Ann\n", "sheet.yaml:3:5: expected a player: {name: ..., rounds: [...]}"),
                          (" Ann\n", "sheet.yaml:2:10: expected `players:`, a list")]:
        Path("sheet.yaml").write_text("game: rounds\nplayers:" + ("\n" if players.startswith("  -") else "") + players)
        result = runner.invoke(app, ["score", "sheet.yaml"])
        assert result.exit_code == 2 and result.output.strip() == said, result.output


def test_a_reloaded_package_plugin_keeps_its_name(tmp_path: Path):
    """Reloading a plugin package (as `pnp watch` does after an edit) drops its submodules
    from sys.modules; the plugin is still known by the name game.yaml gave it."""
    from pnp.load import plugins
    from pnp.load.content import Project, load_game
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    package = project.root / "plugins/pkg"
    package.mkdir(parents=True)
    (package / "helper.py").write_text("X = 1\n")
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\nfrom . import helper\nPLUGIN = GamePlugin()\n")
    manifest = project.content_dir / "demo/game.yaml"
    manifest.write_text("plugin: plugins/pkg\n" + manifest.read_text(encoding="utf-8"), encoding="utf-8")
    trust(project.root)
    load_game(project, "demo")
    (package / "helper.py").write_text("X = 22\n")  # another size: the package is imported again
    trust(project.root)
    load_game(project, "demo")
    names = {module: name for module, name in plugins._LOADED.items() if "plugins_pkg" in module}
    assert names and set(names.values()) == {"plugins/pkg"}, names


@pytest.mark.parametrize("body, said", [
    ("return {'#000000': 'black'}[colour]", "KeyError: '#"),
    ("raise SystemExit(0)", "sys.exit(0) (SystemExit): a plugin must not end pnp"),  # was: pnp ended, exit 0, nothing checked
    ("return next(iter([]))", "StopIteration"),
], ids=["KeyError", "SystemExit", "StopIteration"])
def test_an_exception_in_a_plugins_template_helper_names_the_plugin_and_the_template(fruit: Path, body: str, said: str):
    """A helper the plugin gives the templates (`template_globals`) that raises: the template
    line that called it, and the plugin's own file and line, not a template error alone."""
    plugin = fruit / "plugins/fruit_stand.py"
    text = plugin.read_text(encoding="utf-8")
    helper = f"def tint(colour):\n    {body}\n\n\n"
    text = text.replace("PLUGIN = GamePlugin(score=score,", helper + "PLUGIN = GamePlugin(score=score, template_globals={'tint': tint},")
    plugin.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f"    {body}") + 1
    template = fruit / "templates/fruit-stand/fruit.svg.j2"
    lines = template.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4].replace('stroke="{{ colour }}"', 'stroke="{{ tint(colour) }}"')
    template.write_text("\n".join(lines) + "\n", encoding="utf-8")
    trust(fruit)
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 2, result.output
    first = result.output.strip().splitlines()[0]
    assert first.startswith("templates/fruit-stand/fruit.svg.j2:5: fruit/"), first
    assert f": plugin plugins/fruit_stand.py failed at plugins/fruit_stand.py:{line}: {said}" in first, first


def test_the_readmes_plugin_reference_names_every_hook():
    """docs/writing-games.md's plugin reference: one row per GamePlugin field, and every attribute of
    the Simulation protocol, so a field added to either is documented there."""
    import dataclasses
    import re

    readme = (REPO / "docs/writing-games.md").read_text(encoding="utf-8")
    reference = readme.split("### Plugin reference", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \|", reference, re.MULTILINE)
    assert rows == [f.name for f in dataclasses.fields(pnp.api.GamePlugin)]
    simulate = reference.split("**`pnp simulate`**", 1)[1]
    for name in [*pnp.api.Simulation.__annotations__, "play"]:
        assert f"`{name}" in simulate, name


def test_the_plugin_reference_says_how_a_hook_reads_the_content(fruit: Path):
    """Before: the reference said only "`game` is the loaded `GameContent`"; a designer could not
    tell how a scorer reads the numbers a reference card prints (the example used the unnamed
    `game.namespace`). Each `game.<name>` it gives exists and holds what it says."""
    import re

    from pnp.load.content import GameContent, Project, load_game

    readme = (REPO / "docs/writing-games.md").read_text(encoding="utf-8")
    reference = readme.split("### Plugin reference", 1)[1].split("| field |", 1)[0]
    named = set(re.findall(r"`game\.(\w+)", reference))
    assert {"name", "data", "docs", "option_defaults", "namespace"} <= named, named
    assert all(hasattr(GameContent, n) or n in GameContent.__dataclass_fields__ for n in named), named
    game = load_game(Project(fruit), "fruit-stand")
    assert isinstance(game.data["orders"], list) and game.data["orders"][0]["id"] == "pie"  # a CSV's rows
    assert game.option_defaults()["edition"] == "standard"
    assert game.namespace({"edition": "family"})["editions"]["set_bonus"] == 5  # the variant picked


ROUNDS_SIMULATION = '''\
import random
from typing import Any

from pnp.api import GameContent, PlayerRecord, Record, Simulation, no_options


class RoundsSimulation:
    game = "rounds"
    strategies = ("random",)
    player_counts = (2, 3)
    default_players = 2
    metrics = {"rounds": "rounds played"}
    score_label = "points"

    def __init__(self, game: GameContent, options: dict[str, str]):
        no_options(game.name, options)

    def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:
        rng = random.Random(seed)
        points = [[rng.randint(0, 5) for _ in range(3)] for _ in strategies]
        best = max(sum(p) for p in points)
        seats = [PlayerRecord(i, s, float(sum(p)), sum(p) == best) for i, (s, p) in enumerate(zip(strategies, points))]
        done: dict[str, Any] | None = None
        if sheet:
            done = {"game": "rounds", "players": [{"name": f"P{i + 1}", "rounds": p} for i, p in enumerate(points)]}
        return Record(seed, seats, {"rounds": 3}, done)


def make(game: GameContent, options: dict[str, str]) -> Simulation:
    return RoundsSimulation(game, options)
'''


def test_a_simulation_written_as_the_readme_says_plays_with_pnp_api_alone(tmp_path: Path, monkeypatch):
    """docs/writing-games.md "Plugin reference", `pnp simulate`: a package's `simulation` module built from
    pnp.api alone plays, and the sheets it writes score with the guide's scorer."""
    from pnp.load.content import Project
    from pnp.tools.scaffold import scaffold

    readme = (REPO / "docs/writing-games.md").read_text(encoding="utf-8")
    scorer = readme.split("# plugins/rounds.py", 1)[1].split("\n", 1)[1].split("```", 1)[0]
    project = Project(tmp_path / "proj")
    scaffold(project, "rounds")
    package = project.root / "plugins/rounds"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(scorer, encoding="utf-8")
    (package / "simulation.py").write_text(ROUNDS_SIMULATION, encoding="utf-8")
    assert set(_pnp_imports(package / "simulation.py")) == {"pnp.api"}
    manifest = project.content_dir / "rounds/game.yaml"
    manifest.write_text("plugin: plugins/rounds\n" + manifest.read_text(encoding="utf-8"), encoding="utf-8")
    trust(project.root)
    monkeypatch.chdir(project.root)
    result = runner.invoke(app, ["simulate", "rounds", "--games", "4", "--jobs", "1", "--players", "3", "--sheets", "played"])
    assert result.exit_code == 0, result.output
    sheets = sorted(Path("played").glob("*.yaml"))
    assert len(sheets) == 4
    result = runner.invoke(app, ["score", "--json", *map(str, sheets)])
    assert result.exit_code == 0, result.output


def test_the_example_projects_scorer_names_its_winner_for_the_log(fruit: Path):
    """Fruit Stand's RULES.md, Scoring 3: the highest total wins; `pnp log` reads the report's
    `winners` (it said "nobody" before)."""
    result = runner.invoke(app, ["score", "sheets/example.yaml", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["winners"] == ["Ann"]
    assert runner.invoke(app, ["score", "sheets/example.yaml"]).output.splitlines()[-1] == "Winner: Ann"
    assert runner.invoke(app, ["log", "import", "sheets/example.yaml"]).exit_code == 0
    rows = runner.invoke(app, ["log", "export", "--csv"]).output.splitlines()
    assert [row.split(",")[-3:] for row in rows[1:]] == [["Ann", "10", "yes"], ["Ben", "7", "no"], ["Cleo", "9", "no"]], rows


def test_the_report_reference_names_the_public_api_and_what_mismatch_places_hold():
    """`help(pnp.api.ScoreReport.render)` sent plugins to pnp.safetext (not pnp.api), and the
    README (now docs/writing-games.md) said mismatch_places gives (sheet path, line) where the second item is the message."""
    assert "`pnp.api.markup`" in (pnp.api.ScoreReport.render.__doc__ or "")
    readme = (REPO / "docs/writing-games.md").read_text(encoding="utf-8")
    assert "`mismatch_places() -> [(sheet\npath, message)]`" in readme and "path, line)]" not in readme


@pytest.mark.parametrize("text", ["{tricks:>999999999} tricks", "{tricks!r}", "{tricks:{tricks}}"])
def test_a_text_with_placeholders_refuses_pythons_format_beyond_the_name(text: str):
    """`text_with` fields are filled by `str.format`: a width (`{tricks:>999999999}` made a text of
    a gigabyte from a content file), or a conversion is no placeholder."""
    from typing import Annotated

    import pydantic

    class Sheet(pnp.api.StrictModel):
        text: Annotated[str, pnp.api.text_with("tricks")]

    assert Sheet(text="{tricks} tricks, {{braces}}").text == "{tricks} tricks, {{braces}}"
    with pytest.raises(pydantic.ValidationError, match="expected only {tricks}|placeholder .*: expected {tricks}"):
        Sheet(text=text)
