"""The command line: exit codes, one-line errors, and each command's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project

runner = CliRunner()


def pnp(project: Project, *args: str):
    return runner.invoke(app, [*args, "--project", str(project.root)])


def test_build_prints_a_summary_line_per_game(demo: Project):
    result = pnp(demo, "build")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("demo: 1 component, 3 pieces, 4 files (4 written), 1 sheet to print (1 unpacked) in ")
    again = pnp(demo, "build")
    assert "(0 written)" in again.output


def test_build_quiet_prints_nothing(demo: Project):
    result = pnp(demo, "build", "--quiet")
    assert result.exit_code == 0 and result.output == ""


def test_bad_yaml_gives_one_line_and_exit_2_without_traceback(demo: Project):
    (demo.content_dir / "demo/cards.yaml").write_text("cards:\n  - id: x\n    title: [unclosed\n")
    result = pnp(demo, "build")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "cards.yaml:3:12: malformed YAML: the '[' here is not closed" in lines[0], lines
    assert "Traceback" not in result.output
    assert not demo.output_dir.exists()


def test_unknown_game_format_and_paper_are_errors(demo: Project):
    assert pnp(demo, "build", "nope").output.strip().startswith("pnp build: unknown game 'nope': expected one of demo, or a game shipped with pnp: cave, ")
    typo = pnp(demo, "build", "dmeo")  # a typo: the nearest name, said once
    assert typo.exit_code == 2 and typo.output.strip().startswith("pnp build: unknown game 'dmeo' (did you mean 'demo'?): expected one of demo,")
    assert pnp(demo, "build", "--format", "gif").exit_code == 2
    result = pnp(demo, "build", "--paper", "b5")
    assert result.exit_code == 2 and "unknown paper 'b5'" in result.output


def test_an_unknown_paper_or_layout_says_where_a_project_adds_its_own_and_names_the_one_meant(demo: Project):
    """Before: `--paper a5` listed the five built-in papers only, as if no other could be used,
    and `--layout scisors` named no layout meant."""
    paper = pnp(demo, "build", "--paper", "a44")
    assert paper.output == ("pnp build: unknown paper 'a44': expected one of letter, a4, a3, tabloid, legal, "
                            "or one of your own under `papers:` in pnp.yaml (did you mean 'a4'?)\n")
    layout = pnp(demo, "build", "--layout", "scisors")
    assert layout.output == ("pnp build: unknown layout 'scisors': expected one of standard, tight, fold, scissors, "
                             "or one of your own under `layouts:` in pnp.yaml (did you mean 'scissors'?)\n")
    (demo.root / "pnp.yaml").write_text("papers:\n  a5: {width: 148mm, height: 210mm}\npaper: a55\n")
    settings = pnp(demo, "build")
    assert settings.exit_code == 2 and settings.output.endswith(
        "pnp.yaml:3:8: unknown paper 'a55': expected one of letter, a4, a3, tabloid, legal, a5, "
        "or one of your own under `papers:` in pnp.yaml (did you mean 'a5'?)\n"), settings.output


def test_an_option_error_names_its_command_as_the_option_parsers_do(demo: Project):
    """Before: `unknown paper 'b5'` and `cut files need ...` alone, without the `pnp build:`
    that Click's own errors (`pnp build: No such option: ...`) carry."""
    paper = pnp(demo, "build", "--paper", "b5")
    assert (paper.exit_code, paper.output) == (2, "pnp build: unknown paper 'b5': expected one of letter, a4, a3, tabloid, legal, "
                                                  "or one of your own under `papers:` in pnp.yaml\n")
    cut = pnp(demo, "build", "--cut-file", "--format", "svg")
    assert cut.exit_code == 2 and cut.output.startswith("pnp build: cut files need the pdf format "), cut.output
    pairs = pnp(demo, "list", "--set", "x")
    assert (pairs.exit_code, pairs.output) == (2, "pnp list: --set 'x': expected KEY=VALUE, e.g. --set rules=0.2.8\n")
    # the same choice made in pnp.yaml is blamed there, at its value (before: its key, 2:1), with no command named
    (demo.root / "pnp.yaml").write_text("formats: [svg]\ncut_file: true\n")
    located = pnp(demo, "build")
    assert (located.exit_code, located.output.startswith(f"{demo.root / 'pnp.yaml'}:2:11: cut files need")) == (2, True), located.output


