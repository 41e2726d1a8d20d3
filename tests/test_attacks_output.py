"""Writes through links a stranger's project plants under output/ (issue 23's hostile
walkthrough, items 3, 13 and 16): every command that writes there goes through the build's
door (pnp/load/project_files.py `output_folder`), which refuses a link anywhere on the way,
whether it leads out of the project or to another of its folders; and a refused build
leaves nothing it wrote ahead."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pnp.load.content import Project
from test_attacks_files import located, outside, run  # noqa: F401  (outside: a fixture)


def _committed(project: Project) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    for command in (["init", "-q"], ["add", "-A"], ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "1"]):
        subprocess.run(["git", *command], cwd=project.root, check=True, env=env)


def _victim(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "index.html").write_text("mine\n")
    return folder


def test_diff_does_not_write_through_a_linked_diff_folder(demo: Project, outside: Path):
    _committed(demo)
    target = _victim(outside / "diff")
    demo.output_dir.mkdir()
    (demo.output_dir / "diff").symlink_to(target, target_is_directory=True)
    line, _ = run(demo, "diff", "--since", "HEAD")
    located(line, "diff", None, "the output folder leads outside the project")
    assert sorted(p.name for p in target.iterdir()) == ["index.html"] and (target / "index.html").read_text() == "mine\n"


@pytest.mark.parametrize("level", ["game", "simulate"])
def test_simulate_does_not_write_through_a_linked_game_folder(demo: Project, outside: Path, level: str):
    target = outside / "out"
    target.mkdir()
    if level == "game":
        demo.output_dir.mkdir()
        (demo.output_dir / "tasty-humans").symlink_to(target, target_is_directory=True)
    else:
        (demo.output_dir / "tasty-humans").mkdir(parents=True)
        (demo.output_dir / "tasty-humans/simulate").symlink_to(target, target_is_directory=True)
    line, _ = run(demo, "simulate", "tasty-humans", "--games", "2")
    located(line, "", None, "the output folder leads outside the project")
    assert list(target.iterdir()) == []


@pytest.mark.parametrize("link, command", [("output", ["build", "--format", "svg"]), ("output", ["preview"]), ("output", ["schema"]),
                                           ("output/demo", ["build", "--format", "svg"]), ("output/diff", ["diff", "--since", "HEAD"]),
                                           ("output/schema", ["schema"])])
def test_an_output_link_to_another_folder_of_the_project_is_refused(demo: Project, link: str, command: list[str]):
    """`ln -s templates output`: the link stays inside the project, and is refused all the same."""
    _committed(demo)
    before = sorted(p.relative_to(demo.root) for p in demo.templates_dir.rglob("*"))
    (demo.root / link).parent.mkdir(parents=True, exist_ok=True)
    (demo.root / link).symlink_to(os.path.relpath(demo.templates_dir, (demo.root / link).parent), target_is_directory=True)
    line, _ = run(demo, *command)
    located(line, link, None, "the output folder is a link", "remove the link")
    assert sorted(p.relative_to(demo.root) for p in demo.templates_dir.rglob("*")) == before


def test_log_export_does_not_write_through_a_linked_log_folder(demo: Project, outside: Path):
    from pnp.serve.log import LOG_NAME, Log

    Log(demo.root / LOG_NAME).record("demo", None, {}, ["A"], "0" * 16, "game: demo\n", {})
    target = outside / "log"
    target.mkdir()
    demo.output_dir.mkdir()
    (demo.output_dir / "log").symlink_to(target, target_is_directory=True)
    line, _ = run(demo, "log", "export")
    located(line, "log", None, "the output folder leads outside the project")
    assert list(target.iterdir()) == []


def test_log_export_does_not_write_through_a_linked_sheet_file(demo: Project, outside: Path):
    """A link where a sheet file goes: named as a link (it said the game's name was no
    file name), nothing written, the link's target untouched."""
    from pnp.serve.log import LOG_NAME, Log

    log = Log(demo.root / LOG_NAME)
    log.record("demo", None, {}, ["A"], "0" * 16, "game: demo\n", {})
    log.record("demo", None, {}, ["B"], "0" * 16, "game: demo\n", {})
    folder = demo.output_dir / "log"
    folder.mkdir(parents=True)
    (folder / "demo-2.yaml").symlink_to(outside / "secret.yaml")
    before = (outside / "secret.yaml").read_bytes()
    line, _ = run(demo, "log", "export")
    located(line, "demo-2.yaml", None, "is a link: pnp writes no file through a link", "nothing written")
    assert sorted(p.name for p in folder.iterdir()) == ["demo-2.yaml"] and (outside / "secret.yaml").read_bytes() == before


