"""A plugin that breaks the calling contract (a hook's parameters, what it returns, a
report's exit code, a content model that is no pydantic model) is that plugin's error at
the hook's `def` line, exit 2, never `pnp: internal error`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.trust import trust

PLUGIN_LINE = "PLUGIN = GamePlugin(score=score, provides={\"scorers\": SCORERS})"
runner = CliRunner()


def _edit(root: Path, code: str, **hooks: str) -> Path:
    """Add `code` to the fruit stand's plugin and give its GamePlugin the `hooks` (field ->
    Python expression); the plugin file."""
    plugin = root / "plugins/fruit_stand.py"
    text = plugin.read_text(encoding="utf-8")
    assert PLUGIN_LINE in text
    fields = "".join(f", {k}={v}" for k, v in hooks.items())
    text = text.replace(PLUGIN_LINE, code + "\n\n" + PLUGIN_LINE.replace("provides=", fields.lstrip(", ") + ", provides=" if fields else "provides="))
    plugin.write_text(text, encoding="utf-8")
    trust(root)  # the edited plugin is no longer the shipped one: the user trusts it
    return plugin


def _line(plugin: Path, start: str) -> int:
    """The 1-based number of the plugin's line starting with `start`."""
    return next(n for n, text in enumerate(plugin.read_text(encoding="utf-8").splitlines(), 1) if text.startswith(start))


def _one_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    (message,) = result.output.strip().splitlines()
    return message


def test_a_scorer_returning_no_report_is_the_plugins_error(fruit: Path):
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "    return Report(game.name, options[\"edition\"], rows)", "    return {'players': rows}")
    line = _line(plugin, "def score(game, doc)")
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])) == \
        f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: score returned a dict: expected a pnp.api.ScoreReport"
    result = runner.invoke(app, ["score", "--json", "sheets/example.yaml"])
    assert result.exit_code == 2
    (error,) = json.loads(result.output)["errors"]
    assert (error["file"], error["line"]) == ("plugins/fruit_stand.py", line)


def _replace(plugin: Path, old: str, new: str) -> None:
    text = plugin.read_text(encoding="utf-8")
    assert old in text
    plugin.write_text(text.replace(old, new), encoding="utf-8")
    trust(plugin.parent.parent)


def test_a_scorer_of_the_wrong_signature_is_the_plugins_error(fruit: Path):
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "def score(game, doc) -> Report:", "def score(doc) -> Report:")
    line = _line(plugin, "def score(doc)")
    message = _one_line(runner.invoke(app, ["score", "sheets/example.yaml"]))
    assert message == (f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: score() takes 1 positional argument but 2 were given: "
                       "expected def score(game, doc)")


