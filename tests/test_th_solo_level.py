"""An empty solo A.I. level (`level: null`, what the blank 0.2.8 solo sheet writes, since
0.2.8 suggests no first level, O235-237) is one line saying what to write, from
rules.yaml solo: the levels a version names (F224-227) or N starting cards."""

from __future__ import annotations

from typer.testing import CliRunner

from pnp.cli import app
from test_th_scoring_sheet import REPO, problems

runner = CliRunner()


def test_an_empty_level_says_what_to_write(sheet):
    old = (REPO / "examples" / "tasty-humans-solo-0.2.8.yaml").read_text(encoding="utf-8")
    assert problems(sheet(old.replace("  level: 3\n", "  level: null\n"))) == [
        "game.yaml:23: solo.level: is empty: expected the A.I. level played, the number of cards the A.I. started with, "
        "0 or more (Rules 0.2.8 name no levels)"
    ]
    published = (REPO / "examples" / "tasty-humans-solo.yaml").read_text(encoding="utf-8")
    assert problems(sheet(published.replace("  level: 2\n", "  level:\n"))) == [
        "game.yaml:21: solo.level: is empty: expected the A.I. level played, 0 to 6 "
        "(the A.I. starts with that many cards; 2 is suggested for a first solo game)"
    ]


def test_the_blank_0_2_8_solo_sheet_scored_unchanged_names_the_level(sheet):
    result = runner.invoke(app, ["sheet", "tasty-humans", "--players", "1", "--template", "--set", "rules=0.2.8"])
    assert result.exit_code == 0, result.output
    assert "level: null" in result.output
    lines = problems(sheet(result.output))
    assert any(line.endswith(": solo.level: is empty: expected the A.I. level played, the number of cards the A.I. "
                             "started with, 0 or more (Rules 0.2.8 name no levels)") for line in lines), lines
    assert not any("valid integer" in line for line in lines), lines
