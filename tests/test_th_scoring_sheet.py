"""Tasty Humans scoring sheets end to end: every impossibility message with its line,
claims, JSON output, the CLI, templates, and scores that follow the content YAML."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project, load_game
from pnp.errors import PnpError
from pnp.score.dispatch import score_sheet
from game_plugins import game_module, link_plugins

board_from_text = game_module("tasty_humans", "board").board_from_text
score_player = game_module("tasty_humans", "scoring").score_player
json_schema = game_module("tasty_humans", "sheet").json_schema

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()

# Hand-scored (see test_base_sheet_scores): Ana 38, Bo 23. A game that ended after a
# round: four Leader Phases; Ana filled first (king) and holds the leader she drafted
# last; Bo had room and ate his, so he has 5 in the stomach.
BASE = """\
game: tasty-humans
rules: published
players:
  - name: Ana
    monster: troll
    king: true
    leaders: {1: line-hand, 2: range-boot, 3: least-type, 4: sight-leader}
    held: chain-orthogonal
    stomach: |
      H A B G 1 H
      A A B G D A
      B G 2 G H B
      H A B 3 A G
      A A D D B 4
      B A H G G G
    claimed: 38
  - name: Bo
    monster: griffin
    leaders: {1: feast-hand, 2: diagonal-helmet, 3: rows-all-four, 4: leader-line, 5: damage-line}
    stomach: |
      . . . . . .
      . . . . . .
      H . . . . .
      A B 3 G 4 5
      H A H A H 1
      G B G B 2 D
    claimed: 23