def test_a_type_error_inside_the_scorer_stays_at_its_own_line(fruit: Path):
    """Only the call itself is the signature's fault: a TypeError of the scorer's own code
    is located where it was raised."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "    sheet = doc.data\n", "    sheet = doc.data\n    len(5)\n")
    line = _line(plugin, "    len(5)")
    message = _one_line(runner.invoke(app, ["score", "sheets/example.yaml"]))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed: TypeError: object of type 'int' has no len()"), message


def test_a_check_returning_plain_text_is_the_plugins_error(fruit: Path):
    plugin = _edit(fruit, "def check(game):\n    return ['orders.csv: too few orders']\n", check="check")
    line = _line(plugin, "def check")
    message = _one_line(runner.invoke(app, ["validate"]))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: check returned a list: expected a list of pnp.api.ContentError"), message
    assert message.endswith("it holds the text 'orders.csv: too few orders'")


def test_a_content_model_that_is_no_pydantic_model_is_the_plugins_error(fruit: Path):
    plugin = _edit(fruit, "", models="{'fruits': dict}")
    line = _line(plugin, "PLUGIN = ")
    message = _one_line(runner.invoke(app, ["validate"]))
    assert message == (f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: models['fruits'] is the class dict: "
                       "expected a pydantic model class (a subclass of pnp.api.StrictModel) for the content file")


@pytest.mark.parametrize("command", [["sheet", "fruit-stand", "-n", "2", "--schema"], ["schema", "fruit-stand"]], ids=["sheet", "schema"])
def test_a_sheet_schema_json_cannot_write_is_the_plugins_error(fruit: Path, command: list[str]):
    plugin = _edit(fruit, "def sheet_schema():\n    return {'enum': {1, 2}}\n", sheet_schema="sheet_schema")
    line = _line(plugin, "def sheet_schema")
    message = _one_line(runner.invoke(app, command))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: sheet_schema returned a dict: "
                              "expected a JSON Schema of plain data JSON can write"), message
    assert "set is not JSON serializable" in message
    assert not (fruit / "output/schema").exists() or not list((fruit / "output/schema").rglob("*.json"))  # nothing half-written


def test_a_sheet_template_returning_no_text_is_the_plugins_error(fruit: Path):
    plugin = _edit(fruit, "def sheet_template(game, players, options):\n    return ['game: fruit-stand']\n", sheet_template="sheet_template")
    line = _line(plugin, "def sheet_template")
    assert _one_line(runner.invoke(app, ["sheet", "fruit-stand", "-n", "2", "--template"])) == \
        f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: sheet_template returned a list: expected text (a str) of YAML"


def test_a_sheet_template_that_is_not_yaml_is_the_plugins_error(fruit: Path):
    """`pnp sheet --template` printed the broken YAML and exited 0; serve blamed a sheet.yaml
    that does not exist."""
    plugin = _edit(fruit, "def sheet_template(game, players, options):\n    return 'game: fruit-stand\\nplayers: ['\n",
                   sheet_template="sheet_template")
    line = _line(plugin, "def sheet_template")
    message = _one_line(runner.invoke(app, ["sheet", "fruit-stand", "-n", "2", "--template"]))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: sheet_template returned the text "), message
    assert "expected YAML text, but it does not read as YAML: " in message


def test_a_context_returning_no_mapping_is_the_plugins_error(fruit: Path):
    plugin = _edit(fruit, "def context(game, options):\n    return [('x', 1)]\n", context="context")
    line = _line(plugin, "def context")
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])) == \
        f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: context returned a list: expected a dict"


@pytest.mark.parametrize("value", ['"1"', "True", "2", "None"])
def test_an_exit_code_other_than_0_or_1_is_the_plugins_error(fruit: Path, value: str):
    """A wrong claim (Ann's total) with a report whose exit_code is no 0 or 1: never exit 0,
    never a crash in `pnp log import`."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "        return 1 if any(", f"        return {value} if any(")
    _replace(fruit / "sheets/example.yaml", "total: 10", "total: 11")
    line = _line(plugin, "    def exit_code") - 1  # a decorated function starts at its decorator (@property)
    for command in (["score", "sheets/example.yaml"], ["log", "import", "sheets/example.yaml"]):
        message = _one_line(runner.invoke(app, command))
        assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: exit_code returned "), message
        assert message.endswith("expected 0 (every claim right, or none made) or 1 (a claimed value is wrong)")


def test_a_report_class_missing_a_member_names_what_it_must_define(fruit: Path):
    """Before: "TypeError: Can't instantiate abstract class Report with abstract method
    exit_code", at the scorer's `return` line, saying nothing of what to write."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "    def exit_code(self) -> int:", "    def exit_cod(self) -> int:")
    line = _line(plugin, "class Report(ScoreReport)") - 1  # a decorated class starts at its decorator (@dataclass)
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])) == (
        f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: class Report does not define exit_code, which every "
        "pnp.api.ScoreReport has: expected @property def exit_code(self) returning 0 when every claim is right, 1 when one is wrong")


def test_a_good_exit_code_still_scores(fruit: Path):
    _replace(fruit / "sheets/example.yaml", "total: 10", "total: 11")
    assert runner.invoke(app, ["score", "sheets/example.yaml"]).exit_code == 1
    assert runner.invoke(app, ["log", "import", "sheets/example.yaml"]).exit_code == 1


def test_a_plugin_exception_on_one_of_several_sheets_is_that_sheets_error(fruit: Path):
    """`pnp score A B C` with the plugin failing on B: A and C are still scored, B gets its
    located line, the exit code is the worst; --json keeps every sheet's entry."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "        claimed = player.get(\"total\")\n", "        claimed = player.get(\"total\")\n        {}[player['boom']] if 'boom' in player else None\n")
    line = _line(plugin, "        {}[player['boom']]")
    broken = Path("sheets/broken.yaml")
    broken.write_text(Path("sheets/example.yaml").read_text().replace("total: 7", "total: 7\n    boom: basket"))
    result = runner.invoke(app, ["score", "sheets/example.yaml", str(broken), "sheets/example.yaml"])
    assert result.exit_code == 2, result.output
    assert result.output.count("Fruit Stand (standard edition)") == 2 and "internal error" not in result.output
    assert f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed: KeyError: 'basket'" in result.output
    result = runner.invoke(app, ["score", "--json", "sheets/example.yaml", str(broken), "sheets/example.yaml"])
    assert result.exit_code == 2
    first, middle, last = json.loads(result.output)
    assert first["exit_code"] == last["exit_code"] == 0 and first["report"] == last["report"] and first["report"]["players"]
    assert middle["exit_code"] == 2 and middle["report"] is None
    (error,) = middle["errors"]
    assert (error["file"], error["line"]) == ("plugins/fruit_stand.py", line) and "KeyError: 'basket'" in error["message"]


def test_a_bug_outside_any_plugin_still_stops_several_sheets_as_an_internal_error(fruit: Path, monkeypatch):
    import pnp.score.dispatch as dispatch

    def broken(*args, **kwargs):
        raise RuntimeError("pnp's own bug")

    monkeypatch.setattr(dispatch, "score_sheet", broken)
    result = runner.invoke(app, ["score", "sheets/example.yaml", "sheets/example.yaml"])
    assert result.exit_code == 3 and "internal error: RuntimeError: pnp's own bug" in result.output


def test_a_syntax_error_in_a_submodule_imported_by_the_scorer_is_located_there(tmp_path: Path, monkeypatch):
    """docs/writing-games.md's advice: import the scorer inside `score`. Its syntax error is at its own
    file, line and column, as at load time, not at the importing line."""
    from pnp.load.content import Project
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    package = project.root / "plugins/demo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\n\n\ndef score(game, doc):\n    from .scorer import run\n"
                                         "    return run(game, doc)\n\n\nPLUGIN = GamePlugin(score=score)\n")
    (package / "scorer.py").write_text("# the scorer\n\ndef run(game, doc)\n    return None\n")
    manifest = project.content_dir / "demo/game.yaml"
    manifest.write_text("plugin: plugins/demo\n" + manifest.read_text(encoding="utf-8"), encoding="utf-8")
    trust(project.root)
    monkeypatch.chdir(project.root)
    Path("sheet.yaml").write_text("game: demo\n")
    message = _one_line(runner.invoke(app, ["score", "sheet.yaml"]))
    assert message.startswith("plugins/demo/scorer.py:3:19: plugin plugins/demo failed: SyntaxError: expected ':'"), message


def test_an_exit_code_kept_as_a_class_value_is_checked_too(fruit: Path):
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "    @property\n    def exit_code(self) -> int:\n", "    exit_code = 2\n\n    def old_exit_code(self) -> int:\n")
    line = _line(plugin, "class Report") - 1  # a decorated class starts at its decorator (@dataclass)
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])) == (
        f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: exit_code returned 2: "
        "expected 0 (every claim right, or none made) or 1 (a claimed value is wrong)")


