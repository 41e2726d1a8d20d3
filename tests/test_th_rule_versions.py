"""0.2.8 is 0.2.8 (issue 10): a sheet under 0.2.8 may use nothing only the published
book has (level names, the Balanced Diet, the monster challenges), its outputs name
classes and the Grip as 0.2.8 does; and the one ruling on a held leader, applied to the
tie-break and the Balanced Diet alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project, load_game
from pnp.errors import PnpError
from pnp.score.dispatch import score_sheet
from game_plugins import game_module, link_plugins

board_from_text = game_module("tasty_humans", "board").board_from_text
_scoring = game_module("tasty_humans", "scoring")
LeaderScore, PlayerScore, rank_players, score_solo = _scoring.LeaderScore, _scoring.PlayerScore, _scoring.rank_players, _scoring.score_solo

REPO = Path(__file__).resolve().parent.parent
SOLO_028 = (REPO / "examples" / "tasty-humans-solo-0.2.8.yaml").read_text()
SOLO = (REPO / "examples" / "tasty-humans-solo.yaml").read_text()
runner = CliRunner()


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), "tasty-humans")


def problems(path: Path) -> list[str]:
    with pytest.raises(PnpError) as exc:
        score_sheet(Project(REPO), path)
    return [str(e) for e in exc.value.errors]


AI_028 = "  ai_cards: [adv-01, adv-02, adv-10, adv-14, adv-18, adv-25, adv-27, adv-31, adv-37, adv-44, adv-45]\n"


@pytest.mark.parametrize("challenge, expected", [
    ("balanced-diet/expert", "game.yaml:25: solo.challenge: Rules 0.2.8 have no Balanced Diet challenge (only the published rules do): expected null"),
    ("monster", "game.yaml:25: solo.challenge: Rules 0.2.8 have no monster challenges (only the published rules do): expected null"),
])
def test_028_rejects_the_published_solo_challenges(sheet, challenge, expected):
    text = SOLO_028.replace(AI_028, AI_028 + f"  challenge: {challenge}\n")
    assert problems(sheet(text)) == [expected]
    # the same challenge is fine under the published rules
    published = text.replace('rules: "0.2.8"', "rules: published")
    assert score_sheet(Project(REPO), sheet(published)).to_json()["solo"]["challenge"]["name"] == challenge


def test_028_levels_are_card_counts_without_names(sheet):
    # 0.2.8 (lines 235-237): level N deals N cards; no names, no top level
    text = SOLO_028.replace("  level: 3\n", "  level: 9\n").replace("adv-45]", "adv-45, adv-46, adv-47, adv-48, adv-49, adv-50, adv-03]")
    solo = score_sheet(Project(REPO), sheet(text)).to_json()["solo"]
    assert (solo["level"], solo["level_name"]) == (9, "")
    published = text.replace('rules: "0.2.8"', "rules: published")
    assert problems(sheet(published)) == ["game.yaml:23: solo.level: 9 is not an A.I. level: expected 0 to 6"]


def test_028_report_names_classes_as_028_does(sheet):
    result = runner.invoke(app, ["score", str(sheet(SOLO_028)), "--project", str(REPO)])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "A.I. level 3: 2 Swordsman, 2 Archer, 1 Wizard, 2 General, 1 Cleric, 3 No Type: classes 14 + shapes 37 = 51" in flat
    result = runner.invoke(app, ["score", str(sheet(SOLO)), "--project", str(REPO)])
    flat = " ".join(result.output.split())
    assert "A.I. level 2 (Capable Creature): 2 Swordsman, 1 Archer, 2 Wizard, 1 Captain, 1 Cleric, 3 Peasant" in flat


def test_028_template_offers_only_what_028_has():
    result = runner.invoke(app, ["sheet", "tasty-humans", "-n", "1", "--template", "--set", "rules=0.2.8", "--project", str(REPO)])
    assert result.exit_code == 0, result.output
    assert "rules: '0.2.8'" in result.output and "Grip" in result.output
    assert "challenge" not in result.output and "balanced" not in result.output
    assert "A.I. level: the cards it started with" in result.output
    result = runner.invoke(app, ["sheet", "tasty-humans", "-n", "1", "--template", "--project", str(REPO)])
    assert "challenge: null         # balanced-diet/beginner, balanced-diet/normal, balanced-diet/expert, monster, or null" in result.output
    assert "A.I. level 0-6" in result.output and "Leader space" in result.output


def test_score_solo_refuses_what_the_version_lacks(game):
    old = game.data["rules"].version("0.2.8")
    board = board_from_text("H", old.symbol_to_tile())
    me = PlayerScore("Ana", 0, "griffin", (), 10, 0, 0, 0, False, 0, 0)
    with pytest.raises(ValueError, match="no Balanced Diet"):
        score_solo(me, board, old, 0, [], "balanced-diet/normal")
    with pytest.raises(ValueError, match="no monster challenges"):
        score_solo(me, board, old, 0, [], "monster")


# --- the held leader: one ruling (rules.yaml `held_leader`) everywhere -----------------


def player(name: str, seat: int, total: int, leaders, held: str | None = None) -> PlayerScore:
    items = tuple(LeaderScore(f"l{i}", f"L{i}", "line", p, 1, i + 1) for i, p in enumerate(leaders))
    return PlayerScore(name, seat, "troll", items, total - sum(leaders), 0, 0, 0, False, 0, 0, held=held)


def test_held_leader_is_ignored_in_the_tie_break(game):
    rules = game.data["rules"].version("published")
    assert rules.held_leader == "ignored"
    # Ana's eaten leaders (5, 9) beat Bo's lowest 4; her held tile is not compared
    ps = [player("Ana", 0, 40, (5, 9), held="line-boot"), player("Bo", 1, 40, (4, 9, 12))]
    assert (rank_players(ps, rules).winners, rank_players(ps, rules).decided_by) == (("Ana",), "leaders-ascending")
    # the other ruling, counting it as a tile that scored 0, flips the result: the switch is real
    zero = rules.model_copy(update={"held_leader": "zero"})
    assert rank_players(ps, zero).winners == ("Bo",)


def test_held_leader_is_ignored_in_the_balanced_diet(game):
    rules = game.data["rules"].version("published")
    board = board_from_text("H", rules.symbol_to_tile())
    me = player("Ana", 0, 50, (12, 14), held="line-boot")
    s = score_solo(me, board, rules, 0, [], "balanced-diet/normal")
    # a solo game always ends holding a leader, so counting it would make the challenge impossible
    assert s.challenge_met and s.challenge_reason.startswith("every leader scored at least 12")
    zero = rules.model_copy(update={"held_leader": "zero"})
    s = score_solo(me, board, zero, 0, [], "balanced-diet/normal")
    assert not s.challenge_met and s.challenge_reason == "below 12: line-boot was not eaten (0)"


def test_leader_limit_follows_the_stacks(tmp_path):
    import shutil

    root = tmp_path / "proj"
    shutil.copytree(REPO / "content" / "tasty-humans", root / "content" / "tasty-humans")
    link_plugins(root)
    path = root / "content" / "tasty-humans" / "rules.yaml"
    path.write_text(path.read_text().replace("leaders_max_by_players: {1: 5, 2: 5, 3: 5, 4: 4}", "leaders_max_by_players: {1: 5, 2: 5, 3: 5, 4: 5}"))
    with pytest.raises(PnpError, match=r"a player ends with one leader from setup plus one per stack, expected \{1: 5, 2: 5, 3: 5, 4: 4\}"):
        load_game(Project(root), "tasty-humans")
