"""`pnp simulate` and a game's simulation module: the plugin's own failure is its located
line and exit 2, in worker processes as in one, and a mistake in the calling contract or an
import of a module that is not the lab's is the plugin's, never advice to install pnp's extra."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import REPO
from game_plugins import edit_plugin, own_copy
from pnp.cli import app

runner = CliRunner()
SIM = "plugins/dietrick_taking/simulation.py"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with its own copy of Dietrick-taking and its plugin, the working folder."""
    root = own_copy(tmp_path, "dietrick-taking", "dietrick_taking")
    monkeypatch.chdir(root)
    return root


def simulate(*args: str) -> tuple[int, list[str]]:
    result = runner.invoke(app, ["simulate", "dietrick-taking", "--games", "8", "--players", "3", "--out", "out", *args])
    return result.exit_code, result.output.strip().splitlines()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_exception_in_play_is_the_plugins_line_on_any_number_of_processes(root: Path, jobs: str):
    line = edit_plugin(root, SIM, "def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:", "[][seed]")
    assert simulate("-j", jobs) == (2, [f"{SIM}:{line}: plugin plugins/dietrick_taking failed: IndexError: list index out of range "
                                        "(set PNP_DEBUG=1 for a traceback)"])


def test_a_missing_module_of_the_plugins_own_is_its_import_error(root: Path):
    line = edit_plugin(root, SIM, "from __future__ import annotations", "import gemtools")
    code, output = simulate()
    assert (code, output) == (2, [f"{SIM}:{line}: plugin plugins/dietrick_taking failed: ModuleNotFoundError: No module named 'gemtools' "
                                  "(set PNP_DEBUG=1 for a traceback)"])


def test_the_lab_modules_are_those_of_the_lab_extra():
    """Only a module the `lab` extra installs is blamed on it (its advice, tests/test_extras.py)."""
    from pnp.simulate.base import LAB_MODULES

    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["lab"]
    assert sorted(LAB_MODULES) == sorted(req.split(">")[0].split("=")[0].split("[")[0].strip() for req in extra)


def test_make_of_the_wrong_signature_is_the_plugins_error_at_its_def(root: Path):
    path = root / SIM
    text = path.read_text(encoding="utf-8")
    old = 'def make(game: "GameContent", options: dict[str, str]) -> DietrickSimulation:\n    return DietrickSimulation(game, options)'
    assert old in text
    path.write_text(text.replace(old, 'def make(game):\n    return DietrickSimulation(game, {})'), encoding="utf-8")
    line = edit_plugin(root, SIM, "from __future__ import annotations", "")  # trusted as edited
    at = path.read_text(encoding="utf-8").splitlines().index("def make(game):") + 1
    assert line < at
    assert simulate() == (2, [f"{SIM}:{at}: plugin plugins/dietrick_taking: make() takes 1 positional argument but 2 were given: "
                              "expected def make(game, options)"])


def test_a_simulation_module_without_make_is_the_plugins_error(root: Path):
    path = root / SIM
    path.write_text(path.read_text(encoding="utf-8").replace("def make(", "def build("), encoding="utf-8")
    edit_plugin(root, SIM, "from __future__ import annotations", "")
    assert simulate() == (2, [f"{SIM}: plugin plugins/dietrick_taking: expected a function make(game, options) returning the game's simulation"])


def test_a_game_whose_plugin_is_one_file_has_no_rules_engine(fruit: Path):
    """Fruit Stand's plugin is a single file: no `simulation` module to find, one line, exit 2."""
    result = runner.invoke(app, ["--trust", "simulate", "fruit-stand", "--games", "2", "--out", "out"])
    assert (result.exit_code, result.output) == (2, "fruit-stand: no rules engine to simulate this game\n")
    assert not (fruit / "out").exists()


def test_a_workers_error_stops_the_run_at_once(root: Path):
    """The error was told only once every queued game had played (50 s here), or, in a
    later chunk, once the chunks before it had (10 s here): now as soon as a worker meets it."""
    import time

    edit_plugin(root, SIM, "def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:",
                '__import__("time").sleep(0.05) if seed != 203 else [][seed]')  # game 203: the second chunk of 200
    started = time.monotonic()
    result = runner.invoke(app, ["simulate", "dietrick-taking", "--games", "2000", "--players", "3", "--out", "out", "-j", "2"])
    assert time.monotonic() - started < 5
    assert result.exit_code == 2 and "IndexError: list index out of range" in result.output


@pytest.mark.parametrize("raised", ["GeneratorExit()", "SystemExit(3)"])
def test_a_workers_base_exception_is_the_plugins_error_not_a_hang(root: Path, raised: str):
    """A BaseException that is no Exception killed the worker that met it, and a pool waits
    forever for the games of a worker that died: it is the plugin's located error, exit 2."""
    line = edit_plugin(root, SIM, "def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:",
                       f"(_ for _ in ()).throw({raised}) if seed == 7 else None")
    done = subprocess.run([sys.executable, "-m", "pnp", "simulate", "dietrick-taking", "--games", "400", "--players", "3",
                           "--out", "out", "-j", "2"], capture_output=True, text=True, timeout=120, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2, done.stderr
    assert f"{SIM}:{line}:" in done.stderr and "Traceback" not in done.stderr