def test_a_report_json_cannot_write_is_the_plugins_error(fruit: Path):
    """A `to_json` holding a set: `--json` and `log import` said `internal error`."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, '"winners": self.winners,', '"winners": set(self.winners),')
    line = _line(plugin, "    def to_json(self)")
    for command in (["score", "sheets/example.yaml", "--json"], ["log", "import", "sheets/example.yaml"]):
        result = runner.invoke(app, command)
        message = json.loads(result.output)["errors"][0]["message"] if "--json" in command else _one_line(result)
        assert "plugin plugins/fruit_stand.py: to_json returned a dict: expected a dict of plain data JSON can write" in message, message
        assert "set is not JSON serializable" in message
    assert f"plugins/fruit_stand.py:{line}:" in _one_line(runner.invoke(app, ["score", "sheets/example.yaml"]))


@pytest.mark.parametrize("code, hook, command, said", [
    ("def check(game):\n    return None\n", "check", ["validate"], "check returned None: expected a list of pnp.api.ContentError"),
    ("def sheet_schema():\n    return [{'type': 'object'}]\n", "sheet_schema", ["schema", "fruit-stand"], "sheet_schema returned a list: expected a JSON Schema (a dict)"),
])
def test_a_hook_returning_the_wrong_kind_is_the_plugins_error(fruit: Path, code: str, hook: str, command: list[str], said: str):
    plugin = _edit(fruit, code, **{hook: hook})
    line = _line(plugin, f"def {hook}")
    message = _one_line(runner.invoke(app, command))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: {said}"), message


def test_a_report_json_that_is_no_dict_is_the_plugins_error(fruit: Path):
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, 'return {"game": self.game, "edition": self.edition, "winners": self.winners, "players": self.rows}', "return list(self.rows)")
    line = _line(plugin, "    def to_json(self)")
    result = runner.invoke(app, ["score", "sheets/example.yaml", "--json"])
    assert result.exit_code == 2
    (error,) = json.loads(result.output)["errors"]
    assert error["message"].endswith("to_json returned a list: expected a dict (what pnp score --json prints and pnp log keeps)"), error
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])).startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: to_json returned a list")


def test_a_hook_that_is_a_callable_object_is_named_by_its_plugin(fruit: Path):
    """No `def` line of its own to point at: the message names the plugin and the hook."""
    _edit(fruit, "class Checker:\n    def __call__(self, game):\n        return 'fine'\n", check="Checker()")
    message = _one_line(runner.invoke(app, ["validate"]))
    assert message.startswith("plugin plugins/fruit_stand.py: check returned the text 'fine': expected a list of pnp.api.ContentError"), message


@pytest.mark.parametrize("old, new, command", [
    ("    sheet = doc.data\n", "    sheet = doc.data\n    raise SystemExit(3)\n", ["score", "sheets/example.yaml"]),
    ("    sheet = doc.data\n", "    sheet = doc.data\n    raise SystemExit(0)\n", ["score", "--json", "sheets/example.yaml"]),
    ("        table = Table(", "        raise SystemExit(1)\n        table = Table(", ["score", "sheets/example.yaml"]),
    ("        return {\"game\": self.game,", "        raise SystemExit('no json')\n        return {\"game\": self.game,", ["log", "import", "sheets/example.yaml"]),
    ("        return 1 if any(", "        raise SystemExit(0)\n        return 1 if any(", ["score", "sheets/example.yaml", "sheets/example.yaml"]),
    ("SHEET_KEYS = {", "raise SystemExit(0)\nSHEET_KEYS = {", ["build"]),
], ids=["score", "score-json", "render", "to_json", "exit_code", "import"])
def test_a_plugins_sys_exit_is_its_error_not_pnps_exit(fruit: Path, old: str, new: str, command: list[str]):
    """`sys.exit()` in a plugin's code ended pnp with the plugin's code (0: a build that wrote
    nothing, 1 and 3: other meanings): it is the plugin's error at its line, exit 2."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, old, new)
    line = next(n for n, text in enumerate(plugin.read_text(encoding="utf-8").splitlines(), 1) if "raise SystemExit" in text)
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    if "--json" in command:
        (error,) = json.loads(result.output)["errors"]
        message = f"{error['file']}:{error['line']}: {error['message']}"
    else:
        message = next(text for text in result.output.splitlines() if "SystemExit" in text)
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed"), message
    assert "(SystemExit): a plugin must not end pnp" in message
    assert not (fruit / "output").exists()