"""

BO_LEADERS = "{1: feast-hand, 2: diagonal-helmet, 3: rows-all-four, 4: leader-line, 5: damage-line}"


def problems(path: Path, project: Project | None = None) -> list[str]:
    with pytest.raises(PnpError) as exc:
        score_sheet(project or Project(REPO), path)
    return [str(e) for e in exc.value.errors]


def test_base_sheet_scores(sheet):
    report = score_sheet(Project(REPO), sheet(BASE)).to_json()
    ana, bo = report["players"]
    # Ana: line-hand 2 hands (4), range-boot 4 boots within 2 steps (8), least-type
    # 5 helmets (10), sight-leader nothing in sight (0), troll 4 stacks (16), damage
    # (5,3)-(5,4) touch (-2), king 2; chain-orthogonal is held and scores nothing
    assert [l["points"] for l in ana["leaders"]] == [4, 8, 10, 0]
    assert (ana["held"], ana["craving"], ana["damage"]["points"], ana["king"]["points"], ana["total"]) == ("chain-orthogonal", 16, -2, 2, 38)
    # Bo, by cell: rows-all-four no row has all four (0); leader-line at (4,5) sees
    # leaders (4,3), (4,6) and (6,5) (12); damage-line at (4,6) sees the damage at (6,6)
    # (3); feast-hand: the hand at (4,4) touches two leaders (2); diagonal-helmet none
    # (0); two disjoint griffin runs, rows 5 and 6 (6)
    assert [l["points"] for l in bo["leaders"]] == [0, 12, 3, 2, 0]
    assert (bo["craving"], bo["total"]) == (6, 23)
    assert report["winners"] == ["Ana"] and report["decided_by"] == "score"
    assert report["exit_code"] == 0 and report["mismatches"] == []
    assert (report["ending"], report["ending_stated"]) == ("round", False)


def test_rule_version_changes_the_score(sheet):
    report = score_sheet(Project(REPO), sheet(BASE.replace("rules: published", 'rules: "0.2.8"'))).to_json()
    assert report["players"][0]["craving"] == 4 * 3  # troll stacks are worth 3 in 0.2.8


def test_changes_score_a_changed_rule_value_as_pnp_simulate_set_plays_it(sheet):
    """A sheet of `pnp simulate --against cravings.troll.points=3 --sheets` says so."""
    changed = BASE.replace("rules: published\n", "rules: published\nchanges: {cravings.troll.points: 3}\n")
    report = score_sheet(Project(REPO), sheet(changed)).to_json()
    assert (report["changes"], report["players"][0]["craving"]) == ({"cravings.troll.points": 3}, 4 * 3)
    assert report["mismatches"] == [{"name": "Ana", "claimed": 38, "total": 34}]
    assert score_sheet(Project(REPO), sheet(BASE)).to_json()["changes"] == {}
    for change, message in [
        ("{cravings.troll.pts: 3}", "game.yaml:3: changes: cravings.troll.pts: cravings.troll has no 'pts': expected one of points, overlap"),
        ("{cravings.troll.points: many}", "game.yaml:3: changes: cravings.troll.points: input should be a valid integer, unable to parse string as an integer, got 'many'"),
        ("{king_bonus: [1, 2]}", "game.yaml:3: changes: king_bonus: input should be a valid integer, got [1, 2]"),  # the key once
        ("{cravings.troll: {points: x, overlap: 1}}", "game.yaml:3: changes: cravings.troll: points: input should be a valid integer, unable to parse string as an integer, got 'x'"),
    ]:
        assert problems(sheet(BASE.replace("rules: published\n", f"rules: published\nchanges: {change}\n"))) == [message]


def test_json_keys_are_stable(sheet):
    report = score_sheet(Project(REPO), sheet(BASE)).to_json()
    assert list(report) == ["game", "sheet", "rules", "changes", "mode", "ending", "ending_stated", "players", "ranking", "winners", "decided_by", "ruling", "king_token", "solo", "mismatches", "exit_code"]
    assert list(report["players"][0]) == ["name", "seat", "monster", "leaders", "held", "craving", "damage", "king", "empty_cells", "total", "claimed", "claim_ok"]
    assert list(report["players"][0]["leaders"][0]) == ["slot", "id", "title", "kind", "row", "column", "points"]
    assert report["ranking"] == [{"place": 1, "name": "Ana", "total": 38}, {"place": 2, "name": "Bo", "total": 23}]
    json.dumps(report)


def test_total_is_the_sum_of_the_printed_parts(sheet):
    for p in score_sheet(Project(REPO), sheet(BASE)).to_json()["players"]:
        parts = sum(l["points"] for l in p["leaders"]) + p["craving"] + p["damage"]["points"] + p["king"]["points"]
        assert parts == p["total"]


# --- impossible sheets: one line each, with the line of the problem ---------------------

IMPOSSIBLE = [
    # wrong number of rows / columns, unknown symbol
    (("      B A H G G G\n", ""), ["game.yaml:9: Ana: stomach has 5 rows: expected 6 for 2 players"]),
    (("      A A B G D A\n", "      A A B G D\n"), ["game.yaml:11: Ana, row 2: 5 cells: expected 6"]),
    (("H A B 3 A G", "H A B 3 A X"), ["game.yaml:13: Ana, row 4 column 6: unknown symbol 'X' (U+0058): expected H A B G D, 1-5 (leaders) or ."]),
    # gravity
    (("      A B 3 G 4 5", "      . B 3 G 4 5"), ["game.yaml:24: Bo, row 4 column 1: empty cell below a tile"]),
    (("A A B G D A", "A A . G D A"), ["game.yaml:11: Ana, row 2 column 3: empty cell below a tile"]),
    # leaders: digit with no leader, leader nowhere, too many, twice, on two boards
    ((BO_LEADERS, BO_LEADERS.replace("2: diagonal-helmet, ", "")), ["game.yaml:26: Bo, row 6 column 5: leader 2 but no leader is named for 2: expected leaders: {2: <leader title>}"]),
    (("4: sight-leader}", "4: sight-leader, 5: line-boot}"), ["game.yaml:7: Ana: leader 5: 'line-boot' is neither in the stomach nor held: expected digit 5 on the board, or held: line-boot"]),
    ((BO_LEADERS, BO_LEADERS.replace("diagonal-helmet", "line-hand")), ["game.yaml:19: Bo: leader 'line-hand' is also Ana's: there is one tile of each leader"]),
    (("    held: chain-orthogonal\n", "    held: feast-hand\n"), ["game.yaml:19: Bo: leader 'feast-hand' is also Ana's: there is one tile of each leader"]),
    (("B A H G G G", "B A H 1 G G"), ["game.yaml:15: Ana, row 6 column 4: leader 1 is also at row 1 column 5: a leader tile is in one place"]),
    ((BO_LEADERS, BO_LEADERS.replace("diagonal-helmet", "feast-hand")), ["game.yaml:19: Bo: leader 2: 'feast-hand' is also leader 1: there is one tile of each leader"]),
    (("2: range-boot", "2: range-bot"), ["game.yaml:7: Ana: leader 2: unknown leader 'range-bot': expected the title printed on the leader tile, or its id from leaders.yaml, "
      "such as 'Helmet Line' or 'line-helmet' (did you mean 'range-boot'?)"]),
    # the Village King, monsters
    (("    king: true\n", "    king: false\n"), ["game.yaml:4: Ana's stomach is full but nobody holds the Village King: expected king: true for the player who filled first"]),
    (("    monster: griffin\n", "    monster: griffin\n    king: true\n"), ["game.yaml:19: Bo: king: the Village King bonus needs a full stomach, this one has 17 empty cells"]),
    (("    monster: griffin", "    monster: troll"), ["game.yaml:18: Bo: monster 'troll' is also Ana's: each monster board is used once"]),
    # named as printed on the board: the message quotes the sheet's words, then the id (as for leaders)
    (("    monster: griffin", "    monster: Troll"), ["game.yaml:18: Bo: monster 'Troll' (troll) is also Ana's: each monster board is used once"]),
    (("    monster: griffin", "    monster: gryphon"), ["game.yaml:18: Bo: unknown monster 'gryphon': expected the name printed on the monster board, or its id from monsters.yaml: "
      "Legendary Dragon (legendary-dragon), Twin-Headed Dragon (twin-headed-dragon), Griffin (griffin), Troll (troll)"]),
    (("rules: published", "rules: 0.3"), ["game.yaml:2: rules: unknown rule version '0.3': expected one of published, 0.2.8"]),
    (("rules: published", "rules: publishd"), ["game.yaml:2: rules: unknown rule version 'publishd': expected one of published, 0.2.8 (did you mean 'published'?)"]),
]


def _mutate(old_new: tuple[str, str]) -> str:
    old, new = old_new
    assert BASE.count(old) == 1, old
    return BASE.replace(old, new)


@pytest.mark.parametrize("change, expected", IMPOSSIBLE)
def test_impossible_board_messages(sheet, change, expected):
    assert problems(sheet(_mutate(change))) == expected


def test_the_rule_version_is_read_in_any_case(sheet):
    """`rules: Published` is the published rules, as monsters and leaders are read in any case."""
    report = score_sheet(Project(REPO), sheet(_mutate(("rules: published", "rules: Published")))).to_json()
    assert report["rules"] == "published" and [p["total"] for p in report["players"]] == [38, 23]


def test_held_leader_checks(sheet):
    # a 6th leader held next to 5 in the stomach (published rules F40-42, F176)
    text = _mutate(("    claimed: 23\n", "    claimed: 23\n    held: line-boot\n"))
    assert problems(sheet(text)) == [
        "game.yaml:28: Bo: held: 5 leaders in the stomach and 1 held: at most 5 in all with 2 players (one from setup plus one per Leader Phase, 4 phases"
        "; once the leader stacks run out, rounds go on without a Leader Phase until a stomach fills (our ruling, rules.yaml))"
    ]
    text = _mutate(("    held: chain-orthogonal\n", "    held: line-hand\n"))
    assert problems(sheet(text)) == ["game.yaml:8: Ana: held: 'line-hand' is also in the stomach: a held leader was not eaten"]
    # a full stomach may leave its held leader off the sheet
    text = _mutate(("    held: chain-orthogonal\n", "    held: null\n"))
    report = score_sheet(Project(REPO), sheet(text)).to_json()
    assert report["players"][0]["held"] is None and report["players"][0]["total"] == 38


def test_too_many_leaders_for_four_players(sheet):
    four = """\
