"""`pnp sheet dietrick-taking -n N`: the paper scoring sheet, one per player count (1: solo
against Fuzz), laid out as the YAML sheet of `--template` and reminding the end-of-game
rules in the reference card's words (players.yaml), with scoring.yaml's numbers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project, load_game

REPO = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def cli(*args: str):
    return CliRunner().invoke(app, [*args, "--project", str(REPO)])


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), "dietrick-taking")


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_printable_sheet_for_every_player_count(tmp_path, game, players):
    result = cli("sheet", "dietrick-taking", "-n", str(players), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = pypdfium2.PdfDocument(tmp_path / f"scoring-sheet-{players}p.pdf")
    assert len(pdf) == 1
    root = ET.parse(tmp_path / f"scoring-sheet-{players}p.svg").getroot()
    assert (root.get("width"), root.get("height")) == ("200mm", "130mm")
    words = texts(root)
    text = " ".join(words)
    scoring, reference = game.data["scoring"], game.data["players"].reference
    # one row per participant: solo, the player and Fuzz (printed)
    table = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "table")
    rows = [r for r in table.iter(f"{SVG}rect")]
    assert len(rows) == (2 if players == 1 else players)
    assert ("Fuzz" in words) == (players == 1)
    assert ("solo against Fuzz" if players == 1 else f"{players} players") in text
    # the free scoring cards as boxes, the last card printed after them; both variants
    boxes = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "box-order"]
    assert len(boxes) == len(scoring.free_cards) + 1 and str(scoring.last_card) in words
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("class") == "box-variant"]) == 2
    # the rules of the end, from the reference card: solo its own end and the winner rule
    headings = [h for h, _ in (reference.solo_sheet(scoring) if players == 1 else reference.side("back", scoring))]
    assert all(h in words for h in headings), headings
    if players > 1:
        # the game lengths with pnp's 4-player ruling, as the reference card prints them
        assert "9 tricks at 4 (our count; the book says 10)" in text
        assert "Ties: higher bottom number," in text
    else:
        assert f"reaches square {scoring.end_square}" in text and "Fuzz wins a tied gap" in text
        assert "Winner" in words and "on the same gap Fuzz wins," in text
        # the multi-player tie-break is not the solo game's (dietrick-taking-rules.txt line 103)
        assert "Ties:" not in text and "higher bottom number" not in text and "shared win" not in text


@pytest.mark.parametrize("players", [1, 3])
def test_every_sheet_prints_the_variants_it_has_a_column_and_a_box_for(tmp_path, copy_game, players):
    """The Long Game column (rules line 87) and the Beginner Class box (line 89) come with
    their rules, the solo sheet's too, the number of wins from scoring.yaml as the scorer
    reads it."""
    project = copy_game("dietrick-taking")
    path = project.content_dir / "dietrick-taking" / "scoring.yaml"
    path.write_text(path.read_text().replace("long_game_wins: 2", "long_game_wins: 3", 1))
    result = CliRunner().invoke(app, ["sheet", "dietrick-taking", "-n", str(players), "--out", str(tmp_path / "out"),
                                      "--project", str(project.root)])
    assert result.exit_code == 0, result.output
    words = texts(ET.parse(tmp_path / "out" / f"scoring-sheet-{players}p.svg").getroot())
    text = " ".join(words)
    assert "Long Game: earlier wins" in words and "Long Game" in words and "first to 3 wins" in text
    assert "Beginner Class" in words and "smallest gap in squares" in text


def test_no_printable_sheet_for_five(tmp_path):
    result = cli("sheet", "dietrick-taking", "-n", "5", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "--players 5" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
