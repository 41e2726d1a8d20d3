"""0.2.8's last tie-break counts seats clockwise "from the player with the Village King
Token" (tasty-humans-rules-0.2.8.txt line 215), but players who fill at the same moment
all take the King bonus (line 197). A sheet names the token's holder with `king_token:`;
without it the report states our default (rules.yaml rulings.king_token_unknown)."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.score.dispatch import score_sheet
from test_th_scoring_game import game, player, rank_players, v028  # noqa: F401 (fixtures)
from test_th_scoring_sheet import REPO, problems

runner = CliRunner()

# The play-tester's game: Quin and Rex fill together in the Leader Phase and tie at the top
# on score, damage tiles and empty cells; only seat order from the token separates them.
# Three Leader Phases are six turns of at most 4 basic tiles (0.2.8 line 131): 24 at most,
# so each full stomach holds 3 Damage tiles.
TIE = """\
game: tasty-humans
rules: "0.2.8"
ending: leader-phase
players:
  - name: Pia
    monster: legendary-dragon
    king: false
    leaders: {1: diagonal-boot, 2: columns-all-four, 3: sight-boot}
    held: line-hand
    stomach: ["......", "......", "3.....", "HA2BGH", "1GABHA"]
  - name: Quin
    monster: twin-headed-dragon
    king: true
    leaders: {1: damage-line, 2: leader-line, 3: range-boot}
    held: line-armor
    stomach: ["3HABGA", "HDBGAB", "AB2DBG", "BGHADH", "1HABHA"]
  - name: Rex
    monster: troll
    king: true
    leaders: {1: diagonal-armor, 2: feast-boot, 3: range-helmet}
    held: line-boot
    stomach: ["3GBAHG", "DBAHGB", "BD2GBH", "AHGBDA", "1GBAGG"]
"""


def _with_token(name: str) -> str:
    return TIE.replace('rules: "0.2.8"\n', f'rules: "0.2.8"\nking_token: {name}\n')


def test_the_sheet_names_who_holds_the_token(sheet):
    for holder in ("Quin", "Rex"):
        report = score_sheet(Project(REPO), sheet(_with_token(holder))).to_json()
        assert report["winners"] == [holder] and report["decided_by"] == "seat-from-king"
        assert report["king_token"] == {"name": holder, "stated": True}


def test_without_it_the_default_is_taken_and_said(sheet):
    report = score_sheet(Project(REPO), sheet(TIE)).to_json()
    assert report["winners"] == ["Quin"] and report["king_token"] == {"name": "Quin", "stated": False}
    result = runner.invoke(app, ["score", str(sheet(TIE))])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "seat order counted from Quin, who holds the Village King token (not on the sheet: our default takes the first King in seat order" in out


def test_the_token_is_named_only_when_seat_order_separates_two_kings_holders(v028):
    # Two Kings, but the tie ends at fewer empty cells: who holds the token does not matter.
    ps = [player("Ana", 0, 40, empty=2, king=True), player("Bo", 1, 40, empty=1, king=True)]
    r = rank_players(ps, v028)
    assert (r.winners, r.decided_by, r.king_token) == (("Bo",), "fewer-empty", None)
    # One King: the token is where the bonus is, nothing to choose.
    ps = [player("Ana", 0, 40), player("Bo", 1, 40, king=True)]
    assert rank_players(ps, v028).king_token is None
    # Two Kings tied to seat order: the holder decides; seat 2 given, seat 1 by default.
    ps = [player("Ana", 0, 40, king=True), player("Bo", 1, 40, king=True), player("Cy", 2, 40)]
    assert (rank_players(ps, v028, 1).winners, rank_players(ps, v028, 1).king_token) == (("Bo",), "Bo")
    r = rank_players(ps, v028)
    assert (r.winners, r.king_token, r.king_token_stated) == (("Ana",), "Ana", False)
    assert [p.name for _, p in rank_players(ps, v028, 1).places] == ["Bo", "Cy", "Ana"]
    # Lower places tied to seat order need the holder as well.
    ps = [player("Ana", 0, 50), player("Bo", 1, 40, king=True), player("Cy", 2, 40, king=True)]
    assert rank_players(ps, v028, 2).king_token == "Cy"
    assert [p.name for _, p in rank_players(ps, v028, 2).places] == ["Ana", "Cy", "Bo"]


def test_king_token_must_name_a_king(sheet):
    assert problems(sheet(_with_token("Pia"))) == [
        "game.yaml:3: king_token: 'Pia' is not a player holding the Village King: expected one of the players with king: true (Quin, Rex)"]
    assert problems(sheet(_with_token("Zed")))[0].startswith("game.yaml:3: king_token: 'Zed' is not a player holding the Village King")


def test_king_token_is_refused_where_the_sheet_has_no_such_field(sheet):
    """The field is the blank sheet's (asks_king_token): published rules never count seats
    from the token, and a solo game has none to count."""
    published = (REPO / "examples" / "tasty-humans-3p-leader-phase.yaml").read_text().replace(
        "ending: leader-phase\n", "ending: leader-phase\nking_token: Cleo\n")
    (problem,) = problems(sheet(published))
    assert problem.endswith(": king_token: Published rules break ties without seat order from the King token: expected no king_token")
    solo = (REPO / "examples" / "tasty-humans-solo-0.2.8.yaml").read_text().replace("ending: round\n", "ending: round\nking_token: Ana\n")
    (problem,) = problems(sheet(solo))
    assert problem.endswith(": king_token: a solo game has no seat order: expected no king_token")


def test_the_sheet_template_lists_the_field_where_the_tie_break_uses_it():
    def template(rules: str, players: int) -> str:
        result = runner.invoke(app, ["sheet", "tasty-humans", "--players", str(players), "--template", "--set", f"rules={rules}"])
        assert result.exit_code == 0, result.output
        return result.output

    assert "king_token: null" in template("0.2.8", 3)
    assert yaml.safe_load(template("0.2.8", 3))["king_token"] is None
    assert "king_token" not in template("published", 3)  # its tie-break never counts seats
    assert "king_token" not in template("0.2.8", 1)


def test_the_ambiguity_is_listed_in_rules_yaml():
    text = (REPO / "content" / "tasty-humans" / "rules.yaml").read_text()
    assert "king_token_unknown:" in text and "O215" in text and "O197" in text


def test_the_printed_0_2_8_sheet_asks_who_has_the_token(repo_project):
    from pnp.load.content import load_game
    from pnp.render.faces import render_game

    game = load_game(repo_project, "tasty-humans")
    for version, expected in (("0.2.8", True), ("published", False)):
        (sheets,) = render_game(game, {"rules": version}, 0.0, only={"scoring-sheet"})
        for face in sheets.faces:
            asks = 'class="box-king-token"' in face.svg and "two Kings: who has it?" in face.svg
            assert asks is (expected and face.name != "players-1"), (version, face.name)
