"""How a Tasty Humans game ends and what that allows on a sheet (issue 10): the two
endings (after a round; in the Leader Phase), leader counts that agree between players,
the Village King, held leaders, games that cannot have ended, and the example sheets,
each scored to its hand-checked totals and against the naive oracle."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pnp.load.content import Project, load_game
from pnp.errors import PnpError
from pnp.score.dispatch import score_sheet

from test_th_scoring_oracle import naive_craving, naive_damage, naive_leader

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


def problems(path: Path) -> list[str]:
    with pytest.raises(PnpError) as exc:
        score_sheet(Project(REPO), path)
    return [str(e) for e in exc.value.errors]


LEADER_PHASE = (EXAMPLES / "tasty-humans-3p-leader-phase.yaml").read_text()


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


# --- the Leader-Phase ending (published line 186, 0.2.8 line 191) -----------------------


def test_leader_phase_ending_is_accepted_and_inferred(sheet):
    report = score_sheet(Project(REPO), sheet(LEADER_PHASE)).to_json()
    assert (report["ending"], report["ending_stated"]) == ("leader-phase", True)
    assert [p["held"] for p in report["players"]] == ["chain-diagonal", "feast-boot", "rows-all-four"]
    # two stomachs filled together by dropped leaders: both take the king bonus (line 190)
    assert [p["king"]["held"] for p in report["players"]] == [True, True, False]
    report = score_sheet(Project(REPO), sheet(_swap(LEADER_PHASE, "ending: leader-phase\n", ""))).to_json()
    assert (report["ending"], report["ending_stated"]) == ("leader-phase", False)


@pytest.mark.parametrize("old, new, expected", [
    # a player who did not keep the leader just drafted
    ("    held: rows-all-four\n", "    held: null\n",
     "game.yaml:37: Eve: held is empty: a game that ends in the Leader Phase leaves every player holding the leader just drafted"),
    # a stomach filled in the Leader Phase takes the king bonus
    ("    king: true\n    leaders: {1: leader-line", "    king: false\n    leaders: {1: leader-line",
     "game.yaml:23: Dev: king: false, but this stomach filled in the Leader Phase: every player who filled it then takes the Village King bonus"),
    # the leader that filled the stomach lands in the top row
    ("      H H A A 1 G\n      H H A A B G\n", "      H H A A B G\n      H H A A 1 G\n",
     "game.yaml:14: Cleo: no leader in the top row: a stomach that fills in the Leader Phase is filled by a dropped leader, which lands in the top row (published rules line 186, 0.2.8 line 191)"),
])
def test_leader_phase_impossibilities(sheet, old, new, expected):
    assert problems(sheet(_swap(LEADER_PHASE, old, new))) == [expected]


def test_round_ending_rules(sheet):
    text = _swap(LEADER_PHASE, "ending: leader-phase", "ending: round")
    assert problems(sheet(text)) == [
        "game.yaml:23: Dev: king: Cleo holds it too: after a round only the player who filled first takes the Village King "
        "(two kings come only from stomachs filled together in the Leader Phase)",
        "game.yaml:37: Eve: held: 'rows-all-four' would have been eaten after the final round: the stomach has 13 empty cells (published rules line 184, 0.2.8 line 193)",
    ]
    # the held leader as the sheet names it, title then id, as the other leader messages do
    titled = _swap(text, "    held: rows-all-four\n", "    held: Full Rows\n")
    assert problems(sheet(titled))[1].startswith("game.yaml:37: Eve: held: 'Full Rows' (rows-all-four) would have been eaten after the final round")
    # not stated: the hint names the ending the messages assume, the one with fewer problems
    # (here a leader-phase board with one slip: Cleo's leader moved down from the top row)
    text = _swap(LEADER_PHASE, "      H H A A 1 G\n      H H A A B G\n", "      H H A A B G\n      H H A A 1 G\n")
    text = text.replace("ending: leader-phase\n", "")
    assert problems(sheet(text)) == [
        "game.yaml:13: Cleo: no leader in the top row: a stomach that fills in the Leader Phase is filled by a dropped leader, "
        "which lands in the top row (published rules line 186, 0.2.8 line 191) (read as a game that ended in the Leader Phase; "
        "if it ended after a round, write ending: round)"
    ]


# --- the last leader eaten lies on top (issue 26 items 1 and 11) -----------------------

TWO = (EXAMPLES / "tasty-humans-2p.yaml").read_text()


def _bury_bens_last_leader(text: str) -> str:
    # Ben ate leader 5 last, into the top row; put a helmet there and leader 5 under it
    text = _swap(text, "      . . 5 . . .\n      H B H B A G\n", "      . . H . . .\n      H B 5 B A G\n")
    return text


def test_round_ending_last_leader_buried_is_rejected(sheet):
    # published line 184: a player with room eats the held leader last, so it is on top
    assert problems(sheet(_bury_bens_last_leader(TWO))) == [
        "game.yaml:27: Ben: every leader has a tile on top: after the final round a player with room eats the held leader "
        "last (published rules line 184, 0.2.8 line 193), so it sits on top of its column"
    ]
    # the same board under 0.2.8 (line 193) and with the ending left to pnp
    text = _swap(_bury_bens_last_leader(TWO), "rules: published", 'rules: "0.2.8"').replace("ending: round\n", "")
    assert problems(sheet(text))[0].startswith("game.yaml:26: Ben: every leader has a tile on top: after the final round")


def test_issue_board_with_one_players_leaders_all_buried(sheet):
    # the issue's board: every leader of Ben buried, exit 2 through `pnp score`
    from typer.testing import CliRunner

    from pnp.cli import app

    result = CliRunner().invoke(app, ["score", str(sheet(_bury_bens_last_leader(TWO))), "--project", str(REPO)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [problems(sheet(_bury_bens_last_leader(TWO)))[0]]


def test_leader_phase_ending_last_leader_buried_is_rejected(sheet):
    # published line 186: in a Leader-Phase ending every player's last act is the drop;
    # Eve's leaders 1 and 2 both get a tile on top
    text = _swap(LEADER_PHASE, "      H . . . . .\n      A B 1 . B .\n      H A H A 2 G\n",
                 "      H . H . B .\n      A B 1 . 2 .\n      H A H A B G\n")
    assert problems(sheet(text)) == [
        "game.yaml:38: Eve: every leader has a tile on top: a game that ends in the Leader Phase ends once every player has "
        "dropped the old leader (published rules line 186, 0.2.8 line 191), so that leader sits on top of its column"
    ]


def test_full_stomach_without_a_top_leader_kept_its_last_leader(sheet):
    # A round ending: Dev is full, not the king, holds nothing. With a leader in the top row
    # his 4 leaders fit 3 Leader Phases (the last eaten at the end, line 184); with none
    # there, the last was not eaten at the end, so 4 eaten means 4 phases: impossible.
    text = _swap(LEADER_PHASE, "ending: leader-phase", "ending: round")
    text = _swap(text, "    held: feast-boot\n", "    held: null\n")
    text = _swap(text, "{1: leader-line, 2: sight-hand, 3: columns-all-four}", "{1: leader-line, 2: sight-hand, 3: columns-all-four, 4: line-hand}")
    text = _swap(text, "    king: true\n    leaders: {1: leader-line", "    king: false\n    leaders: {1: leader-line")
    text = _swap(text, "    held: rows-all-four\n", "    held: null\n")
    text = _swap(text, "{1: most-minus-least, 2: line-armor, 3: surround-majority}", "{1: most-minus-least, 2: line-armor, 3: surround-majority, 4: chain-orthogonal}")
    text = _swap(text, "      H . . . . .\n", "      H 4 . . . .\n")
    top = _swap(text, "      G 1 H B A G\n", "      G 1 H B A 4\n")
    report = score_sheet(Project(REPO), sheet(top)).to_json()
    assert report["ending"] == "round"
    buried = _swap(text, "      G 1 H B A G\n      B A H G 2 B\n", "      G H H B A G\n      1 A H G 2 4\n")
    assert problems(sheet(buried)) == [
        "game.yaml:24: Dev: 4 leaders in the stomach and none held: every player ends with one leader from setup plus one per "
        "Leader Phase, and Cleo, Eve show 3 Leader Phases: expected 3 in the stomach (no leader in the top row, so the last "
        "leader drafted was not eaten after the final round, published rules line 184, 0.2.8 line 193)"
    ]


def test_inferred_ending_names_the_broken_rule_held_with_room(sheet):
    # issue 26 item 11: Ben holds a leader with room and his leaders are covered: the round
    # reading says the held leader would have been eaten (line 184), not a leader count
    text = _swap(TWO, "    held: null\n", "    held: chain-diagonal\n").replace("ending: round\n", "")
    text = _swap(text, ", 5: surround-majority}", "}")
    text = _swap(text, "      . . 5 . . .\n", "      . . H . . .\n")
    found = problems(sheet(text))
    assert found[0].startswith("game.yaml:25: Ben: held: 'chain-diagonal' would have been eaten after the final round: "
                               "the stomach has 5 empty cells (published rules line 184, 0.2.8 line 193)")
    assert not any(re.search(r"\d Leader Phase", m) for m in found)  # no leader count


# --- leader counts: one from setup plus one per Leader Phase -----------------------------


def test_examples_2p_broke_the_leader_count_and_now_scores(sheet):
    # the old example: Ana 5 leaders in a full stomach as king, Ben 4 with room, nothing held
    old = (EXAMPLES / "tasty-humans-2p.yaml").read_text()
    old = _swap(old, "    leaders: {1: line-hand, 2: range-boot, 3: least-type, 4: sight-leader}\n    held: chain-orthogonal\n",
                "    leaders: {1: line-hand, 2: range-boot, 3: least-type, 4: sight-leader, 5: chain-orthogonal}\n    held: null\n")
    old = _swap(old, "      A 4 B H G D", "      A 4 B H 5 D")
    old = _swap(old, "      . . 5 . . .", "      . . H . . .")
    old = _swap(old, ", 5: surround-majority}", "}")
    assert problems(sheet(old)) == [
        "game.yaml:12: Ana: 5 leaders in the stomach and none held: every player ends with one leader from setup plus one per "
        "Leader Phase, and Ben shows 3 Leader Phases: expected 3 in the stomach (this stomach filled first, so the last leader "
        "drafted stays held)",
        # and Ben, with room, ate his held leader last: it cannot be under a tile (line 184)
        "game.yaml:27: Ben: every leader has a tile on top: after the final round a player with room eats the held leader "
        "last (published rules line 184, 0.2.8 line 193), so it sits on top of its column",
    ]


def test_a_player_missing_a_leader(sheet):
    text = _swap(LEADER_PHASE, "{1: most-minus-least, 2: line-armor, 3: surround-majority}", "{1: most-minus-least, 2: line-armor}")
    text = _swap(text, "      G B 3 H A B", "      G B H H A B")
    assert problems(sheet(text)) == [
        "game.yaml:37: Eve: 2 leaders in the stomach and 1 held: every player ends with one leader from setup plus one per "
        "Leader Phase, and Cleo, Dev show 3 Leader Phases: expected 3 in the stomach and 1 held"
    ]


def test_no_leader_at_all(sheet):
    text = _swap(LEADER_PHASE, "{1: most-minus-least, 2: line-armor, 3: surround-majority}", "{}")
    text = _swap(text, "    held: rows-all-four\n", "    held: null\n")
    for old, new in (("A B 1 . B .", "A B H . B ."), ("H A H A 2 G", "H A H A H G"), ("G B 3 H A B", "G B H H A B")):
        text = _swap(text, old, new)
    assert problems(sheet(text)) == [
        "game.yaml:36: Eve: no leader in the stomach and none held: every player starts with one in the Leader space"
    ]


# --- games that cannot have ended (published 182/253, 0.2.8 189/261) --------------------

NOT_OVER = """\
game: tasty-humans
players:
  - {name: A, monster: troll, leaders: {1: line-hand, 2: line-boot}, stomach: "......\\n......\\n......\\n......\\n..HH..\\n12HHHH"}
  - {name: B, monster: griffin, leaders: {1: range-hand, 2: range-boot}, stomach: "......\\n......\\n......\\n......\\n......\\n12HHHH"}
