"""The build cache never keeps a stale face: for every shipped game and the fruit-stand
example, after each sample edit (one scalar field of one record in each content file,
YAML and CSV, a list entry, a record added and one removed; each on top of the ones
before) a build with the cache writes the same SVG files, byte for byte, as a build that
ignores it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project

REPO = Path(__file__).resolve().parent.parent
FRUIT = REPO / "examples/projects/fruit-stand"

# game -> edits, each a list of (file under content/<game>/, text, replacement)
EDITS: dict[str, dict[str, list[tuple[str, str, str]]]] = {
    "cave": {
        "csv row title": [("events.csv", ",Torch,", ",Torch X,")],
        "csv row a tile looks up": [("events.csv", ",Shovel,", ",Spade,")],
        "csv row text": [("events.csv", 'whispers,paranoia,Whispers,eye,,4,"Roll a D10.', 'whispers,paranoia,Whispers,eye,,4,"Roll one D10.')],
        "food title": [("food.yaml", "title: Cave Beetles}", "title: Cave Bugs}")],
        "food text": [("food.yaml", "draw 2 UNPREPARED meal cards", "draw two UNPREPARED meal cards")],
        "character name": [("characters.yaml", "name: Ada Lind,", "name: Ada Linde,")],
        "meter field (list entry)": [("characters.yaml", 'name: red,    colour: "#d92f2f"', 'name: red,    colour: "#d92f30"')],
        "board labels (list entry)": [("board.yaml", "row_labels: [A, B, C, D, E, F, G, H]", "row_labels: [A, B, C, D, E, F, G, J]")],
        "event kind label": [("events.yaml", "label: FIRE,", "label: FLAME,")],
        "summary heading": [("summary.yaml", "heading: Setup and a round", "heading: Setting up and a round")],
        "room colour": [("tiles.yaml", 'colours: ["#2a873d"]}', 'colours: ["#2a873e"]}')],
        "token label": [("tokens.yaml", "label: MAPPED,", "label: CHARTED,")],
        "token added": [("tokens.yaml", "  - {id: mapped,", '  - {id: torch, label: TORCH, colour: "#d9480f", icon: flame, copies: 1}\n  - {id: mapped,')],
        "event removed": [("events.csv", "rope,item,Rope,rope,true,,Thirty metres of knotted climbing rope.\n", ""),
                          ("events.yaml", 'colour: "#5c3d1e", count: 5}', 'colour: "#5c3d1e", count: 4}'),
                          ("tiles.yaml", "requires: {items: [rope, pickaxe]}", "requires: {items: [pickaxe]}")],
    },
    "dietrick-taking": {
        "suit name": [("deck.yaml", "name: Meat", "name: Beef")],
        "player colour": [("players.yaml", "name: Mint", "name: Spearmint")],
        "scoring row": [("scoring.yaml", "yellow: [1, 3, 2, 4]", "yellow: [1, 3, 4, 2]")],
        "end square": [("scoring.yaml", "end_square: 13 ", "end_square: 14 ")],
    },
    "human-harvest": {
        "suit colour": [("piecepack.yaml", 'colour: "#1f1f1f"', 'colour: "#202020"')],
        "standee label": [("extras.yaml", "label: MARINES", "label: MARINE")],
        "summary point": [("summary.yaml", "Get all {cyborgs_to_win} of your Cyborgs", "Get every one of your {cyborgs_to_win} Cyborgs")],
        "token removed": [("extras.yaml", "  - id: drone\n    name: Drone\n    count: 4\n    glyph: drone\n", "  - id: drone\n    name: Drone\n    count: 3\n    glyph: drone\n")],
    },
    "tasty-humans": {
        "adventurer name": [("adventurers.yaml", '"Dame Oswin of the Ford"', '"Dame Oswin of the River"')],
        "adventurer shape (list entry)": [("adventurers.yaml", 'shape: ["GG.", ".BB"]', 'shape: ["GB.", ".BB"]')],
        "reference section removed": [("reference.yaml", "  - heading: Adventurers\n    # lines 126-146\n    text: >-\n      Wizard: then swap two touching tiles in your stomach. {captain}: discard the\n      other two cards of its row or column, as its banner shows. Cleric: remove one\n      damage tile before eating.\n", "")],
        "reference section added": [("reference.yaml", "  - heading: Game end\n", "  - heading: Scores\n    text: Count them.\n  - heading: Game end\n")],
        "leader title": [("leaders.yaml", 'title: "Helmet Line"', 'title: "Helmet Row"')],
        "monster name": [("monsters.yaml", "name: Griffin", "name: Wyvern")],
        "reference heading": [("reference.yaml", "heading: Snake draft", "heading: Snake order")],
        "rule version class": [("rules.yaml", "captain: Captain", "captain: Chief")],
        "craving points": [("rules.yaml", "cravings: {troll: {points: 4}}", "cravings: {troll: {points: 5}}")],
    },
    "fruit-stand": {
        "csv row title": [("orders.csv", "pie,Apple Pie,", "pie,Apple Tart,")],
        "csv row needs (list entry)": [("orders.csv", "jam,Plum Jam,plum;plum,", "jam,Plum Jam,plum;pear,")],
        "csv row added": [("orders.csv", "crumble,Pear Crumble,", "smoothie,Lemon Smoothie,lemon;lemon,3,1\ncrumble,Pear Crumble,")],
        "fruit colour": [("fruits.yaml", 'name: Pear, colour: "#74b816"', 'name: Pear, colour: "#74b817"')],
        "order removed": [("orders.csv", "jam,Plum Jam,plum;pear,3,2\n", "")],
        "edition top value": [("editions.yaml", "top_value: 6 ", "top_value: 5 ")],
    },
}


def svgs(project: Project, game: str) -> dict[str, bytes]:
    folder = project.output_dir / game / "svg"
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.svg"))}


def stale_faces(project: Project, game: str) -> list[str]:
    """The faces a build with the cache wrote differently from one without it."""
    build(project, [game], BuildOptions(formats=("svg",)))
    cached = svgs(project, game)
    build(project, [game], BuildOptions(formats=("svg",), force=True))
    cold = svgs(project, game)
    return sorted(name for name in cached.keys() | cold.keys() if cached.get(name) != cold.get(name))


def shipped_copy(tmp_path: Path, trusted) -> Project:
    """The shipped games (content, templates, plugins) in a scratch project, trusted."""
    for part in ("content", "templates", "plugins"):
        shutil.copytree(REPO / part, tmp_path / "p" / part, ignore=shutil.ignore_patterns("__pycache__"))
    return trusted(Project(tmp_path / "p"))


@pytest.mark.parametrize("game", list(EDITS))
def test_a_cached_build_equals_a_cold_one_after_each_edit(tmp_path: Path, trusted, game: str):
    if game == "fruit-stand":
        shutil.copytree(FRUIT, tmp_path / "p", ignore=shutil.ignore_patterns("output", "__pycache__"))
    else:
        for part in ("content", "templates", "plugins"):
            shutil.copytree(REPO / part, tmp_path / "p" / part, ignore=shutil.ignore_patterns("__pycache__"))
    project = trusted(Project(tmp_path / "p"))
    build(project, [game], BuildOptions(formats=("svg",)))
    for name, edits in EDITS[game].items():  # one after the other: each on top of the last
        for rel, old, new in edits:
            path = project.content_dir / game / rel
            assert path.read_text().count(old) == 1, (name, rel, old)
            path.write_text(path.read_text().replace(old, new))
        assert stale_faces(project, game) == [], f"{game}: {name}"


def test_editing_one_csv_row_rerenders_exactly_the_faces_it_changes(tmp_path: Path, trusted):
    """The Torch row of the cave's events.csv: every cave tile looks events up with
    `selectattr`, yet only the faces whose output changes are rendered again (issue 24:
    it was 44 faces)."""
    project = shipped_copy(tmp_path, trusted)
    build(project, ["cave"], BuildOptions(formats=("svg",)))
    before = svgs(project, "cave")
    events = project.content_dir / "cave/events.csv"
    events.write_text(events.read_text().replace(",Torch,", ",Burning Torch,"))
    (report,) = build(project, ["cave"], BuildOptions(formats=("svg",)))
    build(project, ["cave"], BuildOptions(formats=("svg",), force=True))
    differ = {f"svg/{name}" for name, data in svgs(project, "cave").items() if before.get(name) != data}
    assert differ == {"svg/events/torch.svg"}
    assert (report.rendered, set(report.changed)) == (len(differ), differ)


@pytest.mark.parametrize("old, new, differ", [
    ("    king_bonus: 2  # O211", "    king_bonus: 3  # O211", 8),  # the king's pieces, the reference card, 3 scoring sheets
    ("griffin: {points: 3}", "griffin: {points: 4}", 2),  # the griffin's board and the reference card
])
def test_a_rule_value_edit_rerenders_the_faces_that_read_it_not_the_game(tmp_path: Path, trusted, old: str, new: str, differ: int):
    """The Tasty Humans templates hand the plugin's helpers the part of the rule version
    they read (`rules.tiles`, `rules.cravings[id]`, the stomach's columns), not all of it:
    a helper's arguments count whole, so every adventurer, leader tile and monster board
    (96 of the game's 113 faces) was rendered again for any rule value."""
    project = shipped_copy(tmp_path, trusted)
    build(project, ["tasty-humans"], BuildOptions(formats=("svg",)))
    before = svgs(project, "tasty-humans")
    rules = project.content_dir / "tasty-humans/rules.yaml"
    assert rules.read_text().count(old) == 1
    rules.write_text(rules.read_text().replace(old, new))
    (report,) = build(project, ["tasty-humans"], BuildOptions(formats=("svg",)))
    assert len([name for name, data in svgs(project, "tasty-humans").items() if before.get(name) != data]) == differ
    assert report.rendered <= differ + 6  # those, and the few faces that read the value but print it elsewhere
    assert stale_faces(project, "tasty-humans") == []