game: tasty-humans
players:
  - {name: A, monster: troll, king: true, leaders: {1: line-hand, 2: line-boot, 3: line-armor, 4: line-helmet, 5: least-type},
     stomach: "1 2 3 4 5 H\\nHHHHHH\\nHHHHHH\\nHHHHHH"}
  - {name: B, monster: griffin, held: range-hand, stomach: "......\\n......\\n......\\nHHHHHH"}
  - {name: C, monster: legendary-dragon, held: range-boot, stomach: "......\\n......\\n......\\nHHHHHH"}
  - {name: D, monster: twin-headed-dragon, held: range-armor, stomach: "......\\n......\\n......\\nHHHHHH"}
"""
    assert problems(sheet(four)) == ["game.yaml:4: A: 5 leaders in the stomach: at most 4 with 4 players (one from setup plus one per Leader Phase, 3 phases; once the leader stacks run out, rounds go on without a Leader Phase until a stomach fills (our ruling, rules.yaml))"]


def test_every_problem_is_reported_at_once(sheet):
    text = BASE.replace("H A B 3 A G", "H A B 3 A X").replace("    monster: griffin", "    monster: troll")
    text = text.replace("      A B 3 G 4 5", "      . B 3 G 4 5")
    assert problems(sheet(text)) == [
        "game.yaml:13: Ana, row 4 column 6: unknown symbol 'X' (U+0058): expected H A B G D, 1-5 (leaders) or .",
        "game.yaml:18: Bo: monster 'troll' is also Ana's: each monster board is used once",
        "game.yaml:24: Bo, row 4 column 1: empty cell below a tile",
    ]


def test_stomach_as_a_list_points_at_each_item(sheet):
    text = BASE.replace("""    stomach: |
      . . . . . .
      . . . . . .
      H . . . . .
      A B 3 G 4 5
      H A H A H 1
      G B G B 2 D
