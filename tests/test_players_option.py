"""`--players N` is an option like `--set`'s (the w10 new designer's defect 6): a game that
does not declare `players` refuses it in one located line, rather than render every face
again for a count that changes nothing; building several games, it goes to those that
declare it. A scoring sheet's seat count is no build option: a game without `players`
still has sheets for any number of players."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from pnp.cli import app
from pnp.config import BuildOptions
from pnp.errors import PnpError
from pnp.load.content import Project, load_game
from pnp.score.dispatch import sheet_text
from pnp.tools.scaffold import scaffold
from test_hostile import one_error

runner = CliRunner()
FRUIT = Path(__file__).resolve().parent.parent / "examples/projects/fruit-stand"


def test_players_on_a_game_without_the_option_is_refused_like_set(demo: Project):
    result = runner.invoke(app, ["build", "--players", "99", "--project", str(demo.root)])
    line = one_error(result, "demo/game.yaml:2:1: --players 99: demo has no option 'players': this game builds the same pieces for any number of players")
    assert "`options:`" in line
    assert not demo.output_dir.exists()  # refused before anything is rendered


def test_a_negative_player_count_is_refused_before_any_game(demo: Project):
    result = runner.invoke(app, ["build", "--players", "-1", "--project", str(demo.root)])
    assert one_error(result) == "pnp build: --players cannot be negative, got -1"
    assert not demo.output_dir.exists()


def test_players_goes_to_the_games_that_declare_it(tmp_path: Path):
    shutil.copytree(FRUIT, tmp_path / "p", ignore=shutil.ignore_patterns("output", "__pycache__"))
    project = Project(tmp_path / "p")
    scaffold(project, "demo")
    games = [load_game(project, "fruit-stand"), load_game(project, "demo")]
    values = BuildOptions(players=3).game_options(games)
    assert values["fruit-stand"]["players"] == 3 and values["demo"]["players"] is None
    try:
        BuildOptions(players=3).game_options(games[1:])
    except PnpError as exc:
        assert [str(e).split(": ", 1)[1] for e in exc.errors] == [
            "--players 3: demo has no option 'players': this game builds the same pieces for any number of players "
            "(declare `players: {type: int, min: 2, max: 5}` under `options:` in game.yaml for templates to see `options.players`)"]
    else:
        raise AssertionError("--players 3 was taken by a game that does not declare it")


def test_a_scoring_sheet_needs_no_players_option(copy_game):
    project = copy_game("dietrick-taking")
    game_yaml = project.content_dir / "dietrick-taking/game.yaml"
    text = game_yaml.read_text()
    start, end = text.index("options:\n"), text.index("components:\n")
    game_yaml.write_text(text[:start] + text[end:])
    assert "players" not in load_game(project, "dietrick-taking").manifest.options
    assert sheet_text(project, "dietrick-taking", 3).count("name:") == 3  # one seat a player
