"""The w10 new designer's smaller findings: `pnp watch` stopped with Ctrl-C exits 130 as the
exit codes in docs/writing-games.md say (and prints no watchfiles line); the build summary counts in good
English ("1 component", "1 sheet to print"); `pnp schema` and `pnp new` name the files they
write from the working folder, as every other command does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.errors import counted as _many
from pnp.load.content import Project

runner = CliRunner()


def test_the_build_summary_says_one_of_a_kind_in_the_singular(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, ["new", "mygame"])
    assert made.exit_code == 0 and "created content/mygame/game.yaml\n" in made.output, made.output
    result = runner.invoke(app, ["build"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("mygame: 1 component, 3 pieces, 4 files (4 written), 1 sheet to print (1 unpacked) in "), result.output
    assert result.output.rstrip().endswith(", 2 faces rendered; print output/mygame/mygame-print.pdf")
    assert [_many(n, "face") for n in (0, 1, 2)] == ["0 faces", "1 face", "2 faces"]


def test_schema_names_the_files_from_the_working_folder(demo: Project, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(demo.root)
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "output/schema/demo/game.schema.json" in lines and all(line.startswith("output/schema/") for line in lines), lines


def test_watch_stopped_with_ctrl_c_exits_130(demo: Project, tmp_path: Path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    watch = subprocess.Popen([sys.executable, "-c", "from pnp.cli import main; main()", "watch", "--format", "svg", "--project", str(demo.root)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        assert watch.stdout is not None
        for line in watch.stdout:  # the first build, then the folders watched
            if line.startswith("watching ") or time.monotonic() > deadline:
                break
        watch.send_signal(signal.SIGINT)
        _, errors = watch.communicate(timeout=60)
    finally:
        if watch.poll() is None:
            watch.kill()
    assert watch.returncode == 130, errors
    assert errors.strip() == "interrupted" and "KeyboardInterrupt" not in errors
