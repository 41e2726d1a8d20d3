"""Every face of the four games matches its golden render (tests/goldens/, regenerate with
`python -m pnp.tools.goldens --update`), and the comparison notices an art change."""

from __future__ import annotations

import re
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


def test_readme_counts_the_other_rule_versions_goldens():
    """docs/HACKING.md's "today the N faces Tasty Humans draws otherwise" is the folder's count."""
    from conftest import docs_text

    said = re.search(r"today the (\d+) faces\s+Tasty Humans draws otherwise", docs_text("docs/HACKING.md"))
    assert said, "docs/HACKING.md's sentence on the 0.2.8 goldens moved: update this test"
    folder = REPO / goldens.FOLDER / "tasty-humans@rules=0.2.8"
    assert int(said.group(1)) == len(list(folder.rglob("*.png")))
    assert {p.name for p in folder.iterdir()} == {"adventurer", "monster-board", "leader-board", "reference-card", "solo-reference", "scoring-sheet"}


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


def test_the_tool_records_a_project_then_names_exactly_what_an_edit_changed(demo: Project, capsys):
    """`python -m pnp.tools.goldens --update` then a plain check, on a designer's own project:
    a yes/no option's other value is recorded too, an unchanged project is "ok", an art
    change is named with how much differs (exit 1), and `--update` rewrites only the faces
    whose pixels changed and removes the golden of a face that is gone."""
    root, game = demo.root, demo.root / "content/demo/game.yaml"
    game.write_text(game.read_text().replace("components:", "options:\n  foil: {type: bool, default: false}\ncomponents:"))
    back = demo.root / "templates/demo/card-back.svg.j2"
    back.write_text(back.read_text().replace("#264653", "{{ '#c0c0c0' if options.foil else '#264653' }}"))
    folder = root / goldens.FOLDER

    assert goldens.main(["--update", "--project", str(root)]) == 0
    assert capsys.readouterr().out == f"3 goldens written, 0 removed, in {folder}\n"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png")) == [
        "demo/card/back.png", "demo/card/example.png", "demo@foil=True/card/back.png"]
    assert goldens.main(["--project", str(root)]) == 0
    assert capsys.readouterr().out == "ok\n"

    back.write_text(back.read_text().replace("#264653", "#e76f51"))
    (root / "content/demo/cards.yaml").write_text((root / "content/demo/cards.yaml").read_text().replace("id: example", "id: sample"))
    assert goldens.main(["--project", str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "demo/card/sample.png: no golden (run python -m pnp.tools.goldens --update)"
    assert out[1].startswith("demo/card/back.png: ") and "of pixels differ strongly (mean difference" in out[1]
    assert out[2:] == ["demo/card/example.png: golden of a face that no longer exists",
                       "3 faces differ from their goldens"]

    assert goldens.main(["--update", "--project", str(root)]) == 0  # the foil back is unchanged: kept
    assert capsys.readouterr().out == f"2 goldens written, 1 removed, in {folder}\n"
    assert not (folder / "demo/card/example.png").exists() and (folder / "demo/card/sample.png").is_file()


def test_a_changed_word_is_caught_though_its_pixels_are_not(demo: Project, capsys):
    """At 30 dpi a letter of small text is a pixel or two, within the pictures' tolerance:
    each golden keeps the face's words too, so a wording change fails until --update."""
    root = demo.root
    assert goldens.main(["--update", "--project", str(root)]) == 0
    capsys.readouterr()
    cards = root / "content/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("Add cards, rebuild, print.", "Add cards, rebuild, print!"))
    assert goldens.main(["--project", str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["demo/card/example.png: its text differs from the golden's: 'cards, rebuild, print.' -> 'cards, rebuild, print!'",
                   "1 face differs from its golden"]
    assert goldens.main(["--update", "--project", str(root)]) == 0
    assert capsys.readouterr().out == f"1 golden written, 0 removed, in {root / goldens.FOLDER}\n"
    assert goldens.main(["--project", str(root)]) == 0


def test_the_tool_run_as_a_module_exits_1_on_a_difference(demo: Project):
    """What a designer runs: `python -m pnp.tools.goldens` in the project folder."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "pnp.tools.goldens"], cwd=demo.root, capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (1, "")
    assert run.stdout.splitlines() == ["demo/card/example.png: no golden (run python -m pnp.tools.goldens --update)",
                                       "demo/card/back.png: no golden (run python -m pnp.tools.goldens --update)",
                                       "2 faces differ from their goldens"]