def test_a_logged_game_name_is_no_path(demo: Project, tmp_path: Path):
    from pnp.serve.log import LOG_NAME, Log

    Log(demo.root / LOG_NAME).record("../../escaped", None, {}, ["A"], "0" * 16, "game: demo\n", {})
    line, _ = run(demo, "log", "export")  # the log's own check refuses it first (pnp/serve/logcheck.py)
    located(line, LOG_NAME, None, "expected a game's name (no folder, no control character), found '../../escaped'")
    assert not list(tmp_path.rglob("escaped*"))


@pytest.mark.parametrize("games", [["demo"], ["demo", "other"]])
def test_a_refused_build_leaves_nothing_it_wrote_ahead(demo: Project, outside: Path, games: list[str]):
    """Item 16: back.svg was staged, then renamed into place before example.svg was refused;
    with two games, the one without a link is not committed either."""
    from pnp.tools.scaffold import scaffold

    for game in games[1:]:
        scaffold(demo, game)
    cards = demo.output_dir / games[-1] / "svg/card"
    cards.mkdir(parents=True)
    (cards / "example.svg").symlink_to(outside / "victim.txt")
    line, _ = run(demo, "build", "--format", "svg")
    assert "would leave the output folder" in line
    assert sorted(p.relative_to(demo.output_dir).as_posix() for p in demo.output_dir.rglob("*") if not p.is_dir()) == [f"{games[-1]}/svg/card/example.svg"]
    assert (outside / "victim.txt").read_text() == "keep me\n"


# --- the log database (item 3c): opened only as a plain file of pnp's --------------------

def _foreign(path: Path) -> bytes:
    """Another program's SQLite database at `path`; its bytes."""
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE bookmarks(u)")
    db.commit()
    db.close()
    return path.read_bytes()


@pytest.mark.parametrize("how", ["link", "copy", "--db"])
def test_log_list_leaves_another_programs_database_alone(demo: Project, outside: Path, how: str):
    from pnp.serve.log import LOG_NAME

    app_db = outside / "app.db"
    before = _foreign(app_db)
    if how == "link":
        (demo.root / LOG_NAME).symlink_to(app_db)
        line, _ = run(demo, "log", "list")
        located(line, LOG_NAME, None, "the log is a link", "remove the link")
    elif how == "copy":
        (demo.root / LOG_NAME).write_bytes(before)
        line, _ = run(demo, "log", "list")
        located(line, LOG_NAME, None, "not a pnp play-test log", "table 'bookmarks'")
        assert (demo.root / LOG_NAME).read_bytes() == before
    else:
        line, _ = run(demo, "log", "list", "--db", str(app_db))
        located(line, "app.db", None, "not a pnp play-test log", "table 'bookmarks'")
    assert app_db.read_bytes() == before
    assert sorted(p.name for p in outside.iterdir()) == ["app.db", "font.ttf", "secret.csv", "secret.png", "secret.svg.j2", "secret.yaml", "victim.txt"]


@pytest.mark.parametrize("name", ["", "-wal", "-journal"])
def test_no_log_is_created_through_a_link(demo: Project, outside: Path, name: str):
    """A link to a file that does not exist (the log, or a file SQLite keeps beside it) would
    make pnp create that file outside the project."""
    from pnp.errors import PnpError
    from pnp.serve.log import LOG_NAME, Log

    for db in ([] if name else [[]]) + [["--db", str(demo.root / "named.sqlite")]]:
        log = demo.root / (db[1] if db else LOG_NAME)
        (Path(f"{log}{name}")).symlink_to(outside / f"made{name}")
        line, _ = run(demo, "log", "list", *db)
        assert "the log is a link" in line
        with pytest.raises(PnpError, match="the log is a link"):
            Log(log)
        assert not (outside / f"made{name}").exists()
        assert not log.exists() or not name


def test_log_list_changes_nothing_in_pnps_own_log(demo: Project):
    from pnp.serve.log import LOG_NAME, Log

    Log(demo.root / LOG_NAME).record("demo", None, {}, ["A"], "0" * 16, "game: demo\n", {})
    before = {p.name: p.read_bytes() for p in demo.root.iterdir() if p.is_file()}
    from typer.testing import CliRunner

    from pnp.cli import app

    result = CliRunner().invoke(app, ["log", "list", "--project", str(demo.root)])
    assert result.exit_code == 0 and "demo" in result.output, result.output
    assert {p.name: p.read_bytes() for p in demo.root.iterdir() if p.is_file()} == before


