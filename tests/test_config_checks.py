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


@pytest.mark.parametrize("yaml, end", [
    ("layuot: fold\n", "pnp.yaml:1:1: unknown key 'layuot': did you mean 'layout'?"),
    ("layouts:\n  mine: {magrin: 3}\n", "pnp.yaml:2:10: unknown key 'magrin': did you mean 'margin'?"),
    ("papers:\n  big: {width: 300, height: 400, colour: white}\n", "pnp.yaml:2:34: unknown key 'colour' (expected one of: width, height)"),
])
def test_a_misspelt_pnp_yaml_key_names_the_key_meant_in_every_section(demo: Project, yaml: str, end: str):
    """Before: `layuot` and `magrin` listed every allowed key, where game.yaml's `nmae` named
    the key meant; a key near none still lists them."""
    assert refused(demo, yaml).endswith(end)


@pytest.mark.parametrize("yaml, end", [
    ("papers:\n  A5: {width: 148, height: 210}\n", "pnp.yaml:2:3: papers: 'A5' is not a slug: expected lower-case letters, digits and '-'"),
    ("layouts:\n  My_Layout: {margin: 3}\n", "pnp.yaml:2:3: layouts: 'My_Layout' is not a slug"),
    # before: "expected a list of `- item` lines" alone, for the comma form `--format` takes
    ("formats: svg, pdf\n", "pnp.yaml:1:10: formats: expected a list of `- item` lines, got the text 'svg, pdf' (on one line: [svg, pdf])"),
])
def test_a_paper_or_layout_name_refused_is_named_by_its_section(demo: Project, yaml: str, end: str):
    """Before: `[key]: 'A5' is not a slug`, pydantic's marker for a mapping's key in front."""
    line = refused(demo, yaml)
    assert end in line and "[key]" not in line, line


@pytest.mark.parametrize("dpi", [0, 5000])
def test_a_pnp_yaml_dpi_out_of_range_names_the_file(demo: Project, dpi: int):
    line = refused(demo, f"paper: a4\ndpi: {dpi}\n")
    assert line.endswith(f"pnp.yaml:2:6: dpi must be between 10 and 1200, got {dpi}")  # at the value
    assert "--dpi" not in line


def test_the_command_line_dpi_is_still_blamed_on_the_option(demo: Project):
    result = runner.invoke(app, ["build", "--dpi", "5", "--project", str(demo.root)])
    assert result.exit_code == 2 and result.output.strip() == "pnp build: --dpi must be between 10 and 1200, got 5"


def test_no_formats_in_pnp_yaml_is_located(demo: Project):
    line = refused(demo, "formats: []\n")
    assert line.endswith("pnp.yaml:1:10: no format: expected some of svg, pdf, png, tts, pdf-single")


@pytest.mark.parametrize("value", ["[0.5]", "[1, 2, 3]", "2"])
def test_a_back_offset_of_other_than_two_numbers_says_what_it_takes(demo: Project, value: str):
    line = refused(demo, f"back_offset: {value}\n")
    assert line.endswith(f"pnp.yaml:1:14: back_offset: expected [across, down] in mm, e.g. [0.5, -1], got {value}")
    assert "tuple" not in line and "missing required key" not in line


@pytest.mark.parametrize("yaml, args, start", [("", ("--back-offset", "400,0"), "pnp build: back offset 400,0:"),
                                               ("", ("--back-offset", "nan,0"), "pnp build: back offset nan,0:"),
                                               ("back_offset: [0, -11]\n", (), "pnp.yaml:1:14: back offset 0,-11:")])
def test_a_back_offset_past_any_printer_is_refused(demo: Project, yaml: str, args: tuple[str, ...], start: str):
    """Every input has a limit: `--back-offset 400,0` was taken, and the backs printed off the
    paper. The calibration sheet reads up to 5 mm; more than 10 mm is a sheet fed the wrong way."""
    line = refused(demo, yaml, *args)
    assert line.split(str(demo.root) + "/")[-1].startswith(start), line
    assert line.endswith("expected each within 10 mm either way (the duplex calibration sheet reads up to 5 mm; "
                         "further off, the sheet was fed the wrong way)")