@pytest.mark.parametrize("code, hook, command", [
    ("def check(game):\n    raise SystemExit(0)\n", "check", ["validate"]),
    ("def context(game, options):\n    raise SystemExit(0)\n", "context", ["build"]),
    ("def sheet_template(game, players, options):\n    raise SystemExit(0)\n", "sheet_template", ["sheet", "fruit-stand", "-n", "2", "--template"]),
], ids=["check", "context", "sheet_template"])
def test_a_hooks_sys_exit_is_its_error_not_pnps_exit(fruit: Path, code: str, hook: str, command: list[str]):
    plugin = _edit(fruit, code, **{hook: hook})
    line = _line(plugin, "    raise SystemExit(0)")
    message = _one_line(runner.invoke(app, command))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed: sys.exit(0) (SystemExit)"), message


def test_a_keyboard_interrupt_in_a_plugin_still_stops_pnp(fruit: Path):
    _replace(fruit / "plugins/fruit_stand.py", "    sheet = doc.data\n", "    sheet = doc.data\n    raise KeyboardInterrupt\n")
    result = runner.invoke(app, ["score", "sheets/example.yaml"])
    assert result.exit_code == 130 and result.output.strip() == "interrupted", result.output


@pytest.mark.parametrize("old, new, said", [
    ('"winners": self.winners,', '"winners": " and ".join(self.winners),', "expected `winners`, a list of player names, but it is 'Ann'"),
    ('"players": self.rows}', '"players": [{"name": r["name"], "score": r["total"]} for r in self.rows]}',
     "expected `players`, a list of {\"name\": text, \"total\": number or None} (\"difference\" where there is no total), "
     "but players[0] is {'name': 'Ann', 'score': "),
], ids=["winners-text", "no-total"])
def test_a_report_json_pnp_log_cannot_read_is_the_plugins_error(fruit: Path, old: str, new: str, said: str):
    """`winners` as a text, or players without `total`: logged by `pnp log import`, after which
    `pnp log list` and `export` refused every game of the log."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, old, new)
    line = _line(plugin, "    def to_json(self)")
    for command in (["score", "sheets/example.yaml"], ["log", "import", "sheets/example.yaml"]):
        message = _one_line(runner.invoke(app, command))
        assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: to_json returned a dict: {said}"), message
    result = runner.invoke(app, ["log", "list"])
    assert result.exit_code == 0 and "Ann" not in result.output, result.output


def test_a_pnp_error_with_no_message_is_the_plugins_error_at_its_raise(fruit: Path):
    """`raise PnpError([])`: exit 2 with nothing said at all (the CLI, --json, serve)."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "    if errors:\n        raise PnpError(errors)\n    return Report(", "    raise PnpError(errors)\n    return Report(")
    line = plugin.read_text(encoding="utf-8").splitlines().index("    raise PnpError(errors)") + 1
    said = "plugin plugins/fruit_stand.py: raised PnpError with no message: expected one ContentError or more (e.g. doc.error(path, message))"
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])) == f"plugins/fruit_stand.py:{line}: {said}"
    result = runner.invoke(app, ["score", "--json", "sheets/example.yaml"])
    assert result.exit_code == 2
    (error,) = json.loads(result.output)["errors"]
    assert (error["file"], error["line"], error["message"]) == ("plugins/fruit_stand.py", line, said)


