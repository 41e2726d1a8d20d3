"""The no-op answer of `pnp build` (pnp/build/witness.py): nothing a build read or wrote
changed means nothing of the library imported, nothing written; any change to an input or
an output means a real build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pnp import cli
from pnp.build import witness
from pnp.load.content import Project

REPO = Path(__file__).resolve().parent.parent

# runs the console-script entry point, then says which heavy modules it imported
CHILD = """
import sys
from pnp.cli import main
try:
    main()
finally:
    print("imported:", *sorted(m for m in ("typer", "jinja2", "pydantic", "pnp.build", "pnp.build.driver", "rich", "fontTools") if m in sys.modules))
    loader = sys.modules.get("pydantic.plugin._loader")
    print("pydantic plugins looked for:", loader is not None and loader._plugins is not None)
    scorers = sorted(m for m in sys.modules if m.startswith("pnp_project_plugin_") and m.rpartition(".")[2] in ("scoring", "sheet", "report"))
    print("scorer modules:", *scorers)
    import gc
    print("collector:", gc.get_threshold()[0], gc.get_freeze_count() > 0)
"""


def pnp(project: Project, *args: str) -> list[str]:
    """stdout lines of `pnp build -p PROJECT ARGS` in a fresh process, without the lines
    about the scorers and the collector (`pnp_process`)."""
    return [line for line in pnp_process(project, *args) if not line.startswith(("scorer modules:", "collector:"))]


def pnp_process(project: Project, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", CHILD, "build", "-p", str(project.root), *args], capture_output=True, text=True,
                          cwd=project.root, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def answered(lines: list[str]) -> bool:
    """Whether the build was answered from its record (the library never imported)."""
    (imported,) = [line for line in lines if line.startswith("imported:")]
    return "jinja2" not in imported and "pnp.build.driver" not in imported


def test_an_unchanged_build_is_answered_without_importing_the_library(demo: Project):
    first = pnp(demo)
    assert "(4 written)" in first[0] and first[1] == "imported: jinja2 pnp.build pnp.build.driver pydantic rich typer"  # 2 SVGs, the PDF and the print PDF
    before = {p: p.stat().st_mtime_ns for p in demo.root.rglob("*")}
    again = pnp(demo)
    assert again[1:] == ["imported: pnp.build pydantic rich typer", "pydantic plugins looked for: False"]
    assert again[0].startswith("demo: 1 component, 3 pieces, 4 files (0 written), 1 sheet to print (1 unpacked) in 0.00s, 0 faces rendered; print ")
    assert again[0].endswith("demo/demo-print.pdf")
    # pnp.build: its witness alone (pnp.build.witness, the standard library only); pydantic: Typer's
    assert {p: p.stat().st_mtime_ns for p in demo.root.rglob("*")} == before  # nothing written, not even the record


def test_a_quiet_build_imports_neither_rich_nor_fonttools(demo: Project):
    """Rich is imported to print, fontTools to measure a game's own font: a quiet build of
    the shipped fonts needs neither; nor pydantic's scan of every package for plugins."""
    assert pnp(demo, "-q", "--force") == ["imported: jinja2 pnp.build pnp.build.driver pydantic typer", "pydantic plugins looked for: False"]


def test_a_quiet_build_of_the_four_games_imports_no_scorer(tmp_path: Path):
    """`pnp score`'s modules (the scorers, the sheets' models, Rich's tables in a report)
    are imported when a score is asked for: a build draws the scoring sheets without them."""
    project = Project(tmp_path / "games")
    for part in ("content", "templates", "plugins"):
        shutil.copytree(REPO / part, project.root / part, ignore=shutil.ignore_patterns("__pycache__"))
    lines = pnp_process(project, "-q", "--format", "svg")
    assert lines[0] == "imported: jinja2 pnp.build pnp.build.driver pydantic typer" and "scorer modules:" in lines
    # the collector runs less often while the build runs, and not at all once it is done
    assert f"collector: {cli.GC_EVERY} True" in lines


def test_a_content_edit_of_the_same_size_rebuilds(demo: Project):
    pnp(demo)
    cards = demo.content_dir / "demo" / "cards.yaml"
    text = cards.read_text()
    changed = text.replace("Example Card", "Exemple Card")
    assert changed != text and len(changed) == len(text)
    cards.write_text(changed)
    os.utime(cards, ns=(0, 0))  # a changed file's time need not move: the bytes count
    again = pnp(demo)
    assert not answered(again) and "1 face rendered" in again[0]


