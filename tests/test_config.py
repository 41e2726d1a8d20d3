"""pnp/config.py is the one place papers and options come from: every command sees pnp.yaml's."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
from typer.testing import CliRunner

from pnp.build.driver import FORMATS
from pnp.cli import app
from pnp.config import FORMAT_NAMES
from pnp.load.content import Project

runner = CliRunner()
HALF_LETTER = "paper: half-letter\npapers:\n  half-letter: {width: 5.5in, height: 8.5in}\n"
HALF_LETTER_PT = (396.0, 612.0)  # 5.5 x 8.5 in


def pnp(root: Path, *args: str):
    return runner.invoke(app, [*args, "--project", str(root)])


def page_sizes(pdf: Path) -> set[tuple[float, float]]:
    doc = pypdfium2.PdfDocument(pdf)
    return {tuple(round(v, 1) for v in page.get_size()) for page in doc}


def test_a_pnp_yaml_paper_is_the_builds_paper(demo: Project):
    (demo.root / "pnp.yaml").write_text(HALF_LETTER)
    result = pnp(demo.root, "build", "--format", "pdf")
    assert result.exit_code == 0, result.output
    assert page_sizes(demo.root / "output" / "demo" / "demo-print.pdf") == {HALF_LETTER_PT}


def test_a_pnp_yaml_paper_is_the_scoring_sheets_paper(tmp_path: Path):
    """`pnp sheet` used to know only the built-in papers (`unknown paper 'half-letter'`)."""
    (tmp_path / "pnp.yaml").write_text(HALF_LETTER)
    result = pnp(tmp_path, "sheet", "tasty-humans", "--players", "2", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert page_sizes(tmp_path / "out" / "scoring-sheet-2p.pdf") == {HALF_LETTER_PT}


def test_the_command_line_paper_wins_over_pnp_yaml_for_the_sheet(tmp_path: Path):
    (tmp_path / "pnp.yaml").write_text(HALF_LETTER)
    result = pnp(tmp_path, "sheet", "tasty-humans", "--players", "2", "--paper", "A4", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert page_sizes(tmp_path / "out" / "scoring-sheet-2p.pdf") == {(595.3, 841.9)}


def test_an_unknown_sheet_paper_is_one_line(tmp_path: Path):
    result = pnp(tmp_path, "sheet", "tasty-humans", "--players", "2", "--paper", "half-letter", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "unknown paper 'half-letter': expected one of letter" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_pnp_yaml_is_checked_against_the_formats_build_makes():
    assert FORMAT_NAMES == tuple(FORMATS)

