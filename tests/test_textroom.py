"""Every wrapped paragraph is checked against the room its template gives it: a text made
too long in a copy of each game fails the build at its content line (exit 2, nothing written)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.render.textfit import TextFit

runner = CliRunner()
STORY = " Then tell the whole table a long story about it, with every detail you remember."


def test_wrap_reports_a_word_wider_than_its_line_unless_the_caller_fits_it():
    fit = TextFit()
    word = "Wolfeschlegelsteinhausenbergerdorff"
    assert fit.wrap(f"a {word} b", 20, 4) == ["a", word, "b"]
    (problem,) = fit.take()
    over = fit.text_width(word, 4) - 20
    assert f"the word '{word}'" in problem.message and f"{over:.1f} mm too wide" in problem.message
    assert fit.wrap(f"a {word} b", 20, 4, long_words="ok") == ["a", word, "b"] and fit.take() == []
    assert fit.wrap("short words only", 20, 4) and fit.take() == []


def test_wrap_reports_more_lines_than_its_room():
    fit = TextFit()
    text = "one two three four"
    assert len(fit.wrap(text, 10, 4, height=20, step=5)) == 4 and fit.take() == []  # 4 x 5 mm = 20 mm
    fit.wrap(text, 10, 4, height=19.9, step=5)
    (problem,) = fit.take()
    assert "does not fit its 10.0 mm x 19.9 mm box" in problem.message
    assert "4 lines need 20.0 mm, 0.1 mm too tall (room for 3)" in problem.message
    fit.wrap(text, 10, 4, height=-3)  # a paragraph that starts below its box has no room at all
    assert "room for 0" in fit.take()[0].message
    assert fit.wrap("", 10, 4, height=0) == [""] and fit.take() == []  # no text needs no room
    fit.wrap(text, 10, 4, max_lines=3)
    assert "1 more than the 3" in fit.take()[0].message
    # a template that measures a text, then draws it, reports it once
    fit.wrap(text, 10, 4, height=5)
    fit.wrap(text, 10, 4, height=5)
    assert len(fit.take()) == 1


def test_check_room_for_layouts_that_add_heights():
    fit = TextFit()
    assert fit.check_room("a block", 10, 10) and fit.take() == []
    assert not fit.check_room("a block", 12.5, 10)
    (problem,) = fit.take()
    assert "needs 12.5 mm of height where 10.0 mm is left: 2.5 mm too tall" in problem.message


def _lengthen(path: Path, old: str, extra: str, key: str = "") -> int:
    """Add `extra` after `old` in a content file; gives the line of the last `key` up to
    `old` (where the YAML scalar holding it starts), or the line of `old`."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text[: at + len(old)] + extra + text[at + len(old):], encoding="utf-8")
    return text[: text.rindex(key, 0, at) if key else at].count("\n") + 1


def _fails_at(project: Project, game: str, file: str, line: int, *pieces: str) -> str:
    result = runner.invoke(app, ["build", game, "-p", str(project.root), "--format", "svg"])
    assert result.exit_code == 2, result.output
    assert not (project.output_dir / game).exists()
    for piece in pieces:
        assert re.search(rf"{re.escape(file)}:{line}:\d+: {re.escape(piece)}: .*(too tall|too wide)", result.output), result.output
    return result.output


def test_cave_character_text_that_runs_into_the_energy_meter(copy_game):
    cave = copy_game("cave")
    line = _lengthen(cave.content_dir / "cave" / "characters.yaml", "Cannot name the way out.", STORY)
    out = _fails_at(cave, "cave", "characters.yaml", line, "characters/ada")
    assert "templates/cave/macros.svg.j2" in out and "room for 2" in out


def test_tasty_humans_craving_too_long_for_the_monster_board(copy_game):
    th = copy_game("tasty-humans")
    # the text holds a {points} field: it is still traced to its line
    line = _lengthen(th.content_dir / "tasty-humans" / "monsters.yaml", "all one basic type.", STORY * 8)
    _fails_at(th, "tasty-humans", "monsters.yaml", line, "monster-board/legendary-dragon")


def test_tasty_humans_reference_text_taller_than_a_column(copy_game):
    th = copy_game("tasty-humans")
    line = _lengthen(th.content_dir / "tasty-humans" / "reference.yaml", "starting the next ({snake}).", STORY * 30, "text:")
    out = _fails_at(th, "tasty-humans", "reference.yaml", line, "reference-card/reference")
    assert "of height where" in out and "reference-card.svg.j2" in out
    assert out.count("reference-card/reference:") == 1, "the entries it pushes off the card are not reported again"


def test_dietrick_taking_reference_text_runs_off_the_card(copy_game):
    dt = copy_game("dietrick-taking")
    line = _lengthen(dt.content_dir / "dietrick-taking" / "players.yaml", "then draws up to {hand_size}.", STORY * 8, "text:")
    # the same text on every player's card: one line for the four of them
    out = _fails_at(dt, "dietrick-taking", "players.yaml", line, "reference/tomato (and 3 more pieces)")
    assert len(out.strip().splitlines()) == 1, out


def test_human_harvest_summary_point_past_the_foot_of_the_page(copy_game):
    hh = copy_game("human-harvest")
    line = _lengthen(hh.content_dir / "human-harvest" / "summary.yaml", "steal Drones like Humans.", STORY * 20, "- ")
    _fails_at(hh, "human-harvest", "summary.yaml", line, "summary/rules-summary")


@pytest.mark.parametrize("game", ["cave", "tasty-humans", "dietrick-taking", "human-harvest"])
def test_a_word_wider_than_its_line_is_an_error(copy_game, game):
    project = copy_game(game)
    old = {"cave": "Cannot name the way out.", "tasty-humans": "starting the next ({snake}).",
           "dietrick-taking": "then draws up to {hand_size}.", "human-harvest": "steal Drones like Humans."}[game]
    path = next(p for p in (project.content_dir / game).iterdir() if p.is_file() and old in p.read_text(encoding="utf-8"))
    _lengthen(path, old, " Pneumonoultramicroscopicsilicovolcanoconiosis-Supercalifragilistic.")
    result = runner.invoke(app, ["validate", game, "-p", str(project.root)])
    assert result.exit_code == 2 and "the word 'Pneumonoultramicroscopicsilicovolcanoconiosis" in result.output, result.output
    assert f"{path.name}:" in result.output


def test_italic_text_is_measured_with_the_italic_face(monkeypatch):
    """The cave's character flavour text is drawn italic: it is wrapped by the italic
    font's widths, which differ from the upright ones in many fonts."""
    from pnp.load.content import load_game
    from pnp.render.faces import render_game

    seen: list[str] = []
    wrap = TextFit.wrap

    def spy(self, text, width, size, weight="normal", *args, **kwargs):
        seen.append(weight)
        return wrap(self, text, width, size, weight, *args, **kwargs)

    monkeypatch.setattr(TextFit, "wrap", spy)
    game = load_game(Project(Path(__file__).resolve().parent.parent), "cave")
    render_game(game, {}, 0.0)
    assert "italic" in seen
