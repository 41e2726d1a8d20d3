"""pnp.yaml's values are checked where they are read: a bad one is one `pnp.yaml:line:col:`
line, exit 2, nothing written (not an internal error, nor a command-line option blamed)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.config import PAPER_RANGE
from pnp.load.content import Project

runner = CliRunner()


def refused(project: Project, yaml: str, *args: str) -> str:
    """The one line `pnp build` prints for this pnp.yaml, having written nothing."""
    (project.root / "pnp.yaml").write_text(yaml)
    result = runner.invoke(app, ["build", *args, "--project", str(project.root)])
    assert result.exit_code == 2, result.output
    assert not (project.root / "output").exists()
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("dpi", [0, 5000])
def test_a_pnp_yaml_dpi_out_of_range_names_the_file(demo: Project, dpi: int):
    line = refused(demo, f"paper: a4\ndpi: {dpi}\n")
    assert line.endswith(f"pnp.yaml:2:1: dpi must be between 10 and 1200, got {dpi}")
    assert "--dpi" not in line


def test_the_command_line_dpi_is_still_blamed_on_the_option(demo: Project):
    result = runner.invoke(app, ["build", "--dpi", "5", "--project", str(demo.root)])
    assert result.exit_code == 2 and result.output.strip() == "--dpi must be between 10 and 1200, got 5"


def test_no_formats_in_pnp_yaml_is_located(demo: Project):
    line = refused(demo, "formats: []\n")
    assert line.endswith("pnp.yaml:1:1: no format: expected some of svg, pdf, png, tts, pdf-single")


@pytest.mark.parametrize("value", ["[0.5]", "[1, 2, 3]", "2"])
def test_a_back_offset_of_other_than_two_numbers_says_what_it_takes(demo: Project, value: str):
    line = refused(demo, f"back_offset: {value}\n")
    assert line.endswith(f"pnp.yaml:1:1: back_offset: expected [across, down] in mm, e.g. [0.5, -1], got {value}")
    assert "tuple" not in line and "missing required key" not in line


def test_a_back_offset_of_two_numbers_is_taken(demo: Project):
    (demo.root / "pnp.yaml").write_text("back_offset: [0.5, -1]\n")
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("size, shown", [("{width: 1mm, height: 1mm}", "1 x 1 mm"), ("{width: 600cm, height: 100}", "6000 x 100 mm"),
                                         ("{width: 210, height: 5100}", "210 x 5100 mm")])
def test_a_paper_no_pdf_page_can_be_is_located(demo: Project, size: str, shown: str | None):
    """PDF pages are 3 to 14400 pt a side: a paper outside that was `internal error: ValueError`."""
    yaml = f"papers:\n  tiny: {size}\npaper: tiny\n"
    (demo.root / "pnp.yaml").write_text(yaml)
    result = runner.invoke(app, ["build", "--project", str(demo.root)])
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output and not (demo.root / "output").exists()
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and "pnp.yaml:2:" in line
    if shown is not None:
        assert line.endswith(f"tiny: a paper is 1.06 to 5080 mm a side (what a PDF page can be), got {shown}")


def test_the_paper_limits_are_the_pdf_page_limits():
    low, high = PAPER_RANGE
    assert round(low * 72 / 25.4, 6) == 3 and round(high * 72 / 25.4, 6) == 14400


def test_a_paper_at_the_pdf_limit_is_taken(demo: Project):
    (demo.root / "pnp.yaml").write_text("papers:\n  banner: {width: 200in, height: 200in}\npaper: banner\n")
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
