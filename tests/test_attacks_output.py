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


def test_a_logged_game_name_is_no_path(demo: Project, tmp_path: Path):
    from pnp.serve.log import LOG_NAME, Log

    Log(demo.root / LOG_NAME).record("../../escaped", None, {}, ["A"], "0" * 16, "game: demo\n", {})
    line, _ = run(demo, "log", "export")
    located(line, "log", None, "is not a file name there")
    assert not list(tmp_path.rglob("escaped*"))


def test_a_refused_build_leaves_nothing_it_wrote_ahead(demo: Project, outside: Path):
    """Item 16: back.svg was staged, then renamed into place before example.svg was refused."""
    cards = demo.output_dir / "demo/svg/card"
    cards.mkdir(parents=True)
    (cards / "example.svg").symlink_to(outside / "victim.txt")
    line, _ = run(demo, "build", "--format", "svg")
    assert "would leave the output folder" in line
    assert sorted(p.name for p in cards.iterdir()) == ["example.svg"]
    assert (outside / "victim.txt").read_text() == "keep me\n"
