"""A command-line mistake through the console script: one line naming the command, exit 2
(Typer draws a box of five lines under the usage); --help stays Typer's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ENTRY = "import sys; sys.argv[0] = 'pnp'; from pnp.cli import main; main()"


def pnp(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"})


@pytest.mark.parametrize("args, line", [
    (["build", "--players", "x"], "pnp build: Invalid value for '--players': "),
    (["build", "--frobnicate"], "pnp build: No such option: --frobnicate"),
    (["log", "frob"], "pnp log: No such command 'frob'"),
    (["score"], "pnp score: Missing argument 'SHEET'"),
    (["sheet", "cave"], "pnp sheet: Missing option '--players'"),
    (["--trust", "build", "--bleed"], "pnp build: Option '--bleed' requires an argument"),  # Click gives no command here
    (["log", "export", "--db"], "pnp log export: Option '--db' requires an argument"),
])
def test_a_usage_error_is_one_line_naming_the_command(tmp_path, args, line):
    done = pnp(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(line) and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.rstrip().endswith(f"(see {line.split(':')[0]} --help)")
    assert "╭" not in done.stderr and "Usage:" not in done.stderr
    assert not any(tmp_path.iterdir())


def test_help_and_the_version_are_as_before(tmp_path):
    helped = pnp(tmp_path, "build", "--help")
    assert helped.returncode == 0 and "Usage: pnp build [OPTIONS]" in helped.stdout and "╭─ Options" in helped.stdout
    alone = pnp(tmp_path, "log")  # a group alone prints its help, as Typer does: exit 2
    assert alone.returncode == 2 and "Commands" in alone.stdout and alone.stderr == ""
    version = pnp(tmp_path, "--version")
    assert version.returncode == 0 and version.stdout.startswith("pnp ")


def test_a_commands_own_exit_code_passes_through(tmp_path):
    done = pnp(tmp_path, "build", "--dpi", "5")
    assert (done.returncode, done.stderr) == (2, "pnp build: --dpi must be between 10 and 1200, got 5\n")
    assert pnp(tmp_path, "new", "g").returncode == 0
