"""The balance lab: statistics, the runner (same seeds, any number of processes), the
report and the `pnp simulate` command."""

from __future__ import annotations

import json
import math
import multiprocessing
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import pnp.load.trust
from conftest import REPO
from pnp.cli import app
from pnp.errors import PnpError
from pnp.load.content import Project
from pnp.simulate import simulate
from pnp.simulate.runner import Side, run_games, seats
from pnp.simulate.stats import mean_ci, paired_diff, rate_ci

runner = CliRunner()


def test_mean_and_rate_intervals():
    e = mean_ci([1, 2, 3, 4, 5])
    assert e.mean == 3 and math.isclose(e.half, 1.959964 * math.sqrt(2.5 / 5), rel_tol=1e-6)
    w = rate_ci([True] * 8 + [False] * 2)  # Wilson interval of 8/10: 0.490 to 0.943
    assert round(w.low, 3) == 0.490 and round(w.high, 3) == 0.943
    assert rate_ci([False] * 5).low == 0.0 and rate_ci([False] * 5).high > 0
    # no hit in 2000 games: the interval starts at 0 itself, not at a rounding remainder (1e-19)
    from pnp.simulate.report import ci

    assert ci(rate_ci([False] * 2000), rate=True) == "0.0% [0.0%, 0.2%]"
    assert rate_ci([True] * 2000).high == 1.0


def test_paired_difference_uses_only_common_seeds():
    d = paired_diff({1: 5.0, 2: 7.0, 3: 9.0}, {1: 4.0, 2: 6.0, 4: 100.0})
    assert d.n == 2 and d.mean == 1.0 and d.half == 0.0


def test_strategies_turn_through_the_seats():
    assert [seats(["greedy", "random"], 4, g) for g in range(2)] == [
        ["greedy", "random", "greedy", "random"], ["random", "greedy", "random", "greedy"]]


def test_a_run_is_the_same_on_one_or_two_processes(repo_project):
    one = simulate(repo_project, "tasty-humans", games=12, players=3, strategies=["random"], jobs=1, sheets=True)
    two = simulate(repo_project, "tasty-humans", games=12, players=3, strategies=["random"], jobs=2, sheets=True)
    assert [r.sheet for r in one.records] == [r.sheet for r in two.records]
    assert [r.seed for r in one.records] == sorted(r.seed for r in one.records)


def test_against_plays_the_same_deals(repo_project):
    told: list[tuple[int, int]] = []  # the terminal's bar of games played: both sides count
    run = simulate(repo_project, "tasty-humans", games=20, players=4, strategies=["random"], against="0.2.8", sheets=True,
                   jobs=2, progress=lambda done, total: told.append((done, total)))
    assert told[-1] == (40, 40) and len(told) > 2 and [d for d, _ in told] == sorted(d for d, _ in told)
    assert run.ref.label == "0.2.8" and len(run.ref_records) == 20
    for a, b in zip(run.records, run.ref_records):
        assert a.seed == b.seed
        assert [p.tags for p in a.players] == [p.tags for p in b.players]  # same monsters dealt
        assert b.sheet["rules"] == "0.2.8"


def test_against_a_git_revision_plays_that_content(repo_project, tmp_path):
    run = simulate(repo_project, "dietrick-taking", games=6, players=3, strategies=["random"], against="HEAD", sheets=True)
    assert run.ref.label == "git HEAD"
    assert [r.sheet for r in run.ref_records] == [r.sheet for r in run.records]  # content unchanged since HEAD
    from pnp.simulate.sheets import write_sheets

    written = write_sheets(run, tmp_path)  # the revision's sheets say whose content they were played on
    ref = (tmp_path / "dietrick-taking-ref-1.yaml").read_text().splitlines()
    assert ref[:2] == ["# pnp simulate dietrick-taking, seed 1, side: git HEAD",
                       "# played on the content of git HEAD: `pnp score` checks it against the content of"]
    assert len(written) == 12 and (tmp_path / "dietrick-taking-base-1.yaml").read_text().count("\n# ") == 0