@pytest.mark.parametrize("new, kind", [("'fruit_stand'", "the text 'fruit_stand'"), (None, "None")], ids=["another-name", "none"])
def test_a_report_not_named_by_its_game_is_the_plugins_error(fruit: Path, new: str | None, kind: str):
    """A report without `game` crashed `pnp log import` (internal error); one naming another
    game filed the sheet under a game that is not there."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "class Report(ScoreReport):\n    game: str\n", "class Report(ScoreReport):\n    game_name: str\n")
    _replace(plugin, '"game": self.game,', '"game": self.game_name,')
    if new is not None:
        _replace(plugin, "    edition: str\n", f"    edition: str\n    game = {new}\n")
    line = _line(plugin, "class Report") - 1  # a decorated class starts at its decorator (@dataclass)
    for command in (["score", "sheets/example.yaml"], ["log", "import", "sheets/example.yaml"]):
        assert _one_line(runner.invoke(app, command)) == (f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: report.game returned {kind}: "
                                                          "expected the game's name, 'fruit-stand' (pnp log files the sheet under it)")
    result = runner.invoke(app, ["log", "list"])
    assert result.exit_code == 0 and "Ann" not in result.output, result.output


def test_a_type_error_of_a_decorators_wrapper_is_not_blamed_on_the_parameters(fruit: Path):
    """`@functools.cache` on `score` hashes its arguments: its TypeError, raised by the call
    itself, was taken for a wrong signature, and named no line."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "def score(game, doc) -> Report:", "import functools\n\n\n@functools.cache\ndef score(game, doc) -> Report:")
    line = _line(plugin, "@functools.cache")  # a decorated function starts at its decorator
    assert _one_line(runner.invoke(app, ["score", "sheets/example.yaml"])) == (
        f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py: score(game, doc) raised TypeError: unhashable type: 'GameContent'")


def _template_line(root: Path, line: str) -> None:
    """Put `line` first in the body of the fruit cards' template (its line 5)."""
    template = root / "templates/fruit-stand/fruit.svg.j2"
    text = template.read_text(encoding="utf-8")
    assert text.splitlines()[3] == "{% block body %}"
    template.write_text(text.replace("{% block body %}\n", "{% block body %}\n" + line + "\n", 1), encoding="utf-8")


def test_a_template_calling_sys_exit_itself_is_the_templates_error(fruit: Path):
    """A template global that is sys.exit itself (a functools.partial: no line of the plugin
    runs) ended `pnp build` with exit 0 having written nothing: it is the template's error
    at its line, exit 2."""
    _edit(fruit, "import functools\nimport sys\n", template_globals='{"bye": functools.partial(sys.exit, 0)}')
    _template_line(fruit, '{% if item.id == "apple-3" %}{{ bye() }}{% endif %}')
    message = _one_line(runner.invoke(app, ["build"]))
    assert message.startswith("templates/fruit-stand/fruit.svg.j2:5: fruit/apple-3: sys.exit(0) (SystemExit): a plugin must not end pnp"), message
    assert not (fruit / "output").exists()


def test_an_expression_of_the_content_calling_sys_exit_is_an_input_error(fruit: Path):
    """The same global called by a `copies:` expression, which pnp runs outside any face: exit 2, not 0."""
    _edit(fruit, "import functools\nimport sys\n", template_globals='{"bye": functools.partial(sys.exit, 0)}')
    _replace(fruit / "content/fruit-stand/game.yaml", "    copies: item.copies\n", '    copies: "bye() or 1"\n')
    message = _one_line(runner.invoke(app, ["build"]))
    assert message.startswith("a template expression failed: sys.exit(0) (SystemExit)"), message
    assert not (fruit / "output").exists()


BOOM = "class Boom(BaseException):\n    pass\n"


def test_a_base_exception_of_a_scorer_is_that_sheets_error_and_the_others_are_scored(fruit: Path):
    """A BaseException that is no Exception (a class of the plugin's own) gave a traceback and
    exit 1 ("a claimed total differs"), no JSON and the later sheets unscored."""
    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, "SHEET_KEYS = {", BOOM + "\n\nSHEET_KEYS = {")
    _replace(plugin, "    sheet = doc.data\n", "    sheet = doc.data\n    if sheet['players'][0]['name'] == 'Ann':\n        raise Boom('odd')\n")
    line = _line(plugin, "        raise Boom('odd')")
    other = fruit / "sheets/other.yaml"
    other.write_text((fruit / "sheets/example.yaml").read_text(encoding="utf-8").replace("name: Ann", "name: Zed"), encoding="utf-8")
    result = runner.invoke(app, ["score", "--json", "sheets/example.yaml", "sheets/other.yaml"])
    assert result.exit_code == 2, result.output
    first, second = json.loads(result.output)
    (error,) = first["errors"]
    assert (error["file"], error["line"]) == ("plugins/fruit_stand.py", line)
    assert error["message"].startswith("plugin plugins/fruit_stand.py failed: Boom: odd"), error
    assert second["exit_code"] == 0 and second["report"]["winners"] == ["Zed"]