""", """    stomach:
      - "......"
      - "......"
      - "H....."
      - ".B3G45"
      - HAHAH1
      - GBGB2D
""")
    assert problems(sheet(text)) == ["game.yaml:24: Bo, row 4 column 1: empty cell below a tile"]


def test_a_misspelt_stomach_is_one_line(sheet):
    """Before: "missing required key 'stomach'" at Ana's record and "unknown key 'stomch'" below it."""
    text = BASE.replace("    stomach: |", "    stomch: |", 1)
    assert problems(sheet(text)) == ["game.yaml:9:5: Ana: unknown key 'stomch': did you mean 'stomach' (required)?"]


def test_a_misspelt_optional_sheet_key_names_the_key_meant(sheet):
    """Before: "unknown key 'kingtoken' (expected one of: game, rules, ...)", every key of the sheet."""
    text = BASE.replace("rules: published\n", "rules: published\nkingtoken: Ana\n", 1)
    assert problems(sheet(text)) == ["game.yaml:3:1: unknown key 'kingtoken': did you mean 'king_token'?"]


SOLO = """\
game: tasty-humans
players:
  - name: Ana
    monster: griffin
    leaders: {1: line-hand, 2: chain-orthogonal, 3: range-helmet}
    stomach: |
      H A H A H A
      B G B G B G
      H A B G 1 H
      A 3 B G D A
      B G 2 G H B
      H A B G A G
solo: {level: 2, ai_cards: [adv-44, adv-45, adv-20, adv-10, adv-11, adv-12, adv-27, adv-28, adv-37, adv-38], challenge: monster}
"""


def test_solo_sheet(sheet, repo_project):
    report = score_sheet(repo_project, sheet(SOLO)).to_json()
    game = load_game(repo_project, "tasty-humans")
    sizes = {a.id: a.size() for a in game.data["adventurers"].adventurers}
    ai = report["solo"]["ai"]
    # 1 wizard, 3 archers, 2 captains: the rules' example, 14 plus the shapes (peasants
    # score only their shapes: the 4 rounds that 3 Leader Phases and the final round make)
    assert ai["class_points"] == 14
    assert ai["shape_points"] == sum(sizes[c] for c in ["adv-44", "adv-45", "adv-20", "adv-10", "adv-11", "adv-12", "adv-27", "adv-28", "adv-37", "adv-38"])
    assert report["mode"] == "solo" and report["winners"] == ([report["players"][0]["name"]] if report["solo"]["challenge"]["met"] else [])
    assert report["players"][0]["king"] == {"held": False, "points": 0}
    assert report["solo"]["won"] is (report["players"][0]["total"] >= ai["total"])
    assert report["solo"]["challenge"]["name"] == "monster"
    assert report["solo"]["challenge"]["reason"].startswith("2 alternating runs of 6, need 2 (the two may share tiles")