def test_set_patches_one_rule_value(repo_project):
    run = simulate(repo_project, "tasty-humans", games=30, players=4, strategies=["random"],
                   options={"cravings.troll.points": "7"})
    trolls = [p.sources["craving"] for r in run.records for p in r.players if p.tags["monster"] == "troll"]
    assert any(trolls) and all(t % 7 == 0 for t in trolls)


@pytest.mark.parametrize("rules", ["published", "0.2.8"])
def test_an_ai_level_plays_solo_games(repo_project, rules):
    """The A.I. level means a solo game (F220, O235): given without --players, one player."""
    run = simulate(repo_project, "tasty-humans", games=2, jobs=1, sheets=True, options={"rules": rules, "solo_level": "3"})
    assert run.players == 1 and [r.sheet["solo"]["level"] for r in run.records] == [3, 3]


def test_the_rule_version_is_read_in_any_case(repo_project):
    run = simulate(repo_project, "tasty-humans", games=1, jobs=1, sheets=True, options={"rules": "Published", "solo_level": "3"})
    assert run.records[0].sheet["rules"] == "published"


def test_solo_games_start_at_the_rules_first_level(copy_game):
    """Without solo_level, the A.I. level is the one the rules suggest for a first solo game
    (rules.yaml solo.first_level, F222), as on the blank solo sheet."""
    project = copy_game("tasty-humans")
    path = project.content_dir / "tasty-humans" / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("      first_level: 2\n", "      first_level: 3\n"), encoding="utf-8")
    run = simulate(project, "tasty-humans", games=2, players=1, jobs=1, sheets=True)
    assert [r.sheet["solo"]["level"] for r in run.records] == [3, 3]


def test_the_report_names_the_solo_level_of_each_side(repo_project, tmp_path):
    """Levels 2, 3 and 4 all read `published`: the level played, given or the rules' own,
    is in each side's label, on the terminal and in the HTML; more players have no level."""
    run = simulate(repo_project, "tasty-humans", games=2, players=1, jobs=1, against="solo_level=4")
    assert (run.base.title, run.ref.title) == ("published, solo_level=2", "solo_level=4")
    run = simulate(repo_project, "tasty-humans", games=2, jobs=1, options={"solo_level": "3"}, against="rules=0.2.8")
    assert (run.base.title, run.ref.title) == ("published, solo_level=3", "rules=0.2.8")  # a given level plays both sides
    assert simulate(repo_project, "tasty-humans", games=2, players=2, jobs=1).base.title == "published"
    out = tmp_path / "out"
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "2", "--players", "1", "--against", "rules=0.2.8",
                                 "--out", str(out), "--project", str(repo_project.root)], terminal_width=200)
    assert result.exit_code == 0 and "published, solo_level=2" in result.output and "rules=0.2.8, solo_level=2" in result.output
    page = (out / "tasty-humans" / "simulate" / "index.html").read_text()
    assert "<b>published, solo_level=2</b>" in page and "<b>rules=0.2.8, solo_level=2</b>" in page


def test_0_2_8_solo_games_play_the_level_rules_yaml_sets(copy_game):
    """0.2.8 suggests no first level (O235): a simulated solo game plays rules.yaml
    solo.simulated_level (our choice), not a number kept in the engine."""
    project = copy_game("tasty-humans")
    path = project.content_dir / "tasty-humans" / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("      simulated_level: 2\n", "      simulated_level: 5\n"), encoding="utf-8")
    run = simulate(project, "tasty-humans", games=2, players=1, jobs=1, sheets=True, options={"rules": "0.2.8"})
    assert [r.sheet["solo"]["level"] for r in run.records] == [5, 5]
    # the published rules suggest a first level (F222), which goes first
    run = simulate(project, "tasty-humans", games=1, players=1, jobs=1, sheets=True)
    assert run.records[0].sheet["solo"]["level"] == 2