@pytest.mark.parametrize("code, hooks, command", [
    (BOOM + "\ndef context(game, options):\n    raise Boom('odd')\n", {"context": "context"}, ["build"]),
    ("def check(game):\n    raise GeneratorExit\n", {"check": "check"}, ["validate"]),
], ids=["context-own-class", "check-generator-exit"])
def test_a_hooks_base_exception_is_its_error(fruit: Path, code: str, hooks: dict[str, str], command: list[str]):
    plugin = _edit(fruit, code, **hooks)
    line = next(n for n, text in enumerate(plugin.read_text(encoding="utf-8").splitlines(), 1) if text.startswith("    raise "))
    message = _one_line(runner.invoke(app, command))
    assert message.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed: "), message
    assert not (fruit / "output").exists()


def test_a_base_exception_of_a_template_helper_is_located_at_the_template_and_the_plugin(fruit: Path):
    plugin = _edit(fruit, BOOM + "\ndef boom():\n    raise Boom('odd')\n", template_globals='{"boom": boom}')
    line = _line(plugin, "    raise Boom('odd')")
    _template_line(fruit, "{{ boom() }}")
    message = _one_line(runner.invoke(app, ["build"]))
    assert message.startswith("templates/fruit-stand/fruit.svg.j2:5: fruit/"), message
    assert message.endswith(f"plugin plugins/fruit_stand.py failed at plugins/fruit_stand.py:{line}: Boom: odd"), message
    assert not (fruit / "output").exists()


@pytest.mark.parametrize("old, new, command", [
    ("SHEET_KEYS = {", "class Boom(BaseException):\n    pass\nraise Boom('at import')\nSHEET_KEYS = {", ["build"]),
    ("        table = Table(", "        raise GeneratorExit()\n        table = Table(", ["score", "sheets/example.yaml"]),
], ids=["import", "render"])
def test_a_plugins_own_base_exception_at_import_or_in_render_is_its_error(fruit: Path, old: str, new: str, command: list[str]):
    """A BaseException that is no Exception, at import (which left the half-imported module
    behind) or in `render` (called as a hook): the plugin's located error, exit 2."""
    import sys

    plugin = fruit / "plugins/fruit_stand.py"
    _replace(plugin, old, new)
    line = next(n for n, text in enumerate(plugin.read_text(encoding="utf-8").splitlines(), 1) if text.strip().startswith("raise "))
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert any(text.startswith(f"plugins/fruit_stand.py:{line}: plugin plugins/fruit_stand.py failed") for text in result.output.splitlines()), result.output
    if "Boom" in new:  # not left half-imported
        assert not [name for name, module in sys.modules.items() if module is not None and getattr(module, "__file__", "") == str(plugin)]
