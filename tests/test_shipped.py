"""The games shipped with pnp: found from any folder, copied by `pnp init --example`, and
overridden by a project's own game of the same name; and the CLI's multi-sheet scoring,
`-q` and flag help."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project, load_game
from pnp.tools.shipped import examples, shipped_games, shipped_root

from conftest import REPO

runner = CliRunner()
SHEET = REPO / "examples/tasty-humans-2p.yaml"


def test_the_four_games_are_shipped():
    assert shipped_games() == ["cave", "dietrick-taking", "human-harvest", "tasty-humans"]
    assert SHEET.name in [p.name for p in examples("tasty-humans")]


def test_score_works_from_an_empty_folder(tmp_path: Path):
    sheet = tmp_path / "game.yaml"
    shutil.copyfile(SHEET, sheet)
    result = runner.invoke(app, ["score", str(sheet), "--project", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Ana wins" in result.output


def test_init_example_copies_an_example_project(tmp_path: Path, monkeypatch):
    """The example project docs/writing-games.md points at ("A game needs no Python"), whole: it builds and
    scores its sheet where it was copied."""
    result = runner.invoke(app, ["init", str(tmp_path / "fs"), "--example", "fruit-stand"])
    assert result.exit_code == 0, result.output
    root = tmp_path / "fs"
    project = REPO / "examples/projects/fruit-stand"
    assert sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file()) == sorted(
        p.relative_to(project) for p in project.rglob("*") if p.is_file() and not {"output", "__pycache__"} & set(p.parts))
    assert result.output.strip().endswith(f"next: cd {root} && pnp build fruit-stand")
    monkeypatch.chdir(root)
    built = runner.invoke(app, ["build", "-q", "fruit-stand"])
    assert built.exit_code == 0, built.output
    assert runner.invoke(app, ["score", "sheets/example.yaml"]).exit_code == 0
    again = runner.invoke(app, ["init", str(root), "--example", "fruit-stand"])
    assert again.exit_code == 2 and "already exists; nothing was copied" in again.output


def test_a_projects_own_game_wins_over_the_shipped_one(tmp_path: Path):
    project = Project(tmp_path)
    assert load_game(project, "tasty-humans").project.root == shipped_root()
    runner.invoke(app, ["init", str(tmp_path), "--example", "tasty-humans"])
    title = project.content_dir / "tasty-humans/game.yaml"
    title.write_text(title.read_text().replace("title: Tasty Humans", "title: My Tasty Humans", 1))
    game = load_game(project, "tasty-humans")
    assert game.project == project and game.manifest.title == "My Tasty Humans"


def test_init_example_copies_content_templates_and_sheets(tmp_path: Path):
    result = runner.invoke(app, ["init", str(tmp_path / "th"), "--example", "tasty-humans"])
    assert result.exit_code == 0, result.output
    root = tmp_path / "th"
    assert (root / "content/tasty-humans/game.yaml").is_file()
    assert sorted(p.name for p in (root / "templates/tasty-humans").iterdir()) == sorted(p.name for p in (REPO / "templates/tasty-humans").iterdir())
    assert (root / "examples" / SHEET.name).read_bytes() == SHEET.read_bytes()
    again = runner.invoke(app, ["init", str(root), "--example", "tasty-humans"])  # never overwrites
    assert again.exit_code == 2 and "already exists; nothing was copied" in again.output
    bad = runner.invoke(app, ["init", str(tmp_path / "x"), "--example", "chess"])
    assert bad.exit_code == 2 and bad.output.strip() == "pnp init: unknown example 'chess': expected one of cave, dietrick-taking, fruit-stand, human-harvest, tasty-humans"
    assert not (tmp_path / "x").exists()
    bare = runner.invoke(app, ["init", str(tmp_path / "x")])  # which game to copy is the one thing init needs
    assert (bare.exit_code, bare.output) == (2, "pnp init: --example GAME is required: one of cave, dietrick-taking, fruit-stand, human-harvest, tasty-humans "
                                             "(a new game of your own: pnp new GAME)\n")
    assert not (tmp_path / "x").exists()


def test_an_empty_folder_names_the_shipped_games(tmp_path: Path):
    result = runner.invoke(app, ["build", "--project", str(tmp_path)])
    assert result.exit_code == 2
    assert "no games found" in result.output and "pnp init --example GAME" in result.output
    assert "`pnp new GAME` starts one" in result.output  # a designer's own game, the other way to begin


def test_a_project_folder_that_does_not_exist_is_named_so(tmp_path: Path):
    for args in (["build"], ["build", "tasty-humans"], ["list"]):  # not "content: no games found", nor a shipped game built there
        result = runner.invoke(app, [*args, "--project", str(tmp_path / "nowhere")])
        assert (result.exit_code, result.output) == (2, f"pnp {args[0]}: {tmp_path / 'nowhere'}: the project folder does not exist (--project)\n")
    assert not (tmp_path / "nowhere").exists()
    made = runner.invoke(app, ["new", "g1", "--project", str(tmp_path / "new")])  # `pnp new` makes it
    assert made.exit_code == 0, made.output


def test_score_takes_several_sheets_and_exits_with_the_worst(tmp_path: Path):
    wrong = tmp_path / "wrong.yaml"
    text = SHEET.read_text()
    claimed = re.search(r"claimed: (\d+)", text)
    wrong.write_text(text.replace(claimed.group(0), f"claimed: {int(claimed.group(1)) + 1}", 1))
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: tasty-humans\nplayers: [\n")
    good = runner.invoke(app, ["score", str(SHEET), str(REPO / "examples/dietrick-taking-3p.yaml")])
    assert good.exit_code == 0 and good.output.count("== ") == 2
    assert runner.invoke(app, ["score", str(SHEET), str(wrong)]).exit_code == 1
    worst = runner.invoke(app, ["score", str(broken), str(wrong), str(SHEET)])
    assert worst.exit_code == 2
    assert worst.output.count("== ") == 3 and "Ana wins" in worst.output  # the others still scored
    data = json.loads(runner.invoke(app, ["score", "--json", str(SHEET), str(wrong)]).stdout)
    assert [(d["sheet"], d["exit_code"]) for d in data] == [(str(SHEET), 0), (str(wrong), 1)]
    assert data[0]["report"] == json.loads(runner.invoke(app, ["score", "--json", str(SHEET)]).stdout)


@pytest.mark.parametrize("command", ["build", "preview", "watch"])
def test_every_quiet_option_has_q(command: str):
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert "--quiet" in result.output and " -q " in result.output


def test_help_shows_flags_without_a_type():
    for command in ("score", "build", "sheet"):
        text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert "--help" in text and "<bool>" not in text