"""


def test_no_full_stomach_is_rejected(sheet):
    assert problems(sheet(NOT_OVER)) == [
        "game.yaml:2: no stomach is full: the game ends only when a stomach is full (published rules line 182, 0.2.8 line 189)"
    ]


def test_solo_stomach_not_full_is_rejected(sheet):
    solo = """\
game: tasty-humans
players:
  - {name: A, monster: troll, leaders: {1: line-hand, 2: line-boot}, stomach: "......\\n......\\n......\\n......\\n..HH..\\n12HHHH"}
solo: {level: 1, ai_cards: [adv-01, adv-02, adv-03, adv-04, adv-05]}
"""
    assert problems(sheet(solo)) == [
        "game.yaml:2: no stomach is full: the game ends only when a stomach is full (published rules line 182, 0.2.8 line 189)"
    ]


def test_solo_cards_agree_with_the_leader_phases(sheet):
    text = (EXAMPLES / "tasty-humans-solo.yaml").read_text()
    text = _swap(text, ", adv-46]", "]")
    text = _swap(text, "adv-38, adv-39", "adv-38")
    assert problems(sheet(text))[0] == (
        "game.yaml:22: solo.ai_cards: 8 cards at level 2 make 3 rounds, but the leaders show 3 Leader Phases and a game "
        "that ends after a round: expected 10 cards (read as a game that ended after a round; if it ended in the Leader Phase, "
        "write ending: leader-phase)"
    )


# --- every example is a possible game, scored right ----------------------------------------

EXPECTED = {
    "tasty-humans-2p.yaml": ("round", [42, 28], ["Ana"]),
    "tasty-humans-3p-leader-phase.yaml": ("leader-phase", [32, 28, 15], ["Cleo"]),
    "tasty-humans-solo.yaml": ("round", [27], []),  # both lost to the A.I. (test_solo_examples_verdicts)
    "tasty-humans-solo-0.2.8.yaml": ("round", [37], []),
}


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES.glob("tasty-humans-*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_scores(name, repo_project):
    report = score_sheet(Project(REPO), EXAMPLES / name)
    data = report.to_json()
    ending, totals, winners = EXPECTED[name]
    assert data["ending"] == ending
    assert [p["total"] for p in data["players"]] == totals
    assert data["winners"] == winners
    assert report.exit_code == 0 and data["mismatches"] == []  # every claimed total matches
    # the naive scorer of the oracle test agrees, part by part
    game = load_game(repo_project, "tasty-humans")
    rules = game.data["rules"].version(data["rules"])
    defs = {l.id: l for l in game.data["leaders"].leaders}
    raw = yaml.safe_load((EXAMPLES / name).read_text())
    for p, scored in zip(raw["players"], data["players"]):
        grid = [row.split() for row in p["stomach"].strip().splitlines()]
        plain = [["L" if c.isdigit() else c for c in row] for row in grid]
        leaders = sum(naive_leader(plain, r, c, defs[p["leaders"][int(cell)]], rules)
                      for r, row in enumerate(grid) for c, cell in enumerate(row) if cell.isdigit())
        king = rules.king_bonus if p.get("king") and len(raw["players"]) > 1 else 0
        expected = leaders + naive_craving(plain, p["monster"], rules) - rules.damage_penalty * naive_damage(plain) + king
        assert scored["total"] == expected, p["name"]
    assert any("." not in p["stomach"] for p in raw["players"])  # a full stomach ended the game


def test_solo_examples_verdicts(repo_project):
    solo = score_sheet(Project(REPO), EXAMPLES / "tasty-humans-solo.yaml").to_json()["solo"]
    # 2 swordsmen, 1 archer, 2 wizards, 1 captain, 1 cleric: 4+1+4+1+1 = 11; shapes 34
    assert (solo["ai"]["class_points"], solo["ai"]["shape_points"], solo["won"]) == (11, 34, False)
    assert solo["challenge"] == {"name": "monster", "met": False, "reason": "2 alternating runs of 6, need 2 (the two may share tiles: pnp's reading of F289/F293 "
                                   "(rules.yaml rulings.challenge_overlap)), but 27 < A.I. 45"}
    old = score_sheet(Project(REPO), EXAMPLES / "tasty-humans-solo-0.2.8.yaml").to_json()["solo"]
    # 0.2.8 names no levels; 2 swordsmen, 2 archers, 1 wizard, 2 generals, 1 cleric: 14; shapes 37
    assert (old["level"], old["level_name"], old["ai"]["total"], old["won"], old["challenge"]) == (3, "", 51, False, None)


# --- our ruling: no more Leader Phases once the stacks run out (issue 26 item 10) ------------


def test_the_stacks_ruling_is_data_the_engine_and_the_checker_share(sheet):
    from pnp.load.yamlio import parse_located

    from game_plugins import game_module

    engine = game_module("tasty_humans", "engine")
    th_score = game_module("tasty_humans", "scoring").score_sheet
    game = load_game(Project(REPO), "tasty-humans")
    for version in game.data["rules"].names():
        ruling = game.data["rules"].version(version).rulings.stacks_run_out
        assert ruling.ruling == "no-more-leader-phases" and "our ruling" in ruling.says
    # the engine plays it: a 2-player game whose stacks ran out holds exactly 4 Leader
    # Phases and more rounds, and the checker accepts its board
    setup = engine.Setup.from_game(game, "published")
    for seed in range(60):
        result = engine.play(setup, seed, ["greedy", "greedy"])
        if result.stacks_ran_out:
            break
    else:
        pytest.fail("no 2-player game in 60 ran out of leader stacks")
    assert result.drafts == 4 and result.rounds > 5 and result.ending == "round"
    report = th_score(game, parse_located(yaml.safe_dump(result.sheet), "game.yaml")).to_json()
    assert report["ending"] in ("round", "either")
    # the checker quotes the ruling where a board goes past it
    text = _swap(TWO, "{1: line-hand, 2: range-boot, 3: least-type, 4: sight-leader}",
                 "{1: line-hand, 2: range-boot, 3: least-type, 4: sight-leader, 5: leader-line}")
    text = _swap(text, "      A 4 B H G D", "      A 4 B H 5 D")
    text = _swap(text, "{1: feast-helmet, 2: rows-all-four, 3: diagonal-armor, 4: leader-line, 5: surround-majority}",
                 "{1: feast-helmet, 2: rows-all-four, 3: diagonal-armor, 4: damage-line, 5: surround-majority}")
    assert problems(sheet(text)) == [
        "game.yaml:13: Ana: held: 5 leaders in the stomach and 1 held: at most 5 in all with 2 players (one from setup plus "
        "one per Leader Phase, 4 phases; once the leader stacks run out, rounds go on without a Leader Phase until a stomach "
        "fills (our ruling, rules.yaml))"
    ]
