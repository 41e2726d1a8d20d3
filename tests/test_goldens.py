"""Every face of the four games matches its golden render (tests/goldens/, regenerate with
`python -m pnp.tools.goldens --update`), and the comparison notices an art change."""

from __future__ import annotations

from pathlib import Path

from pnp.tools import goldens
from pnp.load.content import Project

REPO = Path(__file__).resolve().parent.parent


def test_every_face_matches_its_golden():
    problems = goldens.check(Project(REPO))
    assert problems == [], "\n".join(problems[:20]) + "\nafter an intended change: python -m pnp.tools.goldens --update"


def test_goldens_cover_the_four_games():
    games = {p.name for p in (REPO / goldens.FOLDER).iterdir() if p.is_dir()}
    assert {"cave", "dietrick-taking", "human-harvest", "tasty-humans"} <= games


def test_a_changed_colour_and_a_new_face_are_caught(copy_game):
    project = copy_game("dietrick-taking")
    back = project.templates_dir / "dietrick-taking" / "card-back.svg.j2"
    text = back.read_text()
    assert "{% block background %}#27343a" in text
    back.write_text(text.replace("{% block background %}#27343a", "{% block background %}#2f6b3a", 1))
    problems = goldens.check(project, REPO / goldens.FOLDER, ["dietrick-taking"])
    assert len(problems) == 1 and problems[0].startswith("dietrick-taking/cards/back.png: ") and "differ" in problems[0], problems
    game_yaml = project.content_dir / "dietrick-taking" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("back: card-back.svg.j2", "back: card-back.svg.j2\n    back_per_item: true", 1))
    problems = goldens.check(project, REPO / goldens.FOLDER, ["dietrick-taking"])
    assert any(p.startswith("dietrick-taking/cards/back.png: golden of a face that no longer exists") for p in problems), problems
    changed = [p for p in problems if "no golden" in p]
    assert len(changed) == 36 and all("-back.png" in p for p in changed), problems