def test_layout_names_are_read_in_any_case_as_paper_names_are(demo: Project):
    result = runner.invoke(app, ["build", "--format", "svg", "--layout", "TIGHT", "--paper", "A4", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output


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


def test_a_layout_margin_that_leaves_no_piece_room_is_located(demo: Project):
    """margin 80 on Letter: every card was split in two (a bigger margin: '0 sheets' and a
    cover set one word a line); now the layout's margin is blamed, with the room and the piece."""
    line = refused(demo, "layouts:\n  wide: {margin: 80}\nlayout: wide\n")  # at 80 (before: at its key, margin)
    assert line.endswith("pnp.yaml:2:18: layout wide: paper letter (215.9 x 279.4 mm) less its 80 mm margins leaves 55.9 x 119.4 mm "
                         "to print on: the smallest piece that does not fit, card, is 69 x 94 mm with its bleed; "
                         "expected a smaller margin or a bigger paper")


def test_margins_past_the_middle_of_the_paper_leave_no_room(demo: Project):
    line = refused(demo, "layouts:\n  wide: {margin: 120}\nlayout: wide\n")
    assert "pnp.yaml:2:18: layout wide: " in line and "120 mm margins leaves no room to print on" in line


def test_a_custom_paper_too_small_for_a_command_line_layout_is_located_at_the_paper(demo: Project):
    line = refused(demo, "papers:\n  tiny: {width: 75mm, height: 100mm}\n", "--paper", "tiny", "--layout", "scissors")
    assert "pnp.yaml:2:3: layout scissors: paper tiny (75 x 100 mm) less its 8 mm margins leaves 59 x 84 mm" in line


def test_a_paper_too_small_to_split_a_piece_on_is_refused_for_the_component_pdfs(demo: Project):
    """The component PDFs keep 5 mm margins: 18 mm of paper leaves 8, less than the 10 mm
    that the pages of a split piece share."""
    line = refused(demo, "layouts:\n  zero: {margin: 0, cut: marks}\nlayout: zero\npapers:\n  strip: {width: 18, height: 95}\npaper: strip\n")
    assert line.endswith("pnp.yaml:5:3: the component PDFs: paper strip (18 x 95 mm) less its 5 mm margins leaves 8 x 85 mm to print on: "
                         "the smallest piece that does not fit, card, is 69 x 94 mm with its bleed; expected a bigger paper")


def test_built_in_choices_get_the_message_without_a_place(demo: Project):
    game = demo.content_dir / "demo" / "game.yaml"
    game.write_text(game.read_text().replace("size: poker", 'size: "200mm x 270mm"'))
    result = runner.invoke(app, ["build", "--layout", "scissors", "--project", str(demo.root)])
    assert result.exit_code == 2 and not (demo.root / "output").exists()
    assert result.output.startswith("layout scissors: paper letter (215.9 x 279.4 mm) less its 8 mm margins leaves 199.9 x 263.4 mm")
    (demo.root / "pnp.yaml").write_text("dpi: 150\n")  # a pnp.yaml that chose neither the layout nor the paper is not blamed
    result = runner.invoke(app, ["build", "--layout", "scissors", "--project", str(demo.root)])
    assert result.exit_code == 2 and result.output.startswith("layout scissors: paper letter (215.9 x 279.4 mm)"), result.output


@pytest.mark.parametrize("paper", ["{width: 65, height: 90}", "{width: 79, height: 104}"])
def test_a_piece_bigger_than_the_paper_is_still_split_and_one_that_fits_is_laid(demo: Project, paper: str):
    (demo.root / "pnp.yaml").write_text(f"papers:\n  small: {paper}\npaper: small\nlayout: standard\n")
    result = runner.invoke(app, ["build", "--format", "pdf", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert (demo.root / "output" / "demo" / "demo-print.pdf").is_file()