def test_cli_writes_the_report_and_sheets_pnp_score_accepts(repo_project, tmp_path):
    out, sheets = tmp_path / "out", tmp_path / "sheets"
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "16", "--players", "2", "--players-as", "greedy,random",
                                 "--against", "cravings.troll.points=3", "--out", str(out), "--sheets", str(sheets),
                                 "--project", str(repo_project.root)])
    assert result.exit_code == 0, result.output
    assert "Win rate by strategy" in result.output and "difference" in result.output
    page = (out / "tasty-humans" / "simulate" / "index.html").read_text()
    assert page.count("<svg") >= 8 and "What changed" in page and "cravings.troll.points=3" in page
    assert "Decided by (share of games)" in page and "decided_by" not in page.replace('id="metric-decided_by"', "")
    files = sorted(sheets.glob("*.yaml"))
    assert len(files) == 32
    for f in files:  # every sheet, the changed side's too: it says what it changed
        text = f.read_text()
        assert text.startswith(f"# pnp simulate tasty-humans, seed {f.stem.rsplit('-', 1)[1]}, side: ")
        changes = yaml.safe_load(text).get("changes")
        assert changes == ({"cravings.troll.points": 3} if "-ref-" in f.name else None), f.name
        result = runner.invoke(app, ["score", str(f), "--project", str(repo_project.root)])
        assert result.exit_code == 0, (f.name, result.output)
        if changes:
            assert "changed by the sheet: cravings.troll.points=3" in result.output


def test_cli_bad_options_are_one_line_and_exit_2(repo_project):
    for args, message in [
        (["--set", "cravings.troll.pts=3"], r"cravings.troll has no 'pts': expected one of points, overlap"),
        (["--set", "rules=9.9"], r"unknown rule version"),
        (["--set", "rules=publishd"], r"unknown rule version: expected one of published, 0.2.8 \(did you mean 'published'\?\)$"),
        (["--against", "no-such-thing-at-all"], r"--against 'no-such-thing-at-all': expected KEY=VALUE"),
        (["--against", "=3"], r"^pnp simulate: --against '=3': expected KEY=VALUE, e.g. --against rules=0.2.8$"),  # was: --set '=3'
        (["--players-as", "clever"], r"unknown strategy 'clever'"),
        (["--players", "2", "--players-as", "greedy,random,greedy"], r"^pnp simulate: --players-as names 3 strategies for 2 players: expected at most 2$"),
        (["--games", "0"], r"^pnp simulate: --games 0: expected at least 1$"),
        # each game's record is kept for the report: a run of billions would fill the memory for hours
        (["--games", "100001"], r"^pnp simulate: --games 100,001: expected at most 100,000, the limit for a simulation \(set PNP_SIMULATE_LIMITS=games=N to change it\)$"),
        (["--players", "7"], r"--players 7"),
        (["--players", "2,,3"], r"^pnp simulate: --players 2,,3: expected a number of players, or several such as 2,3,4$"),  # was: 2,3 silently
        (["--set", "cravings.troll.points=[1, 2"], r"--set cravings.troll.points=\[1, 2: expected ',' or '\]', but got '<stream end>': expected a value as rules.yaml writes it"),
        (["--against", "cravings.troll.points='open"], r"^pnp simulate: --against cravings.troll.points='open: found unexpected end of stream: expected a value"),
        (["--against", "cravings.troll.pts=3"], r"^pnp simulate: --against cravings.troll.pts: cravings.troll has no 'pts': expected one of points, overlap"),
        (["--against", "rules=9.9"], r"^pnp simulate: --against rules=9.9: unknown rule version"),
        # rules.yaml turns_a_round is what the sheet check counts; the engine's snake draft is two
        (["--set", "turns_a_round=3"], r"^turns_a_round: 3: the engine plays the snake draft \(published rules line 70, 0.2.8 line 75\), 2 turns a round: expected 2$"),
        # past the engine's 64-bit arithmetic (was: internal error OverflowError)
        (["--set", "cravings.troll.points=" + "9" * 35], r"^pnp simulate: --set cravings.troll.points: 9{35} is out of range: expected a number from -1,000,000 to 1,000,000$"),
        (["--set", "cravings.troll={points: -2000000, overlap: false}"], r"^pnp simulate: --set cravings.troll: -2000000 is out of range"),
        (["--set", "cravings.troll.points=" + "9" * 5000], r"^pnp simulate: --set cravings.troll.points=9{100}.*expected a value as rules.yaml writes it"),
        # the A.I. level is for a solo game only (F220, O235), and one of the version's levels
        (["--set", "solo_level=3", "--players", "2"], r"^pnp simulate: --set solo_level=3: the A.I. level is for a solo game, not 2 players: expected --players 1"),
        (["--set", "rules=0.2.8", "--set", "solo_level=3", "--players", "4"], r"^pnp simulate: --set solo_level=3: the A.I. level is for a solo game, not 4 players"),
        (["--players", "2", "--against", "solo_level=3"], r"^pnp simulate: --against solo_level=3: the A.I. level is for a solo game, not 2 players"),
        (["--set", "solo_level=7", "--players", "1"], r"^pnp simulate: --set solo_level=7: expected an A.I. level 0-6$"),
        (["--set", "rules=0.2.8", "--set", "solo_level=-1"], r"^pnp simulate: --set solo_level=-1: expected the A.I.'s starting cards, 0 or more$"),
        (["--set", "solo_level=two"], r"^pnp simulate: --set solo_level=two: expected a whole number$"),
    ]:
        result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "2", *args, "--project", str(repo_project.root)])
        assert result.exit_code == 2, (args, result.output)
        assert re.search(message, result.output), result.output
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_cli_every_player_count_is_checked_before_a_game_is_played(repo_project, monkeypatch):
    """--players 1,2 with a solo-only option: the 2-player run is refused before the solo games
    are played (they could take minutes, and be thrown away)."""
    import pnp.simulate.runner as runner_module

    played = []
    monkeypatch.setattr(runner_module, "run_games", lambda *a, **k: played.append(a) or [[]])
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "100000", "--players", "1,2", "--set", "solo_level=3",
                                 "--project", str(repo_project.root)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("pnp simulate: --set solo_level=3: the A.I. level is for a solo game, not 2 players")
    assert played == []


