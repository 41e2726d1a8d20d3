"""Every face of the four games matches its golden render (tests/goldens/, regenerate with
`python -m pnp.tools.goldens --update`), and the comparison notices an art change."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.tools import goldens
from pnp.load.content import Project

REPO = Path(__file__).resolve().parent.parent


def test_every_face_matches_its_golden():
    problems = goldens.check(Project(REPO))
    assert problems == [], "\n".join(problems[:20]) + "\nafter an intended change: python -m pnp.tools.goldens --update"


def test_goldens_cover_the_four_games_and_the_other_rule_version():
    games = {p.name for p in (REPO / goldens.FOLDER).iterdir() if p.is_dir()}
    assert {"cave", "dietrick-taking", "human-harvest", "tasty-humans", "tasty-humans@rules=0.2.8"} <= games
    # 0.2.8 has a Round Board where the published rules have the leader board
    assert (REPO / goldens.FOLDER / "tasty-humans@rules=0.2.8" / "leader-board" / "leader-board.png").is_file()


def test_a_face_only_another_option_draws_is_guarded_too(tmp_path: Path):
    folder = tmp_path / "goldens"
    shutil.copytree(REPO / goldens.FOLDER / "tasty-humans", folder / "tasty-humans")
    shutil.copytree(REPO / goldens.FOLDER / "tasty-humans@rules=0.2.8", folder / "tasty-humans@rules=0.2.8")
    other = folder / "tasty-humans@rules=0.2.8"
    shutil.copy(other / "monster-board" / "troll.png", other / "leader-board" / "leader-board.png")  # a wrong picture
    (other / "scoring-sheet" / "players-2.png").unlink()
    problems = goldens.check(Project(REPO), folder, ["tasty-humans"])
    assert len(problems) == 2, problems
    assert problems[0].startswith("tasty-humans@rules=0.2.8/leader-board/leader-board.png: ")
    assert problems[1].startswith("tasty-humans@rules=0.2.8/scoring-sheet/players-2.png: no golden")