def test_a_deleted_or_altered_output_is_made_again(demo: Project):
    pnp(demo)
    pdf = next((demo.output_dir / "demo" / "pdf").glob("*.pdf"))
    made = pdf.read_bytes()
    pdf.unlink()
    assert "(1 written)" in pnp(demo)[0]
    assert pdf.read_bytes() == made
    pdf.write_bytes(b"spoiled")
    assert "(1 written)" in pnp(demo)[0]
    extra = demo.output_dir / "demo" / "svg" / "stray.svg"
    extra.write_text("<svg/>")
    assert not answered(pnp(demo))  # a full build decides what to do with it


def test_an_edit_of_pnp_yaml_rebuilds(demo: Project):
    """pnp.yaml's options are read by the build: an edit of the same size, then a broken
    file, must not be answered from the record."""
    settings = demo.root / "pnp.yaml"
    settings.write_text("paper: a4\n")
    pnp(demo)
    assert answered(pnp(demo))
    print_pdf = demo.output_dir / "demo" / "demo-print.pdf"
    a4 = print_pdf.read_bytes()
    settings.write_text("paper: a3\n")
    os.utime(settings, ns=(0, 0))
    again = pnp(demo)
    assert not answered(again) and print_pdf.read_bytes() != a4  # the PDFs, on A3
    settings.write_text("paper: [\n")
    done = subprocess.run([sys.executable, "-c", CHILD, "build", "-p", str(demo.root)], capture_output=True, text=True,
                          cwd=demo.root, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2 and done.stderr.startswith(("pnp.yaml:", f"{settings}:")) and "malformed YAML" in done.stderr, done.stderr


@pytest.mark.parametrize("args", [("--force",), ("--paper", "a4"), ("-q",)])
def test_other_command_lines_are_not_answered_by_this_one(demo: Project, args):
    pnp(demo)
    assert answered(pnp(demo))
    assert not answered(pnp(demo, *args))


def test_a_file_saved_while_the_build_ran_is_not_trusted(demo: Project):
    """A file read that is newer than the build's start may have been read in either version:
    no record is kept, and the next build is a real one."""
    cards = demo.content_dir / "demo" / "cards.yaml"
    later = (int(os.stat(cards).st_mtime) + 3600) * 10**9  # saved while the build ran: after it started
    os.utime(cards, ns=(later, later))
    pnp(demo)
    assert not (demo.output_dir / witness.RECORD).exists()
    assert not answered(pnp(demo))


def test_a_link_to_nothing_in_the_output_folder_is_a_stray_entry(demo: Project):
    """A link to nothing put in the output folder is a stray entry like any other: the build
    runs and succeeds (it ended in `gone.svg: No such file or directory`, exit 2, once the
    build was done), and the next one is answered from its record."""
    pnp(demo)
    (demo.output_dir / "demo" / "gone.svg").symlink_to(demo.root / "nowhere.svg")
    assert not answered(pnp(demo))  # pnp() asserts exit 0
    assert answered(pnp(demo))


def test_code_and_environment_are_inputs(demo: Project, monkeypatch):
    pnp(demo)
    assert (demo.output_dir / witness.RECORD).is_file()
    assert answered(pnp(demo))
    monkeypatch.setenv("PNP_CONTENT_LIMITS", "size=9M")
    assert not answered(pnp(demo))


def test_only_command_lines_are_stamped(demo: Project):
    from typer.testing import CliRunner

    from pnp.cli import app

    assert CliRunner().invoke(app, ["build", "-q", "-p", str(demo.root)]).exit_code == 0
    assert not (demo.output_dir / witness.RECORD).exists()


def test_a_linked_folder_is_read_through(demo: Project, tmp_path: Path):
    elsewhere = demo.root / "elsewhere"  # a link inside the project (one leading out is refused: test_attacks_files.py)
    (demo.content_dir / "demo").rename(elsewhere)
    (demo.content_dir / "demo").symlink_to(elsewhere, target_is_directory=True)
    pnp(demo)
    cards = elsewhere / "cards.yaml"
    cards.write_text(cards.read_text().replace("Example Card", "Exemple Card"))
    assert not answered(pnp(demo))
    assert answered(pnp(demo))


def test_an_edit_builds_only_the_game_it_belongs_to(tmp_path: Path):
    """Each game's part of the record is what it read under its own folders: an edit to
    one game loads and builds that game alone; the others' lines come from the record."""
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "two")
    scaffold(project, "one")
    scaffold(project, "two")
    pnp(project)
    kept = {p: p.stat().st_mtime_ns for p in (project.output_dir / "two").rglob("*")}
    cards = project.content_dir / "one" / "cards.yaml"
    cards.write_text(cards.read_text().replace("Example Card", "Exemple Card"))
    lines = pnp(project)
    assert lines[0].startswith("one: ") and lines[0].endswith(", 1 face rendered; print output/one/one-print.pdf") and "(0 written)" not in lines[0]
    assert lines[1] == "two: 1 component, 3 pieces, 4 files (0 written), 1 sheet to print (1 unpacked) in 0.00s, 0 faces rendered; print output/two/two-print.pdf"
    assert {p: p.stat().st_mtime_ns for p in (project.output_dir / "two").rglob("*")} == kept
    assert answered(pnp(project))  # the record is whole again
    (project.root / "pnp.yaml").write_text("bleed: 2\n")  # what every game reads
    lines = pnp(project)
    assert not answered(lines) and all("faces rendered" in line and "in 0.00s" not in line for line in lines[:2])