def test_sheets_of_a_change_written_as_yaml_flow_are_scored_alike(repo_project, tmp_path):
    change = "cravings.troll={points: 3, overlap: false}"  # braces in the side's label
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "2", "--players", "2", "--against", change,
                                 "--out", str(tmp_path / "out"), "--sheets", str(tmp_path), "--project", str(repo_project.root)])
    assert result.exit_code == 0, result.output
    ref = tmp_path / "tasty-humans-ref-1.yaml"
    assert ref.read_text().startswith(f"# pnp simulate tasty-humans, seed 1, side: {change}\ngame: tasty-humans\n")
    scored = runner.invoke(app, ["score", str(ref), "--json", "--project", str(repo_project.root)])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output)["changes"] == {"cravings.troll": {"points": 3, "overlap": False}}


def test_cli_an_unwritable_folder_fails_before_the_games(repo_project, tmp_path):
    (tmp_path / "file").write_text("")
    for option in ("--sheets", "--out"):
        result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "100000", option, str(tmp_path / "file" / "x"),
                                     "--project", str(repo_project.root)])
        assert result.exit_code == 2 and f"{option} " in result.output and "cannot make the folder: Not a directory" in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_cli_several_player_counts(repo_project, tmp_path):
    result = runner.invoke(app, ["simulate", "cave", "--games", "6", "--players", "2,3", "--out", str(tmp_path),
                                 "--project", str(repo_project.root)])
    assert result.exit_code == 0, result.output
    assert "2 players" in result.output and "3 players" in result.output and "tiles" in result.output
    page = (tmp_path / "cave" / "simulate" / "index.html").read_text()
    assert 'href="2p/index.html"' in page and page.count("<svg") >= 3
    assert (tmp_path / "cave" / "simulate" / "3p" / "index.html").is_file()
    bad = runner.invoke(app, ["simulate", "cave", "--players", "two", "--project", str(repo_project.root)])
    assert bad.exit_code == 2 and "--players two: expected a number of players" in bad.output
    none = runner.invoke(app, ["simulate", "cave", "--jobs", "0", "--project", str(repo_project.root)])
    assert (none.exit_code, none.output) == (2, "pnp simulate: --jobs 0: expected at least 1\n")