@pytest.mark.parametrize("solo, expected", [
    ("{level: 7, ai_cards: []}", ["game.yaml:13: solo.level: 7 is not an A.I. level: expected 0 to 6"]),
    ("{level: 1, ai_cards: [adv-01, adv-01, adv-99]}", [
        "game.yaml:13: solo.ai_cards: 'adv-01' is listed twice: each adventurer card exists once",
        "game.yaml:13: solo.ai_cards: unknown adventurer 'adv-99': expected the name printed on the adventurer card, or its id from adventurers.yaml, "
        "such as 'Brunhild the Unbending' or 'adv-01' (did you mean 'adv-49'?)",
    ]),
    ("{level: 2, ai_cards: [adv-01, adv-02, adv-03]}", ["game.yaml:13: solo.ai_cards: 3 cards at level 2: the A.I. holds 2 plus 2 per round"]),
    ("{level: 0, ai_cards: [], challenge: balanced-diet/hard}", ["game.yaml:13: solo.challenge: unknown level 'hard': expected balanced-diet/beginner, balanced-diet/normal, balanced-diet/expert"]),
])
def test_solo_impossibilities(sheet, solo, expected):
    text = SOLO.replace("{level: 2, ai_cards: [adv-44, adv-45, adv-20, adv-10, adv-11, adv-12, adv-27, adv-28, adv-37, adv-38], challenge: monster}", solo)
    assert problems(sheet(text)) == expected


def test_solo_needs_one_player_and_one_player_needs_solo(sheet):
    two = BASE + "solo: {level: 0, ai_cards: []}\n"
    assert problems(sheet(two)) == ["game.yaml:28: solo: a solo game has one player, found 2"]
    alone = SOLO.split("solo:")[0]
    assert problems(sheet(alone)) == ["game.yaml:2: players: one player is a solo game: expected solo: {level: N, ai_cards: [...]}"]


def test_unknown_game_names_the_line(sheet):
    assert problems(sheet("players: []\ngame: tasty-people\n")) == [
        "game.yaml:2: game: unknown game 'tasty-people': expected one of " + ", ".join(Project(REPO).games())
    ]
    # before: a misspelt name (as a new designer types their game's) named none meant
    assert problems(sheet("players: []\ngame: tasty-humas\n")) == [
        "game.yaml:2: game: unknown game 'tasty-humas': expected one of " + ", ".join(Project(REPO).games())
        + " (did you mean 'tasty-humans'?)"
    ]


# --- the command line -----------------------------------------------------------------


def cli(*args: str):
    return runner.invoke(app, [*args, "--project", str(REPO)])


