"""A stomach with fewer basic tiles than turns its player took is refused in one line
(published rules lines 68, 104, 118, 144, 164, 184; 0.2.8 lines 73, 113, 123, 137, 165, 193):
every turn drops at least one tile of the eaten shape, unless the damage dropped first filled
the stomach (then that was the player's last turn), and only Damage tiles ever leave a stomach."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.load.content import Project
from pnp.score.dispatch import score_sheet
from test_th_scoring_sheet import BASE, _edit, copy_project, problems  # noqa: F401 (a fixture)

REPO = Path(__file__).resolve().parent.parent
# BASE: four Leader Phases and a round ending, so five rounds: Bo (room left) took 10
# turns, Ana (filled first) 9 at least. Bo has 13 basic tiles, Ana 25.
BO = """\
      . . . . . .
      . . . . . .
      H . . . . .
      A B 3 G 4 5
      H A H A H 1
      G B G B 2 D
"""
ANA = """\
      H A B G 1 H
      A A B G D A
      B G 2 G H B
      H A B 3 A G
      A A D D B 4
      B A H G G G
"""
WHY = ("every turn drops at least one tile of the eaten adventurer (published rules line 118, 0.2.8 line 137) "
       "unless the damage dropped before it (published line 104, 0.2.8 line 123) filled the stomach, which then "
       "skips its turns left (published line 184, 0.2.8 line 193), and only Damage tiles ever leave a stomach "
       "(Cleric: published line 144, 0.2.8 line 113)")

# BASE states no ending: the line says which one it was read as (the other needs fewer turns)
HINT = " (read as a game that ended after a round; if it ended in the Leader Phase, write ending: leader-phase)"


def test_basic_tiles_at_least_the_turns_taken(sheet):
    ten = BO.replace("      H . . . . .", "      . . . . . .").replace("G B G B 2 D", "D D G B 2 D")
    assert score_sheet(Project(REPO), sheet(BASE.replace(BO, ten))).players[1].total is not None
    nine = ten.replace("H A H A H 1", "D A H A H 1")
    assert problems(sheet(BASE.replace(BO, nine))) == [
        f"game.yaml:20: Bo: 9 basic tiles in the stomach, but the leaders show 4 Leader Phases and a game that ends after a round, "
        f"so this player took at least 10 turns: {WHY}: expected at least 10 basic tiles (is a row missing?){HINT}"
    ]


def test_turns_a_round_come_from_the_rules(sheet, copy_project):
    """rules.yaml turns_a_round (F68/O73) sets the count: three turns a round make Bo's
    five rounds 15 turns."""
    rules = copy_project.content_dir / "tasty-humans" / "rules.yaml"
    _edit(rules, "turns_a_round: 2", "turns_a_round: 3")
    lines = problems(sheet(BASE), copy_project)
    assert any(line.startswith("game.yaml:20: Bo: 13 basic tiles") and "took at least 15 turns" in line for line in lines), lines


def test_the_player_who_filled_skipped_at_most_one_turn_of_the_final_round(sheet):
    """Ana filled first: 9 turns at least. With no Damage tile in the top row her last
    tile was no damage that filled the stomach, so every turn dropped a basic tile."""
    nine = ("      A A A A 1 A\n      D D D D D D\n      D D 2 D D D\n      D D D 3 D D\n"
            "      H D D D D 4\n      H H H D D D\n")
    assert score_sheet(Project(REPO), sheet(BASE.replace(ANA, nine))).players[0].total is not None
    eight = nine.replace("H H H D D D", "H H D D D D")
    assert problems(sheet(BASE.replace(ANA, eight))) == [
        f"game.yaml:9: Ana: 8 basic tiles in the stomach, but the leaders show 4 Leader Phases and a game that ends after a round, "
        f"so this player took at least 9 turns: {WHY}: expected at least 9 basic tiles (is a row missing?){HINT}"
    ]


def test_damage_that_fills_the_stomach_leaves_its_turn_without_a_tile(sheet):
    """Damage is dropped before the Eat step (F104, O123): when it fills the last cell no
    shape tile can fall, and the full stomach skips the turn left (F184, O193). Ana's 9th
    and last turn may so have added only Damage: its last tile is at the top of a column."""
    eight = ("      D D D D 1 D\n      D D D D D D\n      D D 2 D D D\n      D D D 3 D D\n"
             "      H H D D D 4\n      H H H H H H\n")
    assert score_sheet(Project(REPO), sheet(BASE.replace(ANA, eight))).players[0].total is not None
    seven = eight.replace("H H D D D 4", "H D D D D 4")
    assert problems(sheet(BASE.replace(ANA, seven))) == [
        f"game.yaml:9: Ana: 7 basic tiles in the stomach, but the leaders show 4 Leader Phases and a game that ends after a round, "
        f"so this player took at least 9 turns, the last of which may have dropped only Damage tiles: {WHY}: "
        f"expected at least 8 basic tiles (is a row missing?){HINT}"
    ]


def test_a_four_player_game_whose_last_stomach_filled_with_damage(sheet):
    """The review's repro (engine seed-0 sheet, P4's board edited): P4 ate 3 leaders, so 4
    rounds; P4 filled with damage on the first turn of the last one, 7 turns with 6
    basic tiles. One more Damage tile instead of a basic one is too few."""
    text = (REPO / "tests" / "data" / "th-damage-fill-4p.yaml").read_text(encoding="utf-8")
    report = score_sheet(Project(REPO), sheet(text))
    assert [p.total for p in report.players] == [34, 31, 27, -6]
    fewer = text.replace("  - A B H 2 A D", "  - A B D 2 A D")
    lines = problems(sheet(fewer))
    assert len(lines) == 1 and lines[0].startswith("game.yaml:56: P4 greedy: 5 basic tiles")
    assert lines[0].endswith("took at least 7 turns, the last of which may have dropped only Damage tiles: "
                             f"{WHY}: expected at least 6 basic tiles (is a row missing?)")


def test_the_walkthrough_sheet_with_a_stomach_copied_short(sheet):
    """The shipped 2-player example with Ben's stomach cut to its leaders and one tile
    (the play-test's s/sparse.yaml): one line, at his stomach."""
    text = (REPO / "examples" / "tasty-humans-2p.yaml").read_text(encoding="utf-8")
    start = text.index("      . . 5 . . .")
    end = text.index("    claimed: 28")
    sparse = text[:start] + "      . . . . . .\n" * 5 + "      1 2 3 4 5 H\n" + text[end:]
    lines = problems(sheet(sparse))
    assert len(lines) == 1 and lines[0].startswith("game.yaml:")
    assert "Ben: 1 basic tile in the stomach" in lines[0] and "expected at least 10 basic tiles" in lines[0]


# Every sheet below opens alike: a round ending, Ana the troll holding the Village King first.
ANA_FIRST = """\
game: tasty-humans
rules: published
ending: round
players:
  - name: Ana
    monster: troll
    king: true
"""
ONE_PHASE = ANA_FIRST + """\
    leaders: {1: line-hand}
    stomach: |
      H A B G 1 H
      D D D D D D
      A D H D B D
      D G D A D H
      B A D G H A
  - name: Bo
    monster: griffin
    leaders: {1: feast-hand, 2: diagonal-helmet}
    stomach: |
      . . . . . .
      . . . . . .
      . . . . . .
      . . . . . .
      H D 1 2 D D
  - name: Cy
    monster: legendary-dragon
    leaders: {1: line-boot, 2: range-boot}
    stomach: |
      . . . . . .
      . . . . . .
      . . . . . .
      . . . 1 2 .
      H A B G H A
"""


def test_the_counts_are_singular_when_one(sheet):
    """One Leader Phase (two rounds: four turns) and one basic tile read "1 Leader
    Phase", "1 basic tile", never "1 Leader Phase(s)". Three players: two rounds cannot
    fill a 6-row stomach (see test_more_tiles_than_the_turns_can_add), and Ana's 5 rows
    hold 16 basic and 13 Damage tiles, what 4 turns can add (at most 16 of each)."""
    assert problems(sheet(ONE_PHASE)) == [
        f"game.yaml:18: Bo: 1 basic tile in the stomach, but the leaders show 1 Leader Phase and a game that ends after a round, "
        f"so this player took at least 4 turns: {WHY}: expected at least 4 basic tiles (is a row missing?)"
    ]


# The audit's reproducers: a full stomach (36 basic tiles) whose leaders show no Leader
# Phase, so one round: 2 turns, each adding one shape of at most 4 basic tiles.
FULL = "\n".join(["      H A B G H A", "      A B G H A B"] * 3) + "\n"
NO_PHASE = ANA_FIRST + f"""\
    held: line-hand
    stomach: |
{FULL}  - name: Ben
    monster: griffin
    leaders: {{1: line-boot}}
    stomach: |
      . . . . . .
      . . . . . .
      . . . . . .
      . . . . . .
      . . . 1 . .
      H A B G . .
"""
BASIC = ("a turn eats one adventurer and adds only its shape's basic tiles (published rules line 110, 0.2.8 line 131)")
DAMAGE = ("a turn's Damage tiles come only from the Swordsmen next to the eaten card and the Archers two away in the "
          "3 x 3 grid (published rules lines 88-92, 0.2.8 lines 95-99)")
VERSIONS = ["published", '"0.2.8"']


def _version(text: str, rules: str) -> str:
    return text.replace("rules: published", f"rules: {rules}")


@pytest.mark.parametrize("rules", VERSIONS)
def test_more_tiles_than_the_turns_can_add(sheet, rules):
    """Refused in one line at the stomach, under both rule versions (deck.shape_squares
    gives the 4 basic tiles a turn)."""
    text = _version(NO_PHASE, rules)
    assert problems(sheet(text)) == [
        f"game.yaml:9: Ana: 36 basic tiles in the stomach, but the leaders show 0 Leader Phases and a game that ends after a "
        f"round, so this player took at most 2 turns, each adding at most 4 basic tiles: {BASIC}: expected at most 8 basic "
        f"tiles (is a leader missing from the sheet?)"
    ]


# Two Leader Phases and a round ending: three rounds, 6 turns each, so at most 24 basic
# tiles (6 x 4, F110/O131) and at most 24 Damage tiles (6 x 4, F88-92/O95-99), each kind
# bounded on its own. Ana (filled first, leader 3 held) has exactly 24 basic tiles, Ben
# (room left, leader 3 eaten last, on top) exactly 24 Damage tiles.
MAXIMA = ANA_FIRST + """\
    leaders: {1: line-hand, 2: line-boot}
    held: line-armor
    stomach: |
      H A B G H A
      D H D A D B
      A D 1 D G D
      D B D H D 2
      G D H B A G
      H B A G H B
  - name: Ben
    monster: griffin
    leaders: {1: range-hand, 2: range-boot, 3: range-helmet}
    stomach: |
      . . . D 3 D
      D D D D D D
      D D D D D D
      D D 1 D D D
      D D D 2 D D
      H H A A B G
"""
ONE_BASIC_MORE = ("      G D H B A G\n", "      G A H B A G\n")
ONE_DAMAGE_MORE = ("      . . . D 3 D\n", "      . . D D 3 D\n")


@pytest.mark.parametrize("rules", VERSIONS)
def test_the_exact_maxima_are_accepted(sheet, rules):
    report = score_sheet(Project(REPO), sheet(_version(MAXIMA, rules)))
    assert [p.total is not None for p in report.players] == [True, True]


@pytest.mark.parametrize("rules", VERSIONS)
def test_one_basic_tile_too_many(sheet, rules):
    text = _version(MAXIMA.replace(*ONE_BASIC_MORE), rules)
    assert problems(sheet(text)) == [
        f"game.yaml:10: Ana: 25 basic tiles in the stomach, but the leaders show 2 Leader Phases and a game that ends after a "
        f"round, so this player took at most 6 turns, each adding at most 4 basic tiles: {BASIC}: expected at most 24 basic "
        f"tiles (is a leader missing from the sheet?)"
    ]


@pytest.mark.parametrize("rules", VERSIONS)
def test_one_damage_tile_too_many(sheet, rules):
    text = _version(MAXIMA.replace(*ONE_DAMAGE_MORE), rules)
    assert problems(sheet(text)) == [
        f"game.yaml:20: Ben: 25 Damage tiles in the stomach, but the leaders show 2 Leader Phases and a game that ends after a "
        f"round, so this player took at most 6 turns, each adding at most 4 Damage tiles: {DAMAGE}: expected at most 24 Damage "
        f"tiles (is a leader missing from the sheet?)"
    ]


def test_the_tiles_a_turn_come_from_the_rules(sheet, copy_project):
    """The largest shape (deck.shape_squares) bounds the basic tiles a turn, rules.yaml
    damage_a_turn_max the Damage tiles: with 5 of each, one tile more of either kind fits
    Ana's and Ben's 6 turns; at 3 Damage a turn, Ben's 24 are 6 too many."""
    rules = copy_project.content_dir / "tasty-humans" / "rules.yaml"
    both = MAXIMA.replace(*ONE_BASIC_MORE).replace(*ONE_DAMAGE_MORE)
    assert len(problems(sheet(both), copy_project)) == 2
    _edit(rules, "shape_squares: [2, 4]", "shape_squares: [2, 5]")
    _edit(rules, "damage_a_turn_max: 4", "damage_a_turn_max: 5")
    assert [p.total is not None for p in score_sheet(copy_project, sheet(both)).players] == [True, True]
    _edit(rules, "damage_a_turn_max: 5", "damage_a_turn_max: 3")
    lines = problems(sheet(MAXIMA), copy_project)
    assert len(lines) == 1 and lines[0].startswith("game.yaml:20: Ben: 24 Damage tiles") and "expected at most 18 Damage tiles" in lines[0]


def test_after_the_last_stack_the_turns_set_no_bound(sheet):
    """Once the stacks run out, rounds go on without a Leader Phase (rules.yaml
    rulings.stacks_run_out): a round ending after the last stack may follow any number of
    rounds, so the shipped dense examples pass (BASE: 4 phases, 25 basic tiles)."""
    assert score_sheet(Project(REPO), sheet(BASE)).players[0].total is not None