def test_simulate_does_not_write_through_a_linked_count_folder(demo: Project, outside: Path):
    """`--players 2,3` writes a page a count, in <n>p/ below simulate/."""
    target = outside / "out"
    target.mkdir()
    (demo.output_dir / "tasty-humans/simulate").mkdir(parents=True)
    (demo.output_dir / "tasty-humans/simulate/3p").symlink_to(target, target_is_directory=True)
    line, _ = run(demo, "simulate", "tasty-humans", "--games", "2", "--players", "2,3", "--jobs", "1")
    located(line, "3p", None, "the output folder leads outside the project")
    assert list(target.iterdir()) == [] and list((demo.output_dir / "tasty-humans/simulate").iterdir()) == [demo.output_dir / "tasty-humans/simulate/3p"]


def test_a_log_that_is_no_database_is_one_line_and_left_alone(demo: Project):
    from pnp.serve.log import LOG_NAME

    (demo.root / LOG_NAME).write_text("not a database\n" * 100)
    before = sorted(p.name for p in demo.root.iterdir())
    line, _ = run(demo, "log", "list")
    located(line, LOG_NAME, None, "the log cannot be used")
    assert (demo.root / LOG_NAME).read_text() == "not a database\n" * 100
    assert sorted(p.name for p in demo.root.iterdir()) == before  # no side file either


# --- pnp new / pnp init write into the project: never through a link out of it -----------

@pytest.mark.parametrize("command", [["new", "fresh"], ["init", "--example", "tasty-humans"]])
def test_new_files_are_not_written_through_a_link_out(tmp_path: Path, outside: Path, command: list[str]):
    from typer.testing import CliRunner

    from pnp.cli import app

    project = tmp_path / "project"
    project.mkdir()
    (project / "content").symlink_to(outside, target_is_directory=True)
    before = sorted(outside.iterdir())
    args = [*command, str(project)] if command[0] == "init" else [*command, "--project", str(project)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    [line] = result.output.strip().splitlines()
    assert line.startswith(str(project / "content")) and "outside the project folder (through a link)" in line, line
    assert sorted(outside.iterdir()) == before and sorted(p.name for p in project.iterdir()) == ["content"]


@pytest.mark.parametrize("link, target", [("demo/svg", "pdf"), ("demo/svg/card", "../keep"), ("demo/svg/card", ".")])
def test_a_link_that_stays_inside_the_game_folder_is_refused(demo: Project, link: str, target: str):
    """pnp writes only plain files, through real folders: a link under output/<game>/ is refused
    even when it leads to another folder of that game's output (whose files it would
    overwrite or, as stale, remove)."""
    game = demo.output_dir / "demo"
    for folder in ("pdf", "keep"):
        (game / folder).mkdir(parents=True, exist_ok=True)
    (demo.output_dir / link).parent.mkdir(parents=True, exist_ok=True)
    (game / "keep/notes.txt").write_text("mine\n")
    (demo.output_dir / link).symlink_to(target, target_is_directory=True)
    before = sorted(p.relative_to(demo.output_dir).as_posix() for p in demo.output_dir.rglob("*"))
    line, _ = run(demo, "build", "--format", "svg")
    located(line, "demo", None, "svg/card/", "goes through a link", "nothing written there")
    assert sorted(p.relative_to(demo.output_dir).as_posix() for p in demo.output_dir.rglob("*")) == before
    assert (game / "keep/notes.txt").read_text() == "mine\n"


def test_a_record_written_whole_replaces_a_link_holding_the_same_bytes(tmp_path: Path, outside: Path):
    """The output list, the gallery and its stamp are written whole (write_if_changed): a
    link in their place is replaced by a plain file even when what it leads to holds
    exactly those bytes already, and what it led to is left as it was."""
    from pnp.build.output import write_if_changed

    link = tmp_path / "index.html"
    link.symlink_to(outside / "victim.txt")
    assert write_if_changed(link, b"keep me\n")
    assert not link.is_symlink() and link.read_bytes() == b"keep me\n"
    assert (outside / "victim.txt").read_text() == "keep me\n"
    assert not write_if_changed(link, b"keep me\n")  # a plain file holding them: left alone