def test_validate_ok_and_errors(demo: Project):
    assert pnp(demo, "validate").output.strip() == "ok"
    (demo.content_dir / "demo/game.yaml").write_text(
        (demo.content_dir / "demo/game.yaml").read_text().replace("front: card.svg.j2", "front: missing.svg.j2")
    )
    result = pnp(demo, "validate")
    assert result.exit_code == 2
    assert "game.yaml:10:5: template not found: templates/demo/missing.svg.j2\n" in result.output
    (demo.content_dir / "demo/game.yaml").write_text(
        (demo.content_dir / "demo/game.yaml").read_text().replace("front: missing.svg.j2", "front: crad.svg.j2"))
    assert "template not found: templates/demo/crad.svg.j2 (did you mean 'card.svg.j2'?)" in pnp(demo, "validate").output


def test_list_shows_components_and_counts(demo: Project):
    result = pnp(demo, "list")
    assert result.exit_code == 0
    assert "card" in result.output and "63 x 88" in result.output and "3" in result.output


def test_list_shows_a_round_piece_as_round(demo: Project):
    """Before: "25 x 25", as if the piece were a square."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("size: poker ", "size: 25mm x 25mm\n    shape: round\n   "))
    result = pnp(demo, "list")
    assert result.exit_code == 0, result.output
    (row,) = [line for line in result.output.splitlines() if "card" in line]
    assert "│ 25 round " in row and "25 x 25" not in row, result.output


def test_validate_and_list_take_the_game_options_a_build_takes(demo: Project):
    """A template error that shows only under an option, and the piece counts under it, are
    what `validate` and `list` report given the same --players and --set as the build."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("copies: item.copies ", "copies: item.copies * (options.players or 1)")
                    + "options:\n  players: {type: int, min: 1, max: 4}\n  edition: {choices: [plain, fancy], default: plain}\n")
    card = demo.root / "templates/demo/card.svg.j2"
    card.write_text(card.read_text().replace("{% endfor %}\n", "{% endfor %}\n{% if options.edition == 'fancy' %}{{ item.flourish }}{% endif %}\n"))
    assert pnp(demo, "validate").output.strip() == "ok"
    failed = pnp(demo, "validate", "--set", "edition=fancy")
    assert failed.exit_code == 2 and "templates/demo/card.svg.j2:" in failed.output and "flourish" in failed.output, failed.output
    bad = pnp(demo, "validate", "--players", "9")
    assert bad.exit_code == 2 and "--players 9: expected a number of players from 1 to 4" in bad.output, bad.output
    rows = {n: [line for line in pnp(demo, "list", *args).output.splitlines() if "63 x 88" in line] for n, args in
            ((1, ()), (4, ("--players", "4")))}
    assert "│ 3 " in rows[1][0] and "│ 12 " in rows[4][0], rows


def test_schema_writes_json_schema_per_content_file(demo: Project):
    result = pnp(demo, "schema")
    assert result.exit_code == 0
    schema = json.loads((demo.output_dir / "schema/demo/game.schema.json").read_text())
    assert "components" in schema["properties"]


def test_new_scaffolds_a_game_that_builds_and_refuses_to_overwrite(demo: Project):
    result = pnp(demo, "new", "second-game")
    assert result.exit_code == 0
    assert pnp(demo, "build", "second-game").exit_code == 0
    assert (demo.output_dir / "second-game/pdf/card.pdf").is_file()
    again = pnp(demo, "new", "second-game")
    assert again.exit_code == 2 and "already exists" in again.output
    bad = pnp(demo, "new", "Bad Name")
    assert (bad.exit_code, bad.output.strip()) == (2, "pnp new Bad Name: expected a game name of lower-case letters, digits and '-', "
                                                      "starting with a letter or digit")


def test_new_names_the_folder_as_typed_and_says_when_it_hides_a_shipped_game(demo: Project, monkeypatch):
    monkeypatch.chdir(demo.root)
    assert pnp(demo, "new", "second-game").exit_code == 0
    again = pnp(demo, "new", "second-game")
    assert again.output.strip() == "content/second-game: game 'second-game' already exists; nothing was created"
    made = pnp(demo, "new", "cave")
    assert made.exit_code == 0 and "note: pnp ships a game named cave; in this project, this one is used instead" in made.output