def _build_while(demo: Project, monkeypatch, change) -> None:
    """`pnp build` in this process, `change()` made once the build has read its inputs
    and made its files, before the record is written (a reviewer did so with a timer)."""
    from pnp.build import driver

    real = driver.build

    def build(*args, **kwargs):
        reports = real(*args, **kwargs)
        change()
        return reports

    monkeypatch.setattr(driver, "build", build)
    monkeypatch.setattr(sys, "argv", ["pnp", "build", "-p", str(demo.root)])  # the command pnp() runs: one record
    monkeypatch.chdir(demo.root)
    with pytest.raises(SystemExit) as done:
        cli.main()
    assert done.value.code in (0, None)


def test_a_file_replaced_while_the_build_ran_by_an_older_copy_is_not_trusted(demo: Project, monkeypatch):
    """`mv`, `cp -p` or `tar x` put a file back with its older time: the time says nothing, its
    bytes differ from those the build first reached, so no record is kept (the next build
    answered 'nothing changed' and left the old faces)."""
    cards = demo.content_dir / "demo" / "cards.yaml"

    def older_copy() -> None:
        before = cards.stat().st_mtime_ns
        cards.write_text(cards.read_text().replace("title:", "title: Old", 1))
        os.utime(cards, ns=(before - 10**12, before - 10**12))

    _build_while(demo, monkeypatch, older_copy)
    assert not (demo.output_dir / witness.RECORD).exists()
    assert not answered(pnp(demo))


@pytest.mark.parametrize("where", ["content/demo/notes.yaml", "content/demo2/game.yaml"])
def test_a_file_or_game_added_while_the_build_ran_is_not_trusted(demo: Project, monkeypatch, where: str):
    """A folder's entries count as they were when the build first reached it: a data file or
    a game added while it ran makes the next build a real one (it was answered from the record)."""
    added = demo.root / where

    def add() -> None:
        added.parent.mkdir(exist_ok=True)
        added.write_text("title: Demo 2\n")

    _build_while(demo, monkeypatch, add)
    assert not (demo.output_dir / witness.RECORD).exists()


def test_an_output_file_removed_while_the_build_ran_is_made_again(demo: Project, monkeypatch):
    """A file the build made and a user removed before it ended: the record would have listed
    the folder without it, and no later build made it again."""
    pnp(demo)
    (demo.content_dir / "demo" / "cards.yaml").write_text((demo.content_dir / "demo" / "cards.yaml").read_text().replace("title:", "title: New", 1))
    back = next((demo.output_dir / "demo" / "svg").rglob("*back*.svg"))
    _build_while(demo, monkeypatch, back.unlink)
    assert not back.exists()
    assert not answered(pnp(demo))
    assert back.exists()


def test_outputs_are_named_from_their_folder_however_it_is_given(tmp_path: Path, monkeypatch):
    """Every file under a game's output folder, by its path from that folder, sliced off
    the names os.walk gives (os.path.relpath cost about 10 us a file: 5 ms of each build of
    the four games), whether the folder is given relatively or through '..'."""
    game = tmp_path / "out" / "game"
    (game / "svg" / "card").mkdir(parents=True)
    (game / "svg" / "card" / "a.svg").write_text("x")
    (game / "game-print.pdf").write_text("yy")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os.path, "relpath", lambda *args: pytest.fail("relpath"))
    for folder in (game, Path("out/game"), tmp_path / "out" / ".." / "out" / "game", Path("/") / game.relative_to("/")):
        found = witness._outputs(folder)
        assert {name: size for name, (size, _) in found.items()} == {"game-print.pdf": 2, os.path.join("svg", "card", "a.svg"): 1}