def test_cli_score_ok_mismatch_and_impossible(sheet):
    path = sheet(BASE)
    result = cli("score", str(path))
    assert result.exit_code == 0, result.output
    assert "Ana wins (decided by highest total)" in result.output
    path = sheet(BASE.replace("claimed: 38", "claimed: 36"))
    result = cli("score", str(path))
    assert result.exit_code == 1
    assert "Ana: claimed 36 but the board scores 38" in result.output
    path = sheet(BASE.replace("H A B 3 A G", "H A B 3 A X"))
    result = cli("score", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip() == "game.yaml:13: Ana, row 4 column 6: unknown symbol 'X' (U+0058): expected H A B G D, 1-5 (leaders) or ."


def test_cli_report_names_the_held_leader_as_its_tile_does(sheet):
    """The held leader's row reads like the eaten ones': the title printed on the tile, then its id."""
    result = cli("score", str(sheet(BASE)))
    assert result.exit_code == 0, result.output
    assert "held: Straight Chain (chain-orthogonal)" in result.output, result.output


def test_cli_score_json(sheet):
    result = cli("score", str(sheet(BASE.replace("claimed: 23", "claimed: 24"))), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["mismatches"] == [{"name": "Bo", "claimed": 24, "total": 23}]
    assert data["players"][1]["claim_ok"] is False


@pytest.mark.parametrize("written, expected", [
    ("31.5", "game.yaml:16:14: Ana: claimed: expected a whole number, got 31.5"),
    ("true", "game.yaml:16:14: Ana: claimed: expected a whole number, got true"),  # not taken as 1
    ("lots", "game.yaml:16:14: Ana: claimed: input should be a valid integer, unable to parse string as an integer, got 'lots'"),
])
def test_cli_score_a_claim_that_is_no_number_names_the_player(sheet, written, expected):
    result = cli("score", str(sheet(BASE.replace("claimed: 38", f"claimed: {written}"))))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip() == expected


def test_a_solo_level_of_true_is_no_level(sheet):
    solo = BASE.split("  - name: Bo")[0] + "solo: {level: true, ai_cards: []}\n"
    assert problems(sheet(solo)) == ["game.yaml:17:15: level: expected a whole number, got true"]


@pytest.mark.parametrize("written, expected", [
    ("true", "game.yaml:7:15: Ana: leaders: expected a whole number, got true"),  # before: leader 1's digit, scored
    ("x", "game.yaml:7:15: Ana: leaders: input should be a valid integer, unable to parse string as an integer, got 'x'"),  # before: "[key]: ..."
])
def test_a_leaders_digit_that_is_no_number_is_told_at_it(sheet, written, expected):
    assert problems(sheet(BASE.replace("{1: line-hand", "{" + written + ": line-hand", 1))) == [expected]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_template_fills_in_to_a_valid_sheet(sheet, tmp_path, players):
    out = tmp_path / "blank.yaml"
    result = cli("sheet", "tasty-humans", "--players", str(players), "--template", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    rows = {1: 6, 2: 6, 3: 5, 4: 4}[players]
    assert text.count("      . . . . . .") == rows * players
    # Fill it in as a game that ended after a round with three Leader Phases (one could
    # not fill 6 rows: two rounds add at most 16 basic tiles): player 1 filled first (held
    # leader left over; 8 turns add at most 32 basic tiles, so a Damage tile), the others
    # ate their fourth leader, and at least one basic tile in each of their 8 turns.
    data = yaml.safe_load(text)
    monsters = ["troll", "griffin", "legendary-dragon", "twin-headed-dragon"]
    for seat, p in enumerate(data["players"]):
        p["monster"] = monsters[seat]
        if seat == 0:
            p["leaders"] = {1: "line-hand", 2: "line-helmet", 3: "line-armor"}
            p["held"] = "line-boot"
            p["stomach"] = "\n".join(["1 2 3 D H H"] + ["H H H H H H"] * (rows - 1))
            p["king"] = players > 1 or None
        else:
            kind = ["hand", "boot", "armor"][seat - 1]
            p["leaders"] = {1: f"range-{kind}", 2: f"diagonal-{kind}", 3: f"feast-{kind}", 4: f"sight-{kind}"}
            p["stomach"] = "\n".join([". . . . . ."] * (rows - 3) + ["1 2 3 4 . .", "H H H H H H", "H H H H H H"])
        if p.get("king") is None:
            p.pop("king", None)
    if players == 1:
        data["solo"]["ai_cards"] = [f"adv-{i:02}" for i in range(1, 11)]  # level 2, plus 2 in each of 4 rounds
    report = score_sheet(Project(REPO), sheet(yaml.safe_dump(data, sort_keys=False))).to_json()
    assert len(report["players"]) == players and report["ending"] == "round"


def test_template_to_stdout_and_schema():
    result = cli("sheet", "tasty-humans", "--players", "2", "--template")
    assert result.exit_code == 0 and result.output.startswith("# Tasty Humans scoring sheet")
    result = cli("sheet", "tasty-humans", "--players", "2", "--schema")
    schema = json.loads(result.output)
    assert set(schema["properties"]) == {"game", "rules", "changes", "players", "solo", "ending", "king_token"}
    assert schema == json_schema()
    assert cli("sheet", "tasty-humans", "--players", "5", "--template").exit_code == 2


# --- numbers come from the content YAML ---------------------------------------------


@pytest.fixture
def copy_project(tmp_path) -> Project:
    root = tmp_path / "proj"
    shutil.copytree(REPO / "content" / "tasty-humans", root / "content" / "tasty-humans")
    shutil.copytree(REPO / "templates" / "tasty-humans", root / "templates" / "tasty-humans")
    link_plugins(root)
    return Project(root)


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= count, old
    path.write_text(text.replace(old, new, count))


def test_changing_the_content_changes_the_score(sheet, copy_project):
    path = sheet(BASE)
    before = score_sheet(copy_project, path).to_json()["players"][0]
    rules = copy_project.content_dir / "tasty-humans" / "rules.yaml"
    _edit(rules, "troll: {points: 4}", "troll: {points: 7}")
    _edit(rules, "king_bonus: 2", "king_bonus: 5")
    _edit(rules, "damage_penalty: 1", "damage_penalty: 3")
    leaders = copy_project.content_dir / "tasty-humans" / "leaders.yaml"
    _edit(leaders, "  - id: line-hand\n    kind: line\n    type: hand\n    points: 2", "  - id: line-hand\n    kind: line\n    type: hand\n    points: 6")
    after = score_sheet(copy_project, path).to_json()["players"][0]
    assert after["craving"] == 4 * 7 and before["craving"] == 4 * 4
    assert after["king"]["points"] == 5
    assert after["damage"]["points"] == -2 * 3
    assert after["leaders"][0]["points"] == 2 * 6
    assert after["total"] == before["total"] + (28 - 16) + (5 - 2) - (6 - 2) + (12 - 4)


def test_a_monster_without_a_craving_is_named_as_the_sheet_writes_it(sheet, copy_project):
    """Before: "monster 'kraken' has no craving ...", the id, where the sheet says Great Kraken."""
    monsters = copy_project.content_dir / "tasty-humans" / "monsters.yaml"
    _edit(monsters, "monsters:\n", "monsters:\n  - {id: kraken, name: Great Kraken, text: \"{points:point} for nothing.\", challenge: None.}\n")
    _edit(copy_project.content_dir / "tasty-humans" / "rules.yaml", "      troll: {points: 3}  # O292\n",
          "      troll: {points: 3}  # O292\n      kraken: {points: 1}\n")  # a rule the scorer has no code for
    game = copy_project.content_dir / "tasty-humans" / "game.yaml"  # without `needs:`, which refuses such a monster at load
    game.write_text(re.sub(r"\nneeds:\n(  .*\n)+", "\n", game.read_text()))
    text = BASE.replace("    monster: troll", "    monster: Great Kraken")
    assert problems(sheet(text), copy_project) == [
        "game.yaml:5: Ana: monster 'Great Kraken' (kraken) has no craving to score in rules published"]


def test_grid_size_comes_from_the_rules(sheet, copy_project):
    rules = copy_project.content_dir / "tasty-humans" / "rules.yaml"
    _edit(rules, "rows_by_players: {1: 6, 2: 6, 3: 5, 4: 4}", "rows_by_players: {1: 7, 2: 7, 3: 6, 4: 5}")
    assert problems(sheet(BASE), copy_project)[0] == "game.yaml:9: Ana: stomach has 6 rows: expected 7 for 2 players"


def test_reference_text_shows_the_number_the_scorer_uses(copy_project):
    leaders = copy_project.content_dir / "tasty-humans" / "leaders.yaml"
    _edit(leaders, "  - id: line-hand\n    kind: line\n    type: hand\n    points: 2", "  - id: line-hand\n    kind: line\n    type: hand\n    points: 9")
    game = load_game(copy_project, "tasty-humans")
    rules = game.data["rules"].version()
    defs = {l.id: l for l in game.data["leaders"].leaders}
    text = defs["line-hand"].reference_text()
    board = board_from_text("1 G G\nG . .", rules.symbol_to_tile(), {"1": "line-hand"})
    points = score_player(board, "troll", rules, defs).leaders[0].points
    assert "9 points" in text and points == 9 * 3
    for lid, leader in defs.items():  # every card prints the per-unit value the scorer multiplies by
        assert str(leader.points) in leader.reference_text(), lid
    monsters = {m.id: m for m in game.data["monsters"].monsters}
    for mid, craving in rules.cravings.items():
        assert str(craving.points) in monsters[mid].craving_text(rules.cravings[mid])


def test_a_gap_does_not_hide_the_other_problems_of_that_board(sheet):
    # Bo's board has a gap under a tile and names a leader that is nowhere on it; the gap
    # is reported, and so is the missing leader. Whether the stomach is full is not judged
    # (the gap is most likely a copying slip), so no king or held complaint follows from it.
    text = BASE.replace("      A B 3 G 4 5", "      . B 3 G 4 D")
    assert problems(sheet(text)) == [
        "game.yaml:19: Bo: leader 5: 'damage-line' is neither in the stomach nor held: expected digit 5 on the board, or held: damage-line",
        "game.yaml:24: Bo, row 4 column 1: empty cell below a tile",
    ]


def test_a_solo_board_refuses_the_king_bonus(sheet):
    """Solo scoring has no King bonus (published rules line 257, 0.2.8 line 265): `king:
    true` is refused in one line there; `king: false` (older simulated sheets) scores
    as the blank sheet, which has no `king:`."""
    def with_king(value: str) -> str:
        return SOLO.replace("    monster: griffin\n", f"    monster: griffin\n    king: {value}\n")

    assert problems(sheet(with_king("true"))) == [
        "game.yaml:5: Ana: king: true, but there is no 2-point bonus for filling the stomach first in a solo game "
        "(published rules line 257, 0.2.8 line 265): expected king: false or no king"
    ]
    # the bonus named is rules.yaml's king_bonus, as the sheet's rules set it (it said "two-point" whatever it was)
    changed = with_king("true").replace("game: tasty-humans\n", "game: tasty-humans\nchanges: {king_bonus: 3}\n")
    assert problems(sheet(changed)) == [
        "game.yaml:6: Ana: king: true, but there is no 3-point bonus for filling the stomach first in a solo game "
        "(published rules line 257, 0.2.8 line 265): expected king: false or no king"
    ]
    unmarked = score_sheet(Project(REPO), sheet(SOLO)).to_json()
    marked = score_sheet(Project(REPO), sheet(with_king("false"))).to_json()
    assert marked == unmarked


# The play-tester's sheets (their audit, item 2): by the printed text (F289, F293) each
# meets its challenge; pnp's reading (rulings.challenge_overlap) lets the two share tiles.
# Made possible boards: a third leader and a Damage tile, as 4 rounds (8 turns of at most
# 4 basic tiles, F110) cannot add the 34 basic tiles the play-tester drew.
CHALLENGE_SHEET = """\
game: tasty-humans
rules: published
players:
  - name: Sam
    monster: {monster}
    leaders: {{1: line-hand, 2: {second}, 3: line-boot}}
    held: {held}
    stomach: |
{stomach}solo:
  level: 0
  ai_cards: [adv-44, adv-45, adv-46, adv-47, adv-48, adv-49, adv-50, adv-40]
  challenge: monster
"""
GRIFFIN_CROSS = ["H B H B H B", "A G B G 1 A", "H G 3 B G H", "A B G H A B", "H G B 2 D G", "A B G H A B"]
DRAGON_3X3 = ["G A 1 A G A", "A G B G 3 G", "G 2 A B D B", "H H H G A G", "H H H A B A", "H H H B A B"]


@pytest.mark.parametrize("monster, second, held, rows, reason", [
    ("griffin", "rows-all-four", "sight-boot", GRIFFIN_CROSS, "2 alternating runs of 6, need 2"),
    ("legendary-dragon", "sight-armor", "range-helmet", DRAGON_3X3, "4 2x3 blocks of one type, need 2"),
])
def test_challenge_runs_and_blocks_may_share_tiles(sheet, monster, second, held, rows, reason):
    stomach = "".join(f"      {row}\n" for row in rows)
    report = score_sheet(Project(REPO), sheet(CHALLENGE_SHEET.format(monster=monster, second=second, held=held, stomach=stomach))).to_json()
    challenge = report["solo"]["challenge"]
    assert challenge["met"] is True and report["winners"] == ["Sam"]
    assert challenge["reason"].startswith(f"{reason} (the two may share tiles: pnp's reading of F289/F293 (rules.yaml rulings.challenge_overlap))")
