"""Tasty Humans: what the cards print comes from the data the scorer reads, for every
value of the rule switches (rules.yaml cravings.<id>.overlap, held_leader), the solo
challenges' numbers, the scoring token's size against the track, and units that agree
with their numbers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import yaml

from pnp.errors import PnpError
from pnp.load.content import Project, load_game
from pnp.render.faces import render_game
from pnp.score.dispatch import score_sheet
from test_th_components import NS, texts
from test_th_scoring_sheet import REPO

GAME = "tasty-humans"

# The play-tester's board: helmets and armor fill rows 1-2 three wide, boots and hands rows
# 3-5 two wide. Overlapping squares: 2 of each type, 8 in all (40 points); without
# overlap one of each fits (4 squares, 20 points).
DRAGON = """\
game: tasty-humans
rules: {rules}
ending: round
players:
  - name: Dee
    monster: legendary-dragon
    leaders: {{1: leader-line, 2: damage-line, 3: most-minus-least}}
    held: sight-hand
    stomach: ["H H H A A A", "H H H A A A", "B B G G 1 D", "B B G G B D", "B B G G 2 H", "A H B A 3 G"]
solo: {{level: 0, ai_cards: [adv-44, adv-45, adv-46, adv-47, adv-48, adv-49, adv-50, adv-09]}}
"""


def _set(project: Project, old: str, new: str, count: int = 1) -> None:
    path = project.content_dir / GAME / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _words(project: Project, components: set[str], rules: str | None = None) -> dict[str, str]:
    """Every face of `components`, as its text run together (line breaks undone)."""
    game = load_game(project, GAME)
    rendered = render_game(game, {"rules": rules} if rules else {}, 3.0, only=components)
    return {f"{c.spec.id}/{f.name}": " ".join(" ".join(texts(ET.fromstring(f.svg))).split()) for c in rendered for f in c.faces}


# ---------------------------------------------------------------- A: Legendary Dragon overlap


@pytest.mark.parametrize("overlap, points, printed, not_printed", [
    ("true", 40, "Squares may overlap: each one scores.", "Squares may not share a tile"),
    ("false", 20, "Squares may not share a tile: count the most that fit side by side.", "Squares may overlap"),
])
@pytest.mark.parametrize("version", ["published", '"0.2.8"'])
def test_dragon_overlap_changes_score_and_printed_text_together(copy_game, sheet, overlap, points, printed, not_printed, version):
    project = copy_game(GAME)
    # rules.yaml O286: the switch lives in 0.2.8 and the published rules inherit it
    _set(project, "legendary-dragon: {points: 5, overlap: true}", f"legendary-dragon: {{points: 5, overlap: {overlap}}}")
    report = score_sheet(project, sheet(DRAGON.format(rules=version))).to_json()
    assert report["players"][0]["craving"] == points
    faces = _words(project, {"monster-board", "reference-card"}, version.strip('"'))
    for name in ("monster-board/legendary-dragon", "reference-card/reference"):
        assert printed in faces[name] and not_printed not in faces[name], name


def test_a_craving_scored_by_overlap_must_print_it(copy_game):
    project = copy_game(GAME)
    path = project.content_dir / GAME / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("    overlap:\n", text.index("id: legendary-dragon"))
    end = text.index("    challenge:", start)
    text = text[:start] + text[end:]
    path.write_text(text.replace("one basic type. {overlap}", "one basic type."), encoding="utf-8")
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    assert [str(e).split(": ", 1)[1] for e in exc.value.errors] == [
        "monster 'legendary-dragon': its craving scores by cravings.legendary-dragon.overlap but the text does not print it: "
        "expected {overlap} in text and overlap: {true: ..., false: ...}"]


def test_overlap_wording_and_placeholder_come_together(copy_game):
    project = copy_game(GAME)
    path = project.content_dir / GAME / "monsters.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("one basic type. {overlap}", "one basic type."), encoding="utf-8")
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    assert "has `overlap` wording that its text does not print: expected {overlap} in text" in str(exc.value.errors[0])


# ---------------------------------------------------------------- A: a held leader in the Balanced Diet


@pytest.mark.parametrize("held, printed, verdict", [
    ("ignored", "Balanced Diet: every leader in your stomach scores at least", True),
    ("zero", "Balanced Diet: every leader, one still in your Leader space too (as 0), scores at least", False),
])
def test_held_leader_switch_changes_the_balanced_diet_text_with_its_verdict(copy_game, sheet, held, printed, verdict):
    project = copy_game(GAME)
    _set(project, "    held_leader: ignored\n    # Printed pieces", f"    held_leader: {held}\n    # Printed pieces")
    # Dee's leaders score 8, 0 and 1: beginner (10) fails either way; so test the reason.
    solo = DRAGON.format(rules="published").replace("adv-09]}", "adv-09], challenge: balanced-diet/beginner}")
    reason = score_sheet(project, sheet(solo)).to_json()["solo"]["challenge"]["reason"]
    assert ("Hand Sight was not eaten (0)" in reason) is not verdict  # by its title, as the eaten leaders are
    faces = _words(project, {"scoring-sheet", "solo-reference", "reference-card"})
    assert printed in faces["scoring-sheet/players-1"]
    # the tie-break's leader comparison (F204) reads the same switch (scoring.compared_leaders)
    note = "a leader still held counts as 0"
    assert (f"lowest first ({note})" in faces["scoring-sheet/players-2"]) is not verdict
    assert (f"then the next lowest ({note})" in faces["reference-card/reference"]) is not verdict
    card = faces["solo-reference/solo-back"]
    condition = printed.split(": ", 1)[1]
    assert condition[0].upper() + condition[1:] in card


def test_reference_card_tie_limit_follows_the_scorers_leader_limit(copy_game):
    """F204's "up to five Leader Tiles (or four in a 4-player game)" is printed from rules.yaml
    leaders_max_by_players, the limit scoring._tie_keys cuts the leader comparison at."""
    project = copy_game(GAME)
    _set(project, "leaders_max_by_players: {1: 5, 2: 5, 3: 5, 4: 4}", "leaders_max_by_players: {1: 5, 2: 5, 3: 4, 4: 4}")
    _set(project, "leader_stacks_by_players: {1: 4, 2: 4, 3: 4, 4: 3}", "leader_stacks_by_players: {1: 4, 2: 4, 3: 3, 4: 3}")
    assert load_game(project, GAME).data["rules"].version("published").leaders_max(3) == 4
    card = _words(project, {"reference-card"})["reference-card/reference"]
    assert "then the next lowest, up to 5 leaders (4 in a 3- or 4-player game), then a shared win" in card



def test_leader_board_prints_the_stack_tiles_the_simulator_deals(copy_game):
    """F42: every stack holds one more tile than the players (solo: 3, F218). The leader
    board prints rules.yaml leader_stack_tiles_by_players, the number the engine deals."""
    project = copy_game(GAME)
    assert "Stacks 4 4 4 3 Tiles per stack 3 3 4 5 Stomach rows" in _words(project, {"leader-board"})["leader-board/leader-board"]
    _set(project, "leader_stack_tiles_by_players: {1: 3, 2: 3, 3: 4, 4: 5}", "leader_stack_tiles_by_players: {1: 3, 2: 4, 3: 4, 4: 5}")
    assert "Tiles per stack 3 4 4 5" in _words(project, {"leader-board"})["leader-board/leader-board"]


def test_leader_stacks_must_come_from_the_deck(copy_game):
    project = copy_game(GAME)
    _set(project, "leader_stack_tiles_by_players: {1: 3, 2: 3, 3: 4, 4: 5}", "leader_stack_tiles_by_players: {1: 3, 2: 3, 3: 4, 4: 9}")
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    assert "4 player(s) take 4 + 3 x 9 = 31 leaders at setup: expected at most 30, the deck's leaders" in str(exc.value.errors[0])


# ---------------------------------------------------------------- C: the solo challenges on the solo card


def test_solo_card_back_lists_the_challenges_from_the_scorers_data(repo_project):
    game = load_game(repo_project, GAME)
    rules = game.data["rules"].version("published")
    faces = _words(repo_project, {"solo-reference"})
    front, back = faces["solo-reference/solo"], faces["solo-reference/solo-back"]
    assert "SOLO CHALLENGES" in back and "BALANCED DIET" in back and "MONSTER CHALLENGES" in back
    # F277-281: the thresholds, named by difficulty, as the scorer checks them
    assert rules.solo.balanced_diet == {"beginner": 10, "normal": 12, "expert": 14}
    assert "at least 10 (beginner), 12 (normal) or 14 (expert)." in back
    # F287-295: every monster's goal (the same text the monster board prints)
    for monster in game.data["monsters"].monsters:
        assert monster.name.upper() in back and monster.challenge_text(rules.solo.challenge_numbers) in back
    # F222: a first solo game is suggested level 2
    assert rules.solo.first_level == 2 and "First solo game? Try level 2." in front


def test_solo_challenge_numbers_follow_rules_yaml(copy_game):
    project = copy_game(GAME)
    _set(project, "balanced_diet: {beginner: 10, normal: 12, expert: 14}", "balanced_diet: {beginner: 9, expert: 15}")
    _set(project, "      first_level: 2\n", "      first_level: 3\n")
    faces = _words(project, {"solo-reference"})
    assert "at least 9 (beginner) or 15 (expert)." in faces["solo-reference/solo-back"]
    assert "Try level 3." in faces["solo-reference/solo"]


def test_monster_challenge_numbers_follow_rules_yaml(copy_game, sheet):
    """F289-295: "at least two", the dragon's "2x3 block", the griffin's "six tiles long"
    are rules.yaml solo.challenge_numbers: the scorer checks them and the monster boards and
    the solo card print them, so a change there changes both."""
    project = copy_game(GAME)
    faces = _words(project, {"monster-board", "solo-reference"})
    assert "At least 2 different 2x3 blocks" in faces["monster-board/legendary-dragon"]
    assert "At least 2 runs must keep switching for 6 tiles" in faces["solo-reference/solo-back"]
    _set(project, "challenge_numbers: {at_least: 2, dragon_block: [2, 3], griffin_run: 6}",
         "challenge_numbers: {at_least: 3, dragon_block: [2, 2], griffin_run: 5}")
    faces = _words(project, {"monster-board", "solo-reference"})
    for face in ("monster-board/legendary-dragon", "solo-reference/solo-back"):
        assert "At least 3 different 2x2 blocks" in faces[face]
    assert "At least 3 runs must keep switching for 5 tiles" in faces["monster-board/griffin"]
    assert "At least 3 of your helmet-armor-boot stacks" in faces["monster-board/troll"]
    # the scorer: the board holds two 2x2 squares of each basic type
    solo = DRAGON.format(rules="published").replace("adv-09]}", "adv-09], challenge: monster}")
    reason = score_sheet(project, sheet(solo)).to_json()["solo"]["challenge"]["reason"]
    assert reason.startswith("8 2x2 blocks of one type, need 3"), reason


def test_the_blank_solo_sheet_starts_at_the_rules_first_level(repo_project, copy_game):
    """F222: the suggested first level is data (rules.yaml solo.first_level), so the blank
    sheet (`pnp sheet --template`, the form of `pnp serve`) starts there; 0.2.8 suggests
    none, so its sheet leaves the level to fill in."""
    def level(project: Project, rules: str) -> object:
        game = load_game(project, GAME)
        return yaml.safe_load(game.plugin.sheet_template(game, 1, {"rules": rules}))["solo"]["level"]

    assert (level(repo_project, "published"), level(repo_project, "0.2.8")) == (2, None)
    project = copy_game(GAME)
    _set(project, "      first_level: 2\n", "      first_level: 3\n")
    assert (level(project, "published"), level(project, "0.2.8")) == (3, None)


def test_rules_0_2_8_have_no_solo_challenges_and_say_so(repo_project):
    faces = _words(repo_project, {"solo-reference"}, "0.2.8")
    back = faces["solo-reference/solo-back"]
    assert "Rules 0.2.8 have no solo challenges" in back and "BALANCED DIET" not in back
    assert "Try level" not in faces["solo-reference/solo"]  # 0.2.8 suggests no level


def test_first_level_must_be_a_level(copy_game):
    project = copy_game(GAME)
    _set(project, "      first_level: 2\n", "      first_level: 9\n")
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    assert "first_level 9 is not a level: expected one of 0, 1, 2, 3, 4, 5, 6" in str(exc.value.errors[0])


# ---------------------------------------------------------------- D: tokens fit the track


def test_scoring_tokens_fit_inside_the_track_spaces_and_the_start_box(repo_project):
    """F194: each token starts left of the '1' space and moves along the track: the token
    (game.yaml) must stand inside a space and the START box with room to pick it up."""
    game = load_game(repo_project, GAME)
    token = next(c for c in game.manifest.components if c.id == "scoring-token").size
    (board,) = render_game(game, {}, 3.0, only={"leader-board"})
    track = ET.fromstring(next(f.svg for f in board.faces if f.name.endswith("-back")))
    rects = list(track.iter(NS + "rect"))
    spaces = [r for r in rects if r.get("class") == "track-space"]
    (start,) = [r for r in rects if r.get("class") == "track-start"]
    cell = min(float(r.get("width")) for r in spaces)
    room = 0.5  # mm of play on every side
    assert token.width + 2 * room <= min(cell, float(start.get("width")), float(start.get("height")))
    assert token.height + 2 * room <= cell


# ---------------------------------------------------------------- E: units follow their numbers


@pytest.mark.parametrize("points, printed", [(1, "scores 1 point per step"), (2, "scores 2 points per step")])
def test_unit_follows_the_number_on_the_card(copy_game, points, printed):
    project = copy_game(GAME)
    path = project.content_dir / GAME / "leaders.yaml"
    old = "  - id: sight-leader\n    kind: sight\n    type: leader\n    points: 1\n"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, old.replace("points: 1", f"points: {points}")), encoding="utf-8")
    faces = _words(project, {"reference-card"})
    assert printed in faces["reference-card/reference-back"]
    leader = next(l for l in load_game(project, GAME).data["leaders"].leaders if l.id == "sight-leader")
    assert printed in leader.reference_text()


def test_every_printed_number_agrees_with_its_unit(repo_project):
    game = load_game(repo_project, GAME)
    for version in game.data["rules"].names():
        rules = game.data["rules"].version(version)
        printed = [l.reference_text() for l in game.data["leaders"].leaders]
        printed += [m.craving_text(rules.cravings[m.id]) for m in game.data["monsters"].monsters]
        for text in printed:
            assert not re.search(r"\b1 (points|steps|tiles)\b", text), text
            assert not re.search(r"\b([02-9]|\d\d+) (point|step|tile)\b", text), text


def test_a_unit_written_out_after_a_number_is_refused(copy_game):
    project = copy_game(GAME)
    path = project.content_dir / GAME / "leaders.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Each one scores {points:point} per step", "Each one scores {points} point per step", 1), encoding="utf-8")
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    assert "text: writes '{points} point': expected {points:point}, so the unit is plural exactly when the number is not 1" in str(exc.value.errors[0])