def test_cli_several_player_counts_against_a_rule_version(repo_project, tmp_path):
    """One column per count, each figure followed by its difference in brackets, and the
    line saying what the brackets hold."""
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "4", "--players", "2,3", "--against", "0.2.8", "-j", "1",
                                 "--out", str(tmp_path), "--project", str(repo_project.root)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-2] == "in brackets: published minus 0.2.8; * its interval misses 0"
    header = next(line for line in lines if "2 players" in line)
    assert "3 players" in header
    turns = next(line for line in lines if line.strip().startswith("turns "))
    assert turns.count("(") == 2 and turns.count(" ± ") == 4  # each count: figure ± interval (difference ± interval)


def test_cli_counts_with_a_solo_game(repo_project, tmp_path):
    """A solo game's rows of a section (who decided: the A.I.) came after every section, under
    the section's heading again; a count of 1 read "1 players"."""
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "4", "--players", "1,2,3", "-j", "1",
                                 "--out", str(tmp_path), "--project", str(repo_project.root)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    headings = [line.split("│")[0].strip() for line in result.output.splitlines() if "│" in line and not line.startswith(" ")]
    assert "Decided by (share of games)" in headings and len(headings) == len(set(headings)), headings
    header = next(line for line in result.output.splitlines() if "2 players" in line)
    assert "1 player " in header and "1 players" not in result.output
    assert ">1 player</a>" in (tmp_path / "tasty-humans" / "simulate" / "index.html").read_text()
    solo = runner.invoke(app, ["simulate", "tasty-humans", "--games", "2", "--players", "1", "-j", "1",
                               "--out", str(tmp_path), "--project", str(repo_project.root)], env={"COLUMNS": "200"})
    assert ", 1 player (greedy)" in solo.output


def test_cli_an_empty_strategy_name_is_refused(repo_project, tmp_path):
    """`greedy,,random` silently played greedy,random."""
    result = runner.invoke(app, ["simulate", "tasty-humans", "--games", "2", "--players-as", "greedy,,random",
                                 "--out", str(tmp_path), "--project", str(repo_project.root)])
    assert (result.exit_code, result.output) == (2, "pnp simulate: --players-as: unknown strategy '': expected greedy, random\n")
    assert not (tmp_path / "tasty-humans").exists()


def test_a_tiny_difference_shows_its_digits_instead_of_zero():
    from pnp.simulate.report import fmt

    assert fmt(0.004, rate=False, sign=True) == "+0.0040"  # was "+0.00", next to a star saying it is not 0
    assert fmt(-0.00031, rate=True) == "-0.031%"
    assert (fmt(1.234, rate=False), fmt(0.25, rate=True), fmt(0.0, rate=False)) == ("1.23", "25.0%", "0.00")
    assert (fmt(1 / 2000, rate=True), fmt(1999 / 2000, rate=True)) == ("0.050%", "99.950%")  # were 0.1% and 100.0%
    assert (fmt(1.0, rate=True), fmt(0.999, rate=True)) == ("100.0%", "99.9%")


def test_trust_for_one_run_reaches_spawned_workers(tmp_path, monkeypatch):
    """`pnp --trust` is the parent's decision: a worker started by "spawn" (macOS, Windows)
    imports pnp afresh and must be told it, or an untrusted project plugin fails there."""
    root = tmp_path / "proj"
    for part in ("content", "templates", "plugins"):
        name = "dietrick_taking" if part == "plugins" else "dietrick-taking"
        shutil.copytree(REPO / part / name, root / part / name)
    init = root / "plugins/dietrick_taking/__init__.py"
    init.write_text(init.read_text() + "# this project's own edit: no longer the shipped plugin\n")
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # as on macOS and Windows
    project = Project(root)
    with pytest.raises(PnpError, match="is not trusted"):  # refused in the workers themselves
        run_games([Side("as shipped", root, "dietrick-taking")], 4, 3, ["random"], jobs=2)
    monkeypatch.setattr(pnp.load.trust, "ALLOW_ALL", True)  # `pnp --trust`
    run = simulate(project, "dietrick-taking", games=4, players=3, strategies=["random"], jobs=2)
    assert len(run.records) == 4