def test_build_in_a_terminal_shows_progress_then_the_summary(demo: Project):
    """In a terminal `pnp build` draws a progress bar as it goes (the cursor hidden while it
    is up, given back after; how often the bar is drawn depends on the build's speed), then
    the same summary line as anywhere else."""
    result = runner.invoke(app, ["build", "--project", str(demo.root)], env={"TTY_COMPATIBLE": "1", "COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("\x1b[?25l") and "\x1b[?25h" in result.output  # the bar's display, then its end
    last = result.output.rsplit("\x1b", 1)[-1]  # after the bar's last control sequence
    assert "demo: 1 component, 3 pieces, 4 files (4 written), 1 sheet to print (1 unpacked) in " in last
    assert last.endswith("demo-print.pdf\n") and result.output.count("demo: 1 component") == 1


def test_python_dash_m_runs_the_command_line():
    """`python -m pnp` had no __main__ and `python -m pnp.cli` imported the module and did
    nothing, exit 0: both run the command line as the `pnp` script does."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from pnp import __version__

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    for module in ("pnp", "pnp.cli"):
        done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, env=env, timeout=60)
        assert (done.returncode, done.stdout) == (0, f"pnp {__version__}\n"), (module, done)
        wrong = subprocess.run([sys.executable, "-m", module, "build", "--bogus"], capture_output=True, text=True, env=env, timeout=60)
        assert wrong.returncode == 2 and "No such option: --bogus" in wrong.stderr, (module, wrong)


# Ctrl-C while pnp.cli is still importing (an import hook sends SIGINT as typer is looked
# for), or once the command has answered, while Python shuts down (an exit handler sends it).
CTRL_C = {
    "importing": "class Stop:\n"
                 "    def find_spec(self, name, *_):\n"
                 "        if name == 'typer':\n"
                 "            os.kill(os.getpid(), signal.SIGINT); time.sleep(5)\n"
                 "sys.meta_path.insert(0, Stop())",
    "shutting down": "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(5)))",
}


@pytest.mark.parametrize("when", CTRL_C)
def test_ctrl_c_at_any_moment_exits_130_without_a_traceback(when: str):
    """Before: a KeyboardInterrupt traceback (exit -2 importing, 0 shutting down). The console
    script's entry point (pyproject.toml) is what runs, as the installed `pnp` would."""
    import os
    import subprocess
    import sys
    import tomllib

    repo = Path(__file__).resolve().parent.parent
    entry = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["pnp"]
    module, _, function = entry.partition(":")
    code = (f"import atexit, os, signal, sys, time\n{CTRL_C[when]}\n"
            f"sys.argv = ['pnp', '--version']\nimport {module}\n{module}.{function}()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(repo)})
    assert (done.returncode, done.stderr) == (130, "interrupted\n"), done
    if when == "shutting down":  # what the command printed stays
        assert done.stdout.startswith("pnp "), done


def test_a_full_disk_or_a_read_only_folder_names_the_file_pnp_meant_to_write(demo: Project, monkeypatch):
    """A write that fails names the file pnp was writing: not its temporary file
    (`.x.svg.123-0.tmp`), and not `pnp` when the error (a full disk) names no file."""
    import errno
    import os
    import re

    fdopen, open_ = os.fdopen, os.open

    class Full:
        def __init__(self, fd: int):
            self.handle = fdopen(fd, "wb")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    output = demo.root / "output"

    def read_only(path, flags, *args, **kwargs):
        if str(path).startswith(str(output)) and str(path).endswith(".tmp"):  # pnp's own, in the output folder
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return open_(path, flags, *args, **kwargs)

    for patch, said in ((("fdopen", lambda fd, mode="r", *a, **k: Full(fd) if mode == "wb" else fdopen(fd, mode, *a, **k)), "No space left on device"),
                        (("open", read_only), "Read-only file system")):
        with monkeypatch.context() as m:
            m.setattr(os, *patch)
            result = pnp(demo, "build")
        assert result.exit_code == 2, result.output
        assert re.fullmatch(rf"{re.escape(str(output))}/demo/([\w-]+/)*[\w-]+\.(svg|pdf|json): {said}\n", result.output), result.output
        assert not list(output.rglob("*.tmp"))


def test_out_naming_a_file_is_refused_early(demo: Project, tmp_path):
    """`--out` naming a plain file: one line saying so, not one about '..' and links under it."""
    plain = tmp_path / "notes.txt"
    plain.write_text("mine\n")
    for command in ("build", "preview"):
        result = pnp(demo, command, "--out", str(plain))
        assert result.exit_code == 2, result.output
        assert result.output == f"pnp {command}: {plain}: is a file, not a folder (--out names the output folder)\n"
    result = pnp(demo, "build", "--out", str(plain / "under"))  # a folder under the file: the file named, not a lock under it
    assert result.exit_code == 2 and result.output == f"pnp build: {plain}: is a file, not a folder (--out names the output folder)\n", result.output
    assert plain.read_text() == "mine\n"


@pytest.mark.parametrize("out, said", [
    ("content", "lies in the project's content/ folder"),
    ("content/demo", "lies in the project's content/ folder"),
    ("templates", "lies in the project's templates/ folder"),
    ("assets/x", "lies in the project's assets/ folder"),
    ("plugins", "lies in the project's plugins/ folder"),
    (".", "is the project folder"),
    ("..", "holds the project folder"),
])
def test_out_among_the_projects_sources_is_refused(demo: Project, out: str, said: str):
    """Before: `--out content` wrote output into the game's sources (demo/..., a cut file and
    a print PDF beside game.yaml); now one line naming the option, exit 2, nothing written."""
    before = sorted(demo.root.rglob("*"))
    for command in ("build", "schema"):
        result = pnp(demo, command, "--out", str(demo.root / out))
        assert result.exit_code == 2, result.output
        assert result.output == (f"pnp {command}: --out {demo.root / out}: {said}: expected a folder for generated files, not the project "
                                 "folder nor one holding it, and outside content/, templates/, assets/ and plugins/ (default: output/)\n")
    assert sorted(demo.root.rglob("*")) == before
    assert pnp(demo, "build", "--format", "svg", "--out", str(demo.root / "prints")).exit_code == 0  # a folder of its own in the project is fine


@pytest.mark.parametrize("command, out, said, expected", [
    (["sheet", "tasty-humans", "-n", "2", "--template"], "content/tasty-humans/rules.yaml", "lies in the project's content/ folder", "file"),
    (["sheet", "tasty-humans", "-n", "2", "--schema"], "templates/tasty-humans/scoring-sheet.svg.j2", "lies in the project's templates/ folder", "file"),
    (["sheet", "tasty-humans", "-n", "2", "--template"], "pnp.yaml", "is the project's pnp.yaml", "file"),
    (["sheet", "tasty-humans", "-n", "2"], "templates/tasty-humans", "lies in the project's templates/ folder", "folder"),
    (["log", "export", "--csv"], "content/tasty-humans/leaders.yaml", "lies in the project's content/ folder", "file"),
    (["log", "export", "--csv"], "pnp-log.sqlite", "is the play-test log", "file"),
    (["sheet", "tasty-humans", "-n", "2", "--template"], "pnp-log.sqlite", "is the play-test log", "file"),
])
def test_sheet_and_log_export_out_among_the_projects_sources_is_refused(
        copy_game, trusted, command: list[str], out: str, said: str, expected: str):
    """Before: `pnp sheet --template --out content/.../rules.yaml` or `pnp log export --csv --out`
    onto a content file overwrote it with a blank sheet or a CSV; now `pnp build --out`'s door:
    one line naming the option, exit 2, every source file as it was."""
    project = trusted(copy_game("tasty-humans"))
    (project.root / "pnp.yaml").write_text("paper: a4\n")
    assert pnp(project, "log", "import", str(Path(__file__).parent.parent / "examples" / "tasty-humans-2p.yaml")).exit_code == 0
    before = {p: p.read_bytes() for p in sorted(project.root.rglob("*")) if p.is_file()}
    result = pnp(project, *command, "--out", str(project.root / out))
    assert result.exit_code == 2, result.output
    wanted = ("a file for generated output, outside content/, templates/, assets/ and plugins/ and not pnp.yaml nor the play-test log"
              if expected == "file" else
              "a folder for generated files, not the project folder nor one holding it, and outside content/, templates/, "
              "assets/ and plugins/ (default: output/)")
    name = "log export" if command[0] == "log" else command[0]
    assert result.output == f"pnp {name}: --out {project.root / out}: {said}: expected {wanted}\n"
    assert {p: p.read_bytes() for p in sorted(project.root.rglob("*")) if p.is_file()} == before
    mine = pnp(project, *command, "--out", str(project.root / ("played.csv" if expected == "file" else "played")))
    assert mine.exit_code == 0, mine.output  # a file or folder of its own in the project is fine


def test_log_export_out_onto_the_db_it_reads_is_refused(copy_game, trusted, tmp_path):
    """Before: `pnp log export --csv --db games.sqlite --out games.sqlite` overwrote the log it
    read with its CSV (every logged game lost); now one line, exit 2, the log as it was."""
    project = trusted(copy_game("tasty-humans"))
    db = tmp_path / "games.sqlite"
    sheet = str(Path(__file__).parent.parent / "examples" / "tasty-humans-2p.yaml")
    assert pnp(project, "log", "import", "--db", str(db), sheet).exit_code == 0
    before = db.read_bytes()
    result = pnp(project, "log", "export", "--csv", "--db", str(db), "--out", str(db))
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"pnp log export: --out {db}: is the play-test log: expected a file")
    assert result.output.count("\n") == 1
    assert db.read_bytes() == before
