"""`pnp sheet GAME --players N`: the blank printable scoring sheet, and sheet schemas."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pypdfium2
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

runner = CliRunner()
PT = 72 / 25.4


def cli(*args: str):
    return runner.invoke(app, [*args, "--project", str(REPO)])


@pytest.mark.parametrize("players, paper, size", [(1, "letter", (215.9, 279.4)), (4, "a4", (210, 297))])
def test_printable_sheet_is_one_page_svg_and_pdf(tmp_path, players, paper, size):
    result = cli("sheet", "tasty-humans", "--players", str(players), "--paper", paper, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    svg = tmp_path / f"scoring-sheet-{players}p.svg"
    pdf = pypdfium2.PdfDocument(tmp_path / f"scoring-sheet-{players}p.pdf")
    assert len(pdf) == 1
    assert pdf[0].get_size() == pytest.approx((size[0] * PT, size[1] * PT), abs=0.01)
    root = ET.parse(svg).getroot()
    assert (root.get("width"), root.get("height")) == ("200mm", "265mm")
    text = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert f"{players} player" in text


def test_no_sheet_for_an_impossible_player_count(tmp_path):
    result = cli("sheet", "tasty-humans", "--players", "5", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.output.strip() == "tasty-humans: no scoring sheet for 5 players: expected one of 1, 2, 3, 4"
    assert not list(tmp_path.iterdir())


def test_schema_command_includes_the_scoring_sheet(tmp_path):
    result = cli("schema", "tasty-humans", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "tasty-humans").iterdir())
    assert names == sorted(
        ["game.schema.json", "rules.schema.json", "adventurers.schema.json", "leaders.schema.json", "monsters.schema.json",
         "reference.schema.json", "sheet.schema.json"]
    )
    sheet = json.loads((tmp_path / "tasty-humans/sheet.schema.json").read_text())
    assert "players" in sheet["properties"]