@pytest.mark.parametrize("bad", [["--set", "nosuch=1"], ["--players", "2,9"], ["--players-as", "nosuch"]])
def test_cli_a_failed_run_writes_nothing(repo_project, tmp_path, bad):
    """A run that fails (a bad option, the lab's extra missing, ...) left an empty output/<game>/simulate/."""
    out, sheets = tmp_path / "out", tmp_path / "sheets"
    result = runner.invoke(app, ["simulate", "cave", "--games", "2", *bad, "--out", str(out), "--sheets", str(sheets),
                                 "--project", str(repo_project.root)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert not out.exists() and not sheets.exists()


def test_unmakeable_folders_are_found_without_making_them(tmp_path):
    from pnp.files import unmakeable

    (tmp_path / "file").write_text("")
    assert unmakeable(tmp_path / "a" / "b") is None and not (tmp_path / "a").exists()
    assert unmakeable(tmp_path / "file" / "x") == "Not a directory"
    assert unmakeable(tmp_path / "file") == "Not a directory"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_against_a_git_revision_of_a_trusted_project(tmp_path, trusted):
    """A project with its own (not shipped) plugin, trusted with `pnp trust`, plays its own
    history: the revision's content with the plugin the user trusted (on two processes too)."""
    import os
    import subprocess

    project = Project(tmp_path / "games")
    for part in ("content", "templates"):
        shutil.copytree(REPO / part / "dietrick-taking", project.root / part / "dietrick-taking")
    shutil.copytree(REPO / "plugins" / "dietrick_taking", project.root / "plugins" / "dietrick_taking",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with (project.root / "plugins" / "dietrick_taking" / "glyphs.py").open("a") as glyphs:
        glyphs.write("# the designer's own copy: not byte-identical to the shipped plugin\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(project.root), *args], check=True, capture_output=True, env=env)
    trusted(project)
    for jobs in (1, 2):
        run = simulate(project, "dietrick-taking", games=4, players=3, strategies=["random"], against="HEAD", jobs=jobs)
        assert run.ref.label == "git HEAD" and len(run.ref_records) == 4


def test_a_game_without_a_rules_engine_is_one_line(demo: Project, fruit):
    """The scaffolded game (no plugin) and Fruit Stand (a plugin with a scorer, no engine)."""
    for project, game in ((demo.root, "demo"), (fruit, "fruit-stand")):
        result = runner.invoke(app, ["simulate", game, "--games", "2", "--project", str(project)])
        assert (result.exit_code, result.output) == (2, f"{game}: no rules engine to simulate this game\n")
        assert not (project / "output").exists()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers in /proc (Linux)")
def test_ctrl_c_on_a_terminal_stops_every_process_at_once(tmp_path):
    """Ctrl-C on a terminal is SIGINT to every process of the group: the workers died with
    tracebacks and the parent waited forever on their lost chunks. It is one line, exit 130,
    at once, and the last report stays."""
    import os
    import signal
    import subprocess
    import sys
    import time

    report = tmp_path / "out" / "tasty-humans" / "simulate" / "index.html"
    report.parent.mkdir(parents=True)
    report.write_text("the last run's report")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "simulate", "tasty-humans", "--games", "20000", "--jobs", "2",
                             "--out", str(tmp_path / "out"), "--project", str(REPO)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 60
        while proc.poll() is None and len(children.read_text().split()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)  # the workers are playing
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (proc.returncode, out, err) == (130, b"", b"interrupted\n")
    assert report.read_text() == "the last run's report"


def test_a_plugin_importing_the_api_leaves_the_runner_unimported():
    """A build imports pnp.api for its plugins (`Record`, `Simulation` come from the lab's
    `base`): the runner (2-3 ms of every build's start) is imported when first named."""
    import os
    import subprocess
    import sys

    code = ("import sys, pnp.api; print('pnp.simulate.runner' in sys.modules); "
            "from pnp.simulate import simulate, Run; print(simulate.__module__, Run.__module__)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["False", "pnp.simulate.runner", "pnp.simulate.runner"]
    import pnp.simulate

    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        pnp.simulate.nothing  # noqa: B018
